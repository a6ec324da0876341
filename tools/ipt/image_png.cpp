// SPDX-License-Identifier: Apache-2.0
// PNG through libpng's classic interface: the simplified interface converts
// 16-bit data to linear light, which would change the values.
#include "image_io.hpp"

#include "command.hpp"
#include "text.hpp"

#ifdef IPT_CLI_HAVE_PNG
#include <png.h>

#include <bit>

#include <cerrno>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <memory>

#include <unistd.h>
#endif

namespace ipt::cli {

#ifndef IPT_CLI_HAVE_PNG

bool png_available() { return false; }
HostImage read_png(const std::string& path, const ReadOptions&) {
    throw FileError(path + ": this ipt was built without libpng; use .npy (or .tif)");
}
void write_png_to(int, const std::string& name, const HostImage&) {
    throw FileError(name + ": this ipt was built without libpng; use .npy (or .tif)");
}

#else

bool png_available() { return true; }

namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// libpng reports errors by longjmp. The handler keeps the text; the functions
// below declare every C++ object before setjmp so that the jump skips no
// destructor, then turn the failure into an exception.
struct PngError {
    char message[256] = "";
};

[[noreturn]] void on_png_error(png_structp png, png_const_charp message) {
    auto* error = static_cast<PngError*>(png_get_error_ptr(png));
    std::snprintf(error->message, sizeof error->message, "%s", message);
    png_longjmp(png, 1);
}
void on_png_warning(png_structp, png_const_charp) {}

// Deflate's largest expansion is about 1032:1; a file shorter than its
// declared rows need at that rate cannot hold them.
constexpr uint64_t kMaxDeflateRatio = 1032;

} // namespace

HostImage read_png(const std::string& path, const ReadOptions& options) {
    uint64_t file_size = 0;
    const int fd = open_input_file(path, file_size);
    File file(::fdopen(fd, "rb"));
    if (!file) {
        ::close(fd);
        throw FileError(path + ": cannot open for reading: " + std::strerror(errno));
    }
    unsigned char signature[8] = {};
    if (std::fread(signature, 1, 8, file.get()) != 8 || png_sig_cmp(signature, 0, 8) != 0)
        throw FileError(path + ": not a PNG file");

    PngError error;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &error, on_png_error, on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!info) {
        png_destroy_read_struct(&png, nullptr, nullptr);
        throw FileError(path + ": out of memory for the PNG reader");
    }
    // Every C++ object the reader fills is declared before setjmp.
    HostImage image;
    std::vector<unsigned char> interleaved;
    std::vector<png_bytep> row_pointers;
    std::string refusal;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, nullptr);
        throw FileError(path + ": bad PNG: " + error.message);
    }
    png_init_io(png, file.get());
    png_set_sig_bytes(png, 8);
    png_read_info(png, info);

    const int color_type = png_get_color_type(png, info);
    const int bit_depth = png_get_bit_depth(png, info);
    const uint64_t height = png_get_image_height(png, info);
    // Rows as the file stores them (a filter byte each), before any expansion.
    const uint64_t file_row_bytes = png_get_rowbytes(png, info) + 1;
    uint64_t row_total = 0;
    if (__builtin_mul_overflow(height, file_row_bytes, &row_total) || row_total > file_size * kMaxDeflateRatio) {
        refusal = "declares " + std::to_string(png_get_image_width(png, info)) + "x" + std::to_string(height) +
                  " pixels (" + std::to_string(height) + " rows of " + std::to_string(file_row_bytes) + " bytes) but holds " +
                  std::to_string(file_size) + " bytes, more than deflate can expand; the file is damaged";
    }
    const bool has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS);
    if (refusal.empty() && has_alpha && !options.drop_alpha) {
        refusal = std::string("has an alpha channel (") +
                  ((color_type & PNG_COLOR_MASK_ALPHA) ? (color_type & PNG_COLOR_MASK_COLOR ? "RGBA" : "gray+alpha")
                                                       : "a tRNS transparency chunk") +
                  "), which no operator takes; add :noalpha to the file name to read the color planes only, "
                  "as MATLAB's imread does (e.g. --in I=" + path + ":noalpha)";
    }
    if (!refusal.empty()) {
        png_destroy_read_struct(&png, &info, nullptr);
        throw FileError(path + ": " + refusal);
    }
    const bool binary = bit_depth == 1 && (color_type == PNG_COLOR_TYPE_GRAY);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png); // expands tRNS to alpha too
    if (binary)
        png_set_packing(png); // one byte 0/1 per pixel: MATLAB reads 1-bit gray as logical
    else if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    if (has_alpha) png_set_strip_alpha(png); // after the expansions above
    if (bit_depth == 16 && std::endian::native == std::endian::little) png_set_swap(png);
    png_read_update_info(png, info);

    const int64_t rows = png_get_image_height(png, info);
    const int64_t cols = png_get_image_width(png, info);
    const int64_t channels = png_get_channels(png, info);
    const ipt_dtype dtype = binary ? IPT_LOGICAL : bit_depth == 16 ? IPT_UINT16 : IPT_UINT8;
    const std::size_t element = dtype_size(dtype);
    const std::size_t row_bytes = png_get_rowbytes(png, info);
    if (row_bytes != static_cast<std::size_t>(cols * channels) * element) {
        png_destroy_read_struct(&png, &info, nullptr);
        throw FileError(path + ": unexpected PNG row layout");
    }
    interleaved.resize(row_bytes * static_cast<std::size_t>(rows));
    row_pointers.resize(static_cast<std::size_t>(rows));
    for (int64_t r = 0; r < rows; ++r) row_pointers[r] = interleaved.data() + r * row_bytes;
    png_read_image(png, row_pointers.data());
    png_read_end(png, nullptr);
    png_destroy_read_struct(&png, &info, nullptr);

    image = HostImage::make(dtype, rows, cols, channels, nullptr);
    for (int64_t k = 0; k < channels; ++k)
        for (int64_t p = 0; p < rows * cols; ++p)
            std::memcpy(&image.bytes[(k * rows * cols + p) * element], &interleaved[(p * channels + k) * element],
                        element);
    return image;
}

void write_png_to(int fd, const std::string& path, const HostImage& image) {
    if (image.channels != 1 && image.channels != 3)
        throw FileError(path + ": PNG holds 1 or 3 channels, the image has " + std::to_string(image.channels));
    if (image.rows == 0 || image.cols == 0) throw FileError(path + ": PNG cannot hold an empty image");
    if (image.rows > PNG_UINT_31_MAX || image.cols > PNG_UINT_31_MAX)
        throw FileError(path + ": PNG sides are at most " + std::to_string(PNG_UINT_31_MAX) + " pixels");

    // What goes into the file: logical as 1-bit, uint8/uint16 as they are,
    // floating images in [0,1] as uint8 like im2uint8 (round half away).
    int bit_depth = 8;
    const std::size_t n = image.numel();
    std::vector<unsigned char> samples; // planar, 1 or 2 bytes per element
    switch (image.dtype) {
    case IPT_LOGICAL:
        bit_depth = 1;
        samples = image.bytes;
        break;
    case IPT_UINT8: samples = image.bytes; break;
    case IPT_UINT16:
        bit_depth = 16;
        samples = image.bytes;
        break;
    case IPT_SINGLE:
    case IPT_DOUBLE: {
        samples.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const double x = value_at(image, i);
            if (!(x >= 0.0 && x <= 1.0))
                throw FileError(path + ": a " + std::string(dtype_name(image.dtype)) +
                                 " image goes to PNG only with values in [0,1] (found " + format_number(x) +
                                 "); use .npy or .tif to keep the values");
            samples[i] = static_cast<unsigned char>(std::round(x * 255.0));
        }
        break;
    }
    default:
        throw FileError(path + ": PNG holds logical, uint8, uint16 (or single/double in [0,1]) images, not " +
                         std::string(dtype_name(image.dtype)) + "; use .npy or .tif");
    }
    const std::size_t element = bit_depth == 16 ? 2 : 1;
    const int64_t rows = image.rows, cols = image.cols, channels = image.channels;
    std::vector<unsigned char> interleaved(samples.size());
    for (int64_t k = 0; k < channels; ++k)
        for (int64_t p = 0; p < rows * cols; ++p)
            std::memcpy(&interleaved[(p * channels + k) * element], &samples[(k * rows * cols + p) * element],
                        element);
    std::vector<png_bytep> row_pointers(static_cast<std::size_t>(rows));
    const std::size_t row_bytes = static_cast<std::size_t>(cols * channels) * element;
    for (int64_t r = 0; r < rows; ++r) row_pointers[r] = interleaved.data() + r * row_bytes;

    // The descriptor stays open for the caller: the PNG goes through a duplicate.
    const int copy = ::dup(fd);
    File file(copy >= 0 ? ::fdopen(copy, "wb") : nullptr);
    if (!file) {
        if (copy >= 0) ::close(copy);
        throw FileError(path + ": cannot write: " + std::strerror(errno));
    }
    PngError error;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &error, on_png_error, on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!info) {
        png_destroy_write_struct(&png, nullptr);
        throw FileError(path + ": out of memory for the PNG writer");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        throw FileError(path + ": cannot write PNG: " + error.message);
    }
    png_init_io(png, file.get());
    png_set_IHDR(png, info, static_cast<png_uint_32>(cols), static_cast<png_uint_32>(rows), bit_depth,
                 channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if (bit_depth == 1) png_set_packing(png); // our rows hold one byte 0/1 per pixel
    if (bit_depth == 16 && std::endian::native == std::endian::little) png_set_swap(png);
    png_write_image(png, row_pointers.data());
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    if (std::fflush(file.get()) != 0) throw FileError(path + ": write error: " + std::strerror(errno));
}

#endif

} // namespace ipt::cli
