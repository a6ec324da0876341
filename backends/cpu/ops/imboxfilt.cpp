// SPDX-License-Identifier: Apache-2.0
// ipt.imboxfilt: MATLAB's integral-image route as the front-end plans it
// (common/ops/imboxfilt.hpp): the padded plane's integral image through the
// shared engine (common/integral_image.hpp), then four corners per output.
// 8- and 16-bit classes take running sums in integers instead: their window
// sums are exact either way (every partial sum of the integral image is an
// integer below 2^53), so B is the same, at a fraction of the memory traffic.
// A short window row whose sums fit int32 is added term by term as vectors
// across the output columns (exact in any order).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "common/convert.hpp"
#include "common/image.hpp"
#include "common/integral_image.hpp"
#include "common/isa.hpp"
#include "common/op_registry.hpp"
#include "common/ops/imboxfilt.hpp"
#include "common/parallel.hpp"
#include "common/simd.hpp"

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

// sums[c] = (V[c] + ... + V[c + fc - 1]) * norm, the terms added across the
// row as vectors (the sum fits int32).
IPT_ALWAYS_INLINE void window_sums_narrow(const int32_t* V, int64_t fc, int64_t n, double norm, int32_t* acc,
                                          double* sums) {
    std::copy(V, V + n, acc);
    for (int64_t k = 1; k < fc; ++k) {
        const int32_t* v = V + k;
        for (int64_t c = 0; c < n; ++c) acc[c] += v[c];
    }
    for (int64_t c = 0; c < n; ++c) sums[c] = static_cast<double>(acc[c]) * norm;
}

// Window sums of the padded plane by running sums: V holds, per padded
// column, the sum of the fr padded rows of the window (one row in, one out
// per output row), and each output sums fc consecutive V. A band of output
// rows per task. Rows and columns outside A come from the border rule or
// hold the pad value.
template <class T>
void run_small_integer(const ImboxfiltPlan& p, const T* A, T* B) {
    const int64_t m = p.rows, n = p.cols, fr = p.fr, fc = p.fc, pn = n + fc - 1;
    const ipt::cpu::Border border = ipt::frontend::border_as<ipt::cpu::Border>(p.boundary);
    const auto pad = static_cast<int32_t>(p.pad_value);
    std::vector<int64_t> colmap(static_cast<size_t>(pn));
    for (int64_t c = 0; c < pn; ++c) colmap[static_cast<size_t>(c)] = ipt::cpu::border_index(border, c - p.left, n);
    // Short rows of the window whose sums fit int32 take the fc terms directly
    // as vectors across the output columns (integers: any order is exact).
    const int64_t top_value = std::max<int64_t>(std::abs(int64_t{pad}),
                                                std::max<int64_t>(std::abs(int64_t{std::numeric_limits<T>::min()}),
                                                                  int64_t{std::numeric_limits<T>::max()}));
    const bool narrow = fc <= 16 && fr * fc * top_value < (int64_t{1} << 31);
    constexpr int64_t kBand = 32;
    ipt::cpu::parallel_for(0, (m + kBand - 1) / kBand, [&](int64_t band) {
        // The whole band in the widest ISA the CPU runs.
        ipt::cpu::simd_dispatch([&] {
            std::vector<int32_t> V(static_cast<size_t>(pn), 0), line(static_cast<size_t>(pn));
            std::vector<double> sums(static_cast<size_t>(n));
            std::vector<int32_t> acc(narrow ? static_cast<size_t>(n) : 0);
            // V += sign * (padded row i).
            auto add_row = [&](int64_t i, int32_t sign) {
                const int64_t ar = ipt::cpu::border_index(border, i - p.top, m);
                if (ar < 0) {
                    for (int64_t c = 0; c < pn; ++c) V[static_cast<size_t>(c)] += sign * pad;
                    return;
                }
                const T* src = A + ar * n;
                int32_t* L = line.data();
                for (int64_t c = 0; c < p.left; ++c) {
                    const int64_t ac = colmap[static_cast<size_t>(c)];
                    L[c] = ac < 0 ? pad : static_cast<int32_t>(src[ac]);
                }
                for (int64_t c = 0; c < n; ++c) L[p.left + c] = static_cast<int32_t>(src[c]);
                for (int64_t c = p.left + n; c < pn; ++c) {
                    const int64_t ac = colmap[static_cast<size_t>(c)];
                    L[c] = ac < 0 ? pad : static_cast<int32_t>(src[ac]);
                }
                int32_t* v = V.data();
                for (int64_t c = 0; c < pn; ++c) v[c] += sign * L[c];
            };
            const int64_t r0 = band * kBand, r1 = std::min(m, r0 + kBand);
            for (int64_t i = r0; i < r0 + fr; ++i) add_row(i, 1);
            for (int64_t r = r0; r < r1; ++r) {
                if (r > r0) {
                    add_row(r + fr - 1, 1);
                    add_row(r - 1, -1);
                }
                if (narrow) {
                    window_sums_narrow(V.data(), fc, n, p.norm, acc.data(), sums.data());
                } else {
                    int64_t run = 0;
                    for (int64_t c = 0; c < fc; ++c) run += V[static_cast<size_t>(c)];
                    sums[0] = static_cast<double>(run) * p.norm;
                    for (int64_t c = 1; c < n; ++c) {
                        run += int64_t{V[static_cast<size_t>(c + fc - 1)]} - V[static_cast<size_t>(c - 1)];
                        sums[static_cast<size_t>(c)] = static_cast<double>(run) * p.norm;
                    }
                }
                ipt::cpu::convert_row(sums.data(), B + r * n, n);
            }
        });
    });
}

void run_imboxfilt(const ipt::plugin::KernelArgs& args) {
    const ImboxfiltPlan p = ipt::frontend::plan_imboxfilt(args);
    const ipt_tensor* B = args.output("B", p.out_class, p.rows, p.cols, p.channels);
    if (p.rows * p.cols * p.channels == 0) return;
    ipt::cpu::visit_dtype(p.out_class, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t>) {
            for (int64_t ch = 0; ch < p.channels; ++ch)
                run_small_integer<T>(p, static_cast<const T*>(p.A->data) + ch * p.rows * p.cols,
                                     static_cast<T*>(B->data) + ch * p.rows * p.cols);
        } else if constexpr (!std::is_same_v<T, bool>) {
            run_class<T>(p, static_cast<T*>(B->data));
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.imboxfilt", "", 100, run_imboxfilt)
