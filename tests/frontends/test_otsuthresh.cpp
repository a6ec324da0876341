// SPDX-License-Identifier: Apache-2.0
// ipt.otsuthresh's front-end (which computes T and EM on the host) and the
// shared ipt::common::otsu_threshold: hand-computed histograms with dyadic
// probabilities (so every quotient is exact), ties averaged, the cases with
// no finite maximum, and the checks on counts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/intensity.hpp"
#include "common/ops/otsuthresh.hpp"
#include "plan_call.hpp"

namespace {

using ipt::common::otsu_threshold;
using ipt::frontend::OtsuthreshPlan;
using ipt::frontend::plan_otsuthresh;
using ipt::test::PlanCall;

template <class T>
OtsuthreshPlan plan_of(int32_t dtype, const std::vector<T>& counts, bool column = false) {
    PlanCall call("ipt.otsuthresh");
    const int64_t n = static_cast<int64_t>(counts.size());
    call.image("counts", dtype, column ? n : 1, column ? 1 : n, 1, counts.data());
    return plan_otsuthresh(call.args());
}

// counts [1 0 0 1]: p = [.5 0 0 .5], omega = [.5 .5 .5 1], mu = [.5 .5 .5 2.5],
// mu_t = 2.5; sigma = (1.25 - .5)^2/.25 = 2.25 in bins 1..3, NaN in bin 4.
// The maximum spans bins 1..3: idx = 2, T = (2-1)/3. EM = 2.25 / (8.5 - 6.25) = 1.
TEST(Otsu, TiesAreAveraged) {
    const std::vector<double> c = {1, 0, 0, 1};
    const auto r = otsu_threshold(c.data(), 4);
    EXPECT_EQ(r.T, 1.0 / 3);
    EXPECT_EQ(r.EM, 1.0);
}

// counts [1 2 1]: p = [.25 .5 .25], omega = [.25 .75 1], mu = [.25 1.25 2];
// sigma(1) = (.5-.25)^2/(.25*.75) = sigma(2) = (1.5-1.25)^2/(.75*.25) = 1/3.
// idx = 1.5, T = 0.5/2; EM = (1/3) / ((.25 + 2 + 2.25) - 4) = 2/3.
TEST(Otsu, ThreeBins) {
    const std::vector<double> c = {1, 2, 1};
    const auto r = otsu_threshold(c.data(), 3);
    EXPECT_EQ(r.T, 0.25);
    EXPECT_EQ(r.EM, (0.0625 / 0.1875) / 0.5);
}

// counts [3 1]: p = [.75 .25], sigma(1) = (.9375-.75)^2/.1875 = .1875, T = 0,
// EM = .1875 / (1.75 - 1.5625) = 1.
TEST(Otsu, TwoBins) {
    const std::vector<double> c = {3, 1};
    const auto r = otsu_threshold(c.data(), 2);
    EXPECT_EQ(r.T, 0.0);
    EXPECT_EQ(r.EM, 1.0);
}

// One occupied bin, one bin, no counts: sigma is NaN everywhere (0/0), so
// T = 0 and EM = 0.
TEST(Otsu, NoFiniteMaximumGivesZero) {
    for (const std::vector<double>& c : std::vector<std::vector<double>>{{0, 5, 0}, {7}, {0, 0, 0, 0}, {9, 0}}) {
        const auto r = otsu_threshold(c.data(), static_cast<int64_t>(c.size()));
        EXPECT_EQ(r.T, 0.0);
        EXPECT_EQ(r.EM, 0.0);
    }
}

TEST(OtsuthreshPlan, EveryNumericClassAndOrientation) {
    const OtsuthreshPlan d = plan_of<double>(IPT_DOUBLE, {1, 0, 0, 1});
    EXPECT_EQ(d.T, 1.0 / 3);
    EXPECT_EQ(d.EM, 1.0);
    EXPECT_EQ(d.out_dtype, IPT_DOUBLE);
    const OtsuthreshPlan col = plan_of<double>(IPT_DOUBLE, {1, 0, 0, 1}, true);
    EXPECT_EQ(col.T, 1.0 / 3);
    EXPECT_EQ(plan_of<uint8_t>(IPT_UINT8, {1, 2, 1}).T, 0.25);
    EXPECT_EQ(plan_of<uint16_t>(IPT_UINT16, {1, 2, 1}).T, 0.25);
    EXPECT_EQ(plan_of<int16_t>(IPT_INT16, {1, 2, 1}).T, 0.25);
    EXPECT_EQ(plan_of<int32_t>(IPT_INT32, {1, 2, 1}).T, 0.25);
    EXPECT_EQ(plan_of<uint32_t>(IPT_UINT32, {1, 2, 1}).T, 0.25);
    EXPECT_EQ(plan_of<float>(IPT_SINGLE, {1, 2, 1}).T, 0.25);
    // Scaling every count leaves p, T and EM unchanged.
    EXPECT_EQ(plan_of<double>(IPT_DOUBLE, {0.5, 1, 0.5}).T, 0.25);
}

TEST(OtsuthreshPlan, RejectsNegativeAndNonFiniteCounts) {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const std::vector<double>& c : std::vector<std::vector<double>>{{1, -1, 2}, {1, inf}, {nan, 1}}) {
        try {
            plan_of<double>(IPT_DOUBLE, c);
            ADD_FAILURE() << "accepted";
        } catch (const ipt::plugin::Error& e) {
            EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
            EXPECT_NE(e.message.find("ipt.otsuthresh: parameter 'counts'"), std::string::npos) << e.message;
        }
    }
    try {
        plan_of<int16_t>(IPT_INT16, {3, -2});
        ADD_FAILURE() << "accepted";
    } catch (const ipt::plugin::Error& e) {
        EXPECT_NE(e.message.find("'counts'"), std::string::npos) << e.message;
    }
}

}  // namespace
