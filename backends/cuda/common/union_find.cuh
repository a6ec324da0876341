// SPDX-License-Identifier: Apache-2.0
// Lock-free union-find over pixel indices (label[i] = a smaller index of the
// same set, roots point to themselves): unite with atomicMin on roots, as in
// Playne and Hawick's GPU connected-component labelling. Used for plateaus
// (imregionalmax) and for hysteresis (edge, canny).
#pragma once

#include "common/device.cuh"

namespace ipt::cuda {

__device__ inline int uf_find(const int* label, int x) {
    int next = label[x];
    while (next != x) {
        x = next;
        next = label[x];
    }
    return x;
}

__device__ inline void uf_unite(int* label, int a, int b) {
    while (true) {
        a = uf_find(label, a);
        b = uf_find(label, b);
        if (a == b) return;
        if (a < b) {
            const int old = atomicMin(&label[b], a);
            if (old == b) return;
            b = old;
        } else {
            const int old = atomicMin(&label[a], b);
            if (old == a) return;
            a = old;
        }
    }
}

template <class Unused = void>
__global__ void uf_init(int* label, int64_t n) {
    IPT_GRID_STRIDE(i, n) label[i] = static_cast<int>(i);
}

template <class Unused = void>
__global__ void uf_flatten(int* label, int64_t n) {
    IPT_GRID_STRIDE(i, n) label[i] = uf_find(label, static_cast<int>(i));
}

}  // namespace ipt::cuda
