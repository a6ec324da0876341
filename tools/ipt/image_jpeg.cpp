// SPDX-License-Identifier: Apache-2.0
// JPEG through libjpeg(-turbo)'s classic interface: 8-bit samples, gray or
// RGB, as MATLAB's imread returns them.
#include "image_io.hpp"

#include "command.hpp"
#include "text.hpp"

#ifdef IPT_CLI_HAVE_JPEG
#include <cerrno>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <memory>

#include <unistd.h>

// jpeglib.h needs size_t and FILE declared first.
#include <jerror.h>
#include <jpeglib.h>
#endif

namespace ipt::cli {

#ifndef IPT_CLI_HAVE_JPEG

bool jpeg_available() { return false; }
HostImage read_jpeg(const std::string& path, const ReadOptions&) {
    throw FileError(path + ": this ipt was built without libjpeg; use .npy, .png or .tif");
}
void write_jpeg_to(int, const std::string& name, const HostImage&, const WriteOptions&) {
    throw FileError(name + ": this ipt was built without libjpeg; use .npy, .png or .tif");
}

#else

bool jpeg_available() { return true; }

namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// libjpeg's default error handler prints and calls exit(). This one keeps the
// text and jumps back; the functions below declare every C++ object before
// setjmp so that the jump skips no destructor, then throw. Warnings (corrupt
// data, a premature end) jump too: libjpeg would go on and fill the damaged
// part with gray, an image the file does not hold.
struct JpegError {
    jpeg_error_mgr manager{}; // first: libjpeg hands back a pointer to it
    std::jmp_buf jump{};
    int code = 0;
    char message[JMSG_LENGTH_MAX] = "";
};

void keep_message(j_common_ptr cinfo) {
    auto* error = reinterpret_cast<JpegError*>(cinfo->err);
    error->code = cinfo->err->msg_code;
    cinfo->err->format_message(cinfo, error->message);
}

[[noreturn]] void on_jpeg_error(j_common_ptr cinfo) {
    keep_message(cinfo);
    std::longjmp(reinterpret_cast<JpegError*>(cinfo->err)->jump, 1);
}

void on_jpeg_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return; // trace messages
    on_jpeg_error(cinfo);
}

void on_jpeg_output(j_common_ptr cinfo) { keep_message(cinfo); } // never printed

jpeg_error_mgr* install(JpegError& error) {
    jpeg_std_error(&error.manager);
    error.manager.error_exit = on_jpeg_error;
    error.manager.emit_message = on_jpeg_message;
    error.manager.output_message = on_jpeg_output;
    return &error.manager;
}

// What libjpeg reports in words the user can act on.
std::string explain(const JpegError& error) {
    switch (error.code) {
    case JERR_BAD_PRECISION:
        return "is not an 8-bit JPEG (" + std::string(error.message) +
               "); this ipt's libjpeg reads 8-bit samples only (12-bit and 16-bit JPEG are not supported)";
    case JERR_SOF_UNSUPPORTED:
        return "uses a JPEG process this ipt's libjpeg does not read (" + std::string(error.message) +
               "): lossless and hierarchical JPEG are not supported";
    default: return "bad JPEG: " + std::string(error.message);
    }
}

} // namespace

HostImage read_jpeg(const std::string& path, const ReadOptions&) {
    const std::vector<unsigned char> file = read_input_bytes(path);
    // SOI and the start of the next marker.
    if (file.size() < 3 || file[0] != 0xFF || file[1] != 0xD8 || file[2] != 0xFF)
        throw FileError(path + ": not a JPEG file");

    // Every C++ object the reader fills is declared before setjmp.
    JpegError error;
    jpeg_decompress_struct cinfo{};
    HostImage image;
    std::vector<unsigned char> row;
    std::string refusal;
    cinfo.err = install(error);
    if (setjmp(error.jump)) {
        // cinfo is zero or whole here: destroying either is safe.
        jpeg_destroy_decompress(&cinfo);
        throw FileError(path + ": " + explain(error));
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, file.data(), static_cast<unsigned long>(file.size()));
    jpeg_read_header(&cinfo, TRUE);

    int64_t channels = 0;
    switch (cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE:
        cinfo.out_color_space = JCS_GRAYSCALE;
        channels = 1;
        break;
    case JCS_YCbCr:
    case JCS_RGB:
        cinfo.out_color_space = JCS_RGB;
        channels = 3;
        break;
    case JCS_CMYK:
    case JCS_YCCK:
        refusal = "is a CMYK JPEG, which no operator takes (OpenIPT images are gray or RGB); convert it to RGB first";
        break;
    default:
        refusal = "has " + std::to_string(cinfo.num_components) +
                  " color components of no known color space; only gray and RGB (YCbCr) JPEG are read";
        break;
    }
    // A JPEG block costs at least one bit in the first scan that codes it; with
    // 4x4 luma sampling 18 blocks give 32x32 RGB pixels, 3072 bytes from 18 bits.
    const uint64_t rows = cinfo.image_height, cols = cinfo.image_width;
    uint64_t declared = 0;
    if (refusal.empty() && (__builtin_mul_overflow(rows * cols, static_cast<uint64_t>(channels), &declared) ||
                            declared / kMaxJpegExpansion > file.size())) {
        refusal = "declares " + std::to_string(cols) + "x" + std::to_string(rows) + " pixels (" +
                  std::to_string(declared) + " bytes) but holds " + std::to_string(file.size()) +
                  " bytes, more than JPEG coding can expand; the file is damaged";
    }
    if (!refusal.empty()) {
        jpeg_destroy_decompress(&cinfo);
        throw FileError(path + ": " + refusal);
    }

    jpeg_start_decompress(&cinfo);
    if (static_cast<int64_t>(cinfo.output_components) != channels || cinfo.output_height != rows ||
        cinfo.output_width != cols) {
        jpeg_destroy_decompress(&cinfo);
        throw FileError(path + ": unexpected JPEG output layout");
    }
    try {
        image = HostImage::make(IPT_UINT8, static_cast<int64_t>(rows), static_cast<int64_t>(cols), channels, nullptr);
        row.resize(static_cast<std::size_t>(cols * channels));
    } catch (...) {
        jpeg_destroy_decompress(&cinfo);
        throw;
    }
    const std::size_t plane = static_cast<std::size_t>(rows * cols);
    while (cinfo.output_scanline < cinfo.output_height) {
        const std::size_t r = cinfo.output_scanline;
        JSAMPROW line = row.data();
        if (jpeg_read_scanlines(&cinfo, &line, 1) != 1) {
            // Only a suspending source returns no row; the memory source never does.
            jpeg_destroy_decompress(&cinfo);
            throw FileError(path + ": bad JPEG: row " + std::to_string(r) + " could not be read");
        }
        for (int64_t k = 0; k < channels; ++k)
            for (std::size_t c = 0; c < cols; ++c)
                image.bytes[static_cast<std::size_t>(k) * plane + r * cols + c] = row[c * channels + k];
    }
    // Reads up to EOI, so that damage after the last row is seen too.
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return image;
}

void write_jpeg_to(int fd, const std::string& path, const HostImage& image, const WriteOptions& options) {
    if (image.channels != 1 && image.channels != 3)
        throw FileError(path + ": JPEG holds 1 or 3 channels, the image has " + std::to_string(image.channels));
    if (image.rows == 0 || image.cols == 0) throw FileError(path + ": JPEG cannot hold an empty image");
    if (image.rows > JPEG_MAX_DIMENSION || image.cols > JPEG_MAX_DIMENSION)
        throw FileError(path + ": JPEG sides are at most " + std::to_string(JPEG_MAX_DIMENSION) + " pixels");
    if (options.quality < 0 || options.quality > 100)
        throw FileError(path + ": JPEG quality must be 0 to 100, not " + std::to_string(options.quality));

    // What goes into the file, as MATLAB's imwrite does for JPEG: uint8 as it
    // is, logical as 0/255, floating images in [0,1] as round(255 x).
    const std::size_t n = image.numel();
    std::vector<unsigned char> samples(n); // planar
    switch (image.dtype) {
    case IPT_UINT8: samples = image.bytes; break;
    case IPT_LOGICAL:
        for (std::size_t i = 0; i < n; ++i) samples[i] = image.bytes[i] ? 255 : 0;
        break;
    case IPT_SINGLE:
    case IPT_DOUBLE:
        for (std::size_t i = 0; i < n; ++i) {
            const double x = value_at(image, i);
            if (!(x >= 0.0 && x <= 1.0))
                throw FileError(path + ": a " + std::string(dtype_name(image.dtype)) +
                                " image goes to JPEG only with values in [0,1] (found " + format_number(x) +
                                "); use .npy or .tif to keep the values");
            samples[i] = static_cast<unsigned char>(std::round(x * 255.0));
        }
        break;
    case IPT_UINT16:
        throw FileError(path + ": this ipt writes 8-bit JPEG only, and a uint16 image would lose its low bits; "
                               "use .png or .tif (or convert with im2uint8 first)");
    default:
        throw FileError(path + ": JPEG holds logical, uint8 (or single/double in [0,1]) images, not " +
                        std::string(dtype_name(image.dtype)) + "; use .npy or .tif");
    }
    const std::size_t rows = static_cast<std::size_t>(image.rows), cols = static_cast<std::size_t>(image.cols);
    const std::size_t channels = static_cast<std::size_t>(image.channels), plane = rows * cols;

    // The descriptor stays open for the caller: the JPEG goes through a duplicate.
    const int copy = ::dup(fd);
    File file(copy >= 0 ? ::fdopen(copy, "wb") : nullptr);
    if (!file) {
        if (copy >= 0) ::close(copy);
        throw FileError(path + ": cannot write: " + std::strerror(errno));
    }
    JpegError error;
    jpeg_compress_struct cinfo{};
    std::vector<unsigned char> row(cols * channels);
    cinfo.err = install(error);
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&cinfo);
        throw FileError(path + ": cannot write JPEG: " + std::string(error.message));
    }
    jpeg_create_compress(&cinfo);
    jpeg_stdio_dest(&cinfo, file.get());
    cinfo.image_width = static_cast<JDIMENSION>(cols);
    cinfo.image_height = static_cast<JDIMENSION>(rows);
    cinfo.input_components = static_cast<int>(channels);
    cinfo.in_color_space = channels == 3 ? JCS_RGB : JCS_GRAYSCALE;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, options.quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        const std::size_t r = cinfo.next_scanline;
        for (std::size_t k = 0; k < channels; ++k)
            for (std::size_t c = 0; c < cols; ++c) row[c * channels + k] = samples[k * plane + r * cols + c];
        JSAMPROW line = row.data();
        jpeg_write_scanlines(&cinfo, &line, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    if (std::fflush(file.get()) != 0) throw FileError(path + ": write error: " + std::strerror(errno));
}

#endif

} // namespace ipt::cli
