// SPDX-License-Identifier: Apache-2.0
// CPU against CUDA through the host API: facet.robust on SIZE x SIZE images
// on the host (as many worker threads as IPT_NUM_THREADS allows) and on each
// CUDA device. Prints one table row per size:
//   cpu ms     host wall time of the call
//   kernel ms  the call plus a device sync, the image already on the device
//   overall ms upload + call + download of J and degree
// and checks that every device's J and degree equal the host's bit for bit.
//
//   facet_bench [--sizes 256,512,1024,2048] [--window 5] [--image textured|s2]
//               [--repeat 3] [--cpu-max 2048]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include <ipt/ipt.hpp>

#include "synthetic.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

struct Options {
    std::vector<int> sizes = {256, 512, 1024, 2048};
    int window = 5;
    std::string image = "textured";
    int repeat = 3;
    int cpu_max = 2048;  // larger sizes skip the CPU
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "facet_bench: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--sizes") {
            o.sizes.clear();
            std::stringstream ss(value());
            for (std::string s; std::getline(ss, s, ',');) o.sizes.push_back(std::stoi(s));
        } else if (a == "--window") o.window = std::stoi(value());
        else if (a == "--image") o.image = value();
        else if (a == "--repeat") o.repeat = std::max(1, std::stoi(value()));
        else if (a == "--cpu-max") o.cpu_max = std::stoi(value());
        else {
            std::fprintf(stderr,
                         "usage: facet_bench [--sizes 256,512] [--window 5] [--image textured|s2] [--repeat 3] "
                         "[--cpu-max N]\n");
            std::exit(2);
        }
    }
    return o;
}

struct Output {
    std::vector<float> J;
    std::vector<uint8_t> degree;
};

Output run_once(ipt::Context& ctx, const ipt::Image& in, uint32_t device, int window) {
    ipt::Call call(ctx, "facet.robust");
    call.image("I", in).integer("window", window).device(device).run();
    ctx.sync(device);
    return {call.take("J").download<float>(), call.take("degree").download<uint8_t>()};
}

}  // namespace

int main(int argc, char** argv) {
    const Options opt = parse(argc, argv);
    try {
        ipt::Context ctx;
        std::vector<ipt_device_info> gpus;
        for (const ipt_device_info& d : ctx.devices())
            if (std::string(d.kind) == "cuda") gpus.push_back(d);
        if (!ipt_op_find(ctx.get(), "facet.robust")) {
            std::fprintf(stderr, "facet_bench: facet.robust not found; set IPT_PLUGIN_PATH to libipt_facet.so\n");
            return 1;
        }
        const char* threads = std::getenv("IPT_NUM_THREADS");
        std::printf("facet.robust, window %dx%d, max_degree 3, max_iter 4, image '%s'; CPU threads: %s\n", opt.window,
                    opt.window, opt.image.c_str(), threads ? threads : "all cores (IPT_NUM_THREADS unset)");
        for (const ipt_device_info& g : gpus) std::printf("CUDA device %u: %s\n", g.id, g.name);
        if (gpus.empty()) std::printf("no CUDA device: CPU column only\n");

        std::printf("\n| size | CPU ms | CPU Mpix/s |");
        for (const ipt_device_info& g : gpus)
            std::printf(" dev %u kernel ms | overall ms | speedup kernel | speedup overall | equal |", g.id);
        std::printf("\n|---|---|---|");
        for (size_t i = 0; i < gpus.size(); ++i) std::printf("---|---|---|---|---|");
        std::printf("\n");

        for (int size : opt.sizes) {
            const facet_test::Image img = opt.image == "s2" ? facet_test::s2_image(facet_test::layout_for(size))
                                                            : facet_test::textured_image(size, size);
            const int64_t pixels = static_cast<int64_t>(size) * size;
            ipt::Image host_in = ctx.upload(size, size, img.v);

            double cpu_ms = 0;
            Output cpu;
            const bool run_cpu = size <= opt.cpu_max;
            if (run_cpu) {
                const auto t = Clock::now();
                cpu = run_once(ctx, host_in, IPT_DEVICE_HOST, opt.window);
                cpu_ms = ms_since(t);
            }
            std::printf("| %d | %s | %s |", size, run_cpu ? std::to_string(static_cast<long long>(cpu_ms)).c_str() : "-",
                        run_cpu ? std::to_string(pixels / (cpu_ms * 1e3)).substr(0, 6).c_str() : "-");
            for (const ipt_device_info& g : gpus) {
                ipt::Image dev_in = ctx.copy_to(host_in, g.id);
                run_once(ctx, dev_in, g.id, opt.window);  // warm-up (module load, first allocations)
                double kernel_ms = 1e30;
                for (int rep = 0; rep < opt.repeat; ++rep) {
                    ipt::Call call(ctx, "facet.robust");
                    call.image("I", dev_in).integer("window", opt.window).device(g.id);
                    const auto t = Clock::now();
                    call.run();
                    ctx.sync(g.id);
                    kernel_ms = std::min(kernel_ms, ms_since(t));
                }
                double overall_ms = 1e30;
                Output got;
                for (int rep = 0; rep < opt.repeat; ++rep) {
                    const auto t = Clock::now();
                    ipt::Image in = ctx.upload(size, size, img.v, 1, g.id);
                    got = run_once(ctx, in, g.id, opt.window);
                    overall_ms = std::min(overall_ms, ms_since(t));
                }
                std::string equal = "-";
                if (run_cpu) {
                    size_t differ = 0;
                    for (int64_t i = 0; i < pixels; ++i)
                        differ += std::memcmp(&got.J[i], &cpu.J[i], sizeof(float)) != 0 || got.degree[i] != cpu.degree[i];
                    equal = differ ? std::to_string(differ) + " differ" : "bitwise";
                }
                if (run_cpu)
                    std::printf(" %.2f | %.2f | %.0fx | %.0fx | %s |", kernel_ms, overall_ms, cpu_ms / kernel_ms,
                                cpu_ms / overall_ms, equal.c_str());
                else
                    std::printf(" %.2f | %.2f | - | - | - |", kernel_ms, overall_ms);
            }
            std::printf("\n");
            std::fflush(stdout);
        }
    } catch (const ipt::Error& e) {
        std::fprintf(stderr, "facet_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
