/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_ships.c: libFuzzer target of the ship-wave model's CSV readers (ship_track.h): a ship's track (waypoints
 * 'x,y,speed' or a series 'time,x,y[,heading]', ship_track_read) and a fleet ('name,length,beam,draft,x,y,heading,
 * speed,track', ships_read_csv), whose track column names track files. The bytes up to a line "--- track" are the
 * fleet file (ships.csv in the scratch folder), those after it the track file (track.csv) that the fleet's lines may
 * name; without that line both files hold all the bytes. Each is read as a track and the first as a fleet. A refusal
 * is a pass. Checked besides the sanitizers, as ship_track.h promises: an accepted track has its points (two or more
 * waypoints, one or more samples of a series) at finite positions, reached at times that never go back; a fleet's
 * ships have a hull of finite length and beam > 0 and draft >= 0, names shorter than SHIP_NAME_MAX, and such tracks;
 * and where a track's numbers are of a size a ship's can be (coordinates and times within 1e12, speeds within 1e6),
 * ship_track_at gives a finite place and heading before, at, between and after its points. The readers bound none of
 * those numbers themselves (a leg sailed at 1e-300 m/s is reached at t = inf, a ship at 1e308 m overflows when it
 * moves): that is the readers' to refuse, not this target's to report. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"
#include "ship_track.h"

/* Times in seconds from t = 0, no grid CRS. */
static const TrackFrame NO_FRAME = {0, NULL};
static const char separator[] = "\n--- track\n";

static bool moderate(double value, double bound) {
  return fabs(value) <= bound; /* false for NaN too */
}

/* An accepted track: what ship_track.h promises of it. */
static void check_track(const ShipTrack *track, const char *what) {
  double probes[5] = {-1, 0, 1, 0, 0};
  bool sized = true; /* of a ship's size: ship_track_at must stay finite */
  if (track->kind == TRACK_STRAIGHT) {
    sized = moderate(track->x, 1e12) && moderate(track->y, 1e12) && moderate(track->speed, 1e6);
  } else {
    FUZZ_CHECK(track->count >= (track->kind == TRACK_WAYPOINTS ? 2 : 1), "%s: %d points", what, track->count);
    for (int k = 0; k < track->count; k++) {
      FUZZ_CHECK(isfinite(track->px[k]) && isfinite(track->py[k]), "%s: point %d at (%g, %g) m", what, k, track->px[k],
                 track->py[k]);
      double before = k > 0 ? track->t[k - 1] : track->t[k]; /* FUZZ_CHECK evaluates its arguments: no t[-1] */
      FUZZ_CHECK(track->t[k] >= before, "%s: point %d at t = %g s after %g s", what, k, track->t[k], before);
      double heading = track->heading_at ? track->heading_at[k] : 0;
      FUZZ_CHECK(isfinite(heading), "%s: heading %d is %g", what, k, heading);
      sized = sized && moderate(track->px[k], 1e12) && moderate(track->py[k], 1e12) && moderate(track->t[k], 1e12);
    }
    probes[2] = track->t[track->count - 1];
    probes[3] = 0.5 * (track->t[0] + track->t[track->count - 1]);
    probes[4] = track->t[track->count - 1] + 1;
  }
  for (int p = 0; sized && p < 5; p++) {
    double x, y, heading;
    ship_track_at(track, probes[p], &x, &y, &heading);
    FUZZ_CHECK(isfinite(x) && isfinite(y) && isfinite(heading), "%s at t = %g s: (%g, %g) m heading %g", what,
               probes[p], x, y, heading);
  }
}

static void read_track(const char *path) {
  ShipTrack track = {0};
  HclStatus status = ship_track_read(path, &NO_FRAME, &track);
  if (status == HCL_OK) {
    check_track(&track, "the track");
  }
  fuzz_accept(status);
  ship_track_free(&track);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t fleet_size = size, track_at = 0;
  for (size_t k = 0; k + sizeof separator - 1 <= size; k++) {
    if (memcmp(data + k, separator, sizeof separator - 1) == 0) {
      fleet_size = k + 1; /* the fleet keeps its last line's end */
      track_at = k + sizeof separator - 1;
      break;
    }
  }
  const char *fleet = fuzz_write("ships.csv", data, fleet_size);
  const char *track = fuzz_write("track.csv", data + track_at, track_at ? size - track_at : size);
  read_track(fleet);
  read_track(track);
  ShipSpec *ships = NULL;
  int count = 0;
  HclStatus status = ships_read_csv(fleet, &NO_FRAME, &ships, &count);
  if (status == HCL_OK) {
    for (int s = 0; s < count; s++) {
      size_t length = strnlen(ships[s].name, SHIP_NAME_MAX);
      FUZZ_CHECK(length < SHIP_NAME_MAX, "ship %d's name has %zu characters", s, length);
      FUZZ_CHECK(isfinite(ships[s].length) && ships[s].length > 0 && isfinite(ships[s].beam) && ships[s].beam > 0 &&
                     isfinite(ships[s].draft) && ships[s].draft >= 0,
                 "ship '%s': length %g m, beam %g m, draft %g m", ships[s].name, ships[s].length, ships[s].beam,
                 ships[s].draft);
      check_track(&ships[s].track, ships[s].name);
    }
  }
  fuzz_accept(status);
  ships_free(ships, count);
  return 0;
}
