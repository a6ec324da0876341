// SPDX-License-Identifier: Apache-2.0
// JPEG files of the `ipt` program (tools/ipt/image_jpeg.cpp): files encoded
// here with libjpeg itself and decoded by the reader, the writer read back
// (within a tolerance: JPEG is lossy), and damaged or hostile files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include <jpeglib.h>

#include "command.hpp"
#include "crafted_files.hpp"
#include "image_io.hpp"

namespace {

using ipt::cli::HostImage;
using ipt::cli::UsageError;
using Bytes = std::vector<unsigned char>;
using crafted::read_file;
using crafted::write_file;

#define REQUIRE_JPEG() \
    if (!ipt::cli::jpeg_available()) GTEST_SKIP() << "this build has no libjpeg: .jpg support is compiled out"

std::filesystem::path temp_dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    auto dir = std::filesystem::temp_directory_path() /
               ("ipt_cli_jpeg_" + std::to_string(::getpid()) + "_" + info->test_suite_name() + "_" + info->name());
    std::filesystem::create_directories(dir);
    return dir;
}

template <class F> std::string error_of(F&& f) {
    try {
        f();
    } catch (const UsageError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no UsageError thrown";
    return "";
}

// ---- an independent encoder: libjpeg called directly ----------------------------

struct Encoding {
    int quality = 100;
    J_COLOR_SPACE in = JCS_GRAYSCALE; // what the samples are
    J_COLOR_SPACE file = JCS_UNKNOWN; // what the file stores; JCS_UNKNOWN: libjpeg's default
    int components = 1;
    bool full_chroma = false; // 1x1 sampling on every component
    bool progressive = false;
    bool arithmetic = false;
};

// Encodes interleaved samples (rows x cols x components) to JPEG bytes.
Bytes encode(int rows, int cols, const std::vector<unsigned char>& interleaved, const Encoding& e) {
    jpeg_compress_struct cinfo{};
    jpeg_error_mgr err{};
    cinfo.err = jpeg_std_error(&err);
    jpeg_create_compress(&cinfo);
    unsigned char* buffer = nullptr;
    unsigned long size = 0;
    jpeg_mem_dest(&cinfo, &buffer, &size);
    cinfo.image_width = static_cast<JDIMENSION>(cols);
    cinfo.image_height = static_cast<JDIMENSION>(rows);
    cinfo.input_components = e.components;
    cinfo.in_color_space = e.in;
    jpeg_set_defaults(&cinfo);
    if (e.file != JCS_UNKNOWN) jpeg_set_colorspace(&cinfo, e.file);
    if (e.full_chroma)
        for (int k = 0; k < cinfo.num_components; ++k) cinfo.comp_info[k].h_samp_factor = cinfo.comp_info[k].v_samp_factor = 1;
    jpeg_set_quality(&cinfo, e.quality, TRUE);
    if (e.progressive) jpeg_simple_progression(&cinfo);
    cinfo.arith_code = e.arithmetic ? TRUE : FALSE;
    jpeg_start_compress(&cinfo, TRUE);
    const std::size_t stride = static_cast<std::size_t>(cols * e.components);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = const_cast<unsigned char*>(&interleaved[cinfo.next_scanline * stride]);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    Bytes out(buffer, buffer + size);
    std::free(buffer);
    return out;
}

// Where the frame header's height sits: SOFn, length (2), precision (1), height (2), width (2).
std::size_t sof_offset(const Bytes& file) {
    for (std::size_t i = 2; i + 9 < file.size(); ++i)
        if (file[i] == 0xFF && (file[i + 1] == 0xC0 || file[i + 1] == 0xC1 || file[i + 1] == 0xC2)) return i;
    ADD_FAILURE() << "no SOF marker";
    return 0;
}

std::vector<unsigned char> gradient(int rows, int cols, int components) {
    // Smooth, so that JPEG keeps it closely; each component its own slope
    // (at most 30 + 31*3 + 39*3 = 240 for the sizes below).
    std::vector<unsigned char> v(static_cast<std::size_t>(rows * cols * components));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            for (int k = 0; k < components; ++k)
                v[static_cast<std::size_t>((r * cols + c) * components + k)] =
                    static_cast<unsigned char>(30 + r * (k + 1) + c * (3 - k));
    return v;
}

// Interleaved (rows, cols, components) to OpenIPT's planes.
std::vector<uint8_t> planar(int rows, int cols, int components, const std::vector<unsigned char>& interleaved) {
    std::vector<uint8_t> out(interleaved.size());
    for (int k = 0; k < components; ++k)
        for (int p = 0; p < rows * cols; ++p) out[static_cast<std::size_t>(k * rows * cols + p)] = interleaved[static_cast<std::size_t>(p * components + k)];
    return out;
}

int max_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
    EXPECT_EQ(a.size(), b.size());
    int worst = 0;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
    return worst;
}

// ---- reading what libjpeg wrote ----------------------------------------------------

// An 8x8 block of one value has only a DC coefficient; at quality 100 (every
// quantizer 1) it decodes to that value exactly.
TEST(Jpeg, ConstantGrayDecodesToItsValue) {
    REQUIRE_JPEG();
    const auto dir = temp_dir();
    for (const int value : {0, 1, 77, 128, 200, 255}) {
        SCOPED_TRACE(value);
        write_file(dir / "c.jpg", encode(16, 24, std::vector<unsigned char>(16 * 24, static_cast<unsigned char>(value)), {}));
        const HostImage image = ipt::cli::read_image((dir / "c.jpg").string());
        EXPECT_EQ(image.dtype, IPT_UINT8);
        EXPECT_EQ(image.rows, 16);
        EXPECT_EQ(image.cols, 24);
        EXPECT_EQ(image.channels, 1);
        EXPECT_EQ(image.values<uint8_t>(), std::vector<uint8_t>(16 * 24, static_cast<uint8_t>(value)));
    }
}

TEST(Jpeg, ConstantColorDecodesToRgbPlanes) {
    REQUIRE_JPEG();
    const auto dir = temp_dir();
    const int rows = 9, cols = 17; // partial blocks and MCUs at the edges
    auto constant = [&](unsigned char r, unsigned char g, unsigned char b) {
        std::vector<unsigned char> v(static_cast<std::size_t>(rows * cols * 3));
        for (std::size_t p = 0; p < v.size(); p += 3) {
            v[p] = r;
            v[p + 1] = g;
            v[p + 2] = b;
        }
        return v;
    };
    auto planes = [&](uint8_t r, uint8_t g, uint8_t b) {
        const std::size_t n = static_cast<std::size_t>(rows * cols);
        std::vector<uint8_t> v(3 * n);
        for (std::size_t p = 0; p < n; ++p) {
            v[p] = r;
            v[n + p] = g;
            v[2 * n + p] = b;
        }
        return v;
    };
    // RGB stored as RGB (Adobe marker, no transform): every component constant, exact.
    Encoding rgb_file{100, JCS_RGB, JCS_RGB, 3, true, false};
    write_file(dir / "rgb.jpg", encode(rows, cols, constant(200, 30, 90), rgb_file));
    const HostImage rgb = ipt::cli::read_image((dir / "rgb.jpg").string());
    EXPECT_EQ(rgb.channels, 3);
    EXPECT_EQ(rgb.values<uint8_t>(), planes(200, 30, 90));

    // YCbCr, 4:2:0 as libjpeg writes by default: a gray color has Cb = Cr = 128
    // exactly, so it comes back exactly; another color within the conversion's rounding.
    Encoding ycc{100, JCS_RGB, JCS_UNKNOWN, 3, false, false};
    write_file(dir / "gray.jpg", encode(rows, cols, constant(90, 90, 90), ycc));
    EXPECT_EQ(ipt::cli::read_image((dir / "gray.jpg").string()).values<uint8_t>(), planes(90, 90, 90));
    write_file(dir / "color.jpg", encode(rows, cols, constant(200, 30, 90), ycc));
    const HostImage color = ipt::cli::read_image((dir / "color.jpg").string());
    EXPECT_EQ(color.channels, 3);
    EXPECT_LE(max_difference(color.values<uint8_t>(), planes(200, 30, 90)), 2);

    // Progressive and arithmetic coding decode the same.
    ycc.progressive = true;
    write_file(dir / "prog.jpg", encode(rows, cols, constant(90, 90, 90), ycc));
    EXPECT_EQ(ipt::cli::read_image((dir / "prog.jpg").string()).values<uint8_t>(), planes(90, 90, 90));
    ycc.arithmetic = true;
    write_file(dir / "arith.jpg", encode(rows, cols, constant(90, 90, 90), ycc));
    EXPECT_EQ(ipt::cli::read_image((dir / "arith.jpg").string()).values<uint8_t>(), planes(90, 90, 90));
}

TEST(Jpeg, PatternKeepsItsLayout) {
    REQUIRE_JPEG();
    const auto dir = temp_dir();
    // Planes in OpenIPT's order, rows and columns not swapped: quality 100
    // without subsampling differs from the samples by DCT rounding only.
    const int rows = 20, cols = 13;
    for (int components : {1, 3}) {
        SCOPED_TRACE(components);
        const auto samples = gradient(rows, cols, components);
        Encoding e{100, components == 3 ? JCS_RGB : JCS_GRAYSCALE, components == 3 ? JCS_RGB : JCS_UNKNOWN,
                   components, true, false};
        write_file(dir / "p.jpg", encode(rows, cols, samples, e));
        const HostImage image = ipt::cli::read_image((dir / "p.jpg").string());
        EXPECT_EQ(image.rows, rows);
        EXPECT_EQ(image.cols, cols);
        EXPECT_EQ(image.channels, components);
        EXPECT_LE(max_difference(image.values<uint8_t>(), planar(rows, cols, components, samples)), 2);
    }
}

// ---- the writer ----------------------------------------------------------------------

TEST(Jpeg, RoundTripGrayAndRgbWithinTolerance) {
    REQUIRE_JPEG();
    const auto dir = temp_dir();
    const int rows = 32, cols = 40;
    for (int components : {1, 3}) {
        SCOPED_TRACE(components);
        const auto values = planar(rows, cols, components, gradient(rows, cols, components));
        const HostImage image = HostImage::from_values(rows, cols, components, values);
        std::uintmax_t previous_size = 0;
        int previous_error = 1000;
        for (int quality : {10, 75, 100}) {
            SCOPED_TRACE(quality);
            const std::string path = (dir / ("q" + std::to_string(quality) + ".JPEG")).string();
            ipt::cli::WriteOptions options;
            options.quality = quality;
            ipt::cli::write_image(path, image, options);
            const HostImage back = ipt::cli::read_image(path);
            EXPECT_EQ(back.dtype, IPT_UINT8);
            EXPECT_EQ(back.rows, rows);
            EXPECT_EQ(back.cols, cols);
            EXPECT_EQ(back.channels, components);
            const int error = max_difference(back.values<uint8_t>(), values);
            // Higher quality: a larger file and no larger error; 4:2:0 chroma of a smooth image stays close.
            EXPECT_GT(std::filesystem::file_size(path), previous_size);
            EXPECT_LE(error, previous_error);
            if (quality >= 75) {
                EXPECT_LE(error, quality == 100 ? 3 : 8);
            }
            previous_size = std::filesystem::file_size(path);
            previous_error = error;
        }
    }
    // The default quality is imwrite's 75.
    const auto values = planar(rows, cols, 1, gradient(rows, cols, 1));
    ipt::cli::write_image((dir / "default.jpg").string(), HostImage::from_values(rows, cols, 1, values));
    ipt::cli::WriteOptions q75;
    q75.quality = 75;
    ipt::cli::write_image((dir / "q75.jpg").string(), HostImage::from_values(rows, cols, 1, values), q75);
    EXPECT_EQ(read_file(dir / "default.jpg"), read_file(dir / "q75.jpg"));
}

TEST(Jpeg, LogicalAndUnitFloatAreWrittenAsUint8) {
    REQUIRE_JPEG();
    const auto dir = temp_dir();
    // 8x8 blocks of one value decode exactly at quality 100 (see above):
    // logical as 0/255 like imwrite, double as round(255 x).
    const int rows = 8, cols = 16;
    std::vector<uint8_t> bits(rows * cols);
    for (int p = 0; p < rows * cols; ++p) bits[p] = (p % cols) >= 8;
    ipt::cli::WriteOptions best;
    best.quality = 100;
    ipt::cli::write_image((dir / "b.jpg").string(), HostImage::make(IPT_LOGICAL, rows, cols, 1, bits.data()), best);
    std::vector<uint8_t> expected(rows * cols);
    for (int p = 0; p < rows * cols; ++p) expected[p] = bits[p] ? 255 : 0;
    const HostImage b = ipt::cli::read_image((dir / "b.jpg").string());
    EXPECT_EQ(b.dtype, IPT_UINT8);
    EXPECT_EQ(b.values<uint8_t>(), expected);

    std::vector<double> halves(rows * cols);
    for (int p = 0; p < rows * cols; ++p) halves[p] = (p % cols) >= 8 ? 0.2 : 0.5; // 51, 127.5 -> 128
    ipt::cli::write_image((dir / "d.jpg").string(), HostImage::from_values(rows, cols, 1, halves), best);
    for (int p = 0; p < rows * cols; ++p) expected[p] = (p % cols) >= 8 ? 51 : 128;
    EXPECT_EQ(ipt::cli::read_image((dir / "d.jpg").string()).values<uint8_t>(), expected);
}

TEST(Jpeg, WriterRefusesWhatItCannotHold) {
    REQUIRE_JPEG();
    const auto dir = temp_dir();
    const std::string path = (dir / "bad.jpg").string();
    auto refusal = [&](const HostImage& image) { return error_of([&] { ipt::cli::write_image(path, image); }); };
    EXPECT_NE(refusal(HostImage::from_values(1, 2, 1, std::vector<double>{0.5, 1.5})).find("[0,1]"), std::string::npos);
    EXPECT_NE(refusal(HostImage::from_values(1, 1, 1, std::vector<float>{std::nanf("")})).find("[0,1]"), std::string::npos);
    EXPECT_NE(refusal(HostImage::from_values(1, 1, 1, std::vector<uint16_t>{1})).find("uint16"), std::string::npos);
    EXPECT_NE(refusal(HostImage::from_values(1, 1, 1, std::vector<int16_t>{1})).find("int16"), std::string::npos);
    EXPECT_NE(refusal(HostImage::make(IPT_UINT8, 1, 1, 2, nullptr)).find("channels"), std::string::npos);
    EXPECT_NE(refusal(HostImage::make(IPT_UINT8, 0, 3, 1, nullptr)).find("empty"), std::string::npos);
    EXPECT_NE(refusal(HostImage::make(IPT_UINT8, 1, 70000, 1, nullptr)).find("65500"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(path)) << "nothing written on failure";
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 0)
        << "no temporary left";
}

TEST(Jpeg, QualitySelectorFollowsTheFileName) {
    using ipt::cli::parse_output_spec;
    EXPECT_EQ(parse_output_spec("a.jpg").path, "a.jpg");
    EXPECT_EQ(parse_output_spec("a.jpg").options.quality, 75);
    EXPECT_EQ(parse_output_spec("d:x/a.JPG:quality=90").path, "d:x/a.JPG");
    EXPECT_EQ(parse_output_spec("d:x/a.JPG:quality=90").options.quality, 90);
    EXPECT_EQ(parse_output_spec("a.jpeg:quality=0").options.quality, 0);
    EXPECT_EQ(parse_output_spec("a.jpeg:quality=100").options.quality, 100);
    EXPECT_EQ(parse_output_spec("dir:x/a.npy").path, "dir:x/a.npy");
    for (const char* bad : {"a.jpg:quality=101", "a.jpg:quality=-1", "a.jpg:quality=", "a.jpg:quality=7.5",
                            "a.jpg:quality=99999999999"})
        EXPECT_NE(error_of([&] { parse_output_spec(bad); }).find("0 to 100"), std::string::npos) << bad;
    EXPECT_NE(error_of([] { parse_output_spec("a.png:quality=90"); }).find("JPEG"), std::string::npos);
    EXPECT_NE(error_of([] { parse_output_spec("a.jpg:fast"); }).find("unknown selector ':fast'"), std::string::npos);
    EXPECT_NE(error_of([] { ipt::cli::parse_input_spec("a.jpg:noalpha"); }).find("JPEG holds no alpha"),
              std::string::npos);
    EXPECT_EQ(ipt::cli::format_of("x.JpEg"), ipt::cli::FileFormat::jpeg);
    EXPECT_EQ(ipt::cli::format_of("x.JPG"), ipt::cli::FileFormat::jpeg);
}

// ---- damaged and hostile files -----------------------------------------------------------

// The reader's failure: a UsageError naming the file, and nothing on stderr.
std::string read_failure(const std::filesystem::path& path) {
    ::testing::internal::CaptureStderr();
    const std::string message = error_of([&] { ipt::cli::read_image(path.string()); });
    const std::string printed = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(printed, "") << "libjpeg's messages go into the error, not to stderr";
    EXPECT_NE(message.find(path.string() + ": "), std::string::npos) << message;
    return message;
}

TEST(JpegDamaged, TruncatedFilesAreRefused) {
    REQUIRE_JPEG();
    const auto dir = temp_dir();
    for (const bool progressive : {false, true}) {
        Encoding e{90, JCS_RGB, JCS_UNKNOWN, 3, false, progressive};
        const Bytes whole = encode(24, 40, gradient(24, 40, 3), e);
        ASSERT_GT(whole.size(), 400u);
        for (const std::size_t keep : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{20},
                                       std::size_t{150}, whole.size() / 2, whole.size() - 40, whole.size() - 2}) {
            SCOPED_TRACE(std::to_string(keep) + (progressive ? " progressive" : " baseline"));
            write_file(dir / "cut.jpg", Bytes(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(keep)));
            read_failure(dir / "cut.jpg");
        }
    }
}

TEST(JpegDamaged, GarbageAndEmptyFilesAreRefused) {
    REQUIRE_JPEG();
    const auto dir = temp_dir();
    write_file(dir / "empty.jpg", Bytes{});
    EXPECT_NE(read_failure(dir / "empty.jpg").find("not a JPEG file"), std::string::npos);
    write_file(dir / "text.jpg", Bytes{'h', 'e', 'l', 'l', 'o'});
    EXPECT_NE(read_failure(dir / "text.jpg").find("not a JPEG file"), std::string::npos);
    // A JPEG start followed by noise, and a sound file with its entropy-coded data overwritten.
    Bytes noise = {0xFF, 0xD8, 0xFF};
    unsigned state = 12345;
    for (int i = 0; i < 2000; ++i) noise.push_back(static_cast<unsigned char>((state = state * 1103515245u + 12345u) >> 16));
    write_file(dir / "noise.jpg", noise);
    read_failure(dir / "noise.jpg");
    Bytes scrambled = encode(32, 32, gradient(32, 32, 1), Encoding{});
    for (std::size_t i = scrambled.size() / 2; i + 2 < scrambled.size(); ++i) scrambled[i] = 0xFF; // fill bytes, no markers
    write_file(dir / "scrambled.jpg", scrambled);
    read_failure(dir / "scrambled.jpg");
}

TEST(JpegDamaged, HugeDeclaredSizeIsRefusedBeforeAllocating) {
    REQUIRE_JPEG();
    const auto dir = temp_dir();
    Bytes file = encode(16, 16, std::vector<unsigned char>(256, 9), Encoding{});
    const std::size_t sof = sof_offset(file);
    // Height and width 65000: 4 GiB of samples declared by a few hundred bytes.
    file[sof + 5] = file[sof + 7] = 0xFD;
    file[sof + 6] = file[sof + 8] = 0xE8;
    write_file(dir / "huge.jpg", file);
    const std::string message = read_failure(dir / "huge.jpg");
    EXPECT_NE(message.find("declares 65000x65000 pixels"), std::string::npos) << message;
    // Past JPEG's own limit (65500), libjpeg refuses.
    file[sof + 5] = file[sof + 7] = 0xFF;
    file[sof + 6] = file[sof + 8] = 0xFF;
    write_file(dir / "past.jpg", file);
    read_failure(dir / "past.jpg");
    // Arithmetic coding can compress a constant image past the bound: it is refused like damage.
    Encoding arithmetic;
    arithmetic.arithmetic = true;
    write_file(dir / "flat.jpg", encode(1024, 1024, std::vector<unsigned char>(1024 * 1024, 9), arithmetic));
    EXPECT_NE(read_failure(dir / "flat.jpg").find("declares 1024x1024 pixels"), std::string::npos);
    // Zero width.
    file[sof + 7] = file[sof + 8] = 0;
    write_file(dir / "zero.jpg", file);
    read_failure(dir / "zero.jpg");
}

TEST(JpegDamaged, UnsupportedKindsAreNamed) {
    REQUIRE_JPEG();
    const auto dir = temp_dir();
    const Bytes file = encode(8, 8, std::vector<unsigned char>(64, 100), Encoding{});
    const std::size_t sof = sof_offset(file);
    Bytes twelve = file;
    twelve[sof + 4] = 12; // sample precision
    write_file(dir / "twelve.jpg", twelve);
    EXPECT_NE(read_failure(dir / "twelve.jpg").find("8-bit"), std::string::npos);
    Bytes lossless = file;
    lossless[sof + 1] = 0xC3; // SOF3: lossless
    write_file(dir / "lossless.jpg", lossless);
    EXPECT_NE(read_failure(dir / "lossless.jpg").find("lossless"), std::string::npos);

    // CMYK (Adobe marker), as libjpeg writes it: refused, as no operator takes four planes.
    std::vector<unsigned char> cmyk(8 * 8 * 4, 50);
    write_file(dir / "cmyk.jpg", encode(8, 8, cmyk, Encoding{90, JCS_CMYK, JCS_UNKNOWN, 4, false, false}));
    EXPECT_NE(read_failure(dir / "cmyk.jpg").find("CMYK"), std::string::npos);
    write_file(dir / "ycck.jpg", encode(8, 8, cmyk, Encoding{90, JCS_CMYK, JCS_YCCK, 4, false, false}));
    EXPECT_NE(read_failure(dir / "ycck.jpg").find("CMYK"), std::string::npos);
}

} // namespace
