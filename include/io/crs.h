/* SPDX-License-Identifier: BSD-3-Clause */
/* crs.h: the coordinate reference system of a grid (grid.crs), for the CF grid_mapping of every output file.
 *
 * grid.crs is an EPSG code ("EPSG:32631") or a WKT text; PROJ reads it, checks that it is a projected CRS in metres
 * (hydrocl's x and y are metres), and gives its WKT, its EPSG code, its ellipsoid and the projection's parameters,
 * which hcl_crs_create maps to CF's grid_mapping_name and attribute names (CF 1.8 appendix F) for the projections a
 * coastal model meets: transverse Mercator (every UTM zone), Lambert conformal conic, (oblique and polar)
 * stereographic (the Dutch RD grid), Mercator, Albers and Lambert azimuthal equal area. Another projection keeps
 * its WKT and EPSG code without a grid_mapping_name (hcl_crs_create says so). Without the key the grid is local
 * Cartesian metres and the files say so. Built without PROJ, a grid.crs is refused with how to build with it. */
#ifndef HYDROCL_CRS_H
#define HYDROCL_CRS_H

#include "status.h"

enum { CRS_PARAMETERS_MAX = 8, CRS_NAME_MAX = 160 };

typedef struct {
  const char *name; /* CF attribute: "false_easting" */
  double values[2]; /* in metres, degrees or as a scale; two for a secant projection's standard_parallel */
  int count;
} CrsParameter;

typedef struct {
  char *definition;              /* as grid.crs gave it: "EPSG:32631", or a WKT */
  char *wkt;                     /* WKT1 (GDAL's dialect, which every netCDF reader knows), else WKT2 */
  char epsg[32];                 /* "EPSG:32631"; empty when the CRS has no EPSG code */
  char name[CRS_NAME_MAX];       /* "WGS 84 / UTM zone 31N" */
  char method[CRS_NAME_MAX];     /* the projection method: "Transverse Mercator" */
  const char *grid_mapping_name; /* CF's ("transverse_mercator"), NULL for a method outside the table */
  CrsParameter parameters[CRS_PARAMETERS_MAX];
  int nparameters;
  double semi_major_axis;             /* metres */
  double inverse_flattening;          /* 0 for a sphere */
  double longitude_of_prime_meridian; /* degrees east of Greenwich */
} Crs;

/* Reads text, the value of grid.crs set at origin ("case.yml:4:8"): HCL_EDATA naming the key, the value and why
 * (PROJ does not know it, it is geographic, its axes are not in metres); HCL_EUSAGE in a build without PROJ. */
HclStatus hcl_crs_create(const char *text, const char *origin, Crs **out);
/* "EPSG:32631 (WGS 84 / UTM zone 31N), CF transverse_mercator", for validate. */
void hcl_crs_describe(const Crs *crs, char *out, size_t size);
void hcl_crs_destroy(Crs **crs); /* NULL-safe */

/* Points given in WGS 84 longitude and latitude (degrees; EPSG:4326) projected into crs, as PROJ transforms them
 * (through the datum shift PROJ knows for the pair): x[i], y[i] in metres. HCL_EDATA naming `what` ("ships.csv:4")
 * for a point PROJ cannot project. */
HclStatus hcl_crs_from_lonlat(const Crs *crs, int n, const double *lon, const double *lat, double *x, double *y,
                              const char *what);

#endif
