/* test_halo.c: the halo exchange on any number of ranks (meson runs it on 1, 2, 3 and 4): uneven splits, periodic
 * and closed sides, ghost widths 1 to 4, 2D and 3D fields, float and double, several fields in one message, and
 * the begin/end split. Every ghost point must hold the value of the point it mirrors (its global index, wrapped
 * across periodic sides), corners included; ghosts beyond a closed side keep their sentinel; owned points never
 * change. Values encode the global index and are exact in float, so the comparison is exact. */
#include <math.h>
#include <stdlib.h>

#include "halo.h"
#include "../support.h"
#include "../tap.h"

static const double SENTINEL = -7.0;

typedef struct {
  int nx, ny;
  bool periodic_x, periodic_y;
} Grid;

typedef struct {
  int nz, ghost;
  Precision precision;
} Shape;

static double value(int gx, int gy, int k, int which) {
  return gx + 100.0 * gy + 10000.0 * k + 100000.0 * which;
}

static HclStatus fill(Field *f, int which) {
  HclStatus status = HCL_OK;
  double *host = NULL;
  const DecompLocal *l = decomp_local(field_decomp(f));
  int g = field_ghost(f), pitch = field_pitch(f), rows = field_rows(f);
  TRY_ALLOC(host, field_count(f));
  for (size_t i = 0; i < field_count(f); i++) {
    host[i] = SENTINEL;
  }
  for (int k = 0; k < field_nz(f); k++) {
    for (int j = 0; j < field_ny(f); j++) {
      for (int i = 0; i < field_nx(f); i++) {
        host[((size_t)k * rows + j + g) * pitch + i + g] = value(l->x0 + i, l->y0 + j, k, which);
      }
    }
  }
  TRY(field_write_ghosted(f, host));
cleanup:
  free(host);
  return status;
}

/* Counts the points of f whose value differs from what a correct exchange leaves there. */
static HclStatus count_wrong(Field *f, const Grid *grid, int which, long *wrong) {
  HclStatus status = HCL_OK;
  double *host = NULL;
  const DecompLocal *l = decomp_local(field_decomp(f));
  int g = field_ghost(f), pitch = field_pitch(f), rows = field_rows(f);
  TRY_ALLOC(host, field_count(f));
  TRY(field_read_ghosted(f, host));
  *wrong = 0;
  for (int k = 0; k < field_nz(f); k++) {
    for (int j = 0; j < rows; j++) {
      for (int i = 0; i < pitch; i++) {
        int gx = l->x0 + i - g, gy = l->y0 + j - g;
        if (grid->periodic_x) {
          gx = (gx + grid->nx) % grid->nx;
        }
        if (grid->periodic_y) {
          gy = (gy + grid->ny) % grid->ny;
        }
        bool inside = gx >= 0 && gx < grid->nx && gy >= 0 && gy < grid->ny;
        double want = inside ? value(gx, gy, k, which) : SENTINEL;
        *wrong += host[((size_t)k * rows + j) * pitch + i] != want;
      }
    }
  }
cleanup:
  free(host);
  return status;
}

/* Exchanges nshapes fields of grid in one halo (split into begin and end when split is set); reports. */
static void check(Runtime *rt, const Grid *grid, const Shape *shapes, int nshapes, bool split) {
  Decomp *decomp = NULL;
  Field *fields[4] = {NULL};
  Halo *halo = NULL;
  long wrong_total = 0;
  char label[160];
  int used = snprintf(label, sizeof label, "%dx%d %s%s ranks %d%s:", grid->nx, grid->ny,
                      grid->periodic_x ? "periodic-x " : "", grid->periodic_y ? "periodic-y" : "", par_size(),
                      split ? " begin/end" : "");
  for (int s = 0; s < nshapes; s++) {
    used += snprintf(label + used, sizeof label - (size_t)used, " [nz %d g %d %s]", shapes[s].nz, shapes[s].ghost,
                     precision_name(shapes[s].precision));
  }
  DecompSpec spec = {.nx = grid->nx, .ny = grid->ny, .periodic_x = grid->periodic_x, .periodic_y = grid->periodic_y};
  status_clear();
  HclStatus s = decomp_create(&spec, &decomp);
  for (int i = 0; i < nshapes && s == HCL_OK; i++) {
    FieldSpec fs = {.name = "f", .nz = shapes[i].nz, .ghost = shapes[i].ghost, .precision = shapes[i].precision};
    s = field_create(rt, decomp, &fs, &fields[i]);
    if (s == HCL_OK) {
      s = fill(fields[i], i);
    }
  }
  if (s == HCL_OK) {
    s = halo_create(fields, nshapes, &halo);
  }
  for (int repeat = 0; repeat < 2 && s == HCL_OK; repeat++) { /* twice: buffers are reused correctly */
    s = split ? halo_begin(halo) : halo_exchange(halo);
    if (s == HCL_OK && split) {
      s = halo_end(halo);
    }
  }
  for (int i = 0; i < nshapes && s == HCL_OK; i++) {
    long wrong = 0;
    s = count_wrong(fields[i], grid, i, &wrong);
    wrong_total += wrong;
  }
  TAP_OK(all_ranks(s == HCL_OK && wrong_total == 0), "%s every ghost and owned point right (%ld wrong here) %s",
         label, wrong_total, status_message());
  halo_destroy(&halo);
  for (int i = 0; i < nshapes; i++) {
    field_destroy(&fields[i]);
  }
  decomp_destroy(&decomp);
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
  if (!TAP_OK(all_ranks(s == HCL_OK), "runtime on every rank %s", status_message())) {
    par_finalize();
    return tap_done();
  }
  const Grid closed = {23, 17, false, false}, px = {23, 17, true, false}, py = {19, 29, false, true};
  const Grid both = {13, 14, true, true}, strip = {40, 4, true, false};
  for (int g = 1; g <= 4; g++) {
    Shape d2 = {1, g, PRECISION_DOUBLE}, f3 = {3, g, PRECISION_SINGLE};
    check(rt, &both, &d2, 1, false);
    check(rt, &both, &f3, 1, false);
  }
  const Shape g1 = {1, 1, PRECISION_DOUBLE}, g2f = {1, 2, PRECISION_SINGLE}, g3 = {3, 3, PRECISION_DOUBLE};
  check(rt, &closed, &g1, 1, false);
  check(rt, &px, &g2f, 1, false);
  check(rt, &py, &g3, 1, false);
  check(rt, &strip, &g1, 1, false);
  const Shape batch[3] = {{1, 2, PRECISION_SINGLE}, {3, 1, PRECISION_DOUBLE}, {2, 0, PRECISION_DOUBLE}};
  check(rt, &both, batch, 3, false);
  check(rt, &closed, batch, 3, true);
  check(rt, &px, batch, 2, true);

  /* Too many ranks for the ghost width: refused with the numbers, not a wrong exchange. */
  if (par_size() >= 2) {
    Decomp *decomp = NULL;
    Field *f = NULL;
    DecompSpec spec = {.nx = 3 * par_size(), .ny = 3 * par_size(), .px = par_size(), .py = 1};
    FieldSpec fs = {.name = "eta", .nz = 1, .ghost = 4, .precision = PRECISION_DOUBLE};
    status_clear();
    s = decomp_create(&spec, &decomp);
    if (s == HCL_OK) {
      s = field_create(rt, decomp, &fs, &f);
    }
    TAP_OK(all_ranks(s == HCL_EDATA && tap_contains(status_message(), "ghost width 4")),
           "a ghost width above the owned width is refused: %s", status_message());
    field_destroy(&f);
    decomp_destroy(&decomp);
  }
  runtime_destroy(&rt);
  int result = tap_done();
  par_finalize();
  return result;
}
