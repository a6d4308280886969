/* SPDX-License-Identifier: BSD-3-Clause */
/* restart.h: restart files, the full model state in double precision, independent of the number of ranks and of
 * the device: every field is gathered to its global shape, so any decomposition can read it back.
 *
 * A restart is FOLDER/PREFIX-STEP.nc (netCDF-4, CF-1.8, deflated): one double variable per field (dims nz_NAME when
 * nz > 1, y, x; a flag as bytes) with its long_name, units and standard_name, the coordinate variables y and x, one
 * scalar double variable per model scalar (time, dt, ...; time the fields' scalar coordinate) and the step as a
 * double (CF-1.8 has no 64-bit integers). It is written to a hidden temporary file and renamed,
 * so a crash never leaves a half-written restart under the real name; of the restarts up to the step written, only
 * the newest `keep` are kept (later steps, left from an earlier run, are left alone). All calls are collective over
 * the decomposition. */
#ifndef HYDROCL_RESTART_H
#define HYDROCL_RESTART_H

#include "decomp.h"
#include "field.h"
#include "output.h"
#include "status.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
  const char *folder;  /* existing folder */
  const char *prefix;  /* "restart" */
  int keep;            /* how many restarts to keep, newest first (at least 1) */
  OutputFrame frame;   /* title, source, the units of the scalar "time", the grid points' coordinates, the CRS */
  const char *history; /* global attribute: the command line that wrote it (output.h) */
  /* What the fields are, for the file's metadata: fields[i] describes field i (its name is the field's); a flag
   * (flag_meanings) is stored as bytes. */
  const OutputVariable *fields;
  /* The output files (synced by the caller) that get a checkpoint of the restart's step (checkpoint.h) once the
   * restart is on disk under its temporary name and before it is renamed into place, so that a restart is never
   * without them; the checkpoints of other steps go once it is in place. */
  const char *const *checkpoints;
  int ncheckpoints;
  /* What a continued run must share with the run that wrote a restart (hcl_restart_check_case), kept as global
   * attributes hydrocl_model, hydrocl_precision and hydrocl_bed_checksum (a 64-bit FNV-1a hash of the gathered bed,
   * in hexadecimal); NULL: not kept. */
  const char *model;     /* the case's model.name */
  const char *precision; /* the run's precision: "double", "single", "mixed" */
  Field *bed;            /* the still-water depth, 1 plane (borrowed) */
} RestartSpec;

typedef struct {
  const char *name; /* "time" */
  double value;
  const char *long_name; /* what it is, for the file (time's units come from RestartSpec; read ignores both) */
  const char *units;
} RestartScalar;

/* Writes fields[0..nfields) (by their names) and scalars at step; path_out (may be NULL) receives the file name. */
HclStatus hcl_restart_write(const RestartSpec *spec, int64_t step, Field *const *fields, int nfields,
                            const RestartScalar *scalars, int nscalars, char *path_out, size_t path_size);

/* The newest restart in folder (by step), as a path with its name as found there ("restart-0020.nc"); only names
 * PREFIX-DIGITS.nc are restarts (a sign, a space or anything else makes some other file, left alone by every call
 * here). HCL_ENOINPUT when there is none. */
HclStatus hcl_restart_latest(const char *folder, const char *prefix, char *path, size_t path_size);

/* How many restarts of prefix folder holds (0 when the folder does not exist). */
HclStatus hcl_restart_count(const char *folder, const char *prefix, int *count);

/* Removes the restarts of prefix in folder with a step above step (all of them for step -1): those of the run a
 * continued run replaces from step on, or of a run --overwrite replaces. Rank 0 removes; collective. */
HclStatus hcl_restart_discard_after(const char *folder, const char *prefix, int64_t step);

/* Whether the restart at path holds every one of names[0..count) (a field or a scalar): what a newer writer added
 * (a model's solver memory) is read only from a restart that has it. Rank 0 looks; collective. */
HclStatus hcl_restart_holds(const char *path, const char *const *names, int count, bool *holds);

/* Whether the restart at path is one of this case, as spec describes it (model, precision, bed where spec has one,
 * and the grid, its size and its coordinates: x0, dx, y0, dy or the curvilinear map): what differs is listed in one
 * message, HCL_EDATA with what to do; with force (--force) a warning saying what the continued run keeps, and
 * HCL_OK; another model is refused even so. A restart without the attributes (an earlier hydrocl's) is checked by
 * its coordinates alone. Collective. */
HclStatus hcl_restart_check_case(const char *path, const RestartSpec *spec, const DecompSpec *grid, bool force);

/* Reads path into fields (each rank its own block) and fills scalars[i].value by name. A restart of another grid
 * size or number of planes, without a field or scalar asked for, or holding a scalar as an array is HCL_EDATA naming
 * both; a missing file HCL_ENOINPUT. */
HclStatus hcl_restart_read(const char *path, Field *const *fields, int nfields, RestartScalar *scalars, int nscalars);

#endif
