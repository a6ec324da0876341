// SPDX-License-Identifier: Apache-2.0
// ipt_copy_bench: host<->GPU copy rates through libipt and, as the peer in the
// same process, through cudaMemcpy. For each size (default 4 MiB and 64 MiB):
//   ipt pageable      ipt_image_upload/download of a CUDA image from and into
//                     the caller's pageable memory (the plugin's pinned staging)
//   ipt locked image  the same from and into a host image libipt allocated
//                     (page-locked when IPT_PINNED_HOST is not 0)
//   cudaMemcpy pageable / pinned   the runtime alone, malloc'ed memory and
//                     cudaMallocHost memory
//   host memcpy xN     the host's side of the plugin's staging alone:
//                     pageable memory into and out of page-locked memory,
//                     split over N threads as the plugin splits it
//                     (IPT_HOST_COPY_THREADS helpers + the caller)
//   cudaHostRegister  the time to page-lock a fresh block of the size (in
//                     the "up ms" column), what libipt pays once per new
//                     host image block
// Each is the median of --runs synchronised copies after 3 warm-ups, in GB/s
// (bytes / time).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "common/parallel_copy.hpp"
#include "ipt/ipt.h"

namespace {

using Clock = std::chrono::steady_clock;

double median_ms(int runs, const std::function<bool()>& copy) {
    for (int k = 0; k < 3; ++k)
        if (!copy()) return -1;
    std::vector<double> t;
    for (int k = 0; k < runs; ++k) {
        const auto t0 = Clock::now();
        if (!copy()) return -1;
        t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

double gbps(size_t bytes, double ms) { return ms > 0 ? static_cast<double>(bytes) / (ms * 1e6) : -1; }

void row(const char* what, size_t bytes, double up_ms, double down_ms) {
    std::printf("| %-20s | %8.1f | %8.2f | %8.2f | %8.3f | %8.3f |\n", what, static_cast<double>(bytes) / (1 << 20),
                gbps(bytes, up_ms), gbps(bytes, down_ms), up_ms, down_ms);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<size_t> sizes = {size_t{4} << 20, size_t{64} << 20};
    int runs = 20;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else if (a == "--mib" && i + 1 < argc) {
            sizes.clear();
            for (const char* p = argv[++i]; *p;) {
                char* end = nullptr;
                const double mib = std::strtod(p, &end);
                if (end == p || mib <= 0) {
                    std::fprintf(stderr, "--mib: a comma-separated list of positive sizes in MiB\n");
                    return 2;
                }
                sizes.push_back(static_cast<size_t>(mib * (1 << 20)));
                p = *end == ',' ? end + 1 : end;
            }
        } else {
            std::fprintf(stderr, "usage: ipt_copy_bench [--runs N] [--mib 4,64]\n");
            return 2;
        }
    }
    ipt_context* ctx = nullptr;
    if (ipt_context_create(0, &ctx) != IPT_OK) {
        std::fprintf(stderr, "ipt_context_create: %s\n", ipt_last_error());
        return 1;
    }
    uint32_t cuda = IPT_DEVICE_ANY;
    for (uint32_t i = 0; i < ipt_device_count(ctx) && cuda == IPT_DEVICE_ANY; ++i) {
        ipt_device_info d{};
        d.struct_size = sizeof d;
        if (ipt_device_get(ctx, i, &d) == IPT_OK && std::strcmp(d.kind, "cuda") == 0) cuda = i;
    }
    if (cuda == IPT_DEVICE_ANY) {
        std::fprintf(stderr, "no CUDA device in libipt (the CUDA plugin is not beside libipt or finds no GPU)\n");
        ipt_context_destroy(ctx);
        return 77;
    }
    const char* pin = std::getenv("IPT_PINNED_HOST");
    std::printf("IPT_PINNED_HOST=%s, median of %d runs\n\n", pin ? pin : "(unset: 1)", runs);
    std::printf("| %-20s | %8s | %8s | %8s | %8s | %8s |\n", "copy", "MiB", "up GB/s", "down GB/s", "up ms", "down ms");
    std::printf("|%s|%s|%s|%s|%s|%s|\n", "----------------------", "----------", "----------", "----------",
                "----------", "----------");
    int rc = 0;
    for (size_t bytes : sizes) {
        ipt_image* dev = nullptr;
        ipt_image* host_img = nullptr;
        if (ipt_image_create(ctx, cuda, IPT_UINT8, 1, static_cast<int64_t>(bytes), 1, &dev) != IPT_OK ||
            ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT8, 1, static_cast<int64_t>(bytes), 1, &host_img) != IPT_OK) {
            std::fprintf(stderr, "ipt_image_create: %s\n", ipt_last_error());
            rc = 1;
            break;
        }
        std::vector<unsigned char> pageable(bytes, 3);
        const double up = median_ms(runs, [&] { return ipt_image_upload(dev, pageable.data(), 0) == IPT_OK && ipt_sync(ctx, cuda) == IPT_OK; });
        const double down = median_ms(runs, [&] { return ipt_image_download(dev, pageable.data(), 0) == IPT_OK; });
        row("ipt pageable", bytes, up, down);
        void* locked = nullptr;
        int64_t pitch = 0;
        ipt_image_native_address(host_img, &locked, &pitch);
        std::memset(locked, 5, bytes);
        const double lup = median_ms(runs, [&] { return ipt_image_upload(dev, locked, 0) == IPT_OK && ipt_sync(ctx, cuda) == IPT_OK; });
        const double ldown = median_ms(runs, [&] { return ipt_image_download(dev, locked, 0) == IPT_OK; });
        row("ipt locked image", bytes, lup, ldown);
        ipt_image_free(host_img);
        ipt_image_free(dev);

        // The runtime alone, in this process.
        void* d = nullptr;
        void* pinned = nullptr;
        if (cudaMalloc(&d, bytes) != cudaSuccess || cudaMallocHost(&pinned, bytes) != cudaSuccess) {
            std::fprintf(stderr, "cudaMalloc/cudaMallocHost failed\n");
            rc = 1;
            break;
        }
        std::memset(pinned, 7, bytes);
        auto cp = [&](void* to, const void* from, cudaMemcpyKind kind) {
            return cudaMemcpy(to, from, bytes, kind) == cudaSuccess;
        };
        row("cudaMemcpy pageable", bytes, median_ms(runs, [&] { return cp(d, pageable.data(), cudaMemcpyHostToDevice); }),
            median_ms(runs, [&] { return cp(pageable.data(), d, cudaMemcpyDeviceToHost); }));
        row("cudaMemcpy pinned", bytes, median_ms(runs, [&] { return cp(d, pinned, cudaMemcpyHostToDevice); }),
            median_ms(runs, [&] { return cp(pinned, d, cudaMemcpyDeviceToHost); }));
        {
            ipt::common::ParallelCopy crew(ipt::common::ParallelCopy::helpers_from_env("IPT_HOST_COPY_THREADS"));
            const std::string what = "host memcpy x" + std::to_string(crew.helpers() + 1);
            row(what.c_str(), bytes, median_ms(runs, [&] { crew.copy(pinned, pageable.data(), bytes); return true; }),
                median_ms(runs, [&] { crew.copy(pageable.data(), pinned, bytes); return true; }));
        }
        // What page-locking a fresh block costs (libipt does it once per
        // new host image block of 1 MiB and more; freed blocks keep it).
        std::vector<double> reg;
        for (int k = 0; k < std::max(3, runs / 4); ++k) {
            void* block = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
            if (!block) break;
            std::memset(block, 1, bytes);  // mapped, as an image's memory is once written
            const auto t0 = Clock::now();
            const bool ok = cudaHostRegister(block, bytes, cudaHostRegisterPortable) == cudaSuccess;
            const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
            if (ok) cudaHostUnregister(block);
            std::free(block);
            if (!ok) break;
            reg.push_back(ms);
        }
        std::sort(reg.begin(), reg.end());
        std::printf("| %-20s | %8.1f | %8s | %8s | %8.3f | %8s |\n", "cudaHostRegister", static_cast<double>(bytes) / (1 << 20),
                    "", "", reg.empty() ? -1.0 : reg[reg.size() / 2], "");
        cudaFreeHost(pinned);
        cudaFree(d);
    }
    ipt_context_destroy(ctx);
    return rc;
}
