// SPDX-License-Identifier: Apache-2.0
// Thread-block shapes of the block-level mapping, measured as the paper did
// (its Fig. 13): for each tile size (threads per pixel's fit) and number of
// pixels per block, the kernel time on a SIZE x SIZE image, with device
// events, the image already on the device. Every shape's output is compared
// bit for bit with the host reference (facet_core.hpp) on a crop.
//
//   facet_shapes [--size 1024] [--window 5] [--repeat 3]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "facet_core.hpp"
#include "facet_cuda.hpp"
#include "synthetic.hpp"

namespace {

#define CHECK(call)                                                                                     \
    do {                                                                                                \
        const cudaError_t e_ = (call);                                                                  \
        if (e_ != cudaSuccess) {                                                                        \
            std::fprintf(stderr, "facet_shapes: %s failed: %s\n", #call, cudaGetErrorString(e_));       \
            std::exit(1);                                                                               \
        }                                                                                               \
    } while (0)

struct Options {
    int size = 1024;
    std::vector<int> windows = {5, 7};
    int repeat = 3;
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&] {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "facet_shapes: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return std::atoi(argv[++i]);
        };
        if (a == "--size") o.size = next();
        else if (a == "--window") o.windows = {next()};
        else if (a == "--repeat") o.repeat = std::max(1, next());
        else {
            std::fprintf(stderr, "usage: facet_shapes [--size N] [--window W] [--repeat R]\n");
            std::exit(2);
        }
    }
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    const Options opt = parse(argc, argv);
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("facet.robust block shapes on %s (%d SMs), %dx%d textured image, max_degree 3, max_iter 4\n",
                prop.name, prop.multiProcessorCount, opt.size, opt.size);

    const facet_test::Image img = facet_test::textured_image(opt.size, opt.size);
    const int64_t count = static_cast<int64_t>(opt.size) * opt.size;
    double* d_img = nullptr;
    float* d_J = nullptr;
    uint8_t* d_deg = nullptr;
    CHECK(cudaMalloc(&d_img, count * sizeof(double)));
    CHECK(cudaMalloc(&d_J, count * sizeof(float)));
    CHECK(cudaMalloc(&d_deg, count));
    CHECK(cudaMemcpy(d_img, img.v.data(), count * sizeof(double), cudaMemcpyHostToDevice));
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    std::vector<float> J(count);
    std::vector<uint8_t> deg(count);

    for (int window : opt.windows) {
        facet::Settings st;
        st.window = window;
        // Host reference on a crop (top-left corner, borders included).
        const int crop = std::min(opt.size, 48);
        std::vector<float> refJ(crop * crop);
        std::vector<uint8_t> refD(crop * crop);
        {
            auto ws = std::make_unique<facet::ReferenceWorkspace>();
            std::vector<double> win(window * window);
            const int h = window / 2;
            for (int r = 0; r < crop; ++r)
                for (int c = 0; c < crop; ++c) {
                    for (int i = 0; i < window * window; ++i)
                        win[i] = img.v[facet::symmetric_index(r + i / window - h, opt.size) * opt.size +
                                       facet::symmetric_index(c + i % window - h, opt.size)];
                    const facet::Fit f = facet::fit_reference(win.data(), st, *ws);
                    refJ[r * crop + c] = static_cast<float>(f.coef[0]);
                    refD[r * crop + c] = static_cast<uint8_t>(f.degree);
                }
        }
        std::printf("\nwindow %dx%d\n", window, window);
        std::printf("%6s %8s %8s %10s %10s %10s %10s %8s\n", "tile", "pixels", "threads", "smem(B)", "blocks/SM",
                    "ms", "Mpix/s", "check");
        double best_ms = 1e30;
        facet::cuda::Shape best{};
        for (int tile : {8, 16, 32})
            for (int pixels : {1, 2, 4, 8, 16, 32}) {
                if (tile * pixels > 1024) continue;
                const facet::cuda::Shape shape{tile, pixels};
                facet::cuda::Shape usable{};
                if (facet::cuda::usable_shape(window, shape, &usable) != cudaSuccess ||
                    usable.pixels != shape.pixels) {
                    std::printf("%6d %8d %8d   does not fit (shared memory or registers)\n", tile, pixels, tile * pixels);
                    continue;
                }
                const size_t smem = facet::cuda::shared_bytes(window, shape);
                const int resident = facet::cuda::resident_blocks_per_sm(window, shape);
                CHECK(facet::cuda::launch_fit(d_img, opt.size, opt.size, st, d_J, d_deg, nullptr, shape, stream));
                CHECK(cudaStreamSynchronize(stream));
                float ms = 1e30f;
                for (int rep = 0; rep < opt.repeat; ++rep) {
                    CHECK(cudaEventRecord(t0, stream));
                    CHECK(facet::cuda::launch_fit(d_img, opt.size, opt.size, st, d_J, d_deg, nullptr, shape, stream));
                    CHECK(cudaEventRecord(t1, stream));
                    CHECK(cudaEventSynchronize(t1));
                    float t = 0;
                    CHECK(cudaEventElapsedTime(&t, t0, t1));
                    ms = std::min(ms, t);
                }
                CHECK(cudaMemcpy(J.data(), d_J, count * sizeof(float), cudaMemcpyDeviceToHost));
                CHECK(cudaMemcpy(deg.data(), d_deg, count, cudaMemcpyDeviceToHost));
                int wrong = 0;
                for (int r = 0; r < crop; ++r)
                    for (int c = 0; c < crop; ++c)
                        wrong += std::memcmp(&J[r * opt.size + c], &refJ[r * crop + c], sizeof(float)) != 0 ||
                                 deg[r * opt.size + c] != refD[r * crop + c];
                std::printf("%6d %8d %8d %10zu %10d %10.2f %10.2f %8s\n", tile, pixels, tile * pixels, smem, resident,
                            ms, count / (ms * 1e3), wrong ? "DIFFERS" : "exact");
                if (wrong) std::printf("       %d of %d crop pixels differ from the host reference\n", wrong, crop * crop);
                if (ms < best_ms) best_ms = ms, best = shape;
            }
        std::printf("best for window %d: tile %d, %d pixels per block (%.2f ms); plugin default: tile %d, %d pixels\n",
                    window, best.tile, best.pixels, best_ms, facet::cuda::default_shape(window).tile,
                    facet::cuda::default_shape(window).pixels);
    }
    CHECK(cudaFree(d_img));
    CHECK(cudaFree(d_J));
    CHECK(cudaFree(d_deg));
    return 0;
}
