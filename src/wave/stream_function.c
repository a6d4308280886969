/* SPDX-License-Identifier: BSD-3-Clause */
/* stream_function.c: regular waves from their specification (waves.h): the checks, the linear wave, and the
 * stream-function wave by the Fourier approximation method (Rienecker & Fenton 1981, in the form of Fenton
 * 1988 and 1999; the equations are listed in waves.h).
 *
 * The solve is dimensionless in g and the length scale l = min(h, 1 / k0) (k0 the linear wavenumber), so that
 * every unknown and residual is O(1) from shallow to deep water. The unknowns, z, 2 N + 6 of them:
 *   z[0] = k,  z[eta + m] = eta_m (m = 0 .. N, from the still water level),  z[b + j - 1] = B_j (j = 1 .. N),
 *   z[ubar] = Ubar,  z[c] = c,  z[q] = q = Ubar h - Q,  z[r] = r = R - g h;
 * q and r, Fenton's volume flux due to the waves and reduced Bernoulli constant, in place of Q and R so that
 * no equation subtracts two numbers of the size of h in deep water. */
#include "waves.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

/* Newton stops at a largest residual of TOLERANCE (units of g and l; the residuals' rounding is 1e-15). */
static const double TOLERANCE = 1e-12;

RegularWaveSpec hcl_waves_regular_spec_default(void) {
  return (RegularWaveSpec){
      .g = 9.81, .criterion = WAVES_CURRENT_EULERIAN, .modes = WAVES_MODES_DEFAULT, .max_iterations = 40};
}

static HclStatus check_spec(const RegularWaveSpec *spec) {
  HclStatus status = HCL_OK;
  REQUIRE(spec->g > 0 && isfinite(spec->g), HCL_EDATA, "waves.g = %g m/s^2: must be > 0", spec->g);
  REQUIRE(spec->depth > 0 && isfinite(spec->depth), HCL_EDATA, "waves.depth = %g m: must be > 0", spec->depth);
  REQUIRE(spec->height > 0 && isfinite(spec->height), HCL_EDATA, "waves.height = %g m: must be > 0", spec->height);
  bool one_given = (spec->period > 0) != (spec->length > 0) && spec->period >= 0 && spec->length >= 0 &&
                   isfinite(spec->period) && isfinite(spec->length);
  REQUIRE(one_given, HCL_EDATA, "waves.period = %g s, waves.length = %g m: give one of them > 0 and the other 0",
          spec->period, spec->length);
  REQUIRE(isfinite(spec->current), HCL_EDATA, "waves.current = %g m/s: must be finite", spec->current);
cleanup:
  return status;
}

/* For a given period, length is that of the wave solved at `height` (a height step's, up to spec->height). */
static HclStatus check_breaking(const RegularWaveSpec *spec, double height, double length) {
  HclStatus status = HCL_OK;
  double highest = hcl_waves_breaking_height(spec->depth, length);
  if (spec->length > 0) {
    REQUIRE(height <= highest, HCL_EDATA,
            "waves.height = %g m is past the breaking limit H_max = %g m of a wave %g m long in depth %g m "
            "(Fenton 1990, eq. 32; allowed 0 < H <= H_max)",
            spec->height, highest, length, spec->depth);
  }
  REQUIRE(height <= highest, HCL_EDATA,
          "waves.height = %g m is past the breaking limit for waves.period = %g s in depth %g m: at H = %g m "
          "the wave is %g m long, and the highest wave of that length is H_max = %g m (Fenton 1990, eq. 32; "
          "allowed 0 < H <= H_max of the wave's length)",
          spec->height, spec->period, spec->depth, height, length, highest);
cleanup:
  return status;
}

/* The linear wave of spec, without the breaking check (waves.h: linear waves). */
static HclStatus linear_wave(const RegularWaveSpec *spec, RegularWave *out) {
  HclStatus status = HCL_OK;
  RegularWave wave = {.kind = WAVES_LINEAR, .modes = 1, .g = spec->g, .depth = spec->depth, .height = spec->height};
  TRY(check_spec(spec));
  if (spec->period > 0) {
    TRY(hcl_waves_solve_dispersion(spec->g, spec->depth, spec->period, spec->current, &wave.k));
  } else {
    wave.k = 2 * PI / spec->length;
  }
  double sigma = sqrt(wave.g * wave.k * tanh(wave.k * wave.depth)); /* the intrinsic frequency */
  double ubar = sigma / wave.k;                                     /* the celerity relative to the current */
  wave.length = 2 * PI / wave.k;
  wave.current_euler = wave.current_stokes = spec->current;
  wave.celerity = ubar + spec->current;
  wave.period = wave.length / wave.celerity;
  wave.volume_flux = ubar * wave.depth;
  wave.bernoulli = wave.g * wave.depth + ubar * ubar / 2;
  wave.potential_rate = -spec->current * spec->current / 2;
  wave.E[1] = wave.height / 2;
  wave.B[1] = wave.g * wave.height / (2 * sigma);
  *out = wave;
cleanup:
  return status;
}

HclStatus hcl_waves_solve_linear(const RegularWaveSpec *spec, RegularWave *out) {
  HclStatus status = HCL_OK;
  RegularWave wave;
  memset(out, 0, sizeof *out);
  TRY(linear_wave(spec, &wave));
  TRY(check_breaking(spec, wave.height, wave.length));
  *out = wave;
cleanup:
  return status;
}

/* The dimensionless problem of one height step: g = 1, lengths in units of l. */
typedef struct {
  int modes, unknowns;
  int eta, b, ubar, c, q, r;                     /* offsets into z (k is z[0]) */
  double depth, height, period, length, current; /* period or length 0: the other one is given */
  WavesCurrent criterion;
} Problem;

static Problem problem_new(const RegularWaveSpec *spec, double scale) {
  int n = spec->modes;
  double speed = sqrt(spec->g * scale);
  return (Problem){.modes = n,
                   .unknowns = 2 * n + 6,
                   .eta = 1,
                   .b = n + 2,
                   .ubar = 2 * n + 2,
                   .c = 2 * n + 3,
                   .q = 2 * n + 4,
                   .r = 2 * n + 5,
                   .depth = spec->depth / scale,
                   .period = spec->period * speed / scale,
                   .length = spec->length / scale,
                   .current = spec->current / speed,
                   .criterion = spec->criterion};
}

/* The kinematic and dynamic conditions at X_m = m pi / (N k), written with the velocities in the frame of the
 * wave, U = u - c = psi_z and W = w = -psi_X, and Y = eta_m + h:
 *   K = -Ubar eta_m + sum B_j S_j cos(j m pi / N) - q = psi + Q = 0,
 *   D = (U^2 + W^2) / 2 + eta_m - r = 0,
 *   U = -Ubar + sum j k B_j C_j cos(j m pi / N),   W = sum j k B_j S_j sin(j m pi / N),
 * C_j = cosh(j k Y) / cosh(j k h), S_j = sinh(j k Y) / cosh(j k h), computed as
 * e^{j k eta} (1 +- e^{-2 j k Y}) / (1 + e^{-2 j k h}) so that nothing overflows in deep water; and, when
 * kin_row is not NULL, their rows of the Jacobian, from
 *   dC_j/dk = j Y S_j - j h C_j tanh(j k h),   dS_j/dk = j Y C_j - j h S_j tanh(j k h),   dK/deta_m = U,
 *   dU/deta_m = sum (j k)^2 B_j S_j cos(j m pi / N),   dW/deta_m = sum (j k)^2 B_j C_j sin(j m pi / N).
 * Analytic, because the conditioning grows like e^{N k H} and a difference quotient's error (1e-8 for j = 40)
 * times it stalls Newton's method. */
static void surface_conditions(const Problem *p, const double *z, int m, double *f, double *kin_row, double *dyn_row) {
  int n = p->modes;
  double k = z[0], eta = z[p->eta + m], ubar = z[p->ubar], h = p->depth, y = eta + h;
  double kin = -ubar * eta - z[p->q], u = -ubar, w = 0, u_eta = 0, w_eta = 0, kin_k = 0, u_k = 0, w_k = 0;
  double cosh_ratio[WAVES_MODES_MAX + 1], sinh_ratio[WAVES_MODES_MAX + 1];
  for (int j = 1; j <= n; j++) {
    double b = z[p->b + j - 1], jk = j * k, cos_j = cos(j * m * PI / n), sin_j = sin(j * m * PI / n);
    double still = exp(-2 * jk * h), bed = exp(-2 * jk * y), scale = exp(jk * eta) / (1 + still);
    double c = scale * (1 + bed), s = scale * (1 - bed), t = (1 - still) / (1 + still);
    double c_k = j * (y * s - h * c * t), s_k = j * (y * c - h * s * t);
    cosh_ratio[j] = c;
    sinh_ratio[j] = s;
    kin += b * s * cos_j;
    u += jk * b * c * cos_j;
    w += jk * b * s * sin_j;
    u_eta += jk * jk * b * s * cos_j;
    w_eta += jk * jk * b * c * sin_j;
    kin_k += b * s_k * cos_j;
    u_k += j * b * (c + k * c_k) * cos_j;
    w_k += j * b * (s + k * s_k) * sin_j;
  }
  f[4 + m] = kin;
  f[5 + n + m] = (u * u + w * w) / 2 + eta - z[p->r];
  if (!kin_row) {
    return;
  }
  kin_row[0] = kin_k;
  kin_row[p->eta + m] = u;
  kin_row[p->ubar] = -eta;
  kin_row[p->q] = -1;
  dyn_row[0] = u * u_k + w * w_k;
  dyn_row[p->eta + m] = u * u_eta + w * w_eta + 1;
  dyn_row[p->ubar] = -u;
  dyn_row[p->r] = -1;
  for (int j = 1; j <= n; j++) {
    double jk = j * k, cos_j = cos(j * m * PI / n), sin_j = sin(j * m * PI / n);
    kin_row[p->b + j - 1] = sinh_ratio[j] * cos_j;
    dyn_row[p->b + j - 1] = jk * (u * cosh_ratio[j] * cos_j + w * sinh_ratio[j] * sin_j);
  }
}

/* The residuals f of the 2 N + 6 equations and, when jac is not NULL, their Jacobian (row-major): f[0] the
 * height, f[1] the mean level, f[2] the period or the length, f[3] the current criterion (c_S = c - Q / h =
 * c - Ubar + q / h), f[4 + m] and f[5 + N + m] the surface conditions at node m. */
static void equations(const Problem *p, const double *z, double *f, double *jac) {
  int n = p->modes, size = p->unknowns;
  const double *eta = z + p->eta;
  double k = z[0], c = z[p->c];
  f[0] = eta[0] - eta[n] - p->height;
  double sum = (eta[0] + eta[n]) / 2;
  for (int m = 1; m < n; m++) {
    sum += eta[m];
  }
  f[1] = sum / n;
  f[2] = p->period > 0 ? k * c * p->period - 2 * PI : k * p->length - 2 * PI;
  bool stokes = p->criterion == WAVES_CURRENT_STOKES;
  f[3] = c - z[p->ubar] - p->current + (stokes ? z[p->q] / p->depth : 0);
  if (jac) {
    memset(jac, 0, sizeof *jac * size * size);
    jac[p->eta] = 1;
    jac[p->eta + n] = -1;
    for (int m = 0; m <= n; m++) {
      jac[size + p->eta + m] = (m == 0 || m == n ? 0.5 : 1.0) / n;
    }
    jac[2 * size] = p->period > 0 ? c * p->period : p->length;
    jac[2 * size + p->c] = p->period > 0 ? k * p->period : 0;
    jac[3 * size + p->c] = 1;
    jac[3 * size + p->ubar] = -1;
    jac[3 * size + p->q] = stokes ? 1 / p->depth : 0;
  }
  for (int m = 0; m <= n; m++) {
    surface_conditions(p, z, m, f, jac ? jac + (size_t)(4 + m) * size : NULL,
                       jac ? jac + (size_t)(5 + n + m) * size : NULL);
  }
}

/* P a = L U in place (a is n x n, row-major; L unit lower), pivot[i] the row swapped into row i; false when a
 * pivot is zero. */
static bool lu_factor(double *a, int n, int *pivot) {
  for (int col = 0; col < n; col++) {
    int best = col;
    for (int i = col + 1; i < n; i++) {
      if (fabs(a[(size_t)i * n + col]) > fabs(a[(size_t)best * n + col])) {
        best = i;
      }
    }
    pivot[col] = best;
    if (a[(size_t)best * n + col] == 0) {
      return false;
    }
    for (int j = 0; best != col && j < n; j++) {
      double swap = a[(size_t)col * n + j];
      a[(size_t)col * n + j] = a[(size_t)best * n + j];
      a[(size_t)best * n + j] = swap;
    }
    for (int i = col + 1; i < n; i++) {
      double factor = a[(size_t)i * n + col] /= a[(size_t)col * n + col];
      for (int j = col + 1; j < n; j++) {
        a[(size_t)i * n + j] -= factor * a[(size_t)col * n + j];
      }
    }
  }
  return true;
}

/* b := a^-1 b with the factors of lu_factor. */
static void lu_solve(const double *a, int n, const int *pivot, double *b) {
  for (int i = 0; i < n; i++) {
    double swap = b[i];
    b[i] = b[pivot[i]];
    b[pivot[i]] = swap;
    for (int j = 0; j < i; j++) {
      b[i] -= a[(size_t)i * n + j] * b[j];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    for (int j = i + 1; j < n; j++) {
      b[i] -= a[(size_t)i * n + j] * b[j];
    }
    b[i] /= a[(size_t)i * n + i];
  }
}

static double largest(const double *v, int n) {
  double m = 0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(v[i])); /* fmax drops a NaN: checked by the caller */
  }
  return m;
}

static bool all_finite(const double *v, int n) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(v[i])) {
      return false;
    }
  }
  return true;
}

static double sum_of_squares(const double *v, int n) {
  double sum = 0;
  for (int i = 0; i < n; i++) {
    sum += v[i] * v[i];
  }
  return sum; /* NaN when any v[i] is */
}

typedef struct {
  double *f, *jacobian, *step, *trial;
  int *pivot;
} Work;

/* Newton's method from z; true when the largest residual falls to TOLERANCE within max_iterations. Each step
 * is halved until the residual's 2-norm falls (the Newton direction descends it, so some fraction does unless
 * rounding rules): a full step overshoots from the linear start of long waves in shallow water (Ursell
 * numbers in the hundreds). */
static bool newton(const Problem *p, double *z, int max_iterations, Work *work, int *iterations, double *residual) {
  int n = p->unknowns;
  for (int iteration = 0;; iteration++) {
    equations(p, z, work->f, work->jacobian);
    *residual = largest(work->f, n);
    if (!all_finite(work->f, n)) {
      *residual = INFINITY;
      return false;
    }
    if (*residual <= TOLERANCE) {
      return true;
    }
    if (iteration == max_iterations || !lu_factor(work->jacobian, n, work->pivot)) {
      return false;
    }
    double before = sum_of_squares(work->f, n);
    memcpy(work->step, work->f, sizeof *z * n);
    lu_solve(work->jacobian, n, work->pivot, work->step);
    for (double fraction = 1;; fraction /= 2) {
      if (fraction < 1e-3) {
        return false;
      }
      for (int i = 0; i < n; i++) {
        work->trial[i] = z[i] - fraction * work->step[i];
      }
      equations(p, work->trial, work->f, NULL);
      if (sum_of_squares(work->f, n) < before) {
        break;
      }
    }
    memcpy(z, work->trial, sizeof *z * n);
    (*iterations)++;
  }
}

/* The linear wave of height `height` (dimensionless, 0 for the still state, which solves the equations
 * exactly at H = 0): eta_m = H/2 cos(m pi / N), B_1 = Ubar H/2 / tanh(k h), q = 0, r = Ubar^2 / 2. */
static void linear_state(const Problem *p, const RegularWave *linear, double scale, double height, double *z) {
  int n = p->modes;
  double speed = sqrt(linear->g * scale), k = linear->k * scale, c = linear->celerity / speed;
  double ubar = c - linear->current_euler / speed;
  memset(z, 0, sizeof *z * p->unknowns);
  z[0] = k;
  for (int m = 0; m <= n; m++) {
    z[p->eta + m] = height / 2 * cos(m * PI / n);
  }
  z[p->b] = ubar * height / 2 / tanh(k * p->depth);
  z[p->ubar] = ubar;
  z[p->c] = c;
  z[p->r] = ubar * ubar / 2;
}

/* The dimensional wave of the solution z; E_j the cosine interpolant of the eta_m. */
static void solution_to_wave(const Problem *p, const double *z, const RegularWaveSpec *spec, double scale,
                             RegularWave *wave) {
  int n = p->modes;
  double speed = sqrt(spec->g * scale), ubar = z[p->ubar];
  *wave = (RegularWave){
      .kind = WAVES_STREAM_FUNCTION, .modes = n, .g = spec->g, .depth = spec->depth, .height = spec->height};
  wave->k = z[0] / scale;
  wave->length = 2 * PI / wave->k;
  wave->celerity = z[p->c] * speed;
  wave->period = wave->length / wave->celerity;
  wave->current_euler = (z[p->c] - ubar) * speed;
  wave->volume_flux = (ubar * p->depth - z[p->q]) * speed * scale;
  wave->current_stokes = wave->celerity - wave->volume_flux / wave->depth;
  double reduced_bernoulli = z[p->r] * spec->g * scale; /* R - g h */
  wave->bernoulli = reduced_bernoulli + spec->g * wave->depth;
  wave->potential_rate =
      -reduced_bernoulli + wave->celerity * wave->celerity / 2 - wave->celerity * wave->current_euler;
  for (int j = 1; j <= n; j++) {
    wave->B[j] = z[p->b + j - 1] * speed * scale;
    double sum = 0;
    for (int m = 0; m <= n; m++) {
      sum += (m == 0 || m == n ? 0.5 : 1) * z[p->eta + m] * cos(j * m * PI / n);
    }
    wave->E[j] = (j == n ? 0.5 : 1) * 2 * sum / n * scale;
  }
}

/* The surface conditions' Jacobian mixes e^{j k eta} at the crest and at the trough: its conditioning grows
 * like e^{N k H}, and beyond N k H = 30 (1e13) Newton's method stalls in double precision (deep, steep waves
 * with many modes; k of linear theory, a little above the wave's own for a given period). */
static const double CONDITIONING_LIMIT = 30;

static HclStatus check_solver_settings(const RegularWaveSpec *spec, double k) {
  HclStatus status = HCL_OK;
  REQUIRE(spec->modes >= WAVES_MODES_MIN && spec->modes <= WAVES_MODES_MAX, HCL_EDATA,
          "waves.modes = %d: allowed %d to %d", spec->modes, WAVES_MODES_MIN, WAVES_MODES_MAX);
  double exponent = spec->modes * k * spec->height, length = 2 * PI / k;
  /* The steepest wave of any length, H_max / L of Fenton's eq. 32 in deep water (0.141), has k H = 0.89: so when
   * even the fewest modes are too many (k H > 30 / 4) the wave is far past breaking, which is what to say. */
  REQUIRE(WAVES_MODES_MIN * k * spec->height <= CONDITIONING_LIMIT, HCL_EDATA,
          "waves.height = %g m is past the breaking limit for %s = %g %s in depth %g m: the wave is about %.4g m long "
          "(linear theory) and the highest wave of that length is H_max = %.4g m (Fenton 1990, eq. 32; allowed 0 < H "
          "<= H_max)",
          spec->height, spec->period > 0 ? "waves.period" : "waves.length",
          spec->period > 0 ? spec->period : spec->length, spec->period > 0 ? "s" : "m", spec->depth, length,
          hcl_waves_breaking_height(spec->depth, length));
  REQUIRE(exponent <= CONDITIONING_LIMIT, HCL_EDATA,
          "waves.modes = %d is too many for a wave this steep: N k H = %.1f > %.0f makes the stream-function "
          "equations singular in double precision (allowed here: %d to %d)",
          spec->modes, exponent, CONDITIONING_LIMIT, WAVES_MODES_MIN, (int)(CONDITIONING_LIMIT / (k * spec->height)));
  REQUIRE(spec->height_steps >= 0 && spec->height_steps <= WAVES_STEPS_MAX, HCL_EDATA,
          "waves.height_steps = %d: allowed 0 (automatic) to %d", spec->height_steps, WAVES_STEPS_MAX);
  REQUIRE(spec->max_iterations >= 1, HCL_EDATA, "waves.max_iterations = %d: must be >= 1", spec->max_iterations);
cleanup:
  return status;
}

/* Automatic: more steps the nearer the highest wave (1 + 10 (H / H_max)^2, H_max of the linear length) and
 * the longer the wave in shallow water (an Ursell number H L^2 / h^3 of at most 50 a step: Newton's method
 * from the linear wave fails beyond about 100 at the first step), at most WAVES_STEPS_MAX. */
static int height_steps(const RegularWaveSpec *spec, const RegularWave *linear) {
  if (spec->height_steps > 0) {
    return spec->height_steps;
  }
  double ratio = fmin(spec->height / hcl_waves_breaking_height(spec->depth, linear->length), 1.2);
  double ursell = spec->height * linear->length * linear->length / (spec->depth * spec->depth * spec->depth);
  return (int)fmin(WAVES_STEPS_MAX, fmax(1 + (int)(10 * ratio * ratio), ceil(ursell / 50)));
}

/* A solved height step: its height [m] and its height over the highest of its length. */
typedef struct {
  double height, ratio;
} Solved;

/* Newton's method has failed at a height step. For a given length the wave's height was checked beforehand,
 * so it is too close to the highest for this N (or the steps). For a given period the length of the height
 * asked is unknown; but H / H_max grows smoothly with H, so its extrapolation from the last two solved steps
 * tells whether the height asked is past the limit (Newton's method fails short of the limit, near it: 98% of
 * it with N = 20). */
static HclStatus refuse_unsolved(const RegularWaveSpec *spec, double linear_ratio, const Solved solved[2], int step,
                                 int steps, double height, double residual, int iterations) {
  HclStatus status = HCL_OK;
  char given[64];
  snprintf(given, sizeof given, spec->period > 0 ? "waves.period = %g s" : "waves.length = %g m",
           spec->period > 0 ? spec->period : spec->length);
  double estimate = linear_ratio; /* nothing solved yet */
  if (solved[1].height > 0) {
    double slope = (solved[1].ratio - solved[0].ratio) / (solved[1].height - solved[0].height);
    estimate = solved[1].ratio + slope * (spec->height - solved[1].height);
  }
  REQUIRE(spec->length > 0 || estimate <= 1, HCL_EDATA,
          "waves.height = %g m is past the breaking limit for waves.period = %g s in depth %g m: H / H_max "
          "(Fenton 1990, eq. 32, of the wave's length) extrapolates to %.3f at this height from %.3f at H = "
          "%g m, the highest solved (allowed H / H_max <= 1)",
          spec->height, spec->period, spec->depth, estimate, solved[1].ratio, solved[1].height);
  FAIL(HCL_ENOTCONVERGED,
       "the stream-function wave (waves.height = %g m, depth %g m, %s, waves.modes = %d) did not converge at "
       "height step %d of %d (H = %g m): largest residual %.3e after %d Newton iterations (tolerance %.0e) "
       "at H / H_max about %.3f; more waves.height_steps or waves.max_iterations may help%s",
       spec->height, spec->depth, given, spec->modes, step, steps, height, residual, iterations, TOLERANCE, estimate,
       estimate > 0.95 ? ", and this near the highest wave more waves.modes" : "");
cleanup:
  return status;
}

HclStatus hcl_waves_solve_stream(const RegularWaveSpec *spec, RegularWave *out) {
  HclStatus status = HCL_OK;
  RegularWave linear;
  Work work = {0};
  double *z = NULL, *previous = NULL;
  memset(out, 0, sizeof *out);
  TRY(linear_wave(spec, &linear));
  TRY(check_solver_settings(spec, linear.k));
  if (spec->length > 0) {
    TRY(check_breaking(spec, spec->height, spec->length));
  }
  double scale = fmin(spec->depth, 1 / linear.k), residual = 0;
  double linear_ratio = spec->height / hcl_waves_breaking_height(spec->depth, linear.length);
  Problem p = problem_new(spec, scale);
  int n = p.unknowns, steps = height_steps(spec, &linear), iterations = 0;
  Solved solved[2] = {{0, 0}, {0, 0}};
  TRY_ALLOC(work.f, n);
  TRY_ALLOC(work.jacobian, (size_t)n * n);
  TRY_ALLOC(work.step, n);
  TRY_ALLOC(work.trial, n);
  TRY_ALLOC(work.pivot, n);
  TRY_ALLOC(z, n);
  TRY_ALLOC(previous, n);
  linear_state(&p, &linear, scale, 0, previous);
  for (int step = 1; step <= steps; step++) {
    double height = spec->height * step / steps, length;
    p.height = height / scale;
    if (step == 1) {
      linear_state(&p, &linear, scale, p.height, z);
    } else {
      for (int i = 0; i < n; i++) { /* linear extrapolation from the two heights before */
        double last = z[i];
        z[i] = 2 * last - previous[i];
        previous[i] = last;
      }
    }
    if (!newton(&p, z, spec->max_iterations, &work, &iterations, &residual)) {
      TRY(refuse_unsolved(spec, linear_ratio, solved, step, steps, height, residual, iterations));
    }
    length = 2 * PI * scale / z[0];
    TRY(check_breaking(spec, height, length));
    solved[0] = solved[1];
    solved[1] = (Solved){height, height / hcl_waves_breaking_height(spec->depth, length)};
  }
  solution_to_wave(&p, z, spec, scale, out);
  out->iterations = iterations;
  out->residual = residual;
cleanup:
  free(work.f);
  free(work.jacobian);
  free(work.step);
  free(work.trial);
  free(work.pivot);
  free(z);
  free(previous);
  return status;
}
