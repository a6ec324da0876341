// SPDX-License-Identifier: Apache-2.0
// imlincomb as the front-end plans it (common/ops/imlincomb.hpp): Z = K1*A1 +
// ... + Kn*An + K, each element in double and converted once (round half
// away, saturate). The classes of the images are read at
// run time inside the kernel (a uniform branch), which keeps one kernel for
// every combination of classes; the work is bandwidth-bound.
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/imlincomb.hpp"

namespace ipt::cuda {
namespace {

constexpr int kMaxImages = ipt::frontend::kImlincombMaxImages;

struct LinComb {
    const void* a[kMaxImages];
    int32_t dtype[kMaxImages];
    double k[kMaxImages];
    int count;
    int has_offset;
    double offset;
};

__device__ inline double load_as_double(const void* p, int32_t dtype, int64_t i) {
    switch (dtype) {
    case IPT_LOGICAL: return static_cast<const uint8_t*>(p)[i] ? 1.0 : 0.0;
    case IPT_UINT8: return static_cast<const uint8_t*>(p)[i];
    case IPT_UINT16: return static_cast<const uint16_t*>(p)[i];
    case IPT_INT16: return static_cast<const int16_t*>(p)[i];
    case IPT_INT32: return static_cast<const int32_t*>(p)[i];
    case IPT_UINT32: return static_cast<const uint32_t*>(p)[i];
    case IPT_SINGLE: return static_cast<const float*>(p)[i];
    default: return static_cast<const double*>(p)[i];
    }
}

template <class Out>
__global__ void lincomb_kernel(LinComb c, Out* __restrict__ z, int64_t n) {
    IPT_GRID_STRIDE(i, n) {
        double s = c.k[0] * load_as_double(c.a[0], c.dtype[0], i);
        for (int j = 1; j < c.count; ++j) s += c.k[j] * load_as_double(c.a[j], c.dtype[j], i);
        if (c.has_offset) s += c.offset;
        z[i] = saturate_round<Out>(s);
    }
}

// All images uint8 into uint8 (the common case): 16 pixels per 16-byte access
// of every image, the same arithmetic per pixel.
__global__ void lincomb_u8(LinComb c, uint8_t* __restrict__ z, int64_t n) {
    const int64_t nvec = n / 16;
    IPT_GRID_STRIDE(i, nvec) {
        uint4 in[kMaxImages];
        for (int j = 0; j < c.count; ++j) in[j] = reinterpret_cast<const uint4*>(c.a[j])[i];
        uint8_t out[16];
#pragma unroll
        for (int e = 0; e < 16; ++e) {
            double s = c.k[0] * static_cast<double>(reinterpret_cast<const uint8_t*>(&in[0])[e]);
            for (int j = 1; j < c.count; ++j) s += c.k[j] * static_cast<double>(reinterpret_cast<const uint8_t*>(&in[j])[e]);
            if (c.has_offset) s += c.offset;
            out[e] = saturate_round<uint8_t>(s);
        }
        reinterpret_cast<uint4*>(z)[i] = *reinterpret_cast<const uint4*>(out);
    }
    for (int64_t i = nvec * 16 + static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        double s = c.k[0] * static_cast<double>(static_cast<const uint8_t*>(c.a[0])[i]);
        for (int j = 1; j < c.count; ++j) s += c.k[j] * static_cast<double>(static_cast<const uint8_t*>(c.a[j])[i]);
        if (c.has_offset) s += c.offset;
        z[i] = saturate_round<uint8_t>(s);
    }
}

void run_imlincomb(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::ImlincombPlan plan = ipt::frontend::plan_imlincomb(args);
    LinComb c{};
    c.count = static_cast<int>(plan.images.size());
    for (int j = 0; j < c.count; ++j) {
        c.a[j] = plan.images[j]->data;
        c.dtype[j] = plan.images[j]->dtype;
        c.k[j] = plan.k[j];
    }
    c.has_offset = plan.has_offset;
    c.offset = plan.offset;
    const ipt_tensor* z = args.output("Z", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    const int64_t n = plan.numel;
    if (n == 0) return;
    bool all_u8 = plan.out_dtype == IPT_UINT8 && plan.in_dtype == IPT_UINT8 &&
                  reinterpret_cast<uintptr_t>(z->data) % 16 == 0;
    for (int j = 0; j < c.count; ++j) all_u8 = all_u8 && reinterpret_cast<uintptr_t>(c.a[j]) % 16 == 0;
    if (all_u8) {
        lincomb_u8<<<grid_for((n + 15) / 16), kThreads, 0, dev.stream>>>(c, dptr<uint8_t>(z), n);
        check_launch("ipt.imlincomb");
        return;
    }
    visit_dtype(plan.out_dtype, [&](auto tag) {
        using O = decltype(tag);
        if constexpr (std::is_same_v<O, bool>) {
            ipt::plugin::unsupported("ipt.imlincomb: logical output");
        } else {
            lincomb_kernel<O><<<grid_for(n), kThreads, 0, dev.stream>>>(c, dptr<O>(z), n);
        }
    });
    check_launch("ipt.imlincomb");
}

IPT_CUDA_OP("ipt.imlincomb", "", 100, run_imlincomb)

}  // namespace
}  // namespace ipt::cuda

