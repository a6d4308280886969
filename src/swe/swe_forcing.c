/* SPDX-License-Identifier: BSD-3-Clause */
/* swe_forcing.c: rain and point sources (see swe_forcing.h). */
#include "swe_forcing.h"

#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "inputs.h"

static const double MM_PER_HOUR = 1.0 / 3.6e6; /* m/s */

static void rate_free(SweRate *rate) {
  free(rate->times);
  free(rate->values);
  memset(rate, 0, sizeof *rate);
}

/* The integral of rate from t to t + dt. */
static double rate_integral(const SweRate *rate, double t, double dt) {
  if (rate->count == 0) {
    return rate->constant * dt;
  }
  return hcl_input_series_integral(rate->times, rate->values, rate->count, t, t + dt);
}

/* A series file into rate, its values in unit (a header may give others), scaled by to_si. */
static HclStatus read_rate_series(const char *path, double start, const char *unit, double to_si, SweRate *rate) {
  HclStatus status = HCL_OK;
  TRY(hcl_input_read_series(path, start, unit, &rate->times, &rate->values, &rate->count));
  for (int k = 0; k < rate->count; k++) {
    rate->values[k] *= to_si;
  }
cleanup:
  return status;
}

static HclStatus read_rain(const Case *c, double start, SweRate *rain) {
  HclStatus status = HCL_OK;
  const char *path = hcl_case_file(c, "rain.file");
  rain->constant = hcl_case_real(c, "rain.rate") * MM_PER_HOUR;
  if (path[0]) {
    REQUIRE(hcl_case_at_default(c, "rain.rate"), HCL_EDATA,
            "%s: rain.rate is given beside rain.file; the rain comes from one of them",
            hcl_case_origin(c, "rain.rate"));
    TRY(read_rate_series(path, start, "mm/h", MM_PER_HOUR, rain));
    for (int k = 0; k < rain->count; k++) {
      REQUIRE(rain->values[k] >= 0, HCL_EDATA, "%s: sample %d: rain of %g mm/h; rain is never negative", path, k + 1,
              rain->values[k] / MM_PER_HOUR);
    }
  }
cleanup:
  return status;
}

/* A source's discharge: a number (m^3/s) or a series file named relative to the sources file's folder. */
static HclStatus read_discharge(const Csv *csv, const char *folder, double start, SweRate *discharge) {
  HclStatus status = HCL_OK;
  char path[4096];
  if (hcl_csv_is_number(csv, 3, &discharge->constant)) {
    goto cleanup;
  }
  const char *name = csv->cells[3];
  REQUIRE(name[0], HCL_EDATA, "%s:%d: the discharge is empty: give m^3/s or a series file", csv->path,
          csv->line.number);
  snprintf(path, sizeof path, "%s%s%s", name[0] == '/' ? "" : folder, name[0] == '/' ? "" : "/", name);
  TRY(read_rate_series(path, start, "m3/s", 1.0, discharge));
cleanup:
  return status;
}

static HclStatus add_source(SweForcing *f, int *capacity, const SwePointSource *source) {
  HclStatus status = HCL_OK;
  if (f->nsources == *capacity) {
    *capacity = *capacity ? 2 * *capacity : 8;
    SwePointSource *bigger = realloc(f->sources, (size_t)*capacity * sizeof *bigger);
    REQUIRE(bigger != NULL, HCL_ENOMEM, "cannot hold %d sources", *capacity);
    f->sources = bigger;
  }
  f->sources[f->nsources++] = *source;
cleanup:
  return status;
}

/* Places source on the grid's cells, refusing a point outside them or a name given before. */
static HclStatus place(const SweForcingGrid *grid, const SweForcing *f, SwePointSource *source) {
  HclStatus status = HCL_OK;
  source->gi = (int)floor((source->x - grid->x0) / grid->dx);
  source->gj = (int)floor((source->y - grid->y0) / grid->dy);
  REQUIRE(source->gi >= 0 && source->gi < grid->nx && source->gj >= 0 && source->gj < grid->ny, HCL_EDATA,
          "%s: source '%s' at (%.10g, %.10g) m lies outside the grid, x %.10g to %.10g m, y %.10g to %.10g m",
          source->origin, source->name, source->x, source->y, grid->x0, grid->x0 + grid->nx * grid->dx, grid->y0,
          grid->y0 + grid->ny * grid->dy);
  for (int k = 0; k < f->nsources; k++) {
    REQUIRE(strcmp(f->sources[k].name, source->name) != 0, HCL_EDATA, "%s: source '%s' is named twice (first at %s)",
            source->origin, source->name, f->sources[k].origin);
  }
cleanup:
  return status;
}

/* One row of sources.file into source. */
static HclStatus read_source(const Csv *csv, const char *folder, const SweForcingGrid *grid, const SweForcing *f,
                             SwePointSource *source) {
  HclStatus status = HCL_OK;
  REQUIRE(csv->ncells == 4, HCL_EDATA, "%s:%d: %d columns where a row is 'name,x,y,discharge'", csv->path,
          csv->line.number, csv->ncells);
  REQUIRE(csv->cells[0][0] && strlen(csv->cells[0]) < SWE_SOURCE_NAME_MAX, HCL_EDATA,
          "%s:%d: a source's name has 1 to %d characters (got '%s')", csv->path, csv->line.number,
          SWE_SOURCE_NAME_MAX - 1, csv->cells[0]);
  snprintf(source->name, sizeof source->name, "%s", csv->cells[0]);
  hcl_csv_origin(csv, source->origin, sizeof source->origin);
  TRY(hcl_csv_number(csv, 1, &source->x));
  TRY(hcl_csv_number(csv, 2, &source->y));
  TRY(place(grid, f, source));
  TRY(read_discharge(csv, folder, grid->start, &source->discharge));
cleanup:
  return status;
}

/* sources.file: 'name,x,y,discharge' rows, a header first where its x is no number. */
static HclStatus read_sources(const char *path, const SweForcingGrid *grid, SweForcing *f) {
  HclStatus status = HCL_OK;
  Csv csv = {0};
  SwePointSource source;
  bool more = false;
  int capacity = 0;
  double x = 0;
  char *copy = strdup(path);
  memset(&source, 0, sizeof source);
  REQUIRE(copy != NULL, HCL_ENOMEM, "cannot copy '%s'", path);
  const char *folder = dirname(copy);
  TRY(hcl_csv_open(path, &csv));
  for (bool first = true;; first = false) {
    TRY(hcl_csv_next(&csv, &more));
    if (!more) {
      break;
    }
    if (first && csv.ncells > 1 && !hcl_csv_is_number(&csv, 1, &x)) {
      TRY(hcl_csv_take_header(&csv));
      continue;
    }
    TRY(read_source(&csv, folder, grid, f, &source));
    TRY(add_source(f, &capacity, &source));
    memset(&source, 0, sizeof source); /* the list owns its series now */
  }
  REQUIRE(f->nsources > 0, HCL_EDATA, "%s: no sources (expected rows 'name,x,y,discharge')", path);
  TRY_ALLOC(f->water, f->nsources);
cleanup:
  rate_free(&source.discharge);
  hcl_csv_close(&csv);
  free(copy);
  return status;
}

HclStatus swe_forcing_read(const Case *c, const SweForcingGrid *grid, SweForcing *forcing) {
  HclStatus status = HCL_OK;
  memset(forcing, 0, sizeof *forcing);
  TRY(read_rain(c, grid->start, &forcing->rain));
  const char *sources = hcl_case_file(c, "sources.file");
  if (sources[0]) {
    TRY(read_sources(sources, grid, forcing));
  }
cleanup:
  return status;
}

void swe_forcing_free(SweForcing *forcing) {
  rate_free(&forcing->rain);
  for (int k = 0; k < forcing->nsources; k++) {
    rate_free(&forcing->sources[k].discharge);
  }
  free(forcing->sources);
  free(forcing->water);
  memset(forcing, 0, sizeof *forcing);
}

bool swe_forcing_any(const SweForcing *forcing) {
  return forcing->rain.constant != 0 || forcing->rain.count > 0 || forcing->nsources > 0;
}

HclStatus swe_forcing_apply(SweForcing *forcing, Swe *swe, double dx, double dy, double t, double dt) {
  if (!swe_forcing_any(forcing)) {
    return HCL_OK;
  }
  for (int k = 0; k < forcing->nsources; k++) {
    const SwePointSource *source = &forcing->sources[k];
    forcing->water[k] =
        (SweWater){source->gi, source->gj, rate_integral(&source->discharge, t, dt) / (dx * dy)}; /* Q dt / area */
  }
  return hcl_swe_add_water(swe, rate_integral(&forcing->rain, t, dt), forcing->water, forcing->nsources);
}

static void describe_rate(const SweRate *rate, double scale, const char *unit, char *text, size_t size) {
  if (rate->count == 0) {
    snprintf(text, size, "%g %s", rate->constant * scale, unit);
  } else {
    snprintf(text, size, "a series of %d samples, %g to %g s", rate->count, rate->times[0],
             rate->times[rate->count - 1]);
  }
}

void swe_forcing_print(const SweForcing *forcing, FILE *out) {
  char text[128];
  if (forcing->rain.constant != 0 || forcing->rain.count > 0) {
    describe_rate(&forcing->rain, 1 / MM_PER_HOUR, "mm/h", text, sizeof text);
    fprintf(out, "rain: %s, on every cell\n", text);
  }
  for (int k = 0; k < forcing->nsources; k++) {
    const SwePointSource *s = &forcing->sources[k];
    describe_rate(&s->discharge, 1, "m^3/s", text, sizeof text);
    fprintf(out, "source '%s' (%s) at (%.10g, %.10g) m, cell (%d, %d): %s\n", s->name, s->origin, s->x, s->y, s->gi,
            s->gj, text);
  }
}
