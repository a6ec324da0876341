// SPDX-License-Identifier: Apache-2.0
// facet.robust on the devices of kind "cuda". This plugin owns no device:
// the CUDA backend does. The host table hands over the device ordinal and the
// backend's stream (native handles); input and output tensors hold device
// addresses. Work is queued on that stream, in order with the backend's own.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <cuda_runtime_api.h>

#include "facet_cuda.hpp"
#include "facet_impls.hpp"
#include "facet_op.hpp"

namespace facet {
namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess)
        ipt::plugin::fail(IPT_ERR_DEVICE, std::string(kOpName) + " (cuda): " + what + ": " + cudaGetErrorString(e));
}

// Stream-ordered scratch memory, released on the stream after the work that uses it.
class StreamBuffer {
public:
    StreamBuffer(size_t bytes, cudaStream_t stream) : stream_(stream) {
        if (bytes) check(cudaMallocAsync(&ptr_, bytes, stream), "cudaMallocAsync");
    }
    ~StreamBuffer() {
        if (ptr_) (void)cudaFreeAsync(ptr_, stream_);
    }
    StreamBuffer(const StreamBuffer&) = delete;
    StreamBuffer& operator=(const StreamBuffer&) = delete;
    template <class T> T* as() const { return static_cast<T*>(ptr_); }

private:
    void* ptr_ = nullptr;
    cudaStream_t stream_;
};

// The block shape: the kernel's default, or FACET_CUDA_SHAPE="TILExPIXELS"
// (e.g. "32x4") to try another without rebuilding (bench/facet_shapes
// measures them all).
cuda::Shape shape_for(int window) {
    cuda::Shape shape = cuda::default_shape(window);
    if (const char* env = std::getenv("FACET_CUDA_SHAPE")) {
        int tile = 0, pixels = 0;
        if (std::sscanf(env, "%dx%d", &tile, &pixels) == 2 && cuda::tile_supported(tile) && pixels >= 1 &&
            tile * pixels <= 1024)
            shape = {tile, pixels};
        else if (ipt::plugin::host() && ipt::plugin::host()->log)
            ipt::plugin::host()->log(2, "facet", "FACET_CUDA_SHAPE must be TILExPIXELS with TILE 8, 16 or 32; ignored");
    }
    return shape;
}

}  // namespace

ipt_status run_cuda(const ipt_kernel_call* call) {
    return ipt::plugin::guarded([&] {
        const ipt::plugin::KernelArgs args(call);
        const Request q = read_request(args);

        const int ordinal = static_cast<int>(reinterpret_cast<intptr_t>(args.native(IPT_NATIVE_CUDA_DEVICE)));
        cudaStream_t stream = static_cast<cudaStream_t>(args.native(IPT_NATIVE_CUDA_STREAM));
        check(cudaSetDevice(ordinal), "cudaSetDevice");

        const int64_t rows = q.rows, cols = q.cols, count = rows * cols;

        // Convert to double and look for bad pixels before any output exists
        // (a failed call writes nothing). This waits for the stream once.
        StreamBuffer image(sizeof(double) * static_cast<size_t>(count), stream);
        StreamBuffer first_bad(sizeof(unsigned long long), stream);
        if (count > 0) {
            check(cudaMemsetAsync(first_bad.as<void>(), 0xFF, sizeof(unsigned long long), stream), "cudaMemsetAsync");
            check(cuda::convert_and_check(q.input->data, q.input->dtype, count, kMaxMagnitude, image.as<double>(),
                                          first_bad.as<unsigned long long>(), stream),
                  "input conversion");
            unsigned long long bad = 0;
            check(cudaMemcpyAsync(&bad, first_bad.as<void>(), sizeof bad, cudaMemcpyDeviceToHost, stream),
                  "cudaMemcpyAsync");
            check(cudaStreamSynchronize(stream), "input check");
            if (bad != ~0ull) {
                double value = 0;
                check(cudaMemcpyAsync(&value, image.as<double>() + bad, sizeof value, cudaMemcpyDeviceToHost, stream),
                      "cudaMemcpyAsync");
                check(cudaStreamSynchronize(stream), "input check");
                const int64_t at = static_cast<int64_t>(bad);
                ipt::plugin::invalid(bad_pixel_message(at / cols, at % cols, value));
            }
        }

        float* J = static_cast<float*>(args.output("J", IPT_SINGLE, rows, cols)->data);
        uint8_t* degree = static_cast<uint8_t*>(args.output("degree", IPT_UINT8, rows, cols)->data);
        float* coefficients = nullptr;
        if (q.want_coefficients)
            coefficients = static_cast<float*>(
                args.output("coefficients", IPT_SINGLE, rows, cols, kMaxCoefficients)->data);
        if (count == 0) return;
        check(cuda::launch_fit(image.as<double>(), rows, cols, q.settings, J, degree, coefficients,
                               shape_for(q.settings.window), stream),
              "fit kernel launch");
    });
}

}  // namespace facet
