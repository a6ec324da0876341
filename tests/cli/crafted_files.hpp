// SPDX-License-Identifier: Apache-2.0
// Image files built byte by byte from their specifications (NPY format
// description, PNG specification, TIFF 6.0), so that tests can make sound
// files the CLI's writers never produce and damaged ones on purpose.
#ifndef IPT_TESTS_CLI_CRAFTED_FILES_HPP
#define IPT_TESTS_CLI_CRAFTED_FILES_HPP

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace crafted {

using Bytes = std::vector<unsigned char>;

inline void write_file(const std::filesystem::path& path, const Bytes& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

inline Bytes read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// ---- NPY ------------------------------------------------------------------------

// Magic, version, little-endian header length, the dict padded with spaces to
// a multiple of 64 bytes and ended by '\n', then the data.
inline Bytes npy_by_hand(const std::string& dict, const Bytes& data, int major = 1) {
    const std::size_t prefix = major == 1 ? 10 : 12;
    std::string header = dict;
    while ((prefix + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    Bytes out = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<unsigned char>(major), 0};
    for (std::size_t i = 0; i < prefix - 8; ++i) out.push_back(static_cast<unsigned char>(header.size() >> (8 * i)));
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

// ---- PNG ------------------------------------------------------------------------

inline uint32_t crc32(const unsigned char* p, std::size_t n, uint32_t crc = 0) {
    crc = ~crc;
    for (std::size_t i = 0; i < n; ++i) {
        crc ^= p[i];
        for (int b = 0; b < 8; ++b) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

inline void put_be32(Bytes& out, uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<unsigned char>(v >> s));
}

// IHDR, the `extra` chunks (PLTE, tRNS: type and data), one IDAT holding a
// zlib stream of one stored (uncompressed) deflate block, IEND. `scanlines`
// already carry the filter byte 0 at the start of each row (at most 65535
// bytes in all).
inline Bytes png_by_hand(uint32_t width, uint32_t height, int bit_depth, int color_type, const Bytes& scanlines,
                         const std::vector<std::pair<std::string, Bytes>>& extra = {}) {
    Bytes out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    auto chunk = [&](const std::string& type, const Bytes& data) {
        put_be32(out, static_cast<uint32_t>(data.size()));
        Bytes typed(type.begin(), type.end());
        typed.insert(typed.end(), data.begin(), data.end());
        out.insert(out.end(), typed.begin(), typed.end());
        put_be32(out, crc32(typed.data(), typed.size()));
    };
    Bytes ihdr;
    put_be32(ihdr, width);
    put_be32(ihdr, height);
    ihdr.insert(ihdr.end(), {static_cast<unsigned char>(bit_depth), static_cast<unsigned char>(color_type), 0, 0, 0});
    chunk("IHDR", ihdr);
    for (const auto& [type, data] : extra) chunk(type, data);
    Bytes zlib = {0x78, 0x01, 0x01}; // deflate, final stored block
    const auto n = static_cast<uint16_t>(scanlines.size());
    zlib.insert(zlib.end(), {static_cast<unsigned char>(n), static_cast<unsigned char>(n >> 8),
                             static_cast<unsigned char>(~n), static_cast<unsigned char>(~n >> 8)});
    zlib.insert(zlib.end(), scanlines.begin(), scanlines.end());
    uint32_t a = 1, b = 0; // Adler-32
    for (unsigned char c : scanlines) {
        a = (a + c) % 65521;
        b = (b + a) % 65521;
    }
    put_be32(zlib, (b << 16) | a);
    chunk("IDAT", zlib);
    chunk("IEND", {});
    return out;
}

// ---- TIFF -----------------------------------------------------------------------

inline void put_le(Bytes& out, uint32_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<unsigned char>(v >> (8 * i)));
}

// One page (image file directory) of a little-endian baseline TIFF with one
// strip. RGB pages list BitsPerSample and SampleFormat once per sample.
struct TiffPage {
    uint32_t width = 1, height = 1;
    uint16_t spp = 1, bits = 8, format = 1, photometric = 1;
    Bytes strip;
    uint16_t compression = 1;                  // 1 none, 8 deflate
    std::optional<uint32_t> strip_byte_count;  // default: strip.size()
    std::optional<uint32_t> strip_offset;      // default: where the strip is written
    uint16_t extra_samples = 0;                // ExtraSamples values (2 = unassociated alpha)
};

inline Bytes tiff_file(const std::vector<TiffPage>& pages) {
    Bytes out = {'I', 'I', 42, 0};
    std::size_t next_field = out.size(); // where the offset of the next IFD goes
    put_le(out, 0, 4);
    auto patch = [&](std::size_t at, uint32_t v) {
        for (int i = 0; i < 4; ++i) out[at + i] = static_cast<unsigned char>(v >> (8 * i));
    };
    for (const TiffPage& p : pages) {
        const uint32_t strip_at = static_cast<uint32_t>(out.size());
        out.insert(out.end(), p.strip.begin(), p.strip.end());
        if (out.size() % 2) out.push_back(0); // IFDs start on a word boundary
        const uint32_t ifd = static_cast<uint32_t>(out.size());
        patch(next_field, ifd);
        struct Entry {
            uint16_t tag, type;
            uint32_t count, value;
        };
        const uint16_t SHORT = 3, LONG = 4;
        std::vector<Entry> entries = {
            {256, LONG, 1, p.width}, {257, LONG, 1, p.height}, {258, SHORT, p.spp, p.bits},
            {259, SHORT, 1, p.compression}, {262, SHORT, 1, p.photometric},
            {273, LONG, 1, p.strip_offset.value_or(strip_at)}, {277, SHORT, 1, p.spp}, {278, LONG, 1, p.height},
            {279, LONG, 1, p.strip_byte_count.value_or(static_cast<uint32_t>(p.strip.size()))}};
        if (p.extra_samples) entries.push_back({338, SHORT, p.extra_samples, 2});
        entries.push_back({339, SHORT, p.spp, p.format});
        // SHORT arrays of more than two values do not fit in an entry: they follow the IFD.
        const uint32_t arrays_at = ifd + 2 + 12 * static_cast<uint32_t>(entries.size()) + 4;
        Bytes arrays;
        put_le(out, static_cast<uint32_t>(entries.size()), 2);
        for (const auto& e : entries) {
            put_le(out, e.tag, 2);
            put_le(out, e.type, 2);
            put_le(out, e.count, 4);
            if (e.type == SHORT && e.count > 2) {
                put_le(out, arrays_at + static_cast<uint32_t>(arrays.size()), 4);
                for (uint32_t i = 0; i < e.count; ++i) put_le(arrays, e.value, 2);
            } else if (e.type == SHORT) {
                put_le(out, e.value, 2);
                put_le(out, e.count == 2 ? e.value : 0, 2);
            } else {
                put_le(out, e.value, 4);
            }
        }
        next_field = out.size();
        put_le(out, 0, 4); // no next IFD (patched when another page follows)
        out.insert(out.end(), arrays.begin(), arrays.end());
    }
    return out;
}

inline Bytes tiff_by_hand(uint32_t width, uint32_t height, uint16_t spp, uint16_t bits, uint16_t format,
                          uint16_t photometric, const Bytes& strip) {
    TiffPage page;
    page.width = width;
    page.height = height;
    page.spp = spp;
    page.bits = bits;
    page.format = format;
    page.photometric = photometric;
    page.strip = strip;
    return tiff_file({page});
}

} // namespace crafted

#endif // IPT_TESTS_CLI_CRAFTED_FILES_HPP
