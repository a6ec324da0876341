// SPDX-License-Identifier: Apache-2.0
// ipt.imresize's front-end: output sizes ceil(scale * size), the aspect ratio
// kept for a NaN size, the dimension order, kernels, antialiasing defaults,
// contributions computed by hand, and each error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/ops/imresize.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::ImresizeKernel;
using ipt::frontend::ImresizePlan;
using ipt::frontend::plan_imresize;
using ipt::test::PlanCall;

ImresizePlan plan(int32_t dtype, int64_t rows, int64_t cols, const char* param, std::vector<double> v,
                  const char* method = "bicubic", int aa = -1, int64_t channels = 1) {
    PlanCall call("ipt.imresize");
    call.image("A", dtype, rows, cols, channels).floats(param, std::move(v)).text("method", method);
    if (aa >= 0) call.integer("Antialiasing", aa);
    return plan_imresize(call.args());
}

void expect_invalid(const char* param, std::vector<double> v, const char* needle, const char* method = "bicubic") {
    try {
        plan(IPT_UINT8, 4, 6, param, std::move(v), method);
        ADD_FAILURE() << "no error";
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        EXPECT_NE(e.message.find(needle), std::string::npos) << e.message;
    }
}

TEST(ImresizePlan, SizesFromScale) {
    ImresizePlan p = plan(IPT_UINT8, 7, 9, "Scale", {0.5});
    EXPECT_EQ(p.out_rows, 4);  // ceil(3.5)
    EXPECT_EQ(p.out_cols, 5);  // ceil(4.5)
    EXPECT_EQ(p.dtype, IPT_UINT8);
    EXPECT_EQ(p.work_dtype, IPT_UINT8);
    p = plan(IPT_DOUBLE, 7, 9, "Scale", {2, 3}, "bicubic", -1, 3);
    EXPECT_EQ(p.out_rows, 14);
    EXPECT_EQ(p.out_cols, 27);
    EXPECT_EQ(p.channels, 3);
    p = plan(IPT_UINT16, 7, 9, "Scale", {2, 3}, "bicubic", -1, 5);  // any number of planes
    EXPECT_EQ(p.out_rows, 14);
    EXPECT_EQ(p.out_cols, 27);
    EXPECT_EQ(p.channels, 5);
    // 1.1 * 50 is 55.00000000000001 in double: ceil gives 56.
    p = plan(IPT_SINGLE, 50, 1, "Scale", {1.1});
    EXPECT_EQ(p.out_rows, 56);
    EXPECT_EQ(p.out_cols, 2);  // ceil(1.1)
    p = plan(IPT_LOGICAL, 2, 2, "Scale", {1.5});
    EXPECT_EQ(p.work_dtype, IPT_UINT8);
    EXPECT_EQ(p.dtype, IPT_LOGICAL);
}

TEST(ImresizePlan, SizesFromOutputSize) {
    ImresizePlan p = plan(IPT_UINT8, 20, 40, "OutputSize", {NAN, 10});
    EXPECT_EQ(p.out_rows, 5);
    EXPECT_EQ(p.out_cols, 10);
    EXPECT_EQ(p.axis[0].scale, 0.25);
    EXPECT_EQ(p.axis[1].scale, 0.25);
    p = plan(IPT_UINT8, 10, 3, "OutputSize", {7, NAN});
    EXPECT_EQ(p.out_rows, 7);
    EXPECT_EQ(p.out_cols, 3);  // ceil(2.1)
    EXPECT_EQ(p.axis[1].scale, 0.7);
    p = plan(IPT_UINT8, 10, 4, "OutputSize", {5, 12});
    EXPECT_EQ(p.axis[0].scale, 0.5);
    EXPECT_EQ(p.axis[1].scale, 3);
    EXPECT_EQ(p.first, 0);  // rows shrink more
}

TEST(ImresizePlan, DimensionOrder) {
    EXPECT_EQ(plan(IPT_UINT8, 4, 4, "Scale", {2, 0.5}).first, 1);
    EXPECT_EQ(plan(IPT_UINT8, 4, 4, "Scale", {0.5, 2}).first, 0);
    EXPECT_EQ(plan(IPT_UINT8, 4, 4, "Scale", {2}).first, 0);
}

TEST(ImresizePlan, KernelsAndAntialiasingDefaults) {
    ImresizePlan p = plan(IPT_UINT8, 4, 4, "Scale", {0.5}, "nearest");
    EXPECT_EQ(p.kernel, ImresizeKernel::Box);
    EXPECT_FALSE(p.antialiasing);
    EXPECT_TRUE(plan(IPT_UINT8, 4, 4, "Scale", {0.5}, "nearest", 1).antialiasing);
    p = plan(IPT_UINT8, 4, 4, "Scale", {0.5}, "bilinear");
    EXPECT_EQ(p.kernel, ImresizeKernel::Triangle);
    EXPECT_EQ(p.kernel_width, 2);
    EXPECT_TRUE(p.antialiasing);
    EXPECT_FALSE(plan(IPT_UINT8, 4, 4, "Scale", {0.5}, "bilinear", 0).antialiasing);
    EXPECT_EQ(plan(IPT_UINT8, 4, 4, "Scale", {0.5}, "bicubic").kernel, ImresizeKernel::Cubic);
    EXPECT_EQ(plan(IPT_UINT8, 4, 4, "Scale", {0.5}, "lanczos2").kernel_width, 4);
    EXPECT_EQ(plan(IPT_UINT8, 4, 4, "Scale", {0.5}, "lanczos3").kernel_width, 6);
    EXPECT_EQ(plan(IPT_UINT8, 4, 4, "Scale", {0.5}, "box").kernel_width, 1);
}

// The cubic (a = -0.5) by hand: 1.5|x|^3 - 2.5|x|^2 + 1 inside 1,
// -0.5|x|^3 + 2.5|x|^2 - 4|x| + 2 inside 2.
TEST(ImresizePlan, KernelValues) {
    using ipt::frontend::imresize_kernel;
    EXPECT_EQ(imresize_kernel(ImresizeKernel::Cubic, 0), 1);
    EXPECT_EQ(imresize_kernel(ImresizeKernel::Cubic, 0.25), 0.8671875);
    EXPECT_EQ(imresize_kernel(ImresizeKernel::Cubic, -0.75), 0.2265625);
    EXPECT_EQ(imresize_kernel(ImresizeKernel::Cubic, 1.25), -0.0703125);
    EXPECT_EQ(imresize_kernel(ImresizeKernel::Cubic, 1.75), -0.0234375);
    EXPECT_EQ(imresize_kernel(ImresizeKernel::Cubic, 2), 0);
    EXPECT_EQ(imresize_kernel(ImresizeKernel::Triangle, -0.25), 0.75);
    EXPECT_EQ(imresize_kernel(ImresizeKernel::Triangle, 1), 0);
    EXPECT_EQ(imresize_kernel(ImresizeKernel::Box, -0.5), 1);
    EXPECT_EQ(imresize_kernel(ImresizeKernel::Box, 0.5), 0);
    // Lanczos at 0 is (0 + eps) / (0 + eps) = 1, and 0 from its support on.
    EXPECT_EQ(imresize_kernel(ImresizeKernel::Lanczos2, 0), 1);
    EXPECT_EQ(imresize_kernel(ImresizeKernel::Lanczos2, 2), 0);
    EXPECT_EQ(imresize_kernel(ImresizeKernel::Lanczos3, 3), 0);
    // sin(pi/2) sin(pi/6) / (pi^2 0.25 / 3) = 6 / pi^2.
    EXPECT_NEAR(imresize_kernel(ImresizeKernel::Lanczos3, 0.5), 6 / (M_PI * M_PI),
                1e-15);
}

// 2x bicubic of a length-4 row: u = x/2 + 0.25, four taps (the two outer of
// the six candidates weigh 0 for every x), reflected indices.
TEST(ImresizePlan, BicubicDoublingContributions) {
    const ImresizePlan p = plan(IPT_DOUBLE, 1, 4, "OutputSize", {1, 8});
    const auto& ax = p.axis[1];
    ASSERT_EQ(ax.taps, 4);
    ASSERT_EQ(ax.out_length, 8);
    const std::vector<double> odd = {-0.0234375, 0.2265625, 0.8671875, -0.0703125};   // x = 1, 3, 5, 7
    const std::vector<double> even = {-0.0703125, 0.8671875, 0.2265625, -0.0234375};  // x = 2, 4, 6, 8
    for (int x = 0; x < 8; ++x)
        for (int k = 0; k < 4; ++k) EXPECT_EQ(ax.weights[x * 4 + k], (x % 2 ? even : odd)[k]) << x << " " << k;
    // x = 1: j = -1, 0, 1, 2 -> 2, 1, 1, 2 (1-based); x = 8: j = 3..6 -> 3, 4, 4, 3.
    EXPECT_EQ(std::vector<int32_t>(ax.indices.begin(), ax.indices.begin() + 4), (std::vector<int32_t>{1, 0, 0, 1}));
    EXPECT_EQ(std::vector<int32_t>(ax.indices.end() - 4, ax.indices.end()), (std::vector<int32_t>{2, 3, 3, 2}));
    // The row dimension keeps its size: one tap of weight 1.
    EXPECT_EQ(p.axis[0].taps, 1);
    EXPECT_EQ(p.axis[0].weights[0], 1);
}

// Halving with antialiasing, by hand: u = 2x - 0.5 and the kernel widened by
// 2, h(d) = 0.5 k(d / 2). Bicubic: d = +-0.5, 1.5, 2.5, 3.5 give Keys' cubic at
// 0.25, 0.75, 1.25, 1.75, that is 111, 29, -9, -3 over 128, so the weights
// (they sum to 1) are those over 256; +-4.5 weighs 0 everywhere and is
// dropped. Bilinear: the triangle at 0.25 and 0.75, 3 and 1 over 8. Box: two
// halves. For output 4 (u = 7.5) the first kept tap is input 4 (bicubic,
// d = 3.5), 6 (bilinear, d = 1.5) or 7 (box, d = 0.5), 1-based. Every weight
// is a small integer over a power of two, exactly (the GPU plugins sum such
// weights in integers).
TEST(ImresizePlan, HalvingContributionsAreDyadic) {
    struct Case {
        const char* method;
        std::vector<double> numerators;
        double denominator;
        int32_t first;  // 0-based index of the first tap of output x = 4 (1-based)
    };
    for (const Case& c : {Case{"bicubic", {-3, -9, 29, 111, 111, 29, -9, -3}, 256, 3},
                          Case{"bilinear", {1, 3, 3, 1}, 8, 5}, Case{"box", {1, 1}, 2, 6}}) {
        const ImresizePlan p = plan(IPT_UINT8, 16, 1, "Scale", {0.5}, c.method);
        const auto& ax = p.axis[0];
        ASSERT_EQ(ax.taps, static_cast<int32_t>(c.numerators.size())) << c.method;
        for (int32_t k = 0; k < ax.taps; ++k) {
            EXPECT_EQ(ax.weights[3 * ax.taps + k], c.numerators[k] / c.denominator) << c.method << " tap " << k;
            EXPECT_EQ(ax.indices[3 * ax.taps + k], c.first + k) << c.method << " tap " << k;
        }
    }
}

// 'nearest' halving: u = 2x - 0.5 is 1.5 and 3.5; the box takes j = 2 and 4.
TEST(ImresizePlan, NearestHalving) {
    const ImresizePlan p = plan(IPT_UINT8, 4, 1, "Scale", {0.5}, "nearest");
    ASSERT_EQ(p.axis[0].taps, 1);
    EXPECT_EQ(std::vector<int32_t>(p.axis[0].indices.begin(), p.axis[0].indices.end()), (std::vector<int32_t>{1, 3}));
    EXPECT_EQ(std::vector<double>(p.axis[0].weights.begin(), p.axis[0].weights.end()), (std::vector<double>{1, 1}));
}

// Plans of one geometry share their tables; another geometry, kernel or
// antialiasing gets its own, equal to a fresh computation.
TEST(ImresizePlan, TablesAreSharedPerGeometry) {
    const ImresizePlan a = plan(IPT_UINT8, 40, 40, "Scale", {0.5});
    const ImresizePlan b = plan(IPT_SINGLE, 40, 40, "Scale", {0.5});
    EXPECT_EQ(a.axis[0].tables, a.axis[1].tables);  // square: both dimensions alike
    EXPECT_EQ(a.axis[0].tables, b.axis[0].tables);
    const ImresizePlan c = plan(IPT_UINT8, 40, 40, "Scale", {0.5}, "bilinear");
    const ImresizePlan d = plan(IPT_UINT8, 40, 40, "Scale", {0.5}, "bicubic", 0);
    const ImresizePlan e = plan(IPT_UINT8, 41, 40, "Scale", {0.5});
    EXPECT_NE(a.axis[0].tables, c.axis[0].tables);
    EXPECT_NE(a.axis[0].tables, d.axis[0].tables);
    EXPECT_NE(a.axis[0].tables, e.axis[0].tables);
    EXPECT_EQ(a.axis[1].tables, e.axis[1].tables);
    for (const ImresizePlan* p : {&a, &c, &d, &e})
        for (int dim = 0; dim < 2; ++dim) {
            const auto& ax = p->axis[dim];
            const auto fresh = ipt::frontend::imresize_contributions(ax.in_length, ax.out_length, ax.scale, p->kernel,
                                                                     p->kernel_width, p->antialiasing);
            ASSERT_EQ(ax.taps, fresh.taps);
            EXPECT_TRUE(std::equal(ax.indices.begin(), ax.indices.end(), fresh.indices.begin(), fresh.indices.end()));
            EXPECT_TRUE(std::equal(ax.weights.begin(), ax.weights.end(), fresh.weights.begin(), fresh.weights.end()));
        }
    // More geometries than the cache holds: the first is computed again, alike.
    for (int n = 50; n < 70; ++n) plan(IPT_UINT8, n, n, "Scale", {0.5});
    const ImresizePlan again = plan(IPT_UINT8, 40, 40, "Scale", {0.5});
    EXPECT_TRUE(std::equal(again.axis[0].weights.begin(), again.axis[0].weights.end(), a.axis[0].weights.begin(),
                           a.axis[0].weights.end()));
}

TEST(ImresizePlan, Fold) {
    using ipt::frontend::imresize_fold;
    // [1 2 3 | 3 2 1] repeating, 0-based out.
    EXPECT_EQ(imresize_fold(1, 3), 0);
    EXPECT_EQ(imresize_fold(0, 3), 0);
    EXPECT_EQ(imresize_fold(-1, 3), 1);
    EXPECT_EQ(imresize_fold(4, 3), 2);
    EXPECT_EQ(imresize_fold(6, 3), 0);
    EXPECT_EQ(imresize_fold(7, 3), 0);
    EXPECT_EQ(imresize_fold(-5, 3), 0);
    EXPECT_EQ(imresize_fold(5, 1), 0);
}

TEST(ImresizePlan, Errors) {
    expect_invalid("Scale", {0}, "'Scale'");
    expect_invalid("Scale", {-1}, "'Scale'");
    expect_invalid("Scale", {1, -1}, "'Scale'");
    expect_invalid("OutputSize", {0, 3}, "'OutputSize'");
    expect_invalid("OutputSize", {2.5, 3}, "'OutputSize'");
    expect_invalid("OutputSize", {NAN, NAN}, "'OutputSize'");
    expect_invalid("OutputSize", {INFINITY, 3}, "'OutputSize'");
    expect_invalid("Scale", {2}, "'method'", "spline");
    PlanCall none("ipt.imresize");
    none.image("A", IPT_UINT8, 2, 2);
    EXPECT_THROW(plan_imresize(none.args()), ipt::plugin::Error);
}

}  // namespace
