// Image files for the `ipt` program: .npy (every OpenIPT class), .png and
// .tif/.tiff (when built with libpng / libtiff).
//
// In memory an image is OpenIPT's layout: row-major, tightly packed, channel
// planes one after another. Files with channels use the interleaved layout
// that NumPy and image codecs use, (rows, cols, channels); the readers and
// writers convert.
//
// Every failure throws UsageError with the file name and what is wrong.
#ifndef IPT_TOOLS_IMAGE_IO_HPP
#define IPT_TOOLS_IMAGE_IO_HPP

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include <ipt/ipt.hpp>

namespace ipt::cli {

struct HostImage {
    ipt_dtype dtype = IPT_DOUBLE;
    int64_t rows = 0;
    int64_t cols = 0;
    int64_t channels = 1;
    std::vector<unsigned char> bytes; // planar; logical is one byte 0/1 per element

    std::size_t numel() const { return static_cast<std::size_t>(rows * cols * channels); }

    // Allocates and copies numel() elements from data (may be null when empty).
    static HostImage make(ipt_dtype dtype, int64_t rows, int64_t cols, int64_t channels,
                          const void* data);
    template <class T>
    static HostImage from_values(int64_t rows, int64_t cols, int64_t channels,
                                 const std::vector<T>& values) {
        check_count(values.size(), rows * cols * channels);
        return make(ipt::dtype_of<T>(), rows, cols, channels, values.data());
    }
    // Copies the elements out; T must have the size of the class.
    template <class T> std::vector<T> values() const {
        check_element_size(sizeof(T));
        std::vector<T> out(numel());
        if (!out.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
        return out;
    }

private:
    static void check_count(std::size_t have, int64_t want);
    void check_element_size(std::size_t size) const;
};

// Element `index` (planar order) as a double.
double value_at(const HostImage& image, std::size_t index);

// "double 3x4" or "uint8 480x640x3".
std::string describe(const HostImage& image);

enum class FileFormat { npy, png, tiff };
// From the extension (case-insensitive); throws UsageError for anything else.
FileFormat format_of(const std::string& path);

HostImage read_image(const std::string& path);
void write_image(const std::string& path, const HostImage& image);

// NPY format versions 1.0, 2.0 and 3.0 are read; 1.0 is written (2.0 only
// when the header would not fit). `name` labels errors.
HostImage decode_npy(std::span<const unsigned char> file, const std::string& name);
std::vector<unsigned char> encode_npy(const HostImage& image);

bool png_available();
bool tiff_available();
// PNG: 1-bit gray reads as logical; 2/4/8-bit gray, palette and RGB as uint8;
// 16-bit as uint16; alpha is dropped. Writes logical (1-bit), uint8, uint16,
// and single/double with every value in [0,1] (as uint8, round(255 x)).
HostImage read_png(const std::string& path);
void write_png(const std::string& path, const HostImage& image);
// TIFF: first page, strips, gray or RGB, every OpenIPT class (1-bit = logical,
// integer and IEEE float samples); writes every class losslessly.
HostImage read_tiff(const std::string& path);
void write_tiff(const std::string& path, const HostImage& image);

// ---- between host images and library images ----------------------------------

inline ipt::Image upload(ipt::Context& ctx, const HostImage& image,
                         uint32_t device = IPT_DEVICE_HOST) {
    return ctx.upload(image.dtype, image.rows, image.cols, image.bytes.data(), image.channels,
                      device);
}

inline HostImage download(const ipt::Image& image) {
    const ipt_image_info info = image.info();
    HostImage out = HostImage::make(static_cast<ipt_dtype>(info.dtype), info.rows, info.cols,
                                    info.channels, nullptr);
    if (!out.bytes.empty()) image.download(out.bytes.data());
    return out;
}

} // namespace ipt::cli

#endif // IPT_TOOLS_IMAGE_IO_HPP
