// SPDX-License-Identifier: Apache-2.0
// ipt.radon: MATLAB's radonc algorithm (docs/matlab-semantics.md#radon). The
// geometry, the angles' cos and sin and the sub-pixel rule are the
// front-end's (backends/common/ops/radon.hpp).
//
// The nonzero pixels are listed once, in MATLAB's column-major order, so each
// angle visits them in the same order as radonc (the same sums). Angles run
// in parallel, each on its own column, so the result does not depend on the
// thread count.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/radon.hpp"

namespace {

using ipt::plugin::KernelArgs;

// Nonzero pixels, column by column: column x holds entries [start[x], start[x+1]).
struct NonzeroPixels {
    std::vector<int64_t> start;
    std::vector<int32_t> row;
    std::vector<double> quarter;  // value / 4
};

template <class T>
NonzeroPixels list_nonzero(const T* img, int64_t rows, int64_t cols) {
    NonzeroPixels p;
    p.start.resize(cols + 1);
    for (int64_t x = 0; x < cols; ++x) {
        p.start[x] = static_cast<int64_t>(p.row.size());
        for (int64_t y = 0; y < rows; ++y) {
            const double v = static_cast<double>(img[y * cols + x]);
            if (v != 0.0) {  // NaN is kept, as in radonc
                p.row.push_back(static_cast<int32_t>(y));
                p.quarter.push_back(v * 0.25);
            }
        }
    }
    p.start[cols] = static_cast<int64_t>(p.row.size());
    return p;
}

inline void deposit(double* bins, double value, double r) {
    const int64_t k = static_cast<int64_t>(r);  // r > 0: truncation is floor
    const double delta = r - static_cast<double>(k);
    bins[k] += value * (1.0 - delta);
    bins[k + 1] += value * delta;
}

void run_radon(const KernelArgs& args) {
    const ipt::frontend::RadonPlan plan = ipt::frontend::plan_radon(args);
    const ipt_tensor* img = args.image("I");
    const int64_t rows = plan.rows, cols = plan.cols, angles = plan.angles, bins = plan.bins;
    const int64_t x_origin = plan.x_origin, y_origin = plan.y_origin;
    if (rows == 0 || cols == 0) {  // no pixels: R is zeros, with no pass over the other side
        double* out = static_cast<double*>(args.output("R", IPT_DOUBLE, bins, angles, 1)->data);
        if (plan.want_xp) {
            double* xp = static_cast<double*>(args.output("xp", IPT_DOUBLE, bins, 1, 1)->data);
            std::copy(plan.xp.begin(), plan.xp.end(), xp);
        }
        std::fill(out, out + bins * angles, 0.0);
        return;
    }

    const NonzeroPixels pixels = ipt::cpu::visit_dtype(img->dtype, [&](auto tag) {
        using T = decltype(tag);
        return list_nonzero(static_cast<const T*>(img->data), rows, cols);
    });

    const int64_t blocks = std::min<int64_t>(angles, 4 * ipt::cpu::thread_count());
    // Per block: x cos table (2 per column), y sin table (2 per row), one column of bins.
    const int64_t scratch = 2 * cols + 2 * rows + bins;
    std::vector<double> work(static_cast<size_t>(blocks * scratch));

    // Outputs last: nothing is written when a check or an allocation fails.
    double* out = static_cast<double*>(args.output("R", IPT_DOUBLE, bins, angles, 1)->data);
    if (plan.want_xp) {
        double* xp = static_cast<double*>(args.output("xp", IPT_DOUBLE, bins, 1, 1)->data);
        std::copy(plan.xp.begin(), plan.xp.end(), xp);
    }
    ipt::cpu::parallel_for(0, blocks, [&](int64_t b) {
        double* x_cos = work.data() + b * scratch;
        double* y_sin = x_cos + 2 * cols;
        double* column = y_sin + 2 * rows;
        for (int64_t k = angles * b / blocks; k < angles * (b + 1) / blocks; ++k) {
            const double c = plan.cos_theta[k], s = plan.sin_theta[k];
            for (int64_t x = 0; x < cols; ++x) {
                const double base = static_cast<double>(x - x_origin) * c;
                x_cos[2 * x] = base - 0.25 * c;
                x_cos[2 * x + 1] = base + 0.25 * c;
            }
            for (int64_t y = 0; y < rows; ++y) {
                const double base = static_cast<double>(y_origin - y) * s;
                y_sin[2 * y] = base - 0.25 * s;
                y_sin[2 * y + 1] = base + 0.25 * s;
            }
            std::fill(column, column + bins, 0.0);
            const double shift = static_cast<double>(plan.r_first);
            for (int64_t x = 0; x < cols; ++x) {
                const double x0 = x_cos[2 * x], x1 = x_cos[2 * x + 1];
                for (int64_t i = pixels.start[x]; i < pixels.start[x + 1]; ++i) {
                    const int64_t y = pixels.row[i];
                    const double v = pixels.quarter[i];
                    const double y0 = y_sin[2 * y], y1 = y_sin[2 * y + 1];
                    deposit(column, v, x0 + y0 - shift);
                    deposit(column, v, x1 + y0 - shift);
                    deposit(column, v, x0 + y1 - shift);
                    deposit(column, v, x1 + y1 - shift);
                }
            }
            for (int64_t i = 0; i < bins; ++i) out[i * angles + k] = column[i];
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.radon", "", 100, run_radon)
