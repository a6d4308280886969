/* SPDX-License-Identifier: BSD-3-Clause */
/* swe_forcing.h: water the shallow-water model gains and loses inside the domain: rain on every cell (rain.rate or
 * the series of rain.file, mm/h) and point sources and sinks (sources.file: 'name,x,y,discharge' rows, a discharge in
 * m^3/s or the name of its series), each step's share added to the state before the step (hcl_swe_add_water). */
#ifndef HYDROCL_SWE_FORCING_H
#define HYDROCL_SWE_FORCING_H

#include <stdio.h>

#include "casefile.h"
#include "swe.h"

/* A discharge's time function: a constant, or a series (linear between samples, held beyond its ends). */
typedef struct {
  double constant;
  double *times, *values; /* owned; count 0: the constant */
  int count;
} SweRate;

enum { SWE_SOURCE_NAME_MAX = 64 };
typedef struct {
  char name[SWE_SOURCE_NAME_MAX];
  char origin[288];  /* "sources.csv:3" */
  double x, y;       /* m */
  int gi, gj;        /* the global cell holding it */
  SweRate discharge; /* m^3/s; negative: a sink */
} SwePointSource;

typedef struct {
  SweRate rain; /* m/s */
  SwePointSource *sources;
  int nsources;
  SweWater *water; /* nsources, a step's work */
} SweForcing;

/* The geometry the sources are placed on: the grid's cells. */
typedef struct {
  int nx, ny;
  double x0, y0, dx, dy;
  double start; /* time.start, seconds since 1970: a series' ISO dates are placed by it */
} SweForcingGrid;

/* Reads rain.rate, rain.file and sources.file; a source outside the grid, a name given twice or a bad row is
 * HCL_EDATA with file:line. */
HclStatus swe_forcing_read(const Case *c, const SweForcingGrid *grid, SweForcing *forcing);
void swe_forcing_free(SweForcing *forcing);
/* Whether the case has any rain or source. */
bool swe_forcing_any(const SweForcing *forcing);
/* Adds the rain and the sources' volumes from t to t + dt to the state: exact integrals of their series. */
HclStatus swe_forcing_apply(SweForcing *forcing, Swe *swe, double dx, double dy, double t, double dt);
/* validate's lines. */
void swe_forcing_print(const SweForcing *forcing, FILE *out);

#endif
