// ipt.dither: MATLAB's ditherc (MATLAB_SEMANTICS.md, dither): Floyd-Steinberg
// error diffusion with integer error terms over a column-major scan, and an
// inverse colormap of 2^Qm cells per axis whose entries are the nearest
// colormap colours (ties to the lowest index).
//
// dither(I) is the same with the colormap [0 0 0; 1 1 1] and I in all three
// channels; it returns logical. dither(RGB, map) returns zero-based indices,
// uint8 for up to 256 colours and uint16 above.
//
// The scan is inherently sequential (each pixel depends on the errors of the
// pixels before it). Inverse-colormap cells are filled on first use, so only
// the colours an image visits are searched.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/rounding.hpp"
#include "dither.hpp"

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

class InverseColormap {
public:
    // mapq: n x 3 quantised colours; cells per axis 2^qm, cell width 2^shift.
    // Cells are memoised when the table is small or the image large enough
    // to use it; otherwise every pixel searches the colormap.
    InverseColormap(const std::vector<int32_t>& mapq, int qm, int shift, int64_t pixels)
        : mapq_(mapq), qm_(qm), shift_(shift) {
        const int64_t cells = int64_t(1) << (3 * qm);
        if (cells <= (int64_t(1) << 24) && cells <= std::max<int64_t>(int64_t(1) << 15, 4 * pixels))
            memo_.assign(static_cast<size_t>(cells), -1);
    }

    int32_t lookup(int32_t r, int32_t g, int32_t b) {
        const int64_t ir = r >> shift_, ig = g >> shift_, ib = b >> shift_;
        if (memo_.empty()) return nearest(ir, ig, ib);
        int32_t& slot = memo_[static_cast<size_t>((((ir << qm_) | ig) << qm_) | ib)];
        if (slot < 0) slot = nearest(ir, ig, ib);
        return slot;
    }

private:
    int32_t nearest(int64_t ir, int64_t ig, int64_t ib) const {
        const int64_t w = int64_t(1) << shift_, half = w / 2;
        const int64_t cr = ir * w + half, cg = ig * w + half, cb = ib * w + half;
        const int64_t n = static_cast<int64_t>(mapq_.size() / 3);
        int32_t best = 0;
        int64_t best_d = -1;
        for (int64_t k = 0; k < n; ++k) {
            const int64_t dr = cr - mapq_[3 * k], dg = cg - mapq_[3 * k + 1], db = cb - mapq_[3 * k + 2];
            const int64_t d = dr * dr + dg * dg + db * db;
            if (best_d < 0 || d < best_d) {  // strict: ties keep the lowest index
                best_d = d;
                best = static_cast<int32_t>(k);
            }
        }
        return best;
    }

    const std::vector<int32_t>& mapq_;
    int qm_, shift_;
    std::vector<int32_t> memo_;
};

// Everything the scan needs, allocated before the output (nothing is written
// when an allocation fails).
struct DitherState {
    const ipt::common::DitherSetup& setup;
    InverseColormap inverse;
    std::vector<int32_t> cur, next;  // per channel: current column, errors for the next

    DitherState(const ipt::common::DitherSetup& s, int64_t rows, int64_t cols)
        : setup(s),
          inverse(s.mapq, s.qm, s.shift, rows * cols),
          cur(static_cast<size_t>(3 * rows)),
          next(static_cast<size_t>(3 * rows)) {}
};

// C = 3 for RGB; C = 1 for grayscale, whose three channels (same plane, same
// map values) stay identical throughout, so one carries all three.
template <int C, class T, class Out>
void diffuse(const T* const planes[3], int64_t rows, int64_t cols, DitherState& st, Out* out) {
    // Raw pointers in locals: the uint8 stores to out may alias anything, so
    // the compiler would otherwise reload them after every store.
    const int32_t top = st.setup.top, bias = st.setup.bias;
    const int32_t* const mapq = st.setup.mapq.data();
    InverseColormap& inverse = st.inverse;
    int32_t* const cur = st.cur.data();
    int32_t* const next = st.next.data();
    auto quantise = [&](const T* plane, int64_t r, int64_t c) {
        return ipt::common::dither_level(to_uint8(plane[r * cols + c]), top);
    };
    for (int ch = 0; ch < C; ++ch)
        for (int64_t r = 0; r < rows; ++r) cur[ch * rows + r] = quantise(planes[ch], r, 0);
    for (int64_t c = 0; c < cols; ++c) {
        std::fill(next, next + C * rows, 0);
        const bool has_next = c + 1 < cols;
        for (int64_t r = 0; r < rows; ++r) {
            int32_t v[C];
            for (int ch = 0; ch < C; ++ch) v[ch] = std::clamp(cur[ch * rows + r], 0, top);
            const int32_t idx = inverse.lookup(v[0], v[C / 2], v[C - 1]);
            out[r * cols + c] = static_cast<Out>(idx);
            for (int ch = 0; ch < C; ++ch) {
                const int32_t e = v[ch] - mapq[3 * idx + ch];
                if (e == 0) continue;  // nothing to diffuse
                int32_t* col = cur + ch * rows;
                int32_t* nxt = next + ch * rows;
                if (r + 1 < rows) col[r + 1] += ipt::common::dither_share(e, 7, bias);
                if (has_next) {
                    nxt[r] += ipt::common::dither_share(e, 5, bias);
                    if (r > 0) nxt[r - 1] += ipt::common::dither_share(e, 3, bias);
                    if (r + 1 < rows) nxt[r + 1] += ipt::common::dither_share(e, 1, bias);
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
    const ipt::common::DitherSetup setup = ipt::common::dither_setup(args);
    DitherState state(setup, img->rows, img->cols);
    const ipt_tensor* x = args.output("X", setup.out_dtype, img->rows, img->cols, 1);
    if (img->rows == 0 || img->cols == 0) return;
    ipt::cpu::visit_dtype(img->dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> ||
                      std::is_floating_point_v<T>) {
            const auto in = ipt::cpu::view<T>(img);
            if (setup.gray) {
                const T* gray[3] = {in.plane(0), nullptr, nullptr};
                diffuse<1>(gray, img->rows, img->cols, state, static_cast<uint8_t*>(x->data));
                return;
            }
            const T* planes[3] = {in.plane(0), in.plane(1), in.plane(2)};
            if (setup.out_dtype == IPT_UINT16)
                diffuse<3>(planes, img->rows, img->cols, state, static_cast<uint16_t*>(x->data));
            else
                diffuse<3>(planes, img->rows, img->cols, state, static_cast<uint8_t*>(x->data));
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.dither", "", 100, run_dither)
