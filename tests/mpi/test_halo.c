/* SPDX-License-Identifier: BSD-3-Clause */
/* test_halo.c: the halo exchange on any number of ranks (meson runs it on 1, 2, 3 and 4): uneven splits, periodic
 * and closed sides, ghost widths 1 to 4, 2D and 3D fields, float and double, several fields in one message, and
 * the begin/end split. Every ghost point must hold the value of the point it mirrors (its global index, wrapped
 * across periodic sides), corners included; ghosts beyond a closed side keep their sentinel; owned points never
 * change. Values encode the global index and are exact in float, so the comparison is exact. */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "halo.h"
#include "../support/support.h"
#include "../support/tap.h"

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
  const DecompLocal *l = hcl_decomp_local(hcl_field_decomp(f));
  int g = hcl_field_ghost(f), pitch = hcl_field_pitch(f), rows = hcl_field_rows(f);
  TRY_ALLOC(host, hcl_field_count(f));
  for (size_t i = 0; i < hcl_field_count(f); i++) {
    host[i] = SENTINEL;
  }
  for (int k = 0; k < hcl_field_nz(f); k++) {
    for (int j = 0; j < hcl_field_ny(f); j++) {
      for (int i = 0; i < hcl_field_nx(f); i++) {
        host[((size_t)k * rows + j + g) * pitch + i + g] = value(l->x0 + i, l->y0 + j, k, which);
      }
    }
  }
  TRY(hcl_field_write_ghosted(f, host));
cleanup:
  free(host);
  return status;
}

/* Counts the points of f whose value differs from what a correct exchange leaves there. */
static HclStatus count_wrong(Field *f, const Grid *grid, int which, long *wrong) {
  HclStatus status = HCL_OK;
  double *host = NULL;
  const DecompLocal *l = hcl_decomp_local(hcl_field_decomp(f));
  int g = hcl_field_ghost(f), pitch = hcl_field_pitch(f), rows = hcl_field_rows(f);
  TRY_ALLOC(host, hcl_field_count(f));
  TRY(hcl_field_read_ghosted(f, host));
  *wrong = 0;
  for (int k = 0; k < hcl_field_nz(f); k++) {
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
  int used =
      snprintf(label, sizeof label, "%dx%d %s%s ranks %d%s:", grid->nx, grid->ny, grid->periodic_x ? "periodic-x " : "",
               grid->periodic_y ? "periodic-y" : "", hcl_par_size(), split ? " begin/end" : "");
  for (int s = 0; s < nshapes; s++) {
    used += snprintf(label + used, sizeof label - (size_t)used, " [nz %d g %d %s]", shapes[s].nz, shapes[s].ghost,
                     hcl_precision_name(shapes[s].precision));
  }
  DecompSpec spec = {.nx = grid->nx, .ny = grid->ny, .periodic_x = grid->periodic_x, .periodic_y = grid->periodic_y};
  hcl_status_clear();
  HclStatus s = hcl_decomp_create(&spec, &decomp);
  for (int i = 0; i < nshapes && s == HCL_OK; i++) {
    FieldSpec fs = {.name = "f", .nz = shapes[i].nz, .ghost = shapes[i].ghost, .precision = shapes[i].precision};
    s = hcl_field_create(rt, decomp, &fs, &fields[i]);
    if (s == HCL_OK) {
      s = fill(fields[i], i);
    }
  }
  if (s == HCL_OK) {
    s = hcl_halo_create(fields, nshapes, &halo);
  }
  for (int repeat = 0; repeat < 2 && s == HCL_OK; repeat++) { /* twice: buffers are reused correctly */
    s = split ? hcl_halo_begin(halo) : hcl_halo_exchange(halo);
    if (s == HCL_OK && split) {
      s = hcl_halo_end(halo);
    }
  }
  for (int i = 0; i < nshapes && s == HCL_OK; i++) {
    long wrong = 0;
    s = count_wrong(fields[i], grid, i, &wrong);
    wrong_total += wrong;
  }
  TAP_OK(all_ranks(s == HCL_OK && wrong_total == 0), "%s every ghost and owned point right (%ld wrong here) %s", label,
         wrong_total, hcl_status_message());
  hcl_halo_destroy(&halo);
  for (int i = 0; i < nshapes; i++) {
    hcl_field_destroy(&fields[i]);
  }
  hcl_decomp_destroy(&decomp);
}

/* A 2D double field of ghost width 1 on the decomposition spec, and its halo; what was made is kept for the caller
 * to destroy, also on failure. */
static HclStatus one_field_halo(Runtime *rt, const DecompSpec *spec, Decomp **decomp, Field **f, Halo **halo) {
  FieldSpec fs = {.name = "f", .nz = 1, .ghost = 1, .precision = PRECISION_DOUBLE};
  hcl_status_clear();
  HclStatus s = hcl_decomp_create(spec, decomp);
  if (s == HCL_OK) {
    s = hcl_field_create(rt, *decomp, &fs, f);
  }
  if (s == HCL_OK) {
    s = hcl_halo_create(f, 1, halo);
  }
  return s;
}

/* hcl_halo_parts (the suite runs with HYDROCL_OVERLAP_CELLS=0): the parts cover every owned cell once; no interior cell
 * lies within reach of a side whose ghosts come from another rank or of a late side; with other ranks and room the
 * interior is not empty, and with none it is. */
static void check_parts(Runtime *rt, const Grid *grid, int reach, int late_sides) {
  Decomp *decomp = NULL;
  Field *f = NULL;
  Halo *halo = NULL;
  DecompSpec spec = {.nx = grid->nx, .ny = grid->ny, .periodic_x = grid->periodic_x, .periodic_y = grid->periodic_y};
  HclStatus s = one_field_halo(rt, &spec, &decomp, &f, &halo);
  bool right = s == HCL_OK;
  long cells = 0, interior = 0;
  if (right) {
    const DecompLocal *l = hcl_decomp_local(decomp);
    CellBox parts[HALO_PARTS_MOST];
    int n = hcl_halo_parts(halo, reach, late_sides, parts);
    int *covered = calloc((size_t)l->nx * l->ny, sizeof *covered);
    for (int k = 0; k < n; k++) {
      for (int j = parts[k].y0; j < parts[k].y0 + parts[k].ny; j++) {
        for (int i = parts[k].x0; i < parts[k].x0 + parts[k].nx; i++) {
          right = right && i >= 0 && i < l->nx && j >= 0 && j < l->ny && ++covered[j * l->nx + i] == 1;
          cells++;
        }
      }
    }
    bool remote[4] = {false};
    const int dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, -1, 1}, bit[4] = {HALO_WEST, HALO_EAST, HALO_SOUTH, HALO_NORTH};
    bool any_remote = false;
    for (int side = 0; side < 4; side++) {
      int rank = l->neighbor[dy[side] + 1][dx[side] + 1];
      remote[side] = (rank >= 0 && rank != l->rank) || (late_sides & bit[side]);
      any_remote = any_remote || (rank >= 0 && rank != l->rank);
    }
    const CellBox in = parts[0];
    interior = (long)in.nx * in.ny;
    right = right && cells == (long)l->nx * l->ny;
    right = right && (!remote[0] || in.nx == 0 || in.x0 >= reach) &&
            (!remote[1] || in.nx == 0 || in.x0 + in.nx <= l->nx - reach);
    right = right && (!remote[2] || in.ny == 0 || in.y0 >= reach) &&
            (!remote[3] || in.ny == 0 || in.y0 + in.ny <= l->ny - reach);
    bool room = l->nx > 2 * reach && l->ny > 2 * reach;
    right = right && (any_remote && room ? interior > 0 : interior == 0);
    free(covered);
  }
  TAP_OK(all_ranks(right),
         "%dx%d%s%s, %d ranks, reach %d, late sides %d: the parts cover the block once, the interior "
         "(%ld cells here) reads no late ghost %s",
         grid->nx, grid->ny, grid->periodic_x ? " periodic-x" : "", grid->periodic_y ? " periodic-y" : "",
         hcl_par_size(), reach, late_sides, interior, hcl_status_message());
  hcl_halo_destroy(&halo);
  hcl_field_destroy(&f);
  hcl_decomp_destroy(&decomp);
}

/* Regression: a check failing on the last rank only (it owns 2 columns, the others 3, ghost width 3) used to let the
 * other ranks go on into collectives and hang; every rank must now fail, the others naming the last rank. */
static void check_one_rank_failing(Runtime *rt) {
  Decomp *decomp = NULL;
  Field *f = NULL;
  int last = hcl_par_size() - 1;
  DecompSpec spec = {.nx = 3 * hcl_par_size() - 1, .ny = 9, .px = hcl_par_size(), .py = 1};
  FieldSpec fs = {.name = "eta", .nz = 1, .ghost = 3, .precision = PRECISION_DOUBLE};
  char want[64];
  snprintf(want, sizeof want, "rank %d failed: rank %d owns 2 x 9", last, last);
  hcl_status_clear();
  HclStatus s = hcl_decomp_create(&spec, &decomp);
  if (s == HCL_OK) {
    s = hcl_field_create(rt, decomp, &fs, &f);
  }
  TAP_OK(all_ranks(s == HCL_EDATA && f == NULL &&
                   tap_contains(hcl_status_message(), hcl_par_rank() == last ? "ghost width 3" : want)),
         "a ghost width above the last rank's width fails on every rank: %s", hcl_status_message());
  hcl_field_destroy(&f);
  hcl_decomp_destroy(&decomp);
}

/* Creates a runtime on dev (this device, described otherwise), a decomposition of spec and field fs on them; the
 * status of the first step that fails, or of the field. The caller destroys what was made. */
static HclStatus field_on(const DeviceInfo *dev, const DecompSpec *spec, const FieldSpec *fs, Runtime **narrow,
                          Decomp **decomp, Field **f) {
  RuntimeOptions options = {0};
  hcl_status_clear();
  HclStatus s = hcl_runtime_create(dev, &options, narrow);
  if (s == HCL_OK) {
    s = hcl_decomp_create(spec, decomp);
  }
  if (s == HCL_OK) {
    s = hcl_field_create(*narrow, *decomp, fs, f);
  }
  return s;
}

/* A double field on a device without fp64 (this device, described as lacking it) is refused with the fix. */
static void check_no_fp64(Runtime *rt) {
  Runtime *narrow = NULL;
  Decomp *decomp = NULL;
  Field *f = NULL;
  DeviceInfo dev = *hcl_runtime_device(rt);
  DecompSpec spec = {.nx = 12, .ny = 10};
  FieldSpec fs = {.name = "phi", .nz = 1, .ghost = 1, .precision = PRECISION_DOUBLE};
  dev.fp64 = false;
  HclStatus s = field_on(&dev, &spec, &fs, &narrow, &decomp, &f);
  TAP_OK(all_ranks(s == HCL_ENODEVICE && tap_contains(hcl_status_message(), dev.device_name) &&
                   tap_contains(hcl_status_message(), "--precision single")),
         "a double field on a device without fp64 is refused: %s", hcl_status_message());
  hcl_field_destroy(&f);
  fs.precision = PRECISION_SINGLE;
  hcl_status_clear();
  s = decomp ? hcl_field_create(narrow, decomp, &fs, &f) : HCL_EINTERNAL;
  TAP_OK(all_ranks(s == HCL_OK), "a single field on it is made %s", hcl_status_message());
  hcl_field_destroy(&f);
  hcl_decomp_destroy(&decomp);
  hcl_runtime_destroy(&narrow);
}

/* A field larger than the device's largest buffer (this device, described as allowing 4096 bytes) is refused with
 * the bytes requested, the bytes allowed and the fix. */
static void check_max_allocation(Runtime *rt) {
  Runtime *narrow = NULL;
  Decomp *decomp = NULL;
  Field *f = NULL;
  DeviceInfo dev = *hcl_runtime_device(rt);
  DecompSpec spec = {.nx = 100, .ny = 100}; /* at least 50 x 25 cells, 5 kB in float, on each of up to 4 ranks */
  FieldSpec fs = {.name = "phi", .nz = 1, .ghost = 1, .precision = PRECISION_SINGLE};
  dev.max_alloc_bytes = 4096;
  HclStatus s = field_on(&dev, &spec, &fs, &narrow, &decomp, &f);
  TAP_OK(all_ranks(s == HCL_ENODEVICE && tap_contains(hcl_status_message(), "allows 4096 in one buffer") &&
                   tap_contains(hcl_status_message(), "use more ranks")),
         "a field beyond the largest buffer is refused: %s", hcl_status_message());
  hcl_field_destroy(&f);
  hcl_decomp_destroy(&decomp);
  hcl_runtime_destroy(&narrow);
}

/* Regression: px (or py) not dividing the ranks was an MPI error; it is bad input naming px, py and the ranks. */
static void check_process_grid(void) {
  Decomp *decomp = NULL;
  int size = hcl_par_size();
  DecompSpec spec = {.nx = 40, .ny = 40, .px = size + 1};
  char want[96];
  snprintf(want, sizeof want, "px = %d, py = 0 cannot split %d ranks", size + 1, size);
  hcl_status_clear();
  HclStatus s = hcl_decomp_create(&spec, &decomp);
  TAP_OK(all_ranks(s == HCL_EDATA && tap_contains(hcl_status_message(), want)),
         "a px that does not divide the ranks is bad input: %s", hcl_status_message());
  hcl_decomp_destroy(&decomp);
  /* Automatic: the split with the shortest halo for the grid's shape. A 400 x 4 strip goes into columns of ranks
   * (MPI_Dims_create's 1 x 4 would leave ranks without a row at 4 ranks, and a 100-point halo at 2); a square goes
   * into rows (equal halos: more ranks in y) until 2 x 2 is shorter. */
  const int square_px[5] = {0, 1, 1, 1, 2}, square_py[5] = {0, 1, 2, 3, 2};
  DecompSpec grids[2] = {{.nx = 400, .ny = 4}, {.nx = 40, .ny = 40}};
  int px[2] = {0, 0}, py[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    if (hcl_decomp_create(&grids[k], &decomp) == HCL_OK) {
      px[k] = hcl_decomp_spec(decomp)->px;
      py[k] = hcl_decomp_spec(decomp)->py;
    }
    hcl_decomp_destroy(&decomp);
  }
  TAP_OK(all_ranks(size <= 4 && px[0] == size && py[0] == 1 && px[1] == square_px[size] && py[1] == square_py[size]),
         "automatic process grids: %d x %d on the 400 x 4 strip, %d x %d on the 40 x 40 square", px[0], py[0], px[1],
         py[1]);
}

#ifdef HYDROCL_HAVE_MPI
/* Regression (two ranks): a halo destroyed after hcl_halo_begin left its receive posted into freed memory, where a later
 * message landed. Rank 1 begins and destroys; rank 0 then exchanges on the same halo (its send is posted in
 * hcl_halo_end). The message must stay unreceived on rank 1, for it to find with MPI_Iprobe, instead of vanishing into a
 * stale request; rank 1 then answers it with a message of the same size and tag, which completes rank 0's
 * exchange. */
static void check_destroy_in_flight(Runtime *rt) {
  Decomp *decomp = NULL;
  Field *f = NULL;
  Halo *halo = NULL;
  int found = 0;
  DecompSpec spec = {.nx = 8, .ny = 4, .px = 2, .py = 1};
  HclStatus s = one_field_halo(rt, &spec, &decomp, &f, &halo);
  if (all_ranks(s == HCL_OK) && hcl_par_rank() == 1) {
    s = hcl_halo_begin(halo);
    hcl_halo_destroy(&halo);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (s == HCL_OK && hcl_par_rank() == 0) {
    s = hcl_halo_exchange(halo); /* its send does not depend on rank 1's, which may have been cancelled */
    hcl_halo_destroy(&halo);
  }
  for (int tries = 0; s == HCL_OK && hcl_par_rank() == 1 && !found && tries < 5000; tries++) {
    MPI_Status probe;
    MPI_Iprobe(0, MPI_ANY_TAG, hcl_par_comm_mpi(hcl_decomp_comm(decomp)), &found, &probe);
    if (found) {
      int bytes = 0;
      MPI_Get_count(&probe, MPI_BYTE, &bytes);
      char *drain = calloc((size_t)bytes + 1, 1);
      MPI_Recv(drain, bytes, MPI_BYTE, 0, probe.MPI_TAG, hcl_par_comm_mpi(hcl_decomp_comm(decomp)), MPI_STATUS_IGNORE);
      MPI_Send(drain, bytes, MPI_BYTE, 0, probe.MPI_TAG, hcl_par_comm_mpi(hcl_decomp_comm(decomp)));
      free(drain);
    } else {
      nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
  }
  TAP_OK(all_ranks(s == HCL_OK && (hcl_par_rank() != 1 || found)),
         "a halo destroyed in flight leaves no receive posted %s", hcl_status_message());
  hcl_halo_destroy(&halo);
  hcl_field_destroy(&f);
  hcl_decomp_destroy(&decomp);
}
#endif

int main(int argc, char **argv) {
  Runtime *rt = NULL;
  HclStatus s = test_start_runtime(&argc, &argv, true, &rt);
  if (!TAP_OK(all_ranks(s == HCL_OK), "runtime on every rank %s", hcl_status_message())) {
    hcl_par_finalize();
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
  for (int reach = 1; reach <= 3; reach += 2) {
    check_parts(rt, &closed, reach, 0);
    check_parts(rt, &both, reach, 0);
    check_parts(rt, &closed, reach, HALO_WEST | HALO_NORTH);
  }

  /* Too many ranks for the ghost width: refused with the numbers, not a wrong exchange. */
  if (hcl_par_size() >= 2) {
    Decomp *decomp = NULL;
    Field *f = NULL;
    DecompSpec spec = {.nx = 3 * hcl_par_size(), .ny = 3 * hcl_par_size(), .px = hcl_par_size(), .py = 1};
    FieldSpec fs = {.name = "eta", .nz = 1, .ghost = 4, .precision = PRECISION_DOUBLE};
    hcl_status_clear();
    s = hcl_decomp_create(&spec, &decomp);
    if (s == HCL_OK) {
      s = hcl_field_create(rt, decomp, &fs, &f);
    }
    TAP_OK(all_ranks(s == HCL_EDATA && tap_contains(hcl_status_message(), "ghost width 4")),
           "a ghost width above the owned width is refused: %s", hcl_status_message());
    hcl_field_destroy(&f);
    hcl_decomp_destroy(&decomp);
    check_one_rank_failing(rt);
  }
  check_no_fp64(rt);
  check_max_allocation(rt);
  check_process_grid();
#ifdef HYDROCL_HAVE_MPI
  if (hcl_par_size() == 2) {
    check_destroy_in_flight(rt);
  }
#endif
  hcl_runtime_destroy(&rt);
  int result = tap_done();
  hcl_par_finalize();
  return result;
}
