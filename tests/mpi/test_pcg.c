/* test_pcg.c: conjugate gradients on the device (krylov.h on the 5-point operator of stencil5.h) on any number of ranks (meson: 1, 2 and 4), in double,
 * against the host reference (tests/unit/rrb_reference.h): the paper's model problem takes the iterations of the
 * host's CG and reaches its discrete solution, O(h^2) from the exact one; a random variable-coefficient system with
 * islands of zero-flux faces reaches the host's direct solution with plain CG and, in fewer iterations, with Jacobi;
 * a warm start from the solution takes no iteration; a matrix with a non-positive centre is refused.
 * Usage: test_pcg KERNELS_CL_DIR */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "krylov.h"
#include "poisson.h"
#include "rrb_precond.h"
#include "stencil5.h"
#include "../support.h"
#include "../tap.h"
#include "../unit/rrb_reference.h"

enum { N = 63, RX = 29, RY = 23 };

/* The paper's model problem on N x N interior nodes (poisson.h). */
static void model_problem(Stencil5 *s, double *b) {
  poisson_block(N, 0, 0, N, N, s->c, s->east, s->north, b);
}

/* A random SPD system: couplings in [-1, -0.05], centres their magnitudes plus a margin varying over three decades
 * (where Jacobi pays), every seventh point cut off from its east and north neighbours. */
static void random_system(Stencil5 *s, double *b) {
  unsigned long long state = 12345;
  int n = s->nx * s->ny;
  for (int p = 0; p < n; p++) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    double u1 = (double)(state >> 11) / 9007199254740992.0;
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    double u2 = (double)(state >> 11) / 9007199254740992.0;
    bool cut = p % 7 == 3;
    s->east[p] = p % s->nx + 1 < s->nx && !cut ? -(0.05 + 0.95 * u1) : 0;
    s->north[p] = p + s->nx < n && !cut ? -(0.05 + 0.95 * u2) : 0;
    b[p] = u1 - u2;
  }
  for (int p = 0; p < n; p++) {
    double sum = -s->east[p] - s->north[p] - (p % s->nx > 0 ? s->east[p - 1] : 0) - (p >= s->nx ? s->north[p - s->nx] : 0);
    s->c[p] = sum + pow(10.0, -3.0 + 3.0 * (p % 11) / 10.0);
  }
}

/* Scales the north couplings by factor and the centres with them: each row keeps its margin of dominance. */
static void scale_north(Stencil5 *s, double factor) {
  for (int p = 0; p < s->nx * s->ny; p++) {
    double north_pull = -s->north[p] - (p >= s->nx ? s->north[p - s->nx] : 0);
    s->c[p] -= (1 - factor) * north_pull;
  }
  for (int p = 0; p < s->nx * s->ny; p++) {
    s->north[p] *= factor;
  }
}

typedef enum { PC_NONE, PC_JACOBI, PC_RRB } PcKind;

/* The solver's outcome: iterations and whether the criterion was met (a solve that does not converge is a failure
 * of the test, reported through its status). */
typedef struct {
  int iterations;
  bool converged;
} Outcome;

static HclStatus make_precond(PcKind kind, Precond **pc) {
  return kind == PC_RRB ? rrb_precond_create(RRB_DEPTH_DEFAULT, pc) : kind == PC_JACOBI ? precond_jacobi(pc)
                                                                                         : precond_none(pc);
}

/* Sets up the device system S x = b from the host's, x = 0, and solves it by CG; *x_global receives the solution;
 * warm (if not NULL) the outcome of a second solve from it. */
static HclStatus device_solve(Runtime *rt, const Stencil5 *s, const double *b, PcKind pre, KrylovNorm norm,
                              double tolerance, double *x_global, Outcome *result, Outcome *warm) {
  HclStatus status = HCL_OK;
  Decomp *decomp = NULL;
  Operator *op = NULL;
  Krylov *ks = NULL;
  Precond *pc = NULL;
  Field *bf = NULL, *xf = NULL, *matrix[3];
  Vec *bv = NULL, *xv = NULL;
  KrylovResult r;
  DecompSpec spec = {.nx = s->nx, .ny = s->ny};
  FieldSpec fs = {.name = "b", .nz = 1, .ghost = 1, .precision = PRECISION_DOUBLE};
  KrylovOptions options = krylov_options_default();
  options.rtol = tolerance;
  options.max_iterations = 10000;
  options.norm = norm;
  TRY(decomp_create(&spec, &decomp));
  TRY(stencil5_create(rt, decomp, PRECISION_DOUBLE, &op));
  TRY(krylov_create(&options, &ks));
  TRY(make_precond(pre, &pc));
  krylov_set_precond(ks, pc);
  krylov_set_operator(ks, op);
  TRY(field_create(rt, decomp, &fs, &bf));
  fs.name = "x";
  TRY(field_create(rt, decomp, &fs, &xf));
  TRY(vec_wrap_field(operator_space(op), bf, &bv));
  TRY(vec_wrap_field(operator_space(op), xf, &xv));
  TRY(stencil5_fields(op, matrix));
  TRY(test_write_block(matrix[0], s->c, s->nx));
  TRY(test_write_block(matrix[1], s->east, s->nx));
  TRY(test_write_block(matrix[2], s->north, s->nx));
  TRY(test_write_block(bf, b, s->nx));
  TRY(krylov_setup(ks));
  TRY(krylov_solve(ks, bv, xv, &r));
  *result = (Outcome){r.iterations, r.converged};
  TRY(field_gather(xf, x_global));
  if (warm) {
    TRY(krylov_solve(ks, bv, xv, &r));
    *warm = (Outcome){r.iterations, r.converged};
  }
cleanup:
  vec_destroy(&bv);
  vec_destroy(&xv);
  field_destroy(&xf);
  field_destroy(&bf);
  krylov_destroy(&ks);
  operator_destroy(&op);
  decomp_destroy(&decomp);
  return status;
}

/* A check on the gathered solution, which only rank 0 holds (field_gather). */
static bool on_rank0(bool pass) {
  return par_rank() != 0 || pass;
}

static double relative_difference(const double *a, const double *b, size_t n) {
  double worst = 0, scale = 0;
  for (size_t k = 0; k < n; k++) {
    worst = fmax(worst, fabs(a[k] - b[k]));
    scale = fmax(scale, fabs(b[k]));
  }
  return worst / scale;
}

/* Plain CG on the model problem: the host's iterations (the dot products are summed in another order, so one more
 * or fewer may be taken at the threshold) and the host's solution to 1e-9 (both stop at 1e-10). */
static void check_model_problem(Runtime *rt) {
  Stencil5 s;
  stencil_alloc(N, N, &s);
  double *b = malloc(N * N * sizeof *b), *host = calloc(N * N, sizeof *host), *device = calloc(N * N, sizeof *device);
  model_problem(&s, b);
  int host_iterations = reference_pcg(&s, NULL, b, host, 1e-10, 10000);
  Outcome result, warm;
  status_clear();
  HclStatus st = device_solve(rt, &s, b, PC_NONE, KRYLOV_NORM_2, 1e-10, device, &result, &warm);
  double h = 1.0 / (N + 1), error = 0;
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) {
      double x = (i + 1) * h, y = (j + 1) * h;
      error = fmax(error, fabs(device[j * N + i] - poisson_exact(x, y)));
    }
  }
  double difference = relative_difference(device, host, N * N);
  TAP_OK(all_ranks(st == HCL_OK && result.converged && abs(result.iterations - host_iterations) <= 1 &&
                   on_rank0(difference < 1e-9)),
         "model problem %d^2, plain CG: %d iterations (host %d), %.2e from the host's solution %s", N,
         result.iterations, host_iterations, difference, status_message());
  /* The host's solution is 3.4e-6 from the exact one at this h (tests/unit/test_rrb_reference.c): O(h^2). */
  TAP_OK(all_ranks(st == HCL_OK && on_rank0(error < 4e-6)), "and %.2e from the exact solution", error);
  TAP_OK(all_ranks(st == HCL_OK && warm.iterations == 0 && warm.converged),
         "a warm start from the solution takes %d iterations", warm.iterations);
  stencil_free(&s);
  free(b);
  free(host);
  free(device);
}

/* A random system against the host's direct solution (Cholesky), plain and Jacobi. */
static void check_random_system(Runtime *rt) {
  Stencil5 s;
  RrbFactor exact;
  const char *why = "";
  stencil_alloc(RX, RY, &s);
  double *b = malloc(RX * RY * sizeof *b), *direct = calloc(RX * RY, sizeof *direct),
         *device = calloc(RX * RY, sizeof *device);
  random_system(&s, b);
  bool factored = reference_factor(&s, 1, 1, &exact, &why);
  if (factored) {
    reference_apply(&exact, b, direct);
  }
  int iterations[2] = {-1, -1};
  for (int k = 0; k < 2; k++) {
    Outcome result;
    status_clear();
    HclStatus st = device_solve(rt, &s, b, k ? PC_JACOBI : PC_NONE, KRYLOV_NORM_2, 1e-12, device, &result, NULL);
    double difference = relative_difference(device, direct, RX * RY);
    iterations[k] = result.iterations;
    /* Stopped at 1e-12 of ||b||; the centres' margins down to 1e-3 leave a condition number below 1e5: 1e-7. */
    TAP_OK(all_ranks(factored && st == HCL_OK && result.converged && on_rank0(difference < 1e-7)),
           "random %d x %d system with islands, %s: %d iterations, %.2e from the direct solution %s", RX, RY,
           k ? "Jacobi" : "plain CG", result.iterations, difference, status_message());
  }
  TAP_OK(all_ranks(iterations[1] < iterations[0]), "Jacobi takes fewer iterations (%d) than plain CG (%d)",
         iterations[1], iterations[0]);
  s.c[5 * RX + 7] = -0.5;
  Outcome result;
  status_clear();
  HclStatus st = device_solve(rt, &s, b, PC_NONE, KRYLOV_NORM_2, 1e-12, device, &result, NULL);
  TAP_OK(all_ranks(st == HCL_EDATA), "a negative centre is refused: %s", status_message());
  if (factored) {
    reference_free(&exact);
  }
  stencil_free(&s);
  free(b);
  free(direct);
  free(device);
}

/* RRB-preconditioned CG (on one rank on the first Schur complement; on several, with the distributed
 * preconditioner, on the whole system from black rows satisfied, which is the same CG): on the model problem the
 * host reference's iterations with the paper's M-norm criterion (the host runs PCG on the whole system; the black
 * nodes add the eigenvalue 1, which CG resolves at once, so the counts agree, up to one at the threshold) and its
 * solution; a warm start from the solution takes none; a random system with islands and one 1000:1 anisotropic
 * reach the direct solution in fewer iterations than Jacobi. */
static void check_rrb(Runtime *rt) {
  Stencil5 s;
  RrbFactor factor;
  const char *why = "";
  Outcome result, warm;
  stencil_alloc(N, N, &s);
  double *b = malloc(N * N * sizeof *b), *host = calloc(N * N, sizeof *host), *device = calloc(N * N, sizeof *device);
  model_problem(&s, b);
  int eliminated = 0;
  bool factored = rrb_depth_levels(N, N, RRB_DEPTH_DEFAULT, &eliminated) == HCL_OK &&
                  reference_factor(&s, eliminated + 1, 1, &factor, &why);
  int host_iterations = factored ? reference_pcg(&s, &factor, b, host, 1e-10, 1000) : -1;
  status_clear();
  HclStatus st = device_solve(rt, &s, b, PC_RRB, KRYLOV_NORM_M, 1e-10, device, &result, NULL);
  double difference = relative_difference(device, host, N * N);
  /* Both stop at 1e-10 of the first M^-1-norm; the condition number of M^-1 S is below 10: 1e-9. */
  TAP_OK(all_ranks(factored && st == HCL_OK && result.converged && abs(result.iterations - host_iterations) <= 1 &&
                   on_rank0(difference < 1e-9)),
         "model problem %d^2, RRB (M-norm), %d ranks: %d iterations (host %d), %.2e from the host's solution %s", N,
         par_size(), result.iterations, host_iterations, difference, status_message());
  /* The M-norm criterion is relative to the first residual, so a warm start gains nothing by it: the 2-norm. */
  Outcome cold;
  st = device_solve(rt, &s, b, PC_RRB, KRYLOV_NORM_2, 1e-10, device, &cold, &warm);
  TAP_OK(all_ranks(st == HCL_OK && cold.converged && warm.iterations == 0 && warm.converged),
         "2-norm: %d iterations; a warm start from the solution takes %d", cold.iterations, warm.iterations);
  if (factored) {
    reference_free(&factor);
  }
  stencil_free(&s);
  free(b);
  free(host);
  free(device);

  stencil_alloc(RX, RY, &s);
  b = malloc(RX * RY * sizeof *b);
  double *direct = calloc(RX * RY, sizeof *direct);
  device = calloc(RX * RY, sizeof *device);
  double *jacobi_x = calloc(RX * RY, sizeof *jacobi_x);
  for (int anisotropic = 0; anisotropic < 2; anisotropic++) {
    random_system(&s, b);
    if (anisotropic) {
      scale_north(&s, 1e-3);
    }
    factored = reference_factor(&s, 1, 1, &factor, &why);
    if (factored) {
      reference_apply(&factor, b, direct);
      reference_free(&factor);
    }
    Outcome jacobi;
    status_clear();
    st = device_solve(rt, &s, b, PC_RRB, KRYLOV_NORM_2, 1e-12, device, &result, NULL);
    st = st == HCL_OK ? device_solve(rt, &s, b, PC_JACOBI, KRYLOV_NORM_2, 1e-12, jacobi_x, &jacobi, NULL) : st;
    difference = relative_difference(device, direct, RX * RY);
    /* Stopped at 1e-12 of ||b||, as the plain and Jacobi solves above; the condition number stays below 1e5. */
    TAP_OK(all_ranks(factored && st == HCL_OK && result.converged && on_rank0(difference < 1e-7) &&
                     result.iterations < jacobi.iterations),
           "random %d x %d system with islands%s, RRB: %d iterations (Jacobi %d), %.2e from the direct solution %s",
           RX, RY, anisotropic ? ", 1000:1 anisotropic" : "", result.iterations, jacobi.iterations, difference,
           status_message());
  }
  free(jacobi_x);
  stencil_free(&s);
  free(b);
  free(direct);
  free(device);
}

int main(int argc, char **argv) {
  Runtime *rt = NULL;
  HclStatus s = par_init(&argc, &argv);
  if (par_rank() != 0) {
    freopen("/dev/null", "w", stdout);
  }
  if (s == HCL_OK) {
    s = test_open_runtime(true, &rt);
  }
  if (TAP_OK(all_ranks(s == HCL_OK && argc == 2), "set-up on %d ranks %s", par_size(), status_message())) {
    check_model_problem(rt);
    check_random_system(rt);
    check_rrb(rt);
  }
  runtime_destroy(&rt);
  par_finalize();
  return tap_done();
}
