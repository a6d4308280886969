/* SPDX-License-Identifier: BSD-3-Clause */
/* decomp.c: block decomposition over a Cartesian process grid (see decomp.h; the communicator is par.h's). */
#include "decomp.h"

#include <stdlib.h>

#include "par.h"

struct Decomp {
  DecompSpec spec;
  DecompLocal local;
  int *x_start, *y_start; /* px + 1 and py + 1 entries: the first global point of each column and row of ranks */
  ParComm *comm;          /* the process grid (par.h) */
  bool replicated;        /* every rank holds the whole grid (hcl_decomp_create_replicated) */
};

/* The first point of each of p blocks over n points, start[p] = n: the first n mod p blocks get one extra point. */
static void even_blocks(int n, int p, int *start) {
  int base = n / p, extra = n % p;
  for (int c = 0; c <= p; c++) {
    start[c] = c * base + (c < extra ? c : extra);
  }
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

/* The process grid for size ranks over nx x ny points when px or py (or both) is 0: of the splits px * py = size that
 * keep the given side and leave every rank a point in each direction, the one whose largest block has the shortest
 * perimeter (ceil(nx / px) + ceil(ny / py), the halo it exchanges), and among equals the one with more ranks in y
 * (rows, the contiguous direction, stay whole). Plain MPI_Dims_create ignores the grid's shape: it splits 400 x 4
 * points over 3 ranks as 1 x 3, where a rank cannot own a row. False when no split fits. */
static bool choose_process_grid(int nx, int ny, int size, int *px, int *py) {
  int best_px = 0, best_perimeter = 0;
  for (int cx = 1; cx <= size; cx++) {
    int cy = size / cx;
    bool fits = cx * cy == size && (*px == 0 || cx == *px) && (*py == 0 || cy == *py) && cx <= nx && cy <= ny;
    int perimeter = (nx + cx - 1) / cx + (ny + cy - 1) / cy;
    if (fits && (best_px == 0 || perimeter < best_perimeter)) { /* cx rising: the first of equals has most in y */
      best_px = cx;
      best_perimeter = perimeter;
    }
  }
  if (best_px == 0) {
    return false;
  }
  *px = best_px;
  *py = size / best_px;
  return true;
}

/* This rank's block and neighbours from the process-grid coordinates and the block starts. */
static void fill_local(Decomp *d) {
  DecompLocal *l = &d->local;
  l->rank = hcl_par_rank();
  l->px = d->spec.px;
  l->py = d->spec.py;
  l->x0 = d->x_start[l->cx];
  l->nx = d->x_start[l->cx + 1] - l->x0;
  l->y0 = d->y_start[l->cy];
  l->ny = d->y_start[l->cy + 1] - l->y0;
  for (int dy = -1; dy <= 1; dy++) {
    for (int dx = -1; dx <= 1; dx++) {
      int nx_c = wrap(l->cx + dx, l->px, d->spec.periodic_x);
      int ny_c = wrap(l->cy + dy, l->py, d->spec.periodic_y);
      int rank = d->replicated ? l->rank : rank_of(&d->spec, nx_c, ny_c);
      l->neighbor[dy + 1][dx + 1] = nx_c < 0 || ny_c < 0 ? -1 : rank;
    }
  }
}

HclStatus hcl_decomp_create(const DecompSpec *spec, Decomp **out) {
  HclStatus status = HCL_OK;
  Decomp *d = NULL;
  int size = hcl_par_size();
  *out = NULL;
  REQUIRE(spec->nx >= 1 && spec->ny >= 1, HCL_EDATA, "grid of %d x %d points is empty", spec->nx, spec->ny);
  TRY_ALLOC(d, 1);
  d->spec = *spec;
  REQUIRE(spec->px >= 0 && spec->py >= 0, HCL_EDATA, "process grid %d x %d has a negative side", spec->px, spec->py);
  REQUIRE(spec->px * spec->py == 0 || spec->px * spec->py == size, HCL_EUSAGE,
          "process grid %d x %d needs %d ranks, the run has %d (set it to 0 x 0 for automatic)", spec->px, spec->py,
          spec->px * spec->py, size);
  REQUIRE((spec->px == 0 || size % spec->px == 0) && (spec->py == 0 || size % spec->py == 0), HCL_EDATA,
          "process grid px = %d, py = %d cannot split %d ranks: a given side must divide the number of ranks; run "
          "on a multiple of it, or set it to 0 for automatic",
          spec->px, spec->py, size);
  REQUIRE(choose_process_grid(spec->nx, spec->ny, size, &d->spec.px, &d->spec.py), HCL_EDATA,
          "grid of %d x %d points cannot be split over %d ranks%s: every rank needs at least one point in each "
          "direction; use fewer ranks",
          spec->nx, spec->ny, size, spec->px || spec->py ? " with the process grid given" : "");
  TRY(hcl_par_comm_create_grid(d->spec.px, d->spec.py, spec->periodic_x, spec->periodic_y, &d->comm, &d->local.cx,
                               &d->local.cy));
  TRY_ALLOC(d->x_start, d->spec.px + 1);
  TRY_ALLOC(d->y_start, d->spec.py + 1);
  even_blocks(spec->nx, d->spec.px, d->x_start);
  even_blocks(spec->ny, d->spec.py, d->y_start);
  fill_local(d);
  *out = d;
  d = NULL;
cleanup:
  hcl_decomp_destroy(&d);
  return status;
}

void hcl_decomp_destroy(Decomp **decomp) {
  if (!decomp || !*decomp) {
    return;
  }
  hcl_par_comm_destroy(&(*decomp)->comm);
  free((*decomp)->x_start);
  free((*decomp)->y_start);
  free(*decomp);
  *decomp = NULL;
}

const DecompSpec *hcl_decomp_spec(const Decomp *decomp) {
  return &decomp->spec;
}

const DecompLocal *hcl_decomp_local(const Decomp *decomp) {
  return &decomp->local;
}

void hcl_decomp_block_of(const Decomp *decomp, int rank, int *x0, int *y0, int *nx, int *ny) {
  int cx = rank % decomp->spec.px, cy = rank / decomp->spec.px;
  *x0 = decomp->x_start[cx];
  *nx = decomp->x_start[cx + 1] - *x0;
  *y0 = decomp->y_start[cy];
  *ny = decomp->y_start[cy + 1] - *y0;
}

/* Point I of the coarse grid is point 2 I of the fine one: a closed side keeps its end points (n odd, (n + 1) / 2
 * points), a periodic one has n even and n / 2 points; either way ceil(n / 2). A block keeps its even points. */
static int coarse_start(int fine_start, bool halve) {
  return halve ? (fine_start + 1) / 2 : fine_start;
}

/* Point I of the coarse grid is point 2 I + 1 of the fine one: floor(n / 2) points. A block keeps its odd points. */
static int odd_start(int fine_start, bool halve) {
  return halve ? fine_start / 2 : fine_start;
}

typedef int (*StartRule)(int fine_start, bool halve);

/* Whether every rank keeps a point under rule. */
static bool blocks_survive(const Decomp *fine, StartRule rule, bool halve_x, bool halve_y) {
  const DecompSpec *s = &fine->spec;
  for (int c = 0; c < s->px; c++) {
    if (rule(fine->x_start[c + 1], halve_x) <= rule(fine->x_start[c], halve_x)) {
      return false;
    }
  }
  for (int c = 0; c < s->py; c++) {
    if (rule(fine->y_start[c + 1], halve_y) <= rule(fine->y_start[c], halve_y)) {
      return false;
    }
  }
  return true;
}

bool hcl_decomp_can_coarsen(const Decomp *fine, bool halve_x, bool halve_y) {
  const DecompSpec *s = &fine->spec;
  if ((halve_x && s->nx % 2 != (s->periodic_x ? 0 : 1)) || (halve_y && s->ny % 2 != (s->periodic_y ? 0 : 1))) {
    return false;
  }
  return blocks_survive(fine, coarse_start, halve_x, halve_y);
}

bool hcl_decomp_can_halve_odd(const Decomp *fine, bool halve_x, bool halve_y) {
  const DecompSpec *s = &fine->spec;
  if ((halve_x && s->periodic_x && s->nx % 2) || (halve_y && s->periodic_y && s->ny % 2)) {
    return false;
  }
  return blocks_survive(fine, odd_start, halve_x, halve_y);
}

/* The coarse decomposition of fine under rule, on the same process grid. */
static HclStatus create_halved(const Decomp *fine, StartRule rule, bool halve_x, bool halve_y, Decomp **out) {
  HclStatus status = HCL_OK;
  Decomp *d = NULL;
  *out = NULL;
  TRY_ALLOC(d, 1);
  d->spec = fine->spec;
  d->local = fine->local;
  d->replicated = fine->replicated;
  TRY(hcl_par_comm_dup(fine->comm, &d->comm));
  TRY_ALLOC(d->x_start, d->spec.px + 1);
  TRY_ALLOC(d->y_start, d->spec.py + 1);
  for (int c = 0; c <= d->spec.px; c++) {
    d->x_start[c] = rule(fine->x_start[c], halve_x);
  }
  for (int c = 0; c <= d->spec.py; c++) {
    d->y_start[c] = rule(fine->y_start[c], halve_y);
  }
  d->spec.nx = d->x_start[d->spec.px];
  d->spec.ny = d->y_start[d->spec.py];
  fill_local(d);
  *out = d;
  d = NULL;
cleanup:
  hcl_decomp_destroy(&d);
  return status;
}

HclStatus hcl_decomp_create_coarse(const Decomp *fine, bool halve_x, bool halve_y, Decomp **out) {
  HclStatus status = HCL_OK;
  *out = NULL;
  ASSERT(hcl_decomp_can_coarsen(fine, halve_x, halve_y));
  TRY(create_halved(fine, coarse_start, halve_x, halve_y, out));
cleanup:
  return status;
}

HclStatus hcl_decomp_create_odd(const Decomp *fine, bool halve_x, bool halve_y, Decomp **out) {
  HclStatus status = HCL_OK;
  *out = NULL;
  ASSERT(hcl_decomp_can_halve_odd(fine, halve_x, halve_y));
  TRY(create_halved(fine, odd_start, halve_x, halve_y, out));
cleanup:
  return status;
}

HclStatus hcl_decomp_create_replicated(const Decomp *split, int nx, int ny, Decomp **out) {
  HclStatus status = HCL_OK;
  Decomp *d = NULL;
  *out = NULL;
  TRY_ALLOC(d, 1);
  d->replicated = true;
  d->spec = (DecompSpec){
      .nx = nx, .ny = ny, .px = 1, .py = 1, .periodic_x = split->spec.periodic_x, .periodic_y = split->spec.periodic_y};
  TRY(hcl_par_comm_dup(split->comm, &d->comm));
  TRY_ALLOC(d->x_start, 2);
  TRY_ALLOC(d->y_start, 2);
  even_blocks(nx, 1, d->x_start);
  even_blocks(ny, 1, d->y_start);
  fill_local(d);
  *out = d;
  d = NULL;
cleanup:
  hcl_decomp_destroy(&d);
  return status;
}

const ParComm *hcl_decomp_comm(const Decomp *decomp) {
  return decomp->comm;
}
