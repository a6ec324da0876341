// SPDX-License-Identifier: Apache-2.0
// 1 x 1 outputs computed on the host (a threshold and its metric), copied to
// the device outputs on the call's stream.
#pragma once

#include <initializer_list>

#include "common/context.hpp"

namespace ipt::cuda {

struct HostScalar {
    const char* name;
    double value;
};

// The first value is always written, the others when the caller asked for
// them. The sources are pageable, so each copy is staged before
// cudaMemcpyAsync returns.
inline void write_host_scalars(const ipt::plugin::KernelArgs& args, const Device& dev, int32_t dtype,
                               std::initializer_list<HostScalar> values) {
    bool first = true;
    for (const HostScalar& v : values) {
        if (!first && !args.wanted(v.name)) continue;
        first = false;
        const ipt_tensor* t = args.output(v.name, dtype, 1, 1, 1);
        check(cudaMemcpyAsync(t->data, &v.value, sizeof(double), cudaMemcpyHostToDevice, dev.stream),
              "cudaMemcpyAsync (host value)");
    }
}

}  // namespace ipt::cuda
