// SPDX-License-Identifier: Apache-2.0
// ipt.medfilt2 on CUDA: the plan's middle order of each m x n window, or for
// an even window the plan's combination of the two middle orders (rules:
// common/ops/medfilt2.hpp: 0.5*v1 + 0.5*v2 in double, integers rounded half
// away from zero; logical takes the upper order). 3x3 and 5x5 windows of 8-
// and 16-bit classes use a median network, uint8 windows of 26 to 255
// values a running histogram, the rest the radix select
// (common/order_filter.cuh).
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/ops/medfilt2.hpp"
#include "common/order_filter.cuh"

namespace ipt::cuda {
namespace {

using ipt::frontend::MedianRule;

// Medians of a full m x n window of uint8, for windows too large
// for a network (N = m*n in 26..255): each thread slides a 256-bin histogram
// down kHistogramSegment rows of one column, removing the row that leaves
// and adding the row that enters (2n updates an output instead of the radix
// select's 8N compares), and keeps the selected bin and the count below it
// from one row to the next, walking only as far as the order statistic
// moved (Huang's running median). Counts are bytes (N <= 255), laid out so
// that every thread of a warp reads its own bank: bin b of thread t is byte
// b % 4 of word (b / 4) * kHistogramThreads + t.
constexpr int kHistogramThreads = 128, kHistogramSegment = 32;
constexpr int64_t kHistogramMaxCount = 255;

__global__ void __launch_bounds__(kHistogramThreads)
order_histogram_u8(const uint8_t* __restrict__ a, uint8_t* __restrict__ out, int64_t rows, int64_t cols, int dy0,
                   int m, int dx0, int n, int order1, int order2, Border border, uint8_t pad) {
    __shared__ uint32_t words[64 * kHistogramThreads];  // 32 KiB
    unsigned char* counts = reinterpret_cast<unsigned char*>(words);
    const int t = threadIdx.x;
    for (int w = 0; w < 64; ++w) words[w * kHistogramThreads + t] = 0;
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kHistogramThreads + t;
    if (c >= cols) return;
    auto count = [&](int v) -> unsigned char& { return counts[((v >> 2) * kHistogramThreads + t) * 4 + (v & 3)]; };
    const bool columns_inside = c + dx0 >= 0 && c + dx0 + n <= cols;
    int selected = 0, below = 0;  // the bin of order1 and how many values lie below it
    auto update_row = [&](int64_t r, int delta) {
        const int64_t ri = border_index(border, r, rows);
        for (int j = 0; j < n; ++j) {
            const int64_t ci = columns_inside ? c + dx0 + j : border_index(border, c + dx0 + j, cols);
            const int v = (ri < 0 || ci < 0) ? pad : a[ri * cols + ci];
            count(v) += delta;
            below += (v < selected) ? delta : 0;
        }
    };
    const int64_t r_begin = static_cast<int64_t>(blockIdx.y) * kHistogramSegment;
    const int64_t r_end = min(rows, r_begin + kHistogramSegment);
    for (int i = 0; i < m; ++i) update_row(r_begin + dy0 + i, 1);
    for (int64_t r = r_begin; r < r_end; ++r) {
        if (r > r_begin) {
            update_row(r - 1 + dy0, -1);
            update_row(r + dy0 + m - 1, 1);
        }
        while (below >= order1) below -= count(--selected);
        while (below + count(selected) < order1) below += count(selected++);
        uint8_t result = static_cast<uint8_t>(selected);
        if (order2 != 0) {
            // medfilt2's even windows: 0.5*v1 + 0.5*v2 in double, rounded
            // half away from zero; v2 is the next occupied bin when order2
            // lies past this one.
            int second = selected;
            if (below + count(selected) < order2)
                do ++second; while (count(second) == 0);
            result = saturate_round<uint8_t>(0.5 * selected + 0.5 * second);
        }
        out[r * cols + c] = result;
    }
}

void run_medfilt2(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::Medfilt2Plan plan = ipt::frontend::plan_medfilt2(args);
    const ipt_tensor* a = args.image("A");
    if (!order_window_fits(plan.count, false))
        ipt::plugin::unsupported("ipt.medfilt2: window too large for libipt_cuda");
    const ipt_tensor* b = args.output("B", plan.a_class, plan.rows, plan.cols);
    const int order1 = static_cast<int>(plan.rule == MedianRule::Upper ? plan.order + 1 : plan.order);
    const int order2 = plan.rule == MedianRule::Middle || plan.rule == MedianRule::Upper ? 0 : order1 + 1;
    const Border border = plan.pad.kind == ipt::frontend::order::Pad::Symmetric ? Border::Symmetric : Border::Constant;
    visit_dtype(plan.a_class, [&](auto tag) {
        using T = decltype(tag);
        const T pad = static_cast<T>(plan.pad.value);
        const int64_t m = plan.window_rows, n = plan.window_cols;
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t>) {
            // Odd K x K windows: centre (K-1)/2, the plan's centre_row/col.
            if (plan.rule == MedianRule::Middle && m == n && (m == 3 || m == 5) && plan.rows > 0 && plan.cols > 0) {
                dim3 grid(static_cast<unsigned>((plan.cols + kMedianPairCols - 1) / kMedianPairCols),
                          static_cast<unsigned>((plan.rows + 31) / 32));
                if (m == 3)
                    median_network<T, 3><<<grid, dim3(32, 8), 0, dev.stream>>>(dptr<const T>(a), dptr<T>(b), plan.rows,
                                                                               plan.cols, border, pad);
                else
                    median_network<T, 5><<<grid, dim3(32, 8), 0, dev.stream>>>(dptr<const T>(a), dptr<T>(b), plan.rows,
                                                                               plan.cols, border, pad);
                check_launch("ipt.medfilt2");
                return;
            }
        }
        if constexpr (std::is_same_v<T, uint8_t>) {
            if (plan.count > 25 && plan.count <= kHistogramMaxCount && plan.rows > 0 && plan.cols > 0) {
                dim3 grid(static_cast<unsigned>((plan.cols + kHistogramThreads - 1) / kHistogramThreads),
                          static_cast<unsigned>((plan.rows + kHistogramSegment - 1) / kHistogramSegment));
                order_histogram_u8<<<grid, kHistogramThreads, 0, dev.stream>>>(
                    dptr<const uint8_t>(a), dptr<uint8_t>(b), plan.rows, plan.cols, static_cast<int>(-plan.centre_row),
                    static_cast<int>(m), static_cast<int>(-plan.centre_col), static_cast<int>(n), order1, order2, border,
                    pad);
                check_launch("ipt.medfilt2");
                return;
            }
        }
        order_filter_async<T, T, false>(dptr<const T>(a), dptr<T>(b), plan.rows, plan.cols, plan.window(), order1,
                                        order2, plan.pad, dev.stream, "ipt.medfilt2");
    });
}

IPT_CUDA_OP("ipt.medfilt2", "", 100, run_medfilt2)

}  // namespace
}  // namespace ipt::cuda
