// SPDX-License-Identifier: Apache-2.0
// The plan of ipt.medfilt2 (backends/common/ops/medfilt2.hpp) on hand-computed
// cases: window and centre, the middle orders and how an even window combines
// them, padding, output class, and the bounds of the window size.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/ops/medfilt2.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::Medfilt2Plan;
using ipt::frontend::MedianRule;
using ipt::frontend::plan_medfilt2;
using ipt::test::PlanCall;
namespace order = ipt::frontend::order;

constexpr int32_t kClasses[] = {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16,
                                IPT_INT32,   IPT_UINT32, IPT_SINGLE, IPT_DOUBLE};

Medfilt2Plan plan_of(int32_t cls, int64_t rows, int64_t cols, std::vector<double> size = {},
                     const char* pad = nullptr) {
    PlanCall call("ipt.medfilt2");
    call.image("A", cls, rows, cols);
    if (!size.empty()) call.floats("size", std::move(size));
    if (pad) call.text("padopt", pad);
    return plan_medfilt2(call.args());
}

TEST(Medfilt2Plan, Defaults) {
    // [3 3] and 'zeros'.
    const Medfilt2Plan p = plan_of(IPT_UINT8, 5, 7);
    EXPECT_EQ(p.rows, 5);
    EXPECT_EQ(p.cols, 7);
    EXPECT_EQ(p.a_class, IPT_UINT8);
    EXPECT_EQ(p.window_rows, 3);
    EXPECT_EQ(p.window_cols, 3);
    EXPECT_EQ(p.centre_row, 1);
    EXPECT_EQ(p.centre_col, 1);
    EXPECT_EQ(p.count, 9);
    EXPECT_EQ(p.order, 5);
    EXPECT_EQ(p.rule, MedianRule::Middle);
    EXPECT_FALSE(p.two_orders());
    EXPECT_EQ(p.pad.kind, order::Pad::Constant);
    EXPECT_EQ(p.pad.value, 0.0);
}

TEST(Medfilt2Plan, OneByOne) {
    const Medfilt2Plan p = plan_of(IPT_DOUBLE, 4, 4, {1, 1});
    EXPECT_EQ(p.count, 1);
    EXPECT_EQ(p.order, 1);
    EXPECT_EQ(p.rule, MedianRule::Middle);
    EXPECT_EQ(p.centre_row, 0);
    EXPECT_EQ(p.centre_col, 0);
}

TEST(Medfilt2Plan, RowAndColumnWindows) {
    // [1 7]: odd, the 4th of 7; centre column 4 (1-based).
    const Medfilt2Plan row = plan_of(IPT_INT16, 1, 9, {1, 7});
    EXPECT_EQ(row.count, 7);
    EXPECT_EQ(row.order, 4);
    EXPECT_EQ(row.rule, MedianRule::Middle);
    EXPECT_EQ(row.centre_row, 0);
    EXPECT_EQ(row.centre_col, 3);
    // [4 1]: even, orders 2 and 3; centre row 2 (1-based): rows -1..+2.
    const Medfilt2Plan col = plan_of(IPT_INT16, 9, 1, {4, 1});
    EXPECT_EQ(col.count, 4);
    EXPECT_EQ(col.order, 2);
    EXPECT_EQ(col.rule, MedianRule::MeanRoundHalfAway);
    EXPECT_EQ(col.centre_row, 1);
    EXPECT_EQ(col.centre_col, 0);
}

TEST(Medfilt2Plan, EvenWindowRulePerClass) {
    for (int32_t cls : kClasses) {
        const Medfilt2Plan p = plan_of(cls, 6, 6, {2, 2});
        EXPECT_EQ(p.count, 4);
        EXPECT_EQ(p.order, 2);  // the lower middle; the upper is 3
        EXPECT_TRUE(p.two_orders());
        EXPECT_EQ(p.centre_row, 0);  // A(r:r+1, c:c+1)
        EXPECT_EQ(p.centre_col, 0);
        EXPECT_EQ(p.a_class, cls);
        const MedianRule want = cls == IPT_LOGICAL                          ? MedianRule::Upper
                                : (cls == IPT_SINGLE || cls == IPT_DOUBLE) ? MedianRule::Mean
                                                                           : MedianRule::MeanRoundHalfAway;
        EXPECT_EQ(p.rule, want) << "class " << cls;
    }
}

TEST(Medfilt2Plan, OddWindowIsTheMiddleForEveryClass) {
    for (int32_t cls : kClasses) {
        const Medfilt2Plan p = plan_of(cls, 6, 6, {5, 3});
        EXPECT_EQ(p.count, 15);
        EXPECT_EQ(p.order, 8);
        EXPECT_EQ(p.rule, MedianRule::Middle) << "class " << cls;
        EXPECT_EQ(p.centre_row, 2);
        EXPECT_EQ(p.centre_col, 1);
    }
}

TEST(Medfilt2Plan, MixedEvenSizes) {
    // [4 3]: N = 12 even, orders 6 and 7; centre (2, 2), 1-based.
    const Medfilt2Plan a = plan_of(IPT_SINGLE, 6, 6, {4, 3});
    EXPECT_EQ(a.order, 6);
    EXPECT_EQ(a.centre_row, 1);
    EXPECT_EQ(a.centre_col, 1);
    // [2 3]: N = 6; [3 4]: N = 12; [4 4]: N = 16.
    EXPECT_EQ(plan_of(IPT_SINGLE, 6, 6, {2, 3}).order, 3);
    EXPECT_EQ(plan_of(IPT_SINGLE, 6, 6, {3, 4}).order, 6);
    EXPECT_EQ(plan_of(IPT_SINGLE, 6, 6, {4, 4}).order, 8);
    EXPECT_EQ(plan_of(IPT_SINGLE, 6, 6, {4, 4}).centre_row, 1);
}

TEST(Medfilt2Plan, Padding) {
    for (int32_t cls : kClasses) {
        const Medfilt2Plan zeros = plan_of(cls, 3, 3, {3, 3}, "zeros");
        EXPECT_EQ(zeros.pad.kind, order::Pad::Constant);
        EXPECT_EQ(zeros.pad.value, 0.0);
        const Medfilt2Plan sym = plan_of(cls, 3, 3, {3, 3}, "symmetric");
        EXPECT_EQ(sym.pad.kind, order::Pad::Symmetric);
        // 'indexed': 1 for double, 0 for every other class.
        const Medfilt2Plan idx = plan_of(cls, 3, 3, {3, 3}, "indexed");
        EXPECT_EQ(idx.pad.kind, order::Pad::Constant);
        EXPECT_EQ(idx.pad.value, cls == IPT_DOUBLE ? 1.0 : 0.0) << "class " << cls;
    }
}

TEST(Medfilt2Plan, WindowAsADomain) {
    const order::Window w = plan_of(IPT_UINT8, 4, 4, {2, 3}).window();
    EXPECT_EQ(w.rows, 2);
    EXPECT_EQ(w.cols, 3);
    EXPECT_EQ(w.centre_row, 0);
    EXPECT_EQ(w.centre_col, 1);
    EXPECT_TRUE(w.full());
    EXPECT_FALSE(w.with_offsets());
    EXPECT_EQ(w.dy, (std::vector<int32_t>{0, 0, 0, 1, 1, 1}));
    EXPECT_EQ(w.dx, (std::vector<int32_t>{-1, 0, 1, -1, 0, 1}));
}

TEST(Medfilt2Plan, EmptyImage) {
    for (auto [r, c] : {std::pair<int64_t, int64_t>{0, 0}, {0, 5}, {5, 0}}) {
        const Medfilt2Plan p = plan_of(IPT_UINT8, r, c, {2, 2});
        EXPECT_EQ(p.rows, r);
        EXPECT_EQ(p.cols, c);
        EXPECT_EQ(p.order, 2);
    }
}

TEST(Medfilt2Plan, LargestWindows) {
    const Medfilt2Plan big = plan_of(IPT_UINT8, 2, 2, {4096, 4096});
    EXPECT_EQ(big.count, int64_t{1} << 24);
    EXPECT_EQ(big.order, int64_t{1} << 23);
    EXPECT_EQ(big.centre_row, 2047);
    const Medfilt2Plan tall = plan_of(IPT_UINT8, 2, 2, {4095, 1});
    EXPECT_EQ(tall.order, 2048);
    EXPECT_EQ(tall.centre_row, 2047);
}

// The plan alone gives MATLAB's B: an independent brute force that reads
// only the plan, against values computed by hand.
std::vector<double> brute_force(const Medfilt2Plan& p, const std::vector<double>& a) {
    std::vector<double> b(static_cast<size_t>(p.rows * p.cols));
    auto mirror = [](int64_t i, int64_t n) {
        while (i < 0 || i >= n) i = i < 0 ? -1 - i : 2 * n - 1 - i;
        return i;
    };
    for (int64_t r = 0; r < p.rows; ++r)
        for (int64_t c = 0; c < p.cols; ++c) {
            std::vector<double> v;
            for (int64_t i = 0; i < p.window_rows; ++i)
                for (int64_t j = 0; j < p.window_cols; ++j) {
                    int64_t rr = r + i - p.centre_row, cc = c + j - p.centre_col;
                    if (p.pad.kind == order::Pad::Symmetric) {
                        rr = mirror(rr, p.rows);
                        cc = mirror(cc, p.cols);
                    }
                    const bool in = rr >= 0 && rr < p.rows && cc >= 0 && cc < p.cols;
                    v.push_back(in ? a[static_cast<size_t>(rr * p.cols + cc)] : p.pad.value);
                }
            std::sort(v.begin(), v.end());
            const double lo = v[static_cast<size_t>(p.order - 1)];
            const double hi = p.two_orders() ? v[static_cast<size_t>(p.order)] : lo;
            double out = lo;
            switch (p.rule) {
            case MedianRule::Middle: out = lo; break;
            case MedianRule::Upper: out = hi; break;
            case MedianRule::MeanRoundHalfAway: out = std::round(0.5 * lo + 0.5 * hi); break;
            case MedianRule::Mean: out = 0.5 * lo + 0.5 * hi; break;
            }
            b[static_cast<size_t>(r * p.cols + c)] = out;
        }
    return b;
}

TEST(Medfilt2Plan, PlanGivesHandComputedResults) {
    // MathWorks' example: the uint8 2x2 neighbourhood [1 5; 4 8] has median
    // 4.5. A = [1 5; 4 8], [2 2], zeros: windows A(r:r+1, c:c+1) are
    // {1 4 5 8} -> 4.5, {0 0 5 8} -> 2.5, {0 0 4 8} -> 2, {0 0 0 8} -> 0.
    // uint8 rounds half away from zero: [5 3; 2 0]; double keeps the halves.
    const std::vector<double> a = {1, 5, 4, 8};
    EXPECT_EQ(brute_force(plan_of(IPT_UINT8, 2, 2, {2, 2}), a), (std::vector<double>{5, 3, 2, 0}));
    EXPECT_EQ(brute_force(plan_of(IPT_DOUBLE, 2, 2, {2, 2}), a), (std::vector<double>{4.5, 2.5, 2, 0}));
    // 'indexed' on double pads with 1: {1 4 5 8}, {1 1 5 8} -> 3, {1 1 4 8} -> 2.5, {1 1 1 8} -> 1.
    EXPECT_EQ(brute_force(plan_of(IPT_DOUBLE, 2, 2, {2, 2}, "indexed"), a), (std::vector<double>{4.5, 3, 2.5, 1}));
    // Symmetric: the window at (2,2) is {8 8 8 8}; at (1,2) {5 5 8 8} -> 6.5.
    EXPECT_EQ(brute_force(plan_of(IPT_DOUBLE, 2, 2, {2, 2}, "symmetric"), a),
              (std::vector<double>{4.5, 6.5, 6, 8}));
    // int16 with negative halves: [-3 -2] as 1x2, window [1 2]: {-3 -2} ->
    // -2.5 -> -3 (half away from zero), {-2 0} -> -1.
    EXPECT_EQ(brute_force(plan_of(IPT_INT16, 1, 2, {1, 2}), {-3, -2}), (std::vector<double>{-3, -1}));
    // Logical [2 2]: lower | upper, the upper middle. [1 0; 0 0] with zeros:
    // the window at (1,1) sorts to 0 0 0 1, orders 2 and 3 are 0 | 0 = 0.
    // [1 1; 0 0]: 0 0 1 1 at (1,1), 0 | 1 = 1.
    EXPECT_EQ(brute_force(plan_of(IPT_LOGICAL, 2, 2, {2, 2}), {1, 0, 0, 0}), (std::vector<double>{0, 0, 0, 0}));
    EXPECT_EQ(brute_force(plan_of(IPT_LOGICAL, 2, 2, {2, 2}), {1, 1, 0, 0}), (std::vector<double>{1, 0, 0, 0}));
}

// One rule for the window size, in the catalogue: finite whole numbers
// from 1 to 4096, exactly two of them. The front-end relies on it.
TEST(Medfilt2Plan, TheCatalogueHoldsTheSizeRule) {
    const ipt_op_schema& op = ipt::test::catalogue_schema("ipt.medfilt2");
    const ipt_param_schema* size = nullptr;
    for (uint32_t i = 0; i < op.param_count; ++i)
        if (std::string(ipt_op_param(&op, i)->name) == "size") size = ipt_op_param(&op, i);
    ASSERT_NE(size, nullptr);
    EXPECT_TRUE(size->flags & IPT_P_FINITE);
    EXPECT_TRUE(size->flags & IPT_P_INTEGRAL);
    EXPECT_EQ(size->min_value, 1);
    EXPECT_EQ(size->max_value, 4096);
    EXPECT_EQ(size->min_count, 2u);
    EXPECT_EQ(size->max_count, 2u);
    EXPECT_EQ(std::string(size->default_text), "[3 3]");
}

}  // namespace
