/* SPDX-License-Identifier: BSD-3-Clause */
/* raster.c: gridded inputs through GDAL, warped onto a model's grid (see raster.h and inputs.h). */
#include "raster.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HYDROCL_HAVE_GDAL
#include <cpl_error.h>
#include <cpl_string.h>
#include <gdal.h>
#include <gdal_utils.h>
#include <ogr_srs_api.h>

bool raster_available(void) {
  return true;
}

const char *raster_hint(void) {
  return "";
}

/* GDAL's drivers, registered once; its own messages are kept for ours (gdal_reason), not printed. */
static void gdal_start(void) {
  static bool started = false;
  if (!started) {
    GDALAllRegister();
    CPLSetErrorHandler(CPLQuietErrorHandler);
    started = true;
  }
}

static const char *gdal_reason(void) {
  const char *message = CPLGetLastErrorMsg();
  return message && message[0] ? message : "GDAL gives no reason";
}

/* A raster being read: the dataset, its georeferencing, its CRS and the grid's, and the transformation between them
 * (NULL where there is nothing to transform: the same CRS, or one of them unknown). */
typedef struct {
  GDALDatasetH dataset;
  int width, height;
  double transform[6];           /* pixel edge (p, l) at x = t0 + p t1 + l t2, y = t3 + p t4 + l t5 */
  OGRSpatialReferenceH crs;      /* the raster's; NULL: it has none */
  OGRSpatialReferenceH grid_crs; /* grid.crs; NULL: local metres */
  OGRCoordinateTransformationH to_grid;
} Raster;

static void raster_close(Raster *r) {
  if (r->to_grid) {
    OCTDestroyCoordinateTransformation(r->to_grid);
  }
  if (r->crs) {
    OSRDestroySpatialReference(r->crs);
  }
  if (r->grid_crs) {
    OSRDestroySpatialReference(r->grid_crs);
  }
  if (r->dataset) {
    GDALClose(r->dataset);
  }
  memset(r, 0, sizeof *r);
}

/* x, y of the raster's pixel position (p, l), in its own CRS. */
static void pixel_position(const Raster *r, double p, double l, double *x, double *y) {
  *x = r->transform[0] + p * r->transform[1] + l * r->transform[2];
  *y = r->transform[3] + p * r->transform[4] + l * r->transform[5];
}

/* Opens path (its netCDF variable, where named) as a georeferenced single-band raster. */
static HclStatus raster_open(const char *path, const char *variable, Raster *r) {
  HclStatus status = HCL_OK;
  char name[4096];
  if (variable) {
    snprintf(name, sizeof name, "NETCDF:\"%s\":%s", path, variable);
  } else {
    snprintf(name, sizeof name, "%s", path);
  }
  gdal_start();
  CPLErrorReset();
  r->dataset = GDALOpenEx(name, GDAL_OF_RASTER | GDAL_OF_READONLY, NULL, NULL, NULL);
  REQUIRE(r->dataset != NULL, HCL_EDATA, "%s: GDAL cannot read it as a raster: %s", path, gdal_reason());
  r->width = GDALGetRasterXSize(r->dataset);
  r->height = GDALGetRasterYSize(r->dataset);
  int bands = GDALGetRasterCount(r->dataset);
  REQUIRE(bands == 1, HCL_EDATA, "%s: holds %d bands; a gridded input is a raster of one band%s", path, bands,
          bands == 0 ? " (a netCDF file of several variables: name one)" : "");
  REQUIRE(GDALGetGeoTransform(r->dataset, r->transform) == CE_None, HCL_EDATA,
          "%s: has no georeferencing (no geotransform); hydrocl places a raster on the grid by its coordinates", path);
  OGRSpatialReferenceH crs = GDALGetSpatialRef(r->dataset);
  if (crs) {
    r->crs = OSRClone(crs);
    OSRSetAxisMappingStrategy(r->crs, OAMS_TRADITIONAL_GIS_ORDER);
  }
cleanup:
  return status;
}

/* The grid's CRS for GDAL, and the transformation from the raster's into it; refuses what cannot be placed: a
 * geographic raster on a grid without a CRS, a raster in feet on one (its numbers are not the grid's metres). */
static HclStatus relate_crs(const char *path, const Crs *grid_crs, Raster *r) {
  HclStatus status = HCL_OK;
  if (grid_crs) {
    r->grid_crs = OSRNewSpatialReference(NULL);
    REQUIRE(OSRSetFromUserInput(r->grid_crs, grid_crs->wkt) == OGRERR_NONE, HCL_EDATA,
            "%s: GDAL cannot read the grid's CRS %s: %s", path, grid_crs->definition, gdal_reason());
    OSRSetAxisMappingStrategy(r->grid_crs, OAMS_TRADITIONAL_GIS_ORDER);
  }
  if (r->crs && r->grid_crs && !OSRIsSame(r->crs, r->grid_crs)) {
    r->to_grid = OCTNewCoordinateTransformation(r->crs, r->grid_crs);
    REQUIRE(r->to_grid != NULL, HCL_EDATA, "%s: GDAL cannot transform its CRS (%s) into the grid's (%s): %s", path,
            OSRGetName(r->crs), grid_crs->name, gdal_reason());
  }
  if (r->crs && !r->grid_crs) {
    REQUIRE(!OSRIsGeographic(r->crs), HCL_EDATA,
            "%s: its coordinates are longitude and latitude (%s); set grid.crs, the grid's projected CRS, to place it "
            "on the grid",
            path, OSRGetName(r->crs));
    double metres = OSRGetLinearUnits(r->crs, NULL);
    REQUIRE(fabs(metres - 1) < 1e-12, HCL_EDATA,
            "%s: its coordinates are in units of %g m (%s), the grid's in metres; set grid.crs so that it is "
            "reprojected",
            path, metres, OSRGetName(r->crs));
  }
cleanup:
  return status;
}

/* The raster's extent (its pixels' outer edges) in the grid's CRS: xy[0..3] = x min, y min, x max, y max. */
static HclStatus grid_extent(const char *path, const Raster *r, double xy[4]) {
  HclStatus status = HCL_OK;
  double x[4], y[4];
  const double corners[4][2] = {{0, 0}, {r->width, 0}, {0, r->height}, {r->width, r->height}};
  for (int k = 0; k < 4; k++) {
    pixel_position(r, corners[k][0], corners[k][1], &x[k], &y[k]);
  }
  xy[0] = fmin(fmin(x[0], x[1]), fmin(x[2], x[3]));
  xy[1] = fmin(fmin(y[0], y[1]), fmin(y[2], y[3]));
  xy[2] = fmax(fmax(x[0], x[1]), fmax(x[2], x[3]));
  xy[3] = fmax(fmax(y[0], y[1]), fmax(y[2], y[3]));
  if (r->to_grid) { /* the bounds of the edges, 21 points along each (a projection bends them) */
    double out[4];
    REQUIRE(OCTTransformBounds(r->to_grid, xy[0], xy[1], xy[2], xy[3], &out[0], &out[1], &out[2], &out[3], 21),
            HCL_EDATA, "%s: GDAL cannot transform its extent into the grid's CRS: %s", path, gdal_reason());
    memcpy(xy, out, sizeof out);
  }
cleanup:
  return status;
}

/* The size of the pixel at the raster's centre, across and along, in the grid's metres. */
static HclStatus pixel_size_on_grid(const char *path, const Raster *r, double size[2]) {
  HclStatus status = HCL_OK;
  double x[3], y[3];
  double p = 0.5 * r->width, l = 0.5 * r->height;
  pixel_position(r, p, l, &x[0], &y[0]);
  pixel_position(r, p + 1, l, &x[1], &y[1]);
  pixel_position(r, p, l + 1, &x[2], &y[2]);
  if (r->to_grid) {
    REQUIRE(OCTTransform(r->to_grid, 3, x, y, NULL), HCL_EDATA,
            "%s: GDAL cannot transform its centre into the grid's CRS: %s", path, gdal_reason());
  }
  size[0] = hypot(x[1] - x[0], y[1] - y[0]);
  size[1] = hypot(x[2] - x[0], y[2] - y[0]);
cleanup:
  return status;
}

/* Refuses a raster whose extent (in the grid's CRS) does not hold every one of the grid's points. */
static HclStatus require_cover(const char *path, const InputAxes *axes, int nx, int ny, const double extent[4]) {
  HclStatus status = HCL_OK;
  double x_last = axes->x0 + (nx - 1) * axes->dx, y_last = axes->y0 + (ny - 1) * axes->dy;
  REQUIRE(extent[0] <= axes->x0 && x_last <= extent[2] && extent[1] <= axes->y0 && y_last <= extent[3], HCL_EDATA,
          "%s: the raster covers x %.10g to %.10g m, y %.10g to %.10g m (in the grid's CRS), the grid's points lie at "
          "x %.10g to %.10g m, y %.10g to %.10g m (%s): it must cover every point (is it the right file, in the right "
          "CRS?)",
          path, extent[0], extent[2], extent[1], extent[3], axes->x0, x_last, axes->y0, y_last, axes->keys);
cleanup:
  return status;
}

/* GDAL's resampling for the sampling asked and the two resolutions, and its name for validate. */
static const char *resampling(InputSampling sampling, const InputAxes *axes, const double pixel[2],
                              const char **described) {
  if (sampling == INPUT_CLASSES) {
    *described = "nearest pixel (classes: never mixed)";
    return "near";
  }
  if (axes->dx > pixel[0] && axes->dy > pixel[1]) {
    *described = "average of the pixels in each cell (the grid is coarser than the raster)";
    return "average";
  }
  *described = "bilinear";
  return "bilinear";
}

/* Warps the raster onto the grid's points: a north-up target whose pixel (i, ny - 1 - j) is centred on point (i, j),
 * exact transformation (error threshold 0), NaN where no value lands; values[ny][nx] south-up as the models hold
 * them. */
static HclStatus warp(const char *path, const Raster *r, const InputAxes *axes, int nx, int ny, const char *method,
                      double *values) {
  HclStatus status = HCL_OK;
  char **argv = NULL, text[4][32];
  GDALWarpAppOptions *options = NULL;
  GDALDatasetH warped = NULL;
  double *north_up = NULL;
  const double edges[4] = {axes->x0 - axes->dx / 2, axes->y0 - axes->dy / 2, axes->x0 + (nx - 0.5) * axes->dx,
                           axes->y0 + (ny - 0.5) * axes->dy};
  const char *fixed[] = {"-of", "MEM", "-ot", "Float64", "-r", method, "-et", "0", "-dstnodata", "nan", "-te"};
  for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++) {
    argv = CSLAddString(argv, fixed[k]);
  }
  for (int k = 0; k < 4; k++) {
    snprintf(text[k], sizeof text[k], "%.17g", edges[k]);
    argv = CSLAddString(argv, text[k]);
  }
  snprintf(text[0], sizeof text[0], "%d", nx);
  snprintf(text[1], sizeof text[1], "%d", ny);
  argv = CSLAddString(CSLAddString(CSLAddString(argv, "-ts"), text[0]), text[1]);
  if (r->to_grid) {
    char *wkt = NULL;
    OSRExportToWkt(r->grid_crs, &wkt);
    argv = CSLAddString(CSLAddString(argv, "-t_srs"), wkt);
    CPLFree(wkt);
  }
  options = GDALWarpAppOptionsNew(argv, NULL);
  REQUIRE(options != NULL, HCL_EINTERNAL, "%s: GDAL refuses the warp's options: %s", path, gdal_reason());
  GDALDatasetH source = r->dataset;
  CPLErrorReset();
  warped = GDALWarp("", NULL, 1, &source, options, NULL);
  REQUIRE(warped != NULL, HCL_EDATA, "%s: GDAL cannot warp it onto the grid: %s", path, gdal_reason());
  size_t n = (size_t)nx * ny;
  TRY_ALLOC(north_up, n);
  REQUIRE(GDALRasterIO(GDALGetRasterBand(warped, 1), GF_Read, 0, 0, nx, ny, north_up, nx, ny, GDT_Float64, 0, 0) ==
              CE_None,
          HCL_EIO, "%s: GDAL cannot read the warped values: %s", path, gdal_reason());
  for (int j = 0; j < ny; j++) {
    memcpy(values + (size_t)j * nx, north_up + (size_t)(ny - 1 - j) * nx, (size_t)nx * sizeof *values);
  }
cleanup:
  free(north_up);
  if (warped) {
    GDALClose(warped);
  }
  GDALWarpAppOptionsFree(options);
  CSLDestroy(argv);
  return status;
}

/* value = raw scale + offset, the band's (a packed netCDF variable's scale_factor and add_offset): the warper
 * carries raw values, and every resampling is linear in them. */
static void unpack(const Raster *r, double *values, size_t n) {
  GDALRasterBandH band = GDALGetRasterBand(r->dataset, 1);
  double scale = GDALGetRasterScale(band, NULL), offset = GDALGetRasterOffset(band, NULL);
  for (size_t p = 0; p < n; p++) {
    values[p] = values[p] * scale + offset;
  }
}

/* The rule for a point without a value (the raster's nodata there, or a NaN): refused, naming the first and how many;
 * a grid needs a value at every point, and no fill hydrocl could choose is the user's. */
static HclStatus refuse_gaps(const char *path, const Raster *r, const InputAxes *axes, int nx, int ny,
                             const double *values) {
  HclStatus status = HCL_OK;
  size_t gaps = 0, first = 0;
  for (size_t p = (size_t)nx * ny; p-- > 0;) {
    if (isnan(values[p])) {
      gaps++;
      first = p;
    }
  }
  int has_nodata = 0;
  double nodata = GDALGetRasterNoDataValue(GDALGetRasterBand(r->dataset, 1), &has_nodata);
  char marked[64] = "NaN";
  if (has_nodata && !isnan(nodata)) {
    snprintf(marked, sizeof marked, "its nodata value %.10g, or NaN", nodata);
  }
  REQUIRE(gaps == 0, HCL_EDATA,
          "%s: no value at %zu of the grid's %d points, the first at x %.10g m, y %.10g m (cell %zu, %zu): the raster "
          "holds %s there; a grid needs a value at every point: fill the raster's gaps (gdal_fillnodata.py) or give "
          "them a value",
          path, gaps, nx * ny, axes->x0 + (double)(first % (size_t)nx) * axes->dx,
          axes->y0 + (double)(first / (size_t)nx) * axes->dy, first % (size_t)nx, first / (size_t)nx, marked);
cleanup:
  return status;
}

/* "EPSG:28992 (Amersfoort / RD New)", the name alone, or "no CRS". */
static void describe_crs(OGRSpatialReferenceH crs, char *text, size_t size) {
  const char *authority = crs ? OSRGetAuthorityName(crs, NULL) : NULL;
  const char *code = crs ? OSRGetAuthorityCode(crs, NULL) : NULL;
  if (!crs) {
    snprintf(text, size, "no CRS");
  } else if (authority && code) {
    snprintf(text, size, "%s:%s (%s)", authority, code, OSRGetName(crs));
  } else {
    snprintf(text, size, "%s", OSRGetName(crs));
  }
}

static void describe(const Raster *r, const char *resampled, InputSource *source) {
  char crs[256];
  double extent[4];
  describe_crs(r->crs, crs, sizeof crs);
  pixel_position(r, 0, 0, &extent[0], &extent[1]);
  pixel_position(r, r->width, r->height, &extent[2], &extent[3]);
  char *linear = NULL;
  const char *unit = !r->crs                                   ? "m"
                     : OSRIsGeographic(r->crs)                 ? "degrees"
                     : OSRGetLinearUnits(r->crs, &linear) == 1 ? "m"
                                                               : linear;
  const char *placed = r->to_grid    ? "reprojected onto the grid's CRS"
                       : r->grid_crs ? (r->crs ? "in the grid's CRS" : "taken to be in the grid's CRS")
                                     : "its coordinates taken as the grid's (grid.crs is not set)";
  snprintf(source->text, sizeof source->text,
           "%s raster, %d x %d pixels of %.6g x %.6g %s, %s, x %.10g to %.10g, y %.10g to %.10g (%s); %s, %s",
           GDALGetDriverShortName(GDALGetDatasetDriver(r->dataset)), r->width, r->height,
           hypot(r->transform[1], r->transform[4]), hypot(r->transform[2], r->transform[5]), unit, crs,
           fmin(extent[0], extent[2]), fmax(extent[0], extent[2]), fmin(extent[1], extent[3]),
           fmax(extent[1], extent[3]), r->transform[5] < 0 ? "north-up" : "south-up", placed, resampled);
}

HclStatus raster_read(const char *path, const char *variable, int nx, int ny, const InputAxes *axes, double *values,
                      InputSource *source) {
  HclStatus status = HCL_OK;
  Raster r = {0};
  double extent[4], pixel[2] = {0, 0};
  const char *resampled = NULL;
  TRY(hcl_input_check_file(path, NULL, NULL));
  REQUIRE(axes != NULL, HCL_EDATA,
          "%s: a raster is placed by its coordinates, and a curvilinear grid's points are not a raster's: give the "
          "values at the grid's points (netCDF or CSV)",
          path);
  TRY(raster_open(path, variable, &r));
  TRY(relate_crs(path, axes->crs, &r));
  TRY(grid_extent(path, &r, extent));
  TRY(require_cover(path, axes, nx, ny, extent));
  TRY(pixel_size_on_grid(path, &r, pixel));
  const char *method = resampling(axes->sampling, axes, pixel, &resampled);
  TRY(warp(path, &r, axes, nx, ny, method, values));
  TRY(refuse_gaps(path, &r, axes, nx, ny, values));
  unpack(&r, values, (size_t)nx * ny);
  if (source) {
    describe(&r, resampled, source);
  }
cleanup:
  raster_close(&r);
  return status;
}

bool raster_georeferenced(const char *path, const char *variable) {
  Raster r = {0};
  HclStatus status = raster_open(path, variable, &r);
  raster_close(&r);
  hcl_status_clear();
  return status == HCL_OK;
}

#else /* no GDAL */

bool raster_georeferenced(const char *path, const char *variable) {
  (void)path, (void)variable;
  return false;
}

bool raster_available(void) {
  return false;
}

const char *raster_hint(void) {
  return " (a build with GDAL resamples a raster onto the grid: install libgdal-dev and configure with "
         "-Dgdal=enabled)";
}

HclStatus raster_read(const char *path, const char *variable, int nx, int ny, const InputAxes *axes, double *values,
                      InputSource *source) {
  (void)variable, (void)nx, (void)ny, (void)axes, (void)values, (void)source;
  HclStatus status = HCL_OK;
  FAIL(HCL_EUSAGE,
       "'%s' is neither netCDF on the grid's points (.nc) nor CSV (.csv, .txt): a raster (GeoTIFF, ESRI ASCII grid, "
       "VRT, ...) needs a build with GDAL: install libgdal-dev and configure with -Dgdal=enabled",
       path);
cleanup:
  return status;
}

#endif
