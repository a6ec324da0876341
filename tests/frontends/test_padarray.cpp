// SPDX-License-Identifier: Apache-2.0
// ipt.padarray's front-end: output sizes per direction, the scalar padsize,
// padval in A's class, the source index of each rule written out by hand, and
// the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/ops/padarray.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::padarray_source;
using ipt::frontend::PadarrayPlan;
using ipt::frontend::PadMethod;
using ipt::frontend::plan_padarray;
using ipt::test::PlanCall;

PadarrayPlan plan_of(int32_t dtype, int64_t rows, int64_t cols, std::vector<double> padsize,
                     const char* method = "constant", double padval = 0, const char* direction = "both",
                     int64_t channels = 1) {
    PlanCall call("ipt.padarray");
    call.image("A", dtype, rows, cols, channels)
        .floats("padsize", std::move(padsize))
        .text("method", method)
        .number("padval", padval)
        .text("direction", direction);
    return plan_padarray(call.args());
}

TEST(PadarrayPlan, SizesPerDirection) {
    PadarrayPlan p = plan_of(IPT_UINT8, 2, 3, {3, 2});
    EXPECT_EQ(p.out_rows, 8);
    EXPECT_EQ(p.out_cols, 7);
    EXPECT_EQ(p.top, 3);
    EXPECT_EQ(p.left, 2);
    p = plan_of(IPT_UINT8, 2, 3, {3, 2}, "replicate", 0, "pre");
    EXPECT_EQ(p.out_rows, 5);
    EXPECT_EQ(p.out_cols, 5);
    EXPECT_EQ(p.top, 3);
    EXPECT_EQ(p.left, 2);
    p = plan_of(IPT_UINT8, 2, 3, {3, 2}, "replicate", 0, "post");
    EXPECT_EQ(p.out_rows, 5);
    EXPECT_EQ(p.out_cols, 5);
    EXPECT_EQ(p.top, 0);
    EXPECT_EQ(p.left, 0);
    EXPECT_EQ(p.method, PadMethod::Replicate);
    // RGB keeps its planes.
    p = plan_of(IPT_SINGLE, 4, 5, {1, 1}, "symmetric", 0, "both", 3);
    EXPECT_EQ(p.channels, 3);
    EXPECT_EQ(p.out_rows, 6);
    EXPECT_EQ(p.out_cols, 7);
    EXPECT_EQ(p.dtype, IPT_SINGLE);
}

// padarray([1 2 3 4], 3, 'symmetric', 'pre'): a scalar padsize pads rows only.
TEST(PadarrayPlan, ScalarPadsizePadsRowsOnly) {
    const PadarrayPlan p = plan_of(IPT_DOUBLE, 1, 4, {3}, "symmetric", 0, "pre");
    EXPECT_EQ(p.out_rows, 4);
    EXPECT_EQ(p.out_cols, 4);
    EXPECT_EQ(p.left, 0);
    // A zero third element is MATLAB's [r c 0]: nothing along the planes.
    const PadarrayPlan q = plan_of(IPT_DOUBLE, 2, 2, {1, 2, 0}, "constant", 0, "both", 3);
    EXPECT_EQ(q.out_rows, 4);
    EXPECT_EQ(q.out_cols, 6);
    EXPECT_EQ(q.channels, 3);
}

TEST(PadarrayPlan, PadvalInTheClassOfA) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_EQ(plan_of(IPT_UINT8, 2, 2, {1, 1}, "constant", 2.5).pad_value, 3);
    EXPECT_EQ(plan_of(IPT_UINT8, 2, 2, {1, 1}, "constant", 2.4999).pad_value, 2);
    EXPECT_EQ(plan_of(IPT_UINT8, 2, 2, {1, 1}, "constant", -0.5).pad_value, 0);
    EXPECT_EQ(plan_of(IPT_UINT8, 2, 2, {1, 1}, "constant", 300).pad_value, 255);
    EXPECT_EQ(plan_of(IPT_UINT8, 2, 2, {1, 1}, "constant", nan).pad_value, 0);
    EXPECT_EQ(plan_of(IPT_UINT8, 2, 2, {1, 1}, "constant", inf).pad_value, 255);
    EXPECT_EQ(plan_of(IPT_INT16, 2, 2, {1, 1}, "constant", -2.5).pad_value, -3);
    EXPECT_EQ(plan_of(IPT_INT16, 2, 2, {1, 1}, "constant", -1e9).pad_value, -32768);
    EXPECT_EQ(plan_of(IPT_UINT16, 2, 2, {1, 1}, "constant", 65535.5).pad_value, 65535);
    EXPECT_EQ(plan_of(IPT_INT32, 2, 2, {1, 1}, "constant", 3e9).pad_value, 2147483647);
    EXPECT_EQ(plan_of(IPT_INT32, 2, 2, {1, 1}, "constant", -inf).pad_value, -2147483648.0);
    EXPECT_EQ(plan_of(IPT_UINT32, 2, 2, {1, 1}, "constant", 4294967295.5).pad_value, 4294967295.0);
    EXPECT_EQ(plan_of(IPT_LOGICAL, 2, 2, {1, 1}, "constant", 0.25).pad_value, 1);
    EXPECT_EQ(plan_of(IPT_LOGICAL, 2, 2, {1, 1}, "constant", -3).pad_value, 1);
    EXPECT_EQ(plan_of(IPT_LOGICAL, 2, 2, {1, 1}, "constant", 0).pad_value, 0);
    EXPECT_EQ(plan_of(IPT_SINGLE, 2, 2, {1, 1}, "constant", 0.1).pad_value, static_cast<double>(0.1f));
    EXPECT_EQ(plan_of(IPT_DOUBLE, 2, 2, {1, 1}, "constant", 0.1).pad_value, 0.1);
    EXPECT_TRUE(std::isnan(plan_of(IPT_DOUBLE, 2, 2, {1, 1}, "constant", nan).pad_value));
    // padval is not used by the other methods.
    EXPECT_EQ(plan_of(IPT_UINT8, 2, 2, {1, 1}, "replicate", 7).pad_value, 0);
}

// An empty A gives the padded size filled with padval, or 0 for the other methods.
TEST(PadarrayPlan, EmptyAFillsThePaddedSize) {
    PadarrayPlan p = plan_of(IPT_UINT8, 0, 3, {2, 1}, "replicate");
    EXPECT_EQ(p.out_rows, 4);
    EXPECT_EQ(p.out_cols, 5);
    EXPECT_EQ(p.method, PadMethod::Constant);
    EXPECT_EQ(p.pad_value, 0);
    p = plan_of(IPT_INT16, 0, 0, {1, 2}, "constant", -7, "post");
    EXPECT_EQ(p.out_rows, 1);
    EXPECT_EQ(p.out_cols, 2);
    EXPECT_EQ(p.pad_value, -7);
    p = plan_of(IPT_DOUBLE, 3, 0, {0, 0});
    EXPECT_EQ(p.out_rows, 3);
    EXPECT_EQ(p.out_cols, 0);
}

// Source indices, 0-based, for a dimension of 3 elements (a b c) and of 1.
TEST(PadarrayPlan, SourceIndexPerMethod) {
    auto row = [](PadMethod m, int64_t n, int64_t from, int64_t to) {
        std::vector<int64_t> v;
        for (int64_t i = from; i <= to; ++i) v.push_back(padarray_source(m, i, n));
        return v;
    };
    // i = -7 .. 9
    EXPECT_EQ(row(PadMethod::Replicate, 3, -4, 6), (std::vector<int64_t>{0, 0, 0, 0, 0, 1, 2, 2, 2, 2, 2}));
    EXPECT_EQ(row(PadMethod::Circular, 3, -7, 9),
              (std::vector<int64_t>{2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0}));
    // c b a | a b c | c b a | a b c ...
    EXPECT_EQ(row(PadMethod::Symmetric, 3, -7, 9),
              (std::vector<int64_t>{0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2}));
    EXPECT_EQ(row(PadMethod::Constant, 3, -2, 4), (std::vector<int64_t>{-1, -1, 0, 1, 2, -1, -1}));
    for (PadMethod m : {PadMethod::Replicate, PadMethod::Circular, PadMethod::Symmetric})
        EXPECT_EQ(row(m, 1, -5, 5), std::vector<int64_t>(11, 0));
}

TEST(PadarrayPlan, Refusals) {
    try {
        plan_of(IPT_UINT8, 2, 2, {1, 1, 1});
        ADD_FAILURE() << "a nonzero third padsize element must be refused";
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        EXPECT_NE(e.message.find("'padsize'"), std::string::npos) << e.message;
        EXPECT_NE(e.message.find("third"), std::string::npos) << e.message;
    }
    try {
        plan_of(IPT_LOGICAL, 2, 2, {1, 1}, "constant", std::numeric_limits<double>::quiet_NaN());
        ADD_FAILURE() << "NaN cannot be a logical padval";
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        EXPECT_NE(e.message.find("'padval'"), std::string::npos) << e.message;
    }
    // NaN is fine when padval is not used.
    EXPECT_NO_THROW(plan_of(IPT_LOGICAL, 2, 2, {1, 1}, "symmetric", std::numeric_limits<double>::quiet_NaN()));
}

}  // namespace
