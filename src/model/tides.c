/* SPDX-License-Identifier: BSD-3-Clause */
/* tides.c: see tides.h. */
#include "tides.h"

#include <stddef.h>
#include <strings.h>

#include "textlist.h"

/* The NOAA list of 37 harmonic constituents and MSN2, with their speeds (degrees per mean solar hour). */
static const TideConstituent constituents[] = {
    {"M2", 28.9841042},   {"S2", 30.0},         {"N2", 28.4397295},   {"K2", 30.0821373},  {"2N2", 27.8953548},
    {"MU2", 27.9682084},  {"NU2", 28.5125831},  {"L2", 29.5284789},   {"T2", 29.9589333},  {"R2", 30.0410667},
    {"LAM2", 29.4556253}, {"K1", 15.0410686},   {"O1", 13.9430356},   {"P1", 14.9589314},  {"Q1", 13.3986609},
    {"J1", 15.5854433},   {"OO1", 16.1391017},  {"M1", 14.4966939},   {"2Q1", 12.8542862}, {"RHO1", 13.4715145},
    {"S1", 15.0},         {"M4", 57.9682084},   {"MS4", 58.9841042},  {"MN4", 57.4238337}, {"S4", 60.0},
    {"M6", 86.9523127},   {"S6", 90.0},         {"M8", 115.9364166},  {"M3", 43.4761563},  {"MK3", 44.0251729},
    {"2MK3", 42.9271398}, {"Sa", 0.0410686},    {"Ssa", 0.0821373},   {"Mm", 0.5443747},   {"Mf", 1.0980331},
    {"MSf", 1.0158958},   {"MSN2", 30.5443747}, {"2SM2", 31.0158958},
};
enum { CONSTITUENTS = sizeof constituents / sizeof constituents[0] };

const TideConstituent *hcl_tide_constituent(const char *name) {
  for (int i = 0; i < CONSTITUENTS; i++) {
    if (strcasecmp(constituents[i].name, name) == 0) {
      return &constituents[i];
    }
  }
  return NULL;
}

double hcl_tide_period(const TideConstituent *constituent) {
  return 3600.0 * 360.0 / constituent->speed;
}

const char *hcl_tide_names(void) {
  static char names[512];
  names[0] = '\0';
  for (int i = 0; i < CONSTITUENTS; i++) {
    hcl_textlist_append(names, sizeof names, i, CONSTITUENTS, ", ", " or ", "%s", constituents[i].name);
  }
  return names;
}
