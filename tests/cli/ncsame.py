#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""ncsame.py A B [VAR ...]: exit 0 when the variables (default: every variable of A) hold the same bits in both
netCDF files; otherwise print the largest difference of each that differs and exit 1. Tolerance, when given as
--tolerance T, allows a relative difference up to T (for comparisons across devices)."""
import sys

import netCDF4
import numpy as np


def main(argv):
    tolerance = 0.0
    if "--tolerance" in argv:
        i = argv.index("--tolerance")
        tolerance = float(argv[i + 1])
        del argv[i:i + 2]
    a_path, b_path, names = argv[1], argv[2], argv[3:]
    with netCDF4.Dataset(a_path) as a, netCDF4.Dataset(b_path) as b:
        names = names or list(a.variables)
        same = True
        for name in names:
            x = np.asarray(a.variables[name][:], dtype=np.float64)
            y = np.asarray(b.variables[name][:], dtype=np.float64)
            if x.shape != y.shape:
                print(f"{name}: shapes {x.shape} and {y.shape}")
                same = False
                continue
            scale = max(np.max(np.abs(x)), np.max(np.abs(y)), 1e-300) if x.size else 1.0
            difference = np.max(np.abs(x - y)) if x.size else 0.0
            if (tolerance == 0 and not np.array_equal(x, y)) or difference > tolerance * scale:
                print(f"{name}: largest difference {difference:.3e} (relative {difference / scale:.3e})")
                same = False
        return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
