# SPDX-License-Identifier: BSD-3-Clause
"""ogrid_file.py NX NY PATH [reversed|seam|kinked|flat|huge]: writes the O-grid of cases/cylinder-linear.yml (radius 0.1625 m
to 11.0825 m, geometric spacing, NY points around) as a grid file in ROMS' layout, x_rho(eta_rho, xi_rho),
y_rho(eta_rho, xi_rho) and the depth h = 0.45 m, for test_wave_run's grid.type file; or spoilt: its angle reversed
(a left-handed grid), its first angle repeated at the end (a periodic seam closed twice), one radius moved (a kink
in the spacing), every radius the same (cells of no area) or one point at x = 1e300 m."""
import sys

import netCDF4
import numpy as np

nx, ny, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
spoil = sys.argv[4] if len(sys.argv) > 4 else ""
a, outer = 0.1625, 11.0825
r = a * (outer / a) ** (np.arange(nx) / (nx - 1))
if spoil == "kinked":
    r[nx // 2] = 0.5 * (r[nx // 2] + r[nx // 2 + 1])
if spoil == "flat":
    r[:] = a
theta = 2 * np.pi * np.arange(ny) / ny
if spoil == "reversed":
    theta = -theta
if spoil == "seam":
    theta = 2 * np.pi * np.arange(ny) / (ny - 1)
with netCDF4.Dataset(path, "w") as d:
    d.createDimension("eta_rho", ny)
    d.createDimension("xi_rho", nx)
    x = r[None, :] * np.cos(theta[:, None])
    if spoil == "huge":
        x[3, 5] = 1e300
    for name, values in (("x_rho", x), ("y_rho", r[None, :] * np.sin(theta[:, None])), ("h", np.full((ny, nx), 0.45))):
        var = d.createVariable(name, "f8", ("eta_rho", "xi_rho"))
        var[:] = values
        var.units = "m"
