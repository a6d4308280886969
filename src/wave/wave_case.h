/* SPDX-License-Identifier: BSD-3-Clause */
/* wave_case.h: the potential-flow wave model's case-file schema and what it describes: grid, Laplace solver,
 * physics, bed, initial state, incident waves, relaxation zones, time stepping and output. The schema table drives
 * `hydrocl run`, `hydrocl validate` and `hydrocl defaults potential-flow` (casefile.h); this module turns a finished
 * case into the model's configuration (wave.h), the incident wave (waves.h) and the initial fields of one rank's
 * block. Everything here runs on the host: every mistake is found before a device is touched. */
#ifndef HYDROCL_WAVE_CASE_H
#define HYDROCL_WAVE_CASE_H

#include "casefile.h"
#include "crs.h"
#include "decomp.h"
#include "inputs.h"
#include "precision.h"
#include "wave.h"
#include "waves.h"

/* The model's keys, and the Laplace solver's under solver. (hcl_laplace_add_keys). */
HclStatus wave_case_schema(CaseSchema *schema);

/* The still-water depth: flat, the submerged bar or Whalin's shoal (wave_shapes.h) placed with their origin at
 * (x, y), or a grid from a file. */
typedef enum { WAVE_BED_FLAT, WAVE_BED_BAR, WAVE_BED_WHALIN, WAVE_BED_FILE } WaveBedShape;
typedef enum { WAVE_INITIAL_STILL, WAVE_INITIAL_STANDING, WAVE_INITIAL_GAUSSIAN, WAVE_INITIAL_WAVE } WaveInitialShape;
typedef enum {
  WAVE_INCIDENT_NONE,
  WAVE_INCIDENT_STREAM,
  WAVE_INCIDENT_LINEAR,
  WAVE_INCIDENT_IRREGULAR
} WaveIncidentKind;

/* The horizontal grid: Cartesian, or curvilinear through a map (gridmap.h) that the solver borrows. */
typedef enum { WAVE_GRID_CARTESIAN, WAVE_GRID_MAPPED, WAVE_GRID_POLAR, WAVE_GRID_FILE } WaveGridType;

typedef struct {
  WaveGridType type;
  MappingRectangle rectangle; /* mapped */
  MappingPolar polar;         /* polar: centre (grid.x0, grid.y0) */
  MappingTable table;         /* file: its points x, y (owned) */
  double *x, *y;
  char name[1100]; /* file: "grid of PATH", the map's name */
  Mapping map;     /* mapped, polar, file: config.laplace.map points here */
} WaveGeometry;

typedef struct {
  WaveBedShape shape;
  double depth, x, y; /* flat: depth [m]; bar, whalin: where the shape's origin lies [m] */
  double *values;     /* file: the global grid of depths, ny rows of nx (owned) */
  InputSource source; /* file: what bed.file was */
} WaveBed;

typedef struct {
  WaveInitialShape shape;
  double amplitude;           /* standing: A [m] */
  int mx, my;                 /* standing: half-wavelengths across the basin (whole ones when periodic) */
  double height, x, y, width; /* gaussian [m] */
} WaveInitial;

typedef struct {
  DecompSpec grid;
  WaveGeometry geometry; /* where the points lie */
  WaveConfig config;     /* spacing, origin, solver (its map: &geometry.map), physics, zones, ramp */
  Crs *crs;              /* of x and y (grid.crs); NULL: local Cartesian */
  WaveBed bed;
  WaveInitial initial;
  WaveIncidentKind incident_kind;
  RegularWave regular;     /* stream, linear */
  IrregularWave irregular; /* irregular (owned) */
  WaveIncident incident;   /* the incident wave as the device evaluates it (owned); no components: none */
  double incident_depth;   /* the depth the incident wave was computed for [m] */
  double celerity;         /* of the incident wave (an irregular sea's at its peak period) [m/s]; 0 without one */
  double t_end, dt_fixed, courant; /* dt_fixed 0: from the Courant number */
  double guard_factor;             /* the stability guard's |eta| / h */
  double start;                    /* the calendar time of t = 0, seconds since 1970-01-01 UTC (time.start) */
  char time_units[64];             /* "seconds since 2000-01-01 00:00:00": output times */
} WaveSetup;

/* Reads and cross-checks the case (in place: the solver's configuration points into *setup, which must not move): the grid against the stencils, the zones against the domain, the bed, the
 * incident wave (solved here: a stream-function wave past breaking is refused). precision: --precision when given
 * (single, double or mixed, overriding solver.precision), else NULL for the case's solver.precision. Every
 * mistake is HCL_EDATA naming the key, its origin, the value and what is allowed. Caller frees with wave_setup_free
 * (also after a failure). */
HclStatus wave_setup_from_case(const Case *c, const LaplacePrecision *precision, WaveSetup *setup);
void wave_setup_free(WaveSetup *setup);

/* (x, y) [m] of global grid point (gi, gj), any the stencils reach. */
void wave_setup_point(const WaveSetup *setup, long gi, long gj, double *x, double *y);

/* The bounding box of the grid's points, x0, x1, y0, y1 [m], and half the nominal spacings *sx, *sy (the slack a
 * relaxation zone's edge may lie beyond it). A Cartesian grid's from its corners, any other's from every point. */
void wave_setup_extent(const WaveSetup *setup, double box[4], double *sx, double *sy);

/* The still-water depth at global grid point (gi, gj) [m]. */
double wave_setup_depth(const WaveSetup *setup, int gi, int gj);

/* The initial state of this rank's block (owned points, ny rows of nx, x fastest): depth h, eta and phi.
 * Arrays are caller-allocated. */
void wave_initial_state(const WaveSetup *setup, const Decomp *decomp, double *h, double *eta, double *phi);

/* Refuses (HCL_EDATA, on this rank) a block with a still-water depth h <= 0 or an initial eta beyond the guard
 * (|eta| <= guard_factor h) or below the bed, naming the key, the point and the values; wave_initial_state's arrays.
 * The caller agrees over the ranks. */
HclStatus wave_check_initial(const Case *c, const WaveSetup *setup, const Decomp *decomp, const double *h,
                             const double *eta);

#endif
