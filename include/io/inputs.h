/* SPDX-License-Identifier: BSD-3-Clause */
/* inputs.h: bulk inputs named in case files: 2D grids (bed level, initial water level) from netCDF or CSV, and time
 * series (boundary water levels, discharges) from netCDF or CSV. Mistakes are HCL_EDATA with file:line or the
 * variable and both shapes; a missing file is HCL_ENOINPUT. */
#ifndef HYDROCL_INPUTS_H
#define HYDROCL_INPUTS_H

#include <stdbool.h>
#include <stdio.h>

#include "crs.h"
#include "inputfile.h" /* hcl_input_check_file */
#include "status.h"

/* hcl_input_check_file(path, NULL, NULL), then fopen for reading; caller closes *f. */
HclStatus hcl_input_open(const char *path, FILE **f);

/* A text line of any length up to INPUT_LINE_MAX bytes: no fixed buffer splits a long line into two. Start it
 * zeroed; number counts the lines read (file:line in messages); free it with hcl_input_line_free. */
enum { INPUT_LINE_MAX = 16 << 20 };
typedef struct {
  char *text; /* owned: the last line read, without its line end (LF or CRLF) */
  size_t capacity;
  int number;
} InputLine;

/* Reads the next line of f (opened from path) into line; *more is false at the end of the file. A line longer than
 * INPUT_LINE_MAX or holding a NUL byte is HCL_EDATA naming path:line, a read error HCL_EIO. */
HclStatus hcl_input_read_line(FILE *f, const char *path, InputLine *line, bool *more);
void hcl_input_line_free(InputLine *line);

/* How a grid file's values are carried onto the model's points when they do not lie on them (a raster, through
 * GDAL): levels (bed, water level, roughness) bilinearly, or as the average of the pixels in a cell where the grid is
 * coarser than the raster; classes and masks (land) by the nearest pixel, never mixed. */
typedef enum { INPUT_LEVELS, INPUT_CLASSES } InputSampling;

/* Where a model's grid points are, for a grid file's coordinates to be checked against or a raster warped onto:
 * point (i, j) at x = x0 + i dx, y = y0 + j dy (m) in crs (grid.crs; NULL: local metres); keys says which case keys
 * set them, for messages ("cells of grid.x0, grid.lx, grid.nx"). */
typedef struct {
  double x0, dx, y0, dy;
  const char *keys;
  const Crs *crs;
  InputSampling sampling;
} InputAxes;

/* What a grid file was and how it reached the grid, for validate: "GeoTIFF, 400 x 300 pixels of 5 x 5 m, EPSG:28992
 * (Amersfoort / RD New), x 1e5 to 1.02e5 m, y ...; reprojected onto the grid, bilinear". */
enum { INPUT_SOURCE_SIZE = 768 };
typedef struct {
  char text[INPUT_SOURCE_SIZE];
} InputSource;

/* Reads the global nx x ny grid into values[ny][nx] (x fastest), and what the file was into *source (NULL: not
 * wanted).
 *
 * A ".nc" file holds variable (NULL takes its only 2D variable), unpacked by its scale_factor and add_offset; a point
 * holding its _FillValue (or the default fill of a point never written) or a missing_value is HCL_EDATA naming the
 * first. Its dimensions say which way it runs: their coordinate variables' axis, standard_name or units attribute
 * (CF), else their names (y, lat, latitude, northing, j, nj, row, eta_rho; x, lon, ...), one known settling the
 * other; (x, y) is transposed, and a file whose dimensions say neither is HCL_EDATA. With axes (NULL: a curvilinear
 * grid, no check), coordinate variables must hold the model's points, within 1% of the spacing, either way round:
 * backwards (a north-up raster) is flipped. A file of another shape or on other points is, in a build with GDAL, a
 * raster like any other (below); without GDAL it is HCL_EDATA naming the file, variable, coordinate and the values
 * expected and found.
 *
 * A ".csv" or ".txt" file is CSV with ny lines of nx numbers, line j holding row y = j.
 *
 * Any other file is a raster GDAL reads (GeoTIFF, ESRI ASCII grid, VRT, ...; needs axes, and a build with GDAL, else
 * HCL_EUSAGE naming the build option), placed by its own georeferencing: warped from its CRS into axes->crs (a raster
 * without a CRS is taken to be in the grid's; without grid.crs, a projected raster's coordinates are the grid's and a
 * geographic one is refused), north-up or south-up alike, and sampled at the points as axes->sampling says (GDAL's
 * warper, its error threshold 0: every point transformed exactly). A raster whose extent does not hold every point is
 * HCL_EDATA naming the file and both extents; a point where the raster holds nodata is HCL_EDATA naming the first and
 * how many (the rule: a grid needs a value at every point; fill the raster's gaps first). */
HclStatus hcl_input_read_grid(const char *path, const char *variable, int nx, int ny, const InputAxes *axes,
                              double *values, InputSource *source);

enum { INPUT_NAME_SIZE = 257 }; /* a netCDF name and its NUL */

/* The shape of a 2D variable of a netCDF file: the first of names[0..count) it holds ("x", "x_rho": the names grid
 * generators give their coordinates), its dimensions' lengths, nx the last (fastest), and its name into found. A file
 * without any, or of another number of dimensions, is HCL_EDATA naming it. */
HclStatus hcl_input_grid_shape(const char *path, const char *const *names, int count, int *nx, int *ny,
                               char found[INPUT_NAME_SIZE]);

/* Reads a time series; times in seconds of the run (0 at its start), strictly increasing; values in unit, the SI
 * unit of what they are ("m" for a water level). start is the run's start in seconds since 1970-01-01 UTC
 * (hcl_input_parse_date). A ".nc" file holds one 1D data variable over a dimension whose coordinate variable gives the
 * times in seconds, minutes, hours or days (CF 1.8 section 4.4): alone, they count from the run's start; "since
 * DATE", from that date (a real one), so a measured series with its own dates lines up with the run. Packed values
 * are unpacked and a missing sample is refused, as for grids. Any other file is CSV, "time,value" lines; '#'
 * comments and blank lines are skipped, and so is a header where the first other line is not numbers. Without units
 * the times are seconds from the run's start (or ISO 8601 dates) and the values in unit; a header's units in
 * brackets, "time [h],level [cm]" or "time [hours since 2023-06-01],level [m]", convert them (UDUNITS-2), and a unit
 * it does not know or cannot convert is HCL_EDATA naming file:line and the column. Caller frees *times and
 * *values. */
HclStatus hcl_input_read_series(const char *path, double start, const char *unit, double **times, double **values,
                                int *count);

/* scale and offset that turn values in unit into si (value_si = scale value + offset), by UDUNITS-2; a unit it does
 * not know, or one not convertible to si, is HCL_EDATA naming path:line and the column (1-based). */
HclStatus hcl_input_unit_scale(const char *path, int line, int column, const char *unit, const char *si, double *scale,
                               double *offset);

/* Parses "YYYY-MM-DD", "YYYY-MM-DD hh:mm" or "YYYY-MM-DD hh:mm:ss" (a 'T' for the space), in UTC or, after the time,
 * at an ISO 8601 offset ("Z", " UTC", "+02:00", "-0530", "+02": local time that far east of UTC, up to +-14:00), in
 * the proleptic Gregorian calendar (CF's standard calendar for modern dates), into seconds since 1970-01-01 00:00:00
 * UTC. False for anything else. */
bool hcl_input_parse_date(const char *text, double *seconds);

/* Linear interpolation of the series at t, held constant beyond its ends. */
double hcl_input_series_at(const double *times, const double *values, int count, double t);
/* The integral of that interpolation from t0 to t1 (t0 <= t1), exact. */
double hcl_input_series_integral(const double *times, const double *values, int count, double t0, double t1);

#endif
