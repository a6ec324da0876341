// ipt.imboxfilt (common/ops/imboxfilt.hpp): per plane, the padded plane's
// integral image through the shared passes (common/integral_image.cuh), then
// each output from the four corners of its window (box_value, the CPU
// reference's order), converted once to A's class.
#include <type_traits>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/integral_image.cuh"
#include "common/op_registry.hpp"
#include "common/ops/imboxfilt.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::ImboxfiltPlan;

template <class T>
__global__ void box_kernel(const double* __restrict__ J, T* __restrict__ b, int64_t m, int64_t n, int64_t fr,
                           int64_t fc, int64_t stride, double norm) {
    IPT_GRID_STRIDE(i, m * n) {
        const int64_t r = i / n, c = i - r * n;
        b[i] = saturate_round<T>(ipt::frontend::box_value(J, stride, r, c, fr, fc, norm));
    }
}

void run_imboxfilt(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ImboxfiltPlan p = ipt::frontend::plan_imboxfilt(args);
    const ipt_tensor* B = args.output("B", p.out_class, p.rows, p.cols, p.channels);
    if (p.rows * p.cols * p.channels == 0) return;
    const int64_t stride = p.padded_cols + 1;
    DeviceArray<double> J(static_cast<size_t>((p.padded_rows + 1) * stride), dev.stream);
    visit_dtype(p.out_class, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_same_v<T, bool>) {
            for (int64_t ch = 0; ch < p.channels; ++ch) {
                IntegralGeometry g;
                g.m = p.rows;
                g.n = p.cols;
                g.border = ipt::frontend::border_as<Border>(p.boundary);
                g.pad = p.pad_value;
                g.top = p.top;
                g.left = p.left;
                g.pm = p.padded_rows;
                g.pn = p.padded_cols;
                integral_image_async(dptr<const T>(p.A) + ch * p.rows * p.cols, J.get(), g, dev.stream,
                                     "ipt.imboxfilt");
                box_kernel<T><<<grid_for(p.rows * p.cols), kThreads, 0, dev.stream>>>(
                    J.get(), dptr<T>(B) + ch * p.rows * p.cols, p.rows, p.cols, p.fr, p.fc, stride, p.norm);
                check_launch("ipt.imboxfilt");
            }
        }
    });
}

IPT_CUDA_OP("ipt.imboxfilt", "", 100, run_imboxfilt)

}  // namespace
}  // namespace ipt::cuda
