// SPDX-License-Identifier: Apache-2.0
// ipt.dither's front-end: the gray form (logical, the colormap [0 0 0; 1 1 1])
// and the colormap form (uint8 or uint16 indices), the quantised colormap,
// the gray threshold and the inverse colormap, the pixel rules, and the
// rules the schema cannot express. The inverse colormap is checked against a
// brute-force search written here.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "common/ops/dither.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::DitherPlan;
using ipt::frontend::plan_dither;
using ipt::test::PlanCall;

DitherPlan gray_plan(int64_t rows, int64_t cols, int64_t qm = 5, int64_t qe = 8, int32_t dtype = IPT_UINT8) {
    PlanCall call("ipt.dither");
    call.image("I", dtype, rows, cols).integer("Qm", qm).integer("Qe", qe);
    return plan_dither(call.args());
}

DitherPlan rgb_plan(const std::vector<double>& map, int64_t rows = 4, int64_t cols = 5, int64_t qm = 5,
                    int64_t qe = 8, int32_t dtype = IPT_UINT8) {
    PlanCall call("ipt.dither");
    call.image("I", dtype, rows, cols, 3)
        .image("map", IPT_DOUBLE, static_cast<int64_t>(map.size() / 3), 3, 1, map.data())
        .integer("Qm", qm)
        .integer("Qe", qe);
    return plan_dither(call.args());
}

std::string invalid_message(PlanCall& call) {
    try {
        plan_dither(call.args());
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        return e.message;
    }
    ADD_FAILURE() << "no error";
    return "";
}

// Brute force: the nearest colour to each cell centre, ties to the lowest index.
std::vector<uint16_t> brute_inverse(const std::vector<int32_t>& mapq, int qm, int shift) {
    const int64_t side = int64_t(1) << qm, w = int64_t(1) << shift;
    std::vector<uint16_t> out;
    for (int64_t r = 0; r < side; ++r)
        for (int64_t g = 0; g < side; ++g)
            for (int64_t b = 0; b < side; ++b) {
                const int64_t c[3] = {r * w + w / 2, g * w + w / 2, b * w + w / 2};
                int64_t best = -1, best_d = 0;
                for (size_t k = 0; k < mapq.size() / 3; ++k) {
                    int64_t d = 0;
                    for (int a = 0; a < 3; ++a) d += (c[a] - mapq[3 * k + a]) * (c[a] - mapq[3 * k + a]);
                    if (best < 0 || d < best_d) best = static_cast<int64_t>(k), best_d = d;
                }
                out.push_back(static_cast<uint16_t>(best));
            }
    return out;
}

TEST(DitherPlan, GrayDefaults) {
    const DitherPlan p = gray_plan(5, 7);
    EXPECT_TRUE(p.gray);
    EXPECT_EQ(p.channels, 1);
    EXPECT_EQ(p.rows, 5);
    EXPECT_EQ(p.cols, 7);
    EXPECT_EQ(p.out_dtype, IPT_LOGICAL);
    EXPECT_EQ(p.qm, 5);
    EXPECT_EQ(p.qe, 8);
    EXPECT_EQ(p.shift, 3);   // max(5,8) - 5
    EXPECT_EQ(p.top, 255);   // 2^8 - 1
    EXPECT_EQ(p.bias, 8);    // 256 / 32
    EXPECT_EQ(p.mapq, (std::vector<int32_t>{0, 0, 0, 255, 255, 255}));
    // Level 127: cell 15, centre 124, nearer black; 128: cell 16, centre 132,
    // nearer white (MATLAB: white from 128/255).
    EXPECT_EQ(p.white_from, 128);
    EXPECT_TRUE(p.inverse.empty());  // the gray form needs only the threshold
}

TEST(DitherPlan, GrayThresholdPerQmQe) {
    // Qm=Qe=1: L=2, top 1, bias 0, cells 1 wide: level 1 is white.
    DitherPlan p = gray_plan(3, 3, 1, 1);
    EXPECT_EQ(p.top, 1);
    EXPECT_EQ(p.bias, 0);
    EXPECT_EQ(p.shift, 0);
    EXPECT_EQ(p.white_from, 1);
    // Qm=4, Qe=6: top 63, bias 2, cells 4 wide, centre 4*cell+2 > 31.5 from cell 8.
    p = gray_plan(3, 3, 4, 6);
    EXPECT_EQ(p.top, 63);
    EXPECT_EQ(p.bias, 2);
    EXPECT_EQ(p.shift, 2);
    EXPECT_EQ(p.white_from, 32);
    // Qm=Qe=8: centre = level: white above 127.5.
    EXPECT_EQ(gray_plan(3, 3, 8, 8).white_from, 128);
    // Qm=3, Qe=16: cells 8192 wide, centre 8192*cell+4096 > 32767.5 from cell 4.
    p = gray_plan(3, 3, 3, 16);
    EXPECT_EQ(p.top, 65535);
    EXPECT_EQ(p.bias, 2048);
    EXPECT_EQ(p.shift, 13);
    EXPECT_EQ(p.white_from, 32768);
    EXPECT_EQ(gray_plan(3, 3, 16, 16).white_from, 32768);
}

TEST(DitherPlan, GrayEveryClassAndShape) {
    for (int32_t dt : {IPT_UINT8, IPT_UINT16, IPT_SINGLE, IPT_DOUBLE})
        for (const auto& [r, c] : {std::pair<int64_t, int64_t>{0, 0}, {0, 3}, {1, 1}, {1, 6}, {6, 1}}) {
            const DitherPlan p = gray_plan(r, c, 5, 8, dt);
            EXPECT_EQ(p.rows, r);
            EXPECT_EQ(p.cols, c);
            EXPECT_EQ(p.out_dtype, IPT_LOGICAL);
        }
}

TEST(DitherPlan, ColormapQuantisedAndOutputClass) {
    // floor(map*255 + 0.5): 0.5 -> 128, 0.2 -> 51, 1 -> 255, 0.1 -> 26.
    const DitherPlan p = rgb_plan({0, 0.5, 1, 0.2, 0.1, 0});
    EXPECT_FALSE(p.gray);
    EXPECT_EQ(p.channels, 3);
    EXPECT_EQ(p.colours(), 2);
    EXPECT_EQ(p.mapq, (std::vector<int32_t>{0, 128, 255, 51, 26, 0}));
    EXPECT_EQ(p.out_dtype, IPT_UINT8);
    // Qm=4, Qe=6 (top 63): 0.1 -> floor(6.3+0.5) = 6, 0.5 -> floor(32) = 32.
    EXPECT_EQ(rgb_plan({0.1, 0.5, 1}, 2, 2, 4, 6).mapq, (std::vector<int32_t>{6, 32, 63}));
}

TEST(DitherPlan, IndicesAreUint8UpTo256Colours) {
    EXPECT_EQ(rgb_plan(std::vector<double>(3, 0.5)).out_dtype, IPT_UINT8);          // 1 colour
    EXPECT_EQ(rgb_plan(std::vector<double>(256 * 3, 0.5)).out_dtype, IPT_UINT8);    // 256
    EXPECT_EQ(rgb_plan(std::vector<double>(257 * 3, 0.5)).out_dtype, IPT_UINT16);   // 257
    EXPECT_EQ(rgb_plan(std::vector<double>(65536 * 3, 0.5), 1, 1).out_dtype, IPT_UINT16);
}

TEST(DitherPlan, InverseColormapTiesGoToTheLowestIndex) {
    // Red and blue: cell (0,0,0), centre (4,4,4), is as far from both.
    const DitherPlan p = rgb_plan({1, 0, 0, 0, 0, 1});
    ASSERT_EQ(p.inverse.size(), size_t(1) << 15);  // 32^3 cells
    auto cell = [](int r, int g, int b) { return static_cast<size_t>(((r << 5) | g) << 5 | b); };
    EXPECT_EQ(p.inverse[cell(0, 0, 0)], 0);
    EXPECT_EQ(p.inverse[cell(31, 0, 0)], 0);
    EXPECT_EQ(p.inverse[cell(0, 0, 31)], 1);
    EXPECT_EQ(p.inverse[cell(31, 31, 31)], 0);  // (255-252)^2+... equal again: red
    // Repeated colours: the first of each pair.
    const DitherPlan rep = rgb_plan({0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1});
    for (uint16_t v : rep.inverse) EXPECT_LT(v, 2);
}

TEST(DitherPlan, InverseColormapMatchesBruteForce) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(0, 1);
    struct Case {
        int colours;
        int64_t qm, qe;
    };
    for (const Case& c : {Case{1, 5, 8}, Case{2, 5, 8}, Case{16, 4, 6}, Case{300, 5, 8}, Case{64, 1, 1},
                          Case{40, 3, 16}, Case{9, 6, 10}, Case{5, 6, 8}, Case{2000, 4, 16}}) {
        std::vector<double> map(static_cast<size_t>(c.colours) * 3);
        for (double& v : map) v = u(rng);
        // A few exact repeats and grid values for ties.
        if (c.colours >= 4) {
            for (int a = 0; a < 3; ++a) map[3 + a] = map[a];
            map[6] = 0.5, map[7] = 0.5, map[8] = 0.5;
        }
        const DitherPlan p = rgb_plan(map, 3, 3, c.qm, c.qe);
        EXPECT_EQ(p.inverse, brute_inverse(p.mapq, p.qm, p.shift))
            << c.colours << " colours, Qm " << c.qm << ", Qe " << c.qe;
    }
}

TEST(DitherPlan, ClusteredColoursMatchBruteForce) {
    // Many colours in one corner: most cells search far.
    std::vector<double> map;
    for (int i = 0; i < 500; ++i) map.insert(map.end(), {0.01 * (i % 7), 0.01 * (i % 5), 0.01 * (i % 3)});
    const DitherPlan p = rgb_plan(map);
    EXPECT_EQ(p.inverse, brute_inverse(p.mapq, p.qm, p.shift));
}

TEST(DitherPlan, InverseTabledUpToQm6) {
    EXPECT_EQ(rgb_plan({0, 0, 0, 1, 1, 1}, 2, 2, 6, 8).inverse.size(), size_t(1) << 18);
    EXPECT_TRUE(rgb_plan({0, 0, 0, 1, 1, 1}, 2, 2, 7, 8).inverse.empty());
    EXPECT_TRUE(rgb_plan({0, 0, 0, 1, 1, 1}, 0, 5).inverse.empty());  // nothing to dither
}

TEST(DitherPlan, PixelRules) {
    // floor(v*(L-1)/255 + 0.5)
    for (int v = 0; v < 256; ++v) EXPECT_EQ(ipt::frontend::dither_level(v, 255), v);
    EXPECT_EQ(ipt::frontend::dither_level(255, 63), 63);
    EXPECT_EQ(ipt::frontend::dither_level(128, 63), 32);  // 31.62 + 0.5
    EXPECT_EQ(ipt::frontend::dither_level(127, 1), 0);    // 0.498 + 0.5
    EXPECT_EQ(ipt::frontend::dither_level(128, 1), 1);    // 0.502 + 0.5
    EXPECT_EQ(ipt::frontend::dither_level(255, 65535), 65535);
    // sign(e) * floor((bias + n|e|) / 16)
    EXPECT_EQ(ipt::frontend::dither_share(10, 7, 8), 4);    // 78/16
    EXPECT_EQ(ipt::frontend::dither_share(-10, 7, 8), -4);
    EXPECT_EQ(ipt::frontend::dither_share(1, 1, 8), 0);     // 9/16
    EXPECT_EQ(ipt::frontend::dither_share(8, 1, 8), 1);     // 16/16
    EXPECT_EQ(ipt::frontend::dither_share(0, 7, 2048), 0);  // no error, no share
    // The nearest colour of a cell, ties to the lowest index.
    const std::vector<int32_t> mapq = {255, 0, 0, 0, 0, 255};
    EXPECT_EQ(ipt::frontend::dither_nearest_colour(mapq, 3, 0, 0, 0), 0);
    EXPECT_EQ(ipt::frontend::dither_nearest_colour(mapq, 3, 0, 0, 20), 1);
}

TEST(DitherPlan, GrayFormNeedsOneChannel) {
    PlanCall call("ipt.dither");
    call.image("I", IPT_UINT8, 4, 4, 3);
    const std::string m = invalid_message(call);
    EXPECT_NE(m.find("ipt.dither"), std::string::npos) << m;
    EXPECT_NE(m.find("'I'"), std::string::npos) << m;
}

TEST(DitherPlan, ColormapFormNeedsRgb) {
    const std::vector<double> map = {0, 0, 0, 1, 1, 1};
    PlanCall call("ipt.dither");
    call.image("I", IPT_UINT8, 4, 4, 1).image("map", IPT_DOUBLE, 2, 3, 1, map.data());
    EXPECT_NE(invalid_message(call).find("'I'"), std::string::npos);
}

TEST(DitherPlan, ColormapValuesMustBeIn01) {
    for (double bad : {-0.1, 1.5, std::nan("")}) {
        const std::vector<double> map = {0, 0, 0, 1, bad, 1};
        PlanCall call("ipt.dither");
        call.image("I", IPT_UINT8, 4, 4, 3).image("map", IPT_DOUBLE, 2, 3, 1, map.data());
        EXPECT_NE(invalid_message(call).find("'map'"), std::string::npos) << bad;
    }
}

TEST(DitherPlan, AtMost65536Colours) {
    const std::vector<double> map(65537 * 3, 0.5);
    PlanCall call("ipt.dither");
    call.image("I", IPT_UINT8, 1, 1, 3).image("map", IPT_DOUBLE, 65537, 3, 1, map.data());
    EXPECT_NE(invalid_message(call).find("'map'"), std::string::npos);
}

}  // namespace
