/* pcg.c: preconditioned conjugate gradients on the device (see pcg.h; kernels in kernels_cl/pcg.cl). */
#include "pcg.h"

#include <math.h>
#include <stdlib.h>

#include "clerror.h"
#include "halo.h"
#include "program.h"
#include "reduce.h"

enum { GHOST = 1, WG_X = 32, WG_Y = 4 };
enum { KERNEL_STENCIL, KERNEL_RESIDUAL, KERNEL_SOLUTION, KERNEL_JACOBI, KERNEL_DIRECTION, NKERNELS };
static const char *const kernel_names[NKERNELS] = {"apply_stencil", "residual", "update_solution", "jacobi",
                                                   "update_direction"};

struct Pcg {
  Runtime *rt;
  const Decomp *decomp;
  Precision precision;
  PcgPreconditioner preconditioner;
  Field *centre, *east, *north; /* the matrix */
  Field *r, *z, *p, *q;         /* residual, preconditioned residual (r itself when plain), direction, S p */
  Halo *couplings_halo, *p_halo;
  Reducer *reducer;
  cl_program program;
  cl_kernel kernels[NKERNELS];
};

static HclStatus make_field(Pcg *s, const char *name, Field **f) {
  FieldSpec spec = {.name = name, .nz = 1, .ghost = GHOST, .precision = s->precision};
  return field_create(s->rt, s->decomp, &spec, f);
}

HclStatus pcg_create(Runtime *rt, const Decomp *decomp, Precision precision, PcgPreconditioner preconditioner,
                     Pcg **out) {
  HclStatus status = HCL_OK;
  Pcg *s = NULL;
  *out = NULL;
  TRY_ALLOC(s, 1);
  s->rt = rt;
  s->decomp = decomp;
  s->precision = precision;
  s->preconditioner = preconditioner;
  TRY(make_field(s, "centre", &s->centre));
  TRY(make_field(s, "east", &s->east));
  TRY(make_field(s, "north", &s->north));
  TRY(make_field(s, "residual", &s->r));
  TRY(make_field(s, "direction", &s->p));
  TRY(make_field(s, "product", &s->q));
  if (preconditioner == PCG_JACOBI) {
    TRY(make_field(s, "preconditioned", &s->z));
  }
  Field *couplings[] = {s->east, s->north};
  TRY(halo_create(couplings, 2, &s->couplings_halo));
  TRY(halo_create(&s->p, 1, &s->p_halo));
  TRY(reducer_create(rt, decomp, &s->reducer));
  KernelConfig config = {.precision = precision, .stencil_radius = GHOST, .wg_x = WG_X, .wg_y = WG_Y};
  TRY(program_build_kernels(rt, "pcg", &config, kernel_names, NKERNELS, &s->program, s->kernels));
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

void pcg_matrix(Pcg *pcg, Field *fields[3]) {
  fields[0] = pcg->centre;
  fields[1] = pcg->east;
  fields[2] = pcg->north;
}

HclStatus pcg_set_matrix(Pcg *pcg) {
  HclStatus status = HCL_OK;
  double smallest = 0;
  TRY(halo_exchange(pcg->couplings_halo));
  TRY(reduce_min(pcg->reducer, pcg->centre, &smallest));
  REQUIRE(smallest > 0, HCL_EDATA,
          "the matrix has a centre coefficient of %g: a symmetric positive definite matrix has every one positive",
          smallest);
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
  if (scalar && s->precision == PRECISION_DOUBLE) {
    TRY_CL(clSetKernelArg(kernel, arg++, sizeof(double), scalar));
  } else if (scalar) {
    float value = (float)*scalar;
    TRY_CL(clSetKernelArg(kernel, arg++, sizeof value, &value));
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
  TRY(reduce_dot(s->reducer, s->r, s->z ? s->z : s->r, rho));
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

HclStatus pcg_solve(Pcg *s, Field *b, Field *x, double tolerance, int max_iterations, PcgResult *result) {
  HclStatus status = HCL_OK;
  double rho = 0, rr = 0, bb = 0;
  Field *z = s->z ? s->z : s->r;
  *result = (PcgResult){0};
  ASSERT(field_precision(b) == s->precision && field_precision(x) == s->precision && field_ghost(x) == GHOST &&
         field_decomp(x) == s->decomp && field_decomp(b) == s->decomp && field_nz(x) == 1);
  TRY(copy_field(s, x, s->p)); /* r = b - S x, through p and its halo (x needs none of its own) */
  TRY(apply_matrix(s, s->p, s->p_halo, s->q));
  Field *residual_args[] = {b, s->q, s->r};
  TRY(launch(s, KERNEL_RESIDUAL, residual_args, 3, NULL));
  TRY(reduce_dot(s->reducer, s->r, s->r, &rr));
  TRY(reduce_dot(s->reducer, b, b, &bb));
  result->initial_residual = result->final_residual = sqrt(rr);
  TRY(precondition(s, &rho));
  TRY(copy_field(s, z, s->p));
  double target = tolerance * sqrt(bb);
  while (result->final_residual > target && result->iterations < max_iterations) {
    double pq = 0;
    TRY(apply_matrix(s, s->p, s->p_halo, s->q));
    TRY(reduce_dot(s->reducer, s->p, s->q, &pq));
    REQUIRE(pq > 0, HCL_EDATA, "conjugate gradients met p^T S p = %g at iteration %d: the matrix is not positive "
            "definite", pq, result->iterations + 1);
    double alpha = rho / pq;
    Field *update_args[] = {x, s->p, s->r, s->q};
    TRY(launch(s, KERNEL_SOLUTION, update_args, 4, &alpha));
    double rho_next = 0;
    TRY(precondition(s, &rho_next));
    if (s->z) {
      TRY(reduce_dot(s->reducer, s->r, s->r, &rr));
    } else {
      rr = rho_next;
    }
    double beta = rho_next / rho;
    Field *direction_args[] = {z, s->p};
    TRY(launch(s, KERNEL_DIRECTION, direction_args, 2, &beta));
    rho = rho_next;
    result->iterations++;
    result->final_residual = sqrt(rr);
  }
  result->converged = result->final_residual <= target;
cleanup:
  return status;
}
