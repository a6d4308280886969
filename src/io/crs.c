/* SPDX-License-Identifier: BSD-3-Clause */
/* crs.c: grid.crs through PROJ, mapped to CF's grid mappings (see crs.h). */
#include "crs.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HYDROCL_HAVE_PROJ
#include <proj.h>

static const double DEGREES_PER_RADIAN = 57.295779513082320876798154814105;

/* CF 1.8 appendix F: a projection method (its EPSG code) and, for each of its parameters (EPSG codes), CF's name. */
typedef struct {
  int method;
  const char *grid_mapping_name;
  struct {
    int parameter;
    const char *name;
  } parameters[6];
} Mapping;

enum {
  LAT_NATURAL = 8801,
  LON_NATURAL = 8802,
  SCALE_NATURAL = 8805,
  FALSE_EASTING = 8806,
  FALSE_NORTHING = 8807,
  LAT_FALSE_ORIGIN = 8821,
  LON_FALSE_ORIGIN = 8822,
  LAT_PARALLEL_1 = 8823,
  LAT_PARALLEL_2 = 8824,
  EASTING_FALSE_ORIGIN = 8826,
  NORTHING_FALSE_ORIGIN = 8827,
  LAT_STANDARD_PARALLEL = 8832,
  LON_ORIGIN = 8833,
  POLAR_STEREOGRAPHIC_B = 9829,
};

static const Mapping mappings[] = {
    {9807,
     "transverse_mercator",
     {{LAT_NATURAL, "latitude_of_projection_origin"},
      {LON_NATURAL, "longitude_of_central_meridian"},
      {SCALE_NATURAL, "scale_factor_at_central_meridian"},
      {FALSE_EASTING, "false_easting"},
      {FALSE_NORTHING, "false_northing"}}},
    {9802,
     "lambert_conformal_conic",
     {{LAT_FALSE_ORIGIN, "latitude_of_projection_origin"},
      {LON_FALSE_ORIGIN, "longitude_of_central_meridian"},
      {LAT_PARALLEL_1, "standard_parallel"},
      {LAT_PARALLEL_2, "standard_parallel"},
      {EASTING_FALSE_ORIGIN, "false_easting"},
      {NORTHING_FALSE_ORIGIN, "false_northing"}}},
    {9809,
     "stereographic", /* oblique stereographic: the Dutch RD grid, EPSG:28992 */
     {{LAT_NATURAL, "latitude_of_projection_origin"},
      {LON_NATURAL, "longitude_of_projection_origin"},
      {SCALE_NATURAL, "scale_factor_at_projection_origin"},
      {FALSE_EASTING, "false_easting"},
      {FALSE_NORTHING, "false_northing"}}},
    {9810,
     "polar_stereographic",
     {{LAT_NATURAL, "latitude_of_projection_origin"},
      {LON_NATURAL, "straight_vertical_longitude_from_pole"},
      {SCALE_NATURAL, "scale_factor_at_projection_origin"},
      {FALSE_EASTING, "false_easting"},
      {FALSE_NORTHING, "false_northing"}}},
    {POLAR_STEREOGRAPHIC_B,
     "polar_stereographic", /* latitude_of_projection_origin: the pole of the parallel */
     {{LAT_STANDARD_PARALLEL, "standard_parallel"},
      {LON_ORIGIN, "straight_vertical_longitude_from_pole"},
      {FALSE_EASTING, "false_easting"},
      {FALSE_NORTHING, "false_northing"}}},
    {9804,
     "mercator",
     {{LON_NATURAL, "longitude_of_projection_origin"},
      {SCALE_NATURAL, "scale_factor_at_projection_origin"},
      {FALSE_EASTING, "false_easting"},
      {FALSE_NORTHING, "false_northing"}}},
    {9805,
     "mercator",
     {{LAT_PARALLEL_1, "standard_parallel"},
      {LON_NATURAL, "longitude_of_projection_origin"},
      {FALSE_EASTING, "false_easting"},
      {FALSE_NORTHING, "false_northing"}}},
    {9822,
     "albers_conical_equal_area",
     {{LAT_FALSE_ORIGIN, "latitude_of_projection_origin"},
      {LON_FALSE_ORIGIN, "longitude_of_central_meridian"},
      {LAT_PARALLEL_1, "standard_parallel"},
      {LAT_PARALLEL_2, "standard_parallel"},
      {EASTING_FALSE_ORIGIN, "false_easting"},
      {NORTHING_FALSE_ORIGIN, "false_northing"}}},
    {9820,
     "lambert_azimuthal_equal_area",
     {{LAT_NATURAL, "latitude_of_projection_origin"},
      {LON_NATURAL, "longitude_of_projection_origin"},
      {FALSE_EASTING, "false_easting"},
      {FALSE_NORTHING, "false_northing"}}},
};

static const Mapping *mapping_of(int method) {
  for (size_t m = 0; m < sizeof mappings / sizeof mappings[0]; m++) {
    if (mappings[m].method == method) {
      return &mappings[m];
    }
  }
  return NULL;
}

/* Adds value to CF parameter name (a second standard_parallel joins the first). */
static void add_parameter(Crs *crs, const char *name, double value) {
  for (int p = 0; p < crs->nparameters; p++) {
    if (strcmp(crs->parameters[p].name, name) == 0 && crs->parameters[p].count < 2) {
      crs->parameters[p].values[crs->parameters[p].count++] = value;
      return;
    }
  }
  if (crs->nparameters < CRS_PARAMETERS_MAX) {
    crs->parameters[crs->nparameters++] = (CrsParameter){name, {value, 0}, 1};
  }
}

/* The CF parameters of the projection of horizontal (a projected CRS), where its method is in the table. */
static HclStatus read_projection(PJ_CONTEXT *ctx, const PJ *horizontal, Crs *crs) {
  HclStatus status = HCL_OK;
  PJ *conversion = proj_crs_get_coordoperation(ctx, horizontal);
  const char *method_name = NULL, *method_code = NULL;
  ASSERT(conversion != NULL);
  ASSERT(proj_coordoperation_get_method_info(ctx, conversion, &method_name, NULL, &method_code));
  snprintf(crs->method, sizeof crs->method, "%s", method_name ? method_name : "unnamed");
  const Mapping *mapping = mapping_of(method_code ? atoi(method_code) : 0);
  if (!mapping) {
    goto cleanup;
  }
  crs->grid_mapping_name = mapping->grid_mapping_name;
  for (int i = 0; i < proj_coordoperation_get_param_count(ctx, conversion); i++) {
    const char *code = NULL, *category = NULL, *unit = NULL;
    double value = 0, factor = 1;
    proj_coordoperation_get_param(ctx, conversion, i, NULL, NULL, &code, &value, NULL, &factor, &unit, NULL, NULL,
                                  &category);
    bool angle = category && strcmp(category, "angular") == 0;
    bool degrees = angle && unit && strcmp(unit, "degree") == 0; /* as it is: through radians 3 became 3 + 4e-16 */
    double converted = degrees ? value : angle ? value * factor * DEGREES_PER_RADIAN : value * factor;
    for (int k = 0; k < 6 && mapping->parameters[k].name; k++) {
      if (code && atoi(code) == mapping->parameters[k].parameter) {
        add_parameter(crs, mapping->parameters[k].name, converted);
      }
    }
    if (mapping->method == POLAR_STEREOGRAPHIC_B && code && atoi(code) == LAT_STANDARD_PARALLEL) {
      add_parameter(crs, "latitude_of_projection_origin", converted >= 0 ? 90.0 : -90.0);
    }
  }
cleanup:
  proj_destroy(conversion);
  return status;
}

/* The ellipsoid and prime meridian of horizontal. */
static void read_datum(PJ_CONTEXT *ctx, const PJ *horizontal, Crs *crs) {
  PJ *ellipsoid = proj_get_ellipsoid(ctx, horizontal), *meridian = proj_get_prime_meridian(ctx, horizontal);
  double b = 0, longitude = 0, factor = 1;
  int computed = 0;
  if (ellipsoid) {
    proj_ellipsoid_get_parameters(ctx, ellipsoid, &crs->semi_major_axis, &b, &computed, &crs->inverse_flattening);
  }
  if (meridian && proj_prime_meridian_get_parameters(ctx, meridian, &longitude, &factor, NULL)) {
    crs->longitude_of_prime_meridian = longitude * factor * DEGREES_PER_RADIAN;
  }
  proj_destroy(ellipsoid);
  proj_destroy(meridian);
}

/* Whether both axes of horizontal are in metres. */
static bool axes_in_metres(PJ_CONTEXT *ctx, const PJ *horizontal, char *unit, size_t size) {
  PJ *cs = proj_crs_get_coordinate_system(ctx, horizontal);
  bool metres = cs != NULL && proj_cs_get_axis_count(ctx, cs) == 2;
  for (int a = 0; metres && a < 2; a++) {
    double factor = 0;
    const char *name = NULL;
    proj_cs_get_axis_info(ctx, cs, a, NULL, NULL, NULL, &factor, &name, NULL, NULL);
    snprintf(unit, size, "%s", name ? name : "?");
    metres = factor == 1.0;
  }
  proj_destroy(cs);
  return metres;
}

/* The EPSG code of crs: its own identifier, else the one PROJ identifies with full confidence (a WKT text). */
static void read_epsg(PJ_CONTEXT *ctx, const PJ *pj, Crs *crs) {
  const char *authority = proj_get_id_auth_name(pj, 0), *code = proj_get_id_code(pj, 0);
  if (authority && code && strcmp(authority, "EPSG") == 0) {
    snprintf(crs->epsg, sizeof crs->epsg, "EPSG:%s", code);
    return;
  }
  int *confidence = NULL;
  PJ_OBJ_LIST *candidates = proj_identify(ctx, pj, "EPSG", NULL, &confidence);
  for (int i = 0; candidates && i < proj_list_get_count(candidates); i++) {
    PJ *candidate = proj_list_get(ctx, candidates, i);
    code = candidate ? proj_get_id_code(candidate, 0) : NULL;
    if (confidence[i] == 100 && code && !crs->epsg[0]) {
      snprintf(crs->epsg, sizeof crs->epsg, "EPSG:%s", code);
    }
    proj_destroy(candidate);
  }
  proj_int_list_destroy(confidence);
  proj_list_destroy(candidates);
}

/* The horizontal CRS of pj: pj itself when projected, the first part of a compound CRS (RD New + NAP height). */
static PJ *horizontal_of(PJ_CONTEXT *ctx, PJ *pj) {
  if (proj_get_type(pj) == PJ_TYPE_COMPOUND_CRS) {
    return proj_crs_get_sub_crs(ctx, pj, 0);
  }
  return proj_clone(ctx, pj);
}

static HclStatus read_crs(PJ_CONTEXT *ctx, const char *text, const char *origin, Crs *crs) {
  HclStatus status = HCL_OK;
  PJ *pj = proj_create(ctx, text), *horizontal = NULL;
  char unit[64] = "";
  REQUIRE(pj != NULL && proj_is_crs(pj), HCL_EDATA,
          "%s: grid.crs = '%.200s' is not a coordinate reference system PROJ knows (%s); give an EPSG code "
          "(EPSG:32631 for UTM zone 31N) or a WKT text",
          origin, text, pj ? "not a CRS" : proj_context_errno_string(ctx, proj_context_errno(ctx)));
  horizontal = horizontal_of(ctx, pj);
  snprintf(crs->name, sizeof crs->name, "%s", proj_get_name(pj) ? proj_get_name(pj) : "unnamed");
  REQUIRE(horizontal != NULL && proj_get_type(horizontal) == PJ_TYPE_PROJECTED_CRS, HCL_EDATA,
          "%s: grid.crs = '%.200s' (%s) is not a projected CRS: hydrocl's x and y are metres on a plane; give the "
          "projected CRS of the area (a UTM zone, EPSG:326NN north or 327NN south, or the national grid)",
          origin, text, crs->name);
  REQUIRE(axes_in_metres(ctx, horizontal, unit, sizeof unit), HCL_EDATA,
          "%s: grid.crs = '%.200s' (%s) measures x and y in %s; hydrocl's coordinates are metres: give a CRS in "
          "metres",
          origin, text, crs->name, unit);
  const char *wkt = proj_as_wkt(ctx, pj, PJ_WKT1_GDAL, NULL);
  wkt = wkt ? wkt : proj_as_wkt(ctx, pj, PJ_WKT2_2019, NULL);
  REQUIRE(wkt != NULL, HCL_EDATA, "%s: grid.crs = '%.200s': PROJ cannot write it as WKT", origin, text);
  crs->wkt = strdup(wkt);
  REQUIRE(crs->wkt != NULL, HCL_ENOMEM, "cannot copy the WKT of grid.crs");
  read_epsg(ctx, pj, crs);
  read_datum(ctx, horizontal, crs);
  TRY(read_projection(ctx, horizontal, crs));
cleanup:
  proj_destroy(horizontal);
  proj_destroy(pj);
  return status;
}
#endif

HclStatus hcl_crs_create(const char *text, const char *origin, Crs **out) {
  HclStatus status = HCL_OK;
  Crs *crs = NULL;
  *out = NULL;
#ifdef HYDROCL_HAVE_PROJ
  PJ_CONTEXT *ctx = proj_context_create();
  REQUIRE(ctx != NULL, HCL_ENOMEM, "cannot start PROJ");
  proj_log_level(ctx, PJ_LOG_NONE); /* its reasons come back in the message */
  TRY_ALLOC(crs, 1);
  crs->definition = strdup(text);
  REQUIRE(crs->definition != NULL, HCL_ENOMEM, "cannot hold grid.crs");
  TRY(read_crs(ctx, text, origin, crs));
  *out = crs;
  crs = NULL;
cleanup:
  if (ctx) {
    proj_context_destroy(ctx);
  }
#else
  FAIL(HCL_EUSAGE,
       "%s: grid.crs = '%.200s' needs PROJ, and this hydrocl was built without it; install libproj-dev and rebuild "
       "(meson setup --reconfigure build), or leave grid.crs out for local Cartesian coordinates",
       origin, text);
cleanup:
#endif
  hcl_crs_destroy(&crs);
  return status;
}

void hcl_crs_describe(const Crs *crs, char *out, size_t size) {
  snprintf(out, size, "%s%s%s%s, %s%s", crs->epsg, crs->epsg[0] ? " (" : "", crs->name, crs->epsg[0] ? ")" : "",
           crs->grid_mapping_name ? "CF " : "projection ",
           crs->grid_mapping_name ? crs->grid_mapping_name : crs->method);
  if (!crs->grid_mapping_name) {
    size_t used = strlen(out);
    snprintf(out + used, size - used, " (no CF grid mapping: the files carry its WKT only)");
  }
}

HclStatus hcl_crs_from_lonlat(const Crs *crs, int n, const double *lon, const double *lat, double *x, double *y,
                              const char *what) {
  HclStatus status = HCL_OK;
#ifdef HYDROCL_HAVE_PROJ
  PJ_CONTEXT *ctx = proj_context_create();
  PJ *given = NULL, *transform = NULL;
  REQUIRE(ctx != NULL, HCL_ENOMEM, "cannot start PROJ");
  proj_log_level(ctx, PJ_LOG_NONE);
  given = proj_create_crs_to_crs(ctx, "EPSG:4326", crs->definition, NULL);
  transform = given ? proj_normalize_for_visualization(ctx, given) : NULL; /* longitude first, as given here */
  REQUIRE(transform != NULL, HCL_EDATA, "%s: PROJ cannot transform WGS 84 longitude and latitude into %s: %s", what,
          crs->name, proj_context_errno_string(ctx, proj_context_errno(ctx)));
  for (int i = 0; i < n; i++) {
    PJ_COORD c = proj_trans(transform, PJ_FWD, proj_coord(lon[i], lat[i], 0, 0));
    REQUIRE(isfinite(c.xy.x) && isfinite(c.xy.y), HCL_EDATA,
            "%s: longitude %g, latitude %g degrees cannot be projected into %s (%s)", what, lon[i], lat[i], crs->name,
            proj_context_errno_string(ctx, proj_context_errno(ctx)));
    x[i] = c.xy.x;
    y[i] = c.xy.y;
  }
cleanup:
  proj_destroy(transform);
  proj_destroy(given);
  if (ctx) {
    proj_context_destroy(ctx);
  }
#else
  (void)n;
  (void)lon;
  (void)lat;
  (void)x;
  (void)y;
  FAIL(HCL_EUSAGE,
       "%s: longitude and latitude need PROJ to project them into %s, and this hydrocl was built without "
       "it; install libproj-dev and rebuild (meson setup --reconfigure build)",
       what, crs->name);
cleanup:
#endif
  return status;
}

void hcl_crs_destroy(Crs **crs) {
  if (!crs || !*crs) {
    return;
  }
  free((*crs)->definition);
  free((*crs)->wkt);
  free(*crs);
  *crs = NULL;
}
