// SPDX-License-Identifier: Apache-2.0
#include "image_io.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <optional>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.hpp"
#include "common/file_access.hpp"
#include "text.hpp"

namespace ipt::cli {

// ---- HostImage ------------------------------------------------------------------

HostImage HostImage::make(ipt_dtype dtype, int64_t rows, int64_t cols, int64_t channels,
                          const void* data) {
    const std::size_t element = dtype_size(dtype);
    if (element == 0) throw UsageError("unknown image class " + std::to_string(dtype));
    if (rows < 0 || cols < 0 || channels < 1 || rows > kMaxImageDimension || cols > kMaxImageDimension ||
        channels > kMaxImageDimension)
        throw UsageError("bad image size " + std::to_string(rows) + "x" + std::to_string(cols) +
                         "x" + std::to_string(channels));
    int64_t count = 0, bytes = 0;
    if (__builtin_mul_overflow(rows, cols, &count) || __builtin_mul_overflow(count, channels, &count) ||
        __builtin_mul_overflow(count, static_cast<int64_t>(element), &bytes) ||
        static_cast<uint64_t>(bytes) > std::numeric_limits<std::size_t>::max() / 2)
        throw UsageError("image size " + std::to_string(rows) + "x" + std::to_string(cols) + "x" +
                         std::to_string(channels) + " is too large");
    HostImage image;
    image.dtype = dtype;
    image.rows = rows;
    image.cols = cols;
    image.channels = channels;
    image.bytes.resize(image.numel() * element);
    if (data && !image.bytes.empty()) std::memcpy(image.bytes.data(), data, image.bytes.size());
    return image;
}

void HostImage::check_count(std::size_t have, int64_t want) {
    if (static_cast<int64_t>(have) != want)
        throw UsageError("image data has " + std::to_string(have) + " values, size needs " +
                         std::to_string(want));
}

void HostImage::check_element_size(std::size_t size) const {
    if (size != dtype_size(dtype))
        throw UsageError("element size " + std::to_string(size) + " does not match class " +
                         std::string(dtype_name(dtype)));
}

double value_at(const HostImage& image, std::size_t index) {
    const unsigned char* p = image.bytes.data() + index * dtype_size(image.dtype);
    auto load = [p]<class T>(T) {
        T value;
        std::memcpy(&value, p, sizeof value);
        return static_cast<double>(value);
    };
    switch (image.dtype) {
    case IPT_LOGICAL: return *p ? 1.0 : 0.0;
    case IPT_UINT8: return *p;
    case IPT_UINT16: return load(uint16_t{});
    case IPT_INT16: return load(int16_t{});
    case IPT_INT32: return load(int32_t{});
    case IPT_UINT32: return load(uint32_t{});
    case IPT_SINGLE: return load(float{});
    case IPT_DOUBLE: return load(double{});
    case IPT_DTYPE_MAX_ENUM: break;  // not a class
    }
    return 0.0;
}

std::string describe(const HostImage& image) {
    std::string text = std::string(dtype_name(image.dtype)) + " " + std::to_string(image.rows) +
                       "x" + std::to_string(image.cols);
    if (image.channels != 1) text += "x" + std::to_string(image.channels);
    return text;
}

// ---- files ----------------------------------------------------------------------

namespace {

std::string lower_extension(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = path.substr(dot);
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

std::optional<FileFormat> known_format(const std::string& path) {
    const std::string ext = lower_extension(path);
    if (ext == ".npy") return FileFormat::npy;
    if (ext == ".png") return FileFormat::png;
    if (ext == ".tif" || ext == ".tiff") return FileFormat::tiff;
    if (ext == ".jpg" || ext == ".jpeg") return FileFormat::jpeg;
    return std::nullopt;
}

std::string errno_text(int error) { return std::strerror(error); }

struct Fd {
    int fd = -1;
    explicit Fd(int f) : fd(f) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

std::vector<unsigned char> read_bytes(const std::string& path) {
    uint64_t size = 0;
    const Fd file(open_input_file(path, size));
    if (size > std::numeric_limits<std::size_t>::max() / 2) throw FileError(path + ": file too large");
    std::vector<unsigned char> bytes(static_cast<std::size_t>(size));
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(file.fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw FileError(path + ": read error: " + errno_text(errno));
        if (n == 0) throw FileError(path + ": the file shrank while it was read");
        done += static_cast<std::size_t>(n);
    }
    return bytes;
}

void write_all(int fd, std::span<const unsigned char> bytes, const std::string& name) {
    if (!ipt::files::write_all(fd, bytes.data(), bytes.size()))
        throw FileError(name + ": write error: " + errno_text(errno));
}

} // namespace

int open_input_file(const std::string& path, uint64_t& size) {
    ipt::files::OpenedFile f = ipt::files::open_regular(path);
    if (f.fd < 0) throw FileError(path + ": " + f.problem);
    size = f.size;
    return f.fd;
}

std::vector<unsigned char> read_input_bytes(const std::string& path) { return read_bytes(path); }

FileFormat format_of(const std::string& path) {
    if (const auto format = known_format(path)) return *format;
    throw UsageError(path + ": unknown file type '" + lower_extension(path) +
                     "' (use .npy, .png, .tif, .tiff, .jpg or .jpeg)");
}

namespace {

// Splits "FILE:word:word" into the file and the selector words after it.
// Words after ':' are selectors only when what precedes them names a known
// format, so "a.png:noalpha" selects and "dir:x/a.png" is a path; without a
// known format the whole text is the path (no format, no words).
std::optional<FileFormat> split_selectors(const std::string& text, std::string& head, std::vector<std::string>& words) {
    head = text;
    while (!known_format(head)) {
        const auto colon = head.find_last_of(':');
        if (colon == std::string::npos || words.size() == 4) {
            head = text;
            words.clear();
            return std::nullopt;
        }
        words.push_back(head.substr(colon + 1));
        head.resize(colon);
    }
    return known_format(head);
}

// The whole number of a selector such as "page=12": digits only, at most
// max_digits of them; -1 otherwise.
long selector_number(const std::string& digits, size_t max_digits) {
    bool ok = !digits.empty() && digits.size() <= max_digits;
    for (char c : digits) ok = ok && std::isdigit(static_cast<unsigned char>(c));
    return ok ? std::stol(digits) : -1;
}

}  // namespace

InputSpec parse_input_spec(const std::string& text) {
    InputSpec spec{text, {}};
    std::string head;
    std::vector<std::string> words;
    const std::optional<FileFormat> known = split_selectors(text, head, words);
    if (!known) return spec;
    const FileFormat format = *known;
    for (const std::string& word : words) {
        if (word == "noalpha") {
            if (format == FileFormat::npy || format == FileFormat::jpeg)
                throw UsageError(text + ": ':noalpha' applies to PNG and TIFF files (a " +
                                 (format == FileFormat::npy ? ".npy" : "JPEG") + " holds no alpha)");
            spec.options.drop_alpha = true;
        } else if (word.rfind("page=", 0) == 0) {
            const long page = selector_number(word.substr(5), 9);
            if (page <= 0) throw UsageError(text + ": ':page=N' needs a page number from 1");
            if (format != FileFormat::tiff) throw UsageError(text + ": ':page=N' applies to TIFF files");
            spec.options.page = static_cast<uint32_t>(page);
        } else {
            throw UsageError(text + ": unknown selector ':" + word + "' (use :noalpha or :page=N)");
        }
    }
    spec.path = head;
    return spec;
}

OutputSpec parse_output_spec(const std::string& text) {
    OutputSpec spec{text, {}};
    std::string head;
    std::vector<std::string> words;
    const std::optional<FileFormat> known = split_selectors(text, head, words);
    if (!known) return spec;
    const FileFormat format = *known;
    for (const std::string& word : words) {
        if (word.rfind("quality=", 0) == 0) {
            const long quality = selector_number(word.substr(8), 3);
            if (quality < 0 || quality > 100)
                throw UsageError(text + ": ':quality=N' needs a whole number from 0 to 100");
            if (format != FileFormat::jpeg)
                throw UsageError(text + ": ':quality=N' applies to JPEG files (.jpg, .jpeg)");
            spec.options.quality = static_cast<int>(quality);
        } else {
            throw UsageError(text + ": unknown selector ':" + word + "' (use :quality=N)");
        }
    }
    spec.path = head;
    return spec;
}

HostImage read_image(const std::string& path) { return read_image(path, ReadOptions{}); }

HostImage read_image(const std::string& path, const ReadOptions& options) {
    switch (format_of(path)) {
    case FileFormat::npy: return decode_npy(read_bytes(path), path);
    case FileFormat::png: return read_png(path, options);
    case FileFormat::tiff: return read_tiff(path, options);
    case FileFormat::jpeg: return read_jpeg(path, options);
    }
    throw UsageError(path + ": unknown file type");
}

void write_image(const std::string& path, const HostImage& image) { write_image(path, image, WriteOptions{}); }

void write_image(const std::string& path, const HostImage& image, const WriteOptions& options) {
    OutputFiles files;
    files.write(path, image, options);
    files.commit();
}

HostImage read_png(const std::string& path) { return read_png(path, ReadOptions{}); }
HostImage read_tiff(const std::string& path) { return read_tiff(path, ReadOptions{}); }
HostImage read_jpeg(const std::string& path) { return read_jpeg(path, ReadOptions{}); }

// The named format whatever the extension (demo --out sheet.img still gets a PNG).
void write_png(const std::string& path, const HostImage& image) {
    OutputFiles files;
    files.declare(path, path, false);
    files.write(path, FileFormat::png, image);
    files.commit();
}
void write_tiff(const std::string& path, const HostImage& image) {
    OutputFiles files;
    files.declare(path, path, false);
    files.write(path, FileFormat::tiff, image);
    files.commit();
}

// ---- OutputFiles ------------------------------------------------------------------

OutputFiles::~OutputFiles() {
    for (const Entry& e : entries_)
        if (!e.temp.empty()) ::unlink(e.temp.c_str());
}

void OutputFiles::declare(const std::string& label, const std::string& path, bool image) {
    namespace fs = std::filesystem;
    if (image) format_of(path);
    if (path.empty()) throw UsageError(label + ": empty file name");
    std::error_code ec;
    // Links are followed, also to a file not there yet: the file a link names
    // is the one written, and the link stays.
    fs::path resolved = fs::absolute(path, ec);
    for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(resolved, ec)); ++hops) {
        const fs::path next = fs::read_symlink(resolved, ec);
        if (ec) break;
        resolved = next.is_absolute() ? next : resolved.parent_path() / next;
    }
    fs::path target = fs::weakly_canonical(resolved, ec);
    if (ec || target.empty()) target = resolved.lexically_normal();
    const fs::path folder = target.parent_path();
    if (std::error_code dir_error; !fs::is_directory(folder, dir_error))
        throw FileError(path + ": no folder " + folder.string() + " to write it in");
    for (const Entry& e : entries_) {
        std::error_code eq_error;
        const bool same = e.target == target.string() || fs::equivalent(e.target, target, eq_error);
        if (same)
            throw UsageError(e.label + " and " + label + " name the same file (" + e.path +
                             (e.path == path ? "" : ", " + path) + "); give each output its own file");
    }
    entries_.push_back(Entry{label, path, target.string(), ""});
}

OutputFiles::Entry& OutputFiles::entry_for(const std::string& path, bool image) {
    for (Entry& e : entries_)
        if (e.path == path) return e;
    declare(path, path, image);
    return entries_.back();
}

template <class Fill> void OutputFiles::write_with(Entry& entry, Fill&& fill) {
    if (!entry.temp.empty()) throw FileError(entry.path + ": written twice");
    struct stat existing {};
    const bool exists = ::stat(entry.target.c_str(), &existing) == 0;
    if (exists && !S_ISREG(existing.st_mode))
        throw FileError(entry.path + ": exists and is not a regular file; not replaced");
    std::string temp;
    const int fd = ipt::files::create_beside(entry.target, &temp, 0666);
    if (fd < 0)
        throw FileError(entry.path + ": cannot create a file in " +
                        std::filesystem::path(entry.target).parent_path().string() + ": " + errno_text(errno));
    entry.temp = temp; // removed by the destructor unless committed
    const Fd file(fd);
    // A replaced file keeps its permissions.
    if (exists) ::fchmod(fd, existing.st_mode & 07777);
    fill(fd);
    if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
        throw FileError(entry.path + ": write error: " + errno_text(errno));
}

void OutputFiles::write(const std::string& path, const HostImage& image, const WriteOptions& options) {
    write(path, format_of(path), image, options);
}

void OutputFiles::write(const std::string& path, FileFormat format, const HostImage& image,
                        const WriteOptions& options) {
    Entry& entry = entry_for(path, false);
    // Content checks first, so that an image the format cannot hold leaves no file.
    std::vector<unsigned char> npy;
    if (format == FileFormat::npy) npy = encode_npy(image);
    write_with(entry, [&](int fd) {
        switch (format) {
        case FileFormat::npy: write_all(fd, npy, path); return;
        case FileFormat::png: write_png_to(fd, path, image); return;
        case FileFormat::tiff: write_tiff_to(fd, path, image); return;
        case FileFormat::jpeg: write_jpeg_to(fd, path, image, options); return;
        }
    });
}

void OutputFiles::write_bytes(const std::string& path, std::span<const unsigned char> bytes) {
    write_with(entry_for(path, false), [&](int fd) { write_all(fd, bytes, path); });
}

void OutputFiles::commit() {
    for (Entry& e : entries_) {
        if (e.temp.empty()) continue;
        if (::rename(e.temp.c_str(), e.target.c_str()) != 0)
            throw FileError(e.path + ": cannot move the finished file into place: " + errno_text(errno));
        e.temp.clear();
    }
}

// ---- NPY --------------------------------------------------------------------------
// Format: "\x93NUMPY", major, minor, header length (uint16 LE in 1.0, uint32 LE
// in 2.0/3.0), then a Python dict literal {'descr': '<f8', 'fortran_order':
// False, 'shape': (r, c), } padded with spaces and ended by '\n', then the data.

namespace {

constexpr unsigned char kNpyMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

struct NpyDescr {
    char kind;
    std::size_t size;
    ipt_dtype dtype;
};
// NumPy type codes of OpenIPT's classes; the descr text is <order><kind><size>.
constexpr NpyDescr kNpyTypes[] = {
    {'b', 1, IPT_LOGICAL}, {'u', 1, IPT_UINT8}, {'u', 2, IPT_UINT16}, {'i', 2, IPT_INT16},
    {'i', 4, IPT_INT32},   {'u', 4, IPT_UINT32}, {'f', 4, IPT_SINGLE}, {'f', 8, IPT_DOUBLE},
};

struct NpyHeader {
    ipt_dtype dtype = IPT_DOUBLE;
    bool swap_bytes = false;
    bool fortran_order = false;
    std::vector<int64_t> shape;
};

// Just enough of a Python literal parser for the header dict.
class HeaderParser {
public:
    HeaderParser(std::string_view text, const std::string& name) : text_(text), name_(name) {}

    NpyHeader parse() {
        std::optional<std::string> descr;
        std::optional<bool> fortran;
        std::optional<std::vector<int64_t>> shape;
        expect('{');
        while (!accept('}')) {
            const std::string key = string_literal();
            expect(':');
            if (key == "descr") {
                skip_space();
                if (peek() != '\'' && peek() != '"')
                    fail("structured data types are not supported (descr is not a string)");
                descr = string_literal();
            } else if (key == "fortran_order") {
                fortran = boolean();
            } else if (key == "shape") {
                shape = tuple();
            } else {
                fail("unexpected header key '" + key + "'");
            }
            if (!accept(',')) {
                expect('}');
                break;
            }
        }
        if (!descr || !fortran || !shape) fail("header lacks descr, fortran_order or shape");

        NpyHeader header;
        header.fortran_order = *fortran;
        header.shape = *shape;
        parse_descr(*descr, header);
        return header;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw FileError(name_ + ": not a valid .npy file: " + what);
    }
    void skip_space() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
    bool accept(char c) {
        skip_space();
        if (peek() != c) return false;
        ++pos_;
        return true;
    }
    void expect(char c) {
        if (!accept(c)) fail(std::string("expected '") + c + "' in header");
    }
    std::string string_literal() {
        skip_space();
        const char quote = peek();
        if (quote != '\'' && quote != '"') fail("expected a quoted name in header");
        const auto end = text_.find(quote, pos_ + 1);
        if (end == std::string_view::npos) fail("unterminated string in header");
        std::string value(text_.substr(pos_ + 1, end - pos_ - 1));
        pos_ = end + 1;
        return value;
    }
    bool boolean() {
        skip_space();
        for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
            const std::string_view w(word);
            if (text_.substr(pos_, w.size()) == w) {
                pos_ += w.size();
                return value;
            }
        }
        fail("fortran_order must be True or False");
    }
    std::vector<int64_t> tuple() {
        std::vector<int64_t> dims;
        expect('(');
        while (!accept(')')) {
            skip_space();
            int64_t value = 0;
            bool any = false;
            while (std::isdigit(static_cast<unsigned char>(peek()))) {
                if (__builtin_mul_overflow(value, 10, &value) ||
                    __builtin_add_overflow(value, peek() - '0', &value) || value > kMaxImageDimension)
                    fail("dimension too large (at most " + std::to_string(kMaxImageDimension) + ")");
                ++pos_;
                any = true;
            }
            if (!any) fail("shape must be a tuple of non-negative integers");
            if (peek() == 'L') ++pos_; // written by Python 2
            dims.push_back(value);
            if (dims.size() > 32) fail("more than 32 dimensions"); // NumPy's own limit
            if (!accept(',')) {
                expect(')');
                break;
            }
        }
        return dims;
    }
    // The descr is compared whole against the classes' own spellings, so that
    // no other text (a wrapped size, extra digits) can pass for one of them.
    void parse_descr(const std::string& descr, NpyHeader& header) const {
        for (const auto& t : kNpyTypes) {
            for (const char order : std::string_view("<>=|")) {
                // '|' (no byte order) is NumPy's spelling for 1-byte types only.
                if (order == '|' && t.size > 1) continue;
                if (descr != std::string{order, t.kind} + std::to_string(t.size)) continue;
                const bool file_big = order == '>' || (order == '=' && std::endian::native == std::endian::big);
                header.dtype = t.dtype;
                header.swap_bytes = t.size > 1 && file_big != (std::endian::native == std::endian::big);
                return;
            }
        }
        throw FileError(name_ + ": NumPy data type '" + descr +
                        "' is not an OpenIPT class; use bool, uint8, uint16, int16, int32, "
                        "uint32, float32 or float64 (e.g. a.astype(np.float64))");
    }

    std::string_view text_;
    const std::string& name_;
    std::size_t pos_ = 0;
};

uint32_t read_le(std::span<const unsigned char> bytes, std::size_t at, std::size_t count) {
    uint32_t value = 0;
    for (std::size_t i = 0; i < count; ++i) value |= static_cast<uint32_t>(bytes[at + i]) << (8 * i);
    return value;
}

void copy_element(const unsigned char* from, unsigned char* to, std::size_t size, bool swap) {
    if (swap)
        std::reverse_copy(from, from + size, to);
    else
        std::memcpy(to, from, size);
}

std::string npy_descr(ipt_dtype dtype) {
    for (const auto& t : kNpyTypes) {
        if (t.dtype == dtype) {
            const char order = t.size == 1 ? '|' : '<';
            return std::string{order, t.kind} + std::to_string(t.size);
        }
    }
    throw UsageError("cannot write class " + std::string(dtype_name(dtype)) + " as .npy");
}

} // namespace

HostImage decode_npy(std::span<const unsigned char> file, const std::string& name) {
    if (file.size() < 10 || !std::equal(std::begin(kNpyMagic), std::end(kNpyMagic), file.begin()))
        throw FileError(name + ": not a .npy file (no \\x93NUMPY magic)");
    const unsigned major = file[6];
    std::size_t header_start = 0;
    std::size_t header_length = 0;
    if (major == 1) {
        header_start = 10;
        header_length = read_le(file, 8, 2);
    } else if (major == 2 || major == 3) {
        if (file.size() < 12) throw FileError(name + ": truncated .npy header");
        header_start = 12;
        header_length = read_le(file, 8, 4);
    } else {
        throw FileError(name + ": unsupported .npy format version " + std::to_string(major));
    }
    if (header_length > kMaxNpyHeader)
        throw FileError(name + ": .npy header of " + std::to_string(header_length) + " bytes (at most " +
                        std::to_string(kMaxNpyHeader) + " are read)");
    if (file.size() < header_start + header_length) throw FileError(name + ": truncated .npy header");
    const std::string_view text(reinterpret_cast<const char*>(file.data()) + header_start, header_length);
    const NpyHeader header = HeaderParser(text, name).parse();

    // NumPy shapes map to rows x cols x channels: () is a scalar, (n,) a row
    // vector, (r, c) one channel, (r, c, k) k interleaved channels.
    int64_t rows = 1, cols = 1, channels = 1;
    switch (header.shape.size()) {
    case 0: break;
    case 1: cols = header.shape[0]; break;
    case 2: rows = header.shape[0]; cols = header.shape[1]; break;
    case 3: rows = header.shape[0]; cols = header.shape[1]; channels = header.shape[2]; break;
    default:
        throw FileError(name + ": " + std::to_string(header.shape.size()) +
                         "-D arrays are not images; use (rows, cols) or (rows, cols, channels)");
    }
    if (channels < 1) throw FileError(name + ": an image needs at least one channel");
    const std::size_t element = dtype_size(header.dtype);
    int64_t count = 0, data_bytes = 0;
    if (__builtin_mul_overflow(rows, cols, &count) || __builtin_mul_overflow(count, channels, &count) ||
        __builtin_mul_overflow(count, static_cast<int64_t>(element), &data_bytes))
        throw FileError(name + ": shape too large");
    const std::size_t data_start = header_start + header_length;
    if (static_cast<int64_t>(file.size() - data_start) != data_bytes)
        throw FileError(name + ": shape says " + std::to_string(data_bytes) + " bytes of data, file has " +
                         std::to_string(file.size() - data_start));

    HostImage image = HostImage::make(header.dtype, rows, cols, channels, nullptr);
    const unsigned char* src = file.data() + data_start;
    unsigned char* dst = image.bytes.data();
    if (count == 0) {
        // Nothing to copy, however long the other side is.
    } else if (!header.fortran_order && channels == 1 && !header.swap_bytes) {
        if (data_bytes) std::memcpy(dst, src, static_cast<std::size_t>(data_bytes)); // same layout
    } else {
        // Source element (r, c, k): C order ((r*cols + c)*channels + k),
        // Fortran order (r + c*rows + k*rows*cols); planar destination (k*rows + r)*cols + c.
        for (int64_t k = 0; k < channels; ++k)
            for (int64_t r = 0; r < rows; ++r)
                for (int64_t c = 0; c < cols; ++c) {
                    const int64_t from = header.fortran_order ? r + c * rows + k * rows * cols
                                                              : (r * cols + c) * channels + k;
                    const int64_t to = (k * rows + r) * cols + c;
                    copy_element(src + from * element, dst + to * element, element, header.swap_bytes);
                }
    }
    if (header.dtype == IPT_LOGICAL)
        for (auto& b : image.bytes) b = b != 0; // NumPy bools are 0/1, but be safe
    return image;
}

std::vector<unsigned char> encode_npy(const HostImage& image) {
    std::string shape = "(" + std::to_string(image.rows) + ", " + std::to_string(image.cols);
    if (image.channels != 1) shape += ", " + std::to_string(image.channels);
    shape += ")";
    std::string header = "{'descr': '" + npy_descr(image.dtype) +
                         "', 'fortran_order': False, 'shape': " + shape + ", }";
    // Pad with spaces and end with '\n' so that the data starts on a 64-byte boundary.
    const std::size_t prefix = header.size() + 1 + 10 > 65535 ? 12 : 10;
    const std::size_t total = (prefix + header.size() + 1 + 63) / 64 * 64;
    header.append(total - prefix - header.size() - 1, ' ');
    header += '\n';

    std::vector<unsigned char> out(kNpyMagic, kNpyMagic + 6);
    out.push_back(prefix == 10 ? 1 : 2);
    out.push_back(0);
    for (std::size_t i = 0; i < prefix - 8; ++i) out.push_back(static_cast<unsigned char>(header.size() >> (8 * i)));
    out.insert(out.end(), header.begin(), header.end());

    const std::size_t element = dtype_size(image.dtype);
    const bool swap = element > 1 && std::endian::native == std::endian::big;
    const std::size_t data_start = out.size();
    out.resize(data_start + image.bytes.size());
    if (image.bytes.empty()) {
        // Nothing to lay out, however long the other side is.
    } else if (image.channels == 1 && !swap) {
        std::copy(image.bytes.begin(), image.bytes.end(), out.begin() + static_cast<std::ptrdiff_t>(data_start));
    } else {
        // Planar to interleaved (rows, cols, channels).
        const int64_t rows = image.rows, cols = image.cols, channels = image.channels;
        for (int64_t k = 0; k < channels; ++k)
            for (int64_t r = 0; r < rows; ++r)
                for (int64_t c = 0; c < cols; ++c) {
                    const int64_t from = (k * rows + r) * cols + c;
                    const int64_t to = (r * cols + c) * channels + k;
                    copy_element(image.bytes.data() + from * element, out.data() + data_start + to * element,
                                 element, swap);
                }
    }
    return out;
}

} // namespace ipt::cli
