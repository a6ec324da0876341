// SPDX-License-Identifier: Apache-2.0
// ipt.conv2's plan (backends/common/ops/conv2.hpp) on hand-computed cases:
// MATLAB's full / same / valid sizes (including empty results), the position
// of C in the full convolution, the kernel size of conv2(u,v,A) and the
// class rule.
#include <gtest/gtest.h>

#include <vector>

#include "common/ops/conv2.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::Conv2Plan;
using ipt::frontend::Conv2Shape;
using ipt::frontend::plan_conv2;
using ipt::test::PlanCall;

struct Expect {
    int64_t rows, cols, first_r, first_c;
};

Conv2Plan plan_for(int64_t ma, int64_t na, int64_t mb, int64_t nb, const char* shape) {
    PlanCall call("ipt.conv2");
    call.image("A", IPT_DOUBLE, ma, na).image("B", IPT_DOUBLE, mb, nb).text("shape", shape);
    return plan_conv2(call.args());
}

void expect_geometry(const Conv2Plan& p, Expect e) {
    EXPECT_EQ(p.out_rows, e.rows);
    EXPECT_EQ(p.out_cols, e.cols);
    EXPECT_EQ(p.first_r, e.first_r);
    EXPECT_EQ(p.first_c, e.first_c);
}

TEST(Conv2Plan, ShapesOfA5x7WithB2x3) {
    // full: (5+2-1) x (7+3-1); same: size(A) from floor([2 3]/2) = (1, 1);
    // valid: (5-1) x (7-2) from (1, 2).
    expect_geometry(plan_for(5, 7, 2, 3, "full"), {6, 9, 0, 0});
    expect_geometry(plan_for(5, 7, 2, 3, "same"), {5, 7, 1, 1});
    expect_geometry(plan_for(5, 7, 2, 3, "valid"), {4, 5, 1, 2});
}

TEST(Conv2Plan, DefaultShapeIsFull) {
    PlanCall call("ipt.conv2");
    call.image("A", IPT_DOUBLE, 4, 4).image("B", IPT_DOUBLE, 3, 3);
    const Conv2Plan p = plan_conv2(call.args());
    EXPECT_EQ(p.shape, Conv2Shape::Full);
    expect_geometry(p, {6, 6, 0, 0});
}

TEST(Conv2Plan, OneByOne) {
    for (const char* shape : {"full", "same", "valid"}) expect_geometry(plan_for(1, 1, 1, 1, shape), {1, 1, 0, 0});
}

TEST(Conv2Plan, RowVectors) {
    // 1x4 with 1x2: full 1x5, same 1x4 from column 1, valid 1x3 from column 1.
    expect_geometry(plan_for(1, 4, 1, 2, "full"), {1, 5, 0, 0});
    expect_geometry(plan_for(1, 4, 1, 2, "same"), {1, 4, 0, 1});
    expect_geometry(plan_for(1, 4, 1, 2, "valid"), {1, 3, 0, 1});
    // Nx1 likewise down the rows.
    expect_geometry(plan_for(6, 1, 3, 1, "same"), {6, 1, 1, 0});
    expect_geometry(plan_for(6, 1, 3, 1, "valid"), {4, 1, 2, 0});
}

TEST(Conv2Plan, EvenKernelsTakeTheLowerCentre) {
    // 'same' starts at floor(size(B)/2): 4x4 -> (2, 2), 2x2 -> (1, 1); the
    // padded image then holds A's row 0 at kr-1-first.
    const Conv2Plan p4 = plan_for(8, 8, 4, 4, "same");
    expect_geometry(p4, {8, 8, 2, 2});
    EXPECT_EQ(p4.top(), 1);
    EXPECT_EQ(p4.left(), 1);
    const Conv2Plan p2 = plan_for(3, 5, 2, 2, "same");
    expect_geometry(p2, {3, 5, 1, 1});
    EXPECT_EQ(p2.top(), 0);
    EXPECT_EQ(p2.left(), 0);
    EXPECT_EQ(plan_for(3, 5, 2, 2, "full").top(), 1);
    EXPECT_EQ(plan_for(3, 5, 2, 2, "valid").top(), 0);
}

// The documented example conv2([1 2 3 4], [1 1], 'same') = [3 5 7 4]: the
// plan's window, read from the turned kernel correlated with the padded A.
TEST(Conv2Plan, SameMatchesMatlabsExample) {
    const std::vector<double> a = {1, 2, 3, 4}, b = {1, 1};
    const Conv2Plan p = plan_for(1, 4, 1, 2, "same");
    std::vector<double> c(static_cast<size_t>(p.out_cols), 0);
    for (int64_t j = 0; j < p.out_cols; ++j)
        for (int64_t t = 0; t < p.kc; ++t) {
            const int64_t q = j + t - p.left();  // column of A under turned tap t
            if (q >= 0 && q < 4) c[j] += b[static_cast<size_t>(p.kc - 1 - t)] * a[static_cast<size_t>(q)];
        }
    EXPECT_EQ(c, (std::vector<double>{3, 5, 7, 4}));
}

// The window of every shape agrees with a brute-force full convolution:
// C(r, c) = full(r + first_r, c + first_c), full(p, q) = sum A(i, j) B(p-i, q-j).
TEST(Conv2Plan, WindowsAgreeWithBruteForceFullConvolution) {
    const int64_t ma = 3, na = 4, mb = 2, nb = 3;
    std::vector<double> a(ma * na), b(mb * nb);
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<double>(i * i % 7) - 2;
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<double>(i % 4) + 0.5;
    auto full = [&](int64_t p, int64_t q) {
        double s = 0;
        for (int64_t i = 0; i < ma; ++i)
            for (int64_t j = 0; j < na; ++j)
                if (p - i >= 0 && p - i < mb && q - j >= 0 && q - j < nb) s += a[i * na + j] * b[(p - i) * nb + q - j];
        return s;
    };
    for (const char* shape : {"full", "same", "valid"}) {
        const Conv2Plan p = plan_for(ma, na, mb, nb, shape);
        for (int64_t r = 0; r < p.out_rows; ++r)
            for (int64_t c = 0; c < p.out_cols; ++c) {
                // The turned kernel over padded rows r..r+kr-1, A's row 0 at top().
                double s = 0;
                for (int64_t i = 0; i < mb; ++i)
                    for (int64_t j = 0; j < nb; ++j) {
                        const int64_t ar = r + i - p.top(), ac = c + j - p.left();
                        if (ar >= 0 && ar < ma && ac >= 0 && ac < na)
                            s += b[(mb - 1 - i) * nb + (nb - 1 - j)] * a[ar * na + ac];
                    }
                EXPECT_DOUBLE_EQ(s, full(r + p.first_r, c + p.first_c)) << shape << " at " << r << "," << c;
            }
    }
}

TEST(Conv2Plan, ValidCanBeEmpty) {
    // The kernel is larger than A: max(3-4, 0) = 0 rows and columns.
    expect_geometry(plan_for(3, 3, 5, 5, "valid"), {0, 0, 4, 4});
    // Larger in one dimension only: 3 x 0 (MATLAB: zeros(3, 0)).
    const Conv2Plan p = plan_for(4, 4, 2, 6, "valid");
    expect_geometry(p, {3, 0, 1, 5});
    EXPECT_TRUE(p.output_empty());
    // A kernel as large as A: 1x1.
    expect_geometry(plan_for(4, 6, 4, 6, "valid"), {1, 1, 3, 5});
}

TEST(Conv2Plan, EmptyOperands) {
    // Empty A: 'full' is max([ma+mb-1, ma, mb]), so a 0x0 A and a 3x3 B give 3x3.
    const Conv2Plan full = plan_for(0, 0, 3, 3, "full");
    expect_geometry(full, {3, 3, 0, 0});
    EXPECT_TRUE(full.operand_empty());
    EXPECT_FALSE(full.output_empty());
    expect_geometry(plan_for(0, 5, 3, 3, "same"), {0, 5, 1, 1});
    expect_geometry(plan_for(0, 5, 3, 3, "valid"), {0, 3, 2, 2});
    // An empty kernel (1x0): 'full' keeps size(A), 'valid' too.
    const Conv2Plan k = plan_for(4, 5, 1, 0, "full");
    expect_geometry(k, {4, 5, 0, 0});
    EXPECT_TRUE(k.operand_empty());
    expect_geometry(plan_for(4, 5, 1, 0, "valid"), {4, 5, 0, 0});
    expect_geometry(plan_for(4, 5, 1, 0, "same"), {4, 5, 0, 0});
}

TEST(Conv2Plan, SeparableKernelSizeIsNumelOfUAndV) {
    // conv2(u,v,A): u 1x3 (a row works too) and v 5x1 make a 3x5 kernel.
    PlanCall call("ipt.conv2");
    call.image("A", IPT_DOUBLE, 10, 12).image("u", IPT_DOUBLE, 1, 3).image("v", IPT_DOUBLE, 5, 1).text("shape", "same");
    const Conv2Plan p = plan_conv2(call.args());
    EXPECT_TRUE(p.separable);
    EXPECT_EQ(p.B, nullptr);
    EXPECT_NE(p.u, nullptr);
    EXPECT_NE(p.v, nullptr);
    EXPECT_EQ(p.kr, 3);
    EXPECT_EQ(p.kc, 5);
    expect_geometry(p, {10, 12, 1, 2});

    PlanCall valid("ipt.conv2");
    valid.image("A", IPT_DOUBLE, 10, 12).image("u", IPT_DOUBLE, 3, 1).image("v", IPT_DOUBLE, 1, 5);
    valid.text("shape", "valid");
    expect_geometry(plan_conv2(valid.args()), {8, 8, 2, 4});

    PlanCall b("ipt.conv2");
    b.image("A", IPT_DOUBLE, 10, 12).image("B", IPT_DOUBLE, 3, 5);
    EXPECT_FALSE(plan_conv2(b.args()).separable);
}

TEST(Conv2Plan, SingleOnlyWhenEveryInputIsSingle) {
    auto cls = [](int32_t a, int32_t b) {
        PlanCall call("ipt.conv2");
        call.image("A", a, 4, 4).image("B", b, 2, 2);
        return plan_conv2(call.args()).out_class;
    };
    EXPECT_EQ(cls(IPT_SINGLE, IPT_SINGLE), IPT_SINGLE);
    EXPECT_EQ(cls(IPT_SINGLE, IPT_DOUBLE), IPT_DOUBLE);
    EXPECT_EQ(cls(IPT_DOUBLE, IPT_SINGLE), IPT_DOUBLE);
    EXPECT_EQ(cls(IPT_DOUBLE, IPT_DOUBLE), IPT_DOUBLE);

    auto sep = [](int32_t a, int32_t u, int32_t v) {
        PlanCall call("ipt.conv2");
        call.image("A", a, 4, 4).image("u", u, 1, 3).image("v", v, 1, 3);
        return plan_conv2(call.args()).out_class;
    };
    EXPECT_EQ(sep(IPT_SINGLE, IPT_SINGLE, IPT_SINGLE), IPT_SINGLE);
    EXPECT_EQ(sep(IPT_SINGLE, IPT_SINGLE, IPT_DOUBLE), IPT_DOUBLE);
    EXPECT_EQ(sep(IPT_SINGLE, IPT_DOUBLE, IPT_SINGLE), IPT_DOUBLE);
    EXPECT_EQ(sep(IPT_DOUBLE, IPT_SINGLE, IPT_SINGLE), IPT_DOUBLE);
}

}  // namespace
