/* SPDX-License-Identifier: BSD-3-Clause */
/* ship_track.h: where a ship of the variational Boussinesq model is at time t: a straight line at constant speed,
 * a list of waypoints with the speed of each leg, or a position (and heading) time series, as a ship simulator or
 * an AIS record gives it; and a fleet of ships from a CSV file. Files are CSV with a header naming the columns,
 * '#' comments and blank lines skipped, every row as many cells as the header has columns, lines of any length;
 * mistakes are HCL_EDATA with file:line.
 *
 *   waypoints:  x,y,speed             the ship leaves the first point at t = 0 and sails each leg at the speed given
 *                                     at its start (m, m, m/s); it stops at the last point
 *   series:     time,x,y[,heading]    linear interpolation in time (s, m, m, degrees), held beyond the ends; without
 *                                     a heading the ship points where it moves
 *               time,lat,lon[,course] the same as an AIS record gives it: WGS 84 latitude and longitude (degrees, in
 *                                     either order), projected into the grid's CRS (grid.crs, which it needs), and
 *                                     the course over ground (degrees clockwise from north, or cog)
 *               The time is seconds from the run's start or an ISO 8601 date and time (UTC or at the offset it
 *               names), placed by time.start.
 *   fleet:      name,length,beam,draft,x,y,heading,speed,track
 *               one ship a line: its hull (m), and either a straight track from (x, y) along heading (degrees) at
 *               speed (m/s), or track naming a waypoint or series file (relative to the fleet file's folder; x, y,
 *               heading and speed then unused)
 * Headings are counter-clockwise from the +x axis. */
#ifndef HYDROCL_SHIP_TRACK_H
#define HYDROCL_SHIP_TRACK_H

#include <stdbool.h>
#include <stddef.h>

#include "crs.h"
#include "status.h"

typedef enum { TRACK_STRAIGHT, TRACK_WAYPOINTS, TRACK_SERIES } TrackKind;

typedef struct {
  TrackKind kind;
  double x, y, heading, speed; /* straight: start (m), heading (radians), speed (m/s) */
  int count;                   /* waypoints, series: their points */
  double *t, *px, *py;         /* the time each point is reached (waypoints: from the legs' speeds), s; where, m */
  double *heading_at;          /* series with a heading column: radians, unwrapped; NULL otherwise */
  bool geographic;             /* series: projected from WGS 84 latitude and longitude */
} ShipTrack;

/* One line on a track for validate: "straight from (1850, 400) m, heading 180 degrees at 8 m/s", "series of 12
 * points from t = 0 to 600 s, projected from WGS 84 latitude and longitude", "4 waypoints, reached by t = 310 s". */
void ship_track_describe(const ShipTrack *track, char *text, size_t size);

enum { SHIP_NAME_MAX = 64, SHIP_ORIGIN_MAX = 4200 };
typedef struct {
  char name[SHIP_NAME_MAX];
  char origin[SHIP_ORIGIN_MAX]; /* where it was given: "ships.csv:3", "case.yml:30:11" */
  double length, beam, draft;   /* m */
  ShipTrack track;
} ShipSpec;

/* Where a track file's times and places are set: the calendar time of t = 0 (seconds since 1970, time.start) and
 * the grid's CRS (NULL: none, so no latitude and longitude). Borrowed. */
typedef struct {
  double start;
  const Crs *crs;
} TrackFrame;

/* A straight track. */
ShipTrack ship_track_straight(double x, double y, double heading_degrees, double speed);
/* A waypoint or series track from path, the kind read from its header. */
HclStatus ship_track_read(const char *path, const TrackFrame *frame, ShipTrack *track);
void ship_track_free(ShipTrack *track);
/* Position (m) and heading (radians) at time t (s). */
void ship_track_at(const ShipTrack *track, double t, double *x, double *y, double *heading);

/* The ships of a fleet file, their track files read in frame. Caller frees with ships_free. */
HclStatus ships_read_csv(const char *path, const TrackFrame *frame, ShipSpec **ships, int *count);
void ships_free(ShipSpec *ships, int count);
/* Refuses two ships of one name, and a ship whose straight track starts, or any of whose track points lies, outside
 * x_first..x_last, y_first..y_last (m), naming each by its origin. */
HclStatus ships_check(const ShipSpec *ships, int count, double x_first, double x_last, double y_first, double y_last);

#endif
