// SPDX-License-Identifier: Apache-2.0
// ipt.entropyfilt's rules (MATLAB's entropyfilt; docs/matlab-semantics.md#entropyfilt):
//
//   J = entropyfilt(I, nhood)
//
// A logical I keeps its two values (2 bins); any other class is converted
// as an image with im2uint8 (256 bins; backends/common/class_scaling.hpp),
// which MATLAB defines for uint8, uint16, int16, single and double only, so
// int32 and uint32 are refused. The image is padded symmetrically (mirror
// including the edge pixel), and each output pixel is the entropy in bits of
// the histogram of its neighbourhood (nhood, default true(9), odd in each
// dimension): with n members and count k in a bin, p = k/n and
//   J = -sum over bins with k > 0 of p * log2(p),
// the bins taken in increasing order. J is double. Each plane of an RGB
// image alike.
//
// The backends slide the window (Huang's running histogram): a step of one
// pixel removes the members whose pixel leaves and adds those whose pixel
// enters (entropy_slide), which holds for any nhood; a rectangle changes one
// row or column of members per step. Each output then sums the table of
// terms (entropy_terms) over the occupied bins in increasing order: the same
// doubles, subtracted in the same order, as the definition above.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../local_statistics.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct EntropyfiltPlan {
    int32_t in_dtype = IPT_UINT8;
    int64_t rows = 0, cols = 0, channels = 1;
    LocalNeighbourhood nhood;
    int64_t count = 0;  // n, the number of members
    int32_t bins = 256; // 2 for logical
};

inline EntropyfiltPlan plan_entropyfilt(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* in = args.image("I");
    if (in->dtype == IPT_INT32 || in->dtype == IPT_UINT32)
        ipt::plugin::invalid("ipt.entropyfilt: parameter 'I' must be logical, uint8, uint16, int16, single or "
                             "double (im2uint8 does not convert " +
                             std::string(in->dtype == IPT_INT32 ? "int32" : "uint32") + ")");
    EntropyfiltPlan p;
    p.in_dtype = in->dtype;
    p.rows = in->rows;
    p.cols = in->cols;
    p.channels = in->channels;
    p.nhood = local_statistics_detail::neighbourhood(args, "ipt.entropyfilt", 9, true);
    p.count = static_cast<int64_t>(p.nhood.members.size());
    p.bins = in->dtype == IPT_LOGICAL ? 2 : 256;
    return p;
}

// T[k] = p log2(p) with p = k/n (T[0] = 0, so subtracting it leaves any sum
// unchanged): the term of a bin of count k, computed as the definition does.
inline std::vector<double> entropy_terms(int64_t count) {
    std::vector<double> t(static_cast<size_t>(count + 1), 0.0);
    const auto n = static_cast<double>(count);
    for (int64_t k = 1; k <= count; ++k) {
        const double q = static_cast<double>(k) / n;
        t[static_cast<size_t>(k)] = q * std::log2(q);
    }
    return t;
}

// Moving the window from p to p + step: the pixel at p + m leaves for each
// member m of `leave` (m - step is no member) and the pixel at p + step + m
// enters for each member m of `enter` (m + step is no member).
struct EntropySlide {
    std::vector<NhoodOffset> leave, enter;
};

inline EntropySlide entropy_slide(const LocalNeighbourhood& nh, int64_t step_dr, int64_t step_dc) {
    std::vector<char> set(static_cast<size_t>(nh.rows * nh.cols), 0);
    auto member = [&](int64_t dr, int64_t dc) {
        const int64_t r = dr + nh.origin_row, c = dc + nh.origin_col;
        return r >= 0 && r < nh.rows && c >= 0 && c < nh.cols && set[static_cast<size_t>(r * nh.cols + c)];
    };
    for (const auto& m : nh.members)
        set[static_cast<size_t>((m.dr + nh.origin_row) * nh.cols + m.dc + nh.origin_col)] = 1;
    EntropySlide s;
    for (const auto& m : nh.members) {
        if (!member(m.dr - step_dr, m.dc - step_dc)) s.leave.push_back(m);
        if (!member(m.dr + step_dr, m.dc + step_dc)) s.enter.push_back(m);
    }
    return s;
}

}  // namespace ipt::frontend
