// SPDX-License-Identifier: Apache-2.0
// The compile-time median networks (backends/common/median_network.hpp)
// against std::nth_element: every 0/1 input for 9 wires (a comparator network
// selects correctly on all inputs exactly when it does on every 0/1 input),
// and random inputs with many ties for 25 and 49.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "common/median_network.hpp"

namespace {

template <int N>
int run_network(std::vector<int> v) {
    for (const auto& c : ipt::common::MedianNetwork<N>::comparators) {
        const int lo = std::min(v[c.lo], v[c.hi]), hi = std::max(v[c.lo], v[c.hi]);
        v[c.lo] = lo;
        v[c.hi] = hi;
    }
    return v[N / 2];
}

int brute_median(std::vector<int> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

TEST(MedianNetwork, SizesAreSmallerThanTranspositionSorts) {
    EXPECT_EQ(ipt::common::MedianNetwork<9>::count, 24);
    EXPECT_EQ(ipt::common::MedianNetwork<25>::count, 113);
    EXPECT_EQ(ipt::common::MedianNetwork<49>::count, 319);
}

TEST(MedianNetwork, NineWiresOnEveryZeroOneInput) {
    for (int bits = 0; bits < (1 << 9); ++bits) {
        std::vector<int> v(9);
        for (int i = 0; i < 9; ++i) v[i] = (bits >> i) & 1;
        ASSERT_EQ(run_network<9>(v), brute_median(v)) << "input bits " << bits;
    }
}

template <int N>
void check_random(unsigned seed) {
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 20000; ++trial) {
        std::uniform_int_distribution<int> range(0, trial % 2 ? 3 : 1000);  // many ties, then few
        std::vector<int> v(N);
        for (int& x : v) x = range(rng);
        ASSERT_EQ(run_network<N>(v), brute_median(v)) << "trial " << trial;
    }
}

TEST(MedianNetwork, TwentyFiveWiresOnRandomInputs) { check_random<25>(25); }
TEST(MedianNetwork, FortyNineWiresOnRandomInputs) { check_random<49>(49); }

}  // namespace
