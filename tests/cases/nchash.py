#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""nchash.py FOLDER: one line per netCDF file in FOLDER, 'NAME SHA256', the hash of everything the file holds that
the run determines: every variable's name, type, shape, bits and attributes, and the global attributes but those
that name the build or the moment (source, history, date_created). Then a line 'device: NAME' from map.nc's source
attribute ('hydrocl VERSION (GIT), DEVICE, PRECISION'), the device whose arithmetic the hashes record."""
import glob
import hashlib
import os
import sys

import netCDF4

UNDETERMINED = {"source", "history", "date_created"}


def file_hash(path):
    digest = hashlib.sha256()
    with netCDF4.Dataset(path) as d:
        d.set_auto_mask(False)
        for key in sorted(set(d.ncattrs()) - UNDETERMINED):
            digest.update(f"{key}={d.getncattr(key)!s}\n".encode())
        for name in sorted(d.variables):
            v = d.variables[name]
            data = v[...]
            digest.update(f"{name} {v.dtype} {v.dimensions} {data.shape}\n".encode())
            digest.update(data.tobytes())
            for key in sorted(v.ncattrs()):
                digest.update(f"{name}.{key}={v.getncattr(key)!s}\n".encode())
    return digest.hexdigest()


def device(folder):
    with netCDF4.Dataset(os.path.join(folder, "map.nc")) as d:
        source = d.getncattr("source")
    return source.split("), ", 1)[-1].rsplit(", ", 1)[0]


def main(folder):
    for path in sorted(glob.glob(os.path.join(folder, "*.nc"))):
        print(os.path.basename(path), file_hash(path))
    print("device:", device(folder))


if __name__ == "__main__":
    main(sys.argv[1])
