/* SPDX-License-Identifier: BSD-3-Clause */
/* inputs.c: grids and time series named in case files (see inputs.h). */
#include "inputs.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ncutil.h"
#include "raster.h"

#ifdef HYDROCL_HAVE_NETCDF
#include <netcdf_filter.h>
#include <strings.h>
#include <udunits2.h>
#endif

static long days_from_civil(long year, long month, long day);

HclStatus hcl_input_open(const char *path, FILE **f) {
  HclStatus status = HCL_OK;
  *f = NULL;
  TRY(hcl_input_check_file(path, NULL, NULL));
  *f = fopen(path, "r");
  REQUIRE(*f != NULL, HCL_ENOINPUT, "cannot open '%s': %s", path, strerror(errno));
cleanup:
  return status;
}

HclStatus hcl_input_read_line(FILE *f, const char *path, InputLine *line, bool *more) {
  HclStatus status = HCL_OK;
  size_t length = 0;
  int ch = EOF;
  *more = false;
  while ((ch = getc_unlocked(f)) != EOF && ch != '\n') { /* unlocked: a grid's million lines stay fast */
    REQUIRE(ch != '\0', HCL_EDATA, "%s:%d: holds a NUL byte; the file must be text", path, line->number + 1);
    REQUIRE(length < INPUT_LINE_MAX, HCL_EDATA,
            "%s:%d: a line longer than %d MiB; the file must be text lines (is it the file you meant?)", path,
            line->number + 1, INPUT_LINE_MAX >> 20);
    if (length + 1 >= line->capacity) {
      size_t larger = line->capacity ? 2 * line->capacity : 256;
      char *bigger = realloc(line->text, larger);
      REQUIRE(bigger != NULL, HCL_ENOMEM, "%s:%d: cannot hold a line of %zu bytes", path, line->number + 1, larger);
      line->text = bigger;
      line->capacity = larger;
    }
    line->text[length++] = (char)ch;
  }
  REQUIRE(!ferror(f), HCL_EIO, "cannot read '%s': %s", path, strerror(errno));
  if (ch == EOF && length == 0) {
    goto cleanup;
  }
  if (!line->text) { /* an empty line as the first: room for its terminator */
    line->text = malloc(1);
    REQUIRE(line->text != NULL, HCL_ENOMEM, "%s: cannot hold a line", path);
    line->capacity = 1;
  }
  if (length > 0 && line->text[length - 1] == '\r') { /* a CRLF file's line end */
    length--;
  }
  line->text[length] = '\0';
  line->number++;
  *more = true;
cleanup:
  return status;
}

void hcl_input_line_free(InputLine *line) {
  free(line->text);
  line->text = NULL;
  line->capacity = 0;
}

static bool has_extension(const char *path, const char *extension) {
  size_t n = strlen(path), e = strlen(extension);
  return n > e && strcmp(path + n - e, extension) == 0;
}

/* Parses up to max comma- or space-separated numbers of line into out; returns how many, or -1 on a non-number. */
static int parse_numbers(char *line, double *out, int max) {
  int n = 0;
  char *cursor = line;
  while (*cursor) {
    while (*cursor == ' ' || *cursor == '\t' || *cursor == ',') {
      cursor++;
    }
    if (*cursor == '\0' || *cursor == '\n' || *cursor == '\r') {
      break;
    }
    char *end = NULL;
    double v = strtod(cursor, &end);
    if (end == cursor || !isfinite(v)) {
      return -1;
    }
    if (n < max) {
      out[n] = v;
    }
    n++;
    cursor = end;
  }
  return n;
}

static HclStatus read_csv_grid(const char *path, int nx, int ny, double *values) {
  HclStatus status = HCL_OK;
  FILE *f = NULL;
  InputLine line = {0};
  bool more = false;
  int row = 0;
  TRY(hcl_input_open(path, &f));
  for (;;) {
    TRY(hcl_input_read_line(f, path, &line, &more));
    if (!more) {
      break;
    }
    if (line.text[0] == '#' || strspn(line.text, " \t") == strlen(line.text)) {
      continue;
    }
    REQUIRE(row < ny, HCL_EDATA, "%s:%d: more than the %d rows of the grid (rows are y, columns x)", path, line.number,
            ny);
    int n = parse_numbers(line.text, values + (size_t)row * nx, nx);
    REQUIRE(n >= 0, HCL_EDATA, "%s:%d: not a list of numbers", path, line.number);
    REQUIRE(n == nx, HCL_EDATA, "%s:%d: %d values, the grid has %d points in x", path, line.number, n, nx);
    row++;
  }
  REQUIRE(row == ny, HCL_EDATA, "%s: %d rows, the grid has %d points in y", path, row, ny);
cleanup:
  hcl_input_line_free(&line);
  if (f) {
    fclose(f);
  }
  return status;
}

#ifdef HYDROCL_HAVE_NETCDF
static bool numeric_type(nc_type type) {
  return type >= NC_BYTE && type <= NC_UINT64 && type != NC_CHAR;
}

/* Refuses a variable that does not hold numbers (char, string, compound...): what it is, named, before any read. */
static HclStatus require_numeric_variable(int ncid, int var, const char *path, const char *role) {
  HclStatus status = HCL_OK;
  nc_type type = NC_NAT;
  char name[NC_MAX_NAME + 1] = "";
  TRY_NC(nc_inq_varname(ncid, var, name), path);
  TRY_NC(nc_inq_vartype(ncid, var, &type), path);
  REQUIRE(numeric_type(type), HCL_EDATA, "%s: variable '%s' (%s) holds %s, not numbers", path, name, role,
          type == NC_CHAR || type == NC_STRING ? "text" : "values of a user-defined type");
cleanup:
  return status;
}

/* Refuses a present attribute named `attribute` of var that is not one number (CF: scale_factor, add_offset and
 * _FillValue are one number each; missing_value one or more). */
static HclStatus require_numeric_attribute(int ncid, int var, const char *path, const char *attribute, bool several) {
  HclStatus status = HCL_OK;
  nc_type type = NC_NAT;
  size_t length = 0;
  char name[NC_MAX_NAME + 1] = "";
  if (nc_inq_att(ncid, var, attribute, &type, &length) != NC_NOERR) {
    goto cleanup;
  }
  TRY_NC(nc_inq_varname(ncid, var, name), path);
  REQUIRE(numeric_type(type) && length >= 1 && (several || length == 1), HCL_EDATA,
          "%s: attribute %s of '%s' must be %s (it holds %zu %s)", path, attribute, name,
          several ? "numbers" : "one number", length, numeric_type(type) ? "numbers" : "characters or strings");
cleanup:
  return status;
}

/* The numeric attributes the readers use (scale_factor, add_offset, _FillValue, missing_value), checked. */
static HclStatus require_numeric_attributes(int ncid, int var, const char *path) {
  HclStatus status = HCL_OK;
  TRY(require_numeric_attribute(ncid, var, path, "scale_factor", false));
  TRY(require_numeric_attribute(ncid, var, path, "add_offset", false));
  TRY(require_numeric_attribute(ncid, var, path, "_FillValue", false));
  TRY(require_numeric_attribute(ncid, var, path, "missing_value", true));
cleanup:
  return status;
}

/* The grid variable of an open file, the one named or else its only 2D variable; numeric, its attributes too. */
static HclStatus find_grid_variable(int ncid, const char *path, const char *variable, int *var,
                                    char name[NC_MAX_NAME + 1]) {
  HclStatus status = HCL_OK;
  int nvars = 0, ndims = 0;
  *var = -1;
  if (variable) {
    REQUIRE(nc_inq_varid(ncid, variable, var) == NC_NOERR, HCL_EDATA, "%s has no variable '%s'", path, variable);
  } else {
    TRY_NC(nc_inq_nvars(ncid, &nvars), path);
    for (int v = 0; v < nvars; v++) {
      TRY_NC(nc_inq_varndims(ncid, v, &ndims), path);
      if (ndims == 2) {
        REQUIRE(*var < 0, HCL_EDATA, "%s has several 2D variables; name one in the case", path);
        *var = v;
      }
    }
    REQUIRE(*var >= 0, HCL_EDATA, "%s has no 2D variable", path);
  }
  TRY_NC(nc_inq_varname(ncid, *var, name), path);
  TRY_NC(nc_inq_varndims(ncid, *var, &ndims), path);
  REQUIRE(ndims == 2, HCL_EDATA, "%s: variable '%s' has %d dimensions, a grid has 2 (y, x)", path, name, ndims);
  TRY(require_numeric_variable(ncid, *var, path, "the grid"));
  TRY(require_numeric_attributes(ncid, *var, path));
cleanup:
  return status;
}

static HclStatus unpack(int ncid, int var, const char *path, double *values, size_t n);

/* Which way a dimension runs: along x (i), along y (j), or unknown. */
typedef enum { AXIS_UNKNOWN, AXIS_X, AXIS_Y } GridAxis;

static bool name_among(const char *name, const char *const *names, size_t count) {
  for (size_t k = 0; k < count; k++) {
    if (strcasecmp(name, names[k]) == 0) {
      return true;
    }
  }
  return false;
}

/* The text attribute attribute of var into text (empty when absent or not text). */
static void text_attribute(int ncid, int var, const char *attribute, char *text, size_t size) {
  nc_type type = NC_NAT;
  size_t length = 0;
  text[0] = '\0';
  if (nc_inq_att(ncid, var, attribute, &type, &length) == NC_NOERR && type == NC_CHAR && length < size &&
      nc_get_att_text(ncid, var, attribute, text) == NC_NOERR) {
    text[length] = '\0';
  }
}

/* The coordinate variable of dimension dim (CF 1.8 section 1.2: a 1D numeric variable of the dimension's name along
 * it), or -1. */
static int coordinate_variable(int ncid, int dim) {
  char name[NC_MAX_NAME + 1];
  int var = -1, ndims = 0, along = -1;
  nc_type type = NC_NAT;
  if (nc_inq_dimname(ncid, dim, name) != NC_NOERR || nc_inq_varid(ncid, name, &var) != NC_NOERR ||
      nc_inq_varndims(ncid, var, &ndims) != NC_NOERR || ndims != 1 || nc_inq_vardimid(ncid, var, &along) != NC_NOERR ||
      along != dim || nc_inq_vartype(ncid, var, &type) != NC_NOERR || !numeric_type(type)) {
    return -1;
  }
  return var;
}

/* The axis of dimension dim: its coordinate variable's axis, standard_name or units attribute (CF 1.8 section 4)
 * where it says, else the dimension's name: x, lon, longitude, easting, i, ni, col(umn), xi and ROMS' xi_* along
 * x; their y counterparts (gamma, hydrocl's own curvilinear maps', and ROMS' eta_*) along y. */
static GridAxis dimension_axis(int ncid, int dim) {
  static const char *const x_names[] = {"x",      "lon",     "longitude", "easting", "i",    "ni",   "col",   "cols",
                                        "column", "columns", "xi",        "xi_rho",  "xi_u", "xi_v", "xi_psi"};
  static const char *const y_names[] = {"y",       "lat",   "latitude", "northing", "j",     "nj",
                                        "row",     "rows",  "line",     "lines",    "gamma", "eta",
                                        "eta_rho", "eta_u", "eta_v",    "eta_psi"};
  static const char *const x_standard[] = {"projection_x_coordinate", "longitude", "grid_longitude"};
  static const char *const y_standard[] = {"projection_y_coordinate", "latitude", "grid_latitude"};
  static const char *const x_units[] = {"degrees_east", "degree_east", "degree_E", "degrees_E"};
  static const char *const y_units[] = {"degrees_north", "degree_north", "degree_N", "degrees_N"};
  char name[NC_MAX_NAME + 1] = "", text[64];
  int var = coordinate_variable(ncid, dim);
  if (var >= 0) {
    text_attribute(ncid, var, "axis", text, sizeof text);
    if (strcasecmp(text, "X") == 0 || strcasecmp(text, "Y") == 0) {
      return toupper((unsigned char)text[0]) == 'X' ? AXIS_X : AXIS_Y;
    }
    text_attribute(ncid, var, "standard_name", text, sizeof text);
    if (name_among(text, x_standard, 3) || name_among(text, y_standard, 3)) {
      return name_among(text, x_standard, 3) ? AXIS_X : AXIS_Y;
    }
    text_attribute(ncid, var, "units", text, sizeof text);
    if (name_among(text, x_units, 4) || name_among(text, y_units, 4)) {
      return name_among(text, x_units, 4) ? AXIS_X : AXIS_Y;
    }
  }
  if (nc_inq_dimname(ncid, dim, name) != NC_NOERR) {
    return AXIS_UNKNOWN;
  }
  return name_among(name, x_names, sizeof x_names / sizeof x_names[0])   ? AXIS_X
         : name_among(name, y_names, sizeof y_names / sizeof y_names[0]) ? AXIS_Y
                                                                         : AXIS_UNKNOWN;
}

/* How a grid variable's values land on the model's points: which of its dimensions runs along y (the other along
 * x), and whether x or y run backwards (a north-up raster's y decreases). */
typedef struct {
  int y_dim;     /* 0: (y, x), the model's order; 1: (x, y), transposed */
  bool flip[2];  /* x, y run from the model's last point to its first */
  int dims[2];   /* the variable's dimension ids, in its order */
  size_t len[2]; /* their lengths */
} GridLayout;

/* Set where a netCDF grid does not lie on the model's points (another shape, or other coordinates), for
 * hcl_input_read_grid to warp it through GDAL instead; where a reader is given none, such a file is refused. */
typedef struct {
  bool off;
} OffPoints;

/* The axes of the variable's two dimensions, from coordinate variables and names (dimension_axis): one known
 * settles the other; none known, or both the same, is refused; another shape than the grid's too, unless off is
 * given (it is set). */
static HclStatus grid_layout(int ncid, int var, const char *path, const char *name, int nx, int ny, GridLayout *layout,
                             OffPoints *off) {
  HclStatus status = HCL_OK;
  char dim_names[2][NC_MAX_NAME + 1];
  GridAxis axis[2];
  memset(layout, 0, sizeof *layout);
  TRY_NC(nc_inq_vardimid(ncid, var, layout->dims), path);
  for (int d = 0; d < 2; d++) {
    TRY_NC(nc_inq_dimname(ncid, layout->dims[d], dim_names[d]), path);
    TRY_NC(nc_inq_dimlen(ncid, layout->dims[d], &layout->len[d]), path);
    axis[d] = dimension_axis(ncid, layout->dims[d]);
  }
  REQUIRE(axis[0] != AXIS_UNKNOWN || axis[1] != AXIS_UNKNOWN, HCL_EDATA,
          "%s: variable '%s' runs along dimensions '%s' and '%s', which do not say which is x and which y: name them "
          "y and x (or lat and lon, eta_rho and xi_rho), or give them coordinate variables with an axis attribute "
          "(CF)",
          path, name, dim_names[0], dim_names[1]);
  REQUIRE(axis[0] != axis[1], HCL_EDATA, "%s: variable '%s' runs along '%s' and '%s', both along %s", path, name,
          dim_names[0], dim_names[1], axis[0] == AXIS_X ? "x" : "y");
  layout->y_dim = axis[0] == AXIS_Y || axis[1] == AXIS_X ? 0 : 1;
  size_t along_y = layout->len[layout->y_dim], along_x = layout->len[1 - layout->y_dim];
  bool same_shape = along_y == (size_t)ny && along_x == (size_t)nx;
  if (!same_shape && off) {
    off->off = true;
    goto cleanup;
  }
  REQUIRE(same_shape, HCL_EDATA,
          "%s: variable '%s' is %zu x %zu (y, x), the grid is %d x %d (y along '%s', x along '%s')%s", path, name,
          along_y, along_x, ny, nx, dim_names[layout->y_dim], dim_names[1 - layout->y_dim], raster_hint());
cleanup:
  return status;
}

/* Checks the coordinate variable of the dimension along axis a (0: x, 1: y) against the model's points, first +
 * k step, and sets layout->flip[a] where they run backwards. Without a coordinate variable the dimension is taken
 * as the model's, first to last. Tolerance: 1% of the spacing, and the rounding of a float coordinate. Other points
 * are refused, unless off is given (it is set). */
static HclStatus check_coordinate(int ncid, const char *path, const char *name, int a, double first, double step,
                                  const char *keys, GridLayout *layout, OffPoints *off) {
  HclStatus status = HCL_OK;
  int dim = layout->dims[a == 1 ? layout->y_dim : 1 - layout->y_dim];
  int var = coordinate_variable(ncid, dim);
  size_t n = layout->len[a == 1 ? layout->y_dim : 1 - layout->y_dim];
  double *found = NULL;
  char coordinate[NC_MAX_NAME + 1] = "";
  nc_type type = NC_NAT;
  if (var < 0) {
    goto cleanup;
  }
  TRY_NC(nc_inq_varname(ncid, var, coordinate), path);
  TRY_NC(nc_inq_vartype(ncid, var, &type), path);
  TRY_ALLOC(found, n);
  TRY_NC(nc_get_var_double(ncid, var, found), path);
  TRY(unpack(ncid, var, path, found, n));
  double last = first + (double)(n - 1) * step;
  layout->flip[a] = n > 1 && (found[0] - found[n - 1]) * step > 0; /* running the other way */
  for (size_t k = 0; k < n; k++) {
    double expected = first + (double)(layout->flip[a] ? n - 1 - k : k) * step;
    double tolerance = fmax(0.01 * fabs(step), (type == NC_FLOAT ? 4 * 1.2e-7 : 4 * 2.3e-16) * fabs(expected));
    bool on_point = fabs(found[k] - expected) <= tolerance;
    if (!on_point && off) {
      off->off = true;
      goto cleanup;
    }
    REQUIRE(on_point, HCL_EDATA,
            "%s: variable '%s': its coordinate '%s' runs %g to %g, the model grid's %s %g to %g (%s): '%s'[%zu] is %g "
            "where %g is expected (within %g); give the grid on the model's points%s",
            path, name, coordinate, found[0], found[n - 1], a ? "y" : "x", layout->flip[a] ? last : first,
            layout->flip[a] ? first : last, keys, coordinate, k, found[k], expected, tolerance, raster_hint());
  }
cleanup:
  free(found);
  return status;
}

/* The raw values that mark a variable's missing points (NUG attribute conventions; CF 1.8 section 2.5.1): its
 * _FillValue, or where it has none the type's default fill that points never written hold, and every value of
 * missing_value. Raw: they are compared before scale_factor and add_offset apply. */
typedef struct {
  bool has_fill;
  double fill;
  double *missing; /* owned */
  size_t nmissing;
} MissingMarks;

/* netCDF's default fill values (netcdf.h). Bytes have none: the NUG asks readers not to take a byte's default fill
 * as missing. */
static bool default_fill(nc_type type, double *fill) {
  static const struct {
    nc_type type;
    double fill;
  } fills[] = {
      {NC_SHORT, NC_FILL_SHORT}, {NC_USHORT, NC_FILL_USHORT},       {NC_INT, NC_FILL_INT},
      {NC_UINT, NC_FILL_UINT},   {NC_INT64, (double)NC_FILL_INT64}, {NC_UINT64, (double)NC_FILL_UINT64},
      {NC_FLOAT, NC_FILL_FLOAT}, {NC_DOUBLE, NC_FILL_DOUBLE},
  };
  for (size_t i = 0; i < sizeof fills / sizeof fills[0]; i++) {
    if (fills[i].type == type) {
      *fill = fills[i].fill;
      return true;
    }
  }
  return false;
}

static HclStatus missing_marks_read(int ncid, int var, const char *path, MissingMarks *m) {
  HclStatus status = HCL_OK;
  nc_type type = NC_NAT;
  int no_fill = 0;
  memset(m, 0, sizeof *m);
  TRY_NC(nc_inq_vartype(ncid, var, &type), path);
  TRY_NC(nc_inq_var_fill(ncid, var, &no_fill, NULL), path);
  if (nc_inq_att(ncid, var, "_FillValue", NULL, NULL) == NC_NOERR) {
    TRY_NC(nc_get_att_double(ncid, var, "_FillValue", &m->fill), path);
    m->has_fill = true;
  } else {
    m->has_fill = !no_fill && default_fill(type, &m->fill);
  }
  if (nc_inq_attlen(ncid, var, "missing_value", &m->nmissing) == NC_NOERR) {
    TRY_ALLOC(m->missing, m->nmissing);
    TRY_NC(nc_get_att_double(ncid, var, "missing_value", m->missing), path);
  }
cleanup:
  return status;
}

/* The attribute whose value marks raw as missing, or NULL. */
static const char *missing_mark(const MissingMarks *m, double raw) {
  if (m->has_fill && raw == m->fill) {
    return "_FillValue";
  }
  for (size_t k = 0; k < m->nmissing; k++) {
    if (raw == m->missing[k]) {
      return "missing_value";
    }
  }
  return NULL;
}

/* Refuses a grid with a missing point, naming the first: a model needs every point of a bed or a water level. */
static HclStatus refuse_missing(const MissingMarks *m, const double *raw, int nx, int ny, const char *path,
                                const char *name) {
  HclStatus status = HCL_OK;
  for (size_t i = 0; i < (size_t)nx * ny; i++) {
    const char *mark = missing_mark(m, raw[i]);
    REQUIRE(mark == NULL, HCL_EDATA,
            "%s: variable '%s' has a missing point (%s %g) at y=%zu, x=%zu; a grid needs a value at every point: "
            "fill the gaps (interpolate them, or give land a bed level above the water) and write the file again",
            path, name, mark, raw[i], i / (size_t)nx, i % (size_t)nx);
  }
cleanup:
  return status;
}

/* value = raw * scale_factor + add_offset, each attribute where present (CF 1.8 section 8.1). */
static HclStatus unpack(int ncid, int var, const char *path, double *values, size_t n) {
  HclStatus status = HCL_OK;
  double scale = 1.0, offset = 0.0;
  if (nc_inq_att(ncid, var, "scale_factor", NULL, NULL) == NC_NOERR) {
    TRY_NC(nc_get_att_double(ncid, var, "scale_factor", &scale), path);
  }
  if (nc_inq_att(ncid, var, "add_offset", NULL, NULL) == NC_NOERR) {
    TRY_NC(nc_get_att_double(ncid, var, "add_offset", &offset), path);
  }
  for (size_t i = 0; i < n; i++) {
    values[i] = values[i] * scale + offset;
  }
cleanup:
  return status;
}

/* Puts the variable's values, raw[len0][len1] in its dimensions' order, at the model's points values[ny][nx]. */
static void place_values(const GridLayout *layout, const double *raw, int nx, int ny, double *values) {
  for (size_t a = 0; a < layout->len[0]; a++) {
    for (size_t b = 0; b < layout->len[1]; b++) {
      size_t j = layout->y_dim == 0 ? a : b, i = layout->y_dim == 0 ? b : a;
      i = layout->flip[0] ? (size_t)nx - 1 - i : i;
      j = layout->flip[1] ? (size_t)ny - 1 - j : j;
      values[j * (size_t)nx + i] = raw[a * layout->len[1] + b];
    }
  }
}

/* Reads a netCDF grid on the model's points into values; one that is not on them sets *off (where given) and reads
 * nothing. name: the variable's. */
static HclStatus read_netcdf_grid(const char *path, const char *variable, int nx, int ny, const InputAxes *axes,
                                  double *values, char name[NC_MAX_NAME + 1], OffPoints *off) {
  HclStatus status = HCL_OK;
  int ncid = -1, var = -1;
  MissingMarks marks = {0};
  GridLayout layout;
  double *raw = NULL;
  TRY(hcl_input_check_file(path, NULL, NULL));
  int err = nc_open(path, NC_NOWRITE, &ncid);
  REQUIRE(err == NC_NOERR, err == ENOENT ? HCL_ENOINPUT : HCL_EDATA, "cannot open grid file '%s': %s", path,
          nc_strerror(err));
  TRY(find_grid_variable(ncid, path, variable, &var, name));
  TRY(grid_layout(ncid, var, path, name, nx, ny, &layout, off));
  for (int a = 0; axes && a < 2 && !(off && off->off); a++) {
    TRY(check_coordinate(ncid, path, name, a, a ? axes->y0 : axes->x0, a ? axes->dy : axes->dx, axes->keys, &layout,
                         off));
  }
  if (off && off->off) {
    goto cleanup;
  }
  TRY(missing_marks_read(ncid, var, path, &marks));
  if (layout.y_dim == 0 && !layout.flip[0] && !layout.flip[1]) {
    TRY_NC(nc_get_var_double(ncid, var, values), path);
  } else { /* transposed or backwards: read as stored, then placed */
    TRY_ALLOC(raw, (size_t)nx * ny);
    TRY_NC(nc_get_var_double(ncid, var, raw), path);
    place_values(&layout, raw, nx, ny, values);
  }
  TRY(refuse_missing(&marks, values, nx, ny, path, name));
  TRY(unpack(ncid, var, path, values, (size_t)nx * ny));
  for (size_t i = 0; i < (size_t)nx * ny; i++) {
    REQUIRE(isfinite(values[i]), HCL_EDATA,
            "%s: variable '%s' has a non-finite value at y=%zu, x=%zu; a grid needs a finite value at every point",
            path, name, i / (size_t)nx, i % (size_t)nx);
  }
cleanup:
  free(raw);
  free(marks.missing);
  if (ncid >= 0) {
    nc_close(ncid);
  }
  return status;
}

/* UDUNITS-2's unit system, read once from its XML database (UDUNITS2_XML_PATH says where, else the packaged one),
 * quietly: its notes on the database are not the user's. NULL where it cannot be read. */
static ut_system *unit_system(void) {
  static ut_system *system = NULL;
  if (!system) {
    ut_set_error_message_handler(ut_ignore);
    system = ut_read_xml(NULL);
  }
  return system;
}

/* Whether units name points in time: a unit since (after, from, ref, @) an origin, in UDUNITS-2's grammar. */
static bool is_timestamp(const char *units) {
  static const char *const words[] = {" since ", " after ", " from ", " ref ", "@"};
  for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
    if (strstr(units, words[w])) {
      return true;
    }
  }
  return false;
}

/* Refuses a time origin that is no date, "seconds since 2000-13-45": UDUNITS-2 rolls a 13th month and a 45th day
 * over into later dates. Checks the year-month-day (and hour:minute[:second]) forms; UDUNITS-2 parses the rest. */
static bool real_origin(const char *units) {
  static const char *const words[] = {" since ", " after ", " from ", " ref ", "@"};
  const char *origin = NULL;
  for (size_t w = 0; w < sizeof words / sizeof words[0] && !origin; w++) {
    const char *at = strstr(units, words[w]);
    origin = at ? at + strlen(words[w]) : NULL;
  }
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, used = 0;
  double second = 0;
  if (!origin || sscanf(origin, " %d-%d-%d%n", &year, &month, &day, &used) != 3) {
    return true;
  }
  if (month < 1 || month > 12 || day < 1 ||
      days_from_civil(year, month, day) >= days_from_civil(year + (month == 12), month % 12 + 1, 1)) {
    return false;
  }
  const char *rest = origin + used;
  if ((*rest == ' ' || *rest == 'T') && sscanf(rest + 1, "%d:%d", &hour, &minute) == 2) {
    if (hour < 0 || hour > 23 || minute < 0 || minute > 59) {
      return false;
    }
    const char *colon = strchr(strchr(rest + 1, ':') + 1, ':');
    if (colon && colon - rest < 8 && sscanf(colon + 1, "%lf", &second) == 1 && !(second >= 0 && second < 61)) {
      return false;
    }
  }
  return true;
}

static HclStatus require_unit_system(const char *path) {
  HclStatus status = HCL_OK;
  REQUIRE(unit_system() != NULL, HCL_ENOINPUT,
          "cannot read UDUNITS-2's unit database (%s), which reads the units of '%s'; install udunits-bin's data "
          "(Debian: libudunits2-data) or set UDUNITS2_XML_PATH",
          getenv("UDUNITS2_XML_PATH") ? getenv("UDUNITS2_XML_PATH") : "the packaged udunits2.xml", path);
cleanup:
  return status;
}

/* t_run = scale value + offset for a time coordinate of these units (CF 1.8 section 4.4, read by UDUNITS-2: "hours
 * since 2023-06-01T00:00:00+00:00", "h", "day since 2000-1-1"): a duration counts from the run's start, a unit since
 * a date from that date (start: the run's start, seconds since 1970 UTC). where names the units in messages (the
 * file, or file:line: column). */
static HclStatus time_scale(const char *where, const char *units, double start, double *scale, double *offset) {
  HclStatus status = HCL_OK;
  ut_system *system = unit_system();
  ut_unit *unit = NULL, *target = NULL;
  cv_converter *convert = NULL;
  bool timestamp = is_timestamp(units);
  TRY(require_unit_system(where));
  unit = ut_parse(system, units, UT_ASCII);
  REQUIRE(unit != NULL, HCL_EDATA,
          "%s: time units '%s' are not units UDUNITS-2 reads; give a time unit alone (from the start of the run) or "
          "since a date, as 'hours since 2023-06-01 00:00:00'",
          where, units);
  REQUIRE(!timestamp || real_origin(units), HCL_EDATA,
          "%s: time units '%s' count from a date that does not exist (months 1 to 12, days 1 to the month's last, "
          "hours 0 to 23, minutes 0 to 59)",
          where, units);
  target = timestamp ? ut_parse(system, "seconds since 1970-01-01 00:00:00 UTC", UT_ASCII)
                     : ut_get_unit_by_name(system, "second");
  ASSERT(target != NULL);
  convert = ut_are_convertible(unit, target) ? ut_get_converter(unit, target) : NULL;
  REQUIRE(convert != NULL, HCL_EDATA, "%s: time units '%s' are not %s", where, units,
          timestamp ? "a time since a date" : "a time (seconds, minutes, hours, days)");
  *offset = cv_convert_double(convert, 0.0); /* the converter is linear: value scale + offset */
  *scale = cv_convert_double(convert, 1.0) - *offset;
  *offset -= timestamp ? start : 0.0;
cleanup:
  cv_free(convert);
  ut_free(unit);
  ut_free(target);
  return status;
}

/* The calendar of a time coordinate: the standard (Gregorian) one only, which UDUNITS-2 and the run use. */
static HclStatus require_standard_calendar(int ncid, int time_var, const char *path) {
  HclStatus status = HCL_OK;
  static const char *const standard[] = {"standard", "gregorian", "proleptic_gregorian"};
  char calendar[64] = "";
  size_t length = 0;
  if (nc_inq_attlen(ncid, time_var, "calendar", &length) != NC_NOERR) {
    goto cleanup; /* CF: standard */
  }
  REQUIRE(length < sizeof calendar, HCL_EDATA, "%s: the time coordinate's calendar is %zu characters long", path,
          length);
  TRY_NC(nc_get_att_text(ncid, time_var, "calendar", calendar), path);
  calendar[length] = '\0';
  for (size_t c = 0; c < sizeof standard / sizeof standard[0]; c++) {
    if (strcasecmp(calendar, standard[c]) == 0) {
      goto cleanup;
    }
  }
  FAIL(HCL_EDATA,
       "%s: the time coordinate's calendar is '%s'; hydrocl runs on the standard (Gregorian) calendar and does not "
       "convert %s dates: give the times in the standard calendar",
       path, calendar, calendar);
cleanup:
  return status;
}

/* The series variable of an open file: its only 1D variable that is not a coordinate variable; *time_var is the
 * coordinate variable of its dimension and *n the length. */
static HclStatus find_series_variables(int ncid, const char *path, int *var, int *time_var, size_t *n) {
  HclStatus status = HCL_OK;
  int nvars = 0, ndims = 0, dim = -1;
  char name[NC_MAX_NAME + 1], dim_name[NC_MAX_NAME + 1];
  *var = -1;
  TRY_NC(nc_inq_nvars(ncid, &nvars), path);
  for (int v = 0; v < nvars; v++) {
    TRY_NC(nc_inq_varndims(ncid, v, &ndims), path);
    if (ndims != 1) {
      continue;
    }
    TRY_NC(nc_inq_vardimid(ncid, v, &dim), path);
    TRY_NC(nc_inq_varname(ncid, v, name), path);
    TRY_NC(nc_inq_dimname(ncid, dim, dim_name), path);
    if (strcmp(name, dim_name) != 0) {
      REQUIRE(*var < 0, HCL_EDATA, "%s has several 1D data variables; a time series file holds one", path);
      *var = v;
    }
  }
  REQUIRE(*var >= 0, HCL_EDATA, "%s has no 1D data variable (a series 'level(time)' with a coordinate 'time(time)')",
          path);
  TRY_NC(nc_inq_vardimid(ncid, *var, &dim), path);
  TRY_NC(nc_inq_dimname(ncid, dim, dim_name), path);
  TRY_NC(nc_inq_dimlen(ncid, dim, n), path);
  REQUIRE(nc_inq_varid(ncid, dim_name, time_var) == NC_NOERR, HCL_EDATA,
          "%s: dimension '%s' of the series has no coordinate variable '%s' holding the times", path, dim_name,
          dim_name);
  int time_dims = 0, time_dim = -1;
  TRY_NC(nc_inq_varndims(ncid, *time_var, &time_dims), path);
  REQUIRE(time_dims == 1, HCL_EDATA,
          "%s: the time coordinate '%s' has %d dimensions; a series' times are one per sample, '%s(%s)' (bounds "
          "belong in a variable of their own)",
          path, dim_name, time_dims, dim_name, dim_name);
  TRY_NC(nc_inq_vardimid(ncid, *time_var, &time_dim), path);
  REQUIRE(time_dim == dim, HCL_EDATA, "%s: the time coordinate '%s' does not run along the series' dimension", path,
          dim_name);
  REQUIRE(*n > 0, HCL_EDATA, "%s: no samples", path);
  TRY(require_numeric_variable(ncid, *var, path, "the series"));
  TRY(require_numeric_variable(ncid, *time_var, path, "the times"));
  TRY(require_numeric_attributes(ncid, *var, path));
  TRY(require_numeric_attributes(ncid, *time_var, path));
cleanup:
  return status;
}

/* Times in seconds of the run (t = 0 at its start) from the coordinate variable's units (time_scale) and calendar.
 * Strictly increasing. */
static HclStatus read_series_times(int ncid, int time_var, const char *path, double start, double *times, size_t n) {
  HclStatus status = HCL_OK;
  char units[NC_MAX_NAME + 1] = "";
  size_t length = 0;
  nc_type type = NC_NAT;
  double scale = 1, offset = 0;
  REQUIRE(nc_inq_att(ncid, time_var, "units", &type, &length) == NC_NOERR, HCL_EDATA,
          "%s: the time coordinate has no units; give 'seconds' (or minutes, hours, days)", path);
  REQUIRE(type == NC_CHAR && length < sizeof units, HCL_EDATA,
          "%s: the time coordinate's units must be text of at most %zu characters, as 'seconds' or 'hours since "
          "2023-06-01 00:00:00'",
          path, sizeof units - 1);
  TRY_NC(nc_get_att_text(ncid, time_var, "units", units), path);
  TRY(require_standard_calendar(ncid, time_var, path));
  TRY(time_scale(path, units, start, &scale, &offset));
  TRY_NC(nc_get_var_double(ncid, time_var, times), path);
  for (size_t k = 0; k < n; k++) {
    times[k] = times[k] * scale + offset;
    REQUIRE(isfinite(times[k]) && (k == 0 || times[k] > times[k - 1]), HCL_EDATA,
            "%s: time %g s at index %zu does not follow %g s", path, times[k], k, k > 0 ? times[k - 1] : -INFINITY);
  }
cleanup:
  return status;
}

static HclStatus read_netcdf_series(const char *path, double start, double **times, double **values, int *count) {
  HclStatus status = HCL_OK;
  int ncid = -1, var = -1, time_var = -1;
  size_t n = 0;
  char name[NC_MAX_NAME + 1] = "";
  MissingMarks marks = {0};
  double *t = NULL, *v = NULL;
  TRY(hcl_input_check_file(path, NULL, NULL));
  int err = nc_open(path, NC_NOWRITE, &ncid);
  REQUIRE(err == NC_NOERR, err == ENOENT ? HCL_ENOINPUT : HCL_EDATA, "cannot open time series '%s': %s", path,
          nc_strerror(err));
  TRY(find_series_variables(ncid, path, &var, &time_var, &n));
  REQUIRE(n <= INT_MAX, HCL_EDATA, "%s: %zu samples, more than hydrocl takes", path, n);
  TRY_NC(nc_inq_varname(ncid, var, name), path);
  TRY_ALLOC(t, n);
  TRY_ALLOC(v, n);
  TRY(read_series_times(ncid, time_var, path, start, t, n));
  TRY(missing_marks_read(ncid, var, path, &marks));
  TRY_NC(nc_get_var_double(ncid, var, v), path);
  for (size_t k = 0; k < n; k++) {
    const char *mark = missing_mark(&marks, v[k]);
    REQUIRE(mark == NULL, HCL_EDATA, "%s: '%s' is missing (%s) at t = %g s; a series needs every sample", path, name,
            mark, t[k]);
  }
  TRY(unpack(ncid, var, path, v, n));
  for (size_t k = 0; k < n; k++) {
    REQUIRE(isfinite(v[k]), HCL_EDATA, "%s: '%s' is %g at t = %g s; a series needs finite samples", path, name, v[k],
            t[k]);
  }
  *times = t;
  *values = v;
  *count = (int)n;
  t = v = NULL;
cleanup:
  free(t);
  free(v);
  free(marks.missing);
  if (ncid >= 0) {
    nc_close(ncid);
  }
  return status;
}
#endif

#ifdef HYDROCL_HAVE_NETCDF
/* The first of names[0..count) that the netCDF file ncid holds (a variable id), or -1. */
static int first_variable(int ncid, const char *const *names, int count) {
  int var = -1;
  for (int k = 0; k < count && var < 0; k++) {
    if (nc_inq_varid(ncid, names[k], &var) != NC_NOERR) {
      var = -1;
    }
  }
  return var;
}

/* Refuses a 2D variable whose values the file cannot hold. Stored without compression (netCDF-3; netCDF-4 without
 * filters) they take their points times the type's size, so a smaller file declares a grid it never wrote (6 kB
 * declaring 10^8 points read as fill values): refused before any memory is taken for them. */
static HclStatus require_stored(int ncid, int var, const char *path, const char *name, const size_t lengths[2]) {
  HclStatus status = HCL_OK;
  int format = 0, mode = 0;
  size_t filters = 0, size = 0;
  nc_type type = NC_NAT;
  struct stat info;
  TRY_NC(nc_inq_format_extended(ncid, &format, &mode), path);
  bool plain =
      format == NC_FORMATX_NC3 ||
      (format == NC_FORMATX_NC_HDF5 && nc_inq_var_filter_ids(ncid, var, &filters, NULL) == NC_NOERR && filters == 0);
  if (!plain || stat(path, &info) != 0) {
    goto cleanup;
  }
  TRY_NC(nc_inq_vartype(ncid, var, &type), path);
  TRY_NC(nc_inq_type(ncid, type, NULL, &size), path);
  double needed = (double)lengths[0] * (double)lengths[1] * (double)size;
  REQUIRE((double)info.st_size >= needed, HCL_EDATA,
          "%s: variable '%s' declares %zu x %zu points, %.4g MB of values stored uncompressed, but the file holds "
          "%.4g MB: they were never written (check the dimensions, and write the values)",
          path, name, lengths[0], lengths[1], needed / 1e6, (double)info.st_size / 1e6);
cleanup:
  return status;
}

static HclStatus netcdf_grid_shape(const char *path, const char *const *names, int count, int *nx, int *ny,
                                   char found[INPUT_NAME_SIZE]) {
  HclStatus status = HCL_OK;
  int ncid = -1, ndims = 0, dims[NC_MAX_VAR_DIMS];
  size_t lengths[2] = {0, 0};
  TRY(hcl_input_check_file(path, NULL, NULL));
  int err = nc_open(path, NC_NOWRITE, &ncid);
  REQUIRE(err == NC_NOERR, err == ENOENT ? HCL_ENOINPUT : HCL_EDATA, "cannot open grid file '%s': %s", path,
          nc_strerror(err));
  int var = first_variable(ncid, names, count);
  REQUIRE(var >= 0, HCL_EDATA, "%s has no variable %s%s", path, names[0], count > 1 ? " (nor its other names)" : "");
  TRY_NC(nc_inq_varname(ncid, var, found), path);
  TRY_NC(nc_inq_varndims(ncid, var, &ndims), path);
  REQUIRE(ndims == 2, HCL_EDATA, "%s: variable '%s' has %d dimensions; a grid's coordinates have 2 (along j, along i)",
          path, found, ndims);
  TRY_NC(nc_inq_vardimid(ncid, var, dims), path);
  TRY_NC(nc_inq_dimlen(ncid, dims[0], &lengths[0]), path);
  TRY_NC(nc_inq_dimlen(ncid, dims[1], &lengths[1]), path);
  REQUIRE(lengths[0] <= 1000000 && lengths[1] <= 1000000, HCL_EDATA,
          "%s: variable '%s' is %zu x %zu, beyond 10^6 a side", path, found, lengths[0], lengths[1]);
  TRY(require_stored(ncid, var, path, found, lengths));
  *ny = (int)lengths[0];
  *nx = (int)lengths[1];
cleanup:
  if (ncid >= 0) {
    nc_close(ncid);
  }
  return status;
}
#endif

HclStatus hcl_input_grid_shape(const char *path, const char *const *names, int count, int *nx, int *ny,
                               char found[INPUT_NAME_SIZE]) {
  HclStatus status = HCL_OK;
  REQUIRE(has_extension(path, ".nc"), HCL_EDATA, "%s: a grid of points (x and y) is read from a netCDF file (.nc)",
          path);
#ifdef HYDROCL_HAVE_NETCDF
  TRY(netcdf_grid_shape(path, names, count, nx, ny, found));
#else
  (void)names, (void)count, (void)nx, (void)ny, (void)found;
  FAIL(HCL_EUSAGE, "this hydrocl was built without netCDF, so it cannot read '%s'", path);
#endif
cleanup:
  return status;
}

/* A netCDF grid on the model's points, or else (with axes, in a build with GDAL) warped onto them. */
static HclStatus read_netcdf_or_raster(const char *path, const char *variable, int nx, int ny, const InputAxes *axes,
                                       double *values, InputSource *source) {
  HclStatus status = HCL_OK;
#ifdef HYDROCL_HAVE_NETCDF
  char name[NC_MAX_NAME + 1] = "";
  OffPoints off = {false};
  TRY(read_netcdf_grid(path, variable, nx, ny, axes, values, name, axes && raster_available() ? &off : NULL));
  if (off.off && !raster_georeferenced(path, name)) { /* no raster either: refused for not lying on the points */
    TRY(read_netcdf_grid(path, variable, nx, ny, axes, values, name, NULL));
  } else if (off.off) {
    TRY(raster_read(path, name, nx, ny, axes, values, source));
  } else if (source) {
    snprintf(source->text, sizeof source->text, "netCDF variable '%s' on the grid's points", name);
  }
#else
  (void)variable, (void)nx, (void)ny, (void)axes, (void)values, (void)source;
  FAIL(HCL_EUSAGE, "this hydrocl was built without netCDF, so it cannot read '%s'; give the grid as CSV", path);
#endif
cleanup:
  return status;
}

HclStatus hcl_input_read_grid(const char *path, const char *variable, int nx, int ny, const InputAxes *axes,
                              double *values, InputSource *source) {
  HclStatus status = HCL_OK;
  if (has_extension(path, ".nc")) {
    TRY(read_netcdf_or_raster(path, variable, nx, ny, axes, values, source));
  } else if (has_extension(path, ".csv") || has_extension(path, ".txt")) {
    TRY(read_csv_grid(path, nx, ny, values));
    if (source) {
      snprintf(source->text, sizeof source->text, "CSV, %d x %d values on the grid's points", nx, ny);
    }
  } else {
    TRY(raster_read(path, variable, nx, ny, axes, values, source));
  }
cleanup:
  return status;
}

/* The fields of a CSV line, separated by commas, spaces or tabs: how many there are, and how many of them read whole
 * as a number (finite or not: "nan" is a number where one belongs, refused later as not finite); the first two
 * numbers' values in out. */
static void scan_fields(const char *line, int *fields, int *numbers, double out[2]) {
  *fields = *numbers = 0;
  const char *cursor = line;
  for (;;) {
    cursor += strspn(cursor, " \t,");
    size_t length = strcspn(cursor, " \t,\r\n");
    if (length == 0) {
      break;
    }
    char *end = NULL;
    double value = strtod(cursor, &end);
    if (end == cursor + length) {
      if (*numbers < 2) {
        out[*numbers] = value;
      }
      (*numbers)++;
    }
    (*fields)++;
    cursor += length;
  }
}

static HclStatus append_sample(double **t, double **v, int *n, int *capacity, double time, double value,
                               const char *path) {
  HclStatus status = HCL_OK;
  if (*n == *capacity) {
    int larger = *capacity ? 2 * *capacity : 64;
    double *bigger_t = realloc(*t, (size_t)larger * sizeof **t);
    REQUIRE(bigger_t != NULL, HCL_ENOMEM, "cannot hold %d samples of '%s'", larger, path);
    *t = bigger_t;
    double *bigger_v = realloc(*v, (size_t)larger * sizeof **v);
    REQUIRE(bigger_v != NULL, HCL_ENOMEM, "cannot hold %d samples of '%s'", larger, path);
    *v = bigger_v;
    *capacity = larger;
  }
  (*t)[*n] = time;
  (*v)[(*n)++] = value;
cleanup:
  return status;
}

/* A CSV time: a number (seconds from the run's start, or in the header's unit), or an ISO 8601 date and time in UTC
 * or at an offset (hcl_input_parse_date: "2023-06-01 12:00", "2023-06-01T12:00:00Z", "2023-06-01T14:00+02:00"), turned into seconds from the run's start (start:
 * seconds since 1970); *number says which. */
static bool parse_time_field(const char *text, size_t length, double start, double *t, bool *number) {
  char field[64];
  while (length > 0 && isspace((unsigned char)*text)) {
    text++;
    length--;
  }
  while (length > 0 && isspace((unsigned char)text[length - 1])) {
    length--;
  }
  if (length == 0 || length >= sizeof field) {
    return false;
  }
  memcpy(field, text, length);
  field[length] = '\0';
  char *end = NULL;
  double seconds = strtod(field, &end);
  *number = end == field + length;
  if (*number) {
    *t = seconds;
    return true;
  }
  if (hcl_input_parse_date(field, &seconds)) {
    *t = seconds - start;
    return true;
  }
  return false;
}

/* A sample line "time,value" (or the two separated by blanks): 2 with pair filled, 0 for a line with neither a time
 * nor a number (a header), 1 for anything else. *number: the time is a number (not a date). */
static int parse_sample(const char *line, double start, double pair[2], bool *number) {
  const char *comma = strchr(line, ',');
  if (!comma) { /* blank-separated numbers */
    int fields = 0, numbers = 0;
    scan_fields(line, &fields, &numbers, pair);
    *number = true;
    return fields == 2 && numbers == 2 ? 2 : numbers == 0 ? 0 : 1;
  }
  char *end = NULL;
  bool timed = parse_time_field(line, (size_t)(comma - line), start, &pair[0], number);
  pair[1] = strtod(comma + 1, &end);
  bool valued = end != comma + 1 && strspn(end, " \t\r\n") == strlen(end);
  return timed && valued ? 2 : !timed && !valued ? 0 : 1;
}

/* value SI = scale value + offset for the values of a CSV column. */
typedef struct {
  double scale, offset;
} Linear;

/* The columns of a header line: split at commas where it has any, else at blanks outside brackets (a unit, "[m3
 * s-1]", may hold blanks). Each a name and an optional unit in brackets, "level [cm]": the first max units into
 * units, NULL for a column without one. Written into line. Returns the number of columns. */
static int split_header(char *line, char **units, int max) {
  bool commas = strchr(line, ',') != NULL;
  int n = 0;
  char *cursor = line;
  while (*cursor) {
    cursor += strspn(cursor, commas ? "" : " \t");
    if (!*cursor) {
      break;
    }
    char *field = cursor;
    int depth = 0;
    while (*cursor && !(commas ? *cursor == ',' : depth == 0 && isspace((unsigned char)*cursor))) {
      depth += *cursor == '[' ? 1 : *cursor == ']' ? -1 : 0;
      cursor++;
    }
    if (*cursor) {
      *cursor++ = '\0';
    }
    char *open = strchr(field, '['), *close = open ? strrchr(open, ']') : NULL;
    if (n < max) {
      units[n] = NULL;
      if (open) {
        *open = '\0';
        if (close) {
          *close = '\0';
        }
        units[n] = open + 1;
      }
    }
    n++;
  }
  return n;
}

/* Trims blanks off both ends of text, in place. */
static char *trim_blanks(char *text) {
  text += strspn(text, " \t");
  size_t n = strlen(text);
  while (n > 0 && isspace((unsigned char)text[n - 1])) {
    text[--n] = '\0';
  }
  return text;
}

HclStatus hcl_input_unit_scale(const char *path, int line, int column, const char *unit, const char *si, double *scale,
                               double *offset) {
  HclStatus status = HCL_OK;
  *scale = 1;
  *offset = 0;
#ifdef HYDROCL_HAVE_NETCDF
  ut_unit *given = NULL, *target = NULL;
  cv_converter *convert = NULL;
  TRY(require_unit_system(path));
  given = ut_parse(unit_system(), unit, UT_ASCII);
  REQUIRE(given != NULL, HCL_EDATA,
          "%s:%d: column %d: '%s' is not a unit UDUNITS-2 knows; give the unit as UDUNITS-2 writes it (%s, or "
          "another of its dimension), or leave it out for %s",
          path, line, column, unit, si, si);
  target = ut_parse(unit_system(), si, UT_ASCII);
  ASSERT(target != NULL);
  REQUIRE(ut_are_convertible(given, target), HCL_EDATA,
          "%s:%d: column %d: unit '%s' does not convert to %s, the column's unit; give one that does, or leave it out "
          "for %s",
          path, line, column, unit, si, si);
  convert = ut_get_converter(given, target);
  ASSERT(convert != NULL);
  *offset = cv_convert_double(convert, 0.0); /* linear: value scale + offset */
  *scale = cv_convert_double(convert, 1.0) - *offset;
cleanup:
  cv_free(convert);
  ut_free(given);
  ut_free(target);
#else
  (void)si;
  FAIL(HCL_EUSAGE,
       "%s:%d: column %d gives the unit '%s', and this hydrocl was built without netCDF and UDUNITS-2, which read "
       "units; give the values in SI units without one",
       path, line, column, unit);
cleanup:
#endif
  return status;
}

/* The units of a series' header, "time [h],level [cm]": the time's (a duration, or a time since a date as in
 * netCDF) and the value's (unit: its SI unit). A header without units leaves seconds and SI units. */
static HclStatus read_series_header(const char *path, const InputLine *line, double start, const char *unit,
                                    Linear convert[2]) {
  HclStatus status = HCL_OK;
  char *copy = strdup(line->text), *units[2] = {NULL, NULL};
  int count = 0;
  REQUIRE(copy != NULL, HCL_ENOMEM, "%s:%d: cannot copy the header", path, line->number);
  count = split_header(copy, units, 2);
  if (!units[0] && !units[1]) {
    goto cleanup;
  }
  REQUIRE(count == 2, HCL_EDATA, "%s:%d: a header of %d columns; a series has two, 'time [UNIT],value [UNIT]'", path,
          line->number, count);
  for (int k = 0; k < 2; k++) {
    if (!units[k]) {
      continue;
    }
    char *text = trim_blanks(units[k]);
    REQUIRE(text[0], HCL_EDATA, "%s:%d: column %d has an empty unit '[]'", path, line->number, k + 1);
    if (k == 1) {
      TRY(hcl_input_unit_scale(path, line->number, 2, text, unit, &convert[1].scale, &convert[1].offset));
      continue;
    }
#ifdef HYDROCL_HAVE_NETCDF
    char where[1100];
    snprintf(where, sizeof where, "%s:%d: column 1", path, line->number);
    TRY(time_scale(where, text, start, &convert[0].scale, &convert[0].offset));
#else
    (void)start;
    TRY(hcl_input_unit_scale(path, line->number, 1, text, "s", &convert[0].scale, &convert[0].offset));
#endif
  }
cleanup:
  free(copy);
  return status;
}

/* A CSV series 'time,value', lines of any length. Comments (#) and blank lines are skipped; the first other line is
 * a header when none of its fields is a number (a row with a number where one belongs is data, and a malformed one
 * is refused with its line); its units, where it gives them, convert the columns. */
static HclStatus read_csv_series(const char *path, double start, const char *unit, double **times, double **values,
                                 int *count) {
  HclStatus status = HCL_OK;
  FILE *f = NULL;
  double *t = NULL, *v = NULL;
  int n = 0, capacity = 0;
  bool first = true; /* the first line that is neither a comment nor blank: it may be a header */
  bool more = false;
  InputLine line = {0};
  Linear convert[2] = {{1, 0}, {1, 0}};
  *times = *values = NULL;
  *count = 0;
  TRY(hcl_input_open(path, &f));
  for (;;) {
    double pair[2];
    bool number = true;
    TRY(hcl_input_read_line(f, path, &line, &more));
    if (!more) {
      break;
    }
    if (line.text[0] == '#' || strspn(line.text, " \t") == strlen(line.text)) {
      continue;
    }
    int kind = parse_sample(line.text, start, pair, &number);
    bool header = first && kind == 0;
    first = false;
    if (header) {
      TRY(read_series_header(path, &line, start, unit, convert));
      continue;
    }
    REQUIRE(kind == 2, HCL_EDATA,
            "%s:%d: expected 'time,value', the time in seconds from the run's start or an ISO 8601 date and time "
            "(2023-06-01T12:00:00Z, or at an offset: 2023-06-01T14:00:00+02:00), the value in SI units (or both in the "
            "header's units, 'time [h],level [cm]')",
            path, line.number);
    if (number) {
      pair[0] = pair[0] * convert[0].scale + convert[0].offset;
    }
    pair[1] = pair[1] * convert[1].scale + convert[1].offset;
    REQUIRE(isfinite(pair[0]) && isfinite(pair[1]), HCL_EDATA, "%s:%d: time %g s, value %g: both must be finite", path,
            line.number, pair[0], pair[1]);
    REQUIRE(n == 0 || pair[0] > t[n - 1], HCL_EDATA, "%s:%d: time %g s does not follow %g s", path, line.number,
            pair[0], t[n - 1]);
    TRY(append_sample(&t, &v, &n, &capacity, pair[0], pair[1], path));
  }
  REQUIRE(n > 0, HCL_EDATA, "%s: no samples (expected lines 'time,value')", path);
  *times = t;
  *values = v;
  *count = n;
  t = v = NULL;
cleanup:
  if (f) {
    fclose(f);
  }
  hcl_input_line_free(&line);
  free(t);
  free(v);
  return status;
}

HclStatus hcl_input_read_series(const char *path, double start, const char *unit, double **times, double **values,
                                int *count) {
  HclStatus status = HCL_OK;
  *times = *values = NULL;
  *count = 0;
  if (has_extension(path, ".nc")) {
#ifdef HYDROCL_HAVE_NETCDF
    TRY(read_netcdf_series(path, start, times, values, count));
#else
    (void)start;
    FAIL(HCL_EUSAGE, "this hydrocl was built without netCDF, so it cannot read '%s'; give the series as CSV", path);
#endif
  } else {
    TRY(read_csv_series(path, start, unit, times, values, count));
  }
cleanup:
  return status;
}

double hcl_input_series_at(const double *times, const double *values, int count, double t) {
  if (t <= times[0]) {
    return values[0];
  }
  if (t >= times[count - 1]) {
    return values[count - 1];
  }
  int lo = 0, hi = count - 1;
  while (hi - lo > 1) { /* bisection: long series stay cheap */
    int mid = (lo + hi) / 2;
    if (times[mid] <= t) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  double w = (t - times[lo]) / (times[hi] - times[lo]);
  return (1.0 - w) * values[lo] + w * values[hi];
}

double hcl_input_series_integral(const double *times, const double *values, int count, double t0, double t1) {
  /* The trapezoids between t0, the samples inside (t0, t1) and t1: exact for the piecewise-linear series, which is
   * constant beyond its ends. */
  double sum = 0, t = t0, value = hcl_input_series_at(times, values, count, t0);
  int first = 0, last = count; /* bisection to the first sample after t0: long series stay cheap */
  while (first < last) {
    int mid = (first + last) / 2;
    if (times[mid] <= t0) {
      first = mid + 1;
    } else {
      last = mid;
    }
  }
  for (int k = first; k < count && times[k] < t1; k++) {
    sum += 0.5 * (value + values[k]) * (times[k] - t);
    t = times[k];
    value = values[k];
  }
  return sum + 0.5 * (value + hcl_input_series_at(times, values, count, t1)) * (t1 - t);
}

/* Days from 1970-01-01 to year-month-day in the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
static long days_from_civil(long year, long month, long day) {
  year -= month <= 2;
  long era = (year >= 0 ? year : year - 399) / 400;
  long year_of_era = year - era * 400;
  long day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  long day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

/* An ISO 8601 UTC offset at the end of a date and time: "Z", " UTC", "+hh:mm", "+hhmm" or "+hh" (or '-'), its
 * seconds east of UTC into *offset; true where rest is one and nothing follows. Offsets run to +-14:00 (the Line
 * Islands' +14, Baker Island's -12) with 00 to 59 minutes. */
static bool parse_utc_offset(const char *rest, double *offset) {
  *offset = 0;
  if (*rest == '\0' || strcmp(rest, "Z") == 0 || strcmp(rest, " UTC") == 0) {
    return true;
  }
  if (*rest != '+' && *rest != '-') {
    return false;
  }
  int digits[4], count = 0;
  for (const char *p = rest + 1; *p; p++) {
    if (*p == ':' && count == 2 && p[1]) {
      continue;
    }
    if (!isdigit((unsigned char)*p) || count == 4) {
      return false;
    }
    digits[count++] = *p - '0';
  }
  if (count != 2 && count != 4) {
    return false;
  }
  int hours = 10 * digits[0] + digits[1], minutes = count == 4 ? 10 * digits[2] + digits[3] : 0;
  if (hours * 60 + minutes > 14 * 60 || minutes > 59) {
    return false;
  }
  *offset = (*rest == '-' ? -1 : 1) * (hours * 3600.0 + minutes * 60.0);
  return true;
}

bool hcl_input_parse_date(const char *text, double *seconds) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, consumed = 0;
  double second = 0, offset = 0;
  if (sscanf(text, "%4d-%2d-%2d%n", &year, &month, &day, &consumed) != 3) {
    return false;
  }
  const char *rest = text + consumed;
  if (*rest == ' ' || *rest == 'T') {
    int more = 0;
    if (sscanf(rest + 1, "%2d:%2d%n", &hour, &minute, &more) != 2) {
      return false;
    }
    rest += 1 + more;
    if (*rest == ':') { /* digits, as "05" or "05.5": strtod alone would take " 5", "nan" or "inf" too */
      char *end = NULL;
      second = isdigit((unsigned char)rest[1]) ? strtod(rest + 1, &end) : -1;
      rest = end ? end : rest;
    }
  }
  /* A real day: before the first of the next month (no 31 June, no 29 February 2023). */
  bool real_day = month >= 1 && month <= 12 && day >= 1 &&
                  days_from_civil(year, month, day) < days_from_civil(year + (month == 12), month % 12 + 1, 1);
  if (!parse_utc_offset(rest, &offset) || !real_day || hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
      !(second >= 0 && second < 61)) {
    return false;
  }
  /* Local time at an offset east of UTC is that much ahead: UTC = local - offset. */
  *seconds = (double)days_from_civil(year, month, day) * 86400.0 + hour * 3600.0 + minute * 60.0 + second - offset;
  return true;
}
