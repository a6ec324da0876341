// SPDX-License-Identifier: Apache-2.0
// The CPU backend's checked conversion from single to uint8
// (cpu/common/convert.hpp, convert_row_checked), which the single-first
// filters store through: every value it does not flag converts as MATLAB
// converts it (round half away from zero, saturate, NaN to 0), and it flags
// every value within `margin` of a half-integer, and NaN and Inf. Checked on
// every ISA path the machine has, over values around every half-integer of
// the range and beyond it, against std::round.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <vector>

#include "cpu/common/convert.hpp"

namespace {

uint8_t matlab_uint8(float f) {
    if (f != f) return 0;
    const double r = std::round(static_cast<double>(f));
    return r <= 0 ? 0 : r >= 255 ? 255 : static_cast<uint8_t>(r);
}

// Within margin of a half-integer (the values single cannot decide).
bool near_half(float f, float margin) {
    const double d = std::abs(static_cast<double>(f) - std::floor(static_cast<double>(f)) - 0.5);
    return !(d > static_cast<double>(margin));
}

std::vector<float> values() {
    std::vector<float> v;
    for (int k = -3; k <= 260; ++k) {
        for (double base : {static_cast<double>(k), k + 0.5})
            for (double d : {0.0, 1e-6, -1e-6, 1e-4, -1e-4, 3e-4, -3e-4, 1e-3, -1e-3, 0.01, -0.01, 0.2, -0.2}) {
                float f = static_cast<float>(base + d);
                v.push_back(f);
                v.push_back(std::nextafter(f, INFINITY));
                v.push_back(std::nextafter(f, -INFINITY));
            }
    }
    for (float f : {0.0f, -0.0f, 1e-30f, -1e-30f, 8388608.0f, -8388608.0f, 1e9f, -1e9f,
                    std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                    std::numeric_limits<float>::quiet_NaN()})
        v.push_back(f);
    while (v.size() % 16 != 7) v.push_back(100.25f);  // a scalar tail after the vectors
    return v;
}

void expect_checked(const char* isa) {
    if (isa) setenv("IPT_CPU_ISA", isa, 1);
    else unsetenv("IPT_CPU_ISA");
    const std::vector<float> v = values();
    for (float margin : {1e-6f, 2.3e-4f, 6.7e-4f, 0.01f}) {
        std::vector<uint8_t> out(v.size()), unsure(v.size());
        const int64_t flagged = ipt::cpu::convert_row_checked(v.data(), out.data(), static_cast<int64_t>(v.size()),
                                                              margin, unsure.data());
        int64_t counted = 0, wrong = 0;
        for (size_t i = 0; i < v.size(); ++i) {
            counted += unsure[i];
            const bool must_flag = near_half(v[i], margin) || std::isinf(v[i]);
            if (must_flag && !unsure[i] && ++wrong <= 5)
                ADD_FAILURE() << (isa ? isa : "native") << ": " << v[i] << " not flagged at margin " << margin;
            if (!unsure[i] && out[i] != matlab_uint8(v[i]) && ++wrong <= 5)
                ADD_FAILURE() << (isa ? isa : "native") << ": " << v[i] << " gave " << int{out[i]} << ", MATLAB "
                              << int{matlab_uint8(v[i])};
        }
        EXPECT_EQ(flagged, counted);
        EXPECT_EQ(wrong, 0);
    }
}

TEST(ConvertChecked, Uint8OnEveryIsa) {
    // The ISA is read once per process, so each level runs in its own child.
    for (const char* isa : {"avx512", "avx2", "sse2"}) {
        EXPECT_EXIT(
            {
                expect_checked(isa);
                std::exit(::testing::Test::HasFailure() ? 1 : 0);
            },
            ::testing::ExitedWithCode(0), "")
            << isa;
    }
}

}  // namespace
