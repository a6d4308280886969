/* SPDX-License-Identifier: BSD-3-Clause */
/* ship_track.c: ship tracks and fleets from CSV files (see ship_track.h). */
#include "ship_track.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "inputs.h"
#include "textlist.h"

static const double PI = 3.14159265358979323846;

enum { PATH_MAX_CHARS = 4096 };

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
    TRY(hcl_csv_row(csv, "x,y,speed", &more));
    if (!more) {
      break;
    }
    double x, y, leg_speed;
    TRY(grow(track, &capacity, false));
    TRY(hcl_csv_number(csv, 0, &x));
    TRY(hcl_csv_number(csv, 1, &y));
    TRY(hcl_csv_number(csv, 2, &leg_speed));
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

/* Headings unwrapped so that interpolation turns the short way: heading_at[k] within pi of heading_at[k - 1]. */
static void unwrap_headings(ShipTrack *track) {
  for (int k = 1; track->heading_at && k < track->count; k++) {
    track->heading_at[k] -= 2 * PI * round((track->heading_at[k] - track->heading_at[k - 1]) / (2 * PI));
  }
}

/* The columns of a series: time, the position (x, y in the grid; or latitude and longitude) and the heading (in the
 * grid, counter-clockwise from +x; or the course over ground, clockwise from north), -1 where absent. */
typedef struct {
  int time, x, y, heading;
  bool geographic;
} SeriesColumns;

/* A series header's columns by name, in any order: time,x,y[,heading] or time,lat,lon[,course|cog]. */
static bool series_columns(const Csv *csv, SeriesColumns *columns) {
  *columns = (SeriesColumns){-1, -1, -1, -1, false};
  int grid = 0, geographic = 0;
  for (int c = 0; c < csv->ncolumns; c++) {
    const char *name = csv->header[c];
    int *slot = strcmp(name, "time") == 0                                     ? &columns->time
                : strcmp(name, "x") == 0 || strcmp(name, "lon") == 0          ? &columns->x
                : strcmp(name, "y") == 0 || strcmp(name, "lat") == 0          ? &columns->y
                : strcmp(name, "heading") == 0 || strcmp(name, "course") == 0 ? &columns->heading
                : strcmp(name, "cog") == 0                                    ? &columns->heading
                                                                              : NULL;
    if (!slot || *slot >= 0) {
      return false;
    }
    *slot = c;
    grid += strcmp(name, "x") == 0 || strcmp(name, "y") == 0 || strcmp(name, "heading") == 0;
    geographic +=
        strcmp(name, "lat") == 0 || strcmp(name, "lon") == 0 || strcmp(name, "course") == 0 || strcmp(name, "cog") == 0;
  }
  columns->geographic = geographic > 0;
  return columns->time >= 0 && columns->x >= 0 && columns->y >= 0 && (grid == 0 || geographic == 0);
}

/* Latitudes and longitudes (px: longitude, py: latitude, degrees) and courses (heading_at, degrees clockwise from
 * north) projected into the grid's CRS: the positions, and each heading as the direction in the grid towards a
 * point 1e-5 degrees (a metre) along the course. */
static HclStatus project_series(const Csv *csv, const Crs *crs, ShipTrack *track) {
  HclStatus status = HCL_OK;
  int n = track->count;
  double *ahead_lon = NULL, *ahead_lat = NULL, *ahead_x = NULL, *ahead_y = NULL;
  REQUIRE(crs != NULL, HCL_EDATA,
          "%s: a track in latitude and longitude needs grid.crs, the grid's projected CRS, to place it on the grid",
          csv->path);
  if (track->heading_at) {
    TRY_ALLOC(ahead_lon, n);
    TRY_ALLOC(ahead_lat, n);
    TRY_ALLOC(ahead_x, n);
    TRY_ALLOC(ahead_y, n);
    for (int k = 0; k < n; k++) {
      double course = track->heading_at[k] * PI / 180, step = 1e-5;
      ahead_lat[k] = track->py[k] + step * cos(course);
      ahead_lon[k] = track->px[k] + step * sin(course) / cos(track->py[k] * PI / 180);
    }
    TRY(hcl_crs_from_lonlat(crs, n, ahead_lon, ahead_lat, ahead_x, ahead_y, csv->path));
  }
  TRY(hcl_crs_from_lonlat(crs, n, track->px, track->py, track->px, track->py, csv->path));
  for (int k = 0; track->heading_at && k < n; k++) {
    track->heading_at[k] = atan2(ahead_y[k] - track->py[k], ahead_x[k] - track->px[k]);
  }
cleanup:
  free(ahead_lon);
  free(ahead_lat);
  free(ahead_x);
  free(ahead_y);
  return status;
}

/* A series: strictly increasing times; positions in the grid or projected from latitude and longitude. */
static HclStatus read_series(Csv *csv, const TrackFrame *frame, const SeriesColumns *columns, ShipTrack *track) {
  HclStatus status = HCL_OK;
  int capacity = 0;
  bool more = false, with_heading = columns->heading >= 0;
  char names[256] = "";
  for (int c = 0; c < csv->ncolumns; c++) {
    hcl_textlist_append(names, sizeof names, c, csv->ncolumns, ",", ",", "%s", csv->header[c]);
  }
  for (;;) {
    TRY(hcl_csv_row(csv, names, &more));
    if (!more) {
      break;
    }
    TRY(grow(track, &capacity, with_heading));
    int k = track->count;
    TRY(hcl_csv_time(csv, columns->time, frame->start, &track->t[k]));
    TRY(hcl_csv_number(csv, columns->x, &track->px[k]));
    TRY(hcl_csv_number(csv, columns->y, &track->py[k]));
    REQUIRE(k == 0 || track->t[k] > track->t[k - 1], HCL_EDATA,
            "%s:%d: time %g s does not follow the last one (%g s): times must increase", csv->path, csv->line.number,
            track->t[k], k ? track->t[k - 1] : 0);
    REQUIRE(!columns->geographic || (fabs(track->py[k]) <= 90 && fabs(track->px[k]) <= 360), HCL_EDATA,
            "%s:%d: latitude %g and longitude %g are not degrees (latitude within -90 to 90)", csv->path,
            csv->line.number, track->py[k], track->px[k]);
    if (with_heading) {
      TRY(hcl_csv_number(csv, columns->heading, &track->heading_at[k]));
      if (!columns->geographic) {
        track->heading_at[k] *= PI / 180;
      }
    }
    track->count++;
  }
  REQUIRE(track->count >= 1, HCL_EDATA, "%s: a series track needs at least one point", csv->path);
  if (columns->geographic) {
    TRY(project_series(csv, frame->crs, track));
    track->geographic = true;
  }
  unwrap_headings(track);
cleanup:
  return status;
}

HclStatus ship_track_read(const char *path, const TrackFrame *frame, ShipTrack *track) {
  HclStatus status = HCL_OK;
  Csv csv = {0};
  SeriesColumns columns;
  memset(track, 0, sizeof *track);
  TRY(hcl_csv_open_header(path, &csv));
  if (hcl_csv_header_is(&csv, "x,y,speed")) {
    track->kind = TRACK_WAYPOINTS;
    TRY(read_waypoints(&csv, track));
  } else if (series_columns(&csv, &columns)) {
    track->kind = TRACK_SERIES;
    TRY(read_series(&csv, frame, &columns, track));
  } else {
    FAIL(HCL_EDATA,
         "%s:%d: the header must be 'x,y,speed' (waypoints), 'time,x,y[,heading]' or 'time,lat,lon[,course]' (a "
         "series, its columns in any order; course also as cog) (got '%s%s%s...')",
         path, csv.line.number, csv.header[0], csv.ncolumns > 1 ? "," : "", csv.ncolumns > 1 ? csv.header[1] : "");
  }
cleanup:
  hcl_csv_close(&csv);
  if (status) {
    ship_track_free(track);
  }
  return status;
}

void ship_track_describe(const ShipTrack *track, char *text, size_t size) {
  switch (track->kind) {
  case TRACK_STRAIGHT:
    snprintf(text, size, "straight from (%g, %g) m, heading %g degrees at %g m/s", track->x, track->y,
             track->heading * 180 / PI, track->speed);
    break;
  case TRACK_WAYPOINTS:
    snprintf(text, size, "%d waypoints, the last reached at t = %g s", track->count, track->t[track->count - 1]);
    break;
  case TRACK_SERIES:
    snprintf(text, size, "series of %d points from t = %g to %g s%s", track->count, track->t[0],
             track->t[track->count - 1], track->geographic ? ", projected from WGS 84 latitude and longitude" : "");
    break;
  }
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
static HclStatus read_row_track(const Csv *csv, const char *name, const TrackFrame *frame, ShipTrack *track) {
  HclStatus status = HCL_OK;
  char path[PATH_MAX_CHARS], named_by[PATH_MAX_CHARS + 32];
  const char *slash = strrchr(csv->path, '/');
  int folder = slash && name[0] != '/' ? (int)(slash - csv->path + 1) : 0;
  REQUIRE(snprintf(path, sizeof path, "%.*s%s", folder, csv->path, name) < (int)sizeof path, HCL_EDATA,
          "%s:%d: track path too long", csv->path, csv->line.number);
  snprintf(named_by, sizeof named_by, "%s:%d: track", csv->path, csv->line.number);
  TRY(hcl_input_check_file(path, named_by, name));
  TRY(ship_track_read(path, frame, track));
cleanup:
  return status;
}

static HclStatus read_fleet_row(const Csv *csv, const TrackFrame *frame, ShipSpec *ship) {
  HclStatus status = HCL_OK;
  double x, y, heading, speed;
  const char *name = csv->cells[0];
  memset(ship, 0, sizeof *ship);
  REQUIRE(name[0] && strlen(name) < SHIP_NAME_MAX, HCL_EDATA,
          "%s:%d: a ship's name has 1 to %d characters (got '%s'): output names the ships by them", csv->path,
          csv->line.number, SHIP_NAME_MAX - 1, name);
  snprintf(ship->name, sizeof ship->name, "%s", name);
  snprintf(ship->origin, sizeof ship->origin, "%s:%d", csv->path, csv->line.number);
  TRY(hcl_csv_number(csv, 1, &ship->length));
  TRY(hcl_csv_number(csv, 2, &ship->beam));
  TRY(hcl_csv_number(csv, 3, &ship->draft));
  REQUIRE(ship->length > 0 && ship->beam > 0 && ship->draft >= 0, HCL_EDATA,
          "%s:%d: length and beam must be > 0 m and draft >= 0 m (got %g, %g, %g)", csv->path, csv->line.number,
          ship->length, ship->beam, ship->draft);
  if (csv->cells[8][0]) {
    TRY(read_row_track(csv, csv->cells[8], frame, &ship->track));
  } else {
    TRY(hcl_csv_number(csv, 4, &x));
    TRY(hcl_csv_number(csv, 5, &y));
    TRY(hcl_csv_number(csv, 6, &heading));
    TRY(hcl_csv_number(csv, 7, &speed));
    ship->track = ship_track_straight(x, y, heading, speed);
  }
cleanup:
  return status;
}

HclStatus ships_read_csv(const char *path, const TrackFrame *frame, ShipSpec **ships, int *count) {
  HclStatus status = HCL_OK;
  Csv csv = {0};
  int capacity = 0;
  bool more = false;
  *ships = NULL;
  *count = 0;
  TRY(hcl_csv_open_header(path, &csv));
  REQUIRE(hcl_csv_header_is(&csv, FLEET_COLUMNS), HCL_EDATA, "%s:%d: the header must be '%s'", path, csv.line.number,
          FLEET_COLUMNS);
  for (;;) {
    TRY(hcl_csv_row(&csv, FLEET_COLUMNS, &more));
    if (!more) {
      break;
    }
    if (*count == capacity) {
      capacity = capacity ? 2 * capacity : 8;
      ShipSpec *bigger = realloc(*ships, (size_t)capacity * sizeof *bigger);
      REQUIRE(bigger, HCL_ENOMEM, "cannot allocate %d ships", capacity);
      *ships = bigger;
    }
    TRY(read_fleet_row(&csv, frame, &(*ships)[*count]));
    (*count)++;
  }
cleanup:
  hcl_csv_close(&csv);
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
