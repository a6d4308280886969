/* pcg.c: preconditioned conjugate gradients on the device (see pcg.h; kernels in kernels_cl/pcg.cl). */
#include "pcg.h"

#include <math.h>
#include <stdlib.h>

#include "clerror.h"
#include "halo.h"
#include "program.h"
#include "reduce.h"
#include "rrb.h"
#include "rrb_dist.h"

enum { GHOST = 1, WG_X = 32, WG_Y = 4, WG_1D = 256 };
enum {
  KERNEL_STENCIL,
  KERNEL_RESIDUAL,
  KERNEL_SOLUTION,
  KERNEL_JACOBI,
  KERNEL_DIRECTION,
  KERNEL_SUBTRACT_RANGE,
  KERNEL_SOLUTION_RANGE,
  KERNEL_DIRECTION_RANGE,
  KERNEL_SATISFY_BLACK,
  NKERNELS
};
static const char *const kernel_names[NKERNELS] = {
    "apply_stencil",  "residual",         "update_solution",      "jacobi", "update_direction",
    "subtract_range", "update_solution_range", "update_direction_range", "satisfy_black"};

/* The RRB solver's vectors in its layout (rrb.h): CG runs on the red places [first, count). */
enum { L_B, L_X, L_R, L_Z, L_P, L_Q, L_VECTORS };

struct Pcg {
  Runtime *rt;
  const Decomp *decomp;
  Precision precision;
  PcgPreconditioner preconditioner;
  RrbDepth depth;
  PcgNorm norm;
  Field *centre, *east, *north; /* the matrix */
  Field *r, *z, *p, *q;         /* residual, preconditioned residual (r itself when plain), direction, S p */
  Halo *couplings_halo, *p_halo;
  Reducer *reducer;
  Rrb *rrb; /* with PCG_RRB on one rank: the factorization, the copies to and from its layout, and its vectors */
  RrbDist *rrb_dist; /* with PCG_RRB on several ranks */
  RrbPermute *permute;
  cl_mem layout[L_VECTORS];
  cl_program program;
  cl_kernel kernels[NKERNELS];
};

static HclStatus make_field(Pcg *s, const char *name, Field **f) {
  FieldSpec spec = {.name = name, .nz = 1, .ghost = GHOST, .precision = s->precision};
  return field_create(s->rt, s->decomp, &spec, f);
}

/* With one rank, the RRB factorization of its block, its layout copies and vectors; with several, the distributed
 * one (rrb_dist.h), and satisfy_black told the parity of this rank's first point. */
static HclStatus create_rrb(Pcg *s) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = decomp_local(s->decomp);
  if (l->px * l->py > 1) {
    cl_int parity = (l->x0 + l->y0) & 1;
    TRY_CL(clSetKernelArg(s->kernels[KERNEL_SATISFY_BLACK], 6, sizeof parity, &parity));
    TRY(make_field(s, "preconditioned", &s->z));
    TRY(rrb_dist_create(s->rt, s->decomp, s->precision, s->depth, RRB_DIST_COARSE_NODES, &s->rrb_dist));
  } else {
    TRY(rrb_create(s->rt, l->nx, l->ny, s->precision, s->depth, &s->rrb));
    TRY(rrb_permute_create(s->rt, rrb_vector_layout(s->rrb), s->precision, &s->permute));
    size_t bytes = rrb_vector_layout(s->rrb)->count * precision_bytes(s->precision);
    for (int v = 0; v < L_VECTORS; v++) {
      TRY(runtime_buffer(s->rt, bytes, "RRB solver vector", &s->layout[v]));
    }
  }
cleanup:
  return status;
}

HclStatus pcg_create(Runtime *rt, const Decomp *decomp, Precision precision, const PcgOptions *options, Pcg **out) {
  HclStatus status = HCL_OK;
  Pcg *s = NULL;
  *out = NULL;
  TRY_ALLOC(s, 1);
  s->rt = rt;
  s->decomp = decomp;
  s->precision = precision;
  s->preconditioner = options->preconditioner;
  s->depth = options->rrb;
  s->norm = PCG_NORM_2;
  TRY(make_field(s, "centre", &s->centre));
  TRY(make_field(s, "east", &s->east));
  TRY(make_field(s, "north", &s->north));
  TRY(make_field(s, "residual", &s->r));
  TRY(make_field(s, "direction", &s->p));
  TRY(make_field(s, "product", &s->q));
  if (s->preconditioner == PCG_JACOBI) {
    TRY(make_field(s, "preconditioned", &s->z));
  }
  Field *couplings[] = {s->east, s->north};
  TRY(halo_create(couplings, 2, &s->couplings_halo));
  TRY(halo_create(&s->p, 1, &s->p_halo));
  TRY(reducer_create(rt, decomp, &s->reducer));
  KernelConfig config = {.precision = precision, .stencil_radius = GHOST, .wg_x = WG_X, .wg_y = WG_Y};
  TRY(program_build_kernels(rt, "pcg", &config, kernel_names, NKERNELS, &s->program, s->kernels));
  if (s->preconditioner == PCG_RRB) {
    TRY(create_rrb(s));
  }
  *out = s;
  s = NULL;
cleanup:
  pcg_destroy(&s);
  return status;
}

void pcg_destroy(Pcg **pcg) {
  if (!pcg || !*pcg) {
    return;
  }
  Pcg *s = *pcg;
  for (int v = 0; v < L_VECTORS; v++) {
    if (s->layout[v]) {
      clReleaseMemObject(s->layout[v]);
    }
  }
  rrb_permute_destroy(&s->permute);
  rrb_destroy(&s->rrb);
  rrb_dist_destroy(&s->rrb_dist);
  program_release(&s->program, s->kernels, NKERNELS);
  reducer_destroy(&s->reducer);
  halo_destroy(&s->p_halo);
  halo_destroy(&s->couplings_halo);
  Field **fields[] = {&s->centre, &s->east, &s->north, &s->r, &s->z, &s->p, &s->q};
  for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
    field_destroy(fields[f]);
  }
  free(s);
  *pcg = NULL;
}

void pcg_set_norm(Pcg *pcg, PcgNorm norm) {
  pcg->norm = norm;
}

void pcg_matrix(Pcg *pcg, Field *fields[3]) {
  fields[0] = pcg->centre;
  fields[1] = pcg->east;
  fields[2] = pcg->north;
}

HclStatus pcg_set_matrix(Pcg *pcg) {
  HclStatus status = HCL_OK;
  double smallest = 0;
  TRY(halo_exchange(pcg->couplings_halo));
  TRY(reduce_min(pcg->reducer, field_span(pcg->centre), &smallest));
  REQUIRE(smallest > 0, HCL_EDATA,
          "the matrix has a centre coefficient of %g: a symmetric positive definite matrix has every one positive",
          smallest);
  if (pcg->rrb) {
    TRY(rrb_setup(pcg->rrb, pcg->centre, pcg->east, pcg->north));
  }
  if (pcg->rrb_dist) {
    TRY(rrb_dist_setup(pcg->rrb_dist, pcg->centre, pcg->east, pcg->north));
  }
cleanup:
  return status;
}

/* Sets a kernel's scalar argument in the solver's precision. */
static HclStatus set_real(Pcg *s, cl_kernel kernel, cl_uint arg, double value) {
  HclStatus status = HCL_OK;
  if (s->precision == PRECISION_DOUBLE) {
    TRY_CL(clSetKernelArg(kernel, arg, sizeof value, &value));
  } else {
    float single = (float)value;
    TRY_CL(clSetKernelArg(kernel, arg, sizeof single, &single));
  }
cleanup:
  return status;
}

/* Launches kernel k over the owned points with fields, then scalars (0 to 1 of them, in the field's precision),
 * then nx, ny and the pitch. */
static HclStatus launch(Pcg *s, int k, Field *const *fields, int nfields, const double *scalar) {
  HclStatus status = HCL_OK;
  cl_kernel kernel = s->kernels[k];
  const DecompLocal *l = decomp_local(s->decomp);
  cl_uint arg = 0;
  for (int f = 0; f < nfields; f++) {
    cl_mem buffer = field_buffer(fields[f]);
    TRY_CL(clSetKernelArg(kernel, arg++, sizeof buffer, &buffer));
  }
  if (scalar) {
    TRY(set_real(s, kernel, arg++, *scalar));
  }
  cl_int grid[3] = {l->nx, l->ny, field_pitch(s->r)};
  for (int g = 0; g < 3; g++) {
    TRY_CL(clSetKernelArg(kernel, arg++, sizeof grid[g], &grid[g]));
  }
  size_t global[2], local[2];
  runtime_grid_shape(s->rt, l->nx, l->ny, WG_X, WG_Y, 1, global, local);
  double bytes = (double)(nfields + 1) * l->nx * l->ny * precision_bytes(s->precision);
  TRY(runtime_launch(s->rt, kernel, 2, global, local, bytes, NULL));
cleanup:
  return status;
}

/* The same for a range kernel over the red places of the RRB layout: buffers, then the scalar, then the range. */
static HclStatus launch_range(Pcg *s, int k, const int *vectors, int nvectors, const double *scalar) {
  HclStatus status = HCL_OK;
  cl_kernel kernel = s->kernels[k];
  cl_uint arg = 0, first = (cl_uint)rrb_red_first(s->rrb), end = (cl_uint)rrb_vector_layout(s->rrb)->count;
  for (int v = 0; v < nvectors; v++) {
    TRY_CL(clSetKernelArg(kernel, arg++, sizeof(cl_mem), &s->layout[vectors[v]]));
  }
  if (scalar) {
    TRY(set_real(s, kernel, arg++, *scalar));
  }
  TRY_CL(clSetKernelArg(kernel, arg++, sizeof first, &first));
  TRY_CL(clSetKernelArg(kernel, arg++, sizeof end, &end));
  size_t n = end - first, local = WG_1D, global = (n + local - 1) / local * local;
  double bytes = (double)(nvectors + 1) * n * precision_bytes(s->precision);
  TRY(runtime_launch(s->rt, kernel, 1, &global, &local, bytes, NULL));
cleanup:
  return status;
}

/* q = S p, p's ghosts exchanged first. */
static HclStatus apply_matrix(Pcg *s, Field *p, Halo *halo, Field *q) {
  HclStatus status = HCL_OK;
  TRY(halo_exchange(halo));
  Field *args[] = {s->centre, s->east, s->north, p, q};
  TRY(launch(s, KERNEL_STENCIL, args, 5, NULL));
cleanup:
  return status;
}

/* z = M^-1 r, and rho = <r, z>. */
static HclStatus precondition(Pcg *s, double *rho) {
  HclStatus status = HCL_OK;
  if (s->preconditioner == PCG_JACOBI) {
    Field *args[] = {s->r, s->centre, s->z};
    TRY(launch(s, KERNEL_JACOBI, args, 3, NULL));
  }
  if (s->rrb_dist) {
    TRY(rrb_dist_apply(s->rrb_dist, s->r, s->z));
  }
  TRY(reduce_dot(s->reducer, field_span(s->r), field_span(s->z ? s->z : s->r), rho));
cleanup:
  return status;
}

/* dst = src, ghosts included (fields of one shape). */
static HclStatus copy_field(Pcg *s, Field *src, Field *dst) {
  HclStatus status = HCL_OK;
  size_t bytes = field_count(dst) * precision_bytes(s->precision);
  TRY_CL(clEnqueueCopyBuffer(runtime_queue(s->rt), field_buffer(src), field_buffer(dst), 0, 0, bytes, 0, NULL, NULL));
cleanup:
  return status;
}

/* r = b - S x through p and its halo (x needs none of its own), and rr = <r, r>. */
static HclStatus residual(Pcg *s, Field *b, Field *x, double *rr) {
  HclStatus status = HCL_OK;
  TRY(copy_field(s, x, s->p));
  TRY(apply_matrix(s, s->p, s->p_halo, s->q));
  Field *residual_args[] = {b, s->q, s->r};
  TRY(launch(s, KERNEL_RESIDUAL, residual_args, 3, NULL));
  TRY(reduce_dot(s->reducer, field_span(s->r), field_span(s->r), rr));
cleanup:
  return status;
}

/* The value the stopping criterion compares: ||r||_2 from <r, r>, or ||r||_M^-1 from rho = <r, M^-1 r>. */
static double criterion(const Pcg *s, double rr, double rho) {
  return sqrt(s->norm == PCG_NORM_M ? rho : rr);
}

/* p^T S p must be positive for an SPD matrix. */
static HclStatus check_curvature(double pq, int iteration) {
  HclStatus status = HCL_OK;
  REQUIRE(pq > 0, HCL_EDATA, "conjugate gradients met p^T S p = %g at iteration %d: the matrix is not positive "
          "definite", pq, iteration);
cleanup:
  return status;
}

/* CG on the natural fields (plain or Jacobi), from r = b - S x and rr = <r, r>. */
static HclStatus solve_natural(Pcg *s, Field *x, double rr, double norm_b, double tolerance, int max_iterations,
                               PcgResult *result) {
  HclStatus status = HCL_OK;
  double rho = 0;
  Field *z = s->z ? s->z : s->r;
  TRY(precondition(s, &rho));
  TRY(copy_field(s, z, s->p));
  double target = tolerance * (s->norm == PCG_NORM_M ? sqrt(rho) : norm_b);
  while (criterion(s, rr, rho) > target && result->iterations < max_iterations) {
    double pq = 0;
    TRY(apply_matrix(s, s->p, s->p_halo, s->q));
    TRY(reduce_dot(s->reducer, field_span(s->p), field_span(s->q), &pq));
    TRY(check_curvature(pq, result->iterations + 1));
    double alpha = rho / pq;
    Field *update_args[] = {x, s->p, s->r, s->q};
    TRY(launch(s, KERNEL_SOLUTION, update_args, 4, &alpha));
    double rho_next = 0;
    TRY(precondition(s, &rho_next));
    if (s->z) {
      TRY(reduce_dot(s->reducer, field_span(s->r), field_span(s->r), &rr));
    } else {
      rr = rho_next;
    }
    double beta = rho_next / rho;
    Field *direction_args[] = {z, s->p};
    TRY(launch(s, KERNEL_DIRECTION, direction_args, 2, &beta));
    rho = rho_next;
    result->iterations++;
  }
  result->converged = criterion(s, rr, rho) <= target;
cleanup:
  return status;
}

static HclStatus dot_layout(Pcg *s, int a, int b, double *result) {
  size_t first = rrb_red_first(s->rrb), end = rrb_vector_layout(s->rrb)->count;
  return reduce_dot(s->reducer, span_range(s->layout[a], s->precision, first, end),
                    span_range(s->layout[b], s->precision, first, end), result);
}

/* z = M1^-1 r, rho = <r, z> and rr = <r, r> (in one pass). */
static HclStatus precondition_layout(Pcg *s, double *rho, double *rr) {
  HclStatus status = HCL_OK;
  double dots[2];
  TRY(rrb_apply(s->rrb, s->layout[L_R], s->layout[L_Z]));
  size_t first = rrb_red_first(s->rrb), end = rrb_vector_layout(s->rrb)->count;
  TRY(reduce_dot2(s->reducer, span_range(s->layout[L_R], s->precision, first, end),
                  span_range(s->layout[L_Z], s->precision, first, end),
                  span_range(s->layout[L_R], s->precision, first, end), dots));
  *rho = dots[0];
  *rr = dots[1];
cleanup:
  return status;
}

/* CG on the first Schur complement, preconditioned by RRB (the paper's section 3): b and x to the layout, the
 * Schur system's right-hand side, CG on the red places, the black nodes from the red, x back. */
static HclStatus solve_schur(Pcg *s, Field *b, Field *x, double norm_b, double tolerance, int max_iterations,
                             PcgResult *result) {
  HclStatus status = HCL_OK;
  double rho = 0, rr = 0;
  size_t first = rrb_red_first(s->rrb), bytes = precision_bytes(s->precision);
  size_t reds = rrb_vector_layout(s->rrb)->count - first;
  TRY(rrb_to_layout(s->permute, b, s->layout[L_B]));
  TRY(rrb_to_layout(s->permute, x, s->layout[L_X]));
  TRY(rrb_schur_rhs(s->rrb, s->layout[L_B], s->layout[L_R]));
  TRY(rrb_schur_apply(s->rrb, s->layout[L_X], s->layout[L_Q]));
  const int subtract_args[] = {L_R, L_Q};
  TRY(launch_range(s, KERNEL_SUBTRACT_RANGE, subtract_args, 2, NULL));
  TRY(precondition_layout(s, &rho, &rr));
  TRY_CL(clEnqueueCopyBuffer(runtime_queue(s->rt), s->layout[L_Z], s->layout[L_P], first * bytes, first * bytes,
                             reds * bytes, 0, NULL, NULL));
  double target = tolerance * (s->norm == PCG_NORM_M ? sqrt(rho) : norm_b);
  while (criterion(s, rr, rho) > target && result->iterations < max_iterations) {
    double pq = 0, rho_next = 0;
    TRY(rrb_schur_apply(s->rrb, s->layout[L_P], s->layout[L_Q]));
    TRY(dot_layout(s, L_P, L_Q, &pq));
    TRY(check_curvature(pq, result->iterations + 1));
    double alpha = rho / pq;
    const int update_args[] = {L_X, L_P, L_R, L_Q};
    TRY(launch_range(s, KERNEL_SOLUTION_RANGE, update_args, 4, &alpha));
    TRY(precondition_layout(s, &rho_next, &rr));
    double beta = rho_next / rho;
    const int direction_args[] = {L_Z, L_P};
    TRY(launch_range(s, KERNEL_DIRECTION_RANGE, direction_args, 2, &beta));
    rho = rho_next;
    result->iterations++;
  }
  result->converged = criterion(s, rr, rho) <= target;
  TRY(rrb_recover_black(s->rrb, s->layout[L_B], s->layout[L_X]));
  TRY(rrb_from_layout(s->permute, s->layout[L_X], x));
cleanup:
  return status;
}

HclStatus pcg_solve(Pcg *s, Field *b, Field *x, double tolerance, int max_iterations, PcgResult *result) {
  HclStatus status = HCL_OK;
  double rr = 0, bb = 0;
  *result = (PcgResult){0};
  ASSERT(field_precision(b) == s->precision && field_precision(x) == s->precision && field_ghost(x) == GHOST &&
         field_decomp(x) == s->decomp && field_decomp(b) == s->decomp && field_nz(x) == 1);
  TRY(residual(s, b, x, &rr));
  TRY(reduce_dot(s->reducer, field_span(b), field_span(b), &bb));
  result->initial_residual = sqrt(rr);
  if (s->rrb) {
    TRY(solve_schur(s, b, x, sqrt(bb), tolerance, max_iterations, result));
  } else {
    if (s->rrb_dist) { /* CG on the whole system as the Schur complement's (satisfy_black) */
      Field *args[] = {x, s->r, s->centre};
      TRY(launch(s, KERNEL_SATISFY_BLACK, args, 3, NULL));
      TRY(residual(s, b, x, &rr));
    }
    TRY(solve_natural(s, x, rr, sqrt(bb), tolerance, max_iterations, result));
  }
  TRY(residual(s, b, x, &rr));
  result->final_residual = sqrt(rr);
cleanup:
  return status;
}
