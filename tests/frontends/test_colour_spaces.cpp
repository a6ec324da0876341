// SPDX-License-Identifier: Apache-2.0
// Front-ends of the colour-space operators (rgb2hsv, hsv2rgb, rgb2ycbcr,
// ycbcr2rgb): output classes, the image and colormap layouts, the refusals,
// and the class-scaled BT.601 coefficients against hand computation.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/ops/hsv2rgb.hpp"
#include "common/ops/rgb2hsv.hpp"
#include "common/ops/rgb2ycbcr.hpp"
#include "common/ops/ycbcr2rgb.hpp"
#include "plan_call.hpp"

namespace {

using ipt::test::PlanCall;

ipt::common::ColourLayout hsv_plan(int32_t dtype, int64_t rows, int64_t cols, int64_t channels) {
    PlanCall call("ipt.rgb2hsv");
    call.image("RGB", dtype, rows, cols, channels);
    return ipt::frontend::plan_rgb2hsv(call.args());
}

std::string invalid_message(const char* op, const char* param, int32_t dtype, int64_t rows, int64_t cols,
                            int64_t channels) {
    PlanCall call(op);
    call.image(param, dtype, rows, cols, channels);
    try {
        const std::string o = op;
        if (o == "ipt.rgb2hsv") ipt::frontend::plan_rgb2hsv(call.args());
        else if (o == "ipt.hsv2rgb") ipt::frontend::plan_hsv2rgb(call.args());
        else if (o == "ipt.rgb2ycbcr") ipt::frontend::plan_rgb2ycbcr(call.args());
        else ipt::frontend::plan_ycbcr2rgb(call.args());
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        return e.message;
    }
    ADD_FAILURE() << "no error";
    return "";
}

TEST(ColourPlan, Rgb2hsvOutputIsDoubleExceptForSingle) {
    EXPECT_EQ(hsv_plan(IPT_UINT8, 4, 5, 3).out_dtype, IPT_DOUBLE);
    EXPECT_EQ(hsv_plan(IPT_UINT16, 4, 5, 3).out_dtype, IPT_DOUBLE);
    EXPECT_EQ(hsv_plan(IPT_DOUBLE, 4, 5, 3).out_dtype, IPT_DOUBLE);
    EXPECT_EQ(hsv_plan(IPT_SINGLE, 4, 5, 3).out_dtype, IPT_SINGLE);
}

TEST(ColourPlan, ImagesArePlanarAndColormapsAreRowsOfThree) {
    const auto img = hsv_plan(IPT_DOUBLE, 4, 5, 3);
    EXPECT_FALSE(img.colormap);
    EXPECT_EQ(img.pixels, 20);
    EXPECT_EQ(img.pixel_step, 1);
    EXPECT_EQ(img.plane_step, 20);
    EXPECT_EQ(img.rows, 4);
    EXPECT_EQ(img.cols, 5);
    EXPECT_EQ(img.channels, 3);
    const auto map = hsv_plan(IPT_DOUBLE, 7, 3, 1);
    EXPECT_TRUE(map.colormap);
    EXPECT_EQ(map.pixels, 7);
    EXPECT_EQ(map.pixel_step, 3);
    EXPECT_EQ(map.plane_step, 1);
    EXPECT_EQ(map.channels, 1);
    EXPECT_EQ(hsv_plan(IPT_UINT8, 0, 5, 3).pixels, 0);
    EXPECT_EQ(hsv_plan(IPT_UINT8, 1, 1, 3).pixels, 1);
    EXPECT_EQ(hsv_plan(IPT_UINT8, 1, 9, 3).pixels, 9);
    EXPECT_EQ(hsv_plan(IPT_UINT8, 9, 1, 3).pixels, 9);
    EXPECT_EQ(hsv_plan(IPT_DOUBLE, 0, 3, 1).pixels, 0);
}

TEST(ColourPlan, OtherClassesKeepTheirClass) {
    PlanCall h("ipt.hsv2rgb");
    h.image("HSV", IPT_LOGICAL, 2, 2, 3);
    EXPECT_EQ(ipt::frontend::plan_hsv2rgb(h.args()).out_dtype, IPT_DOUBLE);
    PlanCall hs("ipt.hsv2rgb");
    hs.image("HSV", IPT_SINGLE, 2, 2, 3);
    EXPECT_EQ(ipt::frontend::plan_hsv2rgb(hs.args()).out_dtype, IPT_SINGLE);
    for (int32_t d : {IPT_UINT8, IPT_UINT16, IPT_SINGLE, IPT_DOUBLE}) {
        PlanCall f("ipt.rgb2ycbcr");
        f.image("RGB", d, 2, 2, 3);
        EXPECT_EQ(ipt::frontend::plan_rgb2ycbcr(f.args()).layout.out_dtype, d);
        PlanCall b("ipt.ycbcr2rgb");
        b.image("YCBCR", d, 5, 3, 1);
        const auto p = ipt::frontend::plan_ycbcr2rgb(b.args());
        EXPECT_EQ(p.layout.out_dtype, d);
        EXPECT_TRUE(p.layout.colormap);
        EXPECT_EQ(p.matrix.clamp_unit, d == IPT_SINGLE || d == IPT_DOUBLE);
    }
}

TEST(ColourPlan, RefusesWhatIsNotThreeComponents) {
    EXPECT_NE(invalid_message("ipt.rgb2hsv", "RGB", IPT_DOUBLE, 4, 5, 1).find("m-by-n-by-3 image or a c-by-3 colormap"),
              std::string::npos);
    EXPECT_NE(invalid_message("ipt.hsv2rgb", "HSV", IPT_DOUBLE, 4, 4, 1).find("ipt.hsv2rgb: parameter 'HSV'"),
              std::string::npos);
    EXPECT_NE(invalid_message("ipt.rgb2ycbcr", "RGB", IPT_UINT8, 3, 2, 1).find("parameter 'RGB'"), std::string::npos);
    EXPECT_NE(invalid_message("ipt.ycbcr2rgb", "YCBCR", IPT_UINT8, 3, 1, 1).find("parameter 'YCBCR'"),
              std::string::npos);
    // MathWorks documents rgbmap as double.
    EXPECT_NE(invalid_message("ipt.rgb2hsv", "RGB", IPT_UINT8, 6, 3, 1).find("colormap must be double"),
              std::string::npos);
}

// Y of white (1,1,1) is 16 + 65.481 + 128.553 + 24.966 = 235; Cb and Cr of
// any grey are 128 (each row of T but the first sums to 0).
TEST(ColourPlan, Rgb2ycbcrCoefficientsPerClass) {
    const auto d = ipt::common::rgb2ycbcr_matrix(IPT_DOUBLE);
    EXPECT_DOUBLE_EQ(d.m[0][0], 65.481 / 255);
    EXPECT_DOUBLE_EQ(d.m[2][1], -93.786 / 255);
    EXPECT_DOUBLE_EQ(d.offset[0], 16.0 / 255);
    EXPECT_DOUBLE_EQ(d.offset[1], 128.0 / 255);
    EXPECT_FALSE(d.clamp_unit);
    const auto u8 = ipt::common::rgb2ycbcr_matrix(IPT_UINT8);
    EXPECT_DOUBLE_EQ(u8.m[1][2], 112.0 / 255);
    EXPECT_EQ(u8.offset[0], 16.0);
    EXPECT_EQ(u8.offset[2], 128.0);
    EXPECT_NEAR(u8.m[0][0] * 255 + u8.m[0][1] * 255 + u8.m[0][2] * 255 + u8.offset[0], 235.0, 1e-12);
    const auto u16 = ipt::common::rgb2ycbcr_matrix(IPT_UINT16);
    EXPECT_DOUBLE_EQ(u16.m[0][1], 128.553 * 257 / 65535);
    EXPECT_EQ(u16.offset[0], 16.0 * 257);  // 4112, MathWorks' lower end of Y for uint16
    EXPECT_NEAR(u16.m[0][0] * 65535 + u16.m[0][1] * 65535 + u16.m[0][2] * 65535 + u16.offset[0], 60395.0, 1e-9);
    EXPECT_NEAR(u16.m[1][0] * 65535 + u16.m[1][1] * 65535 + u16.m[1][2] * 65535 + u16.offset[1], 32896.0, 1e-9);
}

// The inverse maps [16 128 128] to black and [235 128 128] to white, and
// pure red's Y Cb Cr (81.481, 90.203, 240) back to (1, 0, 0).
TEST(ColourPlan, Ycbcr2rgbCoefficientsInvertTheForwardMap) {
    const auto m = ipt::common::ycbcr2rgb_matrix(IPT_DOUBLE);
    auto apply = [&](int i, double y, double cb, double cr) {
        return m.m[i][0] * y + m.m[i][1] * cb + m.m[i][2] * cr + m.offset[i];
    };
    for (int i = 0; i < 3; ++i) {
        EXPECT_NEAR(apply(i, 16.0 / 255, 128.0 / 255, 128.0 / 255), 0.0, 1e-13) << i;
        EXPECT_NEAR(apply(i, 235.0 / 255, 128.0 / 255, 128.0 / 255), 1.0, 1e-13) << i;
    }
    EXPECT_NEAR(apply(0, 81.481 / 255, 90.203 / 255, 240.0 / 255), 1.0, 1e-13);
    EXPECT_NEAR(apply(1, 81.481 / 255, 90.203 / 255, 240.0 / 255), 0.0, 1e-13);
    EXPECT_NEAR(apply(2, 81.481 / 255, 90.203 / 255, 240.0 / 255), 0.0, 1e-13);
    const auto u8 = ipt::common::ycbcr2rgb_matrix(IPT_UINT8);
    EXPECT_FALSE(u8.clamp_unit);
    EXPECT_NEAR(u8.m[0][0] * 235 + u8.m[0][1] * 128 + u8.m[0][2] * 128 + u8.offset[0], 255.0, 1e-10);
    const auto u16 = ipt::common::ycbcr2rgb_matrix(IPT_UINT16);
    EXPECT_NEAR(u16.m[2][0] * 60395 + u16.m[2][1] * 32896 + u16.m[2][2] * 32896 + u16.offset[2], 65535.0, 1e-8);
    EXPECT_NEAR(u16.m[1][0] * 4112 + u16.m[1][1] * 32896 + u16.m[1][2] * 32896 + u16.offset[1], 0.0, 1e-8);
}

}  // namespace
