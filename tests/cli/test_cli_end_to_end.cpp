// SPDX-License-Identifier: Apache-2.0
// The built `ipt` binary, end to end: `ipt run` against results computed by
// hand from MATLAB's definitions, `ipt info --json`, and the error paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "crafted_files.hpp"
#include "image_io.hpp"

namespace {

namespace fs = std::filesystem;
using ipt::cli::HostImage;

struct Result {
    int exit_code = -1;
    std::string out;
    std::string err;
};

fs::path temp_dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    auto dir = fs::temp_directory_path() /
               ("ipt_cli_e2e_" + std::to_string(::getpid()) + "_" + info->test_suite_name() + "_" + info->name());
    fs::create_directories(dir);
    return dir;
}

std::string slurp(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string quote(const std::string& arg) {
    std::string q = "'";
    for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs the binary with arguments, in `dir`, capturing stdout and stderr;
// `plugin_path` sets IPT_PLUGIN_PATH for the run, `env` ("NAME=value") one
// more variable.
Result ipt_cli(const fs::path& dir, const std::vector<std::string>& args, const std::string& plugin_path = "",
               const std::string& env = "") {
    // Built with append: GCC 12 warns falsely (-Wrestrict) on long operator+ chains.
    std::string command = "cd ";
    command.append(quote(dir.string())).append(" && ");
    if (!plugin_path.empty()) command.append("IPT_PLUGIN_PATH=").append(quote(plugin_path)).append(" ");
    if (!env.empty()) command.append("export ").append(quote(env)).append(" && ");
    command.append(quote(IPT_CLI_BINARY));
    for (const auto& a : args) command.append(" ").append(quote(a));
    command.append(" > ").append(quote((dir / "stdout.txt").string()));
    command.append(" 2> ").append(quote((dir / "stderr.txt").string()));
    const int status = std::system(command.c_str());
    Result r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(dir / "stdout.txt");
    r.err = slurp(dir / "stderr.txt");
    return r;
}

void write_npy(const fs::path& path, const HostImage& image) { ipt::cli::write_image(path.string(), image); }

HostImage matrix(int64_t rows, int64_t cols, const std::vector<double>& row_major) {
    return HostImage::from_values(rows, cols, 1, row_major);
}

// conv2 from its definition, C(i,j) = sum A(p,q) B(i-p+1, j-q+1) (1-based),
// then MATLAB's 'same' crop: rows floor(mb/2)+1 .. floor(mb/2)+ma of 'full'.
std::vector<double> conv2_same_brute(const std::vector<double>& a, int ma, int na, const std::vector<double>& b,
                                     int mb, int nb) {
    const int mf = ma + mb - 1, nf = na + nb - 1;
    std::vector<double> full(static_cast<std::size_t>(mf * nf), 0.0);
    for (int p = 0; p < ma; ++p)
        for (int q = 0; q < na; ++q)
            for (int u = 0; u < mb; ++u)
                for (int v = 0; v < nb; ++v) full[(p + u) * nf + (q + v)] += a[p * na + q] * b[u * nb + v];
    std::vector<double> same;
    for (int i = mb / 2; i < mb / 2 + ma; ++i)
        for (int j = nb / 2; j < nb / 2 + na; ++j) same.push_back(full[i * nf + j]);
    return same;
}

bool has_implementation(const fs::path& dir, const std::string& op) {
    const Result r = ipt_cli(dir, {"info", "--json", "--op", op});
    if (r.exit_code != 0) return false;
    return !nlohmann::json::parse(r.out)["ops"][0]["implementations"].empty();
}

// ---- ipt run conv2 ----------------------------------------------------------------

TEST(CliRun, Conv2SameRowVector) {
    const auto dir = temp_dir();
    // MATLAB: conv2([1 2 3 4], [1 1], 'same') = [3 5 7 4] (the even kernel's 'same' crop).
    write_npy(dir / "a.npy", matrix(1, 4, {1, 2, 3, 4}));
    write_npy(dir / "k.npy", matrix(1, 2, {1, 1}));
    const Result r = ipt_cli(dir, {"run", "conv2", "--in", "A=a.npy", "--in", "B=k.npy", "--out", "C=c.npy",
                                   "--param", "shape=same"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const HostImage c = ipt::cli::read_image((dir / "c.npy").string());
    EXPECT_EQ(c.dtype, IPT_DOUBLE);
    EXPECT_EQ(c.rows, 1);
    EXPECT_EQ(c.cols, 4);
    EXPECT_EQ(c.values<double>(), (std::vector<double>{3, 5, 7, 4}));
    EXPECT_NE(r.out.find("C: double 1x4 -> c.npy = [3 5 7 4]"), std::string::npos) << r.out;
}

TEST(CliRun, Conv2FullAndValidAndDefault) {
    const auto dir = temp_dir();
    write_npy(dir / "a.npy", matrix(1, 4, {1, 2, 3, 4}));
    write_npy(dir / "k.npy", matrix(1, 2, {1, 1}));
    // full (the default): [1 3 5 7 4]; valid: [3 5 7].
    ASSERT_EQ(ipt_cli(dir, {"run", "ipt.conv2", "--in", "A=a.npy", "--in", "B=k.npy", "--out", "C=full.npy"}).exit_code, 0);
    EXPECT_EQ(ipt::cli::read_image((dir / "full.npy").string()).values<double>(), (std::vector<double>{1, 3, 5, 7, 4}));
    ASSERT_EQ(ipt_cli(dir, {"run", "conv2", "--in", "A=a.npy", "--in", "B=k.npy", "--out", "C=valid.npy", "--param",
                            "shape=valid"})
                  .exit_code,
              0);
    EXPECT_EQ(ipt::cli::read_image((dir / "valid.npy").string()).values<double>(), (std::vector<double>{3, 5, 7}));
}

// An empty result is printed by its size, whatever its other dimension.
TEST(CliRun, EmptyOutputIsPrintedByItsSize) {
    const auto dir = temp_dir();
    write_npy(dir / "a.npy", HostImage::from_values(2147483647, 0, 1, std::vector<double>{}));
    write_npy(dir / "k.npy", matrix(1, 1, {2}));
    const Result r = ipt_cli(dir, {"run", "conv2", "--in", "A=a.npy", "--in", "B=k.npy", "--param", "shape=same",
                                   "--device", "0"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("[] (2147483647x0)"), std::string::npos) << r.out;
}

TEST(CliRun, OptionsMayComeBeforeTheOperator) {
    const auto dir = temp_dir();
    write_npy(dir / "a.npy", matrix(1, 4, {1, 2, 3, 4}));
    write_npy(dir / "k.npy", matrix(1, 2, {1, 1}));
    const Result r = ipt_cli(dir, {"run", "--in", "A=a.npy", "--param", "shape=same", "conv2", "--in", "B=k.npy",
                                   "--out", "C=c.npy"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(ipt::cli::read_image((dir / "c.npy").string()).values<double>(), (std::vector<double>{3, 5, 7, 4}));
}

TEST(CliRun, Conv2SameTwoDimensionalByHand) {
    const auto dir = temp_dir();
    // conv2([1 2; 3 4], ones(2)) full = [1 3 2; 4 10 6; 3 7 4]; 'same' keeps rows 2:3, cols 2:3.
    write_npy(dir / "a.npy", matrix(2, 2, {1, 2, 3, 4}));
    write_npy(dir / "k.npy", matrix(2, 2, {1, 1, 1, 1}));
    ASSERT_EQ(ipt_cli(dir, {"run", "conv2", "--in", "A=a.npy", "--in", "B=k.npy", "--out", "C=same.npy", "--param",
                            "shape=same"})
                  .exit_code,
              0);
    const HostImage same = ipt::cli::read_image((dir / "same.npy").string());
    EXPECT_EQ(same.rows, 2);
    EXPECT_EQ(same.cols, 2);
    EXPECT_EQ(same.values<double>(), (std::vector<double>{10, 6, 7, 4}));
    ASSERT_EQ(ipt_cli(dir, {"run", "conv2", "--in", "A=a.npy", "--in", "B=k.npy", "--out", "C=full.npy"}).exit_code, 0);
    const HostImage full = ipt::cli::read_image((dir / "full.npy").string());
    EXPECT_EQ(full.rows, 3);
    EXPECT_EQ(full.cols, 3);
    EXPECT_EQ(full.values<double>(), (std::vector<double>{1, 3, 2, 4, 10, 6, 3, 7, 4}));
}

TEST(CliRun, Conv2SameAgainstBruteForceWithSingleAndFortranInput) {
    const auto dir = temp_dir();
    // 5x6 image, 3x2 kernel (odd rows, even columns); small integers keep every sum exact in single.
    const int ma = 5, na = 6, mb = 3, nb = 2;
    std::vector<double> a(ma * na), b(mb * nb);
    for (int i = 0; i < ma * na; ++i) a[i] = (i * 7) % 11 - 5;
    for (int i = 0; i < mb * nb; ++i) b[i] = (i * 3) % 5 - 2;
    const std::vector<double> expected = conv2_same_brute(a, ma, na, b, mb, nb);

    // A as a Fortran-order single .npy written byte by byte; B as C-order single.
    std::vector<float> a_columns;
    for (int q = 0; q < na; ++q)
        for (int p = 0; p < ma; ++p) a_columns.push_back(static_cast<float>(a[p * na + q]));
    std::string header = "{'descr': '<f4', 'fortran_order': True, 'shape': (5, 6), }";
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    {
        std::ofstream out(dir / "a.npy", std::ios::binary);
        out.write("\x93NUMPY\x01\x00", 8);
        const char len[2] = {static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};
        out.write(len, 2);
        out << header;
        out.write(reinterpret_cast<const char*>(a_columns.data()), static_cast<std::streamsize>(a_columns.size() * 4));
    }
    std::vector<float> bf(b.begin(), b.end());
    write_npy(dir / "k.npy", HostImage::from_values(mb, nb, 1, bf));

    const Result r = ipt_cli(dir, {"run", "conv2", "--in", "A=a.npy", "--in", "B=k.npy", "--out", "C=c.npy",
                                   "--param", "shape=same"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const HostImage c = ipt::cli::read_image((dir / "c.npy").string());
    EXPECT_EQ(c.dtype, IPT_SINGLE) << "single inputs give single (MATLAB)";
    ASSERT_EQ(c.rows, ma);
    ASSERT_EQ(c.cols, na);
    const auto got = c.values<float>();
    for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(got[i], static_cast<float>(expected[i])) << "element " << i;
}

TEST(CliRun, ExplainAndJsonSummary) {
    const auto dir = temp_dir();
    write_npy(dir / "a.npy", matrix(1, 4, {1, 2, 3, 4}));
    write_npy(dir / "k.npy", matrix(1, 2, {1, 1}));
    const Result explain = ipt_cli(dir, {"run", "conv2", "--in", "A=a.npy", "--in", "B=k.npy", "--param", "shape=same",
                                         "--device", "0", "--explain"});
    ASSERT_EQ(explain.exit_code, 0) << explain.err;
    EXPECT_NE(explain.out.find("ipt.conv2 ran cpu's"), std::string::npos) << explain.out;
    EXPECT_NE(explain.out.find("why:"), std::string::npos) << explain.out;
    EXPECT_NE(explain.out.find("considered"), std::string::npos) << explain.out;
    EXPECT_NE(explain.out.find("(not saved"), std::string::npos) << "an output without --out is still shown";

    const Result json = ipt_cli(dir, {"run", "conv2", "--in", "A=a.npy", "--in", "B=k.npy", "--param", "shape=same",
                                      "--out", "C=c.npy", "--json"});
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    EXPECT_EQ(j["op"], "ipt.conv2");
    EXPECT_EQ(j["params"]["shape"], "same");
    ASSERT_EQ(j["outputs"].size(), 1u);
    EXPECT_EQ(j["outputs"][0]["name"], "C");
    EXPECT_EQ(j["outputs"][0]["file"], "c.npy");
    EXPECT_EQ(j["outputs"][0]["dtype"], "double");
    EXPECT_EQ(j["outputs"][0]["values"], nlohmann::json({3, 5, 7, 4}));
    EXPECT_EQ(j["dispatch"]["plugin"], "cpu");
    EXPECT_GE(j["dispatch"]["candidates"].get<int>(), 1);
    EXPECT_EQ(j["inputs"][0]["rows"], 1);
}

TEST(CliRun, ImlincombThroughPngWithSaturation) {
    const auto dir = temp_dir();
    if (!ipt::cli::png_available()) GTEST_SKIP() << "this build has no libpng";
    if (!has_implementation(dir, "imlincomb")) GTEST_SKIP() << "no implementation of ipt.imlincomb is loaded yet";
    // imlincomb(2, A) on uint8 keeps uint8: 2*[0 100 127; 128 200 255] = [0 200 254; 255 255 255] (saturated).
    ipt::cli::write_image((dir / "a.png").string(),
                          HostImage::from_values(2, 3, 1, std::vector<uint8_t>{0, 100, 127, 128, 200, 255}));
    const Result r = ipt_cli(dir, {"run", "imlincomb", "--param", "K=2", "--in", "A1=a.png", "--out", "Z=z.png"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const HostImage z = ipt::cli::read_image((dir / "z.png").string());
    EXPECT_EQ(z.dtype, IPT_UINT8);
    EXPECT_EQ(z.values<uint8_t>(), (std::vector<uint8_t>{0, 200, 254, 255, 255, 255}));
}

TEST(CliRun, ImlincombThroughJpegWithQuality) {
    const auto dir = temp_dir();
    if (!ipt::cli::jpeg_available()) GTEST_SKIP() << "this build has no libjpeg";
    if (!has_implementation(dir, "imlincomb")) GTEST_SKIP() << "no implementation of ipt.imlincomb is loaded yet";
    // One 8x8 block of 60: at quality 100 only its DC coefficient, kept exactly.
    ipt::cli::WriteOptions best;
    best.quality = 100;
    ipt::cli::write_image((dir / "a.jpg").string(), HostImage::from_values(8, 8, 1, std::vector<uint8_t>(64, 60)), best);
    const Result r = ipt_cli(dir, {"run", "imlincomb", "--param", "K=2", "--in", "A1=a.jpg", "--out", "Z=z.jpeg:quality=100"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const HostImage z = ipt::cli::read_image((dir / "z.jpeg").string());
    EXPECT_EQ(z.dtype, IPT_UINT8);
    EXPECT_EQ(z.values<uint8_t>(), std::vector<uint8_t>(64, 120));
    // The selector is checked before any work: no file is written.
    const Result wrong = ipt_cli(dir, {"run", "imlincomb", "--param", "K=2", "--in", "A1=a.jpg", "--out", "Z=z.png:quality=9"});
    EXPECT_NE(wrong.exit_code, 0);
    EXPECT_NE(wrong.err.find("applies to JPEG files"), std::string::npos) << wrong.err;
    EXPECT_FALSE(fs::exists(dir / "z.png"));
}

TEST(CliRun, Mean2PrintsScalar) {
    const auto dir = temp_dir();
    if (!has_implementation(dir, "mean2")) GTEST_SKIP() << "no implementation of ipt.mean2 is loaded yet";
    write_npy(dir / "a.npy", HostImage::from_values(2, 2, 1, std::vector<uint16_t>{1, 2, 3, 5}));
    const Result r = ipt_cli(dir, {"run", "mean2", "--in", "A=a.npy", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["outputs"][0]["dtype"], "double"); // mean2 of an integer image is double
    EXPECT_EQ(j["outputs"][0]["values"], nlohmann::json({2.75}));
}

// An operator whose parameters come in alternative groups (imresize: Scale or
// OutputSize) runs with either group; with neither, the library says which.
TEST(CliRun, ImresizeTakesEitherScaleOrOutputSize) {
    const auto dir = temp_dir();
    // MATLAB: imresize(A, 0.5) of a 4x6 image is 2x3 (ceil(0.5 * size));
    // imresize(A, [3 5]) is 3x5.
    write_npy(dir / "a.npy", HostImage::from_values(4, 6, 1, std::vector<uint8_t>(24, 9)));
    Result r = ipt_cli(dir, {"run", "imresize", "--in", "A=a.npy", "--param", "Scale=0.5", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["outputs"][0]["rows"], 2);
    EXPECT_EQ(j["outputs"][0]["cols"], 3);
    r = ipt_cli(dir, {"run", "imresize", "--in", "A=a.npy", "--param", "OutputSize=[3 5]", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["outputs"][0]["rows"], 3);
    EXPECT_EQ(j["outputs"][0]["cols"], 5);
    r = ipt_cli(dir, {"run", "imresize", "--in", "A=a.npy"});
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE((r.out + r.err).find("Scale"), std::string::npos) << r.out << r.err;
}

// imresize takes an image of any number of planes (MATLAB resizes the first
// two dimensions of an N-D array); an operator that takes 1 or 3 planes
// still refuses 2, with the library's message.
TEST(CliRun, ImresizeTakesAnyNumberOfPlanes) {
    const auto dir = temp_dir();
    // Five constant 3x4 planes 10, 20, ..., 50: every output is a sum of
    // weights that add up to 1, so imresize(A, 2) keeps each plane constant.
    std::vector<uint8_t> planes;
    for (int p = 1; p <= 5; ++p) planes.insert(planes.end(), 12, static_cast<uint8_t>(10 * p));
    write_npy(dir / "a.npy", HostImage::from_values(3, 4, 5, planes));
    const Result r = ipt_cli(dir, {"run", "imresize", "--in", "A=a.npy", "--param", "Scale=2", "--out", "B=b.npy"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const HostImage b = ipt::cli::read_image((dir / "b.npy").string());
    EXPECT_EQ(b.rows, 6);
    EXPECT_EQ(b.cols, 8);
    EXPECT_EQ(b.channels, 5);
    std::vector<uint8_t> want;
    for (int p = 1; p <= 5; ++p) want.insert(want.end(), 48, static_cast<uint8_t>(10 * p));
    EXPECT_EQ(b.values<uint8_t>(), want);

    write_npy(dir / "two.npy", HostImage::from_values(3, 4, 2, std::vector<uint8_t>(24, 7)));
    const Result m = ipt_cli(dir, {"run", "mean2", "--in", "A=two.npy"});
    EXPECT_EQ(m.exit_code, 1);
    EXPECT_NE(m.err.find("ipt.mean2: parameter 'A' must have 1 or 3 channels, got 2"), std::string::npos) << m.err;

    const Result info = ipt_cli(dir, {"info", "--json", "--op", "ipt.imresize"});
    ASSERT_EQ(info.exit_code, 0) << info.err;
    const auto params = nlohmann::json::parse(info.out)["ops"][0]["params"];
    ASSERT_FALSE(params.empty());
    EXPECT_EQ(params[0]["name"], "A");
    EXPECT_EQ(params[0]["flags"], nlohmann::json({"any number of channels (planes)", "non-empty"}));
}

// A thread count the host cannot or should not start is bounded with a
// warning naming the variable; the call still runs, and right.
TEST(CliRun, ThreadCountFromTheEnvironmentIsBounded) {
    const auto dir = temp_dir();
    if (!has_implementation(dir, "imlincomb")) GTEST_SKIP() << "no implementation of ipt.imlincomb is loaded yet";
    // Large enough that the CPU backend shares the work out: 2*3 + 4 = 10 everywhere.
    const int64_t rows = 700, cols = 900;
    write_npy(dir / "a.npy", HostImage::from_values(rows, cols, 1, std::vector<uint8_t>(rows * cols, 3)));
    write_npy(dir / "b.npy", HostImage::from_values(rows, cols, 1, std::vector<uint8_t>(rows * cols, 4)));
    const std::vector<std::string> args = {"run", "imlincomb", "--param", "K=[2 1]", "--in", "A1=a.npy",
                                           "--in", "A2=b.npy", "--out", "Z=z.npy", "--device", "0"};
    for (const char* value : {"100000", "2147483647", "99999999999999999999", "many", "0", "-3"}) {
        SCOPED_TRACE(value);
        fs::remove(dir / "z.npy");
        const Result r = ipt_cli(dir, args, "", std::string("IPT_NUM_THREADS=") + value);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(r.err.find("IPT_NUM_THREADS"), std::string::npos) << r.err;
        const HostImage z = ipt::cli::read_image((dir / "z.npy").string());
        EXPECT_EQ(z.values<uint8_t>(), std::vector<uint8_t>(rows * cols, 10));
    }
}

TEST(CliRun, HostCacheSizeFromTheEnvironmentIsBounded) {
    const auto dir = temp_dir();
    if (!has_implementation(dir, "imlincomb")) GTEST_SKIP() << "no implementation of ipt.imlincomb is loaded yet";
    write_npy(dir / "a.npy", HostImage::from_values(2, 2, 1, std::vector<uint8_t>(4, 3)));
    const std::vector<std::string> args = {"run", "imlincomb", "--param", "K=[2]", "--in", "A1=a.npy",
                                           "--out", "Z=z.npy", "--device", "0"};
    for (const char* value : {"99999999999999999999", "18446744073709551615", "1048577", "-1", "lots"}) {
        SCOPED_TRACE(value);
        const Result r = ipt_cli(dir, args, "", std::string("IPT_HOST_CACHE_MB=") + value);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(r.err.find("IPT_HOST_CACHE_MB"), std::string::npos) << r.err;
        EXPECT_EQ(ipt::cli::read_image((dir / "z.npy").string()).values<uint8_t>(), std::vector<uint8_t>(4, 6));
    }
}

// ---- errors -------------------------------------------------------------------------

TEST(CliRunErrors, UnknownOperatorSuggestsTheRightOne) {
    const auto dir = temp_dir();
    const Result r = ipt_cli(dir, {"run", "conv3", "--in", "A=a.npy"});
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("unknown operator 'conv3'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("ipt.conv2"), std::string::npos) << r.err;
}

TEST(CliRunErrors, UnknownNamesAreNamed) {
    const auto dir = temp_dir();
    write_npy(dir / "a.npy", matrix(1, 4, {1, 2, 3, 4}));
    write_npy(dir / "k.npy", matrix(1, 2, {1, 1}));
    const Result param = ipt_cli(dir, {"run", "conv2", "--in", "A=a.npy", "--in", "B=k.npy", "--param", "shap=same"});
    EXPECT_NE(param.exit_code, 0);
    EXPECT_NE(param.err.find("no parameter 'shap'"), std::string::npos) << param.err;
    EXPECT_NE(param.err.find("shape"), std::string::npos) << "lists the valid names: " << param.err;

    const Result input = ipt_cli(dir, {"run", "conv2", "--in", "X=a.npy"});
    EXPECT_NE(input.exit_code, 0);
    EXPECT_NE(input.err.find("no input 'X'"), std::string::npos) << input.err;

    const Result misplaced = ipt_cli(dir, {"run", "conv2", "--in", "A=a.npy", "--param", "B=k.npy"});
    EXPECT_NE(misplaced.exit_code, 0);
    EXPECT_NE(misplaced.err.find("--in B=FILE"), std::string::npos) << misplaced.err;

    const Result no_equals = ipt_cli(dir, {"run", "conv2", "--in", "a.npy"});
    EXPECT_NE(no_equals.exit_code, 0);
    EXPECT_NE(no_equals.err.find("NAME=FILE"), std::string::npos) << no_equals.err;
}

TEST(CliRunErrors, LibraryMessageIsPrintedAndNothingWritten) {
    const auto dir = temp_dir();
    write_npy(dir / "a.npy", matrix(1, 4, {1, 2, 3, 4}));
    write_npy(dir / "k.npy", matrix(1, 2, {1, 1}));
    // A value the operator refuses is the command line's mistake, named with the library's reason.
    const Result r = ipt_cli(dir, {"run", "conv2", "--in", "A=a.npy", "--in", "B=k.npy", "--out", "C=c.npy", "--param",
                                   "shape=middle"});
    EXPECT_EQ(r.exit_code, 2) << "a refused parameter value is a usage error";
    EXPECT_NE(r.err.find("--param shape=middle: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("'full', 'same' or 'valid'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("ipt run: "), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "c.npy"));

    // uint8 is not a class conv2 accepts: the registry's validation message reaches the user.
    write_npy(dir / "u8.npy", HostImage::from_values(1, 2, 1, std::vector<uint8_t>{1, 2}));
    const Result dtype = ipt_cli(dir, {"run", "conv2", "--in", "A=u8.npy", "--in", "B=k.npy", "--out", "C=c.npy"});
    EXPECT_EQ(dtype.exit_code, 1);
    EXPECT_NE(dtype.err.find("ipt.conv2"), std::string::npos) << dtype.err;
    EXPECT_FALSE(fs::exists(dir / "c.npy"));
}

TEST(CliRunErrors, BadFiles) {
    const auto dir = temp_dir();
    write_npy(dir / "k.npy", matrix(1, 2, {1, 1}));
    const Result missing = ipt_cli(dir, {"run", "conv2", "--in", "A=nothere.npy", "--in", "B=k.npy"});
    EXPECT_EQ(missing.exit_code, 3);
    EXPECT_NE(missing.err.find("nothere.npy"), std::string::npos) << missing.err;

    std::ofstream(dir / "junk.npy") << "not numpy";
    const Result junk = ipt_cli(dir, {"run", "conv2", "--in", "A=junk.npy", "--in", "B=k.npy"});
    EXPECT_EQ(junk.exit_code, 3);
    EXPECT_NE(junk.err.find("junk.npy: not a .npy file"), std::string::npos) << junk.err;

    const Result ext = ipt_cli(dir, {"run", "conv2", "--in", "A=k.npy", "--in", "B=k.npy", "--out", "C=c.gif"});
    EXPECT_EQ(ext.exit_code, 2);
    EXPECT_NE(ext.err.find("unknown file type '.gif'"), std::string::npos) << ext.err;
}

TEST(CliRunErrors, UnknownDevice) {
    const auto dir = temp_dir();
    write_npy(dir / "a.npy", matrix(1, 2, {1, 2}));
    const Result r = ipt_cli(dir, {"run", "conv2", "--in", "A=a.npy", "--in", "B=a.npy", "--device", "97"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown device '97'"), std::string::npos) << r.err;
}

// ---- exit codes ----------------------------------------------------------------------

// The files of a directory, leaving out the runner's captured output.
std::vector<std::string> names_in(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (name != "stdout.txt" && name != "stderr.txt") names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
}

// RGBA 1x2: pixels (1,2,3,255) and (4,5,6,0).
crafted::Bytes rgba_png() { return crafted::png_by_hand(2, 1, 8, 6, crafted::Bytes{0, 1, 2, 3, 255, 4, 5, 6, 0}); }

// Two 8-bit gray pages of 1x2: [1 2] and [3 4].
crafted::Bytes two_page_tiff() {
    crafted::TiffPage first, second;
    first.width = second.width = 2;
    first.strip = crafted::Bytes{1, 2};
    second.strip = crafted::Bytes{3, 4};
    return crafted::tiff_file({first, second});
}

TEST(CliExitCodes, EachClassOfMistakeHasItsCode) {
    const auto dir = temp_dir();
    write_npy(dir / "a.npy", matrix(1, 4, {1, 2, 3, 4}));
    write_npy(dir / "k.npy", matrix(1, 2, {1, 1}));
    write_npy(dir / "u8.npy", HostImage::from_values(1, 2, 1, std::vector<uint8_t>{1, 2}));
    write_npy(dir / "bw.npy", HostImage::from_values(2, 2, 1, std::vector<uint8_t>{1, 0, 0, 0}));
    // float64 with a size that wraps to 8 in 64 bits; 10^8 x 10^8 doubles in a file of no data.
    crafted::write_file(dir / "wrap.npy", crafted::npy_by_hand("{'descr': '<f18446744073709551624', 'fortran_order': False, "
                                                               "'shape': (1, 1), }",
                                                               crafted::Bytes(8)));
    crafted::write_file(dir / "huge.npy", crafted::npy_by_hand("{'descr': '<f8', 'fortran_order': False, 'shape': "
                                                               "(100000000, 100000000), }",
                                                               crafted::Bytes()));
    crafted::write_file(dir / "rgba.png", rgba_png());
    crafted::write_file(dir / "two.tif", two_page_tiff());

    struct Case {
        std::vector<std::string> args;
        int code;
        std::string says;
        bool needs_png = false, needs_tiff = false;
    };
    const std::vector<std::string> conv2 = {"run", "conv2", "--in", "B=k.npy"};
    auto with = [&](std::vector<std::string> more) {
        std::vector<std::string> args = conv2;
        args.insert(args.end(), more.begin(), more.end());
        return args;
    };
    const std::vector<Case> cases = {
        {with({"--in", "A=a.npy"}), 0, ""},
        // 2: the command line
        {{"frobnicate"}, 2, ""},
        {with({"--in", "A=a.npy", "--bogus"}), 2, "--bogus"},
        {{"run", "conv3", "--in", "A=a.npy"}, 2, "unknown operator 'conv3'"},
        {with({"--in", "A=a.npy", "--param", "shap=same"}), 2, "no parameter 'shap'"},
        {with({"--in", "A=a.npy", "--param", "shape=middle"}), 2, "--param shape=middle"},
        {conv2, 2, "ipt.conv2 needs --in A=FILE"},
        {with({"--in", "A=a.npy", "--out", "c.npy"}), 2, "NAME=FILE"},
        {with({"--in", "A=a.npy", "--out", "C=c.gif"}), 2, "unknown file type '.gif'"},
        {with({"--in", "A=a.npy", "--device", "97"}), 2, "unknown device '97'"},
        {with({"--in", "A=a.png:rgb"}), 2, "unknown selector ':rgb'"},
        {{"run", "bwdist", "--in", "BW=bw.npy", "--out", "D=t.npy", "--out", "IDX=./t.npy"}, 2, "name the same file"},
        // 3: a file
        {with({"--in", "A=nothere.npy"}), 3, "nothere.npy: cannot open the file"},
        {with({"--in", "A=wrap.npy"}), 3, "wrap.npy: NumPy data type '<f18446744073709551624'"},
        {with({"--in", "A=huge.npy"}), 3, "huge.npy: shape says 80000000000000000 bytes"},
        {with({"--in", "A=rgba.png"}), 3, "rgba.png: has an alpha channel", true},
        {with({"--in", "A=two.tif"}), 3, "two.tif: holds 2 pages", false, true},
        {{"run", "bwdist", "--in", "BW=bw.npy", "--out", "IDX=idx.png"}, 3, "idx.png: PNG holds", true},
        // 1: the operator refuses or fails
        {with({"--in", "A=u8.npy"}), 1, "ipt.conv2"},
    };
    for (const Case& c : cases) {
        std::string line;
        for (const auto& a : c.args) line += a + " ";
        SCOPED_TRACE(line);
        if ((c.needs_png && !ipt::cli::png_available()) || (c.needs_tiff && !ipt::cli::tiff_available())) continue;
        const Result r = ipt_cli(dir, c.args);
        EXPECT_EQ(r.exit_code, c.code) << r.err;
        EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    }
}

TEST(CliExitCodes, DocumentedInHelp) {
    const auto dir = temp_dir();
    const Result help = ipt_cli(dir, {"--help"});
    ASSERT_EQ(help.exit_code, 0) << help.err;
    for (const char* text : {"Exit codes:", "0  success", "1  the operation failed", "conformance: a case failed",
                             "2  usage error", "3  file error", "4  internal error"})
        EXPECT_NE(help.out.find(text), std::string::npos) << text << "\n" << help.out;
    const Result run = ipt_cli(dir, {"run", "--help"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    for (const char* text : {"FILE:noalpha", "FILE:page=N", "renamed into place", "3  file error"})
        EXPECT_NE(run.out.find(text), std::string::npos) << text << "\n" << run.out;
}

// ---- outputs: all or nothing -----------------------------------------------------------

TEST(CliOutputs, TwoOutputsToOneFileAreRefusedBeforeAnyWork) {
    const auto dir = temp_dir();
    write_npy(dir / "bw.npy", HostImage::from_values(2, 2, 1, std::vector<uint8_t>{1, 0, 0, 0}));
    const Result r = ipt_cli(dir, {"run", "bwdist", "--in", "BW=bw.npy", "--out", "D=t.npy", "--out", "IDX=./t.npy"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--out D and --out IDX name the same file (t.npy, ./t.npy)"), std::string::npos) << r.err;
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"bw.npy"});
}

TEST(CliOutputs, AFailingOutputLeavesEveryDestinationAsItWas) {
    const auto dir = temp_dir();
    if (!ipt::cli::png_available()) GTEST_SKIP() << "this build has no libpng";
    write_npy(dir / "bw.npy", HostImage::from_values(2, 2, 1, std::vector<uint8_t>{1, 0, 0, 0}));
    crafted::write_file(dir / "d.npy", crafted::Bytes{'o', 'l', 'd'});
    // IDX is uint32, which PNG cannot hold: D, written first, must not be replaced.
    const Result existing = ipt_cli(dir, {"run", "bwdist", "--in", "BW=bw.npy", "--out", "D=d.npy", "--out", "IDX=idx.png"});
    EXPECT_EQ(existing.exit_code, 3) << existing.err;
    EXPECT_NE(existing.err.find("idx.png"), std::string::npos) << existing.err;
    EXPECT_EQ(crafted::read_file(dir / "d.npy"), (crafted::Bytes{'o', 'l', 'd'}));
    const Result fresh = ipt_cli(dir, {"run", "bwdist", "--in", "BW=bw.npy", "--out", "D=new.npy", "--out", "IDX=idx.png"});
    EXPECT_EQ(fresh.exit_code, 3) << fresh.err;
    EXPECT_EQ(names_in(dir), (std::vector<std::string>{"bw.npy", "d.npy"})) << "no output, no temporary file";

    // Both outputs writable: both appear. bwdist([1 0; 0 0]): D = [0 1; 1 sqrt(2)], IDX = 1 (linear, column-major).
    const Result ok = ipt_cli(dir, {"run", "bwdist", "--in", "BW=bw.npy", "--out", "D=d.npy", "--out", "IDX=idx.npy"});
    ASSERT_EQ(ok.exit_code, 0) << ok.err;
    EXPECT_EQ(ipt::cli::read_image((dir / "idx.npy").string()).values<uint32_t>(), (std::vector<uint32_t>{1, 1, 1, 1}));
    const auto d = ipt::cli::read_image((dir / "d.npy").string()).values<float>();
    EXPECT_EQ(d, (std::vector<float>{0, 1, 1, std::sqrt(2.0f)}));
    EXPECT_EQ(names_in(dir), (std::vector<std::string>{"bw.npy", "d.npy", "idx.npy"}));
}

// ---- inputs the CLI cannot represent whole ------------------------------------------------

TEST(CliInputs, AlphaAndPagesAreReadOnlyWhenNamed) {
    const auto dir = temp_dir();
    if (!has_implementation(dir, "imlincomb")) GTEST_SKIP() << "no implementation of ipt.imlincomb is loaded yet";
    // imlincomb(1, A) returns A: what was read is what comes out.
    if (ipt::cli::png_available()) {
        crafted::write_file(dir / "rgba.png", rgba_png());
        const Result refused = ipt_cli(dir, {"run", "imlincomb", "--param", "K=1", "--in", "A1=rgba.png"});
        EXPECT_EQ(refused.exit_code, 3);
        EXPECT_NE(refused.err.find("--in I=rgba.png:noalpha"), std::string::npos) << refused.err;
        const Result r = ipt_cli(dir, {"run", "imlincomb", "--param", "K=1", "--in", "A1=rgba.png:noalpha", "--json"});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j["inputs"][0]["file"], "rgba.png");
        EXPECT_EQ(j["outputs"][0]["channels"], 3);
        EXPECT_EQ(j["outputs"][0]["values"], nlohmann::json({1, 4, 2, 5, 3, 6})); // planes R, G, B
    }
    if (ipt::cli::tiff_available()) {
        crafted::write_file(dir / "two.tif", two_page_tiff());
        const Result refused = ipt_cli(dir, {"run", "imlincomb", "--param", "K=1", "--in", "A1=two.tif"});
        EXPECT_EQ(refused.exit_code, 3);
        EXPECT_NE(refused.err.find("two.tif: holds 2 pages"), std::string::npos) << refused.err;
        for (const auto& [page, values] : {std::pair{"1", nlohmann::json({1, 2})}, std::pair{"2", nlohmann::json({3, 4})}}) {
            const Result r = ipt_cli(dir, {"run", "imlincomb", "--param", "K=1", "--in", std::string("A1=two.tif:page=") + page,
                                           "--json"});
            ASSERT_EQ(r.exit_code, 0) << r.err;
            EXPECT_EQ(nlohmann::json::parse(r.out)["outputs"][0]["values"], values) << "page " << page;
        }
        const Result past = ipt_cli(dir, {"run", "imlincomb", "--param", "K=1", "--in", "A1=two.tif:page=3"});
        EXPECT_EQ(past.exit_code, 3);
        EXPECT_NE(past.err.find("has 2 pages, no page 3"), std::string::npos) << past.err;
    }
}

// Empty results of either orientation are printed and saved by their size at once.
TEST(CliRun, EmptyOutputsOfEitherShapeAreFast) {
    const auto dir = temp_dir();
    write_npy(dir / "k.npy", matrix(1, 1, {2}));
    for (const auto& [rows, cols] : {std::pair<int64_t, int64_t>{0, 2147483647}, {2147483647, 0}}) {
        const std::string size = std::to_string(rows) + "x" + std::to_string(cols);
        SCOPED_TRACE(size);
        write_npy(dir / "a.npy", HostImage::from_values(rows, cols, 1, std::vector<double>{}));
        const auto start = std::chrono::steady_clock::now();
        const Result r = ipt_cli(dir, {"run", "conv2", "--in", "A=a.npy", "--in", "B=k.npy", "--param", "shape=same",
                                       "--device", "0", "--out", "C=c.npy"});
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(r.out.find("[] (" + size + ")"), std::string::npos) << r.out;
        EXPECT_LT(seconds, 20.0);
        const HostImage c = ipt::cli::read_image((dir / "c.npy").string());
        EXPECT_EQ(c.rows, rows);
        EXPECT_EQ(c.cols, cols);
    }
}

// ---- ipt info ----------------------------------------------------------------------

TEST(CliInfo, JsonListsCpuPluginWithItsOps) {
    const auto dir = temp_dir();
    const Result r = ipt_cli(dir, {"info", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);

    const nlohmann::json* cpu = nullptr;
    for (const auto& p : j["plugins"])
        if (p["name"] == "cpu" && p["status"] == "loaded") cpu = &p;
    ASSERT_NE(cpu, nullptr) << "cpu plugin loaded: " << j["plugins"].dump();
    EXPECT_EQ((*cpu)["error"], "");
    EXPECT_FALSE((*cpu)["path"].get<std::string>().empty());
    EXPECT_FALSE((*cpu)["version"].get<std::string>().empty());
    const auto ops = (*cpu)["ops"].get<std::vector<std::string>>();
    EXPECT_NE(std::find(ops.begin(), ops.end(), "ipt.conv2"), ops.end()) << (*cpu)["ops"].dump();
    // The cpu plugin owns no device: it runs on the host, device 0.
    ASSERT_FALSE((*cpu)["devices"].empty()) << cpu->dump();
    EXPECT_EQ((*cpu)["devices"][0]["id"], 0);
    EXPECT_EQ((*cpu)["devices"][0]["kind"], "cpu");
    EXPECT_FALSE((*cpu)["devices"][0]["name"].get<std::string>().empty());

    // Top-level devices: the host is device 0.
    ASSERT_FALSE(j["devices"].empty());
    EXPECT_EQ(j["devices"][0]["id"], 0);

    // Every catalogue operator with its schema; conv2's 'shape' defaults to 'full' (MATLAB).
    const nlohmann::json* conv2 = nullptr;
    for (const auto& op : j["ops"])
        if (op["name"] == "ipt.conv2") conv2 = &op;
    ASSERT_NE(conv2, nullptr);
    EXPECT_EQ((*conv2)["matlab"], "conv2");
    bool saw_shape = false, saw_a = false;
    for (const auto& p : (*conv2)["params"]) {
        if (p["name"] == "shape") {
            saw_shape = true;
            EXPECT_EQ(p["kind"], "enum");
            EXPECT_EQ(p["default"], "full");
            EXPECT_EQ(p["values"], "full|same|valid");
        }
        if (p["name"] == "A") {
            saw_a = true;
            EXPECT_EQ(p["dtypes"], nlohmann::json({"single", "double"}));
        }
        if (p["name"] == "B") {
            EXPECT_EQ(p["flags"], nlohmann::json({"optional"}));
        }
    }
    EXPECT_TRUE(saw_shape);
    EXPECT_TRUE(saw_a);
    bool cpu_impl = false;
    for (const auto& impl : (*conv2)["implementations"]) cpu_impl |= impl["plugin"] == "cpu";
    EXPECT_TRUE(cpu_impl);
}

TEST(CliInfo, BrokenPluginIsReportedNotFatal) {
    const auto dir = temp_dir();
    std::ofstream(dir / "libbroken.so") << "this is not a shared object";
    const Result r = ipt_cli(dir, {"info", "--plugin", (dir / "libbroken.so").string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("cannot load plugin"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("libbroken.so"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("failed"), std::string::npos) << "the load-report entry: " << r.err;
}

TEST(CliInfo, DiscoveredBrokenPluginIsListedAsFailed) {
    const auto dir = temp_dir();
    fs::create_directories(dir / "plugins");
    std::ofstream(dir / "plugins" / "libipt_junk.so") << "not a shared object";
    const Result r = ipt_cli(dir, {"info", "--json"}, (dir / "plugins").string());
    ASSERT_EQ(r.exit_code, 0) << "a broken plugin never takes the program down: " << r.err;
    const auto j = nlohmann::json::parse(r.out);
    bool junk_failed = false, cpu_loaded = false;
    for (const auto& p : j["plugins"]) {
        if (p["path"].get<std::string>().find("libipt_junk.so") != std::string::npos) {
            junk_failed = p["status"] == "failed" && !p["error"].get<std::string>().empty() && p["ops"].empty();
            EXPECT_EQ(p["source"], "IPT_PLUGIN_PATH");
        }
        cpu_loaded |= p["name"] == "cpu" && p["status"] == "loaded";
    }
    EXPECT_TRUE(junk_failed) << j["plugins"].dump();
    EXPECT_TRUE(cpu_loaded);

    const Result text = ipt_cli(dir, {"info"}, (dir / "plugins").string());
    EXPECT_NE(text.out.find("failed  IPT_PLUGIN_PATH"), std::string::npos) << text.out;
}

TEST(CliInfo, TextShowsSections) {
    const auto dir = temp_dir();
    const Result r = ipt_cli(dir, {"info"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* section : {"Plugins", "Load report", "Devices", "Operators", "ipt.conv2 - 2-D convolution"})
        EXPECT_NE(r.out.find(section), std::string::npos) << section;
}

} // namespace

// ---- ipt demo --------------------------------------------------------------------

// The photo pipeline: a colour photo becomes grey first; each later step
// either runs (status ok) or is listed as not available in this build; a grey
// photo skips rgb2gray; a photo that cannot be read is a file error naming it.
TEST(CliDemo, PhotoPipeline) {
    if (!ipt::cli::png_available()) GTEST_SKIP() << "built without libpng: the demo writes a PNG contact sheet";
    const auto dir = temp_dir();
    std::vector<double> rgb;
    for (int ch = 0; ch < 3; ++ch)
        for (int i = 0; i < 12 * 16; ++i) rgb.push_back((i * (ch + 3)) % 256);
    write_npy(dir / "photo.npy", HostImage::from_values<uint8_t>(12, 16, 3, std::vector<uint8_t>(rgb.begin(), rgb.end())));
    const Result r = ipt_cli(dir, {"demo", "--size", "16", "--photo", "photo.npy", "--out", "sheet.png", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    const auto j = nlohmann::json::parse(r.out);
    const auto& steps = j["pipeline"];
    ASSERT_EQ(steps.size(), 5u) << r.out;
    EXPECT_EQ(steps[0]["op"], "ipt.rgb2gray");
    EXPECT_EQ(steps[0]["status"], "ok") << r.out;
    for (const auto& s : steps) {
        const std::string status = s["status"];
        EXPECT_TRUE(status == "ok" || status.rfind("skipped", 0) == 0) << s.dump();
    }
    EXPECT_TRUE(fs::exists(dir / "sheet.png"));

    write_npy(dir / "grey.npy", matrix(4, 5, std::vector<double>(20, 0.5)));
    const Result grey = ipt_cli(dir, {"demo", "--size", "16", "--photo", "grey.npy", "--out", "grey.png", "--json"});
    ASSERT_EQ(grey.exit_code, 0) << grey.err;
    EXPECT_EQ(nlohmann::json::parse(grey.out)["pipeline"][0]["status"], "skipped (the photo is grey)");

    const Result missing = ipt_cli(dir, {"demo", "--size", "16", "--photo", "nothere.png", "--out", "x.png"});
    EXPECT_EQ(missing.exit_code, 3);
    EXPECT_NE(missing.err.find("nothere.png"), std::string::npos) << missing.err;
    EXPECT_FALSE(fs::exists(dir / "x.png"));
}
