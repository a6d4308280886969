#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""utm.py: WGS 84 latitude and longitude to UTM easting and northing (northern zones) by the Kruger series to the
fourth order in n (Karney, "Transverse Mercator with an accuracy of a few nanometers", 2011, eqs. 7, 9, 11 and 35):
within a micrometre inside a zone. An implementation of the projection independent of PROJ, for the tests."""
import math

A, F = 6378137.0, 1 / 298.257223563
K0, FALSE_EASTING = 0.9996, 500000.0


def project(lat, lon, zone):
    n = F / (2 - F)
    big_a = A / (1 + n) * (1 + n**2 / 4 + n**4 / 64)
    alpha = (n / 2 - 2 * n**2 / 3 + 5 * n**3 / 16 + 41 * n**4 / 180, 13 * n**2 / 48 - 3 * n**3 / 5 + 557 * n**4 / 1440,
             61 * n**3 / 240 - 103 * n**4 / 140, 49561 * n**4 / 161280)
    phi, lam = math.radians(lat), math.radians(lon - (6 * zone - 183))
    c = 2 * math.sqrt(n) / (1 + n)
    t = math.sinh(math.atanh(math.sin(phi)) - c * math.atanh(c * math.sin(phi)))
    xi, eta = math.atan2(t, math.cos(lam)), math.atanh(math.sin(lam) / math.sqrt(1 + t * t))
    easting = FALSE_EASTING + K0 * big_a * (eta + sum(a * math.cos(2 * j * xi) * math.sinh(2 * j * eta)
                                                      for j, a in enumerate(alpha, 1)))
    northing = K0 * big_a * (xi + sum(a * math.sin(2 * j * xi) * math.cosh(2 * j * eta)
                                      for j, a in enumerate(alpha, 1)))
    return easting, northing


if __name__ == "__main__":
    import sys
    print(*project(float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])))
