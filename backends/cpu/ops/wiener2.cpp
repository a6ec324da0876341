// SPDX-License-Identifier: Apache-2.0
// ipt.wiener2 as the front-end plans it (common/ops/wiener2.hpp): the local
// statistics of each pixel over its window, the noise as the ordered sum of
// the column sums of the variances, then the filtered value converted back to
// I's class. The arithmetic is the front-end's, shared with the CUDA backend.
#include <type_traits>
#include <vector>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/wiener2.hpp"

namespace {

using ipt::frontend::Wiener2Plan;

template <class T>
void run_class(const Wiener2Plan& p, T* J, double& noise_used) {
    const T* g = static_cast<const T*>(p.I->data);
    const int64_t rows = p.rows, cols = p.cols;
    std::vector<double> mu(static_cast<size_t>(rows * cols)), var(mu.size());
    ipt::cpu::parallel_for(0, rows, [&](int64_t r) {
        for (int64_t c = 0; c < cols; ++c)
            ipt::frontend::wiener2_local(g, rows, cols, r, c, p, mu[r * cols + c], var[r * cols + c]);
    }, 4);
    double noise = p.noise;
    if (!p.noise_given) {
        std::vector<double> column(static_cast<size_t>(cols), 0.0);
        ipt::cpu::parallel_for(0, cols, [&](int64_t c) {
            double s = 0;
            for (int64_t r = 0; r < rows; ++r) s = s + var[r * cols + c];
            column[c] = s;
        }, 64);
        double total = 0;
        for (int64_t c = 0; c < cols; ++c) total = total + column[c];
        noise = total / static_cast<double>(rows * cols);
    }
    noise_used = noise;
    ipt::cpu::parallel_for(0, rows, [&](int64_t r) {
        for (int64_t c = 0; c < cols; ++c) {
            const int64_t i = r * cols + c;
            const double v = ipt::common::to_unit_scale<double>(g[i]);
            J[i] = ipt::common::convert_image_class<T>(ipt::frontend::wiener2_value(v, mu[i], var[i], noise));
        }
    }, 16);
}

void run_wiener2(const ipt::plugin::KernelArgs& args) {
    const Wiener2Plan p = ipt::frontend::plan_wiener2(args);
    const ipt_tensor* J = args.output("J", p.dtype, p.rows, p.cols, 1);
    double noise = 0;
    ipt::cpu::visit_dtype(p.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t> ||
                      std::is_floating_point_v<T>)
            run_class<T>(p, static_cast<T*>(J->data), noise);
        else
            ipt::plugin::unsupported("ipt.wiener2: class of I");
    });
    if (args.wanted("noise_out")) *static_cast<double*>(args.output("noise_out", IPT_DOUBLE, 1, 1, 1)->data) = noise;
}

}  // namespace

IPT_CPU_OP("ipt.wiener2", "", 100, run_wiener2)
