/* ncutil.c: what every CF output file of hydrocl shares (see ncutil.h). */
#include "ncutil.h"

#ifdef HYDROCL_HAVE_NETCDF
#include <string.h>
#include <unistd.h>

HclStatus nc_output_create(const OutputSpec *spec, int *ncid) {
  HclStatus status = HCL_OK;
  REQUIRE(spec->overwrite || access(spec->path, F_OK) != 0, HCL_ECANTCREAT,
          "output '%s' exists; pass --overwrite to replace it, or choose another output folder", spec->path);
  int err = nc_create(spec->path, NC_NETCDF4 | NC_CLOBBER, ncid);
  REQUIRE(err == NC_NOERR, HCL_ECANTCREAT, "cannot create '%s': %s", spec->path, nc_strerror(err));
cleanup:
  return status;
}

HclStatus nc_output_globals(int ncid, const OutputSpec *spec, const char *feature_type) {
  HclStatus status = HCL_OK;
  TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "Conventions", "CF-1.8"), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "title", spec->title), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "source", spec->source), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "history", spec->history), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "hydrocl_case", spec->case_yaml), spec->path);
  if (feature_type) {
    TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "featureType", feature_type), spec->path);
  }
cleanup:
  return status;
}

HclStatus nc_output_time(int ncid, const OutputSpec *spec, int dim, int *var) {
  HclStatus status = HCL_OK;
  TRY_NC(nc_def_var(ncid, "time", NC_DOUBLE, 1, &dim, var), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "units", spec->time_units), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "standard_name", "time"), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "axis", "T"), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "calendar", "standard"), spec->path);
cleanup:
  return status;
}

HclStatus nc_output_variable(int ncid, const OutputSpec *spec, const OutputVariable *v, int ndims, const int *dims,
                             int *var) {
  HclStatus status = HCL_OK;
  TRY_NC(nc_def_var(ncid, v->name, spec->double_precision ? NC_DOUBLE : NC_FLOAT, ndims, dims, var), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "long_name", v->long_name), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "units", v->units), spec->path);
  if (v->standard_name) {
    TRY_NC(NC_TEXT_ATT(ncid, *var, "standard_name", v->standard_name), spec->path);
  }
cleanup:
  return status;
}
#endif
