// ipt.imgaussfilt: B = imgaussfilt(A, sigma, ...), the route and the taps as
// the front-end plans them (common/ops/imgaussfilt.hpp,
// docs/matlab-semantics.md#imgaussfilt), on the shared correlation engine
// (common/correlate.hpp), plane by plane.
//
// Direct route: imfilter's arithmetic with the 2-D kernel (single in single,
// every other class in double, the engine's rank-1 split included).
// Separable route: the padded image in the working class, a column pass then
// a row pass in that class (MATLAB's conv2(hcol, hrow, A)), each tap summed in
// order, then rounded to A's class.
//
// A rank-1 plan (either route) skips the padded rows: the column pass reads
// A's rows directly over A's columns (a padded column repeats a column of A,
// or holds the constant, so its column sum is one of those), the border
// columns are copied or take the constant's sum, then the engine's row pass.
// Every value is the same sum of the same products in the same order.
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "common/convert.hpp"
#include "common/correlate.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/imgaussfilt.hpp"
#include "common/padding.hpp"
#include "common/parallel.hpp"

namespace {

using ipt::cpu::Border;
using ipt::frontend::ImgaussfiltPlan;

template <class Acc, int VB>
using vec_t = ipt::cpu::correlate_detail::vec_t<Acc, VB>;

// out[j] = sum over taps t in order of w[t] * src[t][j] for j < n, from
// +0; a null src[t] is a row of `pad`.
template <class Acc, int VB>
IPT_ALWAYS_INLINE void column_pass_impl(const Acc* const* src, const Acc* w, int64_t taps, Acc pad, int64_t n,
                                        Acc* out) {
    using V = vec_t<Acc, VB>;
    constexpr int L = VB / static_cast<int>(sizeof(Acc));
    constexpr int NV = 4;
    int64_t j = 0;
    for (; j + NV * L <= n; j += NV * L) {
        V acc[NV];
        for (int v = 0; v < NV; ++v) acc[v] = V{};
        for (int64_t t = 0; t < taps; ++t) {
            const V wv = V{} + w[t];
            if (const Acc* s = src[t]) {
                for (int v = 0; v < NV; ++v) {
                    V x;
                    std::memcpy(&x, s + j + v * L, sizeof x);
                    acc[v] += wv * x;
                }
            } else {
                const V pv = V{} + pad;
                for (int v = 0; v < NV; ++v) acc[v] += wv * pv;
            }
        }
        for (int v = 0; v < NV; ++v) std::memcpy(out + j + v * L, &acc[v], sizeof acc[v]);
    }
    for (; j < n; ++j) {
        Acc acc = 0;
        for (int64_t t = 0; t < taps; ++t) acc += w[t] * (src[t] ? src[t][j] : pad);
        out[j] = acc;
    }
}

template <class Acc>
__attribute__((target("avx512f,avx512dq"))) void column_pass_avx512(const Acc* const* src, const Acc* w,
                                                                   int64_t taps, Acc pad, int64_t n, Acc* out) {
    column_pass_impl<Acc, 64>(src, w, taps, pad, n, out);
}
template <class Acc>
__attribute__((target("avx2"))) void column_pass_avx2(const Acc* const* src, const Acc* w, int64_t taps, Acc pad,
                                                      int64_t n, Acc* out) {
    column_pass_impl<Acc, 32>(src, w, taps, pad, n, out);
}
template <class Acc>
void column_pass_base(const Acc* const* src, const Acc* w, int64_t taps, Acc pad, int64_t n, Acc* out) {
    column_pass_impl<Acc, 16>(src, w, taps, pad, n, out);
}

// The rank-1 plan without padded rows (see the top of the file).
template <class T, class Acc>
void filter_separable(const ImgaussfiltPlan& p, const ipt::cpu::FilterPlan<Acc>& plan, Acc pad,
                      const std::vector<int64_t>& colmap, T* B) {
    const int64_t ma = p.rows, na = p.cols, pcols = na + plan.kcols - 1;
    const Border border = ipt::frontend::border_as<Border>(p.boundary);
    // The column kernel: one tap per kernel row, in order.
    const ipt::cpu::TapKernel<Acc>& ck = plan.column;
    const int64_t taps = static_cast<int64_t>(ck.tap_rows.size());
    std::vector<Acc> w(static_cast<size_t>(taps));
    std::vector<int64_t> offset(static_cast<size_t>(taps));
    for (int64_t t = 0; t < taps; ++t) {
        w[static_cast<size_t>(t)] = ck.w[static_cast<size_t>(ck.tap_rows[static_cast<size_t>(t)].begin)];
        offset[static_cast<size_t>(t)] = ck.tap_rows[static_cast<size_t>(t)].row;
    }
    // A padded column that holds the constant throughout.
    Acc pad_sum = 0;
    for (int64_t t = 0; t < taps; ++t) pad_sum += w[static_cast<size_t>(t)] * pad;
    const int level = ipt::cpu::isa_level();
    for (int64_t ch = 0; ch < p.channels; ++ch) {
        const T* A = static_cast<const T*>(p.A->data) + ch * ma * na;
        T* Bp = B + ch * ma * na;
        // Blocks of output rows; A's rows they read converted once into a
        // per-thread buffer (kept between calls) that stays in L2.
        constexpr int64_t kRows = 32;
        const int64_t kr = plan.krows;
        ipt::cpu::parallel_for(0, (ma + kRows - 1) / kRows, [&](int64_t blk) {
            const int64_t r0 = blk * kRows, r1 = std::min(ma, r0 + kRows);
            thread_local std::vector<Acc> mid, row, rows;
            if (mid.size() < static_cast<size_t>(pcols)) mid.resize(static_cast<size_t>(pcols));
            if (row.size() < static_cast<size_t>(na)) row.resize(static_cast<size_t>(na));
            // Padded row r0 + i, converted, or null where it holds the constant.
            std::vector<const Acc*> padded(static_cast<size_t>(r1 - r0 + kr - 1));
            if constexpr (!std::is_same_v<T, Acc>) {
                if (rows.size() < padded.size() * static_cast<size_t>(na)) rows.resize(padded.size() * static_cast<size_t>(na));
            }
            for (size_t i = 0; i < padded.size(); ++i) {
                const int64_t ar = ipt::cpu::border_index(border, r0 + static_cast<int64_t>(i) - p.top, ma);
                if (ar < 0) {
                    padded[i] = nullptr;
                } else if constexpr (std::is_same_v<T, Acc>) {
                    padded[i] = A + ar * na;
                } else {
                    Acc* dst = rows.data() + i * static_cast<size_t>(na);
                    ipt::cpu::convert_row(A + ar * na, dst, na);
                    padded[i] = dst;
                }
            }
            std::vector<const Acc*> src(static_cast<size_t>(taps));
            for (int64_t r = r0; r < r1; ++r) {
                for (int64_t t = 0; t < taps; ++t)
                    src[static_cast<size_t>(t)] = padded[static_cast<size_t>(r - r0 + offset[static_cast<size_t>(t)])];
                Acc* m = mid.data();
                switch (level) {
                case 2: column_pass_avx512(src.data(), w.data(), taps, pad, na, m + p.left); break;
                case 1: column_pass_avx2(src.data(), w.data(), taps, pad, na, m + p.left); break;
                default: column_pass_base(src.data(), w.data(), taps, pad, na, m + p.left); break;
                }
                for (int64_t q = 0; q < pcols; ++q) {
                    if (q == p.left) q += na;
                    if (q >= pcols) break;
                    const int64_t s = colmap[static_cast<size_t>(q)];
                    m[q] = s < 0 ? pad_sum : m[p.left + s];
                }
                if constexpr (std::is_same_v<T, Acc>) {
                    ipt::cpu::correlate_rows(m, pcols, plan.row, 1, na, Bp + r * na, na);
                } else {
                    ipt::cpu::correlate_rows(m, pcols, plan.row, 1, na, row.data(), na);
                    ipt::cpu::convert_row(row.data(), Bp + r * na, na);
                }
            }
        });
    }
}

template <class T, class Acc>
void filter(const ImgaussfiltPlan& p, const ipt::cpu::FilterPlan<Acc>& plan, T* B) {
    const int64_t ma = p.rows, na = p.cols;
    const Border border = ipt::frontend::border_as<Border>(p.boundary);
    // The constant in the class the padding happens in (A's or the working
    // class), then in the accumulation type.
    const Acc pad = p.separable ? static_cast<Acc>(p.pad_value)
                                : static_cast<Acc>(ipt::cpu::to_class<T>(p.pad_value));
    const int64_t pcols = na + p.kc - 1;
    std::vector<int64_t> colmap(static_cast<size_t>(pcols));
    for (int64_t q = 0; q < pcols; ++q) colmap[static_cast<size_t>(q)] = ipt::cpu::border_index(border, q - p.left, na);
    if (plan.separable) {
        filter_separable<T, Acc>(p, plan, pad, colmap, B);
        return;
    }
    for (int64_t ch = 0; ch < p.channels; ++ch) {
        const T* A = static_cast<const T*>(p.A->data) + ch * ma * na;
        auto fill = [&](int64_t row, Acc* dst) {
            const int64_t r = ipt::cpu::border_index(border, row - p.top, ma);
            if (r < 0) {
                std::fill(dst, dst + pcols, pad);
                return;
            }
            const T* src = A + r * na;
            for (int64_t q = 0; q < pcols; ++q) {
                const int64_t s = colmap[static_cast<size_t>(q)];
                dst[q] = s < 0 ? pad : static_cast<Acc>(src[s]);
            }
        };
        T* Bp = B + ch * ma * na;
        if constexpr (std::is_same_v<T, Acc>) {
            ipt::cpu::run_filter_plan_into(plan, ma, na, fill, Bp, na);
        } else {
            auto store = [&](int64_t o, const Acc* v) { ipt::cpu::convert_row(v, Bp + o * na, na); };
            ipt::cpu::run_filter_plan(plan, ma, na, fill, store);
        }
    }
}

template <class T>
void run_class(const ImgaussfiltPlan& p, T* B) {
    if (p.separable) {
        if (p.work_class == IPT_SINGLE)
            filter<T, float>(p, ipt::cpu::make_separable_plan<float>(p.hcol.data(), p.kr, p.hrow.data(), p.kc, true),
                             B);
        else
            filter<T, double>(p, ipt::cpu::make_separable_plan<double>(p.hcol.data(), p.kr, p.hrow.data(), p.kc, true),
                              B);
    } else if (p.work_class == IPT_SINGLE) {
        filter<T, float>(p, ipt::cpu::make_filter_plan<float>(p.h.data(), p.kr, p.kc, true, true), B);
    } else {
        filter<T, double>(p, ipt::cpu::make_filter_plan<double>(p.h.data(), p.kr, p.kc, true, true), B);
    }
}

void run_imgaussfilt(const ipt::plugin::KernelArgs& args) {
    const ImgaussfiltPlan p = ipt::frontend::plan_imgaussfilt(args);
    const ipt_tensor* B = args.output("B", p.out_class, p.rows, p.cols, p.channels);
    if (p.rows * p.cols * p.channels == 0) return;
    ipt::cpu::visit_dtype(p.out_class, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_same_v<T, bool>) run_class<T>(p, static_cast<T*>(B->data));
    });
}

}  // namespace

IPT_CPU_OP("ipt.imgaussfilt", "", 100, run_imgaussfilt)
