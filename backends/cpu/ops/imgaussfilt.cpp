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

namespace {

using ipt::cpu::Border;
using ipt::frontend::ImgaussfiltPlan;

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
