/* SPDX-License-Identifier: BSD-3-Clause */
/* test_tides.c: the named constituents' table (tides.h) against what the speeds are made of. Each compound and
 * overtide's speed is a sum of its parents' (M4 = 2 M2, MS4 = M2 + S2, MK3 = M2 + K1, MSf = S2 - M2, ...), and the
 * astronomical ones are sums of the fundamental frequencies (Schureman 1958: T = 15 deg/h, s = 0.5490165, h =
 * 0.0410686, p = 0.0046418 deg/h): M2 = 2 T - 2 s + 2 h, N2 = M2 - s + p, K1 = T + h, O1 = T - 2 s + h, and so on.
 * Every speed here, the table's and the fundamentals', is rounded to 7 decimals (within 5e-8 deg/h); the widest sum,
 * N2's 2 T - 3 s + 2 h + p, adds multiples summing to 7 of them besides the constituent's own: 4e-7 deg/h.
 * Also: lookup in any case, and the period from the speed. */
#include <math.h>
#include <string.h>

#include "../support/tap.h"
#include "tides.h"

static double speed(const char *name) {
  const TideConstituent *c = hcl_tide_constituent(name);
  return c ? c->speed : NAN;
}

/* Tolerance: see the file's comment. */
static const double TOLERANCE = 4e-7;

static void compounds(void) {
  struct {
    const char *name;
    double from_parents;
  } cases[] = {
      {"M4", 2 * speed("M2")},
      {"M6", 3 * speed("M2")},
      {"M8", 4 * speed("M2")},
      {"S4", 2 * speed("S2")},
      {"S6", 3 * speed("S2")},
      {"MS4", speed("M2") + speed("S2")},
      {"MN4", speed("M2") + speed("N2")},
      {"MK3", speed("M2") + speed("K1")},
      {"2MK3", 2 * speed("M2") - speed("K1")},
      {"MSf", speed("S2") - speed("M2")},
      {"2SM2", 2 * speed("S2") - speed("M2")},
      {"MSN2", speed("M2") + speed("S2") - speed("N2")},
      {"M3", 1.5 * speed("M2")},
      {"K2", 2 * speed("K1")},
      {"Ssa", 2 * speed("Sa")},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    double error = fabs(speed(cases[i].name) - cases[i].from_parents);
    TAP_OK(error < TOLERANCE, "%s's speed is its parents' (%.3g deg/h off)", cases[i].name, error);
  }
}

static void astronomical(void) {
  const double T = 15, s = 0.5490165, h = 0.0410686, p = 0.0046418;
  struct {
    const char *name;
    double speed;
  } cases[] = {
      {"M2", 2 * T - 2 * s + 2 * h},
      {"S2", 2 * T},
      {"N2", 2 * T - 3 * s + 2 * h + p},
      {"K1", T + h},
      {"O1", T - 2 * s + h},
      {"P1", T - h},
      {"Q1", T - 3 * s + h + p},
      {"Mm", s - p},
      {"Mf", 2 * s},
      {"Sa", h},
      {"L2", 2 * T - s + 2 * h - p},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    double error = fabs(speed(cases[i].name) - cases[i].speed);
    TAP_OK(error < TOLERANCE, "%s's speed from the fundamental frequencies (%.3g deg/h off)", cases[i].name, error);
  }
}

static void lookup(void) {
  TAP_OK(hcl_tide_constituent("m2") == hcl_tide_constituent("M2") && hcl_tide_constituent("MSF") != NULL,
         "names are found in any case");
  TAP_OK(hcl_tide_constituent("X9") == NULL && hcl_tide_constituent("") == NULL, "an unknown name is not found");
  double period = hcl_tide_period(hcl_tide_constituent("M2"));
  TAP_OK(fabs(period - 44714.16) < 0.01, "M2's period is 12.42 h (%.2f s)", period);
  TAP_OK(strstr(hcl_tide_names(), "M2, S2, N2") == hcl_tide_names(), "the names for a message start 'M2, S2, N2'");
}

int main(void) {
  compounds();
  astronomical();
  lookup();
  return tap_done();
}
