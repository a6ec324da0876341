// SPDX-License-Identifier: Apache-2.0
// ipt.imbinarize as the front-end plans it (common/ops/imbinarize.hpp):
// 'global' counts graythresh's 256 bins and forms one level on the host;
// 'adaptive' takes adaptthresh's T (common/adaptthresh.hpp); a given or
// adaptive T is one level, or one level per element (imbinarize_level).
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/adaptthresh.hpp"
#include "common/histogram.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/imbinarize.hpp"

namespace {

constexpr int64_t kChunk = 1 << 15;

// BW(i) = I(i) > level(i); every class but double is exact in double, and
// NaN is never greater.
template <class T, class Level>
void binarize(const T* in, uint8_t* bw, int64_t n, Level level) {
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    ipt::cpu::parallel_for(0, chunks, [&](int64_t c) {
        const int64_t b = c * kChunk, e = std::min(n, b + kChunk);
        for (int64_t i = b; i < e; ++i) bw[i] = static_cast<double>(in[i]) > level(i) ? 1 : 0;
    });
}

template <class Tt>
double given_t(const ipt_tensor* t, int64_t i) {
    return static_cast<double>(static_cast<const Tt*>(t->data)[i]);
}

void run_imbinarize(const ipt::plugin::KernelArgs& args) {
    using ipt::frontend::GraythreshPlan;
    const ipt::frontend::ImbinarizePlan plan = ipt::frontend::plan_imbinarize(args);
    const ipt_tensor* BW = args.output("BW", IPT_LOGICAL, plan.rows, plan.cols, 1);
    uint8_t* bw = static_cast<uint8_t*>(BW->data);
    ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, bool>) {
            ipt::plugin::invalid("ipt.imbinarize: parameter 'I' must be numeric");
        } else {
            const T* in = static_cast<const T*>(plan.I->data);
            if (!plan.T && !plan.adaptive) {
                // The plan refuses 'global' for 32-bit integers.
                if constexpr (!std::is_same_v<T, int32_t> && !std::is_same_v<T, uint32_t>) {
                    std::vector<uint64_t> counts(GraythreshPlan::nbins, 0);
                    if (plan.global.needs_histogram)
                        counts = ipt::cpu::histogram_by(in, plan.numel, GraythreshPlan::nbins,
                                                        [](T v) { return ipt::frontend::graythresh_bin(v); });
                    const double level = ipt::frontend::imbinarize_global_level(plan, counts.data());
                    binarize(in, bw, plan.numel, [level](int64_t) { return level; });
                }
                return;
            }
            if (plan.adaptive && plan.local.statistic == ipt::frontend::AdaptStatistic::Mean) {
                // Row by row, without T in memory. Locals, since a store to
                // bw may alias anything the closure refers to.
                const int64_t cols = plan.cols;
                const double lo = plan.lo, span = plan.span;
                ipt::cpu::adaptthresh_mean_rows(plan.local, [in, bw, cols, lo, span](int64_t r, const double* t) {
                    const int64_t w = cols;
                    const double l = lo, s = span;
                    const T* a = in + r * w;
                    uint8_t* o = bw + r * w;
                    for (int64_t c = 0; c < w; ++c)
                        o[c] = static_cast<double>(a[c]) > ipt::frontend::imbinarize_level(l, s, t[c]) ? 1 : 0;
                });
                return;
            }
            if (plan.adaptive) {
                std::vector<double> t(static_cast<size_t>(plan.numel));
                ipt::cpu::adaptthresh_into(plan.local, t.data());
                binarize(in, bw, plan.numel,
                         [&](int64_t i) { return ipt::frontend::imbinarize_level(plan.lo, plan.span, t[i]); });
                return;
            }
            const bool single = plan.t_dtype == IPT_SINGLE;
            const int64_t step = plan.t_scalar ? 0 : 1;
            binarize(in, bw, plan.numel, [&](int64_t i) {
                const double t = single ? given_t<float>(plan.T, i * step) : given_t<double>(plan.T, i * step);
                return ipt::frontend::imbinarize_level(plan.lo, plan.span, t);
            });
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.imbinarize", "", 100, run_imbinarize)
