// SPDX-License-Identifier: Apache-2.0
// facet.robust on the host: the reference. Every pixel's window is gathered
// with symmetric padding and fitted by fit_reference(); rows are shared out
// to the host's worker threads.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <thread>
#include <vector>

#include "facet_impls.hpp"
#include "facet_op.hpp"

namespace facet {
namespace {

template <class T>
void to_double(const void* data, int64_t count, double* out) {
    const T* in = static_cast<const T*>(data);
    for (int64_t i = 0; i < count; ++i) out[i] = static_cast<double>(in[i]);
}

// The input as doubles (exact for every class), after checking each value.
std::vector<double> input_as_double(const ipt_tensor* t) {
    const int64_t count = t->rows * t->cols;
    std::vector<double> out(static_cast<size_t>(count));
    switch (t->dtype) {
    case IPT_UINT8: to_double<uint8_t>(t->data, count, out.data()); break;
    case IPT_UINT16: to_double<uint16_t>(t->data, count, out.data()); break;
    case IPT_INT16: to_double<int16_t>(t->data, count, out.data()); break;
    case IPT_INT32: to_double<int32_t>(t->data, count, out.data()); break;
    case IPT_UINT32: to_double<uint32_t>(t->data, count, out.data()); break;
    case IPT_SINGLE: to_double<float>(t->data, count, out.data()); break;
    case IPT_DOUBLE: to_double<double>(t->data, count, out.data()); break;
    default: ipt::plugin::unsupported(std::string(kOpName) + ": input class not handled");
    }
    for (int64_t i = 0; i < count; ++i)
        if (!(std::fabs(out[i]) <= kMaxMagnitude))  // false for NaN too
            ipt::plugin::invalid(bad_pixel_message(i / t->cols, i % t->cols, out[i]));
    return out;
}

}  // namespace

ipt_status run_cpu(const ipt_kernel_call* call) {
    return ipt::plugin::guarded([&] {
        const ipt::plugin::KernelArgs args(call);
        const Request q = read_request(args);
        const std::vector<double> image = input_as_double(q.input);

        // Every check passed: now the outputs.
        const int64_t rows = q.rows, cols = q.cols;
        float* J = static_cast<float*>(args.output("J", IPT_SINGLE, rows, cols)->data);
        uint8_t* degree = static_cast<uint8_t*>(args.output("degree", IPT_UINT8, rows, cols)->data);
        float* coefficients = nullptr;
        if (q.want_coefficients)
            coefficients = static_cast<float*>(
                args.output("coefficients", IPT_SINGLE, rows, cols, kMaxCoefficients)->data);
        if (rows == 0 || cols == 0) return;

        const Settings st = q.settings;
        const int w = st.window, half = w / 2;
        const int64_t plane = rows * cols;

        // Column indices of every window position, once (symmetric padding).
        std::vector<int64_t> col_index(static_cast<size_t>(cols * w));
        for (int64_t c = 0; c < cols; ++c)
            for (int dc = 0; dc < w; ++dc) col_index[c * w + dc] = symmetric_index(c + dc - half, cols);

        std::atomic<int64_t> next_row{0};
        auto worker = [&] {
            auto ws = std::make_unique<ReferenceWorkspace>();
            double window[kMaxWindowPixels];
            int64_t row_index[kMaxWindow];
            for (int64_t r = next_row++; r < rows; r = next_row++) {
                for (int dr = 0; dr < w; ++dr) row_index[dr] = symmetric_index(r + dr - half, rows) * cols;
                for (int64_t c = 0; c < cols; ++c) {
                    const int64_t* ci = &col_index[c * w];
                    for (int dr = 0; dr < w; ++dr)
                        for (int dc = 0; dc < w; ++dc) window[dr * w + dc] = image[row_index[dr] + ci[dc]];
                    const Fit fit = fit_reference(window, st, *ws);
                    const int64_t at = r * cols + c;
                    J[at] = static_cast<float>(fit.coef[0]);
                    degree[at] = static_cast<uint8_t>(fit.degree);
                    if (coefficients)
                        for (int k = 0; k < kMaxCoefficients; ++k)
                            coefficients[k * plane + at] = static_cast<float>(fit.coef[k]);
                }
            }
        };

        const ipt_host_table* host = ipt::plugin::host();
        const int64_t wanted = host && host->cpu_threads ? host->cpu_threads() : 1;
        const int threads = static_cast<int>(std::clamp<int64_t>(wanted, 1, rows));
        std::vector<std::thread> pool;
        pool.reserve(static_cast<size_t>(threads - 1));
        for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
        worker();
        for (std::thread& t : pool) t.join();
    });
}

}  // namespace facet
