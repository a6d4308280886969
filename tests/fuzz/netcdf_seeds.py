#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""netcdf_seeds.py: writes the seed corpus of fuzz_netcdf (tests/fuzz/corpus/fuzz_netcdf/), netCDF files described
in the target's encoding (fuzz_netcdf.c: one byte a choice, in the order write_file and LLVMFuzzerTestOneInput read
them): valid series and grids like the repository's, and the mistakes the readers refuse. Run it again after a
change of that encoding.

Usage: netcdf_seeds.py [FOLDER]"""
import os
import struct
import sys

FORMATS = {"nc4": 0, "nc4-classic": 1, "cdf1": 2, "cdf5": 3}
NTYPES = {"nc4": 13, "nc4-classic": 6, "cdf1": 6, "cdf5": 11}
DIMS = ["time", "y", "x", "t"]
VARS = ["time", "level", "bed", "y", "x", "t", "depth"]
TYPES = ["double", "float", "int", "short", "byte", "char", "ubyte", "ushort", "uint", "int64", "uint64", "string",
         "enum"]
ATTS = ["units", "scale_factor", "add_offset", "_FillValue", "missing_value", "long_name"]
ATT_TYPES = ["own", "double", "float", "int", "short", "byte", "char", "string"]
UNITS = ["seconds", "s", "minutes", "hours", "days", "hours since 2023-06-01 00:00:00", "days since 1970-01-01",
         "seconds since 2000-01-01T00:00:00Z", "minutes since 2023-02-29 12:00", "seconds since ", "m", ""]
PACK = {"double": "<d", "float": "<f", "int": "<i", "short": "<h", "byte": "<b", "ubyte": "<B", "ushort": "<H",
        "uint": "<I", "int64": "<q", "uint64": "<Q", "enum": "<i"}
# make_value's choices
ZERO, ONE_AND_HALF, MINUS_TWO, INDEX, HOURS, NAN, INF, FILL, HUGE = range(9)


def value(choice):
    """One of the special values above (INF is +inf)."""
    return bytes([choice]) + (b"\x01" if choice == INF else b"")


def raw(number, type_name="double"):
    """A number as the raw bytes of type_name."""
    return bytes([9]) + struct.pack(PACK[type_name], number)


def text(t):
    """A text: one of UNITS, or raw text after 'hours since ' (since=True) or alone."""
    if t in UNITS:
        return bytes([UNITS.index(t)])
    raw = t.encode()
    if raw.startswith(b"hours since "):
        rest = raw[len("hours since "):]
        return bytes([len(UNITS), len(rest)]) + rest
    return bytes([len(UNITS) + 1, len(raw)]) + raw


def attribute(name, att_type, values=(), type_name="double"):
    out = bytes([ATTS.index(name), ATT_TYPES.index(att_type)])
    if att_type == "char" or (att_type == "own" and type_name == "char"):
        return out + bytes([0]) + text(values)
    if att_type == "string":
        return out + bytes([len(values)]) + b"".join(text(v) for v in values)
    own = type_name if att_type == "own" else att_type
    return out + bytes([len(values)]) + b"".join(raw(v, own) for v in values)


def describe(fmt, dims, variables, tail):
    """dims: [(name, length or 0 for unlimited, records)]; variables: [dict(name, type, dims (indices), write,
    nofill, atts [attribute bytes], values [value bytes])]; tail: the readers' choices."""
    out = bytes([FORMATS[fmt], len(dims) - 1])
    for name, length, records in dims:
        out += bytes([length, records, DIMS.index(name)])
    out += bytes([len(variables) - 1])
    for v in variables:
        out += bytes([TYPES.index(v["type"])])
        if dims:  # a choice among one dimension reads no byte
            out += bytes([len(v["dims"])]) + (bytes(v["dims"]) if len(dims) > 1 else b"")
        out += bytes([1 if v.get("write", True) else 0, VARS.index(v["name"])])
        out += bytes([0 if v.get("nofill") else 1, len(v.get("atts", []))]) + b"".join(v.get("atts", []))
    for v in variables:
        if v.get("write", True):
            out += b"".join(v.get("values", []))
    return out + tail


def tail(start_2000=False, nx=0, ny=0, use_2d=(), variable=None):
    """The series' start, the grid's shape (nx, ny: 1 + the byte), for each 2D variable from the last whether to
    keep the shape above instead of its own, and the variable named (None: the only 2D one)."""
    out = bytes([1 if start_2000 else 0, nx, ny]) + bytes(1 if keep else 0 for keep in use_2d)
    return out + (bytes([0, VARS.index(variable)]) if variable else bytes([1]))


def seeds():
    t4 = [value(INDEX)] * 4
    yield "series-cdf1", describe("cdf1", [("time", 4, 0)], [
        dict(name="time", type="double", dims=[0], atts=[attribute("units", "char", "seconds")], values=t4),
        dict(name="level", type="double", dims=[0], values=[raw(0.1), value(ONE_AND_HALF), value(MINUS_TWO),
                                                            value(ZERO)])], tail())
    yield "series-packed-nc4", describe("nc4", [("time", 0, 3)], [
        dict(name="time", type="int", dims=[0], atts=[attribute("units", "char", "hours since 2023-06-01 00:00:00")],
             values=[value(HOURS)] * 3),
        dict(name="level", type="short", dims=[0],
             atts=[attribute("scale_factor", "double", [0.001]), attribute("add_offset", "float", [1.5]),
                   attribute("_FillValue", "own", [-999], "short")],
             values=[raw(12, "short"), raw(-7, "short"), raw(300, "short")])], tail(start_2000=True))
    yield "series-missing", describe("nc4-classic", [("time", 3, 0)], [
        dict(name="time", type="float", dims=[0], atts=[attribute("units", "char", "days since 1970-01-01")],
             values=[value(INDEX)] * 3),
        dict(name="level", type="float", dims=[0], atts=[attribute("missing_value", "float", [1.5, -2], "float")],
             values=[value(ZERO), value(ONE_AND_HALF), value(NAN)])], tail())
    yield "series-cdf5-int64", describe("cdf5", [("t", 5, 0)], [
        dict(name="t", type="uint64", dims=[0], atts=[attribute("units", "char", "minutes since 2023-02-29 12:00")],
             values=[value(INDEX)] * 5),
        dict(name="depth", type="int64", dims=[0], nofill=True, values=[raw(-9223372036854775806, "int64")] * 5)], tail())
    yield "series-text", describe("nc4", [("time", 2, 0)], [
        dict(name="time", type="string", dims=[0], write=False, atts=[attribute("units", "string", ["seconds"])]),
        dict(name="level", type="char", dims=[0], values=[b"a", b"b"])], tail())
    yield "series-2d-time", describe("nc4", [("time", 2, 0), ("x", 2, 0)], [
        dict(name="time", type="double", dims=[0, 1], atts=[attribute("units", "char", "hours since x")],
             values=[value(INDEX)] * 4),
        dict(name="level", type="enum", dims=[0], values=[raw(1, "enum")] * 2)], tail())
    grid = [value(ONE_AND_HALF)] * 11 + [value(INF)]
    yield "grid-nc4", describe("nc4", [("y", 3, 0), ("x", 4, 0)], [
        dict(name="bed", type="float", dims=[0, 1], atts=[attribute("units", "char", "m")], values=grid)],
        tail(nx=3, ny=2, use_2d=[False]))
    yield "grid-fill", describe("cdf1", [("y", 2, 0), ("x", 3, 0)], [
        dict(name="bed", type="short", dims=[0, 1], atts=[attribute("_FillValue", "own", [7], "short"),
                                                          attribute("scale_factor", "char", "0.5")],
             values=[raw(7, "short")] + [value(INDEX)] * 5),
        dict(name="depth", type="double", dims=[1, 0], write=False)], tail(use_2d=[True, False], variable="bed"))
    yield "grid-unlimited", describe("nc4", [("y", 0, 2), ("x", 2, 0), ("time", 0, 3)], [
        dict(name="bed", type="double", dims=[0, 1], values=[value(HUGE)] * 4),
        dict(name="level", type="ubyte", dims=[2], values=[value(INDEX)] * 3),
        dict(name="time", type="ushort", dims=[2], nofill=True, write=False,
             atts=[attribute("units", "char", "s"), attribute("missing_value", "own", [], "ushort")])],
        tail(use_2d=[False]))


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "fuzz_netcdf")
    os.makedirs(folder, exist_ok=True)
    for name, data in seeds():
        with open(os.path.join(folder, name + ".bin"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
