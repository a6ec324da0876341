// SPDX-License-Identifier: Apache-2.0
// uint8 through a 256-entry uint8 table, per channel plane (blockIdx.y), as
// intlut and imadjust's uint8 tables need it. Bandwidth-bound: the plane's
// table sits in shared memory as bytes, each thread moves 16 bytes per access
// with four independent loads in flight before any use.
#pragma once

#include <cstdint>

#include "common/device.cuh"

namespace ipt::cuda {

// b[p] = table[ch * table_stride + a[p]] over `planes` planes of `plane`
// bytes; table_stride 0 maps every plane through one table. vector_ok: a, b
// and the plane size allow 16-byte accesses.
__global__ inline void map_u8_table(const uint8_t* __restrict__ a, const uint8_t* __restrict__ tables,
                                    int table_stride, uint8_t* __restrict__ b, int64_t plane, bool vector_ok) {
    // Bytes, not words: the table's 256 entries then fill 64 words, two per
    // bank, so a warp's 32 random lookups meet at most twice in a bank where
    // 256 words (eight per bank) meet three or four times.
    __shared__ uint8_t table[256];
    const int ch = blockIdx.y;
    for (int i = threadIdx.x; i < 256; i += blockDim.x) table[i] = tables[ch * table_stride + i];
    __syncthreads();
    const uint8_t* src = a + ch * plane;
    uint8_t* dst = b + ch * plane;
    const int64_t nvec = vector_ok ? plane / 16 : 0;
    const uint4* av = reinterpret_cast<const uint4*>(src);
    uint4* bv = reinterpret_cast<uint4*>(dst);
    auto map4 = [&](uint32_t w) {
        return uint32_t{table[w & 255u]} | (uint32_t{table[(w >> 8) & 255u]} << 8) |
               (uint32_t{table[(w >> 16) & 255u]} << 16) | (uint32_t{table[w >> 24]} << 24);
    };
    const int64_t stride = static_cast<int64_t>(blockDim.x) * gridDim.x;
    int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < nvec; i += 4 * stride) {
        uint4 v[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) v[k] = av[i + k * stride];
#pragma unroll
        for (int k = 0; k < 4; ++k)
            bv[i + k * stride] = make_uint4(map4(v[k].x), map4(v[k].y), map4(v[k].z), map4(v[k].w));
    }
    for (; i < nvec; i += stride) {
        const uint4 v = av[i];
        bv[i] = make_uint4(map4(v.x), map4(v.y), map4(v.z), map4(v.w));
    }
    for (int64_t j = nvec * 16 + static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < plane; j += stride)
        dst[j] = table[src[j]];
}

inline void map_u8_table_async(const uint8_t* a, const uint8_t* tables, int table_stride, uint8_t* b,
                               int64_t plane, int planes, cudaStream_t stream) {
    const bool vector_ok = (planes == 1 || plane % 16 == 0) && reinterpret_cast<uintptr_t>(a) % 16 == 0 &&
                           reinterpret_cast<uintptr_t>(b) % 16 == 0;
    const int64_t items = vector_ok ? plane / 16 : plane;
    const int64_t cap = 132 * 16 / planes > 0 ? 132 * 16 / planes : 1;
    map_u8_table<<<dim3(grid_for(items, kThreads, cap), static_cast<unsigned>(planes)), kThreads, 0, stream>>>(
        a, tables, table_stride, b, plane, vector_ok);
}

}  // namespace ipt::cuda
