/* ncutil.h: netCDF-C calls in the error idiom of status.h (only in builds with netCDF). */
#ifndef HYDROCL_NCUTIL_H
#define HYDROCL_NCUTIL_H

#ifdef HYDROCL_HAVE_NETCDF
#include <netcdf.h>

#include "status.h"

/* Calls a netCDF function; on failure records the call, the file and netCDF's message, and jumps to cleanup. */
#define TRY_NC(call, path)                                                                                   \
  do {                                                                                                       \
    int nc_err_ = (call);                                                                                    \
    if (nc_err_ != NC_NOERR) {                                                                               \
      FAIL(HCL_EIO, "netCDF error on '%s': %s (%s)", (path), nc_strerror(nc_err_), #call);                  \
    }                                                                                                        \
  } while (0)

/* Writes a text attribute (NC_GLOBAL or a variable's). */
#define NC_TEXT_ATT(ncid, var, name, text) nc_put_att_text((ncid), (var), (name), strlen(text), (text))
#endif

#endif
