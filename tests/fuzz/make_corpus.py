#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the seed corpus of tests/fuzz (corpus/<target>/): tiny valid files of
each kind the readers accept and a few edge cases. Run once; the output is
committed, so CI never needs to run this."""
import os
import random
import struct
import zlib

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def put(target, name, data):
    d = os.path.join(here, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)


# ---- .npy ---------------------------------------------------------------------
def npy(descr, shape, payload, version=1):
    shape_text = "(" + "".join(f"{s}, " for s in shape).rstrip(" ")
    shape_text = shape_text[:-1] + ")" if len(shape) > 1 else shape_text + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    lead = 10 if version == 1 else 12
    pad = (64 - (lead + len(header) + 1) % 64) % 64
    header = header + " " * pad + "\n"
    size = struct.pack("<H", len(header)) if version == 1 else struct.pack("<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + size + header.encode() + payload


put("npy", "f8_2x3.npy", npy("<f8", (2, 3), struct.pack("<6d", 0, 1, 2.5, -1, 1e300, float("nan"))))
put("npy", "u1_2x2.npy", npy("|u1", (2, 2), bytes([0, 1, 128, 255])))
put("npy", "b1_2x2.npy", npy("|b1", (2, 2), bytes([0, 1, 1, 0])))
put("npy", "i2_vec.npy", npy("<i2", (3,), struct.pack("<3h", -32768, 0, 32767)))
put("npy", "u2_1x1.npy", npy("<u2", (1, 1), struct.pack("<H", 65535)))
put("npy", "i4_scalar.npy", npy("<i4", (), struct.pack("<i", -7)))
put("npy", "u4_2x1.npy", npy("<u4", (2, 1), struct.pack("<2I", 0, 4294967295)))
put("npy", "f4_rgb.npy", npy("<f4", (1, 2, 3), struct.pack("<6f", 0, 0.5, 1, 0.25, 0.75, 1)))
put("npy", "f8_big_endian.npy", npy(">f8", (1, 2), struct.pack(">2d", 1, 2)))
put("npy", "f8_empty.npy", npy("<f8", (0, 3), b""))
put("npy", "u1_v2.npy", npy("|u1", (1, 3), bytes([1, 2, 3]), version=2))
put("npy", "f8_short_data.npy", npy("<f8", (2, 2), struct.pack("<d", 1)))


# ---- PNG ----------------------------------------------------------------------
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png(width, height, depth, color, rows, extra=b"", interlace=0):
    """rows: the scanlines without filter bytes (for Adam7, those of each pass's
    reduced image in order)."""
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, interlace)
    raw = b"".join(b"\x00" + r for r in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


put("png", "gray8_2x2.png", png(2, 2, 8, 0, [bytes([0, 255]), bytes([128, 7])]))
put("png", "gray16_2x2.png", png(2, 2, 16, 0, [struct.pack(">2H", 0, 65535), struct.pack(">2H", 300, 1)]))
put("png", "rgb8_2x1.png", png(2, 1, 8, 2, [bytes([255, 0, 0, 0, 255, 0])]))
put("png", "gray1_9x2.png", png(9, 2, 1, 0, [bytes([0xAA, 0x80]), bytes([0x55, 0x00])]))
put("png", "palette_2x2.png", png(2, 2, 8, 3, [bytes([0, 1]), bytes([1, 0])],
                                  extra=chunk(b"PLTE", bytes([0, 0, 0, 255, 255, 255]))))
put("png", "gray_alpha_1x1.png", png(1, 1, 8, 4, [bytes([9, 200])]))
put("png", "rgba16_1x1.png", png(1, 1, 16, 6, [struct.pack(">4H", 1, 2, 3, 65535)]))
# Adam7 on 3x3: pass 1 (0,0); 4 (2,0); 5 row 2 x 0,2; 6 rows 0,2 x 1; 7 row 1.
put("png", "interlaced_3x3.png", png(3, 3, 8, 0, [bytes([1]), bytes([3]), bytes([7, 9]), bytes([2]), bytes([8]),
                                                  bytes([4, 5, 6])], interlace=1))


# ---- TIFF (baseline, one strip, uncompressed) ------------------------------------
def tiff(width, height, bits, samples, photometric, data, fmt=1, endian="<"):
    entries = [
        (256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, bits), (259, 3, 1, 1),
        (262, 3, 1, photometric), (273, 4, 1, 0), (277, 3, 1, samples), (278, 4, 1, height),
        (279, 4, 1, len(data)), (284, 3, 1, 1), (339, 3, 1, fmt),
    ]
    ifd_offset = 8
    data_offset = ifd_offset + 2 + 12 * len(entries) + 4
    out = (b"II" if endian == "<" else b"MM") + struct.pack(endian + "HI", 42, ifd_offset)
    out += struct.pack(endian + "H", len(entries))
    for tag, typ, count, value in entries:
        if tag == 273:
            value = data_offset
        if typ == 3:
            out += struct.pack(endian + "HHIHH", tag, typ, count, value, 0)
        else:
            out += struct.pack(endian + "HHII", tag, typ, count, value)
    return out + struct.pack(endian + "I", 0) + data


put("tiff", "gray8_2x2.tif", tiff(2, 2, 8, 1, 1, bytes([0, 255, 128, 7])))
put("tiff", "gray8_big_endian.tif", tiff(2, 1, 8, 1, 1, bytes([1, 2]), endian=">"))
put("tiff", "rgb8_2x1.tif", tiff(2, 1, 8, 3, 2, bytes([255, 0, 0, 0, 255, 0])))
put("tiff", "gray16_2x1.tif", tiff(2, 1, 16, 1, 1, struct.pack("<2H", 0, 65535)))
put("tiff", "int16_2x1.tif", tiff(2, 1, 16, 1, 1, struct.pack("<2h", -5, 5), fmt=2))
put("tiff", "float32_2x1.tif", tiff(2, 1, 32, 1, 1, struct.pack("<2f", 0.5, -1), fmt=3))
put("tiff", "float64_1x1.tif", tiff(1, 1, 64, 1, 1, struct.pack("<d", 2.5), fmt=3))
put("tiff", "bilevel_9x1_white0.tif", tiff(9, 1, 1, 1, 0, bytes([0xAA, 0x80])))

# ---- JPEG (hand-built: 8x8 blocks of one value each, so only DC coefficients;
# DC differences in a table of 12 four-bit codes, AC only end-of-block '0') -------
def jpeg_segment(marker, body):
    return bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + body


class BitWriter:
    def __init__(self):
        self.bits = []

    def put(self, value, count):
        self.bits += [(value >> (count - 1 - i)) & 1 for i in range(count)]

    def data(self):
        bits = self.bits + [1] * (-len(self.bits) % 8)  # padded with 1s
        out = bytearray()
        for i in range(0, len(bits), 8):
            byte = int("".join(map(str, bits[i:i + 8])), 2)
            out += bytes([byte]) + (b"\x00" if byte == 0xFF else b"")  # byte stuffing
        return bytes(out)


def put_dc(w, diff):
    size = abs(diff).bit_length()
    w.put(size, 4)  # category code: the category itself, four bits
    if size:
        w.put(diff if diff > 0 else diff + (1 << size) - 1, size)


def jpeg(blocks_y, blocks_x, components, values, sampling=None, progressive=False, adobe=None, precision=8,
         restart=0):
    """values[c][by][bx]: the level of each component's blocks (0-255); one
    8x8 block per value and component; sampling: (h, v) per component."""
    sampling = sampling or [(1, 1)] * components
    hmax = max(h for h, _ in sampling)
    vmax = max(v for _, v in sampling)
    out = b"\xff\xd8"
    if adobe is not None:
        out += jpeg_segment(0xEE, b"Adobe" + struct.pack(">HHHB", 100, 0, 0, adobe))
    out += jpeg_segment(0xDB, b"\x00" + bytes([1] * 64))  # quantizers all 1
    # Component c covers blocks_x * 8 * hmax / h pixels across; the image size
    # follows from component 0.
    h0, v0 = sampling[0]
    width, height = blocks_x * 8 * hmax // h0, blocks_y * 8 * vmax // v0
    sof = struct.pack(">BHHB", precision, height, width, components)
    for c in range(components):
        h, v = sampling[c]
        sof += bytes([c + 1, (h << 4) | v, 0])
    out += jpeg_segment(0xC2 if progressive else 0xC0, sof)
    out += jpeg_segment(0xC4, b"\x00" + bytes([0, 0, 0, 12] + [0] * 12) + bytes(range(12)))
    if not progressive:
        out += jpeg_segment(0xC4, b"\x10" + bytes([1] + [0] * 15) + b"\x00")
    if restart:
        out += jpeg_segment(0xDD, struct.pack(">H", restart))
    out += jpeg_segment(0xDA, bytes([components]) + b"".join(bytes([c + 1, 0x00]) for c in range(components)) +
                        (bytes([0, 0, 0]) if progressive else bytes([0, 63, 0])))
    # MCUs in order; each holds h x v blocks of each component.
    mcus_y = blocks_y // v0 if components > 1 else blocks_y
    mcus_x = blocks_x // h0 if components > 1 else blocks_x
    w = BitWriter()
    previous = [0] * components
    scan = b""
    count = 0
    for my in range(mcus_y):
        for mx in range(mcus_x):
            if restart and count and count % restart == 0:
                scan += w.data() + bytes([0xFF, 0xD0 + (count // restart - 1) % 8])
                w = BitWriter()
                previous = [0] * components
            count += 1
            for c in range(components):
                h, v = sampling[c] if components > 1 else (1, 1)
                for y in range(v):
                    for x in range(h):
                        level = values[c][my * v + y][mx * h + x]
                        dc = (level - 128) * 8  # a block of one level: DC = 8 (level - 128)
                        put_dc(w, dc - previous[c])
                        previous[c] = dc
                        if not progressive:
                            w.put(0, 1)  # end of block
    scan += w.data()
    return out + scan + b"\xff\xd9"


put("jpeg", "gray_1x1.jpg", jpeg(1, 1, 1, [[[200]]]))
put("jpeg", "gray_2x3.jpg", jpeg(2, 3, 1, [[[0, 128, 255], [7, 64, 190]]]))
put("jpeg", "ycc_444.jpg", jpeg(1, 2, 3, [[[100, 90]], [[128, 140]], [[128, 110]]]))
put("jpeg", "ycc_420.jpg", jpeg(2, 2, 3, [[[100, 90], [80, 70]], [[128]], [[150]]], sampling=[(2, 2), (1, 1), (1, 1)]))
put("jpeg", "rgb_adobe.jpg", jpeg(1, 1, 3, [[[255]], [[0]], [[60]]], adobe=0))
put("jpeg", "cmyk_adobe.jpg", jpeg(1, 1, 4, [[[10]], [[20]], [[30]], [[40]]], adobe=0))
put("jpeg", "progressive_dc.jpg", jpeg(2, 2, 1, [[[10, 20], [30, 40]]], progressive=True))
put("jpeg", "restart.jpg", jpeg(2, 2, 1, [[[10, 20], [30, 40]]], restart=1))
put("jpeg", "twelve_bit.jpg", jpeg(1, 1, 1, [[[1]]], precision=12))
put("jpeg", "cut.jpg", jpeg(2, 3, 1, [[[0, 128, 255], [7, 64, 190]]])[:-9])

# ---- parameter text (the text comes first; the choices of operator and
# parameter are read from the end of the input) ----------------------------------
for i, text in enumerate(["1:0.5:3", "[1 2 3]", "[0.01 0.99]", "0:179", "[0:5:175]", "3", "-inf", "pi",
                          "same", "full", "1e308", "nan", "1,2;3", "[]", "0:1e-9:1", "linspace", "  8 "]):
    put("param_text", f"text{i:02d}", text)

# ---- shared library files: a minimal x86-64 ET_DYN (one PT_LOAD over the
# whole file, a PT_DYNAMIC inside it, a section table of one null entry) and cuts
def elf(machine=62):
    ehsize, phsize, shsize = 64, 56, 64
    phoff, shoff = ehsize, ehsize + 2 * phsize
    size = shoff + shsize
    eh = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    eh += struct.pack("<HHIQQQIHHHHHH", 3, machine, 1, 0, phoff, shoff, 0, ehsize, phsize, 2, shsize, 1, 0)
    load = struct.pack("<IIQQQQQQ", 1, 5, 0, 0, 0, size, size, 4096)
    dyn = struct.pack("<IIQQQQQQ", 2, 6, shoff, shoff, shoff, 16, 16, 8)
    return eh + load + dyn + bytes(shsize)


put("library_file", "minimal_dyn.so", elf())
put("library_file", "minimal_cut.so", elf()[:150])
put("library_file", "aarch64.so", elf(183))
put("library_file", "text.so", "not a library\n")

# ---- schemas: random bytes, the target makes a schema of anything ------------------
rng = random.Random(14)
for i in range(6):
    put("schema", f"bytes{i}", bytes(rng.randrange(256) for _ in range(64 << (i % 3))))
