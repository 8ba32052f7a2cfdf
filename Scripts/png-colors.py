#!/usr/bin/env python3
"""Counts the pixels of a PNG (8-bit RGB or RGBA, not interlaced) near each of the given colours.

    Scripts/png-colors.py shot.png 34c759 ff3b30   # prints {"width": …, "height": …, "34c759": n, "ff3b30": m}

A pixel counts for a colour when each channel is within 8 of it: what the timeline page's test asks of a screenshot
(the bars' colour comes from the page's stylesheet alone, so counting it shows the stylesheet applied).
"""
import json
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    offset, idat, header = 8, b"", None
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset:offset + 4])
        kind = data[offset + 4:offset + 8]
        body = data[offset + 8:offset + 8 + length]
        offset += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if header is None:
        raise SystemExit(f"{path}: no IHDR")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        raise SystemExit(f"{path}: only 8-bit RGB or RGBA without interlacing (depth {depth}, colour type {colour})")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    rows = []
    position = 0
    for _ in range(height):
        kind = raw[position]
        line = bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + predictor) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def main():
    if len(sys.argv) < 3:
        raise SystemExit("usage: png-colors.py FILE RRGGBB...")
    width, height, channels, rows = pixels(sys.argv[1])
    wanted = [(name, tuple(int(name[i:i + 2], 16) for i in (0, 2, 4))) for name in sys.argv[2:]]
    counts = {name: 0 for name, _ in wanted}
    for row in rows:
        for x in range(0, len(row), channels):
            r, g, b = row[x], row[x + 1], row[x + 2]
            for name, (wr, wg, wb) in wanted:
                if abs(r - wr) <= 8 and abs(g - wg) <= 8 and abs(b - wb) <= 8:
                    counts[name] += 1
    print(json.dumps({"width": width, "height": height, **counts}))


if __name__ == "__main__":
    main()
