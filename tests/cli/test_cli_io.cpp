// File IO of the `ipt` program (tools/ipt/image_io): .npy for every class,
// checked against bytes written by hand from the NPY format description, and
// PNG / TIFF round trips plus files built by hand from their specifications.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <unistd.h>

#include "image_io.hpp"
#include "command.hpp"

namespace {

using ipt::cli::HostImage;
using ipt::cli::UsageError;
using Bytes = std::vector<unsigned char>;

// ---- helpers -------------------------------------------------------------------

std::filesystem::path temp_dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    auto dir = std::filesystem::temp_directory_path() /
               ("ipt_cli_io_" + std::to_string(::getpid()) + "_" + info->test_suite_name() + "_" + info->name());
    std::filesystem::create_directories(dir);
    return dir;
}

void write_file(const std::filesystem::path& path, const Bytes& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    ASSERT_TRUE(out.good());
}

Bytes read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

template <class T> Bytes raw(const std::vector<T>& values) {
    Bytes out(values.size() * sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
    return out;
}

// A .npy file exactly as the format description says: magic, version,
// little-endian header length, the dict padded with spaces to a multiple of
// 64 bytes and ended by '\n', then the data.
Bytes npy_by_hand(const std::string& dict, const Bytes& data, int major = 1) {
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

void expect_shape(const HostImage& image, ipt_dtype dtype, int64_t rows, int64_t cols, int64_t channels) {
    EXPECT_EQ(image.dtype, dtype);
    EXPECT_EQ(image.rows, rows);
    EXPECT_EQ(image.cols, cols);
    EXPECT_EQ(image.channels, channels);
}

// Message check for errors: the text the user sees must say what is wrong.
template <class F> std::string error_of(F&& f) {
    try {
        f();
    } catch (const UsageError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no UsageError thrown";
    return "";
}

// ---- NPY: writer and reader agree, for every class and layout -------------------

// Values per class that include the class's extremes (saturation bugs show).
template <class T> std::vector<T> sample_values(std::size_t n) {
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(static_cast<int>(i * 37 % 101) - (std::is_signed_v<T> ? 50 : 0));
    if (n >= 2) {
        v[0] = std::numeric_limits<T>::lowest();
        v[1] = std::numeric_limits<T>::max();
    }
    return v;
}

template <class T> void round_trip_npy(const char* descr) {
    for (int64_t channels : {1, 3}) {
        const int64_t rows = 2, cols = 5;
        const auto values = sample_values<T>(static_cast<std::size_t>(rows * cols * channels));
        const HostImage image = HostImage::from_values(rows, cols, channels, values);
        const Bytes file = ipt::cli::encode_npy(image);

        // The header says what NumPy expects.
        const std::string text(file.begin(), file.end());
        EXPECT_EQ(file[6], 1) << "version 1.0";
        EXPECT_EQ(file[7], 0);
        const std::size_t header_len = file[8] | (file[9] << 8);
        EXPECT_EQ((10 + header_len) % 64, 0u) << "data aligned to 64 bytes";
        EXPECT_EQ(file[10 + header_len - 1], '\n');
        EXPECT_NE(text.find(std::string("'descr': '") + descr + "'"), std::string::npos) << text.substr(0, 80);
        EXPECT_NE(text.find("'fortran_order': False"), std::string::npos);
        EXPECT_NE(text.find(channels == 1 ? "'shape': (2, 5)" : "'shape': (2, 5, 3)"), std::string::npos);
        ASSERT_EQ(file.size(), 10 + header_len + values.size() * sizeof(T));

        // Data is interleaved (rows, cols, channels): element (r, c, k) at (r*cols + c)*channels + k.
        for (int64_t k = 0; k < channels; ++k)
            for (int64_t r = 0; r < rows; ++r)
                for (int64_t c = 0; c < cols; ++c) {
                    T stored;
                    std::memcpy(&stored, &file[10 + header_len + ((r * cols + c) * channels + k) * sizeof(T)], sizeof(T));
                    EXPECT_EQ(stored, values[static_cast<std::size_t>((k * rows + r) * cols + c)]);
                }

        const HostImage back = ipt::cli::decode_npy(file, "round trip");
        expect_shape(back, ipt::dtype_of<T>(), rows, cols, channels);
        EXPECT_EQ(back.values<T>(), values);
    }
}

TEST(Npy, RoundTripUint8) { round_trip_npy<uint8_t>("|u1"); }
TEST(Npy, RoundTripUint16) { round_trip_npy<uint16_t>("<u2"); }
TEST(Npy, RoundTripInt16) { round_trip_npy<int16_t>("<i2"); }
TEST(Npy, RoundTripInt32) { round_trip_npy<int32_t>("<i4"); }
TEST(Npy, RoundTripUint32) { round_trip_npy<uint32_t>("<u4"); }
TEST(Npy, RoundTripSingle) { round_trip_npy<float>("<f4"); }
TEST(Npy, RoundTripDouble) { round_trip_npy<double>("<f8"); }

TEST(Npy, RoundTripLogical) {
    const std::vector<uint8_t> bits = {1, 0, 0, 1, 1, 1};
    const HostImage image = HostImage::make(IPT_LOGICAL, 2, 3, 1, bits.data());
    const Bytes file = ipt::cli::encode_npy(image);
    const std::string text(file.begin(), file.end());
    EXPECT_NE(text.find("'descr': '|b1'"), std::string::npos);
    const HostImage back = ipt::cli::decode_npy(file, "bool");
    expect_shape(back, IPT_LOGICAL, 2, 3, 1);
    EXPECT_EQ(back.values<uint8_t>(), bits);
}

TEST(Npy, RoundTripEmptyAndSpecialValues) {
    const HostImage empty = HostImage::make(IPT_DOUBLE, 0, 4, 1, nullptr);
    const HostImage back = ipt::cli::decode_npy(ipt::cli::encode_npy(empty), "empty");
    expect_shape(back, IPT_DOUBLE, 0, 4, 1);

    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> special = {std::nan(""), inf, -inf, -0.0, 4.9e-324};
    const HostImage s = HostImage::from_values(1, 5, 1, special);
    const auto v = ipt::cli::decode_npy(ipt::cli::encode_npy(s), "special").values<double>();
    EXPECT_TRUE(std::isnan(v[0]));
    EXPECT_EQ(v[1], inf);
    EXPECT_EQ(v[2], -inf);
    EXPECT_TRUE(std::signbit(v[3]));
    EXPECT_EQ(v[4], 4.9e-324);
}

TEST(Npy, FilesThroughReadAndWriteImage) {
    const auto dir = temp_dir();
    const auto values = sample_values<int16_t>(12);
    const HostImage image = HostImage::from_values(2, 2, 3, values);
    ipt::cli::write_image((dir / "x.NPY").string(), image); // extension case does not matter
    const HostImage back = ipt::cli::read_image((dir / "x.NPY").string());
    expect_shape(back, IPT_INT16, 2, 2, 3);
    EXPECT_EQ(back.values<int16_t>(), values);
}

// ---- NPY: files written by hand from the format description ---------------------

TEST(NpyByHand, DoubleCOrder2D) {
    // np.array([[1, 2, 3], [4, 5, 6]], dtype='<f8')
    const Bytes file = npy_by_hand("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
                                   raw(std::vector<double>{1, 2, 3, 4, 5, 6}));
    const HostImage image = ipt::cli::decode_npy(file, "hand");
    expect_shape(image, IPT_DOUBLE, 2, 3, 1);
    EXPECT_EQ(image.values<double>(), (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

TEST(NpyByHand, Int16FortranOrder2D) {
    // The same matrix [[1 2 3]; [4 5 6]] stored column by column.
    const Bytes file = npy_by_hand("{'descr': '<i2', 'fortran_order': True, 'shape': (2, 3), }",
                                   raw(std::vector<int16_t>{1, 4, 2, 5, 3, -6}));
    const HostImage image = ipt::cli::decode_npy(file, "hand");
    expect_shape(image, IPT_INT16, 2, 3, 1);
    EXPECT_EQ(image.values<int16_t>(), (std::vector<int16_t>{1, 2, 3, 4, 5, -6}));
}

TEST(NpyByHand, Uint8Interleaved3D) {
    // A 2x2 RGB image, pixels (r,c) -> (R,G,B) = (10*r + c, 100 + 10*r + c, 200 + 10*r + c).
    Bytes data;
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 2; ++c)
            for (int k = 0; k < 3; ++k) data.push_back(static_cast<unsigned char>(100 * k + 10 * r + c));
    const HostImage image =
        ipt::cli::decode_npy(npy_by_hand("{'descr': '|u1', 'fortran_order': False, 'shape': (2, 2, 3), }", data), "rgb");
    expect_shape(image, IPT_UINT8, 2, 2, 3);
    // Planar: the red plane, then green, then blue.
    EXPECT_EQ(image.values<uint8_t>(), (std::vector<uint8_t>{0, 1, 10, 11, 100, 101, 110, 111, 200, 201, 210, 211}));
}

TEST(NpyByHand, FloatFortranOrder3D) {
    // Fortran order: index (r, c, k) at r + c*rows + k*rows*cols, i.e. already planar but column-major.
    const int rows = 2, cols = 3, channels = 2;
    std::vector<float> data(rows * cols * channels);
    for (int k = 0; k < channels; ++k)
        for (int c = 0; c < cols; ++c)
            for (int r = 0; r < rows; ++r) data[r + c * rows + k * rows * cols] = 100.0f * k + 10.0f * r + c + 0.5f;
    const HostImage image = ipt::cli::decode_npy(
        npy_by_hand("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3, 2), }", raw(data)), "hand");
    expect_shape(image, IPT_SINGLE, rows, cols, channels);
    const auto v = image.values<float>();
    for (int k = 0; k < channels; ++k)
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) EXPECT_EQ(v[(k * rows + r) * cols + c], 100.0f * k + 10.0f * r + c + 0.5f);
}

TEST(NpyByHand, BoolUint32Int32AndUint16) {
    const HostImage b = ipt::cli::decode_npy(
        npy_by_hand("{'descr': '|b1', 'fortran_order': False, 'shape': (1, 4), }", Bytes{1, 0, 1, 1}), "bool");
    expect_shape(b, IPT_LOGICAL, 1, 4, 1);
    EXPECT_EQ(b.values<uint8_t>(), (std::vector<uint8_t>{1, 0, 1, 1}));

    const HostImage u32 = ipt::cli::decode_npy(
        npy_by_hand("{'descr': '<u4', 'fortran_order': False, 'shape': (2, 1), }",
                    Bytes{0xff, 0xff, 0xff, 0xff, 0x01, 0x00, 0x00, 0x00}),
        "u4");
    expect_shape(u32, IPT_UINT32, 2, 1, 1);
    EXPECT_EQ(u32.values<uint32_t>(), (std::vector<uint32_t>{4294967295u, 1u}));

    const HostImage i32 = ipt::cli::decode_npy(
        npy_by_hand("{'descr': '<i4', 'fortran_order': False, 'shape': (1, 1), }", Bytes{0xfe, 0xff, 0xff, 0xff}), "i4");
    EXPECT_EQ(i32.values<int32_t>(), (std::vector<int32_t>{-2}));

    const HostImage u16 = ipt::cli::decode_npy(
        npy_by_hand("{'descr': '<u2', 'fortran_order': False, 'shape': (1, 2), }", Bytes{0x34, 0x12, 0xff, 0xff}), "u2");
    EXPECT_EQ(u16.values<uint16_t>(), (std::vector<uint16_t>{0x1234, 65535}));
}

TEST(NpyByHand, BigEndianIsSwapped) {
    const HostImage image = ipt::cli::decode_npy(
        npy_by_hand("{'descr': '>u2', 'fortran_order': False, 'shape': (1, 2), }", Bytes{0x12, 0x34, 0x00, 0x01}), "be");
    EXPECT_EQ(image.values<uint16_t>(), (std::vector<uint16_t>{0x1234, 1}));
    // 1.0 as a big-endian double: 3f f0 00 .. 00.
    const HostImage d = ipt::cli::decode_npy(
        npy_by_hand("{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", Bytes{0x3f, 0xf0, 0, 0, 0, 0, 0, 0}), "be");
    EXPECT_EQ(d.values<double>(), (std::vector<double>{1.0}));
}

TEST(NpyByHand, OneDimensionalAndScalarShapes) {
    // (n,) is a row vector; () a 1x1; keys in another order and double quotes are valid Python too.
    const HostImage row = ipt::cli::decode_npy(
        npy_by_hand("{\"shape\": (3,), \"fortran_order\": False, \"descr\": \"<f8\"}", raw(std::vector<double>{7, 8, 9})), "1d");
    expect_shape(row, IPT_DOUBLE, 1, 3, 1);
    EXPECT_EQ(row.values<double>(), (std::vector<double>{7, 8, 9}));
    const HostImage scalar = ipt::cli::decode_npy(
        npy_by_hand("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", raw(std::vector<double>{2.5})), "0d");
    expect_shape(scalar, IPT_DOUBLE, 1, 1, 1);
    EXPECT_EQ(scalar.values<double>(), (std::vector<double>{2.5}));
}

TEST(NpyByHand, Version2Header) {
    const HostImage image = ipt::cli::decode_npy(
        npy_by_hand("{'descr': '<i2', 'fortran_order': False, 'shape': (1, 2), }", raw(std::vector<int16_t>{-3, 3}), 2), "v2");
    EXPECT_EQ(image.values<int16_t>(), (std::vector<int16_t>{-3, 3}));
}

TEST(NpyByHand, ErrorsSayWhatIsWrong) {
    EXPECT_NE(error_of([] { ipt::cli::decode_npy(Bytes{'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0}, "z.npy"); }).find("not a .npy"),
              std::string::npos);
    const std::string int64 = error_of([] {
        ipt::cli::decode_npy(npy_by_hand("{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }", Bytes(8)), "i8.npy");
    });
    EXPECT_NE(int64.find("'<i8'"), std::string::npos) << int64;
    EXPECT_NE(int64.find("float64"), std::string::npos) << int64; // lists the classes that work
    const std::string short_data = error_of([] {
        ipt::cli::decode_npy(npy_by_hand("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", Bytes(24)), "s.npy");
    });
    EXPECT_NE(short_data.find("32 bytes"), std::string::npos) << short_data;
    EXPECT_NE(short_data.find("s.npy"), std::string::npos) << short_data;
    const std::string four_d = error_of([] {
        ipt::cli::decode_npy(npy_by_hand("{'descr': '|u1', 'fortran_order': False, 'shape': (1, 1, 1, 1), }", Bytes(1)), "4d");
    });
    EXPECT_NE(four_d.find("4-D"), std::string::npos) << four_d;
    const std::string structured = error_of([] {
        ipt::cli::decode_npy(npy_by_hand("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (1,), }", Bytes(8)), "st");
    });
    EXPECT_NE(structured.find("structured"), std::string::npos) << structured;
    const std::string huge = error_of([] {
        ipt::cli::decode_npy(
            npy_by_hand("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", Bytes()), "big");
    });
    EXPECT_NE(huge.find("too large"), std::string::npos) << huge;
    EXPECT_NE(error_of([] { ipt::cli::read_image("/nonexistent/dir/a.npy"); }).find("/nonexistent/dir/a.npy"),
              std::string::npos);
    EXPECT_NE(error_of([] { ipt::cli::read_image("image.jpg"); }).find("unknown file type"), std::string::npos);
}

// ---- PNG ------------------------------------------------------------------------

#define REQUIRE_PNG() \
    if (!ipt::cli::png_available()) GTEST_SKIP() << "this build has no libpng: .png support is compiled out"
#define REQUIRE_TIFF() \
    if (!ipt::cli::tiff_available()) GTEST_SKIP() << "this build has no libtiff: .tif support is compiled out"

uint32_t crc32(const unsigned char* p, std::size_t n, uint32_t crc = 0) {
    crc = ~crc;
    for (std::size_t i = 0; i < n; ++i) {
        crc ^= p[i];
        for (int b = 0; b < 8; ++b) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

void put_be32(Bytes& out, uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<unsigned char>(v >> s));
}

// A PNG built from the specification: IHDR, one IDAT holding a zlib stream of
// stored (uncompressed) deflate blocks, IEND. `scanlines` already carry the
// filter byte 0 at the start of each row.
Bytes png_by_hand(uint32_t width, uint32_t height, int bit_depth, int color_type, const Bytes& scanlines) {
    Bytes out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    auto chunk = [&](const char* type, const Bytes& data) {
        put_be32(out, static_cast<uint32_t>(data.size()));
        Bytes typed(type, type + 4);
        typed.insert(typed.end(), data.begin(), data.end());
        out.insert(out.end(), typed.begin(), typed.end());
        put_be32(out, crc32(typed.data(), typed.size()));
    };
    Bytes ihdr;
    put_be32(ihdr, width);
    put_be32(ihdr, height);
    ihdr.insert(ihdr.end(), {static_cast<unsigned char>(bit_depth), static_cast<unsigned char>(color_type), 0, 0, 0});
    chunk("IHDR", ihdr);
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

TEST(Png, ReadsHandBuilt16BitGrayAndRgb) {
    REQUIRE_PNG();
    const auto dir = temp_dir();
    // 2x2 16-bit gray, big-endian samples: 0x0102 0xfffe / 0x0000 0x8000.
    write_file(dir / "g16.png", png_by_hand(2, 2, 16, 0, Bytes{0, 0x01, 0x02, 0xff, 0xfe, 0, 0x00, 0x00, 0x80, 0x00}));
    const HostImage g = ipt::cli::read_image((dir / "g16.png").string());
    expect_shape(g, IPT_UINT16, 2, 2, 1);
    EXPECT_EQ(g.values<uint16_t>(), (std::vector<uint16_t>{0x0102, 0xfffe, 0, 0x8000}));

    // 1x2 8-bit RGB: (1,2,3) (4,5,6) becomes planes R=[1 4], G=[2 5], B=[3 6].
    write_file(dir / "rgb.png", png_by_hand(2, 1, 8, 2, Bytes{0, 1, 2, 3, 4, 5, 6}));
    const HostImage rgb = ipt::cli::read_image((dir / "rgb.png").string());
    expect_shape(rgb, IPT_UINT8, 1, 2, 3);
    EXPECT_EQ(rgb.values<uint8_t>(), (std::vector<uint8_t>{1, 4, 2, 5, 3, 6}));

    // 1-bit gray reads as logical, like MATLAB's imread: 10110000 -> 1 0 1 1.
    write_file(dir / "bits.png", png_by_hand(4, 1, 1, 0, Bytes{0, 0xb0}));
    const HostImage bits = ipt::cli::read_image((dir / "bits.png").string());
    expect_shape(bits, IPT_LOGICAL, 1, 4, 1);
    EXPECT_EQ(bits.values<uint8_t>(), (std::vector<uint8_t>{1, 0, 1, 1}));

    // RGBA: alpha is dropped.
    write_file(dir / "rgba.png", png_by_hand(1, 1, 8, 6, Bytes{0, 9, 8, 7, 128}));
    const HostImage rgba = ipt::cli::read_image((dir / "rgba.png").string());
    expect_shape(rgba, IPT_UINT8, 1, 1, 3);
    EXPECT_EQ(rgba.values<uint8_t>(), (std::vector<uint8_t>{9, 8, 7}));
}

template <class T> void png_round_trip(int64_t channels) {
    const auto dir = temp_dir();
    const auto values = sample_values<T>(static_cast<std::size_t>(3 * 5 * channels));
    const HostImage image = HostImage::from_values(3, 5, channels, values);
    const std::string path = (dir / "x.png").string();
    ipt::cli::write_image(path, image);
    const HostImage back = ipt::cli::read_image(path);
    expect_shape(back, ipt::dtype_of<T>(), 3, 5, channels);
    EXPECT_EQ(back.values<T>(), values);
}

TEST(Png, RoundTripUint8GrayAndRgb) {
    REQUIRE_PNG();
    png_round_trip<uint8_t>(1);
    png_round_trip<uint8_t>(3);
}

TEST(Png, RoundTripUint16GrayAndRgb) {
    REQUIRE_PNG();
    png_round_trip<uint16_t>(1);
    png_round_trip<uint16_t>(3);
}

TEST(Png, RoundTripLogicalAsOneBit) {
    REQUIRE_PNG();
    const auto dir = temp_dir();
    // 11 columns: a row spans two bytes of packed bits.
    std::vector<uint8_t> bits(2 * 11);
    for (std::size_t i = 0; i < bits.size(); ++i) bits[i] = (i * 7 % 3) == 0;
    ipt::cli::write_image((dir / "b.png").string(), HostImage::make(IPT_LOGICAL, 2, 11, 1, bits.data()));
    const Bytes file = read_file(dir / "b.png");
    ASSERT_GT(file.size(), 26u);
    EXPECT_EQ(file[24], 1) << "IHDR bit depth 1";
    const HostImage back = ipt::cli::read_image((dir / "b.png").string());
    expect_shape(back, IPT_LOGICAL, 2, 11, 1);
    EXPECT_EQ(back.values<uint8_t>(), bits);
}

TEST(Png, FloatInUnitRangeIsWrittenAsUint8) {
    REQUIRE_PNG();
    const auto dir = temp_dir();
    // im2uint8: round(255 x) half away from zero: 0.5 -> 127.5 -> 128, 0.2 -> 51, 1/510 -> 0.5 -> 1.
    const HostImage image = HostImage::from_values(1, 5, 1, std::vector<double>{0.0, 0.5, 0.2, 1.0 / 510.0, 1.0});
    ipt::cli::write_image((dir / "f.png").string(), image);
    const HostImage back = ipt::cli::read_image((dir / "f.png").string());
    expect_shape(back, IPT_UINT8, 1, 5, 1);
    EXPECT_EQ(back.values<uint8_t>(), (std::vector<uint8_t>{0, 128, 51, 1, 255}));
}

TEST(Png, RefusesWhatItCannotHold) {
    REQUIRE_PNG();
    const auto dir = temp_dir();
    const std::string path = (dir / "bad.png").string();
    const std::string range = error_of([&] {
        ipt::cli::write_image(path, HostImage::from_values(1, 2, 1, std::vector<float>{0.5f, 1.5f}));
    });
    EXPECT_NE(range.find("[0,1]"), std::string::npos) << range;
    const std::string nan = error_of([&] {
        ipt::cli::write_image(path, HostImage::from_values(1, 1, 1, std::vector<double>{std::nan("")}));
    });
    EXPECT_NE(nan.find("[0,1]"), std::string::npos) << nan;
    const std::string int16 = error_of([&] {
        ipt::cli::write_image(path, HostImage::from_values(1, 1, 1, std::vector<int16_t>{1}));
    });
    EXPECT_NE(int16.find("int16"), std::string::npos) << int16;
    EXPECT_NE(error_of([&] { ipt::cli::write_image(path, HostImage::make(IPT_UINT8, 1, 1, 2, nullptr)); }).find("channels"),
              std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(path)) << "nothing written on failure";
    write_file(dir / "junk.png", Bytes{1, 2, 3});
    EXPECT_NE(error_of([&] { ipt::cli::read_image((dir / "junk.png").string()); }).find("not a PNG"), std::string::npos);
}

// ---- TIFF -----------------------------------------------------------------------

void put_le(Bytes& out, uint32_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<unsigned char>(v >> (8 * i)));
}

// A little-endian baseline TIFF with one uncompressed strip, built from the
// TIFF 6.0 specification. RGB files list BitsPerSample once per sample.
Bytes tiff_by_hand(uint32_t width, uint32_t height, uint16_t spp, uint16_t bits, uint16_t format,
                   uint16_t photometric, const Bytes& strip) {
    Bytes out = {'I', 'I', 42, 0};
    const uint32_t strip_offset = 8;
    put_le(out, strip_offset + static_cast<uint32_t>(strip.size()) + (strip.size() % 2), 4); // IFD offset (word aligned)
    out.insert(out.end(), strip.begin(), strip.end());
    if (strip.size() % 2) out.push_back(0);
    const uint32_t ifd_offset = static_cast<uint32_t>(out.size());
    struct Entry {
        uint16_t tag, type;
        uint32_t count, value;
    };
    const uint16_t SHORT = 3, LONG = 4;
    std::vector<Entry> entries = {
        {256, LONG, 1, width}, {257, LONG, 1, height}, {258, SHORT, spp, bits}, {259, SHORT, 1, 1},
        {262, SHORT, 1, photometric}, {273, LONG, 1, strip_offset}, {277, SHORT, 1, spp},
        {278, LONG, 1, height}, {279, LONG, 1, static_cast<uint32_t>(strip.size())}, {339, SHORT, spp, format}};
    // Per-sample SHORT arrays longer than two values do not fit in the entry: store them after the IFD.
    const uint32_t extra = ifd_offset + 2 + 12 * static_cast<uint32_t>(entries.size()) + 4;
    Bytes arrays;
    put_le(out, static_cast<uint32_t>(entries.size()), 2);
    for (const auto& e : entries) {
        put_le(out, e.tag, 2);
        put_le(out, e.type, 2);
        put_le(out, e.count, 4);
        if (e.type == SHORT && e.count > 2) {
            put_le(out, extra + static_cast<uint32_t>(arrays.size()), 4);
            for (uint32_t i = 0; i < e.count; ++i) put_le(arrays, e.value, 2);
        } else if (e.type == SHORT && e.count == 2) {
            put_le(out, e.value, 2);
            put_le(out, e.value, 2);
        } else if (e.type == SHORT) {
            put_le(out, e.value, 2);
            put_le(out, 0, 2);
        } else {
            put_le(out, e.value, 4);
        }
    }
    put_le(out, 0, 4); // no next IFD
    out.insert(out.end(), arrays.begin(), arrays.end());
    return out;
}

TEST(Tiff, ReadsHandBuiltFiles) {
    REQUIRE_TIFF();
    const auto dir = temp_dir();
    // 2x2 16-bit unsigned gray, little-endian.
    write_file(dir / "g16.tif", tiff_by_hand(2, 2, 1, 16, 1, 1, Bytes{0x02, 0x01, 0xfe, 0xff, 0, 0, 0, 0x80}));
    const HostImage g = ipt::cli::read_image((dir / "g16.tif").string());
    expect_shape(g, IPT_UINT16, 2, 2, 1);
    EXPECT_EQ(g.values<uint16_t>(), (std::vector<uint16_t>{0x0102, 0xfffe, 0, 0x8000}));

    // 1x2 8-bit RGB, interleaved in the file.
    write_file(dir / "rgb.tif", tiff_by_hand(2, 1, 3, 8, 1, 2, Bytes{1, 2, 3, 4, 5, 6}));
    const HostImage rgb = ipt::cli::read_image((dir / "rgb.tif").string());
    expect_shape(rgb, IPT_UINT8, 1, 2, 3);
    EXPECT_EQ(rgb.values<uint8_t>(), (std::vector<uint8_t>{1, 4, 2, 5, 3, 6}));

    // 1x2 IEEE single: 1.5 and -2.
    write_file(dir / "f.tif", tiff_by_hand(2, 1, 1, 32, 3, 1, raw(std::vector<float>{1.5f, -2.0f})));
    const HostImage f = ipt::cli::read_image((dir / "f.tif").string());
    expect_shape(f, IPT_SINGLE, 1, 2, 1);
    EXPECT_EQ(f.values<float>(), (std::vector<float>{1.5f, -2.0f}));

    // 1-bit min-is-black, 10 columns: 1011 0000 01|00 0000 (rows are padded to bytes).
    write_file(dir / "bits.tif", tiff_by_hand(10, 1, 1, 1, 1, 1, Bytes{0xb0, 0x40}));
    const HostImage bits = ipt::cli::read_image((dir / "bits.tif").string());
    expect_shape(bits, IPT_LOGICAL, 1, 10, 1);
    EXPECT_EQ(bits.values<uint8_t>(), (std::vector<uint8_t>{1, 0, 1, 1, 0, 0, 0, 0, 0, 1}));
    // Min-is-white: the same bits mean the opposite.
    write_file(dir / "white.tif", tiff_by_hand(4, 1, 1, 1, 1, 0, Bytes{0xb0}));
    EXPECT_EQ(ipt::cli::read_image((dir / "white.tif").string()).values<uint8_t>(), (std::vector<uint8_t>{0, 1, 0, 0}));
}

template <class T> void tiff_round_trip(int64_t channels) {
    const auto dir = temp_dir();
    const auto values = sample_values<T>(static_cast<std::size_t>(3 * 5 * channels));
    const HostImage image = HostImage::from_values(3, 5, channels, values);
    const std::string path = (dir / "x.tiff").string();
    ipt::cli::write_image(path, image);
    const HostImage back = ipt::cli::read_image(path);
    expect_shape(back, ipt::dtype_of<T>(), 3, 5, channels);
    EXPECT_EQ(back.values<T>(), values);
}

TEST(Tiff, RoundTripEveryClassGrayAndRgb) {
    REQUIRE_TIFF();
    for (int64_t channels : {1, 3}) {
        SCOPED_TRACE("channels " + std::to_string(channels));
        tiff_round_trip<uint8_t>(channels);
        tiff_round_trip<uint16_t>(channels);
        tiff_round_trip<int16_t>(channels);
        tiff_round_trip<int32_t>(channels);
        tiff_round_trip<uint32_t>(channels);
        tiff_round_trip<float>(channels);
        tiff_round_trip<double>(channels);
    }
}

TEST(Tiff, RoundTripLogicalAsOneBit) {
    REQUIRE_TIFF();
    const auto dir = temp_dir();
    std::vector<uint8_t> bits(3 * 11);
    for (std::size_t i = 0; i < bits.size(); ++i) bits[i] = (i * 5 % 7) < 3;
    ipt::cli::write_image((dir / "b.tif").string(), HostImage::make(IPT_LOGICAL, 3, 11, 1, bits.data()));
    const HostImage back = ipt::cli::read_image((dir / "b.tif").string());
    expect_shape(back, IPT_LOGICAL, 3, 11, 1);
    EXPECT_EQ(back.values<uint8_t>(), bits);
}

TEST(Tiff, RefusesWhatItCannotRead) {
    REQUIRE_TIFF();
    const auto dir = temp_dir();
    // 8-bit signed samples are no OpenIPT class.
    write_file(dir / "s8.tif", tiff_by_hand(1, 1, 1, 8, 2, 1, Bytes{0x80}));
    const std::string s8 = error_of([&] { ipt::cli::read_image((dir / "s8.tif").string()); });
    EXPECT_NE(s8.find("8-bit"), std::string::npos) << s8;
    write_file(dir / "junk.tif", Bytes{1, 2, 3, 4});
    EXPECT_NE(error_of([&] { ipt::cli::read_image((dir / "junk.tif").string()); }).find("junk.tif"), std::string::npos);
}

} // namespace
