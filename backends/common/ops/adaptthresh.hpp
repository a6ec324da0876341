// SPDX-License-Identifier: Apache-2.0
// ipt.adaptthresh's front-end: T = adaptthresh(I, sensitivity,
// 'NeighborhoodSize', n, 'ForegroundPolarity', p, 'Statistic', s)
// (docs/matlab-semantics.md#adaptthresh), also imbinarize's 'adaptive'
// threshold (always 'mean'). I is converted to double on the [0,1] scale
// (adaptthresh_unit: im2double, and the same rule for 32-bit integers);
// scale = 0.6 + (1 - sensitivity) for a bright foreground and
// 0.4 + sensitivity for a dark one. The statistic of the converted image U:
//  - 'mean': imboxfilt's integral-image route with replicated borders
//    (ops/imboxfilt.hpp: box_value, the order every backend follows), with
//    the factor scale/prod(n);
//  - 'median': scale * medfilt2(U, n, 'symmetric') (n is odd, so one order);
//  - 'gaussian': scale * imgaussfilt(U, n), i.e. sigma = n, the default
//    FilterSize 2*ceil(2*n)+1 and replicated borders, on imgaussfilt's route
//    for a double image (ops/imgaussfilt.hpp).
// The result is clipped to [0,1] as max(min(T, 1), 0), in which NaN becomes
// 1. T is double, the size of I; an empty I gives an empty T.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "imboxfilt.hpp"
#include "imgaussfilt.hpp"
#include "ordfilt2.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

enum class AdaptStatistic : int32_t { Mean, Median, Gaussian };

struct AdaptthreshPlan {
    const ipt_tensor* I = nullptr;
    AdaptStatistic statistic = AdaptStatistic::Mean;
    int32_t dtype = 0;
    int64_t rows = 0, cols = 0;
    double scale = 1.1;          // from the sensitivity and the polarity
    ImboxfiltPlan box;           // the local mean of the converted image (box.A unused)
    // 'median': the n(1) x n(2) window centred at (n-1)/2, its middle order
    // (1-based), mirrored borders.
    int64_t window_rows = 1, window_cols = 1, centre_row = 0, centre_col = 0, order = 1;
    order::Padding median_pad{order::Pad::Symmetric, 0.0};
    // 'gaussian': imgaussfilt's plan for a double image of I's size (A unset).
    ImgaussfiltPlan gauss;
};

// A value of I on the [0,1] scale, in double.
template <class T>
IPT_BOX_FN double adaptthresh_unit(T v) {
    if constexpr (std::is_same_v<T, uint8_t>) return static_cast<double>(v) / 255.0;
    else if constexpr (std::is_same_v<T, uint16_t>) return static_cast<double>(v) / 65535.0;
    else if constexpr (std::is_same_v<T, int16_t>) return (static_cast<double>(v) + 32768.0) / 65535.0;
    else if constexpr (std::is_same_v<T, uint32_t>) return static_cast<double>(v) / 4294967295.0;
    else if constexpr (std::is_same_v<T, int32_t>) return (static_cast<double>(v) + 2147483648.0) / 4294967295.0;
    else return static_cast<double>(v);
}

// max(min(t, 1), 0) as MATLAB's min and max treat NaN: NaN gives 1.
IPT_BOX_FN double adaptthresh_clip(double t) { return t < 1.0 ? (t > 0.0 ? t : 0.0) : 1.0; }

// The plan for I with the given options; nr, nc <= 0: the default size
// 2*floor(size(I)/16)+1.
inline AdaptthreshPlan plan_adaptthresh_for(const char* op, const ipt_tensor* I, double sensitivity, bool bright,
                                            int64_t nr, int64_t nc,
                                            AdaptStatistic statistic = AdaptStatistic::Mean) {
    AdaptthreshPlan p;
    p.I = I;
    p.statistic = statistic;
    p.dtype = I->dtype;
    if (I->channels != 1) ipt::plugin::invalid(std::string(op) + ": parameter 'I' must be a 2-D grayscale image");
    p.rows = I->rows;
    p.cols = I->cols;
    p.scale = bright ? 0.6 + (1.0 - sensitivity) : 0.4 + sensitivity;
    if (nr <= 0) {
        nr = 2 * (p.rows / 16) + 1;
        nc = 2 * (p.cols / 16) + 1;
    }
    ImboxfiltPlan& b = p.box;
    b.rows = p.rows;
    b.cols = p.cols;
    b.out_class = IPT_DOUBLE;
    b.fr = nr;
    b.fc = nc;
    b.boundary = ImfilterBoundary::Replicate;
    b.norm = p.scale / static_cast<double>(nr * nc);
    b.top = (nr - 1) / 2;
    b.left = (nc - 1) / 2;
    b.padded_rows = p.rows + nr - 1;
    b.padded_cols = p.cols + nc - 1;
    if (statistic == AdaptStatistic::Median) {
        if (nr * nc > (int64_t(1) << 24))
            ipt::plugin::unsupported(std::string(op) + ": a median window over 2^24 values is not implemented");
        p.window_rows = nr;
        p.window_cols = nc;
        p.centre_row = order::centre(nr);
        p.centre_col = order::centre(nc);
        p.order = (nr * nc + 1) / 2;
    } else if (statistic == AdaptStatistic::Gaussian) {
        ImgaussfiltPlan& g = p.gauss;
        g.rows = p.rows;
        g.cols = p.cols;
        g.out_class = IPT_DOUBLE;
        g.sigma[0] = static_cast<double>(nr);
        g.sigma[1] = static_cast<double>(nc);
        if (nr > 1024 || nc > 1024)
            ipt::plugin::unsupported(std::string(op) + ": a Gaussian filter over 4097 taps a side is not implemented");
        g.kr = 2 * static_cast<int64_t>(std::ceil(2 * g.sigma[0])) + 1;
        g.kc = 2 * static_cast<int64_t>(std::ceil(2 * g.sigma[1])) + 1;
        g.boundary = ImfilterBoundary::Replicate;
        g.top = imfilter_origin(g.kr);
        g.left = imfilter_origin(g.kc);
        g.separable = imgaussfilt_separable(IPT_DOUBLE, g.kr, g.kc);
        g.work_class = IPT_DOUBLE;
        g.pad_value = 0;
        if (g.separable) {
            g.hcol = gaussian_taps(g.sigma[0], g.kr);
            g.hrow = nr == nc ? g.hcol : gaussian_taps(g.sigma[1], g.kc);
        } else {
            g.h = gaussian_kernel_2d(g.sigma, g.kr, g.kc);
        }
    }
    return p;
}

inline AdaptthreshPlan plan_adaptthresh(const ipt::plugin::KernelArgs& args) {
    const AdaptStatistic statistic = args.is("Statistic", "median")     ? AdaptStatistic::Median
                                     : args.is("Statistic", "gaussian") ? AdaptStatistic::Gaussian
                                                                        : AdaptStatistic::Mean;
    int64_t nr = 0, nc = 0;
    if (args.present("NeighborhoodSize")) {
        const double* n = args.floats("NeighborhoodSize");
        const double r = n[0], c = args.count("NeighborhoodSize") > 1 ? n[1] : n[0];
        if (std::fmod(r, 2) != 1 || std::fmod(c, 2) != 1)
            ipt::plugin::invalid("ipt.adaptthresh: parameter 'NeighborhoodSize' must hold odd positive integers");
        nr = static_cast<int64_t>(r);
        nc = static_cast<int64_t>(c);
    }
    return plan_adaptthresh_for("ipt.adaptthresh", args.image("I"), args.number("sensitivity"),
                                args.is("ForegroundPolarity", "bright"), nr, nc, statistic);
}

}  // namespace ipt::frontend
