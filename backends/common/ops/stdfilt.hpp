// SPDX-License-Identifier: Apache-2.0
// ipt.stdfilt's rules (MATLAB's stdfilt; docs/matlab-semantics.md#stdfilt):
//
//   J = stdfilt(I, nhood)
//
// With n the number of set cells of nhood (default true(3), odd in each
// dimension) and the image padded symmetrically (mirror including the edge
// pixel), MATLAB computes (in single for a single I; OpenIPT in double, then
// converts)
//   J = sqrt(max(S2/(n-1) - S1.^2/(n*(n-1)), 0)),
// S1 and S2 the sums of I and of I.^2 over the neighbourhood (two
// correlations). That is the sample standard deviation (n-1 normalisation)
// of each neighbourhood. n = 1 gives 0 (one sample has no spread). J is
// single for a single I and double for every other class; logical counts as
// 0/1. Each plane of an RGB image alike.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../local_statistics.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct StdfiltPlan {
    int32_t in_dtype = IPT_DOUBLE;
    int32_t out_dtype = IPT_DOUBLE;  // single for single, else double
    int64_t rows = 0, cols = 0, channels = 1;
    LocalNeighbourhood nhood;
    int64_t count = 0;  // n, the number of members
    bool zero = false;  // n <= 1: J is all zeros
    // How a backend may sum. For logical, uint8, uint16 and int16 every
    // partial sum of I and of I.^2 is an integer; while n * max(I.^2) stays
    // below 2^53 each is exact in double, so integer accumulators give the
    // same S1 and S2 bit for bit (Uint32 while n * 255^2 < 2^32).
    enum class Sums { Double, Uint32, Int64 } sums = Sums::Double;
};

inline StdfiltPlan plan_stdfilt(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* in = args.image("I");
    StdfiltPlan p;
    p.in_dtype = in->dtype;
    p.out_dtype = in->dtype == IPT_SINGLE ? IPT_SINGLE : IPT_DOUBLE;
    p.rows = in->rows;
    p.cols = in->cols;
    p.channels = in->channels;
    p.nhood = local_statistics_detail::neighbourhood(args, "ipt.stdfilt", 3, true);
    p.count = static_cast<int64_t>(p.nhood.members.size());
    p.zero = p.count <= 1;
    double largest_square = 0;  // of a value of the class; 0: not an integer class
    switch (p.in_dtype) {
        case IPT_LOGICAL: largest_square = 1; break;
        case IPT_UINT8: largest_square = 255.0 * 255.0; break;
        case IPT_UINT16: largest_square = 65535.0 * 65535.0; break;
        case IPT_INT16: largest_square = 32768.0 * 32768.0; break;
        default: break;
    }
    const double largest_sum = largest_square * static_cast<double>(p.count);
    if (largest_square > 0 && largest_sum < 9007199254740992.0)  // 2^53
        p.sums = largest_square <= 255.0 * 255.0 && largest_sum < 4294967296.0 ? StdfiltPlan::Sums::Uint32
                                                                                : StdfiltPlan::Sums::Int64;
    return p;
}

// Calls f with a zero of the accumulator type the plan allows for an input
// of class T: uint32_t or int64_t (Sums::Uint32, Sums::Int64) for the small
// integer classes, double otherwise.
template <class T, class F>
void with_sums_accumulator(const StdfiltPlan& p, F&& f) {
    if constexpr (std::is_integral_v<T> && sizeof(T) <= 2) {
        if (p.sums == StdfiltPlan::Sums::Uint32) return f(uint32_t{});
        if (p.sums == StdfiltPlan::Sums::Int64) return f(int64_t{});
    }
    f(double{});
}

}  // namespace ipt::frontend
