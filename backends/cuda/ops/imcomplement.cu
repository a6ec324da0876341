// SPDX-License-Identifier: Apache-2.0
// imcomplement as the front-end plans it (common/ops/imcomplement.hpp). For
// every integer class intmax-I (unsigned) and -1-I (signed) are the bitwise
// complement, and ~I on logical's 0/1 bytes is I xor 1: those classes are
// complemented as raw bytes, 16 at a time when aligned. Floating classes take
// imcomplement_value per element.
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/packed.cuh"
#include "common/ops/imcomplement.hpp"

namespace ipt::cuda {
namespace {

// Each byte b becomes b ^ mask (0xFF: bitwise complement; 0x01: logical not).
struct XorBytes {
    uint8_t mask;
    __device__ uint8_t operator()(uint8_t b) const { return b ^ mask; }
};

struct Complement {
    template <class T>
    __device__ T operator()(T v) const {
        return ipt::frontend::imcomplement_value(v);
    }
};

void run_imcomplement(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::ImcomplementPlan plan = ipt::frontend::plan_imcomplement(args);
    const ipt_tensor* J = args.output("J", plan.dtype, plan.rows, plan.cols, plan.channels);
    const int64_t n = plan.numel;
    if (n == 0) return;
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>) {
            packed::run_map("ipt.imcomplement", dptr<const T>(plan.I), dptr<T>(J), n, dev.stream, Complement{});
        } else {
            const int64_t bytes = n * static_cast<int64_t>(sizeof(T));
            const uint8_t mask = std::is_same_v<T, bool> ? 0x01 : 0xFF;
            packed::run_map("ipt.imcomplement", dptr<const uint8_t>(plan.I), dptr<uint8_t>(J), bytes, dev.stream,
                            XorBytes{mask});
        }
    });
}

IPT_CUDA_OP("ipt.imcomplement", "", 100, run_imcomplement)

}  // namespace
}  // namespace ipt::cuda
