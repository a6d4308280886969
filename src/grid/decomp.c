/* decomp.c: block decomposition over an MPI Cartesian process grid (see decomp.h). */
#include "decomp.h"

#include <stdlib.h>

#include "par.h"

struct Decomp {
  DecompSpec spec;
  DecompLocal local;
#ifdef HYDROCL_HAVE_MPI
  MPI_Comm comm;
#endif
};

/* The block of coordinate c among p ranks over n points: the first n mod p blocks get one extra point. */
static void block(int n, int p, int c, int *start, int *count) {
  int base = n / p, extra = n % p;
  *count = base + (c < extra ? 1 : 0);
  *start = c * base + (c < extra ? c : extra);
}

static int wrap(int c, int p, bool periodic) {
  if (c >= 0 && c < p) {
    return c;
  }
  return periodic ? (c + p) % p : -1;
}

/* Row-major rank of process-grid coordinates, as MPI_Cart_create orders them with dims {py, px}. */
static int rank_of(const DecompSpec *s, int cx, int cy) {
  return cy * s->px + cx;
}

HclStatus decomp_create(const DecompSpec *spec, Decomp **out) {
  HclStatus status = HCL_OK;
  Decomp *d = NULL;
  int size = par_size();
  *out = NULL;
  REQUIRE(spec->nx >= 1 && spec->ny >= 1, HCL_EDATA, "grid of %d x %d points is empty", spec->nx, spec->ny);
  TRY_ALLOC(d, 1);
  d->spec = *spec;
  int dims[2] = {spec->py, spec->px}; /* MPI order: slowest (y) first */
  REQUIRE(spec->px >= 0 && spec->py >= 0, HCL_EDATA, "process grid %d x %d has a negative side", spec->px, spec->py);
  REQUIRE(spec->px * spec->py == 0 || spec->px * spec->py == size, HCL_EUSAGE,
          "process grid %d x %d needs %d ranks, the run has %d (set it to 0 x 0 for automatic)", spec->px, spec->py,
          spec->px * spec->py, size);
  /* One side given: MPI_Dims_create would fail with an MPI error where the given side does not divide the ranks. */
  REQUIRE((spec->px == 0 || size % spec->px == 0) && (spec->py == 0 || size % spec->py == 0), HCL_EDATA,
          "process grid px = %d, py = %d cannot split %d ranks: a given side must divide the number of ranks; run "
          "on a multiple of it, or set it to 0 for automatic",
          spec->px, spec->py, size);
#ifdef HYDROCL_HAVE_MPI
  d->comm = MPI_COMM_NULL;
  TRY_MPI(MPI_Dims_create(size, 2, dims));
#else
  dims[0] = dims[1] = 1;
#endif
  d->spec.py = dims[0];
  d->spec.px = dims[1];
  REQUIRE(d->spec.px <= spec->nx && d->spec.py <= spec->ny, HCL_EDATA,
          "grid of %d x %d points cannot be split over %d x %d ranks: every rank needs at least one point; use "
          "fewer ranks",
          spec->nx, spec->ny, d->spec.px, d->spec.py);
#ifdef HYDROCL_HAVE_MPI
  int periods[2] = {spec->periodic_y, spec->periodic_x};
  int coords[2];
  /* No reordering: rank r is the same process in the world and here, so device and log tables agree. */
  TRY_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &d->comm));
  TRY_MPI(MPI_Cart_coords(d->comm, par_rank(), 2, coords));
  d->local.cy = coords[0];
  d->local.cx = coords[1];
#endif
  DecompLocal *l = &d->local;
  l->rank = par_rank();
  l->px = d->spec.px;
  l->py = d->spec.py;
  block(spec->nx, l->px, l->cx, &l->x0, &l->nx);
  block(spec->ny, l->py, l->cy, &l->y0, &l->ny);
  for (int dy = -1; dy <= 1; dy++) {
    for (int dx = -1; dx <= 1; dx++) {
      int nx_c = wrap(l->cx + dx, l->px, spec->periodic_x);
      int ny_c = wrap(l->cy + dy, l->py, spec->periodic_y);
      l->neighbor[dy + 1][dx + 1] = nx_c < 0 || ny_c < 0 ? -1 : rank_of(&d->spec, nx_c, ny_c);
    }
  }
  *out = d;
  d = NULL;
cleanup:
  decomp_destroy(&d);
  return status;
}

void decomp_destroy(Decomp **decomp) {
  if (!decomp || !*decomp) {
    return;
  }
#ifdef HYDROCL_HAVE_MPI
  if ((*decomp)->comm != MPI_COMM_NULL) {
    MPI_Comm_free(&(*decomp)->comm);
  }
#endif
  free(*decomp);
  *decomp = NULL;
}

const DecompSpec *decomp_spec(const Decomp *decomp) {
  return &decomp->spec;
}

const DecompLocal *decomp_local(const Decomp *decomp) {
  return &decomp->local;
}

void decomp_block_of(const Decomp *decomp, int rank, int *x0, int *y0, int *nx, int *ny) {
  const DecompSpec *s = &decomp->spec;
  block(s->nx, s->px, rank % s->px, x0, nx);
  block(s->ny, s->py, rank / s->px, y0, ny);
}

#ifdef HYDROCL_HAVE_MPI
MPI_Comm decomp_comm(const Decomp *decomp) {
  return decomp->comm;
}
#endif
