// SPDX-License-Identifier: Apache-2.0
// ipt.stdfilt as the front-end plans it (common/ops/stdfilt.hpp): the two
// window sums of each pixel taken directly over the symmetrically padded
// plane, in double, then MATLAB's formula.
#include <cmath>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/padding.hpp"
#include "common/parallel.hpp"
#include "common/ops/stdfilt.hpp"

namespace {

template <class T, class Out>
void stdfilt_plane(const T* in, Out* out, const ipt::frontend::StdfiltPlan& p) {
    const auto n = static_cast<double>(p.count);
    ipt::cpu::parallel_for(0, p.rows, [&](int64_t r) {
        for (int64_t c = 0; c < p.cols; ++c) {
            if (p.zero) {
                out[r * p.cols + c] = Out(0);
                continue;
            }
            double s1 = 0, s2 = 0;
            for (const auto& m : p.nhood.members) {
                const int64_t rr = ipt::cpu::symmetric_index(r + m.dr, p.rows);
                const int64_t cc = ipt::cpu::symmetric_index(c + m.dc, p.cols);
                const auto v = static_cast<double>(in[rr * p.cols + cc]);
                s1 += v;
                s2 += v * v;
            }
            const double var = s2 / (n - 1) - s1 * s1 / (n * (n - 1));
            // max(var, 0) as MATLAB's max: NaN gives 0.
            out[r * p.cols + c] = static_cast<Out>(std::sqrt(var > 0 ? var : 0.0));
        }
    });
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
