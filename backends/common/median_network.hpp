// SPDX-License-Identifier: Apache-2.0
// Comparator networks that select the median of N values (N odd), built at
// compile time: Batcher's odd-even merge sort on the next power of two (wires
// at N and above hold +Inf and never move, so their comparators are dropped),
// then every comparator that cannot reach the middle wire is removed, walking
// back from it. 9 values: 24 comparators, 25: 113, 49: 319 (an odd-even
// transposition sort needs 36, 300 and 1176). Branch-free min/max in
// registers, the same on any device.
#pragma once

#include <array>
#include <cstddef>

namespace ipt::common {

struct Comparator {
    int lo, hi;  // after it: value[lo] <= value[hi]
};

inline constexpr int kMaxMedianWires = 64;
inline constexpr int kMaxComparators = 1024;

struct ComparatorList {
    std::array<Comparator, kMaxComparators> at{};
    int count = 0;
};

constexpr ComparatorList odd_even_merge_sort(int n) {
    ComparatorList net;
    int p2 = 1;
    while (p2 < n) p2 *= 2;
    for (int p = 1; p < p2; p *= 2)
        for (int k = p; k >= 1; k /= 2)
            for (int j = k % p; j + k < p2; j += 2 * k)
                for (int i = 0; i < k && i < p2 - j - k; ++i) {
                    const int a = i + j, b = i + j + k;
                    if (a / (2 * p) == b / (2 * p) && a < n && b < n) net.at[net.count++] = {a, b};
                }
    return net;
}

constexpr ComparatorList keep_what_reaches(const ComparatorList& full, int wire) {
    std::array<bool, kMaxMedianWires> needed{};
    needed[wire] = true;
    std::array<bool, kMaxComparators> keep{};
    for (int c = full.count - 1; c >= 0; --c) {
        const Comparator x = full.at[c];
        if (needed[x.lo] || needed[x.hi]) {
            keep[c] = true;
            needed[x.lo] = needed[x.hi] = true;
        }
    }
    ComparatorList pruned;
    for (int c = 0; c < full.count; ++c)
        if (keep[c]) pruned.at[pruned.count++] = full.at[c];
    return pruned;
}

template <int N>
struct MedianNetwork {
    static_assert(N % 2 == 1 && N <= kMaxMedianWires, "odd N up to 63");
    static constexpr ComparatorList list = keep_what_reaches(odd_even_merge_sort(N), N / 2);
    static constexpr int count = list.count;
    static constexpr int middle = N / 2;
    static constexpr std::array<Comparator, count> comparators = [] {
        std::array<Comparator, count> c{};
        for (int i = 0; i < count; ++i) c[i] = list.at[i];
        return c;
    }();
};

}  // namespace ipt::common
