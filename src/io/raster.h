/* SPDX-License-Identifier: BSD-3-Clause */
/* raster.h: a gridded input in any raster format GDAL reads, warped onto a model's Cartesian grid (inputs.h's
 * hcl_input_read_grid says the rules). Private to the io layer. */
#ifndef HYDROCL_RASTER_H
#define HYDROCL_RASTER_H

#include <stdbool.h>

#include "inputs.h"

/* Whether this build reads rasters (GDAL). */
bool raster_available(void);

/* " (a build with GDAL, -Dgdal=enabled, resamples ...)" where this build has no GDAL, else "": for a message that
 * refuses a file a build with GDAL would read. */
const char *raster_hint(void);

/* Whether GDAL reads path (its netCDF variable, where named) as a single-band raster with georeferencing. */
bool raster_georeferenced(const char *path, const char *variable);

/* Reads band 1 of path (a netCDF file's variable, where given) onto the nx x ny points of axes into values[ny][nx],
 * and what it was into *source (NULL: not wanted). HCL_EUSAGE in a build without GDAL. */
HclStatus raster_read(const char *path, const char *variable, int nx, int ny, const InputAxes *axes, double *values,
                      InputSource *source);

#endif
