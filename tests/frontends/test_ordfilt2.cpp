// SPDX-License-Identifier: Apache-2.0
// The plan of ipt.ordfilt2 (backends/common/ops/ordfilt2.hpp) on hand-computed
// cases: the domain's centre and offsets, S, padding, output class.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/ops/ordfilt2.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::Ordfilt2Plan;
using ipt::frontend::plan_ordfilt2;
using ipt::test::PlanCall;
namespace order = ipt::frontend::order;

constexpr int32_t kClasses[] = {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16,
                                IPT_INT32,   IPT_UINT32, IPT_SINGLE, IPT_DOUBLE};

// A call with a host domain (and optionally S of the domain's size).
struct Call {
    PlanCall call{"ipt.ordfilt2"};
    std::vector<uint8_t> domain;
    std::vector<double> s;
    int64_t drows, dcols;
    Call(int32_t cls, int64_t rows, int64_t cols, int64_t k, int64_t domain_rows, int64_t domain_cols,
         std::vector<uint8_t> mask)
        : domain(std::move(mask)), drows(domain_rows), dcols(domain_cols) {
        call.image("A", cls, rows, cols).integer("order", k).image("domain", IPT_LOGICAL, drows, dcols, 1,
                                                                    domain.data());
    }
    Call& offsets(std::vector<double> values) {
        s = std::move(values);
        call.image("S", IPT_DOUBLE, drows, dcols, 1, s.data());
        return *this;
    }
    Ordfilt2Plan plan() { return plan_ordfilt2(call.args()); }
};

Ordfilt2Plan plan_of(int32_t cls, int64_t rows, int64_t cols, int64_t k, int64_t drows, int64_t dcols,
                     std::vector<uint8_t> mask, const char* pad = nullptr) {
    Call c(cls, rows, cols, k, drows, dcols, std::move(mask));
    if (pad) c.call.text("padopt", pad);
    return c.plan();
}

std::vector<uint8_t> ones(int64_t n) { return std::vector<uint8_t>(static_cast<size_t>(n), 1); }

TEST(Ordfilt2Plan, CentreIsFloorOfHalfSizePlusOne) {
    // MATLAB's floor((size+1)/2), 1-based, as a 0-based index.
    EXPECT_EQ(order::centre(1), 0);
    EXPECT_EQ(order::centre(2), 0);
    EXPECT_EQ(order::centre(3), 1);
    EXPECT_EQ(order::centre(4), 1);
    EXPECT_EQ(order::centre(5), 2);
    EXPECT_EQ(order::centre(6), 2);
    EXPECT_EQ(order::centre(4096), 2047);
}

TEST(Ordfilt2Plan, Median3x3Defaults) {
    const Ordfilt2Plan p = plan_of(IPT_UINT8, 5, 7, 5, 3, 3, ones(9));
    EXPECT_EQ(p.rows, 5);
    EXPECT_EQ(p.cols, 7);
    EXPECT_EQ(p.a_class, IPT_UINT8);
    EXPECT_EQ(p.b_class, IPT_UINT8);
    EXPECT_EQ(p.order, 5);
    EXPECT_EQ(p.pad.kind, order::Pad::Constant);  // 'zeros', the default
    EXPECT_EQ(p.pad.value, 0.0);
    EXPECT_EQ(p.window.rows, 3);
    EXPECT_EQ(p.window.cols, 3);
    EXPECT_EQ(p.window.centre_row, 1);
    EXPECT_EQ(p.window.centre_col, 1);
    EXPECT_EQ(p.window.count(), 9);
    EXPECT_TRUE(p.window.full());
    EXPECT_FALSE(p.window.with_offsets());
    EXPECT_EQ(p.window.dy, (std::vector<int32_t>{-1, -1, -1, 0, 0, 0, 1, 1, 1}));
    EXPECT_EQ(p.window.dx, (std::vector<int32_t>{-1, 0, 1, -1, 0, 1, -1, 0, 1}));
    EXPECT_EQ(p.window.mask, ones(9));
}

TEST(Ordfilt2Plan, OneByOneDomain) {
    const Ordfilt2Plan p = plan_of(IPT_DOUBLE, 4, 4, 1, 1, 1, ones(1));
    EXPECT_EQ(p.window.centre_row, 0);
    EXPECT_EQ(p.window.centre_col, 0);
    EXPECT_EQ(p.window.dy, (std::vector<int32_t>{0}));
    EXPECT_EQ(p.window.dx, (std::vector<int32_t>{0}));
    EXPECT_EQ(p.order, 1);
}

TEST(Ordfilt2Plan, RowAndColumnDomains) {
    // 1x4: centre column floor(5/2) = 2 (1-based), so columns -1..+2.
    const Ordfilt2Plan row = plan_of(IPT_INT16, 1, 9, 3, 1, 4, ones(4));
    EXPECT_EQ(row.window.centre_row, 0);
    EXPECT_EQ(row.window.centre_col, 1);
    EXPECT_EQ(row.window.dy, (std::vector<int32_t>{0, 0, 0, 0}));
    EXPECT_EQ(row.window.dx, (std::vector<int32_t>{-1, 0, 1, 2}));
    // 5x1: centre row 3 (1-based), rows -2..+2.
    const Ordfilt2Plan col = plan_of(IPT_INT16, 9, 1, 2, 5, 1, ones(5));
    EXPECT_EQ(col.window.centre_row, 2);
    EXPECT_EQ(col.window.centre_col, 0);
    EXPECT_EQ(col.window.dy, (std::vector<int32_t>{-2, -1, 0, 1, 2}));
    EXPECT_EQ(col.window.dx, (std::vector<int32_t>{0, 0, 0, 0, 0}));
    // A 1xN image is planned like any other.
    EXPECT_EQ(row.rows, 1);
    EXPECT_EQ(row.cols, 9);
    EXPECT_EQ(col.rows, 9);
    EXPECT_EQ(col.cols, 1);
}

TEST(Ordfilt2Plan, EvenDomainsTakeTheFirstMiddleCell) {
    // 2x2: the window is A(r:r+1, c:c+1).
    const Ordfilt2Plan two = plan_of(IPT_SINGLE, 6, 6, 4, 2, 2, ones(4));
    EXPECT_EQ(two.window.centre_row, 0);
    EXPECT_EQ(two.window.centre_col, 0);
    EXPECT_EQ(two.window.dy, (std::vector<int32_t>{0, 0, 1, 1}));
    EXPECT_EQ(two.window.dx, (std::vector<int32_t>{0, 1, 0, 1}));
    // 2x3: rows 0..1, columns -1..1.
    const Ordfilt2Plan wide = plan_of(IPT_SINGLE, 6, 6, 4, 2, 3, ones(6));
    EXPECT_EQ(wide.window.dy, (std::vector<int32_t>{0, 0, 0, 1, 1, 1}));
    EXPECT_EQ(wide.window.dx, (std::vector<int32_t>{-1, 0, 1, -1, 0, 1}));
    // 4x4: rows and columns -1..2.
    const Ordfilt2Plan four = plan_of(IPT_SINGLE, 6, 6, 8, 4, 4, ones(16));
    EXPECT_EQ(four.window.centre_row, 1);
    EXPECT_EQ(four.window.centre_col, 1);
    EXPECT_EQ(four.window.dy.front(), -1);
    EXPECT_EQ(four.window.dx.front(), -1);
    EXPECT_EQ(four.window.dy.back(), 2);
    EXPECT_EQ(four.window.dx.back(), 2);
}

TEST(Ordfilt2Plan, SparseDomainKeepsOnlyItsNonzeroCellsInRowMajorOrder) {
    // The cross [0 1 0; 1 0 1; 0 1 0]: north, west, east, south.
    const Ordfilt2Plan cross = plan_of(IPT_UINT16, 3, 3, 1, 3, 3, {0, 1, 0, 1, 0, 1, 0, 1, 0});
    EXPECT_EQ(cross.window.count(), 4);
    EXPECT_FALSE(cross.window.full());
    EXPECT_EQ(cross.window.dy, (std::vector<int32_t>{-1, 0, 0, 1}));
    EXPECT_EQ(cross.window.dx, (std::vector<int32_t>{0, -1, 1, 0}));
    EXPECT_EQ(cross.window.mask, (std::vector<uint8_t>{0, 1, 0, 1, 0, 1, 0, 1, 0}));
    // A 3x5 pattern (centre (2,3), 1-based); any nonzero byte is set.
    const Ordfilt2Plan pat = plan_of(IPT_UINT16, 8, 8, 3, 3, 5, {1, 0, 1, 1, 0, 0, 7, 1, 0, 1, 1, 1, 0, 1, 1});
    EXPECT_EQ(pat.window.centre_row, 1);
    EXPECT_EQ(pat.window.centre_col, 2);
    EXPECT_EQ(pat.window.count(), 10);
    EXPECT_EQ(pat.window.dy, (std::vector<int32_t>{-1, -1, -1, 0, 0, 0, 1, 1, 1, 1}));
    EXPECT_EQ(pat.window.dx, (std::vector<int32_t>{-2, 0, 1, -1, 0, 2, -2, -1, 1, 2}));
    EXPECT_EQ(pat.window.mask, (std::vector<uint8_t>{1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1}));
}

TEST(Ordfilt2Plan, EveryClassKeepsItsClassWithoutOffsets) {
    for (int32_t cls : kClasses) {
        const Ordfilt2Plan p = plan_of(cls, 3, 4, 2, 1, 3, ones(3));
        EXPECT_EQ(p.a_class, cls);
        EXPECT_EQ(p.b_class, cls) << "class " << cls;
        EXPECT_TRUE(p.window.s.empty());
    }
}

TEST(Ordfilt2Plan, OffsetsGiveDoubleForEveryClass) {
    for (int32_t cls : kClasses) {
        Call c(cls, 3, 4, 2, 2, 2, {1, 0, 1, 1});
        c.offsets({0.5, -7, 2, -0.25});
        const Ordfilt2Plan p = c.plan();
        EXPECT_EQ(p.a_class, cls);
        EXPECT_EQ(p.b_class, IPT_DOUBLE) << "class " << cls;
        EXPECT_TRUE(p.window.with_offsets());
        // S at the set cells only, in the order of the offsets.
        EXPECT_EQ(p.window.s, (std::vector<double>{0.5, 2, -0.25}));
        EXPECT_EQ(p.window.dy, (std::vector<int32_t>{0, 1, 1}));
        EXPECT_EQ(p.window.dx, (std::vector<int32_t>{0, 0, 1}));
    }
}

TEST(Ordfilt2Plan, OffsetsKeepNonFiniteValues) {
    Call c(IPT_DOUBLE, 2, 2, 1, 1, 3, ones(3));
    c.offsets({-INFINITY, NAN, 1});
    const Ordfilt2Plan p = c.plan();
    ASSERT_EQ(p.window.s.size(), 3u);
    EXPECT_EQ(p.window.s[0], -INFINITY);
    EXPECT_TRUE(std::isnan(p.window.s[1]));
    EXPECT_EQ(p.window.s[2], 1.0);
}

TEST(Ordfilt2Plan, Padding) {
    const Ordfilt2Plan zeros = plan_of(IPT_DOUBLE, 3, 3, 1, 3, 3, ones(9), "zeros");
    EXPECT_EQ(zeros.pad.kind, order::Pad::Constant);
    EXPECT_EQ(zeros.pad.value, 0.0);
    const Ordfilt2Plan sym = plan_of(IPT_DOUBLE, 3, 3, 1, 3, 3, ones(9), "symmetric");
    EXPECT_EQ(sym.pad.kind, order::Pad::Symmetric);
}

TEST(Ordfilt2Plan, EmptyImage) {
    for (auto [r, c] : {std::pair<int64_t, int64_t>{0, 0}, {0, 5}, {5, 0}}) {
        const Ordfilt2Plan p = plan_of(IPT_UINT8, r, c, 9, 3, 3, ones(9));
        EXPECT_EQ(p.rows, r);
        EXPECT_EQ(p.cols, c);
        EXPECT_EQ(p.window.count(), 9);
    }
}

TEST(Ordfilt2Plan, OrderUpToNnz) {
    EXPECT_EQ(plan_of(IPT_UINT8, 3, 3, 9, 3, 3, ones(9)).order, 9);
    EXPECT_EQ(plan_of(IPT_UINT8, 3, 3, 1, 3, 3, ones(9)).order, 1);
}

// The plan alone gives MATLAB's B: an independent brute force that reads only
// the plan, against values computed by hand.
std::vector<double> brute_force(const Ordfilt2Plan& p, const std::vector<double>& a) {
    std::vector<double> b(static_cast<size_t>(p.rows * p.cols));
    auto mirror = [](int64_t i, int64_t n) {
        while (i < 0 || i >= n) i = i < 0 ? -1 - i : 2 * n - 1 - i;
        return i;
    };
    for (int64_t r = 0; r < p.rows; ++r)
        for (int64_t c = 0; c < p.cols; ++c) {
            std::vector<double> v;
            for (int64_t k = 0; k < p.window.count(); ++k) {
                int64_t rr = r + p.window.dy[static_cast<size_t>(k)], cc = c + p.window.dx[static_cast<size_t>(k)];
                double x = p.pad.value;
                if (p.pad.kind == order::Pad::Symmetric) {
                    rr = mirror(rr, p.rows);
                    cc = mirror(cc, p.cols);
                }
                if (rr >= 0 && rr < p.rows && cc >= 0 && cc < p.cols) x = a[static_cast<size_t>(rr * p.cols + cc)];
                v.push_back(x + (p.window.with_offsets() ? p.window.s[static_cast<size_t>(k)] : 0.0));
            }
            std::sort(v.begin(), v.end());
            b[static_cast<size_t>(r * p.cols + c)] = v[static_cast<size_t>(p.order - 1)];
        }
    return b;
}

TEST(Ordfilt2Plan, PlanGivesHandComputedResults) {
    // A = [1 2; 3 4], domain [1 1] (centre in column 1: A(r, c:c+1)). Order 2
    // (the max), zero padding beyond the last column: [2 2; 4 4].
    const std::vector<double> a = {1, 2, 3, 4};
    EXPECT_EQ(brute_force(plan_of(IPT_DOUBLE, 2, 2, 2, 1, 2, ones(2)), a), (std::vector<double>{2, 2, 4, 4}));
    // Order 1 (the min): zeros [1 0; 3 0]; symmetric [1 2; 3 4].
    EXPECT_EQ(brute_force(plan_of(IPT_DOUBLE, 2, 2, 1, 1, 2, ones(2)), a), (std::vector<double>{1, 0, 3, 0}));
    EXPECT_EQ(brute_force(plan_of(IPT_DOUBLE, 2, 2, 1, 1, 2, ones(2), "symmetric"), a),
              (std::vector<double>{1, 2, 3, 4}));
    // S = [10 -10], order 2: max(A(r,c) + 10, A(r,c+1) - 10); padding 0 gets
    // -10 too: [11 12; 13 14].
    Call c(IPT_DOUBLE, 2, 2, 2, 1, 2, ones(2));
    c.offsets({10, -10});
    EXPECT_EQ(brute_force(c.plan(), a), (std::vector<double>{11, 12, 13, 14}));
    // The same with S = [-10 10]: max(A(r,c) - 10, A(r,c+1) + 10) = [12 10; 14 10].
    Call d(IPT_DOUBLE, 2, 2, 2, 1, 2, ones(2));
    d.offsets({-10, 10});
    EXPECT_EQ(brute_force(d.plan(), a), (std::vector<double>{12, 10, 14, 10}));
}

// The rules the front-end leaves to the catalogue: it reads the domain and S
// from the host and trusts 1 <= order <= nnz(domain) and size(S) == size(domain).
TEST(Ordfilt2Plan, TheCatalogueChecksWhatThePlanTrusts) {
    const ipt_op_schema& op = ipt::test::catalogue_schema("ipt.ordfilt2");
    auto param = [&](const char* name) -> const ipt_param_schema& {
        for (uint32_t i = 0; i < op.param_count; ++i)
            if (std::string(ipt_op_param(&op, i)->name) == name) return *ipt_op_param(&op, i);
        throw std::invalid_argument(name);
    };
    EXPECT_TRUE(param("order").flags & IPT_P_ORDER_OF);
    EXPECT_EQ(std::string(param("order").ref), "domain");
    EXPECT_EQ(param("order").min_value, 1);
    EXPECT_EQ(param("domain").dtypes, IPT_DT(IPT_LOGICAL));
    EXPECT_TRUE(param("domain").flags & IPT_P_HOST);
    EXPECT_TRUE(param("domain").flags & IPT_P_NONEMPTY);
    EXPECT_EQ(param("S").dtypes, IPT_DT(IPT_DOUBLE));
    EXPECT_TRUE(param("S").flags & IPT_P_HOST);
    EXPECT_TRUE(param("S").flags & IPT_P_SAME_SIZE);
    EXPECT_EQ(std::string(param("S").ref), "domain");
}

}  // namespace
