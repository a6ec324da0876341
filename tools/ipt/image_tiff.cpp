// SPDX-License-Identifier: Apache-2.0
// TIFF through libtiff's scanline interface: strips, one page, gray or RGB.
#include "image_io.hpp"

#include "command.hpp"
#include "text.hpp"

#ifdef IPT_CLI_HAVE_TIFF
#include <tiffio.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>

#include <unistd.h>
#endif

namespace ipt::cli {

#ifndef IPT_CLI_HAVE_TIFF

bool tiff_available() { return false; }
HostImage read_tiff(const std::string& path, const ReadOptions&) {
    throw FileError(path + ": this ipt was built without libtiff; use .npy (or .png)");
}
void write_tiff_to(int, const std::string& name, const HostImage&) {
    throw FileError(name + ": this ipt was built without libtiff; use .npy (or .png)");
}

#else

bool tiff_available() { return true; }

namespace {

// libtiff prints through global handlers; keep the last error for the message.
thread_local std::string last_tiff_error;

void on_tiff_error(const char* module, const char* format, va_list args) {
    char text[512];
    std::vsnprintf(text, sizeof text, format, args);
    last_tiff_error = module ? std::string(module) + ": " + text : text;
}
void on_tiff_warning(const char*, const char*, va_list) {}

struct TiffCloser {
    void operator()(TIFF* tif) const { TIFFClose(tif); }
};
using Tiff = std::unique_ptr<TIFF, TiffCloser>;

// libtiff reads from and writes to `fd`, which it closes with the TIFF (also
// when the open fails here).
Tiff open_tiff_fd(int fd, const std::string& path, const char* mode) {
    TIFFSetErrorHandler(on_tiff_error);
    TIFFSetWarningHandler(on_tiff_warning);
    last_tiff_error.clear();
    Tiff tif(TIFFFdOpen(fd, path.c_str(), mode));
    if (!tif) {
        ::close(fd);
        throw FileError(path + ": cannot open TIFF for " + (mode[0] == 'r' ? "reading" : "writing") +
                        (last_tiff_error.empty() ? "" : ": " + last_tiff_error));
    }
    return tif;
}

// How many bytes of samples one stored byte can become at most, by scheme:
// PackBits 2 -> 128, deflate about 1032:1, LZW a 9-bit code for at most 4096
// bytes. Other schemes (fax, JPEG, ZSTD...) get a generous bound.
uint64_t max_expansion(uint16_t compression) {
    switch (compression) {
    case COMPRESSION_NONE: return 1;
    case COMPRESSION_PACKBITS: return 64;
    case COMPRESSION_ADOBE_DEFLATE:
    case COMPRESSION_DEFLATE: return 1032;
    case COMPRESSION_LZW: return 3641;
    default: return 65536;
    }
}

struct TiffSampleType {
    uint16_t format; // SAMPLEFORMAT_*
    uint16_t bits;
    ipt_dtype dtype;
};
constexpr TiffSampleType kTiffTypes[] = {
    {SAMPLEFORMAT_UINT, 1, IPT_LOGICAL},    {SAMPLEFORMAT_UINT, 8, IPT_UINT8},
    {SAMPLEFORMAT_UINT, 16, IPT_UINT16},    {SAMPLEFORMAT_INT, 16, IPT_INT16},
    {SAMPLEFORMAT_INT, 32, IPT_INT32},      {SAMPLEFORMAT_UINT, 32, IPT_UINT32},
    {SAMPLEFORMAT_IEEEFP, 32, IPT_SINGLE},  {SAMPLEFORMAT_IEEEFP, 64, IPT_DOUBLE},
};

} // namespace

HostImage read_tiff(const std::string& path, const ReadOptions& options) {
    uint64_t file_size = 0;
    const int fd = open_input_file(path, file_size);
    Tiff tif = open_tiff_fd(fd, path, "r");
    auto fail = [&](const std::string& what) -> FileError { return FileError(path + ": " + what); };

    // A stack of pages is no image an operator takes; reading only its first
    // page (MATLAB's imread default) would pass for the whole file.
    const uint64_t pages = TIFFNumberOfDirectories(tif.get());
    if (options.page == 0 && pages > 1)
        throw fail("holds " + std::to_string(pages) + " pages; name the one to read, e.g. --in I=" + path +
                   ":page=1 (pages 1 to " + std::to_string(pages) + ")");
    if (options.page > pages)
        throw fail("has " + std::to_string(pages) + " page" + (pages == 1 ? "" : "s") + ", no page " +
                   std::to_string(options.page));
    if (options.page > 1 && !TIFFSetDirectory(tif.get(), static_cast<tdir_t>(options.page - 1)))
        throw fail("cannot read page " + std::to_string(options.page) +
                   (last_tiff_error.empty() ? "" : ": " + last_tiff_error));
    if (TIFFIsTiled(tif.get())) throw fail("tiled TIFF is not supported; save it in strips");

    uint32_t width = 0, height = 0;
    uint16_t samples_per_pixel = 1, bits = 1, format = SAMPLEFORMAT_UINT, photometric = 0,
             planar = PLANARCONFIG_CONTIG, compression = COMPRESSION_NONE;
    TIFFGetField(tif.get(), TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(tif.get(), TIFFTAG_IMAGELENGTH, &height);
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_SAMPLESPERPIXEL, &samples_per_pixel);
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_COMPRESSION, &compression);
    if (!TIFFGetField(tif.get(), TIFFTAG_PHOTOMETRIC, &photometric)) photometric = PHOTOMETRIC_MINISBLACK;

    const TiffSampleType* type = nullptr;
    for (const auto& t : kTiffTypes)
        if (t.format == format && t.bits == bits) type = &t;
    if (!type)
        throw fail(std::to_string(bits) + "-bit samples of format " + std::to_string(format) +
                   " are not an OpenIPT class");
    int64_t channels = 0;
    if (photometric == PHOTOMETRIC_RGB && samples_per_pixel >= 3)
        channels = 3;
    else if ((photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE) &&
             samples_per_pixel >= 1)
        channels = 1;
    else
        throw fail("only gray and RGB TIFF are supported (photometric " + std::to_string(photometric) + ", " +
                   std::to_string(samples_per_pixel) + " samples per pixel)");
    if (samples_per_pixel > channels && !options.drop_alpha)
        throw fail("has " + std::to_string(samples_per_pixel - channels) + " extra sample(s) per pixel beyond " +
                   (channels == 3 ? "RGB" : "gray") +
                   " (alpha or other), which no operator takes; add :noalpha to the file name to read the " +
                   (channels == 3 ? "RGB" : "gray") + " planes only (e.g. --in I=" + path + ":noalpha)");
    // 1-bit fax images are often min-is-white; MATLAB reads them with 1 = white.
    const bool invert = photometric == PHOTOMETRIC_MINISWHITE;
    if (invert && type->dtype != IPT_LOGICAL) throw fail("min-is-white TIFF is supported for 1-bit images only");

    // The strips must lie inside the file and hold the declared size before
    // the image is allocated: a few bytes can declare 65535 x 65535.
    const int64_t scanline = TIFFScanlineSize64(tif.get());
    if (scanline <= 0) throw fail("bad row size" + (last_tiff_error.empty() ? "" : ": " + last_tiff_error));
    const uint64_t planes = planar == PLANARCONFIG_SEPARATE ? samples_per_pixel : 1;
    uint64_t declared = 0;
    if (__builtin_mul_overflow(static_cast<uint64_t>(scanline), static_cast<uint64_t>(height), &declared) ||
        __builtin_mul_overflow(declared, planes, &declared))
        throw fail("declared size " + std::to_string(width) + "x" + std::to_string(height) + " is too large");
    uint64_t stored = 0;
    const uint32_t strips = TIFFNumberOfStrips(tif.get());
    for (uint32_t s = 0; s < strips; ++s) {
        const uint64_t offset = TIFFGetStrileOffset(tif.get(), s), count = TIFFGetStrileByteCount(tif.get(), s);
        if (offset > file_size || count > file_size - offset)
            throw fail("strip " + std::to_string(s) + " (" + std::to_string(count) + " bytes at " +
                       std::to_string(offset) + ") lies outside the file's " + std::to_string(file_size) +
                       " bytes; the file is truncated or damaged");
        // Strips of a sound file do not overlap: together they hold at most the file.
        stored = std::min(stored + count, file_size);
    }
    const uint64_t ratio = max_expansion(compression);
    if (declared / ratio + (declared % ratio != 0) > stored)
        throw fail("declares " + std::to_string(width) + "x" + std::to_string(height) + " pixels (" +
                   std::to_string(declared) + " bytes of samples) but its strips hold " + std::to_string(stored) +
                   " bytes" + (compression == COMPRESSION_NONE ? "" : ", more than its compression can expand") +
                   "; the file is truncated or damaged");

    const int64_t rows = height, cols = width;
    HostImage image = HostImage::make(type->dtype, rows, cols, channels, nullptr);
    const std::size_t element = dtype_size(type->dtype);
    std::vector<unsigned char> line(static_cast<std::size_t>(scanline));
    auto read_line = [&](int64_t r, int64_t plane) {
        if (TIFFReadScanline(tif.get(), line.data(), static_cast<uint32_t>(r), static_cast<uint16_t>(plane)) < 0)
            throw fail("cannot read row " + std::to_string(r) +
                       (last_tiff_error.empty() ? "" : ": " + last_tiff_error));
    };
    // Copies channel k of row r out of `line`, where sample s of pixel c sits
    // at index c * stride + first.
    auto take = [&](int64_t k, int64_t r, int64_t stride, int64_t first) {
        unsigned char* out = &image.bytes[static_cast<std::size_t>((k * rows + r) * cols) * element];
        for (int64_t c = 0; c < cols; ++c) {
            const int64_t sample = c * stride + first;
            if (type->dtype == IPT_LOGICAL) {
                const bool bit = (line[static_cast<std::size_t>(sample / 8)] >> (7 - sample % 8)) & 1;
                out[c] = bit != invert;
            } else {
                std::memcpy(out + c * element, &line[static_cast<std::size_t>(sample) * element], element);
            }
        }
    };
    // Scanlines are read in order (compressed strips decode forwards): a
    // contiguous file holds every sample of a pixel in one scanline, a
    // separate-planes file has scanlines per sample.
    if (planar == PLANARCONFIG_SEPARATE) {
        for (int64_t k = 0; k < channels; ++k)
            for (int64_t r = 0; r < rows; ++r) {
                read_line(r, k);
                take(k, r, 1, 0);
            }
    } else {
        for (int64_t r = 0; r < rows; ++r) {
            read_line(r, 0);
            for (int64_t k = 0; k < channels; ++k) take(k, r, samples_per_pixel, k);
        }
    }
    return image;
}

void write_tiff_to(int fd, const std::string& path, const HostImage& image) {
    if (image.channels != 1 && image.channels != 3)
        throw FileError(path + ": TIFF output holds 1 or 3 channels, the image has " +
                        std::to_string(image.channels));
    if (image.rows == 0 || image.cols == 0) throw FileError(path + ": TIFF cannot hold an empty image");
    if (image.rows > kMaxImageDimension || image.cols > kMaxImageDimension)
        throw FileError(path + ": TIFF sides are at most " + std::to_string(kMaxImageDimension) + " pixels");
    const TiffSampleType* type = nullptr;
    for (const auto& t : kTiffTypes)
        if (t.dtype == image.dtype) type = &t;
    if (!type) throw FileError(path + ": cannot write class " + std::string(dtype_name(image.dtype)));

    // The caller's descriptor stays open: libtiff gets (and closes) a duplicate.
    const int copy = ::dup(fd);
    if (copy < 0) throw FileError(path + ": cannot write: " + std::strerror(errno));
    Tiff tif = open_tiff_fd(copy, path, "w");
    const int64_t rows = image.rows, cols = image.cols, channels = image.channels;
    TIFFSetField(tif.get(), TIFFTAG_IMAGEWIDTH, static_cast<uint32_t>(cols));
    TIFFSetField(tif.get(), TIFFTAG_IMAGELENGTH, static_cast<uint32_t>(rows));
    TIFFSetField(tif.get(), TIFFTAG_SAMPLESPERPIXEL, static_cast<uint16_t>(channels));
    TIFFSetField(tif.get(), TIFFTAG_BITSPERSAMPLE, type->bits);
    TIFFSetField(tif.get(), TIFFTAG_SAMPLEFORMAT, type->format);
    TIFFSetField(tif.get(), TIFFTAG_PHOTOMETRIC, channels == 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
    TIFFSetField(tif.get(), TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif.get(), TIFFTAG_COMPRESSION, COMPRESSION_NONE);
    TIFFSetField(tif.get(), TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(tif.get(), 0));

    const std::size_t element = dtype_size(image.dtype);
    std::vector<unsigned char> line(static_cast<std::size_t>(TIFFScanlineSize(tif.get())));
    for (int64_t r = 0; r < rows; ++r) {
        std::fill(line.begin(), line.end(), 0);
        for (int64_t c = 0; c < cols; ++c)
            for (int64_t k = 0; k < channels; ++k) {
                const unsigned char* in = &image.bytes[static_cast<std::size_t>((k * rows + r) * cols + c) * element];
                const int64_t sample = c * channels + k;
                if (image.dtype == IPT_LOGICAL) {
                    if (*in) line[static_cast<std::size_t>(sample / 8)] |= static_cast<unsigned char>(0x80u >> (sample % 8));
                } else {
                    std::memcpy(&line[static_cast<std::size_t>(sample) * element], in, element);
                }
            }
        if (TIFFWriteScanline(tif.get(), line.data(), static_cast<uint32_t>(r), 0) < 0)
            throw FileError(path + ": cannot write TIFF row " + std::to_string(r) +
                            (last_tiff_error.empty() ? "" : ": " + last_tiff_error));
    }
    // TIFFClose flushes; a failed flush is reported here rather than lost.
    if (!TIFFFlush(tif.get()))
        throw FileError(path + ": cannot write TIFF" + (last_tiff_error.empty() ? "" : ": " + last_tiff_error));
}

#endif

} // namespace ipt::cli
