// SPDX-License-Identifier: Apache-2.0
// intlut as the front-end plans it (common/ops/intlut.hpp): B = LUT(A + 1)
// (int16: LUT(A + 32769)). Bandwidth-bound: 16-byte
// loads and stores per thread, grid-stride; the uint8 table sits in shared
// memory (common/lut_u8.cuh), the 16-bit tables (128 KiB) are read through
// the read-only cache.
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/lut_u8.cuh"
#include "common/op_registry.hpp"
#include "common/ops/intlut.hpp"

namespace ipt::cuda {
namespace {

// uint16 and int16: 8 values per 16-byte access; `bias` moves int16 to 0..65535.
template <class T>
__global__ void intlut_16(const T* __restrict__ a, const T* __restrict__ lut, T* __restrict__ b,
                          int64_t n, bool vector_ok) {
    constexpr int bias = std::is_same_v<T, int16_t> ? 32768 : 0;
    int64_t nvec = vector_ok ? n / 8 : 0;
    const uint4* av = reinterpret_cast<const uint4*>(a);
    uint4* bv = reinterpret_cast<uint4*>(b);
    IPT_GRID_STRIDE(i, nvec) {
        uint4 v = av[i];
        T in[8], out[8];
        memcpy(in, &v, 16);
#pragma unroll
        for (int k = 0; k < 8; ++k) out[k] = __ldg(lut + (static_cast<int>(in[k]) + bias));
        memcpy(&v, out, 16);
        bv[i] = v;
    }
    for (int64_t i = nvec * 8 + static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<int64_t>(blockDim.x) * gridDim.x)
        b[i] = __ldg(lut + (static_cast<int>(a[i]) + bias));
}

bool aligned16(const void* p, const void* q) {
    return (reinterpret_cast<uintptr_t>(p) % 16 == 0) && (reinterpret_cast<uintptr_t>(q) % 16 == 0);
}

void run_intlut(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::IntlutPlan plan = ipt::frontend::plan_intlut(args);
    const ipt_tensor* b = args.output("B", plan.dtype, plan.rows, plan.cols, plan.channels);
    const int64_t n = plan.numel;
    if (n == 0) return;
    const ipt_tensor* a = plan.A;
    const ipt_tensor* lut = plan.LUT;
    const bool vec = aligned16(a->data, b->data);
    switch (plan.dtype) {
    case IPT_UINT8:
        map_u8_table_async(dptr<uint8_t>(a), dptr<uint8_t>(lut), 0, dptr<uint8_t>(b), n, 1, dev.stream);
        break;
    case IPT_UINT16:
        intlut_16<uint16_t><<<grid_for(vec ? (n + 7) / 8 : n), kThreads, 0, dev.stream>>>(
            dptr<uint16_t>(a), dptr<uint16_t>(lut), dptr<uint16_t>(b), n, vec);
        break;
    default:
        intlut_16<int16_t><<<grid_for(vec ? (n + 7) / 8 : n), kThreads, 0, dev.stream>>>(
            dptr<int16_t>(a), dptr<int16_t>(lut), dptr<int16_t>(b), n, vec);
        break;
    }
    check_launch("ipt.intlut");
}

IPT_CUDA_OP("ipt.intlut", "", 100, run_intlut)

}  // namespace
}  // namespace ipt::cuda

