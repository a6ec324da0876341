// SPDX-License-Identifier: Apache-2.0
// `ipt bench`: the seed study's Table 2 for this machine. Per operator, size
// and data location (the host, or already on a device): each implementation's
// kernel time (data on its device) and overall time (from where the data is,
// results back there), its speedup over the CPU backend, GB/s and the ratio
// to the device's copy bandwidth where known, and what the measured selection
// (`auto`) chose and how it compares with the best single implementation.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>

#include "bench_matrix.hpp"
#include "command.hpp"
#include "image_io.hpp"
#include "text.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

struct Options {
    std::vector<std::string> ops;
    std::string sizes = "256,2048,8192";
    bool json = false;
    int repeats = 10;
    double budget_s = 10;
    std::string chart = "bench.png";
    double check_auto = 0;
    bool from_host = false;
    ipt::cli::ContextOptions context;
};

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// Host memory copy bandwidth (bytes read + written per second), the floor of
// the host's bandwidth-bound operators.
double host_copy_gbps() {
    const size_t bytes = size_t{256} << 20;
    std::vector<char> a(bytes, 1), b(bytes, 2);
    std::vector<double> t;
    for (int k = 0; k < 5; ++k) {
        auto t0 = Clock::now();
        std::memcpy(b.data(), a.data(), bytes);
        t.push_back(ms_since(t0));
        a[static_cast<size_t>(k)] = b[bytes - 1 - static_cast<size_t>(k)];  // keep the copies observable
    }
    return 2.0 * static_cast<double>(bytes) / (ipt::cli::median(t) * 1e6);
}

struct Impl {
    std::string plugin, variant;
    uint32_t device;
    std::string name() const { return plugin + (variant.empty() ? "" : ":" + variant) + "@" + std::to_string(device); }
};

// The operator's benchmark case at n x n, or null (said on stderr) when its
// inputs cannot be made at that size.
std::unique_ptr<ipt::cli::BenchCase> bench_case(const ipt_op_schema& op, int64_t n) {
    try {
        return std::make_unique<ipt::cli::BenchCase>(op, n);
    } catch (const std::exception& e) {
        std::cerr << "\nipt bench: " << op.name << " " << n << ": " << e.what() << "\n";
        return nullptr;
    }
}

// The images a call produced, taken out of it.
std::vector<ipt::Image> take_outputs(ipt::Call& call, const ipt_op_schema& op) {
    std::vector<ipt::Image> out;
    for (uint32_t i = 0; i < op.param_count; ++i) {
        if (ipt_op_param(&op, i)->kind != IPT_PARAM_OUTPUT) continue;
        ipt_image* img = nullptr;
        if (ipt_call_take_output(call.get(), ipt_op_param(&op, i)->name, &img) == IPT_OK) out.emplace_back(img);
    }
    return out;
}

// Where a run's results must end up for its time to count as overall time.
constexpr uint32_t kResultsStayPut = 0xFFFFFFFEu;

// One run of `call`, synchronised, in milliseconds. Unless `results_to` is
// kResultsStayPut, every produced output is then brought to that device (the
// host: downloaded into host memory), as a caller working there needs it: the
// overall time, which is what the registry's cost model prices.
double run_once(ipt::Context& ctx, ipt::Call& call, const ipt_op_schema& op, uint32_t results_to) {
    auto t0 = Clock::now();
    call.run();
    ctx.sync();
    if (results_to == kResultsStayPut) return ms_since(t0);
    for (const ipt::Image& out : take_outputs(call, op)) {
        if (results_to == IPT_DEVICE_HOST) {
            // One buffer for every download: a fresh one per run would add
            // its own page faults (milliseconds at 2048x2048 double) to the
            // time of every implementation.
            static std::vector<unsigned char> host;
            host.resize(std::max(host.size(), static_cast<size_t>(out.numel()) * ipt_dtype_size(out.dtype())));
            if (out.numel() > 0) out.download(host.data());
        } else if (out.info().device_id != results_to) {
            ipt::Image moved = ctx.copy_to(out, results_to);
            ctx.sync();
        }
    }
    return ms_since(t0);
}

std::string dispatched(ipt::Context& ctx) {
    auto d = ctx.last_dispatch();
    return Impl{d.plugin, d.variant, d.device_id}.name();
}

// A call being timed: its runs, or why it could not run.
struct Timed {
    ipt::Call call;
    std::vector<double> times;
    std::string error, ran;
    double median() const { return error.empty() && !times.empty() ? ipt::cli::median(times) : -1; }
};

// A call of the case as `auto` runs it: no device, plugin or variant given.
Timed unpinned(ipt::Context& ctx, const ipt::cli::BenchCase& bc, const std::vector<ipt::Image>& images) {
    return Timed{bc.make_call(ctx, images), {}, {}, {}};
}

// A call of the case pinned to one implementation.
ipt::Call pinned_call(ipt::Context& ctx, const ipt::cli::BenchCase& bc, const std::vector<ipt::Image>& images,
                      const Impl& im) {
    ipt::Call call = bc.make_call(ctx, images);
    call.device(im.device).plugin(im.plugin).variant(im.variant);
    return call;
}

Timed pinned(ipt::Context& ctx, const ipt::cli::BenchCase& bc, const std::vector<ipt::Image>& images, const Impl& im) {
    return Timed{pinned_call(ctx, bc, images, im), {}, {}, {}};
}

// Times several calls under the same conditions: each is warmed up once (plans,
// pipelines, the measured selection), then every round runs each call
// untimed for at least kSettleMs and then once timed, in an order shuffled
// from round to round, until `repeats` rounds or the time budget is spent.
// The untimed runs absorb what the previous call left behind (a driver's
// threads winding down, evicted caches: a 0.06 ms CPU call took 0.2-3 ms right
// after a lavapipe call; an idle GPU's lowered clocks). A comparison of
// medians taken minutes apart would mostly compare the machine's moods.
constexpr double kSettleMs = 1.0;
constexpr int kSettleMaxRuns = 100;
// A call whose warm-up took this long (radon of 8192x8192 on the CPU: ~18 s)
// is timed once, without untimed runs before it: its own length drowns what
// a previous call left behind, and rounds of it would not fit any budget.
constexpr double kSlowCallMs = 1000.0;

void time_interleaved(ipt::Context& ctx, std::vector<Timed>& calls, const ipt_op_schema& op, uint32_t results_to,
                      int repeats, double budget_ms) {
    double spent = 0;
    std::vector<bool> slow(calls.size(), false);
    for (size_t j = 0; j < calls.size(); ++j) {
        Timed& c = calls[j];
        try {
            const double warm = run_once(ctx, c.call, op, results_to);
            spent += warm;
            slow[j] = warm >= kSlowCallMs;
            c.ran = dispatched(ctx);
        } catch (const ipt::Error& e) {
            c.error = e.what();
        }
    }
    std::vector<size_t> order(calls.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::mt19937 shuffle_rng(12345);
    for (int round = 0; round < repeats && (round < 3 || spent < budget_ms); ++round) {
        std::shuffle(order.begin(), order.end(), shuffle_rng);
        for (size_t j : order) {
            Timed& c = calls[j];
            if (!c.error.empty() || (slow[j] && !c.times.empty())) continue;
            try {
                if (slow[j]) {
                    c.times.push_back(run_once(ctx, c.call, op, results_to));
                    spent += c.times.back();
                    continue;
                }
                // Untimed runs first, for at least kSettleMs: they absorb what the
                // previous call left behind and bring an idle GPU's clocks back up
                // (after a 2048² CPU call an H100 ran a 0.03 ms Vulkan call in
                // 0.07 ms, a 0.07 ms one in 0.36 ms).
                double settled = 0;
                for (int k = 0; k < kSettleMaxRuns && (k == 0 || settled < kSettleMs); ++k)
                    settled += run_once(ctx, c.call, op, results_to);
                spent += settled;
                c.times.push_back(run_once(ctx, c.call, op, results_to));
                spent += c.times.back();
            } catch (const ipt::Error& e) {
                c.error = e.what();
            }
        }
    }
}

// A miss: auto's median over `ratio` times the best's, by more than a
// timer's noise on tiny calls (0.05 ms), and with the two samples apart:
// auto's lower quartile above the best's upper quartile. On two cores shared
// with a CPU Vulkan driver's threads, a 0.1 ms call's runs spread over
// 0.1-0.3 ms; medians of such samples differ by 1.5x with the same
// implementation behind both, while a wrong choice moves the whole sample.
bool auto_too_slow(const Timed& automatic, const Timed& best, double ratio) {
    const double auto_ms = automatic.median(), best_ms = best.median();
    if (auto_ms < 0) return true;
    if (!(auto_ms > ratio * best_ms && auto_ms - best_ms > 0.05)) return false;
    if (automatic.times.size() < 4 || best.times.size() < 4) return true;  // too few runs for quartiles
    return ipt::cli::quantile(automatic.times, 0.25) > ipt::cli::quantile(best.times, 0.75);
}

// --check-auto's verdict on one row: "passed", "passed when timed again",
// "passed when selected again" or "failed". A miss must reproduce. Auto and
// the best implementation are timed again together, with twice the rounds;
// if auto still misses, the selection itself is made again, in a fresh
// context with an empty cache, and timed once more: on a busy machine small
// copies ran at 0.016 ms for minutes and at 0.04-0.06 for others, so a
// choice measured in one stretch can be wrong in the next. The row fails
// only when every timing misses. The medians of each timing again go to
// `retimed` as {auto ms, best ms}.
std::string check_auto(ipt::Context& ctx, const ipt::cli::BenchCase& bc, const std::vector<ipt::Image>& images,
                       const ipt_op_schema& op, uint32_t results_to, const Impl& best, const Timed& automatic,
                       const Timed& best_timed, const Options& opt, json& retimed) {
    if (!auto_too_slow(automatic, best_timed, opt.check_auto)) return "passed";
    auto time_again = [&](ipt::Context& c, const std::vector<ipt::Image>& imgs) {
        std::vector<Timed> again;
        again.push_back(pinned(c, bc, imgs, best));
        again.push_back(unpinned(c, bc, imgs));
        time_interleaved(c, again, op, results_to, 2 * opt.repeats, 2 * opt.budget_s * 1000.0);
        retimed.push_back({again[1].median(), again[0].median()});
        return !auto_too_slow(again[1], again[0], opt.check_auto);
    };
    if (time_again(ctx, images)) return "passed when timed again";
    ipt::Context fresh = ipt::cli::open_context(opt.context);
    fresh.set_tuning_cache("");
    if (time_again(fresh, bc.upload(fresh, results_to))) return "passed when selected again";  // the data's device
    return "failed";
}

std::string fmt(double ms) {
    if (ms < 0) return "-";
    std::ostringstream s;
    s.precision(ms < 1 ? 3 : 4);
    s << ms;
    return s.str();
}

void write_chart(const json& rows, const std::string& png) {
    // Speedup over the CPU backend of each implementation at the largest size
    // with data on the host, one bar group per operator, log scale.
    std::map<std::string, std::map<std::string, double>> speedups;  // op -> impl -> speedup
    std::map<std::string, int64_t> largest;
    for (const auto& r : rows)
        if (r["where"] == "host") largest[r["op"]] = std::max<int64_t>(largest[r["op"]], r["size"].get<int64_t>());
    std::vector<std::string> impls;
    for (const auto& r : rows) {
        if (r["where"] != "host" || r["size"].get<int64_t>() != largest[r["op"]]) continue;
        for (const auto& i : r["impls"]) {
            if (!i.contains("speedup_vs_cpu")) continue;
            const std::string n = i["impl"];
            speedups[r["op"]][n] = i["speedup_vs_cpu"];
            if (std::find(impls.begin(), impls.end(), n) == impls.end()) impls.push_back(n);
        }
    }
    if (speedups.empty()) return;
    const std::string dat = png + ".dat", gp = png + ".gp";
    {
        std::ostringstream d, g;
        d << "op";
        for (const auto& i : impls) d << " \"" << i << "\"";
        d << "\n";
        for (const auto& [op, m] : speedups) {
            d << op.substr(op.find('.') + 1);
            for (const auto& i : impls) d << " " << (m.count(i) ? m.at(i) : 0.0);
            d << "\n";
        }
        g << "set terminal pngcairo size 1400,600 noenhanced\nset output '" << png << "'\n"
          << "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
          << "set logscale y\nset ylabel 'speedup over the CPU backend (overall time, log scale)'\n"
          << "set title 'OpenIPT: speedup per operator and implementation, largest size, data on the host'\n"
          << "set xtics rotate by -40\nset key outside right top\nset grid ytics\n"
          << "plot for [c=2:" << impls.size() + 1 << "] '" << dat << "' using c:xtic(1) title columnhead\n";
        // Both files or neither, like every output of ipt.
        const std::string dtext = d.str(), gtext = g.str();
        ipt::cli::OutputFiles files;
        files.declare(dat, dat, false);
        files.declare(gp, gp, false);
        files.write_bytes(dat, {reinterpret_cast<const unsigned char*>(dtext.data()), dtext.size()});
        files.write_bytes(gp, {reinterpret_cast<const unsigned char*>(gtext.data()), gtext.size()});
        files.commit();
    }
    const std::string cmd = "gnuplot '" + gp + "' 2>/dev/null";
    if (std::system(cmd.c_str()) != 0)
        std::cerr << "ipt bench: gnuplot is not available; chart data left in " << dat << " and " << gp << "\n";
    else
        std::cerr << "ipt bench: chart written to " << png << "\n";
}

// ---- --from-host: what a call from host memory costs on each GPU -------------
//
// The floor of a call from the host is its kernel time plus its bytes over
// the measured page-locked copy rates: inputs up, results down. Each GPU
// implementation is timed three ways: the kernel (inputs on its device,
// results left there); from host images libipt allocated (page-locked while
// a GPU plugin is loaded), results copied into new libipt host images; and
// from the caller's own pageable memory, results downloaded into it (the
// plugin's staging). The ratios to the floor say what the host's side of
// the copies still costs.

// Median wall time of `body` (synchronised by it) over up to `repeats` runs
// after one warm-up, stopping early once `budget_ms` is spent.
double median_wall_ms(const std::function<void()>& body, int repeats, double budget_ms) {
    body();
    std::vector<double> t;
    double spent = 0;
    for (int k = 0; k < repeats && (k < 3 || spent < budget_ms); ++k) {
        const auto t0 = Clock::now();
        body();
        t.push_back(ms_since(t0));
        spent += t.back();
    }
    return ipt::cli::median(t);
}

struct CopyRates {
    double up_locked = -1, down_locked = -1, up_pageable = -1, down_pageable = -1;  // GB/s
};

// 64 MiB each way between `device` and the host: from and into a libipt host
// image (page-locked), and from and into malloc'ed memory.
CopyRates measure_copy_rates(ipt::Context& ctx, uint32_t device) {
    const int64_t bytes = int64_t{64} << 20;
    std::vector<unsigned char> pageable(static_cast<size_t>(bytes), 3);
    ipt::Image host = ctx.upload(IPT_UINT8, 1, bytes, pageable.data(), 1, IPT_DEVICE_HOST);
    ipt::Image dev = ctx.upload(IPT_UINT8, 1, bytes, pageable.data(), 1, device);
    const auto gbps = [&](double ms) { return ms > 0 ? static_cast<double>(bytes) / (ms * 1e6) : -1; };
    CopyRates r;
    r.up_locked = gbps(median_wall_ms([&] { ipt::Image d = ctx.copy_to(host, device); ctx.sync(); }, 9, 2000));
    r.down_locked = gbps(median_wall_ms([&] { ipt::Image h = ctx.copy_to(dev, IPT_DEVICE_HOST); ctx.sync(); }, 9, 2000));
    r.up_pageable = gbps(median_wall_ms(
        [&] { ipt::Image d = ctx.upload(IPT_UINT8, 1, bytes, pageable.data(), 1, device); ctx.sync(); }, 9, 2000));
    r.down_pageable = gbps(median_wall_ms([&] { dev.download(pageable.data()); }, 9, 2000));
    return r;
}

int run_from_host(ipt::Context& ctx, const std::vector<const ipt_op_schema*>& ops, const std::vector<int64_t>& sizes,
                  const Options& opt) {
    std::map<uint32_t, CopyRates> rates;
    json devs = json::array();
    for (const auto& d : ctx.devices()) {
        if (d.id == IPT_DEVICE_HOST) continue;
        const CopyRates r = measure_copy_rates(ctx, d.id);
        rates[d.id] = r;
        devs.push_back({{"id", d.id}, {"name", d.name}, {"kind", d.kind}, {"up_locked_gbps", r.up_locked},
                        {"down_locked_gbps", r.down_locked}, {"up_pageable_gbps", r.up_pageable},
                        {"down_pageable_gbps", r.down_pageable}});
        std::cerr << "device " << d.id << " (" << d.kind << "): page-locked " << fmt(r.up_locked) << " up, "
                  << fmt(r.down_locked) << " down; pageable " << fmt(r.up_pageable) << " up, " << fmt(r.down_pageable)
                  << " down (GB/s, 64 MiB)\n";
    }
    if (rates.empty()) {
        std::cerr << "ipt bench --from-host: no GPU device is loaded\n";
        return ipt::cli::kExitFailure;
    }
    const double budget_ms = opt.budget_s * 1000.0;
    json rows = json::array();
    ipt::cli::Table table({"op", "size", "class", "implementation", "kernel ms", "floor ms", "from locked ms",
                           "x floor", "from pageable ms", "x floor"});
    size_t done = 0;
    const size_t total = ops.size() * sizes.size();
    for (const ipt_op_schema* op : ops) {
        for (int64_t n : sizes) {
            ipt::cli::progress_bar(done++, total, std::string(op->name) + " " + std::to_string(n));
            const auto bc = bench_case(*op, n);
            if (!bc) continue;
            for (const auto& i : ctx.impls(op->name)) {
                if (i.device_id == IPT_DEVICE_HOST || !rates.count(i.device_id)) continue;
                const Impl im{i.plugin, i.variant, i.device_id};
                const CopyRates& r = rates[i.device_id];
                json row = {{"op", op->name}, {"size", n}, {"dtype", bc->dtype()}, {"impl", im.name()},
                            {"input_bytes", bc->input_bytes()}};
                try {
                    // Kernel: inputs on the device, results left there.
                    const auto on_device = bc->upload(ctx, im.device);
                    ipt::Call kcall = pinned_call(ctx, *bc, on_device, im);
                    const double kernel = median_wall_ms([&] { run_once(ctx, kcall, *op, kResultsStayPut); },
                                                         opt.repeats, budget_ms);
                    uint64_t out_bytes = 0;
                    for (const auto& o : take_outputs(kcall, *op))
                        out_bytes += static_cast<uint64_t>(o.numel()) * ipt_dtype_size(o.dtype());
                    // From libipt host images, results into libipt host images.
                    const auto on_host = bc->upload(ctx, IPT_DEVICE_HOST);
                    ipt::Call lcall = pinned_call(ctx, *bc, on_host, im);
                    const double locked = median_wall_ms(
                        [&] {
                            lcall.run();
                            for (const auto& o : take_outputs(lcall, *op)) ipt::Image h = ctx.copy_to(o, IPT_DEVICE_HOST);
                            ctx.sync();
                        },
                        opt.repeats, budget_ms);
                    // From the caller's pageable memory, results into it.
                    const double pageable = median_wall_ms(
                        [&] {
                            const auto up = bc->upload(ctx, im.device);
                            ipt::Call c = pinned_call(ctx, *bc, up, im);
                            run_once(ctx, c, *op, IPT_DEVICE_HOST);
                        },
                        opt.repeats, budget_ms);
                    const double floor = kernel + static_cast<double>(bc->input_bytes()) / (r.up_locked * 1e6) +
                                         static_cast<double>(out_bytes) / (r.down_locked * 1e6);
                    row.update({{"output_bytes", out_bytes}, {"kernel_ms", kernel}, {"floor_ms", floor},
                                {"locked_ms", locked}, {"pageable_ms", pageable}});
                    table.add_row({op->name, std::to_string(n), bc->dtype(), im.name(), fmt(kernel), fmt(floor), fmt(locked),
                                   fmt(locked / floor), fmt(pageable), fmt(pageable / floor)});
                } catch (const ipt::Error& e) {
                    row["error"] = e.what();
                    table.add_row({op->name, std::to_string(n), bc->dtype(), im.name(), "-", "-", "-", "-", "-", e.what()});
                }
                rows.push_back(row);
            }
        }
    }
    ipt::cli::progress_bar(total, total, "done");
    if (opt.json) {
        ipt::cli::print_json(std::cout, json{{"benchmark", "from-host"}, {"devices", devs}, {"rows", rows}});
    } else {
        std::cout << "floor = kernel + input bytes / page-locked upload rate + output bytes / page-locked download rate\n";
        table.print(std::cout);
    }
    return ipt::cli::kExitOk;
}

ipt::cli::Action setup(CLI::App& sub) {
    auto opt = std::make_shared<Options>();
    sub.add_option("--ops", opt->ops, "operators (default: every operator with an image input)")->delimiter(',');
    sub.add_option("--sizes", opt->sizes, "image sides, comma-separated")->capture_default_str();
    sub.add_flag("--json", opt->json, "JSON (rows[]) instead of the table");
    sub.add_option("--repeats", opt->repeats, "timed runs per measurement (median); a call whose warm-up took over 1 s is timed once")->capture_default_str();
    sub.add_option("--budget", opt->budget_s, "seconds at most per measurement (fewer repeats when slow)")->capture_default_str();
    sub.add_option("--chart", opt->chart, "PNG chart of the speedups (gnuplot); '' for none")->capture_default_str();
    sub.add_option("--check-auto", opt->check_auto,
                   "fail when auto is slower than RATIO x the best implementation and by more than 0.05 ms (timer noise)");
    sub.add_flag("--from-host", opt->from_host,
                 "per GPU implementation: kernel time, the floor (kernel + bytes at the page-locked copy rates), and "
                 "the overall time from libipt's host images and from the caller's pageable memory");
    ipt::cli::add_context_options(sub, opt->context);
    return [opt] {
        ipt::Context ctx = ipt::cli::open_context(opt->context);
        const auto ops = ipt::cli::bench_ops(ctx, opt->ops);
        const auto sizes = ipt::cli::parse_sizes(opt->sizes);
        if (opt->from_host) return run_from_host(ctx, ops, sizes, *opt);
        const auto devices = ctx.devices();
        const double host_gbps = host_copy_gbps();
        const double budget_ms = opt->budget_s * 1000.0;

        json rows = json::array();
        ipt::cli::Table table({"op", "size", "class", "data on", "implementation: kernel / overall ms (speedup, GB/s)", "auto",
                               "auto/best"});
        size_t total = 0, done = 0;
        total = ops.size() * sizes.size() * devices.size();
        int auto_failures = 0;
        for (const ipt_op_schema* op : ops) {
            std::vector<Impl> impls;
            for (const auto& i : ctx.impls(op->name)) impls.push_back({i.plugin, i.variant, i.device_id});
            for (int64_t n : sizes) {
                const auto bc = bench_case(*op, n);
                if (!bc) continue;
                // Kernel time: data already on the implementation's device.
                std::map<std::string, double> kernel;
                std::map<std::string, std::string> errors;
                for (const Impl& im : impls) {
                    ipt::cli::progress_bar(done, total, std::string(op->name) + " " + std::to_string(n) + " kernel " + im.name());
                    try {
                        auto images = bc->upload(ctx, im.device);
                        std::vector<Timed> one;
                        one.push_back(pinned(ctx, *bc, images, im));
                        time_interleaved(ctx, one, *op, kResultsStayPut, opt->repeats, budget_ms);
                        kernel[im.name()] = one[0].median();
                        errors[im.name()] = one[0].error;
                    } catch (const ipt::Error& e) {
                        kernel[im.name()] = -1;
                        errors[im.name()] = e.what();
                    }
                }
                for (const auto& where : devices) {
                    ipt::cli::progress_bar(done++, total, std::string(op->name) + " " + std::to_string(n) + " @" + where.kind);
                    const bool on_host = where.id == IPT_DEVICE_HOST;
                    std::vector<ipt::Image> images;
                    try {
                        images = bc->upload(ctx, where.id);
                    } catch (const ipt::Error& e) {
                        continue;  // no room on that device
                    }
                    json row = {{"op", op->name}, {"size", n}, {"dtype", bc->dtype()},
                                {"where", on_host ? std::string("host") : std::string(where.kind) + ":" + std::to_string(where.id)}};
                    json jimpls = json::array();
                    double best = -1, cpu_overall = -1;
                    std::string best_impl;
                    size_t best_index = 0;
                    std::map<std::string, double> overall;
                    // Every implementation pinned, and auto (unpinned, from where
                    // the data is) last, timed round by round together.
                    std::vector<Timed> timed;
                    for (const Impl& im : impls) timed.push_back(pinned(ctx, *bc, images, im));
                    timed.push_back(unpinned(ctx, *bc, images));
                    time_interleaved(ctx, timed, *op, where.id, opt->repeats, budget_ms);
                    for (size_t k = 0; k < impls.size(); ++k) {
                        const Impl& im = impls[k];
                        const double ms = timed[k].median();
                        overall[im.name()] = ms;
                        if (ms < 0 && errors[im.name()].empty()) errors[im.name()] = timed[k].error;
                        if (ms >= 0 && (best < 0 || ms < best)) {
                            best = ms;
                            best_impl = im.name();
                            best_index = k;
                        }
                        if (im.plugin == "cpu" && im.variant.empty() && im.device == IPT_DEVICE_HOST) cpu_overall = ms;
                    }
                    std::string cells;
                    for (const Impl& im : impls) {
                        const double k = kernel[im.name()], o = overall[im.name()];
                        json j = {{"impl", im.name()}, {"plugin", im.plugin}, {"variant", im.variant}, {"device", im.device},
                                  {"kernel_ms", k}, {"overall_ms", o}};
                        if (k < 0 || o < 0) j["error"] = errors[im.name()];
                        double gbps = -1;
                        if (k > 0) {
                            // Bytes every output and input must move at least once, over the kernel time.
                            gbps = 2.0 * static_cast<double>(bc->input_bytes()) / (k * 1e6);
                            j["gbps"] = gbps;
                            if (im.device == IPT_DEVICE_HOST) j["ratio_to_copy"] = gbps / host_gbps;
                        }
                        if (cpu_overall > 0 && o > 0) j["speedup_vs_cpu"] = cpu_overall / o;
                        jimpls.push_back(j);
                        cells += (cells.empty() ? "" : "  ") + im.name() + ": " + fmt(k) + "/" + fmt(o);
                        if (cpu_overall > 0 && o > 0) cells += " (x" + fmt(cpu_overall / o) + (gbps > 0 ? ", " + fmt(gbps) + " GB/s" : "") + ")";
                    }
                    const Timed& automatic = timed.back();
                    const double auto_ms = automatic.median();
                    const std::string chosen = automatic.ran;
                    row["impls"] = jimpls;
                    row["auto_ms"] = auto_ms;
                    row["auto_impl"] = chosen;
                    row["best_ms"] = best;
                    row["best_impl"] = best_impl;
                    const double ratio = best > 0 && auto_ms > 0 ? auto_ms / best : -1;
                    row["auto_over_best"] = ratio;
                    if (opt->check_auto > 0 && best > 0) {
                        json retimed = json::array();
                        const std::string verdict = check_auto(ctx, *bc, images, *op, where.id, impls[best_index],
                                                               automatic, timed[best_index], *opt, retimed);
                        row["auto_check"] = verdict;
                        if (!retimed.empty()) row["auto_retimed_ms"] = retimed;  // [auto, best] per timing again
                        if (verdict == "failed") {
                            ++auto_failures;
                            std::cerr << "\nipt bench: auto missed: " << op->name << " " << n << " data on "
                                      << row["where"].get<std::string>() << ": auto " << chosen << " " << fmt(auto_ms)
                                      << " ms, best " << best_impl << " " << fmt(best) << " ms\n";
                        }
                    }
                    rows.push_back(row);
                    table.add_row({op->name, std::to_string(n), bc->dtype(), row["where"], cells, chosen + " " + fmt(auto_ms),
                                   fmt(ratio) + (!row.contains("auto_check") || row["auto_check"] == "passed" ? ""
                                                 : row["auto_check"] == "failed" ? " MISS"
                                                 : row["auto_check"] == "passed when timed again" ? " (timed again: ok)"
                                                                                                  : " (selected again: ok)")});
                }
            }
        }
        ipt::cli::progress_bar(total, total, "done");
        if (opt->json) {
            json doc = {{"host_copy_gbps", host_gbps}, {"rows", rows}};
            json devs = json::array();
            for (const auto& d : devices) devs.push_back({{"id", d.id}, {"name", d.name}, {"kind", d.kind}});
            doc["devices"] = devs;
            ipt::cli::print_json(std::cout, doc);
        } else {
            std::cout << "host copy bandwidth: " << fmt(host_gbps) << " GB/s (bytes read + written)\n";
            table.print(std::cout);
        }
        if (!opt->chart.empty()) write_chart(rows, opt->chart);
        if (auto_failures) {
            std::cerr << "ipt bench: auto was slower than " << opt->check_auto << "x the best implementation in "
                      << auto_failures << " rows\n";
            return ipt::cli::kExitFailure;
        }
        return ipt::cli::kExitOk;
    };
}

IPT_CLI_COMMAND("bench", "Time every implementation and the measured selection (the seed study's Table 2)", setup);

}  // namespace
