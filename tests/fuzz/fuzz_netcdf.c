/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_netcdf.c: structure-aware libFuzzer target of the netCDF readers of inputs.h (hcl_input_read_series: a
 * boundary's series; hcl_input_read_grid: bed.file). Raw bytes into nc_open would fuzz netCDF-C and HDF5, not hydrocl,
 * so the bytes here describe a small file instead, which netCDF-C writes ("in.nc" in the scratch folder) before both
 * readers read it:
 *
 *   format         netCDF-4, netCDF-4 classic model, CDF-1 or CDF-5
 *   dimensions     1 to 3, named time, y, x or t, of 1 to 6 points or unlimited (0 to 6 records)
 *   variables      1 to 4, named time, level, bed, y, x, t or depth, of rank 0 to 3 over those dimensions, of type
 *                  double, float, int, short, byte, char, ubyte, ushort, uint, int64, uint64, string or an enum (as
 *                  far as the format has them), with or without fill, written or left to their fill
 *   attributes     0 to 4 a variable: units, scale_factor, add_offset, _FillValue, missing_value or long_name, of
 *                  the variable's type or double, float, int, short, byte, text or string, 0 to 3 values (a
 *                  _FillValue one value of the variable's type: see put_attribute)
 *   values         0, 1.5, -2, the index (increasing times), the index in hours, NaN, +-inf, the type's default
 *                  fill, 1e300, or raw bytes; units as "seconds", "hours since 2023-06-01 00:00:00", ... or raw text
 *
 * netCDF-C refuses some descriptions (a second unlimited dimension in CDF-1, a _FillValue of another type): what it
 * refuses is left out of the file. The readers then run on whatever the file holds, so what gets exercised are their
 * checks of rank, type, size, attributes, fill and missing values, units and dates, and finite values. A refusal is
 * a pass. Checked besides the sanitizers: an accepted series has finite, strictly increasing times and finite
 * values, an accepted grid finite values (inputs.h). */
#include <math.h>
#include <netcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"
#include "inputs.h"

enum { DIMS_MAX = 3, VARS_MAX = 4, ATTS_MAX = 4, POINTS_MAX = 6, VALUES_MAX = 216, TEXT_MAX = 48 };

static const char *const dim_names[] = {"time", "y", "x", "t"};
static const char *const var_names[] = {"time", "level", "bed", "y", "x", "t", "depth"};
static const char *const att_names[] = {"units",      "scale_factor",  "add_offset",
                                        "_FillValue", "missing_value", "long_name"};
static const char *const unit_texts[] = {"seconds",
                                         "s",
                                         "minutes",
                                         "hours",
                                         "days",
                                         "hours since 2023-06-01 00:00:00",
                                         "days since 1970-01-01",
                                         "seconds since 2000-01-01T00:00:00Z",
                                         "minutes since 2023-02-29 12:00",
                                         "seconds since ",
                                         "m",
                                         ""};
#define COUNT(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))

/* The variable types, those of the classic formats first, then CDF-5's, then netCDF-4's. NC_NAT: the enum. */
static const nc_type types[] = {NC_DOUBLE, NC_FLOAT, NC_INT,   NC_SHORT,  NC_BYTE,   NC_CHAR, NC_UBYTE,
                                NC_USHORT, NC_UINT,  NC_INT64, NC_UINT64, NC_STRING, NC_NAT};
static const struct {
  int mode;
  unsigned ntypes; /* the first ntypes of types */
} formats[] = {{NC_NETCDF4, 13}, {NC_NETCDF4 | NC_CLASSIC_MODEL, 6}, {NC_CLASSIC_MODEL, 6}, {NC_64BIT_DATA, 11}};

static size_t type_size(nc_type type) {
  switch (type) {
  case NC_BYTE:
  case NC_UBYTE:
  case NC_CHAR:
    return 1;
  case NC_SHORT:
  case NC_USHORT:
    return 2;
  case NC_INT:
  case NC_UINT:
  case NC_FLOAT:
    return 4;
  case NC_STRING:
    return sizeof(char *);
  default: /* double, int64, uint64; the enum's base type is int, its values written as such */
    return 8;
  }
}

/* A number for value k of an array of type: one of the special values, or raw bytes (which may be anything). */
static void make_value(FuzzBytes *b, nc_type type, size_t k, void *out) {
  double value = 0;
  unsigned which = fuzz_take(b, 11);
  switch (which) {
  case 0:
    value = 0;
    break;
  case 1:
    value = 1.5;
    break;
  case 2:
    value = -2;
    break;
  case 3:
    value = (double)k;
    break;
  case 4:
    value = 3600.0 * (double)k;
    break;
  case 5:
    value = NAN;
    break;
  case 6:
    value = fuzz_bool(b) ? INFINITY : -INFINITY;
    break;
  case 7: /* the type's default fill, NUG */
    value = type == NC_FLOAT   ? NC_FILL_FLOAT
            : type == NC_SHORT ? NC_FILL_SHORT
            : type == NC_INT   ? NC_FILL_INT
                               : NC_FILL_DOUBLE;
    break;
  case 8:
    value = 1e300;
    break;
  default:
    fuzz_raw(b, out, type == NC_NAT ? 4 : type_size(type));
    return;
  }
  switch (type) { /* converted as C does, where it can: out-of-range values go the raw way */
  case NC_DOUBLE:
    memcpy(out, &value, sizeof value);
    break;
  case NC_FLOAT: {
    float f = (float)value;
    memcpy(out, &f, sizeof f);
    break;
  }
  default: {
    long long whole = isfinite(value) && fabs(value) < 1e15 ? (long long)value : 0;
    size_t size = type == NC_NAT ? 4 : type_size(type);
    if (size == 1) {
      signed char c = (signed char)whole;
      memcpy(out, &c, 1);
    } else if (size == 2) {
      short s = (short)whole;
      memcpy(out, &s, 2);
    } else if (size == 4) {
      int i = (int)whole;
      memcpy(out, &i, 4);
    } else {
      memcpy(out, &whole, 8);
    }
  }
  }
}

/* A piece of text: one of the units above, or up to TEXT_MAX raw bytes (NUL-free). */
static void make_text(FuzzBytes *b, char text[TEXT_MAX + 1]) {
  unsigned which = fuzz_take(b, COUNT(unit_texts) + 2);
  if (which < COUNT(unit_texts)) {
    snprintf(text, TEXT_MAX + 1, "%s", unit_texts[which]);
    return;
  }
  size_t prefix = 0;
  if (which == COUNT(unit_texts)) { /* a date of the fuzzer's making */
    prefix = (size_t)snprintf(text, TEXT_MAX + 1, "hours since ");
  }
  size_t n = prefix + fuzz_take(b, TEXT_MAX + 1 - (unsigned)prefix);
  fuzz_raw(b, text + prefix, n - prefix);
  text[n] = '\0';
  for (size_t k = prefix; k < n; k++) {
    text[k] = text[k] ? text[k] : ' ';
  }
}

/* Values of a string variable or attribute: pointers into pool. */
static void make_strings(FuzzBytes *b, size_t n, char pool[][TEXT_MAX + 1], char **out) {
  for (size_t k = 0; k < n; k++) {
    make_text(b, pool[k]);
    out[k] = pool[k];
  }
}

typedef struct {
  int id;
  nc_type type;  /* NC_NAT: the enum */
  nc_type xtype; /* netCDF-C's: the enum's id for it */
  int rank, dims[DIMS_MAX];
  bool write;
} Var;

static void put_attribute(FuzzBytes *b, int ncid, const Var *v, bool netcdf4) {
  static const nc_type att_types[] = {NC_NAT, NC_DOUBLE, NC_FLOAT, NC_INT, NC_SHORT, NC_BYTE, NC_CHAR, NC_STRING};
  static char pool[3][TEXT_MAX + 1];
  char *strings[3];
  unsigned char values[3 * 8];
  const char *name = att_names[fuzz_take(b, COUNT(att_names))];
  nc_type type = att_types[fuzz_take(b, netcdf4 ? COUNT(att_types) : COUNT(att_types) - 1)];
  size_t n = fuzz_take(b, 4);
  bool fill = strcmp(name, "_FillValue") == 0;
  if (fill) {
    /* One value of the variable's type, as the NUG asks. netCDF-C 4.9.0 takes one of another type (text, a string,
     * another number) into a netCDF-4 file, and refuses several values but keeps their count; nc_enddef then reads
     * past the value (heap-buffer-overflow in H5A__write: netCDF-C's, not hydrocl's). */
    type = NC_NAT;
    n = 1;
  }
  if (type == NC_CHAR || (type == NC_NAT && v->type == NC_CHAR)) {
    make_text(b, pool[0]);
    nc_put_att_text(ncid, v->id, name, fill ? 1 : strlen(pool[0]), pool[0]);
  } else if (type == NC_STRING || (type == NC_NAT && v->type == NC_STRING)) {
    make_strings(b, n, pool, strings);
    nc_put_att_string(ncid, v->id, name, n, (const char **)strings);
  } else {
    bool own = type == NC_NAT; /* the variable's type, the enum's included */
    type = own ? v->type : type;
    size_t size = type == NC_NAT ? 4 : type_size(type);
    for (size_t k = 0; k < n; k++) {
      make_value(b, type, k, values + k * size);
    }
    nc_put_att(ncid, v->id, name, own ? v->xtype : type, n, values);
  }
}

/* Writes v's values over the dimensions' current lengths (records: records[d]). */
static void put_values(FuzzBytes *b, int ncid, const Var *v, const size_t *lengths) {
  static unsigned char buffer[VALUES_MAX * 8];
  static char pool[VALUES_MAX][TEXT_MAX + 1];
  size_t start[DIMS_MAX] = {0}, count[DIMS_MAX], n = 1;
  for (int r = 0; r < v->rank; r++) {
    count[r] = lengths[v->dims[r]];
    n *= count[r];
  }
  if (n == 0 || n > VALUES_MAX) {
    return;
  }
  if (v->type == NC_STRING) {
    char *strings[VALUES_MAX];
    make_strings(b, n, pool, strings);
    nc_put_vara_string(ncid, v->id, start, count, (const char **)strings);
    return;
  }
  size_t size = v->type == NC_NAT ? 4 : type_size(v->type);
  for (size_t k = 0; k < n; k++) {
    if (v->type == NC_CHAR) {
      fuzz_raw(b, buffer + k, 1);
    } else {
      make_value(b, v->type, k, buffer + k * size);
    }
  }
  nc_put_vara(ncid, v->id, start, count, buffer);
}

/* Writes the file the bytes describe to path; false when netCDF-C cannot even create it. */
static bool write_file(FuzzBytes *b, const char *path, Var *vars, int *nvars, size_t *lengths, int *dim_ids,
                       int *ndims) {
  unsigned format = fuzz_take(b, COUNT(formats));
  bool netcdf4 = (formats[format].mode & NC_NETCDF4) != 0;
  int ncid = -1, enum_type = NC_NAT;
  if (nc_create(path, formats[format].mode | NC_CLOBBER, &ncid) != NC_NOERR) {
    return false;
  }
  size_t records[DIMS_MAX];
  *ndims = 0;
  for (int d = 1 + (int)fuzz_take(b, DIMS_MAX); d > 0; d--) {
    size_t length = fuzz_take(b, POINTS_MAX + 1); /* 0: unlimited */
    records[*ndims] = fuzz_take(b, POINTS_MAX + 1);
    if (nc_def_dim(ncid, dim_names[fuzz_take(b, COUNT(dim_names))], length ? length : NC_UNLIMITED, &dim_ids[*ndims]) ==
        NC_NOERR) {
      lengths[*ndims] = length ? length : records[*ndims];
      (*ndims)++;
    }
  }
  if (formats[format].ntypes > 12) {
    int calm = 0, rough = 1;
    if (nc_def_enum(ncid, NC_INT, "sea", &enum_type) != NC_NOERR ||
        nc_insert_enum(ncid, enum_type, "calm", &calm) != NC_NOERR ||
        nc_insert_enum(ncid, enum_type, "rough", &rough) != NC_NOERR) {
      enum_type = NC_NAT;
    }
  }
  *nvars = 0;
  for (int count = 1 + (int)fuzz_take(b, VARS_MAX); count > 0; count--) {
    Var *v = &vars[*nvars];
    v->type = types[fuzz_take(b, formats[format].ntypes)];
    v->rank = *ndims ? (int)fuzz_take(b, (unsigned)*ndims + 1) : 0;
    int ids[DIMS_MAX];
    for (int r = 0; r < v->rank; r++) {
      v->dims[r] = (int)fuzz_take(b, (unsigned)*ndims);
      ids[r] = dim_ids[v->dims[r]];
    }
    v->write = fuzz_take(b, 4) != 0;
    v->xtype = v->type == NC_NAT ? enum_type : v->type;
    if (v->xtype == NC_NAT ||
        nc_def_var(ncid, var_names[fuzz_take(b, COUNT(var_names))], v->xtype, v->rank, ids, &v->id) != NC_NOERR) {
      continue;
    }
    if (fuzz_take(b, 4) == 0) {
      nc_def_var_fill(ncid, v->id, NC_NOFILL, NULL);
    }
    for (int a = (int)fuzz_take(b, ATTS_MAX + 1); a > 0; a--) {
      put_attribute(b, ncid, v, netcdf4);
    }
    (*nvars)++;
  }
  nc_enddef(ncid);
  for (int k = 0; k < *nvars; k++) {
    if (vars[k].write) {
      put_values(b, ncid, &vars[k], lengths);
    }
  }
  for (int d = 0; d < *ndims; d++) { /* an unlimited dimension has the records written along it */
    nc_inq_dimlen(ncid, dim_ids[d], &lengths[d]);
  }
  return nc_close(ncid) == NC_NOERR;
}

static void check_series(const double *t, const double *v, int n) {
  FUZZ_CHECK(n > 0, "an accepted series has %d samples", n);
  for (int k = 0; k < n; k++) {
    FUZZ_CHECK(isfinite(t[k]) && isfinite(v[k]), "sample %d: time %g, value %g", k, t[k], v[k]);
    FUZZ_CHECK(k == 0 || t[k] > t[k - 1], "time %g at %d does not follow %g", t[k], k, k ? t[k - 1] : 0);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzBytes b = {data, size};
  Var vars[VARS_MAX];
  size_t lengths[DIMS_MAX] = {0};
  int dim_ids[DIMS_MAX], nvars = 0, ndims = 0;
  const char *path = fuzz_write("in.nc", NULL, 0);
  if (!write_file(&b, path, vars, &nvars, lengths, dim_ids, &ndims)) {
    return 0;
  }

  /* The series reader, its times counted from 2000-01-01 or from 1970. */
  double *t = NULL, *v = NULL;
  int n = 0;
  HclStatus status = hcl_input_read_series(path, fuzz_bool(&b) ? 946684800.0 : 0.0, "m", &t, &v, &n);
  if (status == HCL_OK) {
    check_series(t, v, n);
  }
  fuzz_accept(status);
  free(t);
  free(v);

  /* The grid reader, for the shape of the first 2D variable (or another one) and a variable named or not. */
  int nx = 1 + (int)fuzz_take(&b, POINTS_MAX), ny = 1 + (int)fuzz_take(&b, POINTS_MAX);
  for (int k = nvars - 1; k >= 0; k--) {
    if (vars[k].rank == 2 && !fuzz_bool(&b)) {
      ny = (int)lengths[vars[k].dims[0]];
      nx = (int)lengths[vars[k].dims[1]];
    }
  }
  const char *variable = fuzz_take(&b, 3) == 0 ? var_names[fuzz_take(&b, COUNT(var_names))] : NULL;
  if (nx >= 1 && ny >= 1) {
    fuzz_read_grid(path, variable, nx, ny);
  }
  return 0;
}
