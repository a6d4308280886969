/* SPDX-License-Identifier: BSD-3-Clause */
/* test_raster.c: a bed given as a raster through GDAL. One analytic surface, written north-up and south-up, as
 * GeoTIFF, ESRI ASCII grid and netCDF, and in two other CRSs (longitude and latitude, and the European LAEA grid),
 * lands on a UTM grid as the surface itself, to the resampling's error; a grid coarser than the raster gets each
 * cell's average, a mask the nearest pixel's class; a raster that does not cover the grid or lies elsewhere, one with
 * a gap under the grid, one in degrees on a grid without a CRS and one without georeferencing are refused. */
#include <cpl_conv.h>
#include <gdal.h>
#include <math.h>
#include <ogr_srs_api.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crs.h"
#include "inputs.h"
#include "../support/tap.h"

static char folder[] = "/tmp/hydrocl-raster-XXXXXX";

/* The model grid: 40 x 30 cells of 25 m in UTM zone 31N (EPSG:32631), edges x 500000 to 501000, y 5800000 to
 * 5800750 (3.007 E, 52.35 N); centres from (500012.5, 5800012.5). */
enum { NX = 40, NY = 30 };
static const double X0 = 500012.5, Y0 = 5800012.5, SPACING = 25;
static const double XC = 500500, YC = 5800375; /* the surface's centre */

/* The bed's surface in the grid's metres: a plane and a product of sines of wavelength L = 1000 m, amplitude A =
 * 1 m. Its second derivatives are at most A k^2 = 3.95e-5 1/m (k = 2 pi / L). */
static const double AMPLITUDE = 1, WAVENUMBER = 2 * 3.14159265358979323846 / 1000;
static double surface(double x, double y) {
  return 2 + 1e-3 * (x - XC) - 5e-4 * (y - YC) + AMPLITUDE * sin(WAVENUMBER * (x - XC)) * cos(WAVENUMBER * (y - YC));
}

/* The surface's mean over the square cell of side s centred on (x, y): the plane is its own mean; sin and cos
 * average to themselves times sin(k s / 2) / (k s / 2) each. */
static double cell_mean(double x, double y, double s) {
  double a = WAVENUMBER * s / 2, sinc = sin(a) / a;
  return 2 + 1e-3 * (x - XC) - 5e-4 * (y - YC) +
         AMPLITUDE * sinc * sinc * sin(WAVENUMBER * (x - XC)) * cos(WAVENUMBER * (y - YC));
}

/* Bilinear interpolation's error bound for pixels of hx x hy: (hx^2 |z_uu| + hy^2 |z_vv|) / 8 along the pixels'
 * axes u, v. Along the grid's axes |z_xx|, |z_yy| <= A k^2; along axes turned from them (another CRS) the Hessian's
 * eigenvalues bound it, -A k^2 (f +- g) with f = sin cos and g = cos sin, |f +- g| <= sqrt(2). */
static double bilinear_bound(double hx, double hy, bool turned) {
  return (hx * hx + hy * hy) / 8 * AMPLITUDE * WAVENUMBER * WAVENUMBER * (turned ? sqrt(2) : 1);
}

/* A raster to write: its driver, CRS (an EPSG code, 0 for none), pixel-edge origin and pixel size (py < 0:
 * north-up; px 0: no georeferencing), and what its pixels hold. */
typedef struct {
  const char *driver;
  int epsg;
  double x, y, px, py;
  int width, height;
  double (*value)(double x, double y); /* at a pixel centre, in the grid's CRS */
  double nodata;                       /* NaN: none */
  double hole[4];                      /* grid x min, y min, x max, y max holding nodata; all 0: none */
} RasterSpec;

static bool in_hole(const RasterSpec *spec, double x, double y) {
  return spec->hole[2] > spec->hole[0] && x >= spec->hole[0] && x <= spec->hole[2] && y >= spec->hole[1] &&
         y <= spec->hole[3];
}

/* Writes spec as folder/name through an in-memory raster and the driver's CreateCopy (ESRI ASCII grids have no
 * Create). Pixel centres are transformed into the grid's CRS for their values. */
static const char *write_raster(const char *name, const RasterSpec *spec) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", folder, name);
  GDALDatasetH mem = GDALCreate(GDALGetDriverByName("MEM"), "", spec->width, spec->height, 1, GDT_Float64, NULL);
  double transform[6] = {spec->x, spec->px, 0, spec->y, 0, spec->py};
  if (spec->px != 0) {
    GDALSetGeoTransform(mem, transform);
  }
  OGRSpatialReferenceH crs = NULL, grid = NULL;
  OGRCoordinateTransformationH to_grid = NULL;
  if (spec->epsg) {
    crs = OSRNewSpatialReference(NULL);
    OSRImportFromEPSG(crs, spec->epsg);
    OSRSetAxisMappingStrategy(crs, OAMS_TRADITIONAL_GIS_ORDER);
    GDALSetSpatialRef(mem, crs);
    if (spec->epsg != 32631) {
      grid = OSRNewSpatialReference(NULL);
      OSRImportFromEPSG(grid, 32631);
      OSRSetAxisMappingStrategy(grid, OAMS_TRADITIONAL_GIS_ORDER);
      to_grid = OCTNewCoordinateTransformation(crs, grid);
    }
  }
  size_t n = (size_t)spec->width * spec->height;
  double *values = malloc(n * sizeof *values), *xs = malloc(n * sizeof *xs), *ys = malloc(n * sizeof *ys);
  for (int l = 0; l < spec->height; l++) {
    for (int p = 0; p < spec->width; p++) {
      xs[(size_t)l * spec->width + p] = spec->x + (p + 0.5) * spec->px;
      ys[(size_t)l * spec->width + p] = spec->y + (l + 0.5) * spec->py;
    }
  }
  if (to_grid) {
    OCTTransform(to_grid, (int)n, xs, ys, NULL);
  }
  for (size_t k = 0; k < n; k++) {
    values[k] = in_hole(spec, xs[k], ys[k]) ? spec->nodata : spec->value(xs[k], ys[k]);
  }
  GDALRasterBandH band = GDALGetRasterBand(mem, 1);
  if (!isnan(spec->nodata)) {
    GDALSetRasterNoDataValue(band, spec->nodata);
  }
  if (GDALRasterIO(band, GF_Write, 0, 0, spec->width, spec->height, values, spec->width, spec->height, GDT_Float64, 0,
                   0) != CE_None) {
    path[0] = '\0';
  }
  GDALDatasetH file = GDALCreateCopy(GDALGetDriverByName(spec->driver), path, mem, FALSE, NULL, NULL, NULL);
  if (!file) {
    path[0] = '\0';
  } else {
    GDALClose(file);
  }
  GDALClose(mem);
  free(values), free(xs), free(ys);
  if (to_grid) {
    OCTDestroyCoordinateTransformation(to_grid);
  }
  OSRDestroySpatialReference(crs);
  OSRDestroySpatialReference(grid);
  return path;
}

static Crs *utm = NULL;

static InputAxes cells(InputSampling sampling, const Crs *crs) {
  return (InputAxes){
      .x0 = X0, .dx = SPACING, .y0 = Y0, .dy = SPACING, .keys = "the test's cells", .crs = crs, .sampling = sampling};
}

static HclStatus read_bed(const char *path, InputSampling sampling, const Crs *crs, double *bed, InputSource *source) {
  hcl_status_clear();
  InputAxes axes = cells(sampling, crs);
  return hcl_input_read_grid(path, NULL, NX, NY, &axes, bed, source);
}

/* The largest |bed - expected(x, y)| over the grid's points. */
static double worst(const double *bed, double (*expected)(double x, double y)) {
  double most = 0;
  for (int j = 0; j < NY; j++) {
    for (int i = 0; i < NX; i++) {
      most = fmax(most, fabs(bed[j * NX + i] - expected(X0 + i * SPACING, Y0 + j * SPACING)));
    }
  }
  return most;
}

static double worst_apart(const double *a, const double *b) {
  double most = 0;
  for (int p = 0; p < NX * NY; p++) {
    most = fmax(most, fabs(a[p] - b[p]));
  }
  return most;
}

static double mean_25(double x, double y) {
  return cell_mean(x, y, 25);
}

/* A north-up raster in EPSG epsg of px x py pixels (its units) over the grid's cells and 3 pixels beyond: the
 * cells' extent transformed into its CRS. */
static RasterSpec covering(const char *driver, int epsg, double px, double py) {
  OGRSpatialReferenceH grid = OSRNewSpatialReference(NULL), crs = OSRNewSpatialReference(NULL);
  OSRImportFromEPSG(grid, 32631);
  OSRImportFromEPSG(crs, epsg);
  OSRSetAxisMappingStrategy(grid, OAMS_TRADITIONAL_GIS_ORDER);
  OSRSetAxisMappingStrategy(crs, OAMS_TRADITIONAL_GIS_ORDER);
  OGRCoordinateTransformationH to_raster = OCTNewCoordinateTransformation(grid, crs);
  double lo[2], hi[2];
  OCTTransformBounds(to_raster, X0 - SPACING / 2, Y0 - SPACING / 2, X0 + (NX - 0.5) * SPACING,
                     Y0 + (NY - 0.5) * SPACING, &lo[0], &lo[1], &hi[0], &hi[1], 21);
  OCTDestroyCoordinateTransformation(to_raster);
  OSRDestroySpatialReference(grid);
  OSRDestroySpatialReference(crs);
  return (RasterSpec){.driver = driver,
                      .epsg = epsg,
                      .x = lo[0] - 3 * px,
                      .y = hi[1] + 3 * py,
                      .px = px,
                      .py = -py,
                      .width = (int)ceil((hi[0] - lo[0]) / px) + 6,
                      .height = (int)ceil((hi[1] - lo[1]) / py) + 6,
                      .value = surface,
                      .nodata = NAN};
}

static void test_formats_and_orientations(void) {
  static double reference[NX * NY], bed[NX * NY];
  InputSource source;
  RasterSpec north = covering("GTiff", 32631, 30, 30);
  HclStatus s = read_bed(write_raster("north.tif", &north), INPUT_LEVELS, utm, reference, &source);
  /* Pixels of 30 m, bilinear: the surface to (30^2 + 30^2) / 8 A k^2 = 8.9e-3 m. */
  TAP_OK(s == HCL_OK && worst(reference, surface) <= bilinear_bound(30, 30, false),
         "a north-up GeoTIFF of 30 m pixels is the surface on the 25 m grid to bilinear's bound %.3g m (%s; worst "
         "%.3g m)",
         bilinear_bound(30, 30, false), s ? hcl_status_message() : source.text, worst(reference, surface));
  TAP_OK(strstr(source.text, "GTiff") && strstr(source.text, "EPSG:32631") && strstr(source.text, "north-up") &&
             strstr(source.text, "bilinear") && strstr(source.text, "in the grid's CRS"),
         "validate's line names the format, CRS, orientation and resampling: %s", source.text);

  RasterSpec south = north;
  south.y = north.y + north.height * north.py, south.py = -north.py;
  s = read_bed(write_raster("south.tif", &south), INPUT_LEVELS, utm, bed, &source);
  /* The same pixels, rows stored the other way: the same arithmetic, so the same values to rounding. */
  TAP_OK(s == HCL_OK && worst_apart(bed, reference) <= 1e-12 && strstr(source.text, "south-up"),
         "a south-up GeoTIFF of the same pixels gives the same bed (%s; worst %.3g m)",
         s ? hcl_status_message() : source.text, worst_apart(bed, reference));

  RasterSpec ascii = covering("AAIGrid", 32631, 30, 30);
  s = read_bed(write_raster("dem.asc", &ascii), INPUT_LEVELS, utm, bed, &source);
  /* GDAL writes the CRS beside it (dem.prj, ESRI's WKT, without the EPSG code) and the values to 8 significant
   * digits (its default), 5e-8 of values up to 5 m: 2.5e-7 m. */
  TAP_OK(s == HCL_OK && worst_apart(bed, reference) <= 2.5e-7 && strstr(source.text, "AAIGrid"),
         "the same pixels as an ESRI ASCII grid give the same bed (%s; worst %.3g m)",
         s ? hcl_status_message() : source.text, worst_apart(bed, reference));

  RasterSpec netcdf = covering("netCDF", 32631, 30, 30);
  s = read_bed(write_raster("dem.nc", &netcdf), INPUT_LEVELS, utm, bed, &source);
  /* A netCDF file off the grid's points (30 m, not the grid's 25) goes through GDAL like any raster. */
  TAP_OK(s == HCL_OK && worst_apart(bed, reference) <= 1e-12 && strstr(source.text, "netCDF"),
         "the same pixels as netCDF (x, y coordinates and a grid mapping) give the same bed (%s; worst %.3g m)",
         s ? hcl_status_message() : source.text, worst_apart(bed, reference));
}

static void test_other_crs(void) {
  static double bed[NX * NY];
  InputSource source;
  /* Longitude and latitude: pixels of 0.0005 x 0.0003 degrees, 34 x 33 m at 52.35 N (a degree of longitude is
   * 68.2 km there, of latitude 111.3 km), coarser than the grid: bilinear, along axes turned from the grid's by
   * the meridians' convergence (0.006 degrees here): the bound of 34 x 34 m pixels. */
  RasterSpec geographic = covering("GTiff", 4326, 0.0005, 0.0003);
  HclStatus s = read_bed(write_raster("lonlat.tif", &geographic), INPUT_LEVELS, utm, bed, &source);
  double bound = bilinear_bound(34, 34, true);
  TAP_OK(s == HCL_OK && worst(bed, surface) <= bound && strstr(source.text, "reprojected") &&
             strstr(source.text, "EPSG:4326") && strstr(source.text, "bilinear"),
         "a raster in longitude and latitude, reprojected, is the surface to %.3g m (%s; worst %.3g m)", bound,
         s ? hcl_status_message() : source.text, worst(bed, surface));

  /* ETRS89 LAEA Europe (EPSG:3035): metres, its axes turned from UTM 31N's; 30 m pixels. */
  RasterSpec laea = covering("GTiff", 3035, 30, 30);
  s = read_bed(write_raster("laea.tif", &laea), INPUT_LEVELS, utm, bed, &source);
  bound = bilinear_bound(30, 30, true);
  TAP_OK(s == HCL_OK && worst(bed, surface) <= bound && strstr(source.text, "EPSG:3035"),
         "a raster in ETRS89 LAEA, reprojected, is the surface to %.3g m (%s; worst %.3g m)", bound,
         s ? hcl_status_message() : source.text, worst(bed, surface));
}

static double class_of(double x, double y) {
  return x + 0.3 * (y - YC) > 500505 ? 1 : 0; /* land east of a slanted shore, through no cell centre */
}

static void test_average_and_classes(void) {
  static double bed[NX * NY];
  InputSource source;
  RasterSpec fine = {.driver = "GTiff",
                     .epsg = 32631,
                     .x = 499900,
                     .y = 5800850,
                     .px = 5,
                     .py = -5,
                     .width = 240,
                     .height = 190,
                     .value = surface,
                     .nodata = NAN};
  HclStatus s = read_bed(write_raster("fine.tif", &fine), INPUT_LEVELS, utm, bed, &source);
  /* 5 m pixels, 25 m cells, edges aligned: each cell the mean of its 25 pixels, which is the surface's cell mean but
   * for the midpoint rule's (h^2 / 24) (|z_xx| + |z_yy|) = 8.2e-5 m; the point value differs from the mean by up to
   * A (1 - sinc^2) = 2.1e-3 m, so a bilinear sample would fail this. */
  double bound = 5.0 * 5 / 24 * 2 * AMPLITUDE * WAVENUMBER * WAVENUMBER;
  TAP_OK(s == HCL_OK && worst(bed, mean_25) <= bound && strstr(source.text, "average"),
         "a raster finer than the grid gives each cell its pixels' average, the cell mean to %.3g m (%s; worst %.3g "
         "m)",
         bound, s ? hcl_status_message() : source.text, worst(bed, mean_25));

  RasterSpec mask = fine;
  mask.value = class_of;
  s = read_bed(write_raster("mask.tif", &mask), INPUT_CLASSES, utm, bed, &source);
  TAP_OK(s == HCL_OK && worst(bed, class_of) == 0 && strstr(source.text, "nearest"),
         "a mask takes its nearest pixel's class, never a mix (%s; worst %g)", s ? hcl_status_message() : source.text,
         worst(bed, class_of));
}

static void test_refusals(void) {
  static double bed[NX * NY];
  RasterSpec half = covering("GTiff", 32631, 30, 30);
  half.width = 20; /* x 499910 to 500510: the grid's points run to 500987.5 */
  HclStatus s = read_bed(write_raster("half.tif", &half), INPUT_LEVELS, utm, bed, NULL);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "covers x 499910 to 500510 m") &&
             tap_contains(hcl_status_message(), "x 500012.5 to 500987.5 m, y 5800012.5 to 5800737.5 m"),
         "a raster that does not cover the grid is refused naming both extents: %s", hcl_status_message());

  RasterSpec elsewhere = covering("GTiff", 32631, 30, 30);
  elsewhere.x -= 500000; /* the origin left out: 500 km west */
  s = read_bed(write_raster("elsewhere.tif", &elsewhere), INPUT_LEVELS, utm, bed, NULL);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "must cover every point"),
         "a raster 500 km from the grid is refused: %s", hcl_status_message());

  RasterSpec holed = covering("GTiff", 32631, 30, 30);
  holed.nodata = -9999;
  memcpy(holed.hole, (double[4]){500600, 5800400, 500700, 5800500}, sizeof holed.hole); /* under cells */
  s = read_bed(write_raster("hole.tif", &holed), INPUT_LEVELS, utm, bed, NULL);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "no value at") &&
             tap_contains(hcl_status_message(), "nodata value -9999"),
         "a raster with nodata under the grid is refused naming the first point: %s", hcl_status_message());
  memcpy(holed.hole, (double[4]){499900, 5799900, 499950, 5799950}, sizeof holed.hole); /* beyond every cell */
  s = read_bed(write_raster("margin.tif", &holed), INPUT_LEVELS, utm, bed, NULL);
  TAP_OK(s == HCL_OK, "nodata in the raster's margin, beyond the grid, is no gap (%s)",
         s ? hcl_status_message() : "read");

  RasterSpec geographic = covering("GTiff", 4326, 0.0005, 0.0003);
  s = read_bed(write_raster("degrees.tif", &geographic), INPUT_LEVELS, NULL, bed, NULL);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "set grid.crs"),
         "a raster in degrees on a grid without grid.crs is refused: %s", hcl_status_message());

  RasterSpec plain = {.driver = "GTiff", .width = 4, .height = 4, .value = surface, .nodata = NAN};
  s = read_bed(write_raster("plain.tif", &plain), INPUT_LEVELS, utm, bed, NULL);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "no georeferencing"),
         "a raster without georeferencing is refused: %s", hcl_status_message());
}

int main(void) {
  if (!mkdtemp(folder)) {
    perror("mkdtemp");
    return 1;
  }
  GDALAllRegister();
  TAP_OK(hcl_crs_create("EPSG:32631", "test", &utm) == HCL_OK, "the grid's CRS: UTM zone 31N");
  test_formats_and_orientations();
  test_other_crs();
  test_average_and_classes();
  test_refusals();
  hcl_crs_destroy(&utm);
  char command[600];
  snprintf(command, sizeof command, "rm -rf %s", folder);
  (void)system(command);
  return tap_done();
}
