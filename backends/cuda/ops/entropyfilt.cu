// SPDX-License-Identifier: Apache-2.0
// entropyfilt as the front-end plans it (common/ops/entropyfilt.hpp): every
// plane binned once (im2uint8, or 0/1 for logical) into a symmetrically
// padded copy, then one thread per column slides a running histogram down a
// strip of rows (the members of entropy_slide leave and enter per step,
// whatever the nhood: a rectangle changes one row of members). The histogram
// lives in shared memory, counts packed 8, 16 or 32 bits wide by the window
// size, a thread's words one bank apart from its neighbours' (word-major by
// thread), beside a bit per occupied bin. Each output subtracts the host's
// table of terms over the occupied bins in increasing bin order: the CPU
// reference's doubles in its order.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "class_scaling.hpp"
#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/entropyfilt.hpp"

namespace ipt::cuda {
namespace {

// Element (i, j) of a padded plane is the bin at (i - orow, j - ocol) of the
// image plane, so the window of output (r, c) starts at (r, c).
template <class T>
__global__ void entropy_pad_bins(const T* __restrict__ a, uint8_t* __restrict__ padded, int64_t rows, int64_t cols,
                                 int64_t prows, int64_t pcols, int64_t orow, int64_t ocol, int64_t total) {
    IPT_GRID_STRIDE(i, total) {
        const int64_t plane = i / (prows * pcols);
        const int64_t rest = i - plane * prows * pcols;
        const int64_t pi = rest / pcols, pj = rest - pi * pcols;
        const int64_t r = border_index(Border::Symmetric, pi - orow, rows);
        const int64_t c = border_index(Border::Symmetric, pj - ocol, cols);
        const T v = a[plane * rows * cols + r * cols + c];
        if constexpr (std::is_same_v<T, bool>)
            padded[i] = v ? 1 : 0;
        else
            padded[i] = ipt::common::to_uint8_scale(v);
    }
}

// BITS per count (n < 2^BITS), THREADS columns per block: 32 KiB of counts.
template <int BITS, int THREADS>
__global__ void __launch_bounds__(THREADS)
    entropy_slide_kernel(const uint8_t* __restrict__ padded, double* __restrict__ j, int64_t rows, int64_t cols,
                         int64_t prows, int64_t pcols, int64_t strip, const int64_t* __restrict__ all, int n_all,
                         const int64_t* __restrict__ leave, int n_leave, const int64_t* __restrict__ enter,
                         int n_enter, const double* __restrict__ terms) {
    constexpr int kPerWord = 32 / BITS;
    constexpr uint32_t kMask = BITS == 32 ? 0xFFFFFFFFu : (1u << BITS) - 1u;
    __shared__ uint32_t hist[256 / kPerWord * THREADS];
    __shared__ uint32_t occupied[8 * THREADS];
    const int t = threadIdx.x;
    const int64_t c = static_cast<int64_t>(blockIdx.x) * THREADS + t;
    const int64_t r0 = static_cast<int64_t>(blockIdx.y) * strip;
    if (c >= cols || r0 >= rows) return;  // no barriers below: each thread's words are its own
    const int64_t r_end = min(rows, r0 + strip);
    const uint8_t* src = padded + static_cast<int64_t>(blockIdx.z) * prows * pcols;
    double* out = j + static_cast<int64_t>(blockIdx.z) * rows * cols;

    for (int w = 0; w < 256 / kPerWord; ++w) hist[w * THREADS + t] = 0;
    for (int w = 0; w < 8; ++w) occupied[w * THREADS + t] = 0;
    auto add = [&](uint32_t b) {
        uint32_t& word = hist[(b / kPerWord) * THREADS + t];
        const int shift = static_cast<int>(b % kPerWord) * BITS;
        if (((word >> shift) & kMask) == 0) occupied[(b >> 5) * THREADS + t] ^= 1u << (b & 31);
        word += 1u << shift;
    };
    auto remove = [&](uint32_t b) {
        uint32_t& word = hist[(b / kPerWord) * THREADS + t];
        const int shift = static_cast<int>(b % kPerWord) * BITS;
        word -= 1u << shift;
        if (((word >> shift) & kMask) == 0) occupied[(b >> 5) * THREADS + t] ^= 1u << (b & 31);
    };

    const uint8_t* window = src + r0 * pcols + c;
    for (int m = 0; m < n_all; ++m) add(window[__ldg(all + m)]);
    for (int64_t r = r0;; ++r) {
        // One loop over the occupied bins and the 8 words together: a warp
        // then waits for its busiest lane's total, not for its busiest lane
        // word by word.
        double e = 0;
        int w = 0;
        uint32_t u = occupied[t];
        for (;;) {
            if (u == 0) {
                if (++w == 8) break;
                u = occupied[w * THREADS + t];
                continue;
            }
            const uint32_t b = static_cast<uint32_t>(w * 32 + __ffs(static_cast<int>(u)) - 1);
            u &= u - 1;
            const uint32_t k = (hist[(b / kPerWord) * THREADS + t] >> ((b % kPerWord) * BITS)) & kMask;
            e = __dsub_rn(e, __ldg(terms + k));
        }
        out[r * cols + c] = e;
        if (r + 1 == r_end) break;
        // Leave before enter: a count never exceeds n, so never its field.
        for (int m = 0; m < n_leave; ++m) remove(window[__ldg(leave + m)]);
        for (int m = 0; m < n_enter; ++m) add(window[__ldg(enter + m)]);
        window += pcols;
    }
}

template <int BITS, int THREADS>
void launch_slide(const Device& dev, const uint8_t* padded, double* j, const ipt::frontend::EntropyfiltPlan& plan,
                  int64_t prows, int64_t pcols, const int64_t* all, int n_all, const int64_t* leave, int n_leave,
                  const int64_t* enter, int n_enter, const double* terms) {
    // Strips short enough for about 2048 threads per SM (some three waves
    // at the 6 blocks of 32 KiB an SM holds; each strip starts by counting
    // the n members once, about one output's work), at least 8 rows, and at
    // most 65535 strips (grid y).
    const int64_t col_threads = (plan.cols + THREADS - 1) / THREADS * THREADS * plan.channels;
    const int64_t want_threads = int64_t(std::max(dev.sm_count, 1)) * 2048;
    const int64_t strips_wanted = std::max<int64_t>(1, want_threads / std::max<int64_t>(col_threads, 1));
    int64_t strip = std::max<int64_t>((plan.rows + strips_wanted - 1) / strips_wanted, 8);
    strip = std::max(strip, (plan.rows + 65534) / 65535);
    const dim3 grid(static_cast<unsigned>((plan.cols + THREADS - 1) / THREADS),
                    static_cast<unsigned>((plan.rows + strip - 1) / strip), static_cast<unsigned>(plan.channels));
    entropy_slide_kernel<BITS, THREADS><<<grid, THREADS, 0, dev.stream>>>(
        padded, j, plan.rows, plan.cols, prows, pcols, strip, all, n_all, leave, n_leave, enter, n_enter, terms);
}

void run_entropyfilt(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::EntropyfiltPlan plan = ipt::frontend::plan_entropyfilt(args);
    const ipt_tensor* in = args.image("I");
    const ipt_tensor* j = args.output("J", IPT_DOUBLE, plan.rows, plan.cols, plan.channels);
    const int64_t n = plan.rows * plan.cols * plan.channels;
    if (n == 0) return;
    if (plan.count == 0) {  // no members: an empty sum
        check(cudaMemsetAsync(dptr<double>(j), 0, static_cast<size_t>(n) * sizeof(double), dev.stream),
              "cudaMemsetAsync");
        return;
    }
    const auto& nh = plan.nhood;
    const int64_t prows = plan.rows + nh.rows - 1, pcols = plan.cols + nh.cols - 1;
    const int64_t padded_n = prows * pcols * plan.channels;
    DeviceArray<uint8_t> padded(static_cast<size_t>(padded_n), dev.stream);
    visit_dtype(plan.in_dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_same_v<T, int32_t> && !std::is_same_v<T, uint32_t>)  // refused by the front-end
            entropy_pad_bins<T><<<grid_for(padded_n), kThreads, 0, dev.stream>>>(
                dptr<const T>(in), padded.get(), plan.rows, plan.cols, prows, pcols, nh.origin_row, nh.origin_col,
                padded_n);
    });
    check_launch("ipt.entropyfilt");

    // Member offsets from a window's top-left in the padded plane; a step
    // is one row down.
    const ipt::frontend::EntropySlide slide = ipt::frontend::entropy_slide(nh, 1, 0);
    auto offsets = [&](const std::vector<ipt::frontend::NhoodOffset>& ms, int64_t step) {
        std::vector<int64_t> o;
        for (const auto& m : ms) o.push_back((m.dr + nh.origin_row + step) * pcols + m.dc + nh.origin_col);
        return o;
    };
    DeviceArray<int64_t> all = to_device(offsets(nh.members, 0), dev.stream);
    DeviceArray<int64_t> leave = to_device(offsets(slide.leave, 0), dev.stream);
    DeviceArray<int64_t> enter = to_device(offsets(slide.enter, 1), dev.stream);
    DeviceArray<double> terms = to_device(ipt::frontend::entropy_terms(plan.count), dev.stream);
    const auto n_all = static_cast<int>(nh.members.size());
    const auto n_leave = static_cast<int>(slide.leave.size()), n_enter = static_cast<int>(slide.enter.size());
    if (plan.count < 256)
        launch_slide<8, 128>(dev, padded.get(), dptr<double>(j), plan, prows, pcols, all.get(), n_all, leave.get(),
                             n_leave, enter.get(), n_enter, terms.get());
    else if (plan.count < 65536)
        launch_slide<16, 64>(dev, padded.get(), dptr<double>(j), plan, prows, pcols, all.get(), n_all, leave.get(),
                             n_leave, enter.get(), n_enter, terms.get());
    else
        launch_slide<32, 32>(dev, padded.get(), dptr<double>(j), plan, prows, pcols, all.get(), n_all, leave.get(),
                             n_leave, enter.get(), n_enter, terms.get());
    check_launch("ipt.entropyfilt");
}

IPT_CUDA_OP("ipt.entropyfilt", "", 100, run_entropyfilt)

}  // namespace
}  // namespace ipt::cuda
