/* SPDX-License-Identifier: BSD-3-Clause */
/* tides.h: the named tidal constituents, each by its angular speed in degrees per mean solar hour (the NOAA/IHO list
 * of 37 harmonic constituents; Schureman, "Manual of harmonic analysis and prediction of tides", 1958), so that a
 * level side can be given as 'M2 1.0 30' instead of 'amplitude period phase'. No nodal corrections are applied: the
 * amplitude and phase given are the ones at the run's epoch (f = 1, u = 0). */
#ifndef HYDROCL_TIDES_H
#define HYDROCL_TIDES_H

typedef struct {
  const char *name; /* "M2", "MSf" */
  double speed;     /* degrees per mean solar hour */
} TideConstituent;

/* The constituent of that name, in any case ("m2", "MSF"); NULL for none. */
const TideConstituent *hcl_tide_constituent(const char *name);
/* Its period in seconds: 360 degrees / speed, in hours, times 3600. */
double hcl_tide_period(const TideConstituent *constituent);
/* The names for a message, "M2, S2, N2, ..." (static storage). */
const char *hcl_tide_names(void);

#endif
