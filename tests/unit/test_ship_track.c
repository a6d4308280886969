/* SPDX-License-Identifier: BSD-3-Clause */
/* test_ship_track.c: the variational Boussinesq model's ship tracks and fleets (src/vbm/ship_track.h) against
 * positions worked out by hand: a straight line, waypoints (arrival times from the legs' speeds, the heading of each
 * leg, a stop at the last point), a series (interpolation, the heading column turned the short way across 180
 * degrees, the direction of motion without it), a fleet file; and each mistake refused with file:line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "ship_track.h"
#include "../support/tap.h"

static const double PI = 3.14159265358979323846;
/* Times in seconds from t = 0, no grid CRS. */
static const TrackFrame NO_FRAME = {0, NULL};

static char folder[] = "/tmp/test_ship_track_XXXXXX";

/* Writes text to folder/name; returns the path (static). */
static const char *write_file(const char *name, const char *text) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", folder, name);
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
  return path;
}

static bool near(double a, double b) {
  return fabs(a - b) < 1e-12 * fmax(1, fabs(b));
}

static void straight(void) {
  ShipTrack t = ship_track_straight(100, 50, 90, 4);
  double x, y, h;
  ship_track_at(&t, 10, &x, &y, &h);
  TAP_OK(near(x, 100) && near(y, 90) && near(h, PI / 2), "straight: 10 s at 4 m/s due +y (%g, %g, %g)", x, y, h);
  ship_track_at(&t, -5, &x, &y, &h);
  TAP_OK(near(x, 100) && near(y, 50), "straight: before t = 0 the ship waits at its start");
}

/* (0, 0) -> (100, 0) at 5 m/s: 20 s; -> (100, 60) at 3 m/s: 20 s more. */
static void waypoints(void) {
  ShipTrack t;
  const char *path = write_file("waypoints.csv", "# a two-leg track\nx,y,speed\n0,0,5\n100,0,3\n\n100,60,1\n");
  HclStatus s = ship_track_read(path, &NO_FRAME, &t);
  TAP_OK(s == HCL_OK && t.kind == TRACK_WAYPOINTS && t.count == 3, "waypoints read %s", s ? hcl_status_message() : "");
  if (s) {
    return;
  }
  double x, y, h;
  TAP_OK(near(t.t[1], 20) && near(t.t[2], 40), "arrival times from the legs' speeds (%g, %g s)", t.t[1], t.t[2]);
  ship_track_at(&t, 10, &x, &y, &h);
  TAP_OK(near(x, 50) && near(y, 0) && near(h, 0), "halfway along the first leg, heading +x");
  ship_track_at(&t, 30, &x, &y, &h);
  TAP_OK(near(x, 100) && near(y, 30) && near(h, PI / 2), "halfway along the second, heading +y (%g, %g)", x, y);
  ship_track_at(&t, 100, &x, &y, &h);
  TAP_OK(near(x, 100) && near(y, 60) && near(h, PI / 2), "stopped at the last point, the last leg's heading");
  ship_track_free(&t);
}

static void series(void) {
  ShipTrack t;
  const char *path = write_file("series.csv", "time,x,y,heading\n0,0,0,170\n10,10,0,-170\n");
  HclStatus s = ship_track_read(path, &NO_FRAME, &t);
  TAP_OK(s == HCL_OK && t.kind == TRACK_SERIES && t.heading_at, "series with headings read %s",
         s ? hcl_status_message() : "");
  if (s == HCL_OK) {
    double x, y, h;
    ship_track_at(&t, 5, &x, &y, &h);
    TAP_OK(near(x, 5) && near(cos(h), -1), "170 to -170 degrees turns through 180, not through 0 (%g deg)",
           h * 180 / PI);
    ship_track_free(&t);
  }
  path = write_file("motion.csv", "time,x,y\n0,0,0\n10,0,-20\n");
  s = ship_track_read(path, &NO_FRAME, &t);
  if (TAP_OK(s == HCL_OK && !t.heading_at, "series without headings read")) {
    double x, y, h;
    ship_track_at(&t, 2.5, &x, &y, &h);
    TAP_OK(near(y, -5) && near(h, -PI / 2), "pointing where it moves (%g deg)", h * 180 / PI);
    ship_track_free(&t);
  }
}

/* An AIS-like series in WGS 84 latitude and longitude with ISO times and courses, on UTM zone 31N (EPSG:32631),
 * at points whose projection is known exactly: the central meridian (3 E) on the equator is (500000, 0) by the
 * false easting, and 3 degrees east of it on the equator 833978.557 m (Karney 2011, and tests/cli/utm.py); there
 * the grid's north is true north and its east true east (no meridian convergence on the equator or the central
 * meridian), so courses 0 and 90 are headings of 90 and 0 degrees. 1 mm and 1e-6 rad hold PROJ's rounding and the
 * course's 1e-5-degree step. */
static void geographic(void) {
  ShipTrack t;
  Crs *crs = NULL;
  double start = 0;
  HclStatus s = hcl_crs_create("EPSG:32631", "test", &crs);
  TAP_OK(s == HCL_OK && hcl_input_parse_date("2023-06-01 00:00:00", &start), "UTM zone 31N and the start %s",
         s ? hcl_status_message() : "");
  if (s) {
    return;
  }
  TrackFrame frame = {start, crs};
  const char *path = write_file("ais.csv", "time,lat,lon,cog\n2023-06-01T00:00:00Z,0,3,0\n"
                                           "2023-06-01 02:01:40+02:00,0,6,90\n");
  s = ship_track_read(path, &frame, &t);
  if (TAP_OK(s == HCL_OK && t.kind == TRACK_SERIES && t.count == 2, "a track in latitude and longitude read %s",
             s ? hcl_status_message() : "")) {
    TAP_OK(near(t.t[0], 0) && near(t.t[1], 100), "ISO times, one at an offset, from time.start (%g, %g s)", t.t[0],
           t.t[1]);
    TAP_OK(fabs(t.px[0] - 500000) < 1e-3 && fabs(t.py[0]) < 1e-3 && fabs(t.px[1] - 833978.557) < 1e-3 &&
               fabs(t.py[1]) < 1e-3,
           "projected into the grid's CRS: (%.4f, %.4f), (%.4f, %.4f) m", t.px[0], t.py[0], t.px[1], t.py[1]);
    TAP_OK(fabs(t.heading_at[0] - PI / 2) < 1e-6 && fabs(t.heading_at[1]) < 1e-6,
           "courses over ground 0 and 90 are headings +y and +x (%.8f, %.8f rad)", t.heading_at[0], t.heading_at[1]);
    ship_track_free(&t);
  }
  frame.crs = NULL;
  s = ship_track_read(path, &frame, &t);
  TAP_OK(s == HCL_EDATA && strstr(hcl_status_message(), "needs grid.crs"),
         "latitude and longitude without grid.crs are refused: %s", hcl_status_message());
  hcl_status_clear();
  hcl_crs_destroy(&crs);
}

static void fleet(void) {
  ShipSpec *ships = NULL;
  int count = 0;
  write_file("fleet-track.csv", "x,y,speed\n0,0,2\n0,10,2\n");
  const char *path = write_file("fleet.csv", "name,length,beam,draft,x,y,heading,speed,track\n"
                                             "ferry,80,14,3,10,20,0,6,\n"
                                             "tug,25,8,2.5,,,,,fleet-track.csv\n");
  HclStatus s = ships_read_csv(path, &NO_FRAME, &ships, &count);
  TAP_OK(s == HCL_OK && count == 2, "a fleet of two read %s", s ? hcl_status_message() : "");
  if (s == HCL_OK) {
    TAP_OK(strcmp(ships[0].name, "ferry") == 0 && ships[0].track.kind == TRACK_STRAIGHT && near(ships[0].length, 80),
           "the ferry on a straight track");
    TAP_OK(ships[1].track.kind == TRACK_WAYPOINTS && near(ships[1].track.t[1], 5),
           "the tug on its waypoints, read beside the fleet file");
  }
  ships_free(ships, count);
}

/* A line longer than any fixed buffer is one line: a 5000-character comment whose tail would be a waypoint. */
static void long_line(void) {
  char text[6000];
  int n = snprintf(text, sizeof text, "x,y,speed\n0,0,5\n#");
  memset(text + n, 'a', 4094);
  snprintf(text + n + 4094, sizeof text - (size_t)n - 4094, "500,0,1\n100,0,3\n");
  ShipTrack t;
  HclStatus s = ship_track_read(write_file("long.csv", text), &NO_FRAME, &t);
  TAP_OK(s == HCL_OK && t.count == 2 && near(t.px[1], 100), "a 4100-character comment stays a comment (%d points) %s",
         t.count, s ? hcl_status_message() : "");
  if (s == HCL_OK) {
    ship_track_free(&t);
  }
}

/* A track that is not a regular file: a folder is said to be one; a device (/dev/zero, which never ends) named in a
 * fleet file is refused before it is read, naming the fleet file's line. */
static void not_files(void) {
  ShipTrack t;
  ShipSpec *ships = NULL;
  int count = 0;
  hcl_status_clear();
  HclStatus s = ship_track_read(folder, &NO_FRAME, &t);
  TAP_OK(s == HCL_EDATA && strstr(hcl_status_message(), "is a folder"), "a folder as a track: %s",
         hcl_status_message());
  hcl_status_clear();
  s = ships_read_csv(write_file("zero.csv", "name,length,beam,draft,x,y,heading,speed,track\n"
                                            "a,10,2,1,,,,,/dev/zero\n"),
                     &NO_FRAME, &ships, &count);
  TAP_OK(s == HCL_EDATA && strstr(hcl_status_message(), "zero.csv:2: track") &&
             strstr(hcl_status_message(), "a device"),
         "/dev/zero as a fleet's track: %s", hcl_status_message());
}

/* ships_check: names unique, every ship's start and track points inside the domain, each named by its origin. */
static void checks(void) {
  ShipSpec ships[2];
  memset(ships, 0, sizeof ships);
  snprintf(ships[0].name, sizeof ships[0].name, "a");
  snprintf(ships[0].origin, sizeof ships[0].origin, "f.csv:2");
  ships[0].track = ship_track_straight(10, 10, 0, 1);
  ships[1] = ships[0];
  snprintf(ships[1].origin, sizeof ships[1].origin, "f.csv:3");
  hcl_status_clear();
  HclStatus s = ships_check(ships, 2, 0, 100, 0, 50);
  TAP_OK(s == HCL_EDATA && strstr(hcl_status_message(), "f.csv:3: ship 'a' is named twice (first at f.csv:2)"),
         "two ships of one name: %s", hcl_status_message());
  snprintf(ships[1].name, sizeof ships[1].name, "b");
  TAP_OK(ships_check(ships, 2, 0, 100, 0, 50) == HCL_OK, "two ships of two names inside the domain");
  ships[1].track = ship_track_straight(10, 60, 0, 1);
  hcl_status_clear();
  s = ships_check(ships, 2, 0, 100, 0, 50);
  TAP_OK(s == HCL_EDATA && strstr(hcl_status_message(), "f.csv:3: ship 'b' starts at (10, 60) m, outside the domain"),
         "a ship starting outside the domain: %s", hcl_status_message());
}

/* Each mistake: the status and a part of its message. */
static void refused(const char *name, const char *text, bool is_fleet, const char *expected) {
  const char *path = write_file(name, text);
  HclStatus s;
  hcl_status_clear();
  if (is_fleet) {
    ShipSpec *ships;
    int count;
    s = ships_read_csv(path, &NO_FRAME, &ships, &count);
  } else {
    ShipTrack t;
    s = ship_track_read(path, &NO_FRAME, &t);
  }
  TAP_OK(s == HCL_EDATA && strstr(hcl_status_message(), expected), "%s refused: '%s'", name,
         s ? hcl_status_message() : "");
}

int main(void) {
  if (!mkdtemp(folder)) {
    TAP_OK(false, "a temporary folder");
    return tap_done();
  }
  straight();
  waypoints();
  series();
  geographic();
  fleet();
  long_line();
  not_files();
  checks();
  refused("header.csv", "x,y\n0,0\n", false, "header.csv:1: the header must be 'x,y,speed'");
  refused("backwards.csv", "time,x,y\n0,0,0\n5,1,1\n5,2,2\n", false,
          "backwards.csv:4: time 5 s does not follow the last one");
  refused("number.csv", "x,y,speed\n0,0,fast\n", false, "number.csv:2: speed must be a number (got 'fast')");
  refused("pole.csv", "time,lat,lon\n0,95,3\n", false, "pole.csv:2: latitude 95 and longitude 3 are not degrees");
  refused("mixed.csv", "time,x,lat\n0,0,0\n", false, "mixed.csv:1: the header must be");
  refused("when.csv", "time,x,y\nnoon,0,0\n", false, "when.csv:2: time must be seconds from the run's start or an ISO");
  refused("still.csv", "x,y,speed\n0,0,0\n1,1,1\n", false, "still.csv:2: speed must be > 0 m/s");
  refused("one.csv", "x,y,speed\n0,0,1\n", false, "a waypoint track needs at least two points");
  refused("beam.csv", "name,length,beam,draft,x,y,heading,speed,track\nx,10,0,1,0,0,0,0,\n", true,
          "beam.csv:2: length and beam must be > 0 m");
  refused("columns.csv", "name,length,beam,draft,x,y,heading,speed,track\nx,10,2,1,0,0\n", true,
          "columns.csv:2: 6 columns, 9 expected");
  refused("extra.csv", "x,y,speed\n0,0,1\n5,5,1,7\n", false, "extra.csv:3: 4 columns, 3 expected (x,y,speed");
  refused("extraseries.csv", "time,x,y\n0,0,0,1\n", false, "extraseries.csv:2: 4 columns, 3 expected");
  refused("noname.csv", "name,length,beam,draft,x,y,heading,speed,track\n ,10,2,1,0,0,0,1,\n", true,
          "noname.csv:2: a ship's name has 1 to 63 characters (got '')");
  char command[600];
  snprintf(command, sizeof command, "rm -rf %s", folder);
  (void)!system(command);
  return tap_done();
}
