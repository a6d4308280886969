/* SPDX-License-Identifier: BSD-3-Clause */
/* waves.h: incident waves for the potential-flow wave model (issue 8): nonlinear regular waves by
 * stream-function theory, linear (Airy) regular waves, and irregular waves from a JONSWAP or
 * Pierson-Moskowitz spectrum; computed on the host once, then evaluated wherever the model relaxes eta and
 * phi towards them or reports kinematics.
 *
 * Frame and units: SI throughout (m, s, rad; potentials in m^2/s, pressures divided by the density, m^2/s^2).
 * z is measured from the still water level, positive up, the bed at z = -h; the still water level is the mean
 * of eta over a wavelength. Regular waves travel towards +x (the caller rotates for oblique waves); irregular
 * waves towards the direction theta, counter-clockwise from +x.
 *
 * Regular waves, in the fixed frame, with the phase theta = k (x - c t) (a crest at x = c t):
 *   eta(x, t)    = sum_{j=1..N} E_j cos(j theta)
 *   Phi(x, z, t) = c_E x + sum_{j=1..N} B_j cosh(j k (z + h)) / cosh(j k h) sin(j theta) + A t
 *   u = Phi_x    = c_E + sum j k B_j cosh(j k (z + h)) / cosh(j k h) cos(j theta)
 *   w = Phi_z    =       sum j k B_j sinh(j k (z + h)) / cosh(j k h) sin(j theta)
 * c_E is the Eulerian mean current (the time mean of u at any point below the troughs). In the frame moving
 * with the wave, X = x - c t, the flow is steady, with the stream function (u - c = psi_z, w = -psi_X)
 *   psi(X, z)    = -Ubar (z + h) + sum B_j sinh(j k (z + h)) / cosh(j k h) cos(j k X),   Ubar = c - c_E,
 * psi = 0 on the bed and psi = -Q on the surface (Q the volume flux under the wave in that frame, per unit
 * span), and Bernoulli's equation holds throughout with the constant R and p = 0 on the surface:
 *   p / rho + ((u - c)^2 + w^2) / 2 + g (z + h) = R.
 * The mean mass-transport velocity is c_S = c - Q / h. The constant A = g h - R + c^2 / 2 - c c_E makes Phi
 * satisfy the unsteady Bernoulli equation on the surface with a zero constant, as the wave model's dynamic
 * condition (Zakharov form) does: Phi_t + |grad Phi|^2 / 2 + g eta = 0 at z = eta, so that the surface
 * potential phi(x, t) = Phi(x, eta, t) evolves by the model's own equation
 *   phi_t = -g eta - (u^2 + w^2) / 2 + w (w - u eta_x).
 * The dynamic pressure is p_d / rho = p / rho + g z = R - g h - ((u - c)^2 + w^2) / 2.
 *
 * Stream-function waves: the Fourier approximation method of M. M. Rienecker and J. D. Fenton ("A Fourier
 * approximation method for steady water waves", J. Fluid Mech. 104, 1981, 119-137) in the form of J. D.
 * Fenton ("The numerical solution of steady water wave problems", Computers & Geosciences 14, 1988, 357-368;
 * "Numerical methods for nonlinear waves", Advances in Coastal and Ocean Engineering 5, 1999, 241-324): the
 * unknowns k, eta_m at X_m = m L / (2 N), m = 0 .. N (crest to trough), B_1 .. B_N, Ubar, c, Q and R satisfy
 * the 2 N + 6 equations
 *   psi(X_m, eta_m) = -Q and Bernoulli with p = 0 at every eta_m (the kinematic and dynamic conditions),
 *   the trapezoidal mean of the eta_m = 0, eta_0 - eta_N = H, k c T = 2 pi (or k L = 2 pi), and
 *   c - Ubar = c_E (Eulerian current criterion) or c - Q / h = c_S (mass-transport criterion),
 * solved by Newton's method (analytic Jacobian, LU with partial pivoting, steps halved until the residual
 * falls) from the linear wave, the height raised in equal steps, each step's start extrapolated from the two
 * before. E_j is the cosine interpolant of the eta_m (E_N halved). A wave past the highest is refused, with
 * (J. D. Fenton, "Nonlinear wave theories", The Sea 9A, 1990, eq. 32; a fit to Williams' 1981 computations)
 *   H_max / h = (0.141063 L/h + 0.0095721 (L/h)^2 + 0.0077829 (L/h)^3)
 *             / (1 + 0.0788340 L/h + 0.0317567 (L/h)^2 + 0.0093407 (L/h)^3).
 *
 * Linear waves: N = 1, E_1 = H / 2, B_1 = g H / (2 sigma), the intrinsic frequency sigma = omega - k c_E
 * from the Doppler-shifted dispersion relation sigma^2 = g k tanh(k h) (the current is both c_E and c_S at
 * this order), Q = Ubar h, R = g h + Ubar^2 / 2, A = -c_E^2 / 2. Evaluated consistently to first order: the
 * surface potential is Phi at z = 0, and
 *   p_d / rho = Ubar (u - c_E) = g (H / 2) cosh(k (z + h)) / cosh(k h) cos(theta).
 *
 * Irregular waves, the linear superposition of M components travelling towards theta:
 *   eta(x, y, t) = sum_i a_i cos(psi_i),   phi(x, y, t) = sum_i (g a_i / omega_i) sin(psi_i)   (z = 0),
 *   psi_i = k_i (x cos theta + y sin theta) - omega_i t + epsilon_i,   omega_i^2 = g k_i tanh(k_i h),
 * at the midpoints f_i of M equal intervals df of the band [band_low f_p, band_high f_p] (f_p = 1 / T_p),
 * with a_i = sqrt(2 S(f_i) df) (so the discretised spectrum's m0 = sum a_i^2 / 2) and the phases epsilon_i
 * uniform in [0, 2 pi) from splitmix64 (S. Vigna; the same on every platform for a given seed). The spectra,
 * f in Hz:
 *   Pierson-Moskowitz: S_PM(f) = (5 / 16) Hs^2 f_p^4 f^-5 exp(-5/4 (f_p / f)^4)    (m0 = Hs^2 / 16 exactly)
 *   JONSWAP:           S_J(f)  = S_PM(f) gamma^r(f) / J(gamma),  r = exp(-(f - f_p)^2 / (2 sigma^2 f_p^2)),
 *                      sigma = 0.07 for f <= f_p and 0.09 above, J(gamma) the integral of S_PM gamma^r / m0
 *                      (computed: m0 = Hs^2 / 16 exactly again; J(1) = 1: gamma = 1 is Pierson-Moskowitz).
 * The band holds all but a fraction exp(-5/4 band_high^-4) of the Pierson-Moskowitz m0 (the default band, 0.5
 * to 4 f_p: 0.49%, Hs 0.24% low; less for JONSWAP), and the sea repeats after 1 / df. */
#ifndef HYDROCL_WAVES_H
#define HYDROCL_WAVES_H

#include <stdint.h>

#include "status.h"

enum { WAVES_MODES_MIN = 4, WAVES_MODES_MAX = 64, WAVES_MODES_DEFAULT = 20 };
enum { WAVES_STEPS_MAX = 100, WAVES_COMPONENTS_MAX = 100000, WAVES_COMPONENTS_DEFAULT = 200 };

typedef enum { WAVES_CURRENT_EULERIAN, WAVES_CURRENT_STOKES } WavesCurrent;
typedef enum { WAVES_LINEAR, WAVES_STREAM_FUNCTION } WavesKind;
typedef enum { WAVES_JONSWAP, WAVES_PIERSON_MOSKOWITZ } WavesSpectrum;

/* A regular wave as the user gives it: height, depth, and the period or the length. */
typedef struct {
  double g;               /* gravity [m/s^2] */
  double depth;           /* h [m] */
  double height;          /* H, crest to trough [m] */
  double period;          /* T [s] in the fixed frame, or 0 when the length is given */
  double length;          /* L [m], or 0 when the period is given */
  WavesCurrent criterion; /* which mean current `current` is */
  double current;         /* c_E or c_S [m/s], positive towards +x */
  int modes;              /* N, WAVES_MODES_MIN .. WAVES_MODES_MAX (stream function only) */
  int height_steps;       /* 1 .. WAVES_STEPS_MAX, or 0: from H / H_max and H L^2 / h^3 (stream_function.c) */
  int max_iterations;     /* Newton iterations per height step */
} RegularWaveSpec;

/* g = 9.81, N = WAVES_MODES_DEFAULT, automatic height steps, 40 iterations, no current (Eulerian); depth,
 * height and the period or the length to be set. */
RegularWaveSpec hcl_waves_regular_spec_default(void);

/* A solved regular wave: what the evaluation functions below read. Plain data, no resources. */
typedef struct {
  WavesKind kind;
  int modes;                          /* N; 1 for a linear wave */
  double g, depth, height;            /* [m/s^2], h [m], H [m] */
  double k, length, period, celerity; /* [1/m], L = 2 pi / k [m], T = L / c [s], c [m/s] */
  double current_euler;               /* c_E [m/s] */
  double current_stokes;              /* c_S = c - Q / h [m/s] */
  double volume_flux;                 /* Q [m^2/s] */
  double bernoulli;                   /* R [m^2/s^2] */
  double potential_rate;              /* A [m^2/s^2] */
  double B[WAVES_MODES_MAX + 1];      /* B_j [m^2/s], j = 1 .. N (B[0] = 0) */
  double E[WAVES_MODES_MAX + 1];      /* E_j [m], j = 1 .. N (E[0] = 0: the mean level) */
  int iterations;                     /* Newton iterations over all height steps (0 for a linear wave) */
  double residual;                    /* the largest equation residual at the end (stream_function.c) */
} RegularWave;

/* The stream-function wave of spec. HCL_EDATA naming the key, the value and the allowed range for: g, depth,
 * height, period or length <= 0 or not finite, both or neither of period and length, modes, height_steps or
 * max_iterations out of range, more modes than double precision allows for the wave (N k H > 30), a wave
 * blocked by an opposing current, and a wave higher than the highest wave of its length (for a given period,
 * of the length the solve finds at each height step, extrapolated to the height asked where the solve stops
 * short of it). HCL_ENOTCONVERGED with the residual when Newton's method does not converge. HCL_ENOMEM. */
HclStatus hcl_waves_solve_stream(const RegularWaveSpec *spec, RegularWave *out);

/* The linear wave of spec (modes, height_steps, max_iterations and the criterion are not used): the same
 * refusals. */
HclStatus hcl_waves_solve_linear(const RegularWaveSpec *spec, RegularWave *out);

/* k of the wave of the given period riding on a uniform current U (positive with the wave): the root of
 * (2 pi / T - k U)^2 = g k tanh(k h) with 2 pi / T - k U > 0 that continues k of U = 0 (the smaller one
 * against a current). HCL_EDATA for g, depth, period <= 0, or a wave blocked by an opposing current (no such
 * root). */
HclStatus hcl_waves_solve_dispersion(double g, double depth, double period, double current, double *k);

/* H_max [m] of a wave of length L [m] in depth h [m] (Fenton 1990, eq. 32; above). */
double hcl_waves_breaking_height(double depth, double length);

/* Evaluation of a regular wave at the fixed-frame point x [m], elevation z [m] and time t [s]: pure, no
 * allocation. Meant for z between the bed and the surface; above it the series are continued analytically. */
double hcl_waves_eta(const RegularWave *wave, double x, double t);
/* The surface potential: Phi at z = eta (a linear wave: at z = 0). */
double hcl_waves_phi(const RegularWave *wave, double x, double t);
void hcl_waves_velocity(const RegularWave *wave, double x, double z, double t, double *u, double *w);
double hcl_waves_pressure(const RegularWave *wave, double x, double z, double t); /* p_d / rho = p / rho + g z */
double hcl_waves_stream(const RegularWave *wave, double x, double z, double t);   /* psi at X = x - c t */

/* An irregular sea as the user gives it. */
typedef struct {
  WavesSpectrum spectrum;
  double g, depth;            /* [m/s^2], h [m] */
  double hs, tp;              /* significant wave height 4 sqrt(m0) [m], peak period [s] */
  double gamma;               /* JONSWAP peak enhancement, 1 .. 10 */
  double direction;           /* theta [rad] */
  int components;             /* M, 1 .. WAVES_COMPONENTS_MAX */
  double band_low, band_high; /* the band in multiples of f_p: 0 < band_low < 1 < band_high */
  uint64_t seed;              /* of the random phases */
} IrregularWaveSpec;

/* JONSWAP, g = 9.81, gamma = 3.3, theta = 0, M = WAVES_COMPONENTS_DEFAULT, band 0.5 to 4, seed 1; depth, hs,
 * tp to be set. */
IrregularWaveSpec hcl_waves_irregular_spec_default(void);

/* The components of an irregular sea; arrays of `components` entries, freed by hcl_waves_irregular_free. */
typedef struct {
  int components;
  double g, depth, direction;
  double *omega;     /* omega_i = 2 pi f_i [rad/s], increasing */
  double *amplitude; /* a_i [m] */
  double *k;         /* k_i [1/m] */
  double *phase;     /* epsilon_i [rad] */
} IrregularWave;

/* HCL_EDATA naming the key, the value and the allowed range for every setting out of range; HCL_ENOMEM. On
 * failure *out holds nothing to free. */
HclStatus hcl_waves_irregular_create(const IrregularWaveSpec *spec, IrregularWave *out);
void hcl_waves_irregular_free(IrregularWave *wave); /* NULL-safe; leaves the arrays NULL */

double hcl_waves_irregular_eta(const IrregularWave *wave, double x, double y, double t);
double hcl_waves_irregular_phi(const IrregularWave *wave, double x, double y, double t); /* Phi at z = 0 */

#endif
