// SPDX-License-Identifier: Apache-2.0
// mean2 as the front-end plans it (common/ops/mean2.hpp). Integer and logical classes accumulate
// exactly in 64-bit integers (uint8/logical four bytes at a time with one
// SAD instruction, 16-byte loads); floating classes accumulate in
// double-double, so the result is the correctly rounded mean whatever the
// reduction tree. One pass over A, two launches.
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/reduce.cuh"
#include "common/ops/mean2.hpp"

namespace ipt::cuda {
namespace {

template <class Out>
struct WriteMean {
    Out* m;
    double count;
    __device__ void operator()(double sum) const { *m = static_cast<Out>(sum / count); }
    __device__ void operator()(long long sum) const {
        *m = static_cast<Out>(static_cast<double>(sum) / count);
    }
};

template <class T>
struct LoadDouble {
    const T* p;
    __device__ double operator()(int64_t i) const { return static_cast<double>(p[i]); }
};
template <class T>
struct LoadInt {
    const T* p;
    __device__ long long operator()(int64_t i) const { return static_cast<long long>(p[i]); }
};
// 64 bytes per item (four independent 16-byte loads) of 16-byte aligned data:
// the 32 items of a warp cover 2 KiB, each of their four loads 512
// contiguous bytes of it, so that every load of a warp uses whole sectors.
// The bytes after the last whole 2 KiB are an item each.
struct LoadBytes16 {
    static constexpr int64_t kGroup = 2048;
    const uint8_t* b;
    int64_t grouped_items;  // 32 per whole 2 KiB
    int64_t grouped_bytes;
    __device__ long long operator()(int64_t i) const {
        if (i >= grouped_items) return b[grouped_bytes + (i - grouped_items)];
        const uint4* p = reinterpret_cast<const uint4*>(b + (i / 32) * kGroup) + i % 32;
        uint4 v[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) v[k] = p[32 * k];
        unsigned sum = 0;
#pragma unroll
        for (int k = 0; k < 4; ++k)
            sum += __vsadu4(v[k].x, 0u) + __vsadu4(v[k].y, 0u) + __vsadu4(v[k].z, 0u) + __vsadu4(v[k].w, 0u);
        return static_cast<long long>(sum);
    }
};

template <class T>
void mean2_typed(const T* p, int64_t n, const ipt_tensor* m, int32_t out_class, cudaStream_t s) {
    const double count = static_cast<double>(n);
    if constexpr (std::is_floating_point_v<T>) {
        if (out_class == IPT_SINGLE)
            reduce_sum_dd(LoadDouble<T>{p}, n, WriteMean<float>{dptr<float>(m), count}, s, "ipt.mean2");
        else
            reduce_sum_dd(LoadDouble<T>{p}, n, WriteMean<double>{dptr<double>(m), count}, s, "ipt.mean2");
    } else {
        if constexpr (sizeof(T) == 1) {
            if (reinterpret_cast<uintptr_t>(p) % 16 == 0) {
                const int64_t grouped_bytes = n / LoadBytes16::kGroup * LoadBytes16::kGroup;
                const int64_t grouped_items = grouped_bytes / LoadBytes16::kGroup * 32;
                reduce_sum_int(LoadBytes16{reinterpret_cast<const uint8_t*>(p), grouped_items, grouped_bytes},
                               grouped_items + (n - grouped_bytes), WriteMean<double>{dptr<double>(m), count}, s,
                               "ipt.mean2");
                return;
            }
        }
        // Other integer classes, and bytes that are not 16-byte aligned.
        reduce_sum_int(LoadInt<T>{p}, n, WriteMean<double>{dptr<double>(m), count}, s, "ipt.mean2");
    }
}

void run_mean2(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::Mean2Plan plan = ipt::frontend::plan_mean2(args);
    const ipt_tensor* m = args.output("m", plan.out_dtype, 1, 1, 1);
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        mean2_typed<T>(dptr<const T>(plan.A), plan.numel, m, plan.out_dtype, dev.stream);
    });
}

IPT_CUDA_OP("ipt.mean2", "", 100, run_mean2)

}  // namespace
}  // namespace ipt::cuda
