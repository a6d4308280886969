/* SPDX-License-Identifier: BSD-3-Clause */
/* test_waves.c: incident waves (waves.h). Stream-function waves: a low wave is the linear one; the wave speed
 * against Stokes' third- and fifth-order theory to the next order's error; both free-surface conditions
 * between the collocation points, in the frame of the wave and, with a current, in the fixed frame as the
 * wave model writes them; J. D. Fenton's own program's solutions; the nonlinear lengthening of a wave of
 * given period; the refusals. Linear waves: the Doppler-shifted dispersion relation and the surface pressure.
 * Irregular waves: Hs of the discretised spectra, Pierson-Moskowitz as JONSWAP with gamma = 1, reproducible
 * phases, the linear surface condition. */
#include <math.h>
#include <stdint.h>

#include "waves.h"
#include "../support/tap.h"

#define PI 3.14159265358979323846
#define G 9.81

static RegularWaveSpec regular(double depth, double height, double period, double length) {
  RegularWaveSpec spec = hcl_waves_regular_spec_default();
  spec.depth = depth;
  spec.height = height;
  spec.period = period;
  spec.length = length;
  return spec;
}

static void expect_refusal(HclStatus got, HclStatus want, const char *part, const char *what) {
  TAP_OK(got == want && tap_contains(hcl_status_message(), part), "%s refused (%s): %s", what, hcl_status_name(got),
         hcl_status_message());
  hcl_status_clear();
}

/* H / L = 1e-4, h = 2 m, T = 3 s (k h = 1.1): the stream-function wave's k and c differ from linear
 * theory's by their second-order corrections, (C2 / C0) (k H / 2)^2 = 0.8 (pi 1e-4)^2 = 8e-8 relative (Fenton
 * 1985, below); 1e-6 leaves a margin of 10. Its eta, phi, u, w and p_d differ from the linear wave's by the
 * second-order terms, about k H / 2 = 3e-4 of each one's amplitude (times coefficients near 1 at this depth);
 * 2e-3 of it is allowed. */
static void small_waves_are_linear(void) {
  double k_linear;
  HclStatus st = hcl_waves_solve_dispersion(G, 2, 3, 0, &k_linear);
  double length = 2 * PI / k_linear, celerity = 2 * PI / 3 / k_linear;
  for (int given_period = 0; given_period < 2; given_period++) {
    RegularWaveSpec spec = regular(2, 1e-4 * length, given_period ? 3 : 0, given_period ? 0 : length);
    RegularWave stream, linear;
    st = st ? st : hcl_waves_solve_stream(&spec, &stream);
    st = st ? st : hcl_waves_solve_linear(&spec, &linear);
    TAP_OK(st == HCL_OK && tap_close(stream.k, k_linear, 1e-6, 0) && tap_close(stream.celerity, celerity, 1e-6, 0),
           "H/L = 1e-4, %s given: k and c of the stream function are linear theory's (relative %.1e, %.1e)",
           given_period ? "T" : "L", fabs(stream.k / k_linear - 1), fabs(stream.celerity / celerity - 1));
    double a = spec.height / 2, omega = 2 * PI / 3, worst = 0;
    for (int i = 0; st == HCL_OK && i < 7; i++) {
      double x = 0.37 * i * length, t = 0.21 * i, z = -0.3 * i, us, ws, ul, wl;
      hcl_waves_velocity(&stream, x, z, t, &us, &ws);
      hcl_waves_velocity(&linear, x, z, t, &ul, &wl);
      double deviations[5] = {(hcl_waves_eta(&stream, x, t) - hcl_waves_eta(&linear, x, t)) / a,
                              (hcl_waves_phi(&stream, x, t) - hcl_waves_phi(&linear, x, t)) / (G * a / omega),
                              (us - ul) / (a * omega / tanh(k_linear * 2)), (ws - wl) / (a * omega),
                              (hcl_waves_pressure(&stream, x, z, t) - hcl_waves_pressure(&linear, x, z, t)) / (G * a)};
      for (int q = 0; q < 5; q++) {
        worst = fmax(worst, fabs(deviations[q]));
      }
    }
    TAP_OK(st == HCL_OK && worst < 2e-3,
           "H/L = 1e-4, %s given: eta, phi, u, w, p_d of the stream function and the linear wave agree to "
           "%.1e of their amplitudes",
           given_period ? "T" : "L", worst);
  }
}

/* The linear wave: (omega - k U)^2 = g k tanh(k h) on and against a current, the period kept (rounding only:
 * 1e-13); p_d = g eta at z = 0 and g eta / cosh(k h) on the bed (exact for the linear wave). */
static void linear_waves(void) {
  const double currents[3] = {0, 0.8, -0.8};
  for (int i = 0; i < 3; i++) {
    RegularWaveSpec spec = regular(5, 0.5, 4, 0);
    spec.current = currents[i];
    RegularWave wave;
    HclStatus st = hcl_waves_solve_linear(&spec, &wave);
    double omega = 2 * PI / 4, intrinsic = omega - wave.k * currents[i];
    double dispersion = intrinsic * intrinsic / (G * wave.k * tanh(wave.k * 5)) - 1;
    TAP_OK(st == HCL_OK && fabs(dispersion) < 1e-13 && tap_close(wave.period, 4, 1e-13, 0) &&
               tap_close(wave.celerity, omega / wave.k, 1e-13, 0),
           "linear wave, current %+.1f m/s: the Doppler-shifted dispersion relation (%.1e), T and c = omega "
           "/ k kept (L = %.4f m)",
           currents[i], dispersion, wave.length);
  }
  RegularWave wave;
  RegularWaveSpec spec = regular(5, 0.5, 4, 0);
  HclStatus st = hcl_waves_solve_linear(&spec, &wave);
  double x = 3.1, t = 0.7, eta = hcl_waves_eta(&wave, x, t);
  double surface = hcl_waves_pressure(&wave, x, 0, t), bed = hcl_waves_pressure(&wave, x, -5, t);
  TAP_OK(st == HCL_OK && tap_close(surface, G * eta, 1e-13, 1e-15) &&
             tap_close(bed, G * eta / cosh(wave.k * 5), 1e-13, 1e-15),
         "linear wave: p_d = g eta at z = 0 (%.6f, %.6f) and g eta / cosh(k h) at the bed", surface, G * eta);
}

/* Stokes' wave speed (J. D. Fenton, "A fifth-order Stokes theory for steady waves", J. Waterway, Port,
 * Coastal and Ocean Eng. 111, 1985, 216-234), with eps = k H / 2, S = sech(2 k h) and no Eulerian current:
 *   c = sqrt(g / k) (C0 + eps^2 C2 + eps^4 C4 + O(eps^6)),   C0 = tanh(k h)^1/2,
 *   C2 = C0 (2 + 7 S^2) / (4 (1 - S)^2),
 *   C4 = C0 (4 + 32 S - 116 S^2 - 400 S^3 - 71 S^4 + 146 S^5) / (32 (1 - S)^5).
 * The third-order formula in its squared form,
 *   c^2 = g / k tanh(k h) (1 + eps^2 (9 - 10 tanh^2 + 9 tanh^4) / (8 tanh^4)),
 * is (C0 + eps^2 C2)^2 to O(eps^2), and falls short of c by eps^4 (C4 + C2^2 / (2 C0)) sqrt(g / k) +
 * O(eps^6): the stream-function wave's c (converged to 1e-12, N = 20) must show that gap to within the next
 * order, eps^2 = 1.6e-2 of it times a coefficient of a few: 20% is allowed. The fifth-order c must agree to
 * O(eps^6): 15% of the eps^4 term. */
static void stokes_wave_speed(void) {
  const double kh[2] = {2, 1.5};
  for (int i = 0; i < 2; i++) {
    double h = 10, k = kh[i] / h, length = 2 * PI / k, height = 0.04 * length, eps = k * height / 2;
    RegularWaveSpec spec = regular(h, height, 0, length);
    RegularWave wave;
    HclStatus st = hcl_waves_solve_stream(&spec, &wave);
    double t = tanh(k * h), s = 1 / cosh(2 * k * h), scale = sqrt(G / k);
    double c0 = sqrt(t), c2 = c0 * (2 + 7 * s * s) / (4 * (1 - s) * (1 - s));
    double c4 =
        c0 * (4 + 32 * s - 116 * s * s - 400 * pow(s, 3) - 71 * pow(s, 4) + 146 * pow(s, 5)) / (32 * pow(1 - s, 5));
    double third = sqrt(G / k * t * (1 + eps * eps * (9 - 10 * t * t + 9 * pow(t, 4)) / (8 * pow(t, 4))));
    double gap = scale * pow(eps, 4) * (c4 + c2 * c2 / (2 * c0));
    double fifth = scale * (c0 + eps * eps * c2 + pow(eps, 4) * c4);
    double gap_ratio = (wave.celerity - third) / gap,
           fifth_error = (wave.celerity - fifth) / (scale * pow(eps, 4) * c4);
    TAP_OK(st == HCL_OK && fabs(gap_ratio - 1) < 0.2 && fabs(fifth_error) < 0.15,
           "k h = %.1f, H/L = 0.04 (eps = %.3f): c = %.7f m/s; Stokes third order %.7f falls short by %.3f "
           "of the predicted eps^4 term, fifth order %.7f is off by %.3f of it",
           kh[i], eps, wave.celerity, third, gap_ratio, fifth, fifth_error);
  }
}

/* The flux through a vertical from the bed to the surface in the frame of the wave, integral (u - c) dz =
 * psi(eta) - psi(-h) = -Q: Simpson's rule on 400 intervals (u is a sum of cosh(j k (z + h)): the error is
 * (j k dz)^4 / 180 of each mode, 1e-10 for the fifth with k h = 1 and dz = h / 400). */
static double flux_below_surface(const RegularWave *wave, double x, double t) {
  enum { INTERVALS = 400 };
  double top = hcl_waves_eta(wave, x, t), dz = (top + wave->depth) / INTERVALS, sum = 0;
  for (int i = 0; i <= INTERVALS; i++) {
    double u, w;
    hcl_waves_velocity(wave, x, -wave->depth + i * dz, t, &u, &w);
    sum += (i == 0 || i == INTERVALS ? 1 : i % 2 ? 4 : 2) * (u - wave->celerity);
  }
  return sum * dz / 3;
}

/* H = 0.5 H_max, h = 10 m, L = 60 m (k h = 1.05), N = 20: at the midpoints between the 21 collocation points
 * and at t = 0.37 T (the frame's phase), psi = -Q, the flux under the surface is -Q, and Bernoulli's constant
 * is R. At the points Newton's tolerance (1e-12) holds; between them the truncation of the series errs, of
 * the size of the last coefficient, E_20 / E_1 = 3e-10 here: 1e-8 of c H (the flux) and g H (Bernoulli)
 * allowed. */
static void surface_conditions_between_nodes(void) {
  double h = 10, length = 60;
  RegularWaveSpec spec = regular(h, 0.5 * hcl_waves_breaking_height(h, length), 0, length);
  RegularWave wave;
  HclStatus st = hcl_waves_solve_stream(&spec, &wave);
  double t = 0.37 * wave.period, kinematic = 0, flux = 0, dynamic = 0;
  for (int i = 0; st == HCL_OK && i < 2 * spec.modes; i++) {
    double x = (i + 0.5) * length / (2 * spec.modes) + wave.celerity * t, eta = hcl_waves_eta(&wave, x, t), u, w;
    hcl_waves_velocity(&wave, x, eta, t, &u, &w);
    kinematic = fmax(kinematic, fabs(hcl_waves_stream(&wave, x, eta, t) + wave.volume_flux));
    flux = fmax(flux, fabs(flux_below_surface(&wave, x, t) + wave.volume_flux));
    double bernoulli = ((u - wave.celerity) * (u - wave.celerity) + w * w) / 2 + G * (eta + h);
    dynamic = fmax(dynamic, fabs(bernoulli - wave.bernoulli));
  }
  /* The cosine interpolant passes through the nodes: crest (node 0) to trough (node N) is H to rounding. */
  double crest = wave.celerity * t,
         height = hcl_waves_eta(&wave, crest, t) - hcl_waves_eta(&wave, crest + length / 2, t);
  TAP_OK(st == HCL_OK && tap_close(height, spec.height, 1e-13, 0), "crest to trough: %.15f m (H = %.15f m)", height,
         spec.height);
  double flux_scale = wave.celerity * spec.height, energy_scale = G * spec.height;
  TAP_OK(st == HCL_OK && kinematic < 1e-8 * flux_scale && flux < 1e-8 * flux_scale && dynamic < 1e-8 * energy_scale,
         "H = 0.5 H_max, k h = 1.05, N = 20, between the collocation points: psi + Q %.1e, flux + Q %.1e (of "
         "c H), Bernoulli - R %.1e (of g H); E_N / E_1 = %.1e",
         kinematic / flux_scale, flux / flux_scale, dynamic / energy_scale, wave.E[spec.modes] / wave.E[1]);
}

/* f'(s) by the fourth-order central difference (error d^4 f^(5) / 30). */
static double central(double (*f)(double), double s, double d) {
  return (f(s - 2 * d) - 8 * f(s - d) + 8 * f(s + d) - f(s + 2 * d)) / (12 * d);
}

static const RegularWave *current_wave;
static double at_x, at_t;
static double eta_of_x(double x) {
  return hcl_waves_eta(current_wave, x, at_t);
}
static double eta_of_t(double t) {
  return hcl_waves_eta(current_wave, at_x, t);
}
static double phi_of_t(double t) {
  return hcl_waves_phi(current_wave, at_x, t);
}

/* The wave model's surface conditions in the fixed frame, on a wave riding a current given by its mass
 * transport (c_S = 0.3 m/s): the Zakharov form of the kinematic condition and of Bernoulli's with p = 0,
 *   eta_t = w - u eta_x,   phi_t = -g eta - (u^2 + w^2) / 2 + w (w - u eta_x),
 * which hold only if phi carries c_E x and A t. Derivatives by fourth-order differences with steps L / 1000
 * and T / 1000 (error (2 pi 1e-3)^4 / 30 = 5e-11 of the first harmonic); the wave's truncation is 1e-8:
 * 1e-7 of c H / L and g H allowed. */
static void fixed_frame_conditions(void) {
  RegularWaveSpec spec = regular(8, 2, 7, 0);
  spec.criterion = WAVES_CURRENT_STOKES;
  spec.current = 0.3;
  RegularWave wave;
  HclStatus st = hcl_waves_solve_stream(&spec, &wave);
  current_wave = &wave;
  double kinematic = 0, dynamic = 0, dx = wave.length / 1000, dt = wave.period / 1000;
  for (int i = 0; st == HCL_OK && i < 9; i++) {
    at_x = 13.7 * i - 20;
    at_t = 1.3 * i;
    double eta = eta_of_x(at_x), eta_x = central(eta_of_x, at_x, dx), u, w;
    hcl_waves_velocity(&wave, at_x, eta, at_t, &u, &w);
    kinematic = fmax(kinematic, fabs(central(eta_of_t, at_t, dt) - (w - u * eta_x)));
    double phi_t = -G * eta - (u * u + w * w) / 2 + w * (w - u * eta_x);
    dynamic = fmax(dynamic, fabs(central(phi_of_t, at_t, dt) - phi_t));
  }
  double kinematic_scale = wave.celerity * spec.height / wave.length, dynamic_scale = G * spec.height;
  TAP_OK(st == HCL_OK && fabs(wave.current_stokes - 0.3) < 1e-12 && kinematic < 1e-7 * kinematic_scale &&
             dynamic < 1e-7 * dynamic_scale,
         "c_S = 0.3 m/s (c_E = %.4f m/s), fixed frame: eta_t = w - u eta_x to %.1e of c H / L, phi_t = "
         "Zakharov's dynamic condition to %.1e of g H",
         wave.current_euler, kinematic / kinematic_scale, dynamic / dynamic_scale);
}

/* J. D. Fenton's program Fourier (the method of Fenton 1988, 1999), 20 modes, no Eulerian current, its output
 * for two cases in the repository ChiaCheng-Tsai/FentonStokesClass, Solution(Fourier).res: (1) H/d = 0.3,
 * L/d = 8; (2) H/d = 0.2, T sqrt(g/d) = 3 (86% of the highest wave). Dimensionless by g and d; B_j by
 * (g / k^3)^1/2 and E_j by 1 / k. The integral quantities are printed to 4 decimals (allowed: half a unit,
 * 5e-5), B_j and E_j to 8 significant digits (allowed 5e-9, half a unit of B_1's last digit). */
static const double fenton_input[2][3] = {{0.3, 0, 8}, {0.2, 3, 0}}; /* H/d, T sqrt(g/d) or 0, L/d or 0 */
/* c, T, L, R, Q, c_S */
static const double fenton_integral[2][6] = {{0.9395, 8.5153, 8.0000, 1.4446, 0.9279, 0.0116},
                                             {0.5509, 3.0000, 1.6526, 1.1517, 0.5424, 0.0085}};
static const double fenton_b[2][5] = {{1.3372527e-01, 1.5944230e-02, 1.5073329e-03, 5.7889960e-05, -1.0718677e-05},
                                      {3.3379590e-01, 1.0903272e-02, 1.4006866e-03, 2.3988462e-04, 4.6076374e-05}};
static const double fenton_e[2][5] = {{1.1060569e-01, 2.7800975e-02, 6.6573116e-03, 1.7363711e-03, 4.9366487e-04},
                                      {3.4415007e-01, 7.7124456e-02, 2.7655267e-02, 1.2081391e-02, 5.8781740e-03}};

static void fenton_program(void) {
  for (int i = 0; i < 2; i++) {
    RegularWaveSpec spec = regular(1, fenton_input[i][0], fenton_input[i][1], fenton_input[i][2]);
    spec.g = 1;
    RegularWave wave;
    HclStatus st = hcl_waves_solve_stream(&spec, &wave);
    double got[6] = {wave.celerity, wave.period, wave.length, wave.bernoulli, wave.volume_flux, wave.current_stokes};
    double worst = 0, worst_series = 0;
    for (int q = 0; q < 6; q++) {
      worst = fmax(worst, fabs(got[q] - fenton_integral[i][q]));
    }
    for (int j = 1; j <= 5; j++) {
      worst_series = fmax(worst_series, fabs(wave.B[j] / sqrt(1 / pow(wave.k, 3)) - fenton_b[i][j - 1]));
      worst_series = fmax(worst_series, fabs(wave.E[j] * wave.k - fenton_e[i][j - 1]));
    }
    TAP_OK(st == HCL_OK && worst <= 5e-5 && worst_series <= 5e-9 && wave.residual <= 1e-12,
           "Fenton's program, H/d = %.1f, %s: c, T, L, R, Q, c_S to %.1e (printed to 1e-4), B_1..5 and "
           "E_1..5 to %.1e (c = %.6f, T = %.6f, L = %.6f; %d Newton iterations, residual %.1e)",
           fenton_input[i][0], i ? "T sqrt(g/d) = 3" : "L/d = 8", worst, worst_series, wave.celerity, wave.period,
           wave.length, wave.iterations, wave.residual);
    /* The second case's E_20 k is printed as 5.7813292e-06, whole; we store it halved (the interpolant). */
    if (i == 1) {
      double last = 2 * wave.E[20] * wave.k;
      TAP_OK(st == HCL_OK && fabs(last - 5.7813292e-06) < 5e-14,
             "Fenton's program, T sqrt(g/d) = 3: the last coefficient, 2 E_20 k = %.7e (printed 5.7813292e-06)", last);
    }
  }
  /* Fenton's output also prints the highest wave of the length (eq. 32) to 3 decimals; L/d = 9.7556 is from
   * his program's output in erdc/proteus, nonlinearWaves/Solution.res. */
  TAP_OK(fabs(hcl_waves_breaking_height(1, 8) - 0.678) < 5e-4 &&
             fabs(hcl_waves_breaking_height(1, 1.6526) - 0.234) < 5e-4 &&
             fabs(hcl_waves_breaking_height(1, 9.7556) - 0.707) < 5e-4,
         "the highest wave H_max/d of L/d = 8, 1.6526, 9.7556: %.4f, %.4f, %.4f (Fenton's program: 0.678, "
         "0.234, 0.707)",
         hcl_waves_breaking_height(1, 8), hcl_waves_breaking_height(1, 1.6526), hcl_waves_breaking_height(1, 9.7556));
}

/* For a given period a nonlinear wave is longer than the linear one, the more so the higher it is; in deep
 * water by the factor 1 + eps^2 + eps^4 / 2 (eps = k H / 2, from c = (g / k)^1/2 (1 + eps^2 / 2 + eps^4 / 8),
 * Fenton 1985 at S = 0), to O(eps^6) = 6e-8 at H/L = 0.02 (1e-6 allowed). */
static void longer_than_linear(void) {
  RegularWave linear, wave;
  RegularWaveSpec spec = regular(20, 1, 8, 0);
  HclStatus st = hcl_waves_solve_linear(&spec, &linear);
  double previous = linear.length, lengths[4];
  bool longer = st == HCL_OK;
  for (int i = 0; i < 4 && st == HCL_OK; i++) {
    spec.height = 1.5 * (i + 1);
    st = hcl_waves_solve_stream(&spec, &wave);
    lengths[i] = wave.length;
    longer = longer && st == HCL_OK && wave.length > previous;
    previous = wave.length;
  }
  TAP_OK(longer, "T = 8 s, h = 20 m: L = %.3f m (linear), then %.3f, %.3f, %.3f, %.3f m for H = 1.5, 3, 4.5, 6 m",
         linear.length, lengths[0], lengths[1], lengths[2], lengths[3]);
  spec = regular(200, 1, 5, 0);
  st = hcl_waves_solve_linear(&spec, &linear);
  spec.height = 0.02 * linear.length;
  st = st ? st : hcl_waves_solve_stream(&spec, &wave);
  double eps = wave.k * spec.height / 2, predicted = 1 + eps * eps + pow(eps, 4) / 2;
  double stretch = wave.length / linear.length;
  TAP_OK(st == HCL_OK && fabs(stretch - predicted) < 1e-6,
         "T = 5 s in deep water (k h = %.0f), H/L = 0.02: L / L_linear = %.8f, Stokes %.8f", wave.k * 200, stretch,
         predicted);
}

static void regular_refusals(void) {
  RegularWave wave;
  RegularWaveSpec spec = regular(0, 1, 5, 0);
  expect_refusal(hcl_waves_solve_stream(&spec, &wave), HCL_EDATA, "waves.depth = 0", "depth 0");
  spec = regular(10, -1, 5, 0);
  expect_refusal(hcl_waves_solve_stream(&spec, &wave), HCL_EDATA, "waves.height = -1", "height -1");
  spec = regular(10, 1, 5, 40);
  expect_refusal(hcl_waves_solve_stream(&spec, &wave), HCL_EDATA, "give one of them", "both period and length");
  spec = regular(10, 1, 0, 0);
  expect_refusal(hcl_waves_solve_linear(&spec, &wave), HCL_EDATA, "give one of them", "neither period nor length");
  spec = regular(10, 1, -5, 0);
  expect_refusal(hcl_waves_solve_stream(&spec, &wave), HCL_EDATA, "waves.period = -5", "period -5");
  spec = regular(10, 1, 5, 0);
  spec.modes = WAVES_MODES_MAX + 1;
  expect_refusal(hcl_waves_solve_stream(&spec, &wave), HCL_EDATA, "allowed 4 to 64", "65 modes");
  spec.modes = 3;
  expect_refusal(hcl_waves_solve_stream(&spec, &wave), HCL_EDATA, "allowed 4 to 64", "3 modes");
  spec = regular(50, 6, 0, 50); /* deep and steep: N k H = 48 */
  spec.modes = 64;
  expect_refusal(hcl_waves_solve_stream(&spec, &wave), HCL_EDATA, "too many for a wave this steep",
                 "64 modes, k H = 0.75");
  /* issue 49: so steep that no number of modes is allowed ("allowed here: 4 to 0"): far past breaking */
  spec = regular(10, 10, 1, 0);
  expect_refusal(hcl_waves_solve_stream(&spec, &wave), HCL_EDATA,
                 "waves.height = 10 m is past the breaking limit for waves.period = 1 s in depth 10 m: the wave is "
                 "about 1.561 m long (linear theory) and the highest wave of that length is H_max = 0.22 m",
                 "H = 10 m, T = 1 s");
  spec = regular(10, 10, 0, 1.5);
  expect_refusal(hcl_waves_solve_stream(&spec, &wave), HCL_EDATA, "past the breaking limit for waves.length = 1.5 m",
                 "H = 10 m, L = 1.5 m");
  spec = regular(10, 1, 5, 0);
  spec.height_steps = WAVES_STEPS_MAX + 1;
  expect_refusal(hcl_waves_solve_stream(&spec, &wave), HCL_EDATA, "waves.height_steps = 101", "101 height steps");
  spec = regular(10, 1, 5, 0);
  spec.current = -6;
  expect_refusal(hcl_waves_solve_stream(&spec, &wave), HCL_EDATA, "blocked", "T = 5 s against a 6 m/s current");
  /* Past the highest wave: given a length, before any solve; given a period, from the steps' lengths. */
  spec = regular(10, 1.02 * hcl_waves_breaking_height(10, 50), 0, 50);
  expect_refusal(hcl_waves_solve_stream(&spec, &wave), HCL_EDATA, "past the breaking limit H_max",
                 "H = 1.02 H_max, L given");
  expect_refusal(hcl_waves_solve_linear(&spec, &wave), HCL_EDATA, "past the breaking limit", "linear, H = 1.02 H_max");
  spec = regular(1, 0.26, 3 / sqrt(G), 0); /* the H/d = 0.2 case above is 86% of the highest: 0.26 is 108% */
  expect_refusal(hcl_waves_solve_stream(&spec, &wave), HCL_EDATA, "past the breaking limit for waves.period",
                 "H/d = 0.26, T sqrt(g/d) = 3");
  spec = regular(1, 0.2, 3 / sqrt(G), 0);
  spec.max_iterations = 1;
  expect_refusal(hcl_waves_solve_stream(&spec, &wave), HCL_ENOTCONVERGED, "largest residual", "one Newton iteration");
}

/* Hs = 4 sqrt(m0) of the discretised spectrum, m0 = sum a_i^2 / 2 (waves.h). */
static double discretised_hs(const IrregularWave *wave) {
  double m0 = 0;
  for (int i = 0; i < wave->components; i++) {
    m0 += wave->amplitude[i] * wave->amplitude[i] / 2;
  }
  return 4 * sqrt(m0);
}

static IrregularWaveSpec sea(WavesSpectrum spectrum, double gamma, int components, double low, double high) {
  IrregularWaveSpec spec = hcl_waves_irregular_spec_default();
  spec.spectrum = spectrum;
  spec.depth = 30;
  spec.hs = 2;
  spec.tp = 8;
  spec.gamma = gamma;
  spec.components = components;
  spec.band_low = low;
  spec.band_high = high;
  return spec;
}

/* Pierson-Moskowitz: the band [0.5, 4] f_p holds exp(-5/4 / 4^4) - exp(-5/4 / 0.5^4) of m0 (its distribution
 * function), so Hs is 0.24% low; the midpoint rule's error on 200 intervals, (df^2 / 24) (S'(b) - S'(a)) with
 * S' tiny at both ends, is below 1e-7 (1e-6 allowed). JONSWAP, gamma = 3.3: its tail above 4 f_p is
 * Pierson-Moskowitz's divided by J(gamma) > 1, so Hs is at most 0.24% low, and on a band of [0.3, 10] f_p
 * with 4000 components within 1e-4 of Hs (tail 1.25e-4 / J of m0): the normalisation J(gamma) right. */
static void spectra(void) {
  IrregularWave pm = {0}, jonswap = {0}, wide = {0};
  IrregularWaveSpec spec = sea(WAVES_PIERSON_MOSKOWITZ, 1, 200, 0.5, 4);
  HclStatus st = hcl_waves_irregular_create(&spec, &pm);
  double band = exp(-1.25 / pow(4, 4)) - exp(-1.25 / pow(0.5, 4)), want = 2 * sqrt(band);
  TAP_OK(st == HCL_OK && tap_close(discretised_hs(&pm), want, 1e-6, 0),
         "Pierson-Moskowitz, Hs = 2 m, 200 components on [0.5, 4] f_p: Hs = %.8f m, the band's share %.8f m",
         discretised_hs(&pm), want);
  spec = sea(WAVES_JONSWAP, 3.3, 200, 0.5, 4);
  st = st ? st : hcl_waves_irregular_create(&spec, &jonswap);
  double hs = discretised_hs(&jonswap);
  TAP_OK(st == HCL_OK && hs <= 2 && hs > 2 * (1 - 0.0025),
         "JONSWAP gamma = 3.3, 200 components on [0.5, 4] f_p: Hs = %.6f m (at most 0.24%% low)", hs);
  spec = sea(WAVES_JONSWAP, 3.3, 4000, 0.3, 10);
  st = st ? st : hcl_waves_irregular_create(&spec, &wide);
  TAP_OK(st == HCL_OK && tap_close(discretised_hs(&wide), 2, 1e-4, 0),
         "JONSWAP gamma = 3.3, 4000 components on [0.3, 10] f_p: Hs = %.7f m", discretised_hs(&wide));
  hcl_waves_irregular_free(&jonswap);
  spec = sea(WAVES_JONSWAP, 1, 200, 0.5, 4);
  st = st ? st : hcl_waves_irregular_create(&spec, &jonswap);
  double worst = 0;
  for (int i = 0; st == HCL_OK && i < 200; i++) {
    worst = fmax(worst, fabs(jonswap.amplitude[i] / pm.amplitude[i] - 1));
    worst = fmax(worst, fabs(jonswap.phase[i] - pm.phase[i]) + fabs(jonswap.k[i] - pm.k[i]));
  }
  /* J(1) = 1 by the rule on a constant: the amplitudes equal to rounding. */
  TAP_OK(st == HCL_OK && worst < 1e-14,
         "JONSWAP with gamma = 1 is Pierson-Moskowitz: amplitudes, phases and k agree to %.1e", worst);
  hcl_waves_irregular_free(&pm);
  hcl_waves_irregular_free(&jonswap);
  hcl_waves_irregular_free(&wide);
}

/* The phases: the same seed gives the same bits; another seed others; and the first phase of seed 1234567 is
 * 2 pi times the top 53 bits of splitmix64's first output for it, 6457827717110365317 (the generator's
 * published test value), over 2^53: the sequence is the reference one on every platform. */
static void phases(void) {
  IrregularWave first = {0}, again = {0}, other = {0}, reference = {0};
  IrregularWaveSpec spec = sea(WAVES_JONSWAP, 3.3, 64, 0.5, 4);
  spec.seed = 42;
  HclStatus st = hcl_waves_irregular_create(&spec, &first);
  st = st ? st : hcl_waves_irregular_create(&spec, &again);
  spec.seed = 43;
  st = st ? st : hcl_waves_irregular_create(&spec, &other);
  spec.seed = 1234567;
  st = st ? st : hcl_waves_irregular_create(&spec, &reference);
  bool same = st == HCL_OK, differ = false;
  for (int i = 0; st == HCL_OK && i < 64; i++) {
    same = same && memcmp(&first.phase[i], &again.phase[i], sizeof(double)) == 0;
    differ = differ || first.phase[i] != other.phase[i];
  }
  double want = 2 * PI * (double)(UINT64_C(6457827717110365317) >> 11) * 0x1.0p-53;
  TAP_OK(same && differ && st == HCL_OK && reference.phase[0] == want,
         "phases: seed 42 twice bitwise equal, seed 43 different, seed 1234567 starts at splitmix64's "
         "reference value (%.15f rad)",
         reference.phase[0]);
  hcl_waves_irregular_free(&first);
  hcl_waves_irregular_free(&again);
  hcl_waves_irregular_free(&other);
  hcl_waves_irregular_free(&reference);
}

static const IrregularWave *current_sea;
static double at_y;
static double sea_phi_of_t(double t) {
  return hcl_waves_irregular_phi(current_sea, at_x, at_y, t);
}

/* The linear surface condition eta = -phi_t / g (fourth-order difference in t, step 1e-3 s: the error is
 * (omega_max dt)^4 / 30 = 1e-11); and the sea travels towards theta: eta(x, y) is the eta of theta = 0 at
 * x cos theta + y sin theta. */
static void irregular_surface(void) {
  IrregularWave wave = {0}, along_x = {0};
  IrregularWaveSpec spec = sea(WAVES_JONSWAP, 3.3, 100, 0.5, 4);
  spec.direction = 0.6;
  HclStatus st = hcl_waves_irregular_create(&spec, &wave);
  spec.direction = 0;
  st = st ? st : hcl_waves_irregular_create(&spec, &along_x);
  current_sea = &wave;
  double condition = 0, direction = 0;
  for (int i = 0; st == HCL_OK && i < 10; i++) {
    at_x = 7.3 * i;
    at_y = -4.1 * i;
    at_t = 2.9 * i;
    double eta = hcl_waves_irregular_eta(&wave, at_x, at_y, at_t);
    condition = fmax(condition, fabs(eta + central(sea_phi_of_t, at_t, 1e-3) / G));
    double along = at_x * cos(0.6) + at_y * sin(0.6);
    direction = fmax(direction, fabs(eta - hcl_waves_irregular_eta(&along_x, along, 0, at_t)));
  }
  TAP_OK(st == HCL_OK && condition < 1e-8 && direction < 1e-12,
         "irregular sea, Hs = 2 m: eta = -phi_t / g to %.1e m, travelling towards theta = 0.6 to %.1e m", condition,
         direction);
  hcl_waves_irregular_free(&wave);
  hcl_waves_irregular_free(&along_x);
}

static void irregular_refusals(void) {
  IrregularWave wave = {0};
  IrregularWaveSpec spec = sea(WAVES_JONSWAP, 3.3, 100, 0.5, 4);
  spec.hs = 0;
  expect_refusal(hcl_waves_irregular_create(&spec, &wave), HCL_EDATA, "waves.hs = 0", "Hs 0");
  spec = sea(WAVES_JONSWAP, 0.5, 100, 0.5, 4);
  expect_refusal(hcl_waves_irregular_create(&spec, &wave), HCL_EDATA, "waves.gamma = 0.5: allowed 1 to 10",
                 "gamma 0.5");
  spec = sea(WAVES_JONSWAP, 3.3, 0, 0.5, 4);
  expect_refusal(hcl_waves_irregular_create(&spec, &wave), HCL_EDATA, "waves.components = 0", "no components");
  spec = sea(WAVES_PIERSON_MOSKOWITZ, 1, 100, 1.2, 4);
  expect_refusal(hcl_waves_irregular_create(&spec, &wave), HCL_EDATA, "0 < band_low < 1 < band_high", "band above f_p");
  spec = sea(WAVES_PIERSON_MOSKOWITZ, 1, 100, 0.5, 4);
  spec.tp = -1;
  expect_refusal(hcl_waves_irregular_create(&spec, &wave), HCL_EDATA, "waves.tp = -1", "Tp -1");
  TAP_OK(wave.omega == NULL && wave.amplitude == NULL, "a refused sea holds nothing to free");
}

int main(void) {
  small_waves_are_linear();
  linear_waves();
  stokes_wave_speed();
  surface_conditions_between_nodes();
  fixed_frame_conditions();
  fenton_program();
  longer_than_linear();
  regular_refusals();
  spectra();
  phases();
  irregular_surface();
  irregular_refusals();
  return tap_done();
}
