// SPDX-License-Identifier: Apache-2.0
// ipt.dither: MATLAB's ditherc (docs/matlab-semantics.md#dither): Floyd-Steinberg
// error diffusion with integer error terms over a column-major scan. The
// rules, the quantised colormap and the inverse colormap are the front-end's
// (backends/common/ops/dither.hpp).
//
// The scan is inherently sequential (each pixel depends on the errors of the
// pixels before it). Without the front-end's table (large Qm), inverse-
// colormap cells are filled on first use, so only the colours an image
// visits are searched.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/rounding.hpp"
#include "common/ops/dither.hpp"

namespace {

using ipt::plugin::KernelArgs;

// The uint8 value MATLAB's dither works on (im2uint8).
template <class T>
inline int32_t to_uint8(T v) {
    if constexpr (std::is_same_v<T, uint8_t>) return v;
    else if constexpr (std::is_same_v<T, uint16_t>) return ipt::cpu::saturate_round<uint8_t>(v / 257.0);
    else if constexpr (std::is_same_v<T, float>) return ipt::cpu::saturate_round<uint8_t>(255.0f * v);
    else return ipt::cpu::saturate_round<uint8_t>(255.0 * static_cast<double>(v));
}

// Colour of clamped levels. RGB: the front-end's table, or (large Qm) the
// nearest colour per cell, memoised when the cells are few enough or the
// image large enough to use them.
class ColourRule {
public:
    ColourRule(const ipt::frontend::DitherPlan& plan, int64_t pixels) : plan_(plan) {
        if (plan.gray || !plan.inverse.empty()) return;
        const int64_t cells = int64_t(1) << (3 * plan.qm);
        if (cells <= (int64_t(1) << 24) && cells <= std::max<int64_t>(int64_t(1) << 15, 4 * pixels))
            memo_.assign(static_cast<size_t>(cells), -1);
    }

    int32_t lookup(int32_t r, int32_t g, int32_t b) {
        if (plan_.gray) return r >= plan_.white_from ? 1 : 0;
        const int64_t ir = r >> plan_.shift, ig = g >> plan_.shift, ib = b >> plan_.shift;
        const size_t cell = static_cast<size_t>((((ir << plan_.qm) | ig) << plan_.qm) | ib);
        if (!plan_.inverse.empty()) return plan_.inverse[cell];
        if (memo_.empty()) return ipt::frontend::dither_nearest_colour(plan_.mapq, plan_.shift, ir, ig, ib);
        int32_t& slot = memo_[cell];
        if (slot < 0) slot = ipt::frontend::dither_nearest_colour(plan_.mapq, plan_.shift, ir, ig, ib);
        return slot;
    }

private:
    const ipt::frontend::DitherPlan& plan_;
    std::vector<int32_t> memo_;
};

// Everything the scan needs, allocated before the output (nothing is written
// when an allocation fails).
struct DitherState {
    const ipt::frontend::DitherPlan& plan;
    ColourRule colour;
    std::vector<int32_t> cur, next;  // per channel: current column, errors for the next

    explicit DitherState(const ipt::frontend::DitherPlan& p)
        : plan(p),
          colour(p, p.rows * p.cols),
          cur(static_cast<size_t>(3 * p.rows)),
          next(static_cast<size_t>(3 * p.rows)) {}
};

// C = 3 for RGB; C = 1 for grayscale, whose three channels (same plane, same
// map values) stay identical throughout, so one carries all three.
template <int C, class T, class Out>
void diffuse(const T* const planes[3], int64_t rows, int64_t cols, DitherState& st, Out* out) {
    // Raw pointers in locals: the uint8 stores to out may alias anything, so
    // the compiler would otherwise reload them after every store.
    const int32_t top = st.plan.top, bias = st.plan.bias;
    const int32_t* const mapq = st.plan.mapq.data();
    ColourRule& colour = st.colour;
    int32_t* const cur = st.cur.data();
    int32_t* const next = st.next.data();
    auto quantise = [&](const T* plane, int64_t r, int64_t c) {
        return ipt::frontend::dither_level(to_uint8(plane[r * cols + c]), top);
    };
    for (int ch = 0; ch < C; ++ch)
        for (int64_t r = 0; r < rows; ++r) cur[ch * rows + r] = quantise(planes[ch], r, 0);
    for (int64_t c = 0; c < cols; ++c) {
        std::fill(next, next + C * rows, 0);
        const bool has_next = c + 1 < cols;
        for (int64_t r = 0; r < rows; ++r) {
            int32_t v[C];
            for (int ch = 0; ch < C; ++ch) v[ch] = std::clamp(cur[ch * rows + r], 0, top);
            const int32_t idx = colour.lookup(v[0], v[C / 2], v[C - 1]);
            out[r * cols + c] = static_cast<Out>(idx);
            for (int ch = 0; ch < C; ++ch) {
                const int32_t e = v[ch] - mapq[3 * idx + ch];
                if (e == 0) continue;  // nothing to diffuse
                int32_t* col = cur + ch * rows;
                int32_t* nxt = next + ch * rows;
                if (r + 1 < rows) col[r + 1] += ipt::frontend::dither_share(e, 7, bias);
                if (has_next) {
                    nxt[r] += ipt::frontend::dither_share(e, 5, bias);
                    if (r > 0) nxt[r - 1] += ipt::frontend::dither_share(e, 3, bias);
                    if (r + 1 < rows) nxt[r + 1] += ipt::frontend::dither_share(e, 1, bias);
                }
            }
        }
        if (has_next)
            for (int ch = 0; ch < C; ++ch)
                for (int64_t r = 0; r < rows; ++r)
                    cur[ch * rows + r] = quantise(planes[ch], r, c + 1) + next[ch * rows + r];
    }
}

void run_dither(const KernelArgs& args) {
    const ipt_tensor* img = args.image("I");
    const ipt::frontend::DitherPlan plan = ipt::frontend::plan_dither(args);
    if (plan.rows == 0 || plan.cols == 0) {  // nothing to scan: no state sized by the other side
        args.output("X", plan.out_dtype, plan.rows, plan.cols, 1);
        return;
    }
    DitherState state(plan);
    const ipt_tensor* x = args.output("X", plan.out_dtype, plan.rows, plan.cols, 1);
    ipt::cpu::visit_dtype(img->dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> ||
                      std::is_floating_point_v<T>) {
            const auto in = ipt::cpu::view<T>(img);
            if (plan.gray) {
                const T* gray[3] = {in.plane(0), nullptr, nullptr};
                diffuse<1>(gray, img->rows, img->cols, state, static_cast<uint8_t*>(x->data));
                return;
            }
            const T* planes[3] = {in.plane(0), in.plane(1), in.plane(2)};
            if (plan.out_dtype == IPT_UINT16)
                diffuse<3>(planes, img->rows, img->cols, state, static_cast<uint16_t*>(x->data));
            else
                diffuse<3>(planes, img->rows, img->cols, state, static_cast<uint8_t*>(x->data));
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.dither", "", 100, run_dither)
