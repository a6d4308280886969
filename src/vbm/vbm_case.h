/* SPDX-License-Identifier: BSD-3-Clause */
/* vbm_case.h: the variational Boussinesq model's case-file schema and what it describes: grid, depth and land,
 * current, initial state, ships and their tracks, sponges, the fixed time step, solver and output. The schema drives
 * `hydrocl run`, `validate` and `defaults variational-boussinesq`; this module turns a finished case into the model's
 * configuration, the initial fields of one rank's block and the ships' places at any time. */
#ifndef HYDROCL_VBM_CASE_H
#define HYDROCL_VBM_CASE_H

#include "casefile.h"
#include "crs.h"
#include "decomp.h"
#include "inputs.h"
#include "ship_track.h"
#include "vbm.h"

#define VBM_SOLVER_PREFIX "solver."
HclStatus vbm_case_schema(CaseSchema *schema);

typedef enum { VBM_INITIAL_FLAT, VBM_INITIAL_GAUSSIAN } VbmInitialShape;

typedef struct {
  DecompSpec grid;
  double x0, y0; /* south-west corner, m */
  Crs *crs;
  VbmConfig config;
  double depth;                     /* bed.shape flat: the still-water depth, m */
  double *bed_values;               /* bed.shape file: the global grid of depths (ny rows of nx); NULL otherwise */
  double *land;                     /* land.file: the global grid, nonzero on land; NULL: none */
  double current[2];                /* uniform current, m/s */
  double *current_values[2];        /* current.file: the global grids of u and v; NULL otherwise */
  double max_depth, max_current[2]; /* over the grid: the stable step's */
  /* What bed.file, land.file and current.file were, for validate. */
  InputSource bed_source, land_source, current_source;
  VbmInitialShape initial;
  double initial_height, initial_x, initial_y, initial_width;
  ShipSpec *ships;
  int nships;
  double ship_ramp;  /* s: the ships' pressure rises over it from 0 */
  int incident_side; /* VBM_WEST .. VBM_NORTH, or -1: no incident waves */
  VbmWave *waves;    /* the incident waves (hcl_vbm_set_incident), nwaves of them */
  int nwaves;
  double incident_ramp;  /* s */
  double t_end, dt, cfl; /* dt: the step (fixed: given, or the largest stable one cfl allows that lands on events) */
  double start;
  char time_units[64];
} VbmSetup;

/* Reads and cross-checks the case; every mistake is HCL_EDATA naming the key. Caller frees with vbm_setup_free. */
HclStatus vbm_setup_from_case(const Case *c, Precision precision, VbmSetup *setup);
void vbm_setup_free(VbmSetup *setup);

/* The initial fields of this rank's block (ny rows of nx): depth (0 on land), zeta, phi and the current's u, v. */
void vbm_initial_state(const VbmSetup *setup, const Decomp *decomp, double *depth, double *zeta, double *phi, double *u,
                       double *v);

/* VbmShipsAt for the setup's ships (ctx: the VbmSetup). */
void vbm_setup_place_ships(void *setup, double t, VbmShip *ships);

#endif
