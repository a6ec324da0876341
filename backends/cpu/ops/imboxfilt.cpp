// ipt.imboxfilt: MATLAB's integral-image route as the front-end plans it
// (common/ops/imboxfilt.hpp): the padded plane's integral image through the
// shared engine (common/integral_image.hpp), then four corners per output.
#include <cstring>
#include <type_traits>
#include <vector>

#include "common/convert.hpp"
#include "common/image.hpp"
#include "common/integral_image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/imboxfilt.hpp"
#include "common/parallel.hpp"

namespace {

using ipt::frontend::ImboxfiltPlan;

template <class T>
void run_class(const ImboxfiltPlan& p, T* B) {
    const int64_t stride = p.padded_cols + 1;
    std::vector<double> J(static_cast<size_t>((p.padded_rows + 1) * stride));
    const ipt::cpu::Border border = ipt::frontend::border_as<ipt::cpu::Border>(p.boundary);
    for (int64_t ch = 0; ch < p.channels; ++ch) {
        const T* A = static_cast<const T*>(p.A->data) + ch * p.rows * p.cols;
        ipt::cpu::integral_image(A, p.rows, p.cols, border, p.pad_value, p.top, p.left, p.padded_rows,
                                 p.padded_cols, J.data());
        T* Bp = B + ch * p.rows * p.cols;
        ipt::cpu::parallel_for(0, p.rows, [&](int64_t r) {
            for (int64_t c = 0; c < p.cols; ++c)
                Bp[r * p.cols + c] =
                    ipt::cpu::to_class<T>(ipt::frontend::box_value(J.data(), stride, r, c, p.fr, p.fc, p.norm));
        }, 16);
    }
}

void run_imboxfilt(const ipt::plugin::KernelArgs& args) {
    const ImboxfiltPlan p = ipt::frontend::plan_imboxfilt(args);
    const ipt_tensor* B = args.output("B", p.out_class, p.rows, p.cols, p.channels);
    if (p.rows * p.cols * p.channels == 0) return;
    ipt::cpu::visit_dtype(p.out_class, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_same_v<T, bool>) run_class<T>(p, static_cast<T*>(B->data));
    });
}

}  // namespace

IPT_CPU_OP("ipt.imboxfilt", "", 100, run_imboxfilt)
