// SPDX-License-Identifier: Apache-2.0
// ipt.stdfilt as the front-end plans it (common/ops/stdfilt.hpp): the two
// window sums of each pixel over the symmetrically padded plane, then
// MATLAB's formula in double. The sums run a row of outputs at a time,
// member by member, over the columns whose offsets stay inside the row (a
// loop the compiler vectorises), the border columns through the padding
// rule; each pixel still adds its members in the plan's order. Integer
// classes sum in uint32 or int64 where the plan allows (the same integers
// the double sums hold), every other class in double.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/padding.hpp"
#include "common/parallel.hpp"
#include "common/ops/stdfilt.hpp"

namespace {

// MATLAB's formula from the two sums.
template <class Out>
Out standard_deviation(double s1, double s2, double n) {
    const double var = s2 / (n - 1) - s1 * s1 / (n * (n - 1));
    // max(var, 0) as MATLAB's max: NaN gives 0.
    return static_cast<Out>(std::sqrt(var > 0 ? var : 0.0));
}

template <class Acc, class T, class Out>
void sum_rows(const T* in, Out* out, const ipt::frontend::StdfiltPlan& p) {
    const auto n = static_cast<double>(p.count);
    const int64_t cols = p.cols;
    const int64_t inner_begin = std::min(p.nhood.extent, cols);
    const int64_t inner_end = std::max(inner_begin, cols - p.nhood.extent);
    ipt::cpu::parallel_for(0, p.rows, [&](int64_t r) {
        thread_local std::vector<Acc> sum, squares;
        sum.assign(static_cast<size_t>(cols), Acc(0));
        squares.assign(static_cast<size_t>(cols), Acc(0));
        Acc* s1 = sum.data();
        Acc* s2 = squares.data();
        for (const auto& m : p.nhood.members) {
            const T* row = in + ipt::cpu::symmetric_index(r + m.dr, p.rows) * cols;
            auto add_padded = [&](int64_t c) {
                const auto v = static_cast<Acc>(row[ipt::cpu::symmetric_index(c + m.dc, cols)]);
                s1[c] += v;
                s2[c] += v * v;
            };
            for (int64_t c = 0; c < inner_begin; ++c) add_padded(c);
            const T* shifted = row + m.dc;
            for (int64_t c = inner_begin; c < inner_end; ++c) {
                const auto v = static_cast<Acc>(shifted[c]);
                s1[c] += v;
                s2[c] += v * v;
            }
            for (int64_t c = inner_end; c < cols; ++c) add_padded(c);
        }
        for (int64_t c = 0; c < cols; ++c)
            out[r * cols + c] = standard_deviation<Out>(static_cast<double>(s1[c]), static_cast<double>(s2[c]), n);
    });
}

template <class T, class Out>
void stdfilt_plane(const T* in, Out* out, const ipt::frontend::StdfiltPlan& p) {
    if (p.zero) {
        std::fill(out, out + p.rows * p.cols, Out(0));
        return;
    }
    ipt::frontend::with_sums_accumulator<T>(p, [&](auto acc) { sum_rows<decltype(acc)>(in, out, p); });
}

void run_stdfilt(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::StdfiltPlan p = ipt::frontend::plan_stdfilt(args);
    const ipt_tensor* in = args.image("I");
    const ipt_tensor* j = args.output("J", p.out_dtype, p.rows, p.cols, p.channels);
    if (p.rows == 0 || p.cols == 0) return;
    const int64_t plane = p.rows * p.cols;
    ipt::cpu::visit_dtype(p.in_dtype, [&](auto tag) {
        using T = decltype(tag);
        for (int64_t ch = 0; ch < p.channels; ++ch) {
            const T* src = static_cast<const T*>(in->data) + ch * plane;
            if (p.out_dtype == IPT_SINGLE)
                stdfilt_plane(src, static_cast<float*>(j->data) + ch * plane, p);
            else
                stdfilt_plane(src, static_cast<double*>(j->data) + ch * plane, p);
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.stdfilt", "", 100, run_stdfilt)
