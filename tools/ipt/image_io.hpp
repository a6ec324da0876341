// SPDX-License-Identifier: Apache-2.0
// Image files for the `ipt` program: .npy (every OpenIPT class), .png,
// .tif/.tiff and .jpg/.jpeg (when built with libpng / libtiff / libjpeg).
//
// In memory an image is OpenIPT's layout: row-major, tightly packed, channel
// planes one after another. Files with channels use the interleaved layout
// that NumPy and image codecs use, (rows, cols, channels); the readers and
// writers convert.
//
// Every failure throws FileError (a UsageError) with the file name and what is
// wrong. Nothing is allocated for image data before the file is known to hold
// it. Outputs are written through OutputFiles: temporary files renamed into
// place only when every output of a command has been written.
#ifndef IPT_TOOLS_IMAGE_IO_HPP
#define IPT_TOOLS_IMAGE_IO_HPP

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include <ipt/ipt.hpp>

namespace ipt::cli {

// The longest side the CLI accepts: the library's (ipt.h). Keeps every size
// product of an image inside 64 bits.
inline constexpr int64_t kMaxImageDimension = IPT_IMAGE_MAX_DIM;

struct HostImage {
    ipt_dtype dtype = IPT_DOUBLE;
    int64_t rows = 0;
    int64_t cols = 0;
    int64_t channels = 1;
    std::vector<unsigned char> bytes; // planar; logical is one byte 0/1 per element

    std::size_t numel() const { return static_cast<std::size_t>(rows * cols * channels); }

    // Allocates and copies numel() elements from data (may be null when empty).
    // Sides above kMaxImageDimension or a byte count beyond memory throw.
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

enum class FileFormat { npy, png, tiff, jpeg };
// From the extension (case-insensitive); throws UsageError for anything else.
FileFormat format_of(const std::string& path);

// How a file becomes one image when it holds more than the CLI keeps by
// default. Without options an image with an alpha channel (or TIFF extra
// samples) and a multi-page TIFF are refused: no operator takes an alpha plane
// or a page stack, and dropping either silently would change results.
struct ReadOptions {
    bool drop_alpha = false; // keep the color planes only, as MATLAB's imread returns them
    uint32_t page = 0;       // TIFF page to read, 1-based (imread(file, page)); 0: the file must have one
};

// An --in value: FILE, optionally followed by ":noalpha" and/or ":page=N"
// (FILE keeps every other ':'). Throws UsageError for a selector that does
// not apply to the file's format.
struct InputSpec {
    std::string path;
    ReadOptions options;
};
InputSpec parse_input_spec(const std::string& text);
// The selectors in words, for --help.
inline constexpr const char* kInputSelectorsHelp =
    "FILE:noalpha  read a PNG or TIFF with alpha (or TIFF extra samples) as its color planes\n"
    "              only, like MATLAB's imread; without it such a file is refused (no operator\n"
    "              takes an alpha plane)\n"
    "FILE:page=N   read page N (1-based) of a multi-page TIFF, like imread(FILE, N); without it\n"
    "              a multi-page TIFF is refused\n";

// How an image becomes a file, where the format has a choice.
struct WriteOptions {
    int quality = 75; // JPEG quality 0-100, MATLAB's imwrite 'Quality' (default 75)
};

// An --out value: FILE, optionally followed by ":quality=N" (JPEG only).
// Throws UsageError for a selector that does not apply to the file's format.
struct OutputSpec {
    std::string path;
    WriteOptions options;
};
OutputSpec parse_output_spec(const std::string& text);
inline constexpr const char* kOutputSelectorsHelp =
    "FILE:quality=N  JPEG quality 0-100 (MATLAB's imwrite 'Quality'; default 75)\n";

HostImage read_image(const std::string& path);
HostImage read_image(const std::string& path, const ReadOptions& options);
// Writes one file through OutputFiles: all or nothing.
void write_image(const std::string& path, const HostImage& image);
void write_image(const std::string& path, const HostImage& image, const WriteOptions& options);

// Files written together. Each output goes to a new temporary file (O_EXCL,
// a unique name) in its destination's directory; commit() renames them into
// place only after all were written. When anything fails before commit(),
// the temporaries are removed and every destination keeps what it had.
// A destination that is a symbolic link is written through the link.
class OutputFiles {
public:
    OutputFiles() = default;
    OutputFiles(const OutputFiles&) = delete;
    OutputFiles& operator=(const OutputFiles&) = delete;
    ~OutputFiles(); // removes uncommitted temporaries

    // Names a destination before any work is done. Two labels for one file
    // (after normalising: "t.npy" and "./t.npy", links, hard links) are a
    // UsageError naming both; so is an unknown extension when `image` is true.
    void declare(const std::string& label, const std::string& path, bool image = true);
    // Writes the file's temporary (declaring the path first if needed).
    void write(const std::string& path, const HostImage& image, const WriteOptions& options = {});
    void write(const std::string& path, FileFormat format, const HostImage& image,
               const WriteOptions& options = {});
    void write_bytes(const std::string& path, std::span<const unsigned char> bytes);
    // Renames every written temporary into place, in declaration order.
    void commit();

private:
    struct Entry {
        std::string label;  // what the user calls it: "--out C" or the path
        std::string path;   // as given
        std::string target; // normalised destination
        std::string temp;   // temporary file, "" until written
    };
    Entry& entry_for(const std::string& path, bool image);
    template <class Fill> void write_with(Entry& entry, Fill&& fill);
    std::vector<Entry> entries_;
};

// Opens an input for reading: a regular file (a FIFO or a device would block
// or never end), returning the descriptor and its size. Throws FileError.
int open_input_file(const std::string& path, uint64_t& size);
// The whole of an input file (opened as above). Throws FileError.
std::vector<unsigned char> read_input_bytes(const std::string& path);

// NPY format versions 1.0, 2.0 and 3.0 are read; 1.0 is written (2.0 only
// when the header would not fit). `name` labels errors. The descr must be
// exactly one of OpenIPT's classes ('|b1', '|u1', '<u2', '<i2', '<i4', '<u4',
// '<f4', '<f8'; '>' and '=' byte orders too), the header at most
// kMaxNpyHeader bytes, each side at most kMaxImageDimension, and the data as
// long as the shape says.
inline constexpr std::size_t kMaxNpyHeader = 65536;
HostImage decode_npy(std::span<const unsigned char> file, const std::string& name);
std::vector<unsigned char> encode_npy(const HostImage& image);

bool png_available();
bool tiff_available();
bool jpeg_available();
// PNG: 1-bit gray reads as logical; 2/4/8-bit gray, palette and RGB as uint8;
// 16-bit as uint16. Alpha (a color type with alpha, or a tRNS chunk) is
// refused unless options.drop_alpha. The declared size is checked against the
// file's length (deflate expands at most 1032:1) before anything is
// allocated. Writes logical (1-bit), uint8, uint16, and single/double with
// every value in [0,1] (as uint8, round(255 x)).
HostImage read_png(const std::string& path);
HostImage read_png(const std::string& path, const ReadOptions& options);
void write_png(const std::string& path, const HostImage& image); // through OutputFiles
// Writes the PNG to an open descriptor (not closed); `name` labels errors.
void write_png_to(int fd, const std::string& name, const HostImage& image);
// TIFF: strips, gray or RGB, every OpenIPT class (1-bit = logical, integer
// and IEEE float samples). One page unless options.page picks one; extra
// samples refused unless options.drop_alpha. The strips must lie inside the
// file and hold the declared size (compressed strips: within the scheme's
// largest expansion) before anything is allocated. Writes every class
// losslessly.
HostImage read_tiff(const std::string& path);
HostImage read_tiff(const std::string& path, const ReadOptions& options);
void write_tiff(const std::string& path, const HostImage& image); // through OutputFiles
void write_tiff_to(int fd, const std::string& name, const HostImage& image);
// JPEG (8-bit baseline and progressive, through libjpeg): gray reads as uint8
// m x n, YCbCr or RGB as uint8 m x n x 3 RGB, like MATLAB's imread. CMYK/YCCK,
// 12-bit, lossless and hierarchical JPEG are refused, and so is damaged data
// (libjpeg's warnings, e.g. a premature end, are errors here: it would fill
// the rest with gray). The declared size is checked against the file's length
// (kMaxJpegExpansion) before anything is allocated. Writes uint8, logical (as
// 0/255) and single/double with every value in [0,1] (as uint8, round(255 x)),
// gray or RGB, at options.quality.
inline constexpr uint64_t kMaxJpegExpansion = 1366;
HostImage read_jpeg(const std::string& path);
HostImage read_jpeg(const std::string& path, const ReadOptions& options);
void write_jpeg_to(int fd, const std::string& name, const HostImage& image, const WriteOptions& options);

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
