# SPDX-License-Identifier: BSD-3-Clause
"""cf_structure.py FILE...: the points of CF-1.8 that cfchecks and the IOOS compliance checker test on hydrocl's
files, checked without them (CI has neither): exits 1 naming every file and what is wrong, 0 when all pass.

- the global attributes Conventions = CF-1.8, title, source, history;
- every variable has long_name or standard_name, and units unless it is a flag, a name or the grid mapping;
- no 64-bit integers (CF-1.8 has none; the IOOS checker refuses them);
- time, where a variable has it, is its first dimension (the record dimension, which ncrcat joins along);
- a flag is stored as bytes with flag_values (one per word of flag_meanings);
- a coordinates attribute names variables of the file; a grid_mapping names a variable with crs_wkt and, unless
  its projection is outside CF's table, a grid_mapping_name; every variable on (y, x) or station names it where the
  file has one;
- a coordinate variable x or y has units m, axis and standard_name; a height (standard_name altitude) says which
  way is up (the IOOS checker takes it for a vertical coordinate, CF 4.3);
- the time coordinate has units "seconds since ...", standard_name and calendar;
- where a file has the wet flag (the shallow-water map and history), zeta, u and v declare a _FillValue."""
import sys

import netCDF4
import numpy

MASKED = {"zeta", "u", "v"}
EXEMPT_UNITS = {"station_name", "crs"}


def problems_of(path):
    found = []
    with netCDF4.Dataset(path) as d:
        for name, want in (("Conventions", "CF-1.8"), ("title", None), ("source", None), ("history", None)):
            value = getattr(d, name, None)
            if value is None or (want and value != want):
                found.append(f"global attribute {name} is {value!r}")
        masks = "wet" in d.variables
        crs = d.variables.get("crs")
        for name, v in d.variables.items():
            attrs = set(v.ncattrs())
            if v.dtype in (numpy.int64, numpy.uint64):
                found.append(f"{name} is a 64-bit integer")
            if not attrs & {"long_name", "standard_name"}:
                found.append(f"{name} has neither long_name nor standard_name")
            if "units" not in attrs and "flag_values" not in attrs and name not in EXEMPT_UNITS:
                found.append(f"{name} has no units")
            if "time" in v.dimensions and v.dimensions[0] != "time":
                found.append(f"{name} has time as dimension {v.dimensions.index('time')} of {v.dimensions}")
            if getattr(v, "standard_name", None) == "altitude" and getattr(v, "positive", None) != "up":
                found.append(f"{name} is a height without positive = up")
            if "flag_meanings" in attrs:
                words = v.flag_meanings.split()
                if v.dtype != numpy.int8 or list(v.flag_values) != list(range(len(words))):
                    found.append(f"flag {name} is {v.dtype} with flag_values {getattr(v, 'flag_values', None)}")
            for other in getattr(v, "coordinates", "").split():
                if other not in d.variables:
                    found.append(f"{name}'s coordinates name {other}, which the file lacks")
            located = set(v.dimensions) & {"x", "station"} and name not in ("x", "y", "station_name", "node")
            if crs is not None and located and getattr(v, "grid_mapping", None) != "crs":
                found.append(f"{name} does not name the grid mapping crs")
            if name in MASKED and masks and "_FillValue" not in attrs:
                found.append(f"{name} has no _FillValue for dry cells")
        for axis in ("x", "y"):
            v = d.variables.get(axis)
            if v is not None and v.dimensions == (axis,):
                if v.units != "m" or v.axis != axis.upper() or not v.standard_name.startswith("projection_"):
                    found.append(f"coordinate {axis}: units {v.units}, axis {v.axis}")
        time = d.variables.get("time")
        if time is not None and not (time.units.startswith("seconds since ") and time.standard_name == "time"
                                     and time.calendar == "standard"):
            found.append(f"time: units {time.units!r}")
        if crs is not None and "crs_wkt" not in crs.ncattrs():
            found.append("crs has no crs_wkt")
    return found


def main():
    failed = False
    for path in sys.argv[1:]:
        for problem in problems_of(path):
            print(f"{path}: {problem}")
            failed = True
    if not sys.argv[1:]:
        print("usage: cf_structure.py FILE...", file=sys.stderr)
        return 64
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
