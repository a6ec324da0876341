// imcomplement as the front-end plans it (common/ops/imcomplement.hpp). For
// every integer class intmax-I (unsigned) and -1-I (signed) are the bitwise
// complement, and ~I on logical's 0/1 bytes is I xor 1: those classes are
// complemented as raw bytes, 16 at a time when aligned. Floating classes take
// imcomplement_value per element.
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/imcomplement.hpp"

namespace ipt::cuda {
namespace {

// Each byte b becomes b ^ mask (0xFF: bitwise complement; 0x01: logical not).
__global__ void complement_bytes(const uint8_t* __restrict__ in, uint8_t* __restrict__ out, int64_t bytes,
                                 uint32_t mask, bool vec) {
    const int64_t nvec = vec ? bytes / 16 : 0;
    IPT_GRID_STRIDE(i, nvec) {
        uint4 v = reinterpret_cast<const uint4*>(in)[i];
        v.x ^= mask;
        v.y ^= mask;
        v.z ^= mask;
        v.w ^= mask;
        reinterpret_cast<uint4*>(out)[i] = v;
    }
    const uint8_t m = static_cast<uint8_t>(mask);
    for (int64_t i = nvec * 16 + static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < bytes;
         i += static_cast<int64_t>(blockDim.x) * gridDim.x)
        out[i] = in[i] ^ m;
}

template <class T>
__global__ void complement_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t n) {
    IPT_GRID_STRIDE(i, n) out[i] = ipt::frontend::imcomplement_value(in[i]);
}

void run_imcomplement(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::ImcomplementPlan plan = ipt::frontend::plan_imcomplement(args);
    const ipt_tensor* J = args.output("J", plan.dtype, plan.rows, plan.cols, plan.channels);
    const int64_t n = plan.numel;
    if (n == 0) return;
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>) {
            complement_kernel<T><<<grid_for(n), kThreads, 0, dev.stream>>>(dptr<const T>(plan.I), dptr<T>(J), n);
        } else {
            const int64_t bytes = n * static_cast<int64_t>(sizeof(T));
            const auto* in = dptr<const uint8_t>(plan.I);
            auto* out = dptr<uint8_t>(J);
            const bool vec = reinterpret_cast<uintptr_t>(in) % 16 == 0 && reinterpret_cast<uintptr_t>(out) % 16 == 0;
            const uint32_t mask = std::is_same_v<T, bool> ? 0x01010101u : 0xFFFFFFFFu;
            complement_bytes<<<grid_for(vec ? (bytes + 15) / 16 : bytes), kThreads, 0, dev.stream>>>(in, out, bytes,
                                                                                                      mask, vec);
        }
    });
    check_launch("ipt.imcomplement");
}

IPT_CUDA_OP("ipt.imcomplement", "", 100, run_imcomplement)

}  // namespace
}  // namespace ipt::cuda
