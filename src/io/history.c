/* SPDX-License-Identifier: BSD-3-Clause */
/* history.c: gauge time series in CF timeSeries form (see history.h). */
#include "history.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clerror.h"
#include "csv.h"
#include "inputs.h"
#include "kernel.h"
#include "ncutil.h"
#include "par.h"
#include "program.h"

/* One of the four grid points around a gauge that this rank owns, with its bilinear weight. slot = 4 gauge + which
 * corner (0..3): every slot is owned by one rank, so the sum over ranks of the slots is exact and rank 0 adds a
 * gauge's four corners in one order, whatever the decomposition (bitwise the same gauges on any number of ranks). */
typedef struct {
  int slot;
  double weight;
  int i, j; /* owned (local) indices */
} Corner;

struct HistoryFile {
  Runtime *rt;
  const Decomp *decomp;
  char *path;
  int ncid, time_var, nvars, ngauges, frames;
  bool created; /* rank 0 made the file (and removes it if the set-up fails) */
#ifdef HYDROCL_HAVE_NETCDF
  NcIdentity identity; /* rank 0: the file opened */
#endif
  int *vars;
  int *types; /* each variable's storage type (nc_output_type) */
  bool double_precision;
  Corner *corners;
  int ncorners;
  cl_program program[2]; /* by Precision */
  cl_kernel gather[2];
  cl_mem index, values;
};

/* A gauge file's header, "name,x,y" or with units, "name,x [km],y [km]": each coordinate's conversion to metres. */
static HclStatus gauge_header(const Csv *csv, double scale[2], double offset[2]) {
  HclStatus status = HCL_OK;
  static const char *const names[3] = {"name", "x", "y"};
  char name[64], unit[64];
  REQUIRE(csv->ncolumns == 3, HCL_EDATA,
          "%s:%d: the header has %d columns; a gauge file's are 'name,x,y' (x and y in m, or with a unit, 'x [km]')",
          csv->path, csv->line.number, csv->ncolumns);
  for (int k = 1; k < 3; k++) {
    TRY(hcl_csv_header_unit(csv, k, name, sizeof name, unit, sizeof unit));
    REQUIRE(strcmp(name, names[k]) == 0, HCL_EDATA,
            "%s:%d: column %d of the header is '%s'; a gauge file's are "
            "'name,x,y'",
            csv->path, csv->line.number, k + 1, name);
    if (unit[0]) {
      TRY(hcl_input_unit_scale(csv->path, csv->line.number, k + 1, unit, "m", &scale[k - 1], &offset[k - 1]));
    }
  }
cleanup:
  return status;
}

/* One row into g: its name (without the blanks around it: "a " and "a" are one gauge) and x, y converted to m. */
static HclStatus gauge_row(const Csv *csv, const double scale[2], const double offset[2], Gauge *g) {
  HclStatus status = HCL_OK;
  memset(g, 0, sizeof *g);
  REQUIRE(csv->ncells == 3 && csv->cells[0][0], HCL_EDATA,
          "%s:%d: expected 'name,x,y': a name, then x and y in %s (got %d columns%s)", csv->path, csv->line.number,
          scale[0] == 1 && offset[0] == 0 && scale[1] == 1 && offset[1] == 0 ? "metres" : "the header's units",
          csv->ncells, csv->ncells > 0 && !csv->cells[0][0] ? ", the name empty" : "");
  REQUIRE(strlen(csv->cells[0]) < GAUGE_NAME_MAX, HCL_EDATA,
          "%s:%d: gauge name '%.20s...' is longer than %d characters", csv->path, csv->line.number, csv->cells[0],
          GAUGE_NAME_MAX - 1);
  snprintf(g->name, sizeof g->name, "%s", csv->cells[0]);
  TRY(hcl_csv_number(csv, 1, &g->x));
  TRY(hcl_csv_number(csv, 2, &g->y));
  g->x = g->x * scale[0] + offset[0];
  g->y = g->y * scale[1] + offset[1];
  hcl_csv_origin(csv, g->origin, sizeof g->origin);
cleanup:
  return status;
}

HclStatus hcl_gauges_read_csv(const char *path, Gauge **gauges, int *count) {
  HclStatus status = HCL_OK;
  Csv csv = {0};
  Gauge *list = NULL;
  int n = 0, capacity = 0;
  bool more = false;
  double scale[2] = {1, 1}, offset[2] = {0, 0};
  TRY(hcl_csv_open(path, &csv));
  for (bool first = true;; first = false) {
    TRY(hcl_csv_next(&csv, &more));
    if (!more) {
      break;
    }
    if (first && strcmp(csv.cells[0], "name") == 0) { /* the first row may be the header */
      TRY(hcl_csv_take_header(&csv));
      TRY(gauge_header(&csv, scale, offset));
      continue;
    }
    if (n == capacity) {
      capacity = capacity ? 2 * capacity : 16;
      Gauge *bigger = realloc(list, (size_t)capacity * sizeof *list);
      REQUIRE(bigger != NULL, HCL_ENOMEM, "cannot hold %d gauges", capacity);
      list = bigger;
    }
    TRY(gauge_row(&csv, scale, offset, &list[n]));
    n++;
  }
  REQUIRE(n > 0, HCL_EDATA, "%s: no gauges (expected lines 'name,x,y')", path);
  *gauges = list;
  *count = n;
  list = NULL;
cleanup:
  hcl_csv_close(&csv);
  free(list);
  return status;
}

#ifdef HYDROCL_HAVE_NETCDF
/* Bilinear corners of gauge g along one axis: the lower index and the weight of the upper one. */
static HclStatus locate(const Gauge *g, double position, double origin, double spacing, int n, const char *axis,
                        int *lower, double *upper_weight) {
  HclStatus status = HCL_OK;
  double f = (position - origin) / spacing;
  double slack = 1e-9 * (n > 1 ? n - 1 : 1); /* a gauge on the last point, up to rounding, is inside */
  REQUIRE(f >= -slack && f <= (n - 1) + slack, HCL_EDATA,
          "%s: gauge '%s' at %s = %g m lies outside the grid, whose points span %s = %g to %g m", g->origin, g->name,
          axis, position, axis, origin, origin + (n - 1) * spacing);
  f = f < 0 ? 0 : f > n - 1 ? n - 1 : f;
  *lower = n > 1 ? (int)floor(f) : 0;
  if (*lower > n - 2 && n > 1) {
    *lower = n - 2;
  }
  *upper_weight = n > 1 ? f - *lower : 0.0;
cleanup:
  return status;
}

/* The lower corner (i0, j0) of the cell around gauge g and the weights (wx, wy) of its upper neighbours: on a
 * Cartesian grid from x0, dx, y0, dy; on a curvilinear one from the map's way back (hcl_mapping_locate), where a
 * periodic direction's last cell wraps to its first point. */
static HclStatus locate_gauge(const OutputSpec *spec, const DecompSpec *g, const Gauge *gauge, int *i0, int *j0,
                              double *wx, double *wy) {
  HclStatus status = HCL_OK;
  if (!spec->frame.map) {
    TRY(locate(gauge, gauge->x, spec->frame.x0, spec->frame.dx, g->nx, "x", i0, wx));
    TRY(locate(gauge, gauge->y, spec->frame.y0, spec->frame.dy, g->ny, "y", j0, wy));
    goto cleanup;
  }
  double fi, fj;
  REQUIRE(hcl_mapping_locate(spec->frame.map, g->nx, g->ny, g->periodic_x, g->periodic_y, gauge->x, gauge->y, &fi, &fj),
          HCL_EDATA, "%s: gauge '%s' at (%g, %g) m lies outside the %s", gauge->origin, gauge->name, gauge->x, gauge->y,
          spec->frame.map->name);
  *i0 = (int)floor(fi);
  *j0 = (int)floor(fj);
  *i0 = *i0 > g->nx - 2 && !g->periodic_x ? g->nx - 2 : *i0;
  *j0 = *j0 > g->ny - 2 && !g->periodic_y ? g->ny - 2 : *j0;
  *wx = fi - *i0;
  *wy = fj - *j0;
cleanup:
  return status;
}

static HclStatus find_corners(HistoryFile *h, const OutputSpec *spec, const Gauge *gauges) {
  HclStatus status = HCL_OK;
  const DecompSpec *g = hcl_decomp_spec(h->decomp);
  const DecompLocal *l = hcl_decomp_local(h->decomp);
  TRY_ALLOC(h->corners, 4 * (size_t)h->ngauges);
  for (int k = 0; k < h->ngauges; k++) {
    int i0 = 0, j0 = 0;
    double wx = 0, wy = 0;
    TRY(locate_gauge(spec, g, &gauges[k], &i0, &j0, &wx, &wy));
    for (int c = 0; c < 4; c++) {
      int gi = (i0 + (c & 1)) % g->nx, gj = (j0 + (c >> 1)) % g->ny; /* a periodic direction wraps */
      double w = ((c & 1) ? wx : 1 - wx) * ((c >> 1) ? wy : 1 - wy);
      bool owned = gi >= l->x0 && gi < l->x0 + l->nx && gj >= l->y0 && gj < l->y0 + l->ny;
      if (w != 0.0 && owned) {
        h->corners[h->ncorners++] = (Corner){4 * k + c, w, gi - l->x0, gj - l->y0};
      }
    }
  }
cleanup:
  return status;
}

/* Rank 0: the file, its station variables and the data variables. */
static HclStatus define_file(HistoryFile *h, const OutputSpec *spec, const Gauge *gauges, const OutputVariable *vars) {
  HclStatus status = HCL_OK;
  int dim_station, dim_strlen, dim_time, var_name, var_x, var_y;
  char *names = NULL;
  double *xs = NULL, *ys = NULL;
  TRY(nc_output_create(spec, &h->ncid));
  h->created = true;
  TRY_NC(nc_def_dim(h->ncid, "station", (size_t)h->ngauges, &dim_station), h->path);
  TRY_NC(nc_def_dim(h->ncid, "name_strlen", GAUGE_NAME_MAX, &dim_strlen), h->path);
  TRY_NC(nc_def_dim(h->ncid, "time", NC_UNLIMITED, &dim_time), h->path);
  int name_dims[2] = {dim_station, dim_strlen};
  TRY_NC(nc_def_var(h->ncid, "station_name", NC_CHAR, 2, name_dims, &var_name), h->path);
  TRY_NC(NC_TEXT_ATT(h->ncid, var_name, "cf_role", "timeseries_id"), h->path);
  TRY_NC(NC_TEXT_ATT(h->ncid, var_name, "long_name", "gauge name"), h->path);
  TRY_NC(NC_TEXT_ATT(h->ncid, var_name, "_Encoding", "utf-8"), h->path); /* xarray decodes the names to text */
  TRY_NC(nc_def_var(h->ncid, "x", NC_DOUBLE, 1, &dim_station, &var_x), h->path);
  TRY_NC(NC_TEXT_ATT(h->ncid, var_x, "units", "m"), h->path);
  TRY_NC(NC_TEXT_ATT(h->ncid, var_x, "standard_name", "projection_x_coordinate"), h->path);
  TRY_NC(nc_def_var(h->ncid, "y", NC_DOUBLE, 1, &dim_station, &var_y), h->path);
  TRY_NC(NC_TEXT_ATT(h->ncid, var_y, "units", "m"), h->path);
  TRY_NC(NC_TEXT_ATT(h->ncid, var_y, "standard_name", "projection_y_coordinate"), h->path);
  TRY(nc_output_time(h->ncid, spec, dim_time, &h->time_var));
  if (spec->frame.crs) {
    TRY(nc_output_crs(h->ncid, h->path, spec->frame.crs));
  }
  /* Time first, the record dimension, so that NCO's ncrcat joins files along it (CF 1.8 H.2.1 allows either order).
   * Chunks of every station over many samples (up to 16384 values, 64 KiB in float32): one sample per chunk, the
   * library's default for an unlimited dimension, makes a long series thousands of tiny chunks, slow to read. */
  int dims[2] = {dim_time, dim_station};
  size_t samples_per_chunk = h->ngauges >= 16384 ? 1 : 16384 / (size_t)h->ngauges;
  size_t chunks[2] = {samples_per_chunk > 1024 ? 1024 : samples_per_chunk, (size_t)h->ngauges};
  for (int i = 0; i < h->nvars; i++) {
    TRY(nc_output_variable(h->ncid, spec, &vars[i], 2, dims, &h->vars[i]));
    TRY_NC(nc_def_var_chunking(h->ncid, h->vars[i], NC_CHUNKED, chunks), h->path);
    TRY_NC(nc_def_var_deflate(h->ncid, h->vars[i], 1, 1, 1), h->path);
    TRY_NC(NC_TEXT_ATT(h->ncid, h->vars[i], "coordinates", "x y station_name"), h->path);
  }
  TRY(nc_output_globals(h->ncid, spec, "timeSeries"));
  TRY_NC(nc_enddef(h->ncid), h->path);
  TRY_ALLOC(names, (size_t)h->ngauges * GAUGE_NAME_MAX);
  TRY_ALLOC(xs, h->ngauges);
  TRY_ALLOC(ys, h->ngauges);
  for (int k = 0; k < h->ngauges; k++) {
    strncpy(names + (size_t)k * GAUGE_NAME_MAX, gauges[k].name, GAUGE_NAME_MAX);
    xs[k] = gauges[k].x;
    ys[k] = gauges[k].y;
  }
  TRY_NC(nc_put_var_text(h->ncid, var_name, names), h->path);
  TRY_NC(nc_put_var_double(h->ncid, var_x, xs), h->path);
  TRY_NC(nc_put_var_double(h->ncid, var_y, ys), h->path);
  TRY_NC(nc_sync(h->ncid), h->path);
cleanup:
  free(names);
  free(xs);
  free(ys);
  return status;
}

/* Every rank's gauge corners and device buffers. The gauge checks fail alike on every rank, the allocations on some
 * ranks only. */
/* Rank 0's part of hcl_history_create for a continued run: the existing file when there is one, else a new one. */
static HclStatus open_file(HistoryFile *h, const OutputSpec *spec, const Gauge *gauges, const OutputVariable *vars) {
  static const char *const dims[] = {"station"};
  size_t lengths[] = {(size_t)h->ngauges};
  if (!spec->resume || access(spec->path, F_OK) != 0) {
    return define_file(h, spec, gauges, vars);
  }
  return nc_output_reopen(spec, dims, lengths, 1, vars, h->nvars, &h->ncid, &h->time_var, h->vars, &h->frames);
}

static HclStatus create_local(Runtime *rt, const Decomp *decomp, const OutputSpec *spec, const Gauge *gauges,
                              int ngauges, const OutputVariable *vars, int nvars, HistoryFile **out) {
  HclStatus status = HCL_OK;
  HistoryFile *h = NULL;
  TRY_ALLOC(h, 1);
  h->rt = rt;
  h->decomp = decomp;
  h->ncid = -1;
  h->ngauges = ngauges;
  h->nvars = nvars;
  h->path = strdup(spec->path);
  REQUIRE(h->path != NULL, HCL_ENOMEM, "cannot copy the history file name");
  TRY_ALLOC(h->vars, nvars);
  TRY_ALLOC(h->types, nvars);
  h->double_precision = spec->double_precision;
  for (int i = 0; i < nvars; i++) {
    h->types[i] = nc_output_type(&vars[i], spec->double_precision);
  }
  TRY(find_corners(h, spec, gauges));
  if (h->ncorners > 0) {
    TRY(hcl_runtime_buffer(rt, (size_t)h->ncorners * sizeof(cl_ulong), "gauge indices", &h->index));
    TRY(hcl_runtime_buffer(rt, (size_t)h->ncorners * sizeof(double), "gauge values", &h->values));
  }
  *out = h;
  h = NULL;
cleanup:
  hcl_history_close(&h);
  return status;
}
#endif

HclStatus hcl_history_create(Runtime *rt, const Decomp *decomp, const OutputSpec *spec, const Gauge *gauges,
                             int ngauges, const OutputVariable *vars, int nvars, HistoryFile **out) {
  HclStatus status = HCL_OK;
  HistoryFile *h = NULL;
  *out = NULL;
#ifndef HYDROCL_HAVE_NETCDF
  (void)rt;
  (void)decomp;
  (void)gauges;
  (void)ngauges;
  (void)vars;
  (void)nvars;
  FAIL(HCL_EUSAGE,
       "this hydrocl was built without netCDF, so it cannot write '%s'; install libnetcdf-dev and "
       "rebuild (meson setup --reconfigure -Dnetcdf=enabled build)",
       spec->path);
#else
  HclStatus local = create_local(rt, decomp, spec, gauges, ngauges, vars, nvars, &h);
  if (local == HCL_OK && hcl_par_rank() == 0) {
    local = open_file(h, spec, gauges, vars);
  }
  if (local == HCL_OK && hcl_par_rank() == 0) {
    local = nc_take_identity(h->path, &h->identity);
  }
  TRY(hcl_par_agree(local));
  TRY(hcl_par_broadcast_int(&h->frames));
  *out = h;
  h = NULL;
#endif
cleanup:
  if (h && h->created) {
    unlink(h->path); /* rank 0 created the file, closed below: a partial one would block the next run */
  }
  hcl_history_close(&h);
  return status;
}

/* Builds the gather kernel of precision p on first use. Program and kernel are cached together or not at all, so a
 * failed build is tried again next time instead of leaving a program without its kernel. */
static HclStatus build_gather(HistoryFile *h, Precision p) {
  HclStatus status = HCL_OK;
  cl_program program = NULL;
  cl_kernel kernel = NULL;
  KernelConfig config = {.precision = p, .wg_x = 1, .wg_y = 1};
  if (h->program[p]) {
    goto cleanup;
  }
  TRY(hcl_program_build(h->rt, "sample", &config, &program));
  TRY(hcl_program_kernel(program, "gather_points", &kernel));
  h->program[p] = program;
  h->gather[p] = kernel;
  program = NULL;
  kernel = NULL;
cleanup:
  if (kernel) {
    clReleaseKernel(kernel);
  }
  if (program) {
    clReleaseProgram(program);
  }
  return status;
}

/* This rank's weighted corner values of field f, into slots[corner slot]. */
static HclStatus sample_field(HistoryFile *h, Field *f, double *slots) {
  HclStatus status = HCL_OK;
  cl_ulong *index = NULL;
  void *values = NULL;
  Precision p = hcl_field_precision(f);
  cl_uint n = (cl_uint)h->ncorners;
  if (n == 0) {
    goto cleanup;
  }
  TRY(build_gather(h, p));
  TRY_ALLOC(index, n);
  for (cl_uint c = 0; c < n; c++) {
    int g = hcl_field_ghost(f);
    index[c] = (cl_ulong)(h->corners[c].j + g) * (cl_ulong)hcl_field_pitch(f) + (cl_ulong)(h->corners[c].i + g);
  }
  cl_command_queue queue = hcl_runtime_queue(h->rt);
  TRY_CL(clEnqueueWriteBuffer(queue, h->index, CL_TRUE, 0, n * sizeof *index, index, 0, NULL, NULL));
  KernelArgs a = hcl_kernel_args(h->gather[p]);
  hcl_arg_mem(&a, hcl_field_buffer(f));
  hcl_arg_mem(&a, h->index);
  hcl_arg_uint(&a, n);
  hcl_arg_mem(&a, h->values);
  TRY(hcl_kernel_launch(h->rt, &a, hcl_kernel_box(1, n, 1, 1), (double)n * (8.0 + 2.0 * hcl_precision_bytes(p))));
  TRY_ALLOC(values, n * sizeof(double));
  TRY(hcl_runtime_read(h->rt, h->values, 0, n * hcl_precision_bytes(p), values));
  for (cl_uint c = 0; c < n; c++) {
    double v = p == PRECISION_DOUBLE ? ((double *)values)[c] : (double)((float *)values)[c];
    slots[h->corners[c].slot] = h->corners[c].weight * v;
  }
cleanup:
  free(index);
  free(values);
  return status;
}

/* This rank's corner slots of every gauge of each of fields[0..nfields), slots[field][4 gauge + corner], and room
 * for the slots of all ranks. */
static HclStatus sample_all(HistoryFile *h, Field *const *fields, int nfields, double **slots, double **all_slots) {
  HclStatus status = HCL_OK;
  size_t per_variable = 4 * (size_t)h->ngauges;
  TRY_ALLOC(*slots, (size_t)nfields * per_variable);
  TRY_ALLOC(*all_slots, (size_t)nfields * per_variable);
  for (int v = 0; v < nfields; v++) {
    ASSERT(hcl_field_nz(fields[v]) == 1);
    TRY(sample_field(h, fields[v], *slots + (size_t)v * per_variable));
  }
cleanup:
  return status;
}

#ifdef HYDROCL_HAVE_NETCDF
/* Rank 0: one frame of every variable, then the time (nc_finish_frame). */
static HclStatus write_frame(HistoryFile *h, double time, double *totals) {
  HclStatus status = HCL_OK;
  size_t start[2] = {(size_t)h->frames, 0}, count[2] = {1, (size_t)h->ngauges}, index = (size_t)h->frames;
  float *scratch = NULL;
  TRY(nc_check_identity(h->path, &h->identity));
  TRY_ALLOC(scratch, (size_t)h->ngauges);
  for (int v = 0; v < h->nvars; v++) {
    TRY(nc_output_put(h->ncid, h->vars[v], h->path, h->types[v], start, count, totals + (size_t)v * h->ngauges,
                      (size_t)h->ngauges, scratch));
  }
  TRY(nc_finish_frame(h->ncid, h->path, h->time_var, index, time, NULL));
cleanup:
  free(scratch);
  return status;
}
#endif

/* Each gauge's value of each of fields[0..nfields) on every rank, interpolated from its four corners (added in
 * corner order, so on any number of ranks): (*totals)[field][gauge], in a buffer of 4 nfields ngauges the caller
 * frees. Collective. */
static HclStatus gauge_totals(HistoryFile *h, Field *const *fields, int nfields, double **totals) {
  HclStatus status = HCL_OK;
  double *all_slots = NULL;
  size_t values = (size_t)nfields * h->ngauges;
  /* Building the kernel, which only ranks holding a gauge point do, can fail there alone: agree before the sum. */
  TRY(hcl_par_agree(sample_all(h, fields, nfields, totals, &all_slots)));
  TRY(hcl_par_reduce_sum_doubles(hcl_decomp_comm(h->decomp), *totals, all_slots, (int)(4 * values)));
  /* Every slot has one owner: the others add zeros, exactly. The totals reuse the front of the slots. */
  for (size_t k = 0; k < values; k++) {
    const double *corner = all_slots + 4 * k;
    (*totals)[k] = ((corner[0] + corner[1]) + corner[2]) + corner[3];
  }
cleanup:
  free(all_slots);
  return status;
}

HclStatus hcl_history_write(HistoryFile *h, double time, Field *const *fields) {
  HclStatus status = HCL_OK;
  HclStatus local = HCL_OK;
  double *totals = NULL;
  TRY(gauge_totals(h, fields, h->nvars, &totals));
#ifdef HYDROCL_HAVE_NETCDF
  if (hcl_par_rank() == 0) {
    local = write_frame(h, time, totals);
  }
#else
  (void)time;
#endif
  TRY(hcl_par_agree(local));
  h->frames++;
cleanup:
  free(totals);
  return status;
}

#ifdef HYDROCL_HAVE_NETCDF
/* Rank 0: var on station, holding values (one a gauge). */
static HclStatus put_static(HistoryFile *h, const OutputVariable *var, double *values) {
  HclStatus status = HCL_OK;
  static const char *const dims[] = {"station"};
  float *scratch = NULL;
  TRY_ALLOC(scratch, (size_t)h->ngauges);
  OutputSpec spec = {.path = h->path, .double_precision = h->double_precision};
  TRY(nc_output_static(h->ncid, &spec, var, dims, 1, "x y station_name", NULL, values, scratch));
cleanup:
  free(scratch);
  return status;
}
#endif

HclStatus hcl_history_write_static(HistoryFile *h, const OutputVariable *var, Field *f, double scale) {
  HclStatus status = HCL_OK;
  HclStatus local = HCL_OK;
  double *totals = NULL;
  TRY(gauge_totals(h, &f, 1, &totals));
  for (int k = 0; k < h->ngauges; k++) {
    totals[k] *= scale;
  }
#ifdef HYDROCL_HAVE_NETCDF
  if (hcl_par_rank() == 0) {
    local = put_static(h, var, totals);
  }
#else
  (void)var;
#endif
  TRY(hcl_par_agree(local));
cleanup:
  free(totals);
  return status;
}

HclStatus hcl_history_sync(HistoryFile *h) {
  HclStatus local = HCL_OK;
#ifdef HYDROCL_HAVE_NETCDF
  if (hcl_par_rank() == 0) {
    errno = 0;
    int err = nc_sync(h->ncid);
    if (err != NC_NOERR) {
      local =
          hcl_status_set(HCL_EIO, __FILE__, __LINE__, "cannot flush '%s': %s", h->path, nc_reason(err, errno, h->path));
    }
  }
#else
  (void)h;
#endif
  return hcl_par_agree(local);
}

void hcl_history_close(HistoryFile **h) {
  if (!h || !*h) {
    return;
  }
  HistoryFile *x = *h;
#ifdef HYDROCL_HAVE_NETCDF
  if (x->ncid >= 0) {
    nc_close(x->ncid);
  }
#endif
  for (int p = 0; p < 2; p++) {
    if (x->gather[p]) {
      clReleaseKernel(x->gather[p]);
    }
    if (x->program[p]) {
      clReleaseProgram(x->program[p]);
    }
  }
  if (x->index) {
    clReleaseMemObject(x->index);
  }
  if (x->values) {
    clReleaseMemObject(x->values);
  }
  free(x->corners);
  free(x->vars);
  free(x->types);
  free(x->path);
  free(x);
  *h = NULL;
}

#ifdef HYDROCL_HAVE_NETCDF
/* The variable to read: the one asked for, else eta, else zeta. */
static HclStatus find_station_variable(int ncid, const char *path, const char *variable, int *var, char *name,
                                       size_t size) {
  HclStatus status = HCL_OK;
  static const char *const defaults[] = {"eta", "zeta"};
  for (int i = 0; !variable && i < 2; i++) {
    if (nc_inq_varid(ncid, defaults[i], var) == NC_NOERR) {
      variable = defaults[i];
    }
  }
  REQUIRE(variable != NULL, HCL_EDATA, "'%s' has neither eta nor zeta; name the variable", path);
  REQUIRE(nc_inq_varid(ncid, variable, var) == NC_NOERR, HCL_EDATA, "'%s' has no variable '%s'", path, variable);
  snprintf(name, size, "%s", variable);
cleanup:
  return status;
}

/* The record's values, station by station, from a variable on (time, station) or (station, time). */
static HclStatus read_station_values(int ncid, const char *path, int var, const char *name, int dim_time,
                                     int dim_station, StationRecord *r) {
  HclStatus status = HCL_OK;
  int ndims = 0, dims[NC_MAX_VAR_DIMS];
  double *raw = NULL, fill = NC_FILL_DOUBLE;
  nc_type type = NC_DOUBLE;
  TRY_NC(nc_inq_varndims(ncid, var, &ndims), path);
  TRY_NC(nc_inq_vardimid(ncid, var, dims), path);
  bool time_first = ndims == 2 && dims[0] == dim_time && dims[1] == dim_station;
  REQUIRE(time_first || (ndims == 2 && dims[0] == dim_station && dims[1] == dim_time), HCL_EDATA,
          "'%s': %s is not a series at the stations (its dimensions are not time and station)", path, name);
  size_t n = (size_t)r->nstations * r->ntimes;
  TRY_ALLOC(raw, n + 1);
  TRY_ALLOC(r->values, n + 1);
  if (n > 0) {
    TRY_NC(nc_get_var_double(ncid, var, raw), path);
  }
  /* The fill as a double, whatever the variable's type (nc_inq_var_fill writes it in that type: a float's 4 bytes
   * in a double made every dry sample of a float32 file a value of 9.97e36 m); else the type's default fill. */
  TRY_NC(nc_inq_vartype(ncid, var, &type), path);
  if (nc_get_att_double(ncid, var, "_FillValue", &fill) != NC_NOERR) {
    fill = type == NC_FLOAT ? NC_FILL_FLOAT : NC_FILL_DOUBLE;
  }
  for (int s = 0; s < r->nstations; s++) {
    for (int k = 0; k < r->ntimes; k++) {
      double v = time_first ? raw[(size_t)k * r->nstations + s] : raw[(size_t)s * r->ntimes + k];
      r->values[(size_t)s * r->ntimes + k] = v == fill || !isfinite(v) ? NAN : v;
    }
  }
cleanup:
  free(raw);
  return status;
}

static HclStatus read_text_attribute(int ncid, int var, const char *name, char *out, size_t size) {
  size_t length = 0;
  out[0] = '\0';
  if (nc_inq_attlen(ncid, var, name, &length) == NC_NOERR && length < size) {
    nc_get_att_text(ncid, var, name, out);
    out[length] = '\0';
  }
  return HCL_OK;
}

static HclStatus read_record(int ncid, const char *path, const char *variable, StationRecord *r) {
  HclStatus status = HCL_OK;
  int dim_time, dim_station, var, var_time, var_name, var_x, var_y;
  size_t nstations = 0, ntimes = 0;
  char name[NC_MAX_NAME + 1];
  REQUIRE(nc_inq_dimid(ncid, "station", &dim_station) == NC_NOERR && nc_inq_dimid(ncid, "time", &dim_time) == NC_NOERR,
          HCL_EDATA, "'%s' has no stations over time: a history.nc or kinematics.nc of hydrocl is", path);
  TRY_NC(nc_inq_dimlen(ncid, dim_station, &nstations), path);
  TRY_NC(nc_inq_dimlen(ncid, dim_time, &ntimes), path);
  r->nstations = (int)nstations;
  r->ntimes = (int)ntimes;
  TRY(find_station_variable(ncid, path, variable, &var, name, sizeof name));
  snprintf(r->variable, sizeof r->variable, "%s", name);
  TRY_ALLOC(r->time, ntimes + 1);
  TRY_ALLOC(r->names, nstations + 1);
  TRY_ALLOC(r->x, nstations + 1);
  TRY_ALLOC(r->y, nstations + 1);
  TRY_NC(nc_inq_varid(ncid, "time", &var_time), path);
  TRY_NC(nc_inq_varid(ncid, "station_name", &var_name), path);
  TRY_NC(nc_inq_varid(ncid, "x", &var_x), path);
  TRY_NC(nc_inq_varid(ncid, "y", &var_y), path);
  if (ntimes > 0) {
    TRY_NC(nc_get_var_double(ncid, var_time, r->time), path);
  }
  if (nstations > 0) {
    memset(r->names, 0, nstations * sizeof *r->names);
    TRY_NC(nc_get_var_text(ncid, var_name, &r->names[0][0]), path);
    TRY_NC(nc_get_var_double(ncid, var_x, r->x), path);
    TRY_NC(nc_get_var_double(ncid, var_y, r->y), path);
  }
  for (size_t s = 0; s < nstations; s++) {
    r->names[s][GAUGE_NAME_MAX - 1] = '\0';
  }
  TRY(read_station_values(ncid, path, var, name, dim_time, dim_station, r));
  TRY(read_text_attribute(ncid, var, "units", r->units, sizeof r->units));
  TRY(read_text_attribute(ncid, var_time, "units", r->time_units, sizeof r->time_units));
cleanup:
  return status;
}
#endif

HclStatus hcl_station_record_read(const char *path, const char *variable, StationRecord *out) {
  HclStatus status = HCL_OK;
  memset(out, 0, sizeof *out);
#ifdef HYDROCL_HAVE_NETCDF
  int ncid = -1;
  int err = nc_open(path, NC_NOWRITE, &ncid);
  REQUIRE(err == NC_NOERR, access(path, F_OK) == 0 ? HCL_EDATA : HCL_ENOINPUT, "cannot open '%s': %s", path,
          nc_strerror(err));
  TRY(read_record(ncid, path, variable, out));
cleanup:
  if (ncid >= 0) {
    nc_close(ncid);
  }
  if (status != HCL_OK) {
    hcl_station_record_free(out);
  }
#else
  (void)variable;
  FAIL(HCL_EUSAGE, "this hydrocl was built without netCDF, so it cannot read '%s'", path);
cleanup:
#endif
  return status;
}

void hcl_station_record_free(StationRecord *r) {
  free(r->time);
  free(r->values);
  free(r->names);
  free(r->x);
  free(r->y);
  memset(r, 0, sizeof *r);
}

#ifdef HYDROCL_HAVE_NETCDF
/* Rank 0's part of hcl_history_check_stations. */
static HclStatus check_stations(const char *path, const char *shown, const Gauge *gauges, int ngauges) {
  HclStatus status = HCL_OK;
  int ncid = -1, dim, var_name, var_x, var_y;
  size_t nstations = 0;
  char(*names)[GAUGE_NAME_MAX] = NULL;
  double *x = NULL, *y = NULL;
  static const char *const what_to_do =
      "a continued run keeps the gauges of the run it continues (its samples would go on under the file's names "
      "and positions): give the gauges as they were, or start afresh (--overwrite) or into another output folder";
  if (access(path, F_OK) != 0) {
    goto cleanup; /* the run being continued had no gauges: a new file */
  }
  int err = nc_open(path, NC_NOWRITE, &ncid);
  REQUIRE(err == NC_NOERR, HCL_EDATA, "cannot continue '%s': %s", shown, nc_strerror(err));
  REQUIRE(nc_inq_dimid(ncid, "station", &dim) == NC_NOERR && nc_inq_dimlen(ncid, dim, &nstations) == NC_NOERR &&
              nc_inq_varid(ncid, "station_name", &var_name) == NC_NOERR &&
              nc_inq_varid(ncid, "x", &var_x) == NC_NOERR && nc_inq_varid(ncid, "y", &var_y) == NC_NOERR,
          HCL_EDATA, "cannot continue '%s': it holds no stations with names and positions", shown);
  REQUIRE(nstations == (size_t)ngauges, HCL_EDATA, "cannot continue '%s': it holds %zu gauges, this run has %d; %s",
          shown, nstations, ngauges, what_to_do);
  TRY_ALLOC(names, nstations + 1);
  TRY_ALLOC(x, nstations + 1);
  TRY_ALLOC(y, nstations + 1);
  memset(names, 0, (nstations + 1) * sizeof *names);
  if (nstations > 0) {
    TRY_NC(nc_get_var_text(ncid, var_name, &names[0][0]), path);
    TRY_NC(nc_get_var_double(ncid, var_x, x), path);
    TRY_NC(nc_get_var_double(ncid, var_y, y), path);
  }
  for (size_t k = 0; k < nstations; k++) {
    const Gauge *g = &gauges[k];
    names[k][GAUGE_NAME_MAX - 1] = '\0';
    REQUIRE(strncmp(names[k], g->name, GAUGE_NAME_MAX - 1) == 0 && x[k] == g->x && y[k] == g->y, HCL_EDATA,
            "cannot continue '%s': its gauge %zu is '%s' at (%.17g, %.17g) m, this run's is '%s' at (%.17g, %.17g) "
            "m (%s); %s",
            shown, k + 1, names[k], x[k], y[k], g->name, g->x, g->y, g->origin, what_to_do);
  }
cleanup:
  if (ncid >= 0) {
    nc_close(ncid);
  }
  free(names);
  free(x);
  free(y);
  return status;
}
#endif

HclStatus hcl_history_check_stations(const char *path, const char *shown, const Gauge *gauges, int ngauges) {
  HclStatus local = HCL_OK;
#ifdef HYDROCL_HAVE_NETCDF
  if (hcl_par_rank() == 0) {
    local = check_stations(path, shown, gauges, ngauges);
  }
#else
  (void)path;
  (void)shown;
  (void)gauges;
  (void)ngauges;
#endif
  return hcl_par_agree(local);
}
