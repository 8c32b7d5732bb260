#!/usr/bin/env python3
"""png_check.py FILE: exit 0 when the PNG screenshot is not blank, else 1 with why.

Not blank: at least 3 % of the pixels differ from the most common colour (the page
background) and there are at least 20 distinct colours (text, badges, charts).
Standard library only (zlib): decodes 8-bit RGB/RGBA PNGs as Chromium writes them."""
import struct
import sys
import zlib
from collections import Counter


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                raise ValueError(f"unsupported PNG (depth {depth}, colour type {colour})")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    rows = []
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + predictor) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def main():
    width, height, channels, rows = pixels(sys.argv[1])
    colours = Counter()
    for row in rows[::2]:  # every other row and column: plenty for a verdict
        for x in range(0, width, 2):
            colours[row[x * channels:x * channels + 3]] += 1
    total = sum(colours.values())
    background = colours.most_common(1)[0][1]
    inked = 1 - background / total
    print(f"{width}x{height}, {len(colours)} colours, {inked:.1%} not background")
    if inked < 0.03 or len(colours) < 20:
        print("blank or nearly blank screenshot", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
