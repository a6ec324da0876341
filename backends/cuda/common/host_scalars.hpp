// SPDX-License-Identifier: Apache-2.0
// Small outputs computed on the host (a threshold and its metric, a spatial
// referencing object), written to the device outputs on the call's stream by
// a kernel that takes the values as its argument: a copy from pageable
// memory may wait for the stream to drain before it stages the values, and
// the call would then wait for the kernels enqueued before it.
#pragma once

#include <algorithm>
#include <initializer_list>

#include "common/context.hpp"

namespace ipt::cuda {

struct HostValues {
    static constexpr int kMax = 16;
    double v[kMax];
    int n;
};

template <int = 0>
__global__ void write_host_values_kernel(double* __restrict__ dst, HostValues values) {
    if (static_cast<int>(threadIdx.x) < values.n) dst[threadIdx.x] = values.v[threadIdx.x];
}

// dst[0 .. n - 1] = values[0 .. n - 1], stream-ordered; n <= HostValues::kMax.
inline void write_host_values(double* dst, const double* values, int n, cudaStream_t stream) {
    if (n <= 0) return;
    HostValues hv{};
    hv.n = std::min(n, HostValues::kMax);
    std::copy(values, values + hv.n, hv.v);
    write_host_values_kernel<<<1, HostValues::kMax, 0, stream>>>(dst, hv);
    check(cudaGetLastError(), "write_host_values");
}

struct HostScalar {
    const char* name;
    double value;
};

// The first value is always written, the others when the caller asked for
// them.
inline void write_host_scalars(const ipt::plugin::KernelArgs& args, const Device& dev, int32_t dtype,
                               std::initializer_list<HostScalar> values) {
    bool first = true;
    for (const HostScalar& v : values) {
        if (!first && !args.wanted(v.name)) continue;
        first = false;
        const ipt_tensor* t = args.output(v.name, dtype, 1, 1, 1);
        write_host_values(static_cast<double*>(t->data), &v.value, 1, dev.stream);
    }
}

}  // namespace ipt::cuda
