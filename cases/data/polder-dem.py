#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""polder-dem.py: writes polder-dem.tif, the bed of cases/polder-breach.yml: an analytic coast in UTM zone 31N
(EPSG:32631), 2 x 1.5 km from (600000, 5800000) m, 10 m pixels, north-up, bed level in metres above the reference
(positive up), float32, as a plain GeoTIFF (no compression), with the standard library alone.

West to east: the sea bed rising from -6 m to -1 m over 600 m, a beach to +1 m at 800 m, a berm at +1 m, a dike of
crest +4 m centred at x = 900 m (crest 10 m wide, slopes 1:6.7), and behind it a polder at -1.5 m with a gentle
swell of 0.2 m. Between y = 700 and 760 m the dike is breached: its crest there is the berm's +1 m, and the water
that tops the berm runs into the polder.

Usage: polder-dem.py [OUTPUT]   (default: polder-dem.tif beside this script)"""
import math
import os
import struct
import sys

X0, Y0 = 600000.0, 5800000.0  # south-west corner, m (EPSG:32631)
PIXEL = 10.0
WIDTH, HEIGHT = 200, 150


def bed_level(x, y):
    """Bed level (m above the reference) at x, y metres from the south-west corner."""
    if x < 600:
        ground = -6 + 5 * x / 600
    elif x < 800:
        ground = -1 + 2 * (x - 600) / 200
    elif x < 900:
        ground = 1.0
    else:
        ground = -1.5 + 0.2 * math.sin(2 * math.pi * x / 700) * math.cos(2 * math.pi * y / 900)
    crest = 1.0 if 700 <= y <= 760 else 4.0
    dike = crest - 0.15 * max(abs(x - 900) - 5, 0)
    return max(ground, dike)


def tiff(rows):
    """A little-endian GeoTIFF of one float32 band: the image, then one IFD with the GeoTIFF tags."""
    image = b"".join(struct.pack("<%df" % WIDTH, *row) for row in rows)
    scale = struct.pack("<3d", PIXEL, PIXEL, 0.0)  # ModelPixelScale
    tiepoint = struct.pack("<6d", 0, 0, 0, X0, Y0 + HEIGHT * PIXEL, 0)  # pixel (0, 0) at the north-west corner
    # GeoKeyDirectory: version 1.1.0, 3 keys: a projected model, pixels as areas, EPSG:32631.
    keys = struct.pack("<16H", 1, 1, 0, 3, 1024, 0, 1, 1, 1025, 0, 1, 1, 3072, 0, 1, 32631)
    image_at = 8
    extra_at = image_at + len(image)
    extras = scale + tiepoint + keys
    scale_at, tiepoint_at, keys_at = extra_at, extra_at + len(scale), extra_at + len(scale) + len(tiepoint)
    ifd_at = extra_at + len(extras)
    SHORT, LONG, DOUBLE = 3, 4, 12
    entries = [  # tag, type, count, value or offset: in ascending tag order
        (256, LONG, 1, WIDTH), (257, LONG, 1, HEIGHT), (258, SHORT, 1, 32), (259, SHORT, 1, 1),
        (262, SHORT, 1, 1), (273, LONG, 1, image_at), (277, SHORT, 1, 1), (278, LONG, 1, HEIGHT),
        (279, LONG, 1, len(image)), (284, SHORT, 1, 1), (339, SHORT, 1, 3),
        (33550, DOUBLE, 3, scale_at), (33922, DOUBLE, 6, tiepoint_at), (34735, SHORT, 16, keys_at),
    ]
    ifd = struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        packed = struct.pack("<H", value) + b"\0\0" if kind == SHORT and count == 1 else struct.pack("<I", value)
        ifd += struct.pack("<HHI", tag, kind, count) + packed
    ifd += struct.pack("<I", 0)
    return b"II*\0" + struct.pack("<I", ifd_at) + image + extras + ifd


def main():
    output = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                "polder-dem.tif")
    rows = [[bed_level((p + 0.5) * PIXEL, (HEIGHT - l - 0.5) * PIXEL) for p in range(WIDTH)] for l in range(HEIGHT)]
    with open(output, "wb") as f:
        f.write(tiff(rows))


if __name__ == "__main__":
    main()
