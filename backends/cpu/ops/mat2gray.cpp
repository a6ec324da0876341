// SPDX-License-Identifier: Apache-2.0
// ipt.mat2gray as the front-end plans it (common/ops/mat2gray.hpp): without
// limits, the least and greatest non-NaN elements first (one threaded pass),
// then mat2gray_value per element.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/mat2gray.hpp"

namespace {

using ipt::frontend::Mat2grayScale;

constexpr int64_t kChunk = 1 << 15;

template <class T>
double as_double(T v) {
    if constexpr (std::is_same_v<T, bool>) return v ? 1.0 : 0.0;
    else return static_cast<double>(v);
}

// min and max over the non-NaN elements; +Inf and -Inf when there are none.
template <class T>
Mat2grayScale default_scale(const T* a, int64_t n) {
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    std::vector<double> lo(chunks, std::numeric_limits<double>::infinity());
    std::vector<double> hi(chunks, -std::numeric_limits<double>::infinity());
    ipt::cpu::parallel_for(0, chunks, [&](int64_t c) {
        const int64_t b = c * kChunk, e = std::min(n, b + kChunk);
        double l = lo[c], h = hi[c];
        for (int64_t i = b; i < e; ++i) {
            const double v = as_double(a[i]);
            if (v < l) l = v;
            if (v > h) h = v;
        }
        lo[c] = l;
        hi[c] = h;
    });
    const double l = chunks ? *std::min_element(lo.begin(), lo.end()) : std::numeric_limits<double>::infinity();
    const double h = chunks ? *std::max_element(hi.begin(), hi.end()) : -std::numeric_limits<double>::infinity();
    return ipt::frontend::mat2gray_default_scale(l, h);
}

template <class T>
void scale_to_gray(const T* a, double* out, int64_t n, const Mat2grayScale& s) {
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    ipt::cpu::parallel_for(0, chunks, [&](int64_t c) {
        const int64_t b = c * kChunk, e = std::min(n, b + kChunk);
        for (int64_t i = b; i < e; ++i) out[i] = ipt::frontend::mat2gray_value(as_double(a[i]), s);
    });
}

void run_mat2gray(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::Mat2grayPlan plan = ipt::frontend::plan_mat2gray(args);
    const ipt_tensor* I = args.output("I", IPT_DOUBLE, plan.rows, plan.cols, plan.channels);
    ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* a = static_cast<const T*>(plan.A->data);
        const Mat2grayScale s = plan.limits_given ? plan.scale : default_scale(a, plan.numel);
        scale_to_gray(a, static_cast<double*>(I->data), plan.numel, s);
    });
}

}  // namespace

IPT_CPU_OP("ipt.mat2gray", "", 100, run_mat2gray)
