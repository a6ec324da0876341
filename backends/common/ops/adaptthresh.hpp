// ipt.adaptthresh's front-end: T = adaptthresh(I, sensitivity,
// 'NeighborhoodSize', n, 'ForegroundPolarity', p, 'Statistic', 'mean')
// (docs/matlab-semantics.md#adaptthresh), also imbinarize's 'adaptive'
// threshold. I is converted to double on the [0,1] scale (adaptthresh_unit:
// im2double, and the same rule for 32-bit integers), its local mean is
// imboxfilt's integral-image route with replicated borders
// (ops/imboxfilt.hpp: box_value, the order every backend follows), with the
// factor scale/prod(n), scale = 0.6 + (1 - sensitivity) for a bright
// foreground and 0.4 + sensitivity for a dark one; the result is clipped to
// [0,1] as max(min(T, 1), 0), in which NaN becomes 1. T is double, the size
// of I; an empty I gives an empty T. 'median' and 'gaussian' are declined.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "imboxfilt.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct AdaptthreshPlan {
    const ipt_tensor* I = nullptr;
    int32_t dtype = 0;
    int64_t rows = 0, cols = 0;
    double scale = 1.1;          // from the sensitivity and the polarity
    ImboxfiltPlan box;           // the local mean of the converted image (box.A unused)
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
                                            int64_t nr, int64_t nc) {
    AdaptthreshPlan p;
    p.I = I;
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
    return p;
}

inline AdaptthreshPlan plan_adaptthresh(const ipt::plugin::KernelArgs& args) {
    if (!args.is("Statistic", "mean"))
        ipt::plugin::unsupported("ipt.adaptthresh: Statistic '" + args.text("Statistic") + "' is not implemented");
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
                                args.is("ForegroundPolarity", "bright"), nr, nc);
}

}  // namespace ipt::frontend
