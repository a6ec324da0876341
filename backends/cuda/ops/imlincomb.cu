// SPDX-License-Identifier: Apache-2.0
// imlincomb as the front-end plans it (common/ops/imlincomb.hpp): Z = K1*A1 +
// ... + Kn*An + K, each element in double and converted once (round half
// away, saturate). The classes of the images are read at
// run time inside the kernel (a uniform branch), which keeps one kernel for
// every combination of classes; the work is bandwidth-bound.
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/float_first.cuh"
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
    case IPT_UINT8: return to_double(static_cast<const uint8_t*>(p)[i]);
    case IPT_UINT16: return to_double(static_cast<const uint16_t*>(p)[i]);
    case IPT_INT16: return to_double(static_cast<const int16_t*>(p)[i]);
    case IPT_INT32: return to_double(static_cast<const int32_t*>(p)[i]);
    case IPT_UINT32: return to_double(static_cast<const uint32_t*>(p)[i]);
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

// One byte of lincomb_u8 as lincomb_kernel computes it, in double.
template <int N>
__device__ inline unsigned lincomb_exact_byte(const LinComb& c, const unsigned (&x)[N]) {
    double s = c.k[0] * to_double(x[0]);
#pragma unroll
    for (int j = 1; j < N; ++j) s += c.k[j] * to_double(x[j]);
    if (c.has_offset) s += c.offset;
    return saturate_round<uint8_t>(s);
}

// Byte E of 16 in a uint4, from each of N images, as floats.
template <int E, int N>
__device__ inline void floats_at(const uint4 (&in)[N], float (&x)[N]) {
#pragma unroll
    for (int j = 0; j < N; ++j) {
        const unsigned w = E < 4 ? in[j].x : E < 8 ? in[j].y : E < 12 ? in[j].z : in[j].w;
        x[j] = word_byte_to_float<E % 4>(w);
    }
}

// Bytes E.. of 16 of each image through the single-first sum: results into
// out, the bits of those single does not decide into declined.
template <bool EXACT, int E, int N>
__device__ inline void round_bytes_from(const FloatFirstSum<N>& f, const uint4 (&in)[N], unsigned (&out)[4],
                                        unsigned& declined) {
    if constexpr (E < 16) {
        float x[N];
        floats_at<E>(in, x);
        unsigned r;
        const bool decided = float_first_round_floats<EXACT>(f, x, &r);
        if constexpr (!EXACT) declined |= static_cast<unsigned>(!decided) << E;
        out[E / 4] |= r << (8 * (E % 4));
        round_bytes_from<EXACT, E + 1>(f, in, out, declined);
    }
}

// All N images uint8 into uint8 (the common case): 16 pixels per 16-byte
// access of every image. Each sum in single first (common/float_first.cuh);
// the few that single cannot decide are computed again in double after the
// 16 are stored, one at a time from memory, so the hot loop holds no second
// path. EXACT (dyadic weights, single decides every sum) is a separate
// kernel, so that neither carries the other's rounding.
template <int N, bool EXACT>
__global__ void lincomb_u8(LinComb c, FloatFirstSum<N> single_first, uint8_t* __restrict__ z, int64_t n) {
    const int64_t nvec = n / 16;
    auto exact_at = [&](int64_t i) {
        unsigned x[N];
#pragma unroll
        for (int j = 0; j < N; ++j) x[j] = static_cast<const uint8_t*>(c.a[j])[i];
        z[i] = static_cast<uint8_t>(lincomb_exact_byte(c, x));
    };
    IPT_GRID_STRIDE(i, nvec) {
        uint4 in[N];
#pragma unroll
        for (int j = 0; j < N; ++j) in[j] = reinterpret_cast<const uint4*>(c.a[j])[i];
        unsigned out[4] = {0, 0, 0, 0};
        unsigned declined = 0;
        round_bytes_from<EXACT, 0>(single_first, in, out, declined);
        reinterpret_cast<uint4*>(z)[i] = make_uint4(out[0], out[1], out[2], out[3]);
        for (; declined; declined &= declined - 1) exact_at(i * 16 + (__ffs(declined) - 1));
    }
    for (int64_t i = nvec * 16 + static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<int64_t>(blockDim.x) * gridDim.x)
        exact_at(i);
}

// Up to this many uint8 images take lincomb_u8; more take lincomb_kernel.
constexpr int kVectorImages = 4;

template <int N>
void launch_lincomb_u8(const LinComb& c, uint8_t* z, int64_t n, cudaStream_t s) {
    if constexpr (N <= kVectorImages) {
        if (c.count == N) {
            const FloatFirstSum<N> single_first = float_first_sum<N>(c.k, N, c.has_offset ? c.offset : 0.0);
            if (single_first.exact)
                lincomb_u8<N, true><<<grid_for((n + 15) / 16), kThreads, 0, s>>>(c, single_first, z, n);
            else
                lincomb_u8<N, false><<<grid_for((n + 15) / 16), kThreads, 0, s>>>(c, single_first, z, n);
            return;
        }
        launch_lincomb_u8<N + 1>(c, z, n, s);
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
    bool all_u8 = plan.out_dtype == IPT_UINT8 && plan.in_dtype == IPT_UINT8 && c.count <= kVectorImages &&
                  reinterpret_cast<uintptr_t>(z->data) % 16 == 0;
    for (int j = 0; j < c.count; ++j) all_u8 = all_u8 && reinterpret_cast<uintptr_t>(c.a[j]) % 16 == 0;
    if (all_u8) {
        launch_lincomb_u8<1>(c, dptr<uint8_t>(z), n, dev.stream);
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

