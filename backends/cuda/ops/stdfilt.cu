// SPDX-License-Identifier: Apache-2.0
// stdfilt as the front-end plans it (common/ops/stdfilt.hpp): each pixel
// sums its neighbourhood's offsets through symmetric padding, in double, in
// the members' order, with separately rounded products and sums (no fused
// multiply-add), as the CPU reference does; integer classes in integers
// where the plan says that gives the same sums.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/stdfilt.hpp"

namespace ipt::cuda {
namespace {

// The members' offsets, by value in the kernel's parameters up to
// kParamMembers (no upload, so the call never waits on a pageable copy),
// else in device memory.
constexpr int kParamMembers = 256;
struct ParamMembers {
    int dy[kParamMembers], dx[kParamMembers];
    __device__ int row(int k) const { return dy[k]; }
    __device__ int col(int k) const { return dx[k]; }
};
struct DeviceMembers {
    const int* dy;
    const int* dx;
    __device__ int row(int k) const { return __ldg(dy + k); }
    __device__ int col(int k) const { return __ldg(dx + k); }
};

// One member's value into the two sums.
template <class Acc, class T>
__device__ __forceinline__ void add_member(T x, Acc& t1, Acc& t2) {
    if constexpr (std::is_same_v<Acc, double>) {
        const double v = to_double(x);
        t1 = __dadd_rn(t1, v);
        t2 = __dadd_rn(t2, __dmul_rn(v, v));
    } else {
        const auto v = static_cast<int>(x);
        t1 += static_cast<Acc>(v);
        t2 += static_cast<Acc>(static_cast<uint32_t>(v) * static_cast<uint32_t>(v));  // v^2 < 2^32 here
    }
}

// The sums of one pixel's neighbourhood: in Acc, which is double or, where
// the plan says integer sums are exact (StdfiltPlan::Sums), uint32_t or
// int64_t. A pixel whose neighbourhood lies inside the image reads it by
// offsets from its own address, in a loop of its own: the padding rule's
// divisions, evaluated for every member and then discarded, would cost more
// than the sums.
template <class Acc, class T, class Members>
__device__ void neighbourhood_sums(const T* __restrict__ a, int64_t r, int64_t c, int64_t rows, int64_t cols,
                                   const Members& m, int count, int extent, double& s1, double& s2) {
    Acc t1 = 0, t2 = 0;
    if (r >= extent && r < rows - extent && c >= extent && c < cols - extent) {
        const T* centre = a + r * cols + c;
        for (int k = 0; k < count; ++k) add_member(centre[static_cast<int64_t>(m.row(k)) * cols + m.col(k)], t1, t2);
    } else {
        for (int k = 0; k < count; ++k) {
            const int64_t rr = border_index(Border::Symmetric, r + m.row(k), rows);
            const int64_t cc = border_index(Border::Symmetric, c + m.col(k), cols);
            add_member(a[rr * cols + cc], t1, t2);
        }
    }
    s1 = static_cast<double>(t1);
    s2 = static_cast<double>(t2);
}

template <class Acc, class T, class Out, class Members>
__global__ void stdfilt_kernel(const T* __restrict__ a, Out* __restrict__ j, int64_t rows, int64_t cols,
                               const Members m, int count, int extent) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    const int64_t plane = static_cast<int64_t>(blockIdx.z) * rows * cols;
    double sd = 0;
    if (count > 1) {
        double s1, s2;
        neighbourhood_sums<Acc>(a + plane, r, c, rows, cols, m, count, extent, s1, s2);
        const double n = count;
        const double var = __dsub_rn(s2 / (n - 1), __dmul_rn(s1, s1) / (n * (n - 1)));
        sd = var > 0 ? sqrt(var) : 0.0;  // NaN gives 0, as MATLAB's max(., 0)
    }
    j[plane + r * cols + c] = static_cast<Out>(sd);
}

template <class Acc, class T, class Members>
void launch_stdfilt(const ipt::frontend::StdfiltPlan& plan, const T* a, void* j, const Members& m, int count,
                    cudaStream_t stream) {
    const int extent = static_cast<int>(plan.nhood.extent);
    const dim3 block(32, 8);
    dim3 grid = grid_2d(plan.cols, plan.rows, block);
    grid.z = static_cast<unsigned>(plan.channels);
    if (plan.out_dtype == IPT_SINGLE)
        stdfilt_kernel<Acc, T, float><<<grid, block, 0, stream>>>(a, static_cast<float*>(j), plan.rows, plan.cols, m,
                                                                   count, extent);
    else
        stdfilt_kernel<Acc, T, double><<<grid, block, 0, stream>>>(a, static_cast<double*>(j), plan.rows,
                                                                    plan.cols, m, count, extent);
}

void run_stdfilt(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::StdfiltPlan plan = ipt::frontend::plan_stdfilt(args);
    const ipt_tensor* in = args.image("I");
    const ipt_tensor* j = args.output("J", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    if (plan.rows == 0 || plan.cols == 0 || plan.channels == 0) return;
    const int count = plan.zero ? 0 : static_cast<int>(plan.count);
    const auto& members = plan.nhood.members;
    visit_dtype(plan.in_dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* a = dptr<const T>(in);
        if (members.size() <= static_cast<size_t>(kParamMembers)) {
            ParamMembers m{};
            for (size_t k = 0; k < members.size(); ++k) {
                m.dy[k] = static_cast<int>(members[k].dr);
                m.dx[k] = static_cast<int>(members[k].dc);
            }
            ipt::frontend::with_sums_accumulator<T>(
                plan, [&](auto acc) { launch_stdfilt<decltype(acc)>(plan, a, j->data, m, count, dev.stream); });
            return;
        }
        std::vector<int> dy, dx;
        for (const auto& o : members) {
            dy.push_back(static_cast<int>(o.dr));
            dx.push_back(static_cast<int>(o.dc));
        }
        const DeviceArray<int> ddy = to_device(dy, dev.stream), ddx = to_device(dx, dev.stream);
        const DeviceMembers dm{ddy.get(), ddx.get()};
        ipt::frontend::with_sums_accumulator<T>(
            plan, [&](auto acc) { launch_stdfilt<decltype(acc)>(plan, a, j->data, dm, count, dev.stream); });
    });
    check_launch("ipt.stdfilt");
}

IPT_CUDA_OP("ipt.stdfilt", "", 100, run_stdfilt)

}  // namespace
}  // namespace ipt::cuda
