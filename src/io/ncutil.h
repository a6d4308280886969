/* ncutil.h: netCDF-C calls in the error idiom of status.h (only in builds with netCDF). */
#ifndef HYDROCL_NCUTIL_H
#define HYDROCL_NCUTIL_H

#ifdef HYDROCL_HAVE_NETCDF
#include <netcdf.h>

#include "status.h"

/* Calls a netCDF function; on failure records the call, the file and netCDF's message, and jumps to cleanup. */
#define TRY_NC(call, path)                                                                                             \
  do {                                                                                                                 \
    int nc_err_ = (call);                                                                                              \
    if (nc_err_ != NC_NOERR) {                                                                                         \
      FAIL(HCL_EIO, "netCDF error on '%s': %s (%s)", (path), nc_strerror(nc_err_), #call);                             \
    }                                                                                                                  \
  } while (0)

/* Writes a text attribute (NC_GLOBAL or a variable's). */
#define NC_TEXT_ATT(ncid, var, name, text) nc_put_att_text((ncid), (var), (name), strlen(text), (text))

#include "output.h"

/* Creates spec->path as netCDF-4 in define mode; an existing file without spec->overwrite is HCL_ECANTCREAT (the
 * check and the creation are one call: NC_NOCLOBBER). */
HclStatus nc_output_create(const OutputSpec *spec, int *ncid);
/* Reopens spec->path to continue it (spec->resume): checks that dimension dim_names[k] has length dim_lengths[k]
 * and that the time variable and every variable of vars exist (HCL_EDATA naming the file and what differs), and
 * returns their ids and the number of frames at or before spec->resume_time, where the next frame goes. */
HclStatus nc_output_reopen(const OutputSpec *spec, const char *const *dim_names, const size_t *dim_lengths, int ndims,
                           const OutputVariable *vars, int nvars, int *ncid, int *time_var, int *var_ids, int *frames);
/* The global attributes every output file carries: Conventions, title, source, history, hydrocl_case, and
 * featureType when feature_type is not NULL. */
HclStatus nc_output_globals(int ncid, const OutputSpec *spec, const char *feature_type);
/* The CF time coordinate variable on dimension dim. */
HclStatus nc_output_time(int ncid, const OutputSpec *spec, int dim, int *var);
/* A data variable of spec's storage type with its long_name, units and standard_name. */
HclStatus nc_output_variable(int ncid, const OutputSpec *spec, const OutputVariable *v, int ndims, const int *dims,
                             int *var);
#endif

#endif
