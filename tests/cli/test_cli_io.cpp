// SPDX-License-Identifier: Apache-2.0
// File IO of the `ipt` program (tools/ipt/image_io): .npy for every class,
// checked against bytes written by hand from the NPY format description, and
// PNG / TIFF round trips plus files built by hand from their specifications.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "command.hpp"
#include "crafted_files.hpp"
#include "image_io.hpp"

namespace {

using ipt::cli::HostImage;
using ipt::cli::UsageError;
using Bytes = std::vector<unsigned char>;
using crafted::npy_by_hand;
using crafted::png_by_hand;
using crafted::read_file;
using crafted::tiff_by_hand;
using crafted::write_file;

// ---- helpers -------------------------------------------------------------------

std::filesystem::path temp_dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    auto dir = std::filesystem::temp_directory_path() /
               ("ipt_cli_io_" + std::to_string(::getpid()) + "_" + info->test_suite_name() + "_" + info->name());
    std::filesystem::create_directories(dir);
    return dir;
}

template <class T> Bytes raw(const std::vector<T>& values) {
    Bytes out(values.size() * sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
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
    EXPECT_NE(error_of([] { ipt::cli::read_image("image.gif"); }).find("unknown file type"), std::string::npos);
}

// ---- PNG ------------------------------------------------------------------------

#define REQUIRE_PNG() \
    if (!ipt::cli::png_available()) GTEST_SKIP() << "this build has no libpng: .png support is compiled out"
#define REQUIRE_TIFF() \
    if (!ipt::cli::tiff_available()) GTEST_SKIP() << "this build has no libtiff: .tif support is compiled out"

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

    // RGBA with the alpha plane dropped on request (MATLAB's imread returns the color planes).
    write_file(dir / "rgba.png", png_by_hand(1, 1, 8, 6, Bytes{0, 9, 8, 7, 128}));
    ipt::cli::ReadOptions drop;
    drop.drop_alpha = true;
    const HostImage rgba = ipt::cli::read_image((dir / "rgba.png").string(), drop);
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

// ---- NPY: the header is read strictly ---------------------------------------------

std::string npy_error(const std::string& descr, const std::string& shape, const Bytes& data) {
    return error_of([&] {
        ipt::cli::decode_npy(npy_by_hand("{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }", data),
                             "crafted.npy");
    });
}

TEST(NpyStrict, DescrMustBeOneOfTheClassesExactly) {
    const Bytes eight(8);
    // 18446744073709551624 = 2^64 + 8: a size parsed with wrap-around reads as float64.
    for (const char* descr : {"<f18446744073709551624", "<f08", "<f8 ", " <f8", "|f8", "<f", "f8", "<f16", "<c16", "<i8",
                              "<b8", "<U8", "<u1<f8", "<f+8"}) {
        SCOPED_TRACE(descr);
        const std::string message = npy_error(descr, "(1,)", eight);
        EXPECT_NE(message.find("crafted.npy"), std::string::npos) << message;
        EXPECT_NE(message.find(std::string("'") + descr + "'"), std::string::npos) << message;
    }
    // NumPy's own spellings still read: byte orders, and '<'/'|' alike for one byte.
    const double one = 1.0;
    Bytes le(8), be(8);
    std::memcpy(le.data(), &one, 8);
    std::reverse_copy(le.begin(), le.end(), be.begin());
    for (const char* descr : {"<f8", "=f8"})
        EXPECT_EQ(ipt::cli::decode_npy(npy_by_hand(std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (1,), }", le), "x")
                      .values<double>(),
                  std::vector<double>{1.0});
    EXPECT_EQ(ipt::cli::decode_npy(npy_by_hand("{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", be), "x")
                  .values<double>(),
              std::vector<double>{1.0});
    for (const char* descr : {"|u1", "<u1"})
        EXPECT_EQ(ipt::cli::decode_npy(npy_by_hand(std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (1,), }", Bytes{7}), "x")
                      .values<uint8_t>(),
                  std::vector<uint8_t>{7});
}

TEST(NpyStrict, SizesAreCheckedBeforeAnythingIsAllocated) {
    // 10^8 x 10^8 doubles (8 * 10^16 bytes) in a file with no data.
    const std::string huge = npy_error("<f8", "(100000000, 100000000)", Bytes());
    EXPECT_NE(huge.find("80000000000000000 bytes"), std::string::npos) << huge;
    EXPECT_NE(huge.find("crafted.npy"), std::string::npos) << huge;
    // A side beyond IPT_IMAGE_MAX_DIM (2^31 - 1), even of an empty array.
    EXPECT_NE(npy_error("<f8", "(2147483648, 0)", Bytes()).find("dimension too large"), std::string::npos);
    EXPECT_NE(npy_error("<f8", "(0, 99999999999999999999999)", Bytes()).find("dimension too large"), std::string::npos);
    // Sides in bounds whose product overflows 64 bits.
    EXPECT_NE(npy_error("<f8", "(2147483647, 2147483647, 2147483647)", Bytes()).find("too large"), std::string::npos);
    // A long side of an empty array is read at once (no loop over it).
    const HostImage empty = ipt::cli::decode_npy(
        npy_by_hand("{'descr': '>f8', 'fortran_order': True, 'shape': (2147483647, 0, 3), }", Bytes()), "empty");
    expect_shape(empty, IPT_DOUBLE, 2147483647, 0, 3);
    // A header longer than any NumPy writes.
    const std::string long_header = error_of([] {
        ipt::cli::decode_npy(npy_by_hand("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }" + std::string(70000, ' '),
                                         Bytes(8), 2),
                             "long.npy");
    });
    EXPECT_NE(long_header.find("long.npy: .npy header of"), std::string::npos) << long_header;
    // A header length pointing past the end of the file.
    Bytes cut = npy_by_hand("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", Bytes(8), 2);
    cut[8] = 0xff, cut[9] = 0xff, cut[10] = 0, cut[11] = 0;
    EXPECT_NE(error_of([&] { ipt::cli::decode_npy(cut, "cut.npy"); }).find("truncated"), std::string::npos);
}

// ---- input files and selectors ------------------------------------------------------

TEST(InputFiles, OnlyRegularFilesAreRead) {
    const auto dir = temp_dir();
    // A FIFO would block until a writer came; it is refused at once.
    ASSERT_EQ(::mkfifo((dir / "pipe.npy").c_str(), 0600), 0);
    const std::string fifo = error_of([&] { ipt::cli::read_image((dir / "pipe.npy").string()); });
    EXPECT_NE(fifo.find("pipe.npy: the file is a FIFO, not a regular file"), std::string::npos) << fifo;
    std::filesystem::create_directory(dir / "folder.png");
    EXPECT_NE(error_of([&] { ipt::cli::read_image((dir / "folder.png").string()); }).find("not a regular file"),
              std::string::npos);
}

TEST(InputFiles, SelectorsFollowTheFileName) {
    using ipt::cli::parse_input_spec;
    EXPECT_EQ(parse_input_spec("a.png").path, "a.png");
    EXPECT_FALSE(parse_input_spec("a.png").options.drop_alpha);
    EXPECT_EQ(parse_input_spec("a.png:noalpha").path, "a.png");
    EXPECT_TRUE(parse_input_spec("a.png:noalpha").options.drop_alpha);
    const auto both = parse_input_spec("dir:x/s.TIF:page=12:noalpha");
    EXPECT_EQ(both.path, "dir:x/s.TIF");
    EXPECT_EQ(both.options.page, 12u);
    EXPECT_TRUE(both.options.drop_alpha);
    EXPECT_EQ(parse_input_spec("dir:x/a.npy").path, "dir:x/a.npy");
    EXPECT_NE(error_of([] { parse_input_spec("a.npy:noalpha"); }).find("PNG and TIFF"), std::string::npos);
    EXPECT_NE(error_of([] { parse_input_spec("a.png:page=2"); }).find("TIFF"), std::string::npos);
    EXPECT_NE(error_of([] { parse_input_spec("a.tif:page=0"); }).find("page number"), std::string::npos);
    EXPECT_NE(error_of([] { parse_input_spec("a.tif:page=99999999999"); }).find("page number"), std::string::npos);
    EXPECT_NE(error_of([] { parse_input_spec("a.png:rgb"); }).find("unknown selector ':rgb'"), std::string::npos);
}

// ---- outputs: all or nothing ----------------------------------------------------------

std::vector<std::string> names_in(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

TEST(OutputFiles, TwoNamesForOneFileAreRefused) {
    const auto dir = temp_dir();
    write_file(dir / "t.npy", Bytes{1});
    std::filesystem::create_symlink(dir / "t.npy", dir / "link.npy");
    std::filesystem::create_hard_link(dir / "t.npy", dir / "hard.npy");
    for (const auto& other : {dir / "." / "t.npy", dir / "nothere" / ".." / "t.npy", dir / "link.npy", dir / "hard.npy"}) {
        SCOPED_TRACE(other.string());
        ipt::cli::OutputFiles files;
        files.declare("--out D", (dir / "t.npy").string());
        const std::string message = error_of([&] { files.declare("--out IDX", other.string()); });
        EXPECT_NE(message.find("--out D and --out IDX name the same file"), std::string::npos) << message;
    }
    ipt::cli::OutputFiles distinct;
    distinct.declare("--out D", (dir / "t.npy").string());
    distinct.declare("--out IDX", (dir / "u.npy").string()); // no throw
}

TEST(OutputFiles, NothingIsRenamedWhenAWriteFails) {
    const auto dir = temp_dir();
    write_file(dir / "d.npy", Bytes{'k', 'e', 'e', 'p'});
    {
        ipt::cli::OutputFiles files;
        files.declare("--out D", (dir / "d.npy").string());
        files.declare("--out E", (dir / "e.npy").string());
        files.declare("--out IDX", (dir / "idx.png").string());
        files.write((dir / "d.npy").string(), HostImage::from_values(1, 1, 1, std::vector<double>{2.0}));
        files.write((dir / "e.npy").string(), HostImage::from_values(1, 1, 1, std::vector<double>{3.0}));
        // PNG holds no uint32 image.
        EXPECT_THROW(files.write((dir / "idx.png").string(), HostImage::from_values(1, 1, 1, std::vector<uint32_t>{1})),
                     ipt::cli::FileError);
    }
    EXPECT_EQ(read_file(dir / "d.npy"), (Bytes{'k', 'e', 'e', 'p'})) << "an existing destination is untouched";
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"d.npy"}) << "no output and no temporary is left";
}

TEST(OutputFiles, CommitReplacesKeepingPermissionsAndLinks) {
    const auto dir = temp_dir();
    write_file(dir / "x.npy", Bytes{'o', 'l', 'd'});
    std::filesystem::permissions(dir / "x.npy", std::filesystem::perms(0640));
    const HostImage image = HostImage::from_values(1, 2, 1, std::vector<int16_t>{-1, 5});
    ipt::cli::write_image((dir / "x.npy").string(), image);
    EXPECT_EQ(ipt::cli::read_image((dir / "x.npy").string()).values<int16_t>(), (std::vector<int16_t>{-1, 5}));
    EXPECT_EQ(std::filesystem::status(dir / "x.npy").permissions(), std::filesystem::perms(0640));
    // A link is written through: the file it names gets the image, the link stays.
    std::filesystem::create_directory(dir / "real");
    std::filesystem::create_symlink(dir / "real" / "y.npy", dir / "y.npy");
    ipt::cli::write_image((dir / "y.npy").string(), image);
    EXPECT_TRUE(std::filesystem::is_symlink(dir / "y.npy"));
    EXPECT_EQ(ipt::cli::read_image((dir / "real" / "y.npy").string()).values<int16_t>(), (std::vector<int16_t>{-1, 5}));
    EXPECT_EQ(names_in(dir), (std::vector<std::string>{"real", "x.npy", "y.npy"}));
    EXPECT_EQ(names_in(dir / "real"), std::vector<std::string>{"y.npy"});
}

TEST(OutputFiles, RefusesFoldersAndMissingFolders) {
    const auto dir = temp_dir();
    const HostImage image = HostImage::from_values(1, 1, 1, std::vector<double>{1.0});
    const std::string missing = error_of([&] { ipt::cli::write_image((dir / "nothere" / "a.npy").string(), image); });
    EXPECT_NE(missing.find("nothere"), std::string::npos) << missing;
    std::filesystem::create_directory(dir / "folder.npy");
    const std::string folder = error_of([&] { ipt::cli::write_image((dir / "folder.npy").string(), image); });
    EXPECT_NE(folder.find("not a regular file"), std::string::npos) << folder;
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"folder.npy"});
}

// ---- PNG: what the CLI cannot represent is refused, sizes checked first -------------------

TEST(PngFaithful, AlphaIsRefusedUnlessDropped) {
    REQUIRE_PNG();
    const auto dir = temp_dir();
    ipt::cli::ReadOptions drop;
    drop.drop_alpha = true;
    struct Case {
        const char* file;
        Bytes png;
        int64_t channels;
        std::vector<uint8_t> planes;
    };
    const Bytes palette = {255, 0, 0, 0, 255, 0, 0, 0, 255};
    const std::vector<Case> cases = {
        {"rgba.png", png_by_hand(2, 1, 8, 6, Bytes{0, 1, 2, 3, 255, 4, 5, 6, 0}), 3, {1, 4, 2, 5, 3, 6}},
        {"gray_alpha.png", png_by_hand(2, 1, 8, 4, Bytes{0, 10, 255, 20, 0}), 1, {10, 20}},
        {"rgb_trns.png", png_by_hand(1, 1, 8, 2, Bytes{0, 7, 8, 9}, {{"tRNS", Bytes{0, 7, 0, 8, 0, 9}}}), 3, {7, 8, 9}},
        {"palette_trns.png",
         png_by_hand(3, 1, 8, 3, Bytes{0, 2, 1, 0}, {{"PLTE", palette}, {"tRNS", Bytes{0}}}), 3,
         {0, 0, 255, 0, 255, 0, 255, 0, 0}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.file);
        write_file(dir / c.file, c.png);
        const std::string message = error_of([&] { ipt::cli::read_image((dir / c.file).string()); });
        EXPECT_NE(message.find(c.file), std::string::npos) << message;
        EXPECT_NE(message.find("alpha"), std::string::npos) << message;
        EXPECT_NE(message.find(":noalpha"), std::string::npos) << message;
        const HostImage image = ipt::cli::read_image((dir / c.file).string(), drop);
        expect_shape(image, IPT_UINT8, 1, static_cast<int64_t>(c.planes.size()) / c.channels, c.channels);
        EXPECT_EQ(image.values<uint8_t>(), c.planes);
    }
}

TEST(PngFaithful, PaletteExpandsToRgb) {
    REQUIRE_PNG();
    const auto dir = temp_dir();
    // Indices 2 1 0 into red, green, blue: planes R = [0 0 255], G = [0 255 0], B = [255 0 0].
    write_file(dir / "p.png", png_by_hand(3, 1, 8, 3, Bytes{0, 2, 1, 0}, {{"PLTE", Bytes{255, 0, 0, 0, 255, 0, 0, 0, 255}}}));
    const HostImage image = ipt::cli::read_image((dir / "p.png").string());
    expect_shape(image, IPT_UINT8, 1, 3, 3);
    EXPECT_EQ(image.values<uint8_t>(), (std::vector<uint8_t>{0, 0, 255, 0, 255, 0, 255, 0, 0}));
}

TEST(PngFaithful, DeclaredSizeIsCheckedAgainstTheFile) {
    REQUIRE_PNG();
    const auto dir = temp_dir();
    // 65535 x 65535 gray (4 GiB of rows) declared by a file of one short row.
    write_file(dir / "huge.png", png_by_hand(65535, 65535, 8, 0, Bytes{0, 1, 2, 3}));
    const std::string message = error_of([&] { ipt::cli::read_image((dir / "huge.png").string()); });
    EXPECT_NE(message.find("huge.png: declares 65535x65535"), std::string::npos) << message;
    // A sound file just inside the bound is still read up to its real damage.
    write_file(dir / "short.png", png_by_hand(4, 2, 8, 0, Bytes{0, 1, 2, 3, 4}));
    EXPECT_NE(error_of([&] { ipt::cli::read_image((dir / "short.png").string()); }).find("short.png: bad PNG"),
              std::string::npos);
}

// ---- TIFF: pages, extra samples and sizes ------------------------------------------------

TEST(TiffFaithful, DeclaredSizeIsCheckedBeforeAllocating) {
    REQUIRE_TIFF();
    const auto dir = temp_dir();
    crafted::TiffPage page;
    page.width = page.height = 65535;
    page.strip = Bytes(100, 7);
    write_file(dir / "huge.tif", crafted::tiff_file({page}));
    // libtiff cuts one large uncompressed strip into row strips; the first already lies past the end.
    const std::string plain = error_of([&] { ipt::cli::read_image((dir / "huge.tif").string()); });
    EXPECT_NE(plain.find("huge.tif: "), std::string::npos) << plain;
    EXPECT_NE(plain.find("the file is truncated or damaged"), std::string::npos) << plain;
    page.compression = 8; // deflate: at most about 1032 bytes out of each byte in
    write_file(dir / "deflate.tif", crafted::tiff_file({page}));
    const std::string deflate = error_of([&] { ipt::cli::read_image((dir / "deflate.tif").string()); });
    EXPECT_NE(deflate.find("deflate.tif: declares 65535x65535 pixels (4294836225 bytes of samples) but its strips "
                           "hold 100 bytes, more than its compression can expand"),
              std::string::npos)
        << deflate;
    // A strip that claims bytes past the end of the file.
    crafted::TiffPage outside;
    outside.width = 4;
    outside.strip = Bytes{1, 2, 3, 4};
    outside.strip_offset = 100000;
    write_file(dir / "outside.tif", crafted::tiff_file({outside}));
    const std::string past = error_of([&] { ipt::cli::read_image((dir / "outside.tif").string()); });
    EXPECT_NE(past.find("outside.tif"), std::string::npos) << past;
    EXPECT_NE(past.find("outside the file"), std::string::npos) << past;
}

TEST(TiffFaithful, MultiPageIsRefusedUnlessAPageIsNamed) {
    REQUIRE_TIFF();
    const auto dir = temp_dir();
    crafted::TiffPage first, second;
    first.width = second.width = 2;
    first.strip = Bytes{1, 2};
    second.strip = Bytes{3, 4};
    write_file(dir / "two.tif", crafted::tiff_file({first, second}));
    const std::string message = error_of([&] { ipt::cli::read_image((dir / "two.tif").string()); });
    EXPECT_NE(message.find("two.tif: holds 2 pages"), std::string::npos) << message;
    EXPECT_NE(message.find(":page=1"), std::string::npos) << message;
    ipt::cli::ReadOptions options;
    options.page = 1;
    EXPECT_EQ(ipt::cli::read_image((dir / "two.tif").string(), options).values<uint8_t>(), (std::vector<uint8_t>{1, 2}));
    options.page = 2;
    EXPECT_EQ(ipt::cli::read_image((dir / "two.tif").string(), options).values<uint8_t>(), (std::vector<uint8_t>{3, 4}));
    options.page = 3;
    EXPECT_NE(error_of([&] { ipt::cli::read_image((dir / "two.tif").string(), options); }).find("has 2 pages, no page 3"),
              std::string::npos);
}

TEST(TiffFaithful, ExtraSamplesAreRefusedUnlessDropped) {
    REQUIRE_TIFF();
    const auto dir = temp_dir();
    crafted::TiffPage rgba;
    rgba.width = 2;
    rgba.spp = 4;
    rgba.photometric = 2;
    rgba.extra_samples = 1;
    rgba.strip = Bytes{1, 2, 3, 255, 4, 5, 6, 0};
    write_file(dir / "rgba.tif", crafted::tiff_file({rgba}));
    const std::string message = error_of([&] { ipt::cli::read_image((dir / "rgba.tif").string()); });
    EXPECT_NE(message.find("rgba.tif: has 1 extra sample(s)"), std::string::npos) << message;
    EXPECT_NE(message.find(":noalpha"), std::string::npos) << message;
    ipt::cli::ReadOptions drop;
    drop.drop_alpha = true;
    const HostImage rgb = ipt::cli::read_image((dir / "rgba.tif").string(), drop);
    expect_shape(rgb, IPT_UINT8, 1, 2, 3);
    EXPECT_EQ(rgb.values<uint8_t>(), (std::vector<uint8_t>{1, 4, 2, 5, 3, 6}));
}

} // namespace
