// ipt.integralimage: the upright table through the shared integral-image
// engine (common/integral_image.hpp), the rotated one by its recurrence, row
// after row (each row is independent of the others in it), as the
// front-end describes (common/ops/integralimage.hpp).
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "common/image.hpp"
#include "common/integral_image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/integralimage.hpp"
#include "common/parallel.hpp"

namespace {

using ipt::frontend::IntegralImagePlan;

template <class T>
double value(const T* I, int64_t i) {
    if constexpr (std::is_same_v<T, bool>) return I[i] ? 1.0 : 0.0;
    else return static_cast<double>(I[i]);
}

template <class T>
void rotated(const T* I, int64_t m, int64_t n, double* J) {
    const int64_t w = n + 2;  // columns of J
    std::fill(J, J + (m + 1) * w, 0.0);
    for (int64_t x = 0; x < n; ++x) J[w + x + 1] = value(I, x);
    for (int64_t y = 2; y <= m; ++y) {
        double* row = J + y * w;
        const double* up = row - w;
        const double* up2 = row - 2 * w;
        const T* cur = I + (y - 1) * n;
        const T* north = I + (y - 2) * n;
        row[0] = up[1];
        ipt::cpu::parallel_for(0, n, [&](int64_t k) {
            const int64_t x = k + 1;
            row[x] = (((up[x - 1] + up[x + 1]) - up2[x]) + value(cur, k)) + value(north, k);
        }, 4096);
        row[w - 1] = up[w - 2];
    }
}

void run_integralimage(const ipt::plugin::KernelArgs& args) {
    const IntegralImagePlan p = ipt::frontend::plan_integralimage(args);
    const ipt_tensor* J = args.output("J", IPT_DOUBLE, p.out_rows, p.out_cols, p.channels);
    const int64_t plane = p.out_rows * p.out_cols;
    if (plane * p.channels == 0) return;
    double* out = static_cast<double*>(J->data);
    ipt::cpu::visit_dtype(p.I->dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* I = static_cast<const T*>(p.I->data);
        for (int64_t ch = 0; ch < p.channels; ++ch) {
            const T* src = I + ch * p.rows * p.cols;
            double* dst = out + ch * plane;
            if (p.rotated) {
                rotated(src, p.rows, p.cols, dst);
            } else if constexpr (std::is_same_v<T, bool>) {
                // Logical as 0/1 uint8 (the same storage).
                ipt::cpu::integral_image(reinterpret_cast<const uint8_t*>(src), p.rows, p.cols,
                                         ipt::cpu::Border::Replicate, 0, 0, 0, p.rows, p.cols, dst);
            } else {
                ipt::cpu::integral_image(src, p.rows, p.cols, ipt::cpu::Border::Replicate, 0, 0, 0, p.rows, p.cols,
                                         dst);
            }
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.integralimage", "", 100, run_integralimage)
