/* SPDX-License-Identifier: BSD-3-Clause */
/* ship_track.c: ship tracks and fleets from CSV files (see ship_track.h). */
#include "ship_track.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"

static const double PI = 3.14159265358979323846;

enum { COLUMNS_MAX = 16, PATH_MAX_CHARS = 4096 };

/* ---- CSV ---- */

/* A CSV file read line by line (lines of any length: hcl_input_read_line): its header's columns, then one row at a
 * time. */
typedef struct {
  const char *path;
  FILE *f;
  InputLine line;
  char *cells[COLUMNS_MAX];
  int ncells; /* every cell of the row, those past COLUMNS_MAX too (a row of too many is refused) */
  char *header_text;
  char *header[COLUMNS_MAX];
  int ncolumns;
} Csv;

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) {
    s++;
  }
  char *end = s + strlen(s);
  while (end > s && isspace((unsigned char)end[-1])) {
    *--end = '\0';
  }
  return s;
}

/* The next line that is not blank or a comment, split at its commas into *more = true; false at the end of the
 * file. */
static HclStatus csv_next(Csv *csv, bool *more) {
  HclStatus status = HCL_OK;
  for (;;) {
    TRY(hcl_input_read_line(csv->f, csv->path, &csv->line, more));
    if (!*more) {
      break;
    }
    char *line = trim(csv->line.text);
    if (!*line || *line == '#') {
      continue;
    }
    csv->ncells = 0;
    for (char *cell = line; cell;) {
      char *comma = strchr(cell, ',');
      if (comma) {
        *comma = '\0';
      }
      if (csv->ncells < COLUMNS_MAX) {
        csv->cells[csv->ncells] = trim(cell);
      }
      csv->ncells++;
      cell = comma ? comma + 1 : NULL;
    }
    break;
  }
cleanup:
  return status;
}

/* The next row, refused unless it has as many cells as the header has columns (columns: the header's text, for
 * the message); *more false at the end of the file. */
static HclStatus csv_row(Csv *csv, const char *columns, bool *more) {
  HclStatus status = HCL_OK;
  TRY(csv_next(csv, more));
  REQUIRE(!*more || csv->ncells == csv->ncolumns, HCL_EDATA,
          "%s:%d: %d columns, %d expected (%s, as the header); a comment is a line of its own, starting with '#'",
          csv->path, csv->line.number, csv->ncells, csv->ncolumns, columns);
cleanup:
  return status;
}

static HclStatus csv_open(Csv *csv, const char *path) {
  HclStatus status = HCL_OK;
  bool more = false;
  memset(csv, 0, sizeof *csv);
  csv->path = path;
  TRY(hcl_input_open(path, &csv->f));
  TRY(csv_next(csv, &more));
  REQUIRE(more, HCL_EDATA, "%s: empty: a header line naming the columns is expected", path);
  REQUIRE(csv->ncells <= COLUMNS_MAX, HCL_EDATA, "%s:%d: a header of %d columns; ship files have at most %d", path,
          csv->line.number, csv->ncells, COLUMNS_MAX);
  /* The header's cells point into the line, which the next line replaces: a copy of the line keeps them. */
  const char *last = csv->cells[csv->ncells - 1];
  size_t length = (size_t)(last - csv->line.text) + strlen(last); /* through the last cell: commas are NULs now */
  csv->header_text = malloc(length + 1);
  REQUIRE(csv->header_text != NULL, HCL_ENOMEM, "%s: cannot copy the header", path);
  memcpy(csv->header_text, csv->line.text, length + 1);
  for (int c = 0; c < csv->ncells; c++) {
    csv->header[c] = csv->header_text + (csv->cells[c] - csv->line.text);
  }
  csv->ncolumns = csv->ncells;
cleanup:
  return status;
}

static void csv_close(Csv *csv) {
  if (csv->f) {
    fclose(csv->f);
  }
  csv->f = NULL;
  hcl_input_line_free(&csv->line);
  free(csv->header_text);
  csv->header_text = NULL;
}

/* Whether the header is exactly the names in `columns` ("x,y,speed"). */
static bool csv_header_is(const Csv *csv, const char *columns) {
  char copy[256];
  snprintf(copy, sizeof copy, "%s", columns);
  int c = 0;
  for (char *name = strtok(copy, ","); name; name = strtok(NULL, ","), c++) {
    if (c >= csv->ncolumns || strcmp(csv->header[c], name) != 0) {
      return false;
    }
  }
  return c == csv->ncolumns;
}

/* Cell c of the present row as a finite number. */
static HclStatus csv_number(const Csv *csv, int c, double *value) {
  HclStatus status = HCL_OK;
  char *end = NULL;
  REQUIRE(c < csv->ncells, HCL_EDATA, "%s:%d: %d columns, %d expected (%s, ...)", csv->path, csv->line.number,
          csv->ncells, csv->ncolumns, csv->header[0]);
  *value = strtod(csv->cells[c], &end);
  REQUIRE(end != csv->cells[c] && *end == '\0' && isfinite(*value), HCL_EDATA, "%s:%d: %s must be a number (got '%s')",
          csv->path, csv->line.number, csv->header[c], csv->cells[c]);
cleanup:
  return status;
}

/* ---- tracks ---- */

ShipTrack ship_track_straight(double x, double y, double heading_degrees, double speed) {
  return (ShipTrack){.kind = TRACK_STRAIGHT, .x = x, .y = y, .heading = heading_degrees * PI / 180, .speed = speed};
}

void ship_track_free(ShipTrack *track) {
  free(track->t);
  free(track->px);
  free(track->py);
  free(track->heading_at);
  track->t = track->px = track->py = track->heading_at = NULL;
  track->count = 0;
}

/* Room for one more point. */
static HclStatus grow(ShipTrack *track, int *capacity, bool with_heading) {
  HclStatus status = HCL_OK;
  if (track->count < *capacity) {
    return HCL_OK;
  }
  *capacity = *capacity ? 2 * *capacity : 64;
  double **arrays[] = {&track->t, &track->px, &track->py, &track->heading_at};
  for (int a = 0; a < (with_heading ? 4 : 3); a++) {
    double *more = realloc(*arrays[a], (size_t)*capacity * sizeof **arrays[a]);
    REQUIRE(more, HCL_ENOMEM, "cannot allocate a track of %d points", *capacity);
    *arrays[a] = more;
  }
cleanup:
  return status;
}

/* x,y,speed: the time each waypoint is reached, from the speed of the leg that ends there. */
static HclStatus read_waypoints(Csv *csv, ShipTrack *track) {
  HclStatus status = HCL_OK;
  int capacity = 0;
  double speed = 0;
  bool more = false;
  for (;;) {
    TRY(csv_row(csv, "x,y,speed", &more));
    if (!more) {
      break;
    }
    double x, y, leg_speed;
    TRY(grow(track, &capacity, false));
    TRY(csv_number(csv, 0, &x));
    TRY(csv_number(csv, 1, &y));
    TRY(csv_number(csv, 2, &leg_speed));
    int k = track->count;
    if (k == 0) {
      track->t[0] = 0;
    } else {
      double distance = hypot(x - track->px[k - 1], y - track->py[k - 1]);
      REQUIRE(distance > 0, HCL_EDATA, "%s:%d: a waypoint where the last one is: each leg must have a length",
              csv->path, csv->line.number);
      track->t[k] = track->t[k - 1] + distance / speed;
    }
    REQUIRE(leg_speed > 0, HCL_EDATA, "%s:%d: speed must be > 0 m/s: the leg from here is sailed at it (got %g)",
            csv->path, csv->line.number, leg_speed);
    track->px[k] = x;
    track->py[k] = y;
    speed = leg_speed;
    track->count++;
  }
  REQUIRE(track->count >= 2, HCL_EDATA, "%s: a waypoint track needs at least two points (got %d)", csv->path,
          track->count);
cleanup:
  return status;
}

/* time,x,y[,heading]: strictly increasing times; headings unwrapped so that interpolation turns the short way. */
static HclStatus read_series(Csv *csv, ShipTrack *track, bool with_heading) {
  HclStatus status = HCL_OK;
  int capacity = 0;
  bool more = false;
  for (;;) {
    TRY(csv_row(csv, with_heading ? "time,x,y,heading" : "time,x,y", &more));
    if (!more) {
      break;
    }
    TRY(grow(track, &capacity, with_heading));
    int k = track->count;
    TRY(csv_number(csv, 0, &track->t[k]));
    TRY(csv_number(csv, 1, &track->px[k]));
    TRY(csv_number(csv, 2, &track->py[k]));
    REQUIRE(k == 0 || track->t[k] > track->t[k - 1], HCL_EDATA,
            "%s:%d: time %g s does not follow the last one (%g s): times must increase", csv->path, csv->line.number,
            track->t[k], k ? track->t[k - 1] : 0);
    if (with_heading) {
      double h;
      TRY(csv_number(csv, 3, &h));
      h *= PI / 180;
      if (k > 0) {
        h -= 2 * PI * round((h - track->heading_at[k - 1]) / (2 * PI));
      }
      track->heading_at[k] = h;
    }
    track->count++;
  }
  REQUIRE(track->count >= 1, HCL_EDATA, "%s: a series track needs at least one point", csv->path);
cleanup:
  return status;
}

HclStatus ship_track_read(const char *path, ShipTrack *track) {
  HclStatus status = HCL_OK;
  Csv csv;
  memset(track, 0, sizeof *track);
  TRY(csv_open(&csv, path));
  if (csv_header_is(&csv, "x,y,speed")) {
    track->kind = TRACK_WAYPOINTS;
    TRY(read_waypoints(&csv, track));
  } else if (csv_header_is(&csv, "time,x,y") || csv_header_is(&csv, "time,x,y,heading")) {
    track->kind = TRACK_SERIES;
    TRY(read_series(&csv, track, csv.ncolumns == 4));
  } else {
    FAIL(HCL_EDATA,
         "%s:%d: the header must be 'x,y,speed' (waypoints) or 'time,x,y' or 'time,x,y,heading' (a series) (got "
         "'%s%s%s...')",
         path, csv.line.number, csv.header[0], csv.ncolumns > 1 ? "," : "", csv.ncolumns > 1 ? csv.header[1] : "");
  }
cleanup:
  csv_close(&csv);
  if (status) {
    ship_track_free(track);
  }
  return status;
}

/* The index k with t[k] <= t < t[k + 1], for t within the track's times. */
static int segment(const ShipTrack *track, double t) {
  int lo = 0, hi = track->count - 1;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (track->t[mid] <= t) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

void ship_track_at(const ShipTrack *track, double t, double *x, double *y, double *heading) {
  if (track->kind == TRACK_STRAIGHT) {
    double travelled = track->speed * fmax(t, 0);
    *x = track->x + travelled * cos(track->heading);
    *y = track->y + travelled * sin(track->heading);
    *heading = track->heading;
    return;
  }
  int last = track->count - 1;
  if (last == 0 || t <= track->t[0] || t >= track->t[last]) {
    int k = last == 0 || t <= track->t[0] ? 0 : last;
    int from = k == last && last > 0 ? last - 1 : 0; /* the heading of the nearest segment */
    *x = track->px[k];
    *y = track->py[k];
    *heading = track->heading_at ? track->heading_at[k]
               : last > 0        ? atan2(track->py[from + 1] - track->py[from], track->px[from + 1] - track->px[from])
                                 : 0;
    return;
  }
  int k = segment(track, t);
  double w = (t - track->t[k]) / (track->t[k + 1] - track->t[k]);
  *x = track->px[k] + w * (track->px[k + 1] - track->px[k]);
  *y = track->py[k] + w * (track->py[k + 1] - track->py[k]);
  *heading = track->heading_at ? track->heading_at[k] + w * (track->heading_at[k + 1] - track->heading_at[k])
                               : atan2(track->py[k + 1] - track->py[k], track->px[k + 1] - track->px[k]);
}

/* ---- fleets ---- */

static const char *const FLEET_COLUMNS = "name,length,beam,draft,x,y,heading,speed,track";

/* The track file named in a fleet's row, relative to the fleet file's folder, checked as every input path is. */
static HclStatus read_row_track(const Csv *csv, const char *name, ShipTrack *track) {
  HclStatus status = HCL_OK;
  char path[PATH_MAX_CHARS], named_by[PATH_MAX_CHARS + 32];
  const char *slash = strrchr(csv->path, '/');
  int folder = slash && name[0] != '/' ? (int)(slash - csv->path + 1) : 0;
  REQUIRE(snprintf(path, sizeof path, "%.*s%s", folder, csv->path, name) < (int)sizeof path, HCL_EDATA,
          "%s:%d: track path too long", csv->path, csv->line.number);
  snprintf(named_by, sizeof named_by, "%s:%d: track", csv->path, csv->line.number);
  TRY(hcl_input_check_file(path, named_by, name));
  TRY(ship_track_read(path, track));
cleanup:
  return status;
}

static HclStatus read_fleet_row(const Csv *csv, ShipSpec *ship) {
  HclStatus status = HCL_OK;
  double x, y, heading, speed;
  const char *name = csv->cells[0];
  memset(ship, 0, sizeof *ship);
  REQUIRE(name[0] && strlen(name) < SHIP_NAME_MAX, HCL_EDATA,
          "%s:%d: a ship's name has 1 to %d characters (got '%s'): output names the ships by them", csv->path,
          csv->line.number, SHIP_NAME_MAX - 1, name);
  snprintf(ship->name, sizeof ship->name, "%s", name);
  snprintf(ship->origin, sizeof ship->origin, "%s:%d", csv->path, csv->line.number);
  TRY(csv_number(csv, 1, &ship->length));
  TRY(csv_number(csv, 2, &ship->beam));
  TRY(csv_number(csv, 3, &ship->draft));
  REQUIRE(ship->length > 0 && ship->beam > 0 && ship->draft >= 0, HCL_EDATA,
          "%s:%d: length and beam must be > 0 m and draft >= 0 m (got %g, %g, %g)", csv->path, csv->line.number,
          ship->length, ship->beam, ship->draft);
  if (csv->cells[8][0]) {
    TRY(read_row_track(csv, csv->cells[8], &ship->track));
  } else {
    TRY(csv_number(csv, 4, &x));
    TRY(csv_number(csv, 5, &y));
    TRY(csv_number(csv, 6, &heading));
    TRY(csv_number(csv, 7, &speed));
    ship->track = ship_track_straight(x, y, heading, speed);
  }
cleanup:
  return status;
}

HclStatus ships_read_csv(const char *path, ShipSpec **ships, int *count) {
  HclStatus status = HCL_OK;
  Csv csv;
  int capacity = 0;
  bool more = false;
  *ships = NULL;
  *count = 0;
  TRY(csv_open(&csv, path));
  REQUIRE(csv_header_is(&csv, FLEET_COLUMNS), HCL_EDATA, "%s:%d: the header must be '%s'", path, csv.line.number,
          FLEET_COLUMNS);
  for (;;) {
    TRY(csv_row(&csv, FLEET_COLUMNS, &more));
    if (!more) {
      break;
    }
    if (*count == capacity) {
      capacity = capacity ? 2 * capacity : 8;
      ShipSpec *bigger = realloc(*ships, (size_t)capacity * sizeof *bigger);
      REQUIRE(bigger, HCL_ENOMEM, "cannot allocate %d ships", capacity);
      *ships = bigger;
    }
    TRY(read_fleet_row(&csv, &(*ships)[*count]));
    (*count)++;
  }
cleanup:
  csv_close(&csv);
  if (status) {
    ships_free(*ships, *count);
    *ships = NULL;
    *count = 0;
  }
  return status;
}

HclStatus ships_check(const ShipSpec *ships, int count, double x_first, double x_last, double y_first, double y_last) {
  HclStatus status = HCL_OK;
  for (int s = 0; s < count; s++) {
    const ShipSpec *ship = &ships[s];
    for (int q = 0; q < s; q++) { /* a fleet is a few dozen ships: pairs are cheap */
      REQUIRE(strcmp(ships[q].name, ship->name) != 0, HCL_EDATA,
              "%s: ship '%s' is named twice (first at %s); each ship needs a name of its own", ship->origin, ship->name,
              ships[q].origin);
    }
    const ShipTrack *track = &ship->track;
    int points = track->kind == TRACK_STRAIGHT ? 1 : track->count;
    for (int k = 0; k < points; k++) {
      double x = track->kind == TRACK_STRAIGHT ? track->x : track->px[k];
      double y = track->kind == TRACK_STRAIGHT ? track->y : track->py[k];
      REQUIRE(x >= x_first && x <= x_last && y >= y_first && y <= y_last, HCL_EDATA,
              "%s: ship '%s' %s (%g, %g) m, outside the domain, x %g to %g m, y %g to %g m; a ship starts, and "
              "its track runs, inside it",
              ship->origin, ship->name,
              track->kind == TRACK_STRAIGHT ? "starts at"
              : k == 0                      ? "starts its track at"
                                            : "has a track point at",
              x, y, x_first, x_last, y_first, y_last);
    }
  }
cleanup:
  return status;
}

void ships_free(ShipSpec *ships, int count) {
  for (int s = 0; ships && s < count; s++) {
    ship_track_free(&ships[s].track);
  }
  free(ships);
}
