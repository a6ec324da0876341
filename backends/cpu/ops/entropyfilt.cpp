// ipt.entropyfilt as the front-end plans it (common/ops/entropyfilt.hpp):
// each plane converted to its bins (im2uint8, or 0/1 for logical), then the
// histogram of every neighbourhood counted directly over the symmetrically
// padded plane and its entropy summed over the bins in increasing order.
#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "class_scaling.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/padding.hpp"
#include "common/parallel.hpp"
#include "common/ops/entropyfilt.hpp"

namespace {

void entropy_plane(const uint8_t* bins, double* out, const ipt::frontend::EntropyfiltPlan& p) {
    const auto n = static_cast<double>(p.count);
    ipt::cpu::parallel_for(0, p.rows, [&](int64_t r) {
        std::array<int32_t, 256> hist{};
        for (int64_t c = 0; c < p.cols; ++c) {
            hist.fill(0);
            for (const auto& m : p.nhood.members) {
                const int64_t rr = ipt::cpu::symmetric_index(r + m.dr, p.rows);
                const int64_t cc = ipt::cpu::symmetric_index(c + m.dc, p.cols);
                ++hist[bins[rr * p.cols + cc]];
            }
            double e = 0;
            for (int32_t b = 0; b < p.bins; ++b) {
                if (!hist[b]) continue;
                const double q = hist[b] / n;
                e -= q * std::log2(q);
            }
            out[r * p.cols + c] = e;
        }
    });
}

void run_entropyfilt(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::EntropyfiltPlan p = ipt::frontend::plan_entropyfilt(args);
    const ipt_tensor* in = args.image("I");
    const ipt_tensor* j = args.output("J", IPT_DOUBLE, p.rows, p.cols, p.channels);
    if (p.rows == 0 || p.cols == 0) return;
    const int64_t plane = p.rows * p.cols;
    std::vector<uint8_t> bins(static_cast<size_t>(plane));
    ipt::cpu::visit_dtype(p.in_dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_same_v<T, int32_t> && !std::is_same_v<T, uint32_t>)  // refused by the front-end
            for (int64_t ch = 0; ch < p.channels; ++ch) {
                const T* src = static_cast<const T*>(in->data) + ch * plane;
                for (int64_t i = 0; i < plane; ++i) {
                    if constexpr (std::is_same_v<T, bool>)
                        bins[static_cast<size_t>(i)] = src[i] ? 1 : 0;
                    else
                        bins[static_cast<size_t>(i)] = ipt::common::to_uint8_scale(src[i]);
                }
                entropy_plane(bins.data(), static_cast<double*>(j->data) + ch * plane, p);
            }
    });
}

}  // namespace

IPT_CPU_OP("ipt.entropyfilt", "", 100, run_entropyfilt)
