/* SPDX-License-Identifier: BSD-3-Clause */
/* swe_case.h: the shallow-water model's case-file schema and what it describes: grid, bed, initial state, physics,
 * boundaries, time stepping and output. The schema table drives `hydrocl run`, `hydrocl validate` and
 * `hydrocl defaults shallow-water` (casefile.h); this module turns a finished case into the solver's configuration
 * and the initial fields of one rank's block, and holds the water-level signals of the boundaries. */
#ifndef HYDROCL_SWE_CASE_H
#define HYDROCL_SWE_CASE_H

#include "casefile.h"
#include "crs.h"
#include "decomp.h"
#include "inputs.h"
#include "swe.h"
#include "swe_forcing.h"

/* The model's keys, the implicit scheme's level solver's under this prefix (krylov.h, stencil5_precond.h). */
#define SWE_SOLVER_PREFIX "solver."
HclStatus swe_case_schema(CaseSchema *schema);

/* The water level imposed on one side: mean + sum_k amplitude_k cos(2 pi t / period_k - phase_k), or a time series
 * (linear interpolation) when series_count > 0. */
enum { SWE_MAX_CONSTITUENTS = 16 };
typedef struct {
  double mean;
  int nconstituents;
  double amplitude[SWE_MAX_CONSTITUENTS], period[SWE_MAX_CONSTITUENTS], phase[SWE_MAX_CONSTITUENTS]; /* m, s, rad */
  double *series_times, *series_levels;
  int series_count;
} SweLevelSignal;

/* Analytic shapes of the bed (depth below the reference level, positive down) and of the initial water level. */
typedef enum { BED_FLAT, BED_GAUSSIAN, BED_RAMP, BED_PARABOLOID, BED_FILE } BedShape;
typedef enum { INITIAL_FLAT, INITIAL_GAUSSIAN, INITIAL_DAM, INITIAL_THACKER, INITIAL_FILE } InitialShape;
/* Which cells below the initial level start wet: all of them, or only those connected to a level side or to a
 * point through cells below it (land behind a dike stays dry). */
typedef enum { FILL_EVERYWHERE, FILL_FROM_BOUNDARY, FILL_FROM_POINT } InitialFill;
typedef struct {
  BedShape shape;
  double depth, height, x, y, width;
  double *values;     /* BED_FILE: the global grid of depths, ny rows of nx */
  InputSource source; /* file: what bed.file was */
} SweBed;
typedef struct {
  InitialShape shape;
  double level, height, x, y, width, level_beyond;
  double *values;     /* INITIAL_FILE: the global grid of levels, ny rows of nx */
  InputSource source; /* file: what initial.file was */
  InitialFill fill;
  double fill_x, fill_y; /* FILL_FROM_POINT: the seed */
  unsigned char *filled; /* fill other than everywhere: the global grid, nonzero where the level fills the cell */
  size_t filled_count;   /* how many cells it fills */
  size_t below_count;    /* how many cells lie below the level, filled or not */
} SweInitial;

typedef struct {
  DecompSpec grid;
  double x0, y0; /* south-west corner of the grid, m */
  Crs *crs;      /* of x and y (grid.crs); NULL: local Cartesian */
  SweConfig config;
  SweLevelSignal signals[SWE_SIDES];
  SweBed bed;
  SweInitial initial;
  SweForcing forcing;      /* rain and point sources */
  double *friction_values; /* physics.friction_file: the global grid of the friction law's coefficients; NULL: none */
  InputSource friction_source;
  double t_end, dt_fixed, cfl; /* dt_fixed 0: CFL-limited (implicit: cfl on the advective speed) */
  double wave_cfl;             /* implicit, CFL-limited: the gravity-wave Courant number's bound */
  double start;                /* the calendar time of t = 0, seconds since 1970-01-01 UTC (time.start) */
  char time_units[64];         /* "seconds since 2000-01-01 00:00:00": output times */
} SweSetup;

/* Reads and cross-checks the case (sides, signals, bed file, Thacker needs a paraboloid...). Every mistake is
 * HCL_EDATA naming the key, its origin, the value and what is allowed. Caller frees with swe_setup_free. */
HclStatus swe_setup_from_case(const Case *c, Precision precision, SweSetup *setup);
void swe_setup_free(SweSetup *setup);

/* The level of side at time t (seconds since the start). */
double swe_level_at(const SweLevelSignal *signal, double t);

/* This rank's block (owned values, ny rows of nx) of the global grid `values` of the setup's grid. */
void swe_local_block(const SweSetup *setup, const Decomp *decomp, const double *values, double *block);

/* The initial state of this rank's block (owned values, ny rows of nx, x fastest): depth (positive down), zeta,
 * and face velocities u (east faces), v (north faces). Arrays are caller-allocated. */
void swe_initial_state(const SweSetup *setup, const Decomp *decomp, double *depth, double *zeta, double *u, double *v);

/* The largest |velocity| + sqrt(g h) (with_waves) or |velocity| of the initial state's wet cells over this rank's
 * block, m/s. */
double swe_initial_speed(const SweSetup *setup, const double *depth, const double *zeta, const double *u,
                         const double *v, size_t n, bool with_waves);

#endif
