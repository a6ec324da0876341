// SPDX-License-Identifier: Apache-2.0
// ipt_cpu_bench: the same inputs through OpenIPT's CPU backend and through
// OpenCV, in one process, and the ratio of their times.
//
// OpenIPT is reached the way an application reaches it: libipt's public API,
// the CPU plugin discovered next to libipt, every call pinned to the host
// device and to the plugin "cpu". The tuning cache stays in memory, so the
// first (warm-up) call of a case measures the variants (conv2 direct/fft) and
// the timed calls run the one chosen; the table prints which.
//
// Timing: after warm-up, runs alternate between the two libraries (so that a
// change in the machine's load hits both alike; which goes first alternates
// from round to round), with a pause before each run
// so that neither library's idle worker threads (OpenMP spins for a while
// after a parallel region) steal the cores of the other. Each side's median
// and minimum are reported. Every OpenIPT call produces a new output image,
// whose memory libipt takes from its cache of freed host blocks when one of
// that size is there, so OpenCV's dst is kept allocated between runs too
// (--cv-dst fresh releases it before each run, for a fresh mapping).
//
// The floor is the bytes a case must move (inputs read + outputs written)
// over the host's measured copy bandwidth (a two-way memcpy on all threads,
// bytes read + bytes written per second).
#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ipt/ipt.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median_of(std::vector<double> v) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// ---- options -------------------------------------------------------------

struct Options {
    std::vector<int64_t> sizes{512, 2048, 8192};
    std::vector<std::string> cases;  // empty: all
    std::string json;
    int runs = 15;           // timed runs per side, at most
    int min_runs = 3;        // at least, whatever the budget
    double budget_s = 6.0;   // per case and side, for the timed runs
    double gap_ms = 20.0;    // pause before each timed run
    int threads = 0;         // 0: every core (both libraries)
    bool cv_reuse_dst = true;
    bool run_ipt = true, run_cv = true;  // --side
    bool list = false;
};

[[noreturn]] void usage(const char* why) {
    if (why && *why) std::fprintf(stderr, "ipt_cpu_bench: %s\n", why);
    std::fprintf(stderr,
                 "usage: ipt_cpu_bench [--sizes 512,2048,8192] [--cases NAME,...] [--json FILE]\n"
                 "                     [--runs 15] [--min-runs 3] [--budget SECONDS] [--gap-ms 20]\n"
                 "                     [--threads N] [--cv-dst fresh|reuse] [--side both|ipt|cv] [--list]\n"
                 "  --cases takes case names or their prefixes before a '-' (conv2, medfilt2, bwdist);\n"
                 "  --side ipt|cv times one library only (for profiling);\n"
                 "  --list prints the cases and what each compares.\n");
    std::exit(2);
}

std::vector<std::string> split_commas(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

Options parse_options(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage(("missing value after " + a).c_str());
            return argv[++i];
        };
        auto number = [&](double lo) {
            const std::string v = value();
            char* end = nullptr;
            const double x = std::strtod(v.c_str(), &end);
            if (end == v.c_str() || *end || !(x >= lo)) usage(("bad value for " + a + ": " + v).c_str());
            return x;
        };
        if (a == "--sizes") {
            o.sizes.clear();
            for (const std::string& s : split_commas(value())) {
                char* end = nullptr;
                const long long n = std::strtoll(s.c_str(), &end, 10);
                if (*end || n < 1 || n > 65536) usage(("bad size " + s).c_str());
                o.sizes.push_back(n);
            }
            if (o.sizes.empty()) usage("--sizes needs at least one size");
        } else if (a == "--cases") {
            o.cases = split_commas(value());
        } else if (a == "--json") {
            o.json = value();
        } else if (a == "--runs") {
            o.runs = static_cast<int>(number(1));
        } else if (a == "--min-runs") {
            o.min_runs = static_cast<int>(number(1));
        } else if (a == "--budget") {
            o.budget_s = number(0);
        } else if (a == "--gap-ms") {
            o.gap_ms = number(0);
        } else if (a == "--threads") {
            o.threads = static_cast<int>(number(1));
        } else if (a == "--cv-dst") {
            const std::string v = value();
            if (v != "fresh" && v != "reuse") usage("--cv-dst takes fresh or reuse");
            o.cv_reuse_dst = v == "reuse";
        } else if (a == "--side") {
            const std::string v = value();
            if (v != "both" && v != "ipt" && v != "cv") usage("--side takes both, ipt or cv");
            o.run_ipt = v != "cv";
            o.run_cv = v != "ipt";
        } else if (a == "--list") {
            o.list = true;
        } else if (a == "--help" || a == "-h") {
            usage(nullptr);
        } else {
            usage(("unknown option " + a).c_str());
        }
    }
    o.min_runs = std::min(o.min_runs, o.runs);
    return o;
}

// ---- the machine -----------------------------------------------------------

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0) {
            const size_t colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(colon + 2);
        }
    return "unknown";
}

std::string load_average() {
    std::ifstream in("/proc/loadavg");
    std::string a, b, c;
    in >> a >> b >> c;
    return a + " " + b + " " + c;
}

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    char buf[64];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
    return buf;
}

// The "Parallel framework" line of OpenCV's build information.
std::string opencv_parallel_framework() {
    std::stringstream in(cv::getBuildInformation());
    for (std::string line; std::getline(in, line);)
        if (line.find("Parallel framework") != std::string::npos) {
            const size_t colon = line.find(':');
            std::string v = colon == std::string::npos ? line : line.substr(colon + 1);
            v.erase(0, v.find_first_not_of(" \t"));
            return v;
        }
    return "unknown";
}

// Copy bandwidth (bytes read + bytes written per second) of memcpy over
// buffers far larger than the caches, split across `threads`; best of 5.
double copy_bandwidth(int threads) {
    const size_t bytes = size_t(256) << 20;
    std::vector<unsigned char> src(bytes, 1), dst(bytes, 0);
    double best = 0;
    for (int rep = 0; rep < 5; ++rep) {
        const auto t0 = Clock::now();
        std::vector<std::thread> pool;
        const size_t part = bytes / static_cast<size_t>(threads);
        for (int t = 0; t < threads; ++t)
            pool.emplace_back([&, t] {
                const size_t begin = part * static_cast<size_t>(t);
                const size_t n = t + 1 == threads ? bytes - begin : part;
                std::memcpy(dst.data() + begin, src.data() + begin, n);
            });
        for (auto& th : pool) th.join();
        const double s = ms_since(t0) / 1e3;
        best = std::max(best, 2.0 * static_cast<double>(bytes) / s);
    }
    if (dst[bytes / 2] != 1) std::fprintf(stderr, "copy_bandwidth: copy failed\n");
    return best;
}

// ---- one case ----------------------------------------------------------------

// One side of a case: run() is timed; prepare() and release() are not
// (release frees the outputs, prepare drops OpenCV's dst for a fresh one).
struct Side {
    std::function<void()> prepare = [] {};
    std::function<void()> run;
    std::function<void()> release = [] {};
};

struct Case {
    std::string name;
    std::string size_label;
    double bytes = 0;             // inputs read + outputs written
    Side ipt;
    std::optional<Side> cv;       // none: no OpenCV peer
    std::function<std::string()> check;  // after a last run of each side
    std::function<std::string()> variant;  // OpenIPT's implementation that ran
    std::vector<double>* kernel_ms = nullptr;  // OpenIPT's implementation time per run
};

struct Result {
    std::string name, size_label, variant, check, cv_class;
    int ipt_runs = 0, cv_runs = 0;
    double ipt_median = NAN, ipt_min = NAN, ipt_kernel = NAN, cv_median = NAN, cv_min = NAN;
    double floor_ms = NAN;
    double ipt_faults = NAN, cv_faults = NAN;  // page faults per run (median)
};

void pause_ms(double ms) {
    if (ms > 0) std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(ms));
}

long minor_faults() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

// Time of one run; `faults` gets the page faults taken during it (first
// touches of freshly mapped output memory).
double timed(Side& s, double gap_ms, long* faults = nullptr) {
    s.prepare();
    pause_ms(gap_ms);
    const long f0 = minor_faults();
    const auto t0 = Clock::now();
    s.run();
    const double ms = ms_since(t0);
    if (faults) *faults = minor_faults() - f0;
    s.release();
    return ms;
}

Result measure(Case& c, const Options& o, double bandwidth) {
    Result r;
    r.name = c.name;
    r.size_label = c.size_label;
    r.floor_ms = c.bytes / bandwidth * 1e3;
    // Warm-up: the first OpenIPT call also measures the variants (tuning
    // cache miss); the second of each side estimates the run time.
    if (!o.run_cv) c.cv.reset();
    Side* ipt_side = o.run_ipt ? &c.ipt : nullptr;
    double estimate = 0;
    if (ipt_side) {
        timed(*ipt_side, 0);
        estimate = timed(*ipt_side, o.gap_ms);
    }
    if (c.cv) {
        timed(*c.cv, 0);
        estimate = std::max(estimate, timed(*c.cv, o.gap_ms));
    }
    const int by_budget = static_cast<int>(o.budget_s * 1e3 / std::max(estimate, 1e-3));
    const int n = std::clamp(by_budget, o.min_runs, o.runs);
    if (c.kernel_ms) c.kernel_ms->clear();
    std::vector<double> ti, tc, fi, fc;
    for (int i = 0; i < n; ++i) {
        // Which library goes first alternates from round to round.
        for (int turn = 0; turn < 2; ++turn) {
            long faults = 0;
            if ((turn == i % 2) && ipt_side) {
                ti.push_back(timed(*ipt_side, o.gap_ms, &faults));
                fi.push_back(static_cast<double>(faults));
            } else if ((turn != i % 2) && c.cv) {
                tc.push_back(timed(*c.cv, o.gap_ms, &faults));
                fc.push_back(static_cast<double>(faults));
            }
        }
    }
    r.ipt_faults = median_of(fi);
    r.cv_faults = median_of(fc);
    r.ipt_runs = static_cast<int>(ti.size());
    r.cv_runs = static_cast<int>(tc.size());
    if (!ti.empty()) {
        r.ipt_median = median_of(ti);
        r.ipt_min = *std::min_element(ti.begin(), ti.end());
        if (c.kernel_ms) r.ipt_kernel = median_of(*c.kernel_ms);
    }
    if (!tc.empty()) {
        r.cv_median = median_of(tc);
        r.cv_min = *std::min_element(tc.begin(), tc.end());
    }
    r.check = c.check && c.cv && ipt_side ? c.check() : "-";
    r.variant = c.variant && ipt_side ? c.variant() : "";
    return r;
}

// ---- OpenIPT side helpers ---------------------------------------------------------

ipt::Context* g_ctx = nullptr;

// A call built once and run many times (the API allows it), pinned to the
// host device and the CPU plugin. release() takes the outputs and frees them.
struct IptCall {
    ipt::Call call;
    std::vector<std::string> outputs;
    std::vector<double> kernel_ms;  // the implementation's own time (dispatch record) per run

    IptCall(const char* op, std::vector<std::string> outs) : call(*g_ctx, op), outputs(std::move(outs)) {
        call.device(IPT_DEVICE_HOST).plugin("cpu");
        for (const std::string& name : outputs) call.want(name.c_str());
    }
    void attach(Case& c) {
        c.ipt = side();
        c.kernel_ms = &kernel_ms;
    }
    Side side() {
        Side s;
        s.run = [this] { call.run(); };
        s.release = [this] {
            kernel_ms.push_back(g_ctx->last_dispatch().run_ms);
            for (const std::string& name : outputs) ipt::Image img = call.take(name.c_str());
        };
        return s;
    }
    // Runs once more and downloads one output (the others are freed).
    template <class T>
    std::vector<T> result(const std::string& name) {
        call.run();
        std::vector<T> out;
        for (const std::string& o : outputs) {
            ipt::Image img = call.take(o.c_str());
            if (o == name) out = img.download<T>();
        }
        return out;
    }
};

std::string dispatched_variant() {
    const ipt_dispatch_info d = g_ctx->last_dispatch();
    const std::string v = d.variant ? d.variant : "";
    return v.empty() ? "direct" : v;
}

ipt::Image upload_mat(const cv::Mat& m, ipt_dtype dtype) {
    return g_ctx->upload(dtype, m.rows, m.cols, m.ptr());
}

// OpenCV side: `fn(dst)` writes dst; a fresh dst per run unless reused.
Side cv_side(cv::Mat& dst, std::function<void(cv::Mat&)> fn, const Options& o) {
    Side s;
    if (!o.cv_reuse_dst) s.prepare = [&dst] { dst.release(); };
    s.run = [&dst, fn] { fn(dst); };
    return s;
}

// ---- comparisons -----------------------------------------------------------------

template <class T>
std::string compare_exact(const std::vector<T>& a, const cv::Mat& b, int border = 0) {
    if (static_cast<int64_t>(a.size()) != static_cast<int64_t>(b.total()))
        return "size differs (" + std::to_string(a.size()) + " vs " + std::to_string(b.total()) + ")";
    int64_t bad = 0, counted = 0;
    for (int r = border; r < b.rows - border; ++r)
        for (int c = border; c < b.cols - border; ++c) {
            ++counted;
            bad += a[static_cast<size_t>(r) * b.cols + c] != b.at<T>(r, c);
        }
    std::string where = border ? " (interior)" : "";
    if (bad == 0) return "equal" + where;
    return std::to_string(bad) + " of " + std::to_string(counted) + " differ" + where;
}

std::string compare_float(const std::vector<float>& a, const cv::Mat& b) {
    if (static_cast<int64_t>(a.size()) != static_cast<int64_t>(b.total())) return "size differs";
    double worst = 0, scale = 0;
    const float* p = b.ptr<float>();
    for (size_t i = 0; i < a.size(); ++i) {
        worst = std::max(worst, std::abs(double(a[i]) - double(p[i])));
        scale = std::max(scale, std::abs(double(p[i])));
    }
    char buf[96];
    std::snprintf(buf, sizeof buf, "max|d| %.2g (max|ref| %.3g)", worst, scale);
    return buf;
}

// ---- inputs of one size ----------------------------------------------------------

struct Inputs {
    int64_t n = 0;
    cv::Mat u8;        // uniform noise
    cv::Mat f32;       // uniform in [0,1)
    cv::Mat smooth8;   // blurred noise: plateaus and regional maxima of many sizes
    cv::Mat bw50;      // features (nonzero) on half the pixels
    cv::Mat bw01;      // features on 0.1 % of the pixels
};

Inputs make_inputs(int64_t n) {
    Inputs in;
    in.n = n;
    const int s = static_cast<int>(n);
    cv::RNG rng(20261122);
    in.u8.create(s, s, CV_8U);
    rng.fill(in.u8, cv::RNG::UNIFORM, 0, 256);
    in.f32.create(s, s, CV_32F);
    rng.fill(in.f32, cv::RNG::UNIFORM, 0.0, 1.0);
    cv::Mat blurred;
    cv::blur(in.u8, blurred, cv::Size(9, 9));
    in.smooth8 = blurred;
    cv::Mat u(s, s, CV_32F);
    rng.fill(u, cv::RNG::UNIFORM, 0.0, 1.0);
    in.bw50 = u < 0.5f;   // 255 where true
    in.bw01 = u < 0.001f;
    in.bw50 /= 255;       // logical 0/1
    in.bw01 /= 255;
    if (cv::countNonZero(in.bw01) == 0) in.bw01.at<uint8_t>(s / 2, s / 2) = 1;
    return in;
}

// ---- the cases -----------------------------------------------------------------------

// Everything a case needs to stay alive while it is measured.
struct Holder {
    std::deque<ipt::Image> images;  // push_back keeps references valid
    std::vector<std::unique_ptr<IptCall>> calls;
    std::vector<std::unique_ptr<cv::Mat>> mats;
    IptCall& call(const char* op, std::vector<std::string> outs) {
        calls.push_back(std::make_unique<IptCall>(op, std::move(outs)));
        return *calls.back();
    }
    const ipt::Image& image(ipt::Image img) {
        images.push_back(std::move(img));
        return images.back();
    }
    cv::Mat& mat(cv::Mat m = cv::Mat()) {
        mats.push_back(std::make_unique<cv::Mat>(std::move(m)));
        return *mats.back();
    }
};

struct CaseDef {
    std::string name;
    std::string compares;  // what exactly is compared (--list, results file)
    // Builds the case for one size, or returns false when the case does not
    // run at that size.
    std::function<bool(Case&, Holder&, const Inputs&, const Options&)> build;
    // An operator that may have no CPU implementation yet: the case is then
    // skipped with a note (empty: always implemented).
    std::string op;
    // OpenCV's class where OpenCV has no function for OpenIPT's class (empty:
    // the same class): the ratio is then no like-for-like comparison and is
    // not marked.
    std::string cv_class;
};

std::string sq(int64_t n) { return std::to_string(n) + "^2"; }

// A random k x k kernel in single (not symmetric, so that a missing flip shows).
cv::Mat random_kernel(int rows, int cols, uint64_t seed) {
    cv::Mat k(rows, cols, CV_32F);
    cv::RNG rng(seed);
    rng.fill(k, cv::RNG::UNIFORM, -1.0, 1.0);
    return k / static_cast<float>(rows * cols);
}

cv::Mat flipped(const cv::Mat& k) {
    cv::Mat f;
    cv::flip(k, f, -1);
    return f;
}

CaseDef conv2_case(int k) {
    CaseDef d;
    d.name = "conv2-" + std::to_string(k);
    d.compares = "conv2(A,B,'same'), A and B single, B random " + std::to_string(k) + "x" + std::to_string(k) +
                 " | cv::filter2D(A, CV_32F, flip(B), centre anchor, BORDER_CONSTANT 0)";
    d.build = [k](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const cv::Mat kernel = random_kernel(k, k, 7 + k);
        const ipt::Image& a = h.image(upload_mat(in.f32, IPT_SINGLE));
        const ipt::Image& b = h.image(upload_mat(kernel, IPT_SINGLE));
        IptCall& call = h.call("ipt.conv2", {"C"});
        call.call.image("A", a).image("B", b).option("shape", "same");
        call.attach(c);
        c.variant = dispatched_variant;
        cv::Mat& dst = h.mat();
        const cv::Mat kf = flipped(kernel);
        const cv::Mat src = in.f32;
        c.cv = cv_side(dst, [src, kf](cv::Mat& out) {
            cv::filter2D(src, out, CV_32F, kf, cv::Point(-1, -1), 0, cv::BORDER_CONSTANT);
        }, o);
        c.check = [&call, &dst] { return compare_float(call.result<float>("C"), dst); };
        c.bytes = 8.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

CaseDef sep_case(int k) {
    CaseDef d;
    d.name = "conv2-sep" + std::to_string(k);
    d.compares = "conv2(u,v,A,'same'), single, u " + std::to_string(k) + "x1 and v 1x" + std::to_string(k) +
                 " random | cv::sepFilter2D(A, CV_32F, kernelX=flip(v), kernelY=flip(u), BORDER_CONSTANT 0)";
    d.build = [k](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const cv::Mat u = random_kernel(k, 1, 100 + k), v = random_kernel(1, k, 200 + k);
        const ipt::Image& a = h.image(upload_mat(in.f32, IPT_SINGLE));
        const ipt::Image& iu = h.image(upload_mat(u, IPT_SINGLE));
        const ipt::Image& iv = h.image(upload_mat(v, IPT_SINGLE));
        IptCall& call = h.call("ipt.conv2", {"C"});
        call.call.image("A", a).image("u", iu).image("v", iv).option("shape", "same");
        call.attach(c);
        c.variant = dispatched_variant;
        cv::Mat& dst = h.mat();
        const cv::Mat kx = flipped(v), ky = flipped(u), src = in.f32;
        c.cv = cv_side(dst, [src, kx, ky](cv::Mat& out) {
            cv::sepFilter2D(src, out, CV_32F, kx, ky, cv::Point(-1, -1), 0, cv::BORDER_CONSTANT);
        }, o);
        c.check = [&call, &dst] { return compare_float(call.result<float>("C"), dst); };
        c.bytes = 8.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

const float kPrewitt[9] = {1, 1, 1, 0, 0, 0, -1, -1, -1};  // fspecial('prewitt')

CaseDef imfilter_prewitt_case() {
    CaseDef d;
    d.name = "imfilter-prewitt";
    d.compares = "imfilter(A, fspecial('prewitt')), A uint8, correlation, zero border, uint8 result "
                 "(saturated) | cv::filter2D(A, CV_8U, same 3x3 kernel, BORDER_CONSTANT 0)";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const cv::Mat kernel = cv::Mat(3, 3, CV_32F, const_cast<float*>(kPrewitt)).clone();
        cv::Mat k64;
        kernel.convertTo(k64, CV_64F);
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        const ipt::Image& hk = h.image(upload_mat(k64, IPT_DOUBLE));
        IptCall& call = h.call("ipt.imfilter", {"B"});
        call.call.image("A", a).image("h", hk);
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat src = in.u8;
        c.cv = cv_side(dst, [src, kernel](cv::Mat& out) {
            cv::filter2D(src, out, CV_8U, kernel, cv::Point(-1, -1), 0, cv::BORDER_CONSTANT);
        }, o);
        c.check = [&call, &dst] { return compare_exact(call.result<uint8_t>("B"), dst); };
        c.bytes = 2.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

CaseDef edge_prewitt_case() {
    CaseDef d;
    d.name = "edge-prewitt";
    d.compares =
        "edge(I,'prewitt','nothinning'), I uint8, automatic threshold | OpenCV doing the same steps: convertTo "
        "CV_32F, filter2D with fspecial('prewitt')'/6 and fspecial('prewitt')/6 (BORDER_REPLICATE), "
        "b = gx^2+gy^2, cutoff = 4*mean(b), compare(b > cutoff)";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        IptCall& call = h.call("ipt.edge", {"BW"});
        call.call.image("I", a).option("method", "prewitt").option("thinning", "nothinning");
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat ky = cv::Mat(3, 3, CV_32F, const_cast<float*>(kPrewitt)) / 6.0f;
        const cv::Mat kx = ky.t();
        const cv::Mat src = in.u8;
        c.cv = cv_side(dst, [src, kx, ky](cv::Mat& out) {
            cv::Mat f, gx, gy, b;
            src.convertTo(f, CV_32F, 1.0 / 255);
            cv::filter2D(f, gx, CV_32F, kx, cv::Point(-1, -1), 0, cv::BORDER_REPLICATE);
            cv::filter2D(f, gy, CV_32F, ky, cv::Point(-1, -1), 0, cv::BORDER_REPLICATE);
            cv::multiply(gx, gx, b);
            cv::accumulateSquare(gy, b);
            const double cutoff = 4.0 * cv::mean(b)[0];
            cv::compare(b, cutoff, out, cv::CMP_GT);
        }, o);
        c.check = [&call, &dst] {
            cv::Mat bw = dst / 255;
            return compare_exact(call.result<uint8_t>("BW"), bw) + " (float vs double sums)";
        };
        // Reads I, writes BW; the peer's float intermediates are its own choice.
        c.bytes = 2.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

CaseDef lut_case() {
    CaseDef d;
    d.name = "lut";
    d.compares = "intlut(A, LUT), uint8 | cv::LUT(A, LUT)";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options& o) {
        cv::Mat lut(1, 256, CV_8U);
        for (int i = 0; i < 256; ++i) lut.at<uint8_t>(i) = static_cast<uint8_t>((i * 7 + 13) & 255);
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        const ipt::Image& l = h.image(upload_mat(lut, IPT_UINT8));
        IptCall& call = h.call("ipt.intlut", {"B"});
        call.call.image("A", a).image("LUT", l);
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat src = in.u8;
        c.cv = cv_side(dst, [src, lut](cv::Mat& out) { cv::LUT(src, lut, out); }, o);
        c.check = [&call, &dst] { return compare_exact(call.result<uint8_t>("B"), dst); };
        c.bytes = 2.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

CaseDef mean_case() {
    CaseDef d;
    d.name = "mean2";
    d.compares = "mean2(A), A uint8 (double result) | cv::mean(A)";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options&) {
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        IptCall& call = h.call("ipt.mean2", {"m"});
        call.call.image("A", a);
        call.attach(c);
        auto value = std::make_shared<double>(0);
        const cv::Mat src = in.u8;
        Side s;
        s.run = [src, value] { *value = cv::mean(src)[0]; };
        c.cv = s;
        c.check = [&call, value] {
            const double m = call.result<double>("m").at(0);
            char buf[96];
            std::snprintf(buf, sizeof buf, "|d| %.2g (m %.6f)", std::abs(m - *value), m);
            return std::string(buf);
        };
        c.bytes = static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

// Dilation by a neighbourhood: `nhood` as CV_8U 0/1.
void build_dilate(Case& c, Holder& h, const Inputs& in, const Options& o, const cv::Mat& nhood) {
    const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
    const ipt::Image& se = h.image(upload_mat(nhood, IPT_LOGICAL));
    IptCall& call = h.call("ipt.imdilate", {"B"});
    call.call.image("A", a).image("nhood", se);
    call.attach(c);
    cv::Mat& dst = h.mat();
    const cv::Mat src = in.u8;
    // MATLAB pads dilation with -Inf; OpenCV's default border value for
    // dilate is the same (the class minimum), so the borders agree.
    c.cv = cv_side(dst, [src, nhood](cv::Mat& out) {
        cv::dilate(src, out, nhood, cv::Point(-1, -1), 1, cv::BORDER_CONSTANT, cv::morphologyDefaultBorderValue());
    }, o);
    c.check = [&call, &dst] { return compare_exact(call.result<uint8_t>("B"), dst); };
    c.bytes = 2.0 * static_cast<double>(in.n * in.n);
}

CaseDef dilate_square_case(int k) {
    CaseDef d;
    d.name = "dilate-sq" + std::to_string(k);
    d.compares = "imdilate(A, true(" + std::to_string(k) + ")), uint8 | cv::dilate(A, ones(" + std::to_string(k) +
                 "), BORDER_CONSTANT with the default (minimum) value)";
    d.build = [k](Case& c, Holder& h, const Inputs& in, const Options& o) {
        build_dilate(c, h, in, o, cv::Mat::ones(k, k, CV_8U));
        return true;
    };
    return d;
}

CaseDef dilate_disk_case(int r) {
    CaseDef d;
    d.name = "dilate-disk" + std::to_string(r);
    d.compares = "imdilate(A, strel('disk'," + std::to_string(r) +
                 ").Neighborhood from ipt.strel (N=4; OpenIPT recognises it and dilates by its periodic-line "
                 "decomposition)), uint8 | cv::dilate(A, the same neighbourhood as kernel)";
    d.build = [r](Case& c, Holder& h, const Inputs& in, const Options& o) {
        ipt::Call strel(*g_ctx, "ipt.strel");
        strel.device(IPT_DEVICE_HOST).plugin("cpu").option("shape", "disk").integer("r", r).run();
        ipt::Image nh = strel.take("nhood");
        const std::vector<uint8_t> bits = nh.download<uint8_t>();
        cv::Mat nhood(static_cast<int>(nh.rows()), static_cast<int>(nh.cols()), CV_8U);
        std::copy(bits.begin(), bits.end(), nhood.ptr<uint8_t>());
        build_dilate(c, h, in, o, nhood);
        return true;
    };
    return d;
}

CaseDef median_case(int k) {
    CaseDef d;
    d.name = "medfilt2-" + std::to_string(k);
    d.compares = "medfilt2(A, [" + std::to_string(k) + " " + std::to_string(k) +
                 "]), uint8, zero padding | cv::medianBlur(A, " + std::to_string(k) +
                 ") (replicated border: values compared in the interior only)";
    d.build = [k](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        IptCall& call = h.call("ipt.medfilt2", {"B"});
        call.call.image("A", a).numbers("size", {double(k), double(k)});
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat src = in.u8;
        c.cv = cv_side(dst, [src, k](cv::Mat& out) { cv::medianBlur(src, out, k); }, o);
        c.check = [&call, &dst, k] { return compare_exact(call.result<uint8_t>("B"), dst, k / 2); };
        c.bytes = 2.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

// bwdist's features are the nonzero pixels; OpenCV measures the distance to
// the nearest zero pixel, so it gets the complement.
CaseDef bwdist_case(bool sparse, bool labels) {
    CaseDef d;
    d.name = std::string("bwdist-") + (sparse ? "0.1" : "50") + (labels ? "-idx" : "");
    const std::string pct = sparse ? "0.1 %" : "50 %";
    d.compares = labels
        ? "[D,IDX] = bwdist(BW), features (nonzero) on " + pct +
              " of the pixels, exact EDT with the nearest feature's index | cv::distanceTransform(~BW, D, "
              "labels, DIST_L2, DIST_MASK_5, DIST_LABEL_PIXEL): OpenCV has no exact EDT with labels, so the "
              "peer is its approximate 5x5-mask chamfer transform (a cheaper, inexact algorithm)"
        : "bwdist(BW) euclidean, features (nonzero) on " + pct +
              " of the pixels, D single | cv::distanceTransform(~BW, D, DIST_L2, DIST_MASK_PRECISE, CV_32F) "
              "(exact EDT)";
    d.build = [sparse, labels](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const cv::Mat& bw = sparse ? in.bw01 : in.bw50;
        const ipt::Image& a = h.image(upload_mat(bw, IPT_LOGICAL));
        std::vector<std::string> outs{"D"};
        if (labels) outs.push_back("IDX");
        IptCall& call = h.call("ipt.bwdist", outs);
        call.call.image("BW", a);
        call.attach(c);
        cv::Mat& dst = h.mat();
        cv::Mat& lab = h.mat();
        const cv::Mat src = bw == 0;  // nonzero where BW is background
        if (labels) {
            Side s;
            if (!o.cv_reuse_dst) s.prepare = [&dst, &lab] { dst.release(); lab.release(); };
            s.run = [src, &dst, &lab] {
                cv::distanceTransform(src, dst, lab, cv::DIST_L2, cv::DIST_MASK_5, cv::DIST_LABEL_PIXEL);
            };
            c.cv = s;
            c.check = [&call, &dst] { return compare_float(call.result<float>("D"), dst) + " (peer approximate)"; };
        } else {
            c.cv = cv_side(dst, [src](cv::Mat& out) {
                cv::distanceTransform(src, out, cv::DIST_L2, cv::DIST_MASK_PRECISE, CV_32F);
            }, o);
            c.check = [&call, &dst] { return compare_float(call.result<float>("D"), dst); };
        }
        c.bytes = (labels ? 9.0 : 5.0) * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

CaseDef radon_case() {
    CaseDef d;
    d.name = "radon";
    d.compares = "radon(I, theta), I double 512x512 (only at size 512), theta = (0:319)*180/320 | no OpenCV peer";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options&) {
        if (in.n != 512) return false;
        cv::Mat f64;
        in.f32.convertTo(f64, CV_64F);
        const ipt::Image& a = h.image(upload_mat(f64, IPT_DOUBLE));
        std::vector<double> theta(320);
        for (int i = 0; i < 320; ++i) theta[i] = i * 180.0 / 320.0;
        IptCall& call = h.call("ipt.radon", {"R"});
        call.call.image("I", a).numbers("theta", theta);
        call.attach(c);
        c.size_label = "512^2 x 320";
        // R: 2*ceil(norm(size-floor((size-1)/2)-1))+3 rows, one column per angle.
        const double half = static_cast<double>(in.n) - std::floor((static_cast<double>(in.n) - 1) / 2) - 1;
        const double rows = 2 * std::ceil(std::sqrt(2.0) * half) + 3;
        c.bytes = 8.0 * static_cast<double>(in.n * in.n) + 8.0 * rows * 320;
        return true;
    };
    return d;
}

CaseDef regionalmax_case() {
    CaseDef d;
    d.name = "imregionalmax";
    d.compares = "imregionalmax(I), I uint8 (9x9 box-blurred noise: plateaus of many sizes), conn 8 | no OpenCV peer";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options&) {
        const ipt::Image& a = h.image(upload_mat(in.smooth8, IPT_UINT8));
        IptCall& call = h.call("ipt.imregionalmax", {"BW"});
        call.call.image("I", a);
        call.attach(c);
        c.bytes = 2.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

CaseDef dither_case() {
    CaseDef d;
    d.name = "dither";
    d.compares = "dither(I), I uint8 noise -> logical (Floyd-Steinberg, MATLAB's column-major scan) | no OpenCV peer";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options&) {
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        IptCall& call = h.call("ipt.dither", {"X"});
        call.call.image("I", a);
        call.attach(c);
        c.bytes = 2.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

// ---- class and colour conversions --------------------------------------------------

// An RGB image as OpenIPT stores it (three planes) and as OpenCV does
// (interleaved), with the same pixels: three slices of the uniform noise.
struct RgbPair {
    std::vector<uint8_t> planes;
    cv::Mat interleaved;
};

RgbPair rgb_from(const cv::Mat& u8) {
    RgbPair p;
    std::vector<cv::Mat> channels;
    for (int k = 0; k < 3; ++k) {
        cv::Mat plane;
        cv::flip(u8, plane, k - 1);  // three different arrangements of the same noise
        channels.push_back(plane);
        p.planes.insert(p.planes.end(), plane.datastart, plane.dataend);
    }
    cv::merge(channels, p.interleaved);
    return p;
}

CaseDef rgb2gray_case() {
    CaseDef d;
    d.name = "rgb2gray";
    d.compares = "rgb2gray(RGB), uint8 (MATLAB's weights 0.298936..., 0.587043..., 0.114020..., one rounding) | "
                 "cv::cvtColor(RGB, COLOR_RGB2GRAY) (weights 0.299, 0.587, 0.114 in fixed point: values may differ by 1)";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options& o) {
        auto rgb = std::make_shared<RgbPair>(rgb_from(in.u8));
        const ipt::Image& a = h.image(g_ctx->upload(IPT_UINT8, in.n, in.n, rgb->planes.data(), 3));
        IptCall& call = h.call("ipt.rgb2gray", {"I"});
        call.call.image("RGB", a);
        call.attach(c);
        cv::Mat& dst = h.mat();
        c.cv = cv_side(dst, [rgb](cv::Mat& out) { cv::cvtColor(rgb->interleaved, out, cv::COLOR_RGB2GRAY); }, o);
        c.check = [&call, &dst] {
            const std::vector<uint8_t> a = call.result<uint8_t>("I");
            int64_t far = 0;
            for (size_t i = 0; i < a.size(); ++i) far += std::abs(int(a[i]) - int(dst.ptr<uint8_t>()[i])) > 1;
            return far ? std::to_string(far) + " values differ by more than 1" : std::string("within 1");
        };
        c.bytes = 4.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

// rgb2hsv, hsv2rgb, rgb2ycbcr, ycbcr2rgb: `cls` is the OpenIPT class of the
// input and output (uint8, single or double). OpenCV's HSV conversions have
// no CV_64F: double runs beside OpenCV's CV_32F (twice the bytes on
// OpenIPT's side). OpenCV's HSV hue is in degrees (compared as h*360, modulo
// 360); its YCrCb is the full-range JPEG matrix, MATLAB's the BT.601 studio
// range, so those outputs are not compared.
CaseDef colour_case(const std::string& op, ipt_dtype cls) {
    const bool hsv = op == "rgb2hsv" || op == "hsv2rgb";
    const bool forward = op == "rgb2hsv" || op == "rgb2ycbcr";
    const char* cls_name = cls == IPT_UINT8 ? "uint8" : cls == IPT_SINGLE ? "single" : "double";
    const int code = op == "rgb2hsv"     ? cv::COLOR_RGB2HSV_FULL
                     : op == "hsv2rgb"   ? cv::COLOR_HSV2RGB_FULL
                     : op == "rgb2ycbcr" ? cv::COLOR_RGB2YCrCb
                                         : cv::COLOR_YCrCb2RGB;
    const std::string in_name = op == "hsv2rgb" ? "HSV" : op == "ycbcr2rgb" ? "YCBCR" : "RGB";
    const std::string out_name = op == "rgb2hsv" ? "HSV" : op == "rgb2ycbcr" ? "YCBCR" : "RGB";
    CaseDef d;
    d.name = op + "-" + cls_name;
    if (hsv && cls == IPT_DOUBLE) d.cv_class = "single";
    d.compares = op + "(A), A " + cls_name + " m x n x 3 (planes) | cv::cvtColor(A, " +
                 (op == "rgb2hsv"     ? "COLOR_RGB2HSV_FULL"
                  : op == "hsv2rgb"   ? "COLOR_HSV2RGB_FULL"
                  : op == "rgb2ycbcr" ? "COLOR_RGB2YCrCb"
                                      : "COLOR_YCrCb2RGB") +
                 "), interleaved " + (cls == IPT_UINT8 ? "CV_8U" : "CV_32F") +
                 (cls == IPT_DOUBLE ? " (OpenCV has no CV_64F HSV conversion: like-for-like class is single)" : "") +
                 (hsv ? "; OpenCV's hue in degrees" : "; OpenCV's full-range YCrCb, not BT.601 studio range: not compared");
    d.build = [=](Case& c, Holder& h, const Inputs& in, const Options& o) {
        auto rgb = std::make_shared<RgbPair>(rgb_from(in.u8));
        const int64_t plane = in.n * in.n;
        const ipt::Image* a = nullptr;
        auto src = std::make_shared<cv::Mat>();
        if (cls == IPT_UINT8) {
            a = &h.image(g_ctx->upload(IPT_UINT8, in.n, in.n, rgb->planes.data(), 3));
            *src = rgb->interleaved;
        } else {
            // Values in [0, 1] for both libraries; OpenCV's hue input in degrees.
            std::vector<double> pd(rgb->planes.size());
            std::vector<float> pf(rgb->planes.size());
            for (size_t i = 0; i < pd.size(); ++i) {
                pd[i] = rgb->planes[i] / 255.0;
                pf[i] = static_cast<float>(pd[i]);
            }
            a = cls == IPT_DOUBLE ? &h.image(g_ctx->upload(IPT_DOUBLE, in.n, in.n, pd.data(), 3))
                                  : &h.image(g_ctx->upload(IPT_SINGLE, in.n, in.n, pf.data(), 3));
            rgb->interleaved.convertTo(*src, CV_32F, 1.0 / 255.0);
            if (op == "hsv2rgb") {
                std::vector<cv::Mat> ch;
                cv::split(*src, ch);
                ch[0] *= 360.0;
                cv::merge(ch, *src);
            }
        }
        IptCall& call = h.call(("ipt." + op).c_str(), {out_name});
        call.call.image(in_name.c_str(), *a);
        call.attach(c);
        cv::Mat& dst = h.mat();
        c.cv = cv_side(dst, [src, code](cv::Mat& out) { cv::cvtColor(*src, out, code); }, o);
        if (hsv && cls != IPT_UINT8) {
            c.check = [&call, &dst, out_name, cls, plane, forward] {
                std::vector<double> a;
                if (cls == IPT_DOUBLE) {
                    a = call.result<double>(out_name);
                } else {
                    const std::vector<float> f = call.result<float>(out_name);
                    a.assign(f.begin(), f.end());
                }
                double worst = 0;
                const float* p = dst.ptr<float>();
                for (int64_t i = 0; i < plane; ++i)
                    for (int k = 0; k < 3; ++k) {
                        double x = a[static_cast<size_t>(k * plane + i)], y = p[3 * i + k];
                        double dd;
                        if (forward && k == 0) {
                            dd = std::abs(x * 360.0 - y);
                            dd = std::min(dd, 360.0 - dd) / 360.0;
                        } else {
                            dd = std::abs(x - y);
                        }
                        worst = std::max(worst, dd);
                    }
                char buf[64];
                std::snprintf(buf, sizeof buf, "max|d| %.2g (hue as a fraction of a turn)", worst);
                return std::string(buf);
            };
        } else {
            c.check = [] { return std::string("not compared (definitions differ)"); };
        }
        const double bytes_per = cls == IPT_UINT8 ? 1.0 : cls == IPT_SINGLE ? 4.0 : 8.0;
        c.bytes = 6.0 * bytes_per * static_cast<double>(plane);
        return true;
    };
    return d;
}

CaseDef im2double_case() {
    CaseDef d;
    d.name = "im2double";
    d.compares = "im2double(A), A uint8 | A.convertTo(CV_64F, 1/255.0) (a product, not MATLAB's division: may differ in "
                 "the last bit)";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        IptCall& call = h.call("ipt.im2double", {"J"});
        call.call.image("I", a);
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat src = in.u8;
        c.cv = cv_side(dst, [src](cv::Mat& out) { src.convertTo(out, CV_64F, 1.0 / 255.0); }, o);
        c.check = [&call, &dst] {
            const std::vector<double> a = call.result<double>("J");
            double worst = 0;
            for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - dst.ptr<double>()[i]));
            char buf[48];
            std::snprintf(buf, sizeof buf, "max|d| %.2g", worst);
            return std::string(buf);
        };
        c.bytes = 9.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

CaseDef imcomplement_case() {
    CaseDef d;
    d.name = "imcomplement";
    d.compares = "imcomplement(A), uint8 | cv::bitwise_not(A)";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        IptCall& call = h.call("ipt.imcomplement", {"J"});
        call.call.image("I", a);
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat src = in.u8;
        c.cv = cv_side(dst, [src](cv::Mat& out) { cv::bitwise_not(src, out); }, o);
        c.check = [&call, &dst] { return compare_exact(call.result<uint8_t>("J"), dst); };
        c.bytes = 2.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

// ---- geometry, filters, histograms and thresholds ------------------------------------

// Counts the values of an OpenIPT uint8 result that differ from OpenCV's by
// more than `tolerance` (fixed-point weights and rounding differ by one).
std::string compare_within(const std::vector<uint8_t>& a, const cv::Mat& b, int tolerance) {
    if (static_cast<int64_t>(a.size()) != static_cast<int64_t>(b.total()))
        return "size differs (" + std::to_string(a.size()) + " vs " + std::to_string(b.total()) + ")";
    int64_t far = 0;
    int worst = 0;
    const uint8_t* p = b.ptr<uint8_t>();
    for (size_t i = 0; i < a.size(); ++i) {
        const int d = std::abs(int(a[i]) - int(p[i]));
        far += d > tolerance;
        worst = std::max(worst, d);
    }
    return (far ? std::to_string(far) + " differ by more than " + std::to_string(tolerance)
                : "within " + std::to_string(tolerance)) + " (max|d| " + std::to_string(worst) + ")";
}

// A case whose operator may not yet have a CPU implementation: main skips it
// with a note then (CaseDef::op).
CaseDef pending(CaseDef d, const char* op) {
    d.op = op;
    return d;
}

CaseDef imresize_case(const char* method, double scale) {
    const std::string m = method;
    const bool enlarge = scale > 1;
    const int cv_interp = m == "bicubic" ? cv::INTER_CUBIC : m == "bilinear" ? cv::INTER_LINEAR : cv::INTER_AREA;
    const char* cv_name = m == "bicubic" ? "INTER_CUBIC" : m == "bilinear" ? "INTER_LINEAR" : "INTER_AREA";
    CaseDef d;
    d.name = "imresize-" + m + (enlarge ? "-x2" : "-half");
    std::string differs;
    if (m == "box") differs = "the same 2x2 mean; rounding may differ by 1";
    else if (enlarge && m == "bilinear") differs = "the same kernel; OpenCV's fixed-point weights: values may differ by 1";
    else if (enlarge) differs = "OpenCV's cubic has a = -0.75, MATLAB's -0.5: a comparable, not the same, result";
    else differs = "MATLAB widens the kernel when shrinking (antialiasing), OpenCV does not: a comparable, not the same, "
                   "result";
    d.compares = "imresize(A, " + std::string(enlarge ? "2" : "0.5") + ", '" + m + "'), A uint8 | cv::resize(A, fx = fy = " +
                 (enlarge ? "2" : "0.5") + ", " + cv_name + ") (" + differs + ")";
    d.build = [m, scale, cv_interp](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        IptCall& call = h.call("ipt.imresize", {"B"});
        call.call.image("A", a).numbers("Scale", {scale}).option("method", m);
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat src = in.u8;
        c.cv = cv_side(dst, [src, scale, cv_interp](cv::Mat& out) {
            cv::resize(src, out, cv::Size(), scale, scale, cv_interp);
        }, o);
        c.check = [&call, &dst] { return compare_within(call.result<uint8_t>("B"), dst, 1); };
        c.bytes = static_cast<double>(in.n * in.n) * (1 + scale * scale);
        return true;
    };
    return d;
}

CaseDef imgaussfilt_case(bool single) {
    CaseDef d;
    d.name = std::string("imgaussfilt-") + (single ? "single" : "uint8");
    d.compares = std::string("imgaussfilt(A, 2), A ") + (single ? "single" : "uint8") +
                 " (9x9 kernel, replicate padding) | cv::GaussianBlur(A, 9x9, 2, BORDER_REPLICATE) (the same kernel" +
                 (single ? ")" : "; OpenCV's fixed-point uint8 arithmetic: values may differ by 1)");
    d.build = [single](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const cv::Mat src = single ? in.f32 : in.u8;
        const ipt::Image& a = h.image(upload_mat(src, single ? IPT_SINGLE : IPT_UINT8));
        IptCall& call = h.call("ipt.imgaussfilt", {"B"});
        call.call.image("A", a).numbers("sigma", {2});
        call.attach(c);
        cv::Mat& dst = h.mat();
        c.cv = cv_side(dst, [src](cv::Mat& out) {
            cv::GaussianBlur(src, out, cv::Size(9, 9), 2, 2, cv::BORDER_REPLICATE);
        }, o);
        if (single) c.check = [&call, &dst] { return compare_float(call.result<float>("B"), dst); };
        else c.check = [&call, &dst] { return compare_within(call.result<uint8_t>("B"), dst, 1); };
        c.bytes = (single ? 8.0 : 2.0) * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

CaseDef imboxfilt_case(int k) {
    CaseDef d;
    d.name = "imboxfilt-" + std::to_string(k);
    d.compares = "imboxfilt(A, " + std::to_string(k) + "), A uint8, replicate padding | cv::boxFilter(A, CV_8U, " +
                 std::to_string(k) + "x" + std::to_string(k) + ", normalize, BORDER_REPLICATE) (the same mean; "
                 "rounding may differ by 1)";
    d.build = [k](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        IptCall& call = h.call("ipt.imboxfilt", {"B"});
        call.call.image("A", a).numbers("filterSize", {double(k)});
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat src = in.u8;
        c.cv = cv_side(dst, [src, k](cv::Mat& out) {
            cv::boxFilter(src, out, CV_8U, cv::Size(k, k), cv::Point(-1, -1), true, cv::BORDER_REPLICATE);
        }, o);
        c.check = [&call, &dst] { return compare_within(call.result<uint8_t>("B"), dst, 1); };
        c.bytes = 2.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

// imgradientxy / imgradient with Sobel on a single image: MATLAB's Gx is
// right minus left and Gy bottom minus top, as OpenCV's Sobel dx and dy.
CaseDef gradient_case(bool magnitude) {
    CaseDef d;
    d.name = magnitude ? "imgradient-sobel" : "imgradientxy-sobel";
    d.compares = magnitude
        ? "imgradient(I, 'sobel'), I single, Gmag only | cv::Sobel dx and dy (CV_32F, 3x3, BORDER_REPLICATE) and "
          "cv::magnitude (the same definition)"
        : "[Gx, Gy] = imgradientxy(I, 'sobel'), I single | cv::Sobel dx and dy (CV_32F, 3x3, BORDER_REPLICATE) "
          "(the same definition; Gx compared)";
    d.build = [magnitude](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.f32, IPT_SINGLE));
        const char* first = magnitude ? "Gmag" : "Gx";
        IptCall& call = h.call(magnitude ? "ipt.imgradient" : "ipt.imgradientxy",
                               magnitude ? std::vector<std::string>{"Gmag"} : std::vector<std::string>{"Gx", "Gy"});
        call.call.image("I", a).option("method", "sobel");
        call.attach(c);
        cv::Mat& gx = h.mat();
        cv::Mat& gy = h.mat();
        cv::Mat& mag = h.mat();
        const cv::Mat src = in.f32;
        Side s;
        if (!o.cv_reuse_dst) s.prepare = [&gx, &gy, &mag] { gx.release(); gy.release(); mag.release(); };
        s.run = [src, magnitude, &gx, &gy, &mag] {
            cv::Sobel(src, gx, CV_32F, 1, 0, 3, 1, 0, cv::BORDER_REPLICATE);
            cv::Sobel(src, gy, CV_32F, 0, 1, 3, 1, 0, cv::BORDER_REPLICATE);
            if (magnitude) cv::magnitude(gx, gy, mag);
        };
        c.cv = s;
        c.check = [&call, &gx, &mag, magnitude, first] {
            return compare_float(call.result<float>(first), magnitude ? mag : gx);
        };
        c.bytes = (magnitude ? 8.0 : 12.0) * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

CaseDef imhist_case() {
    CaseDef d;
    d.name = "imhist";
    d.compares = "imhist(I), I uint8, 256 bins (double counts) | cv::calcHist(I, 256 bins over [0, 256)) (float counts)";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        IptCall& call = h.call("ipt.imhist", {"counts"});
        call.call.image("I", a);
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat src = in.u8;
        c.cv = cv_side(dst, [src](cv::Mat& out) {
            const int channels[] = {0};
            const int bins[] = {256};
            const float range[] = {0, 256};
            const float* ranges[] = {range};
            cv::calcHist(&src, 1, channels, cv::Mat(), out, 1, bins, ranges);
        }, o);
        c.check = [&call, &dst] {
            const std::vector<double> counts = call.result<double>("counts");
            if (counts.size() != dst.total()) return std::string("size differs");
            int64_t bad = 0;
            for (size_t i = 0; i < counts.size(); ++i) bad += counts[i] != double(dst.ptr<float>()[i]);
            return bad ? std::to_string(bad) + " of 256 bins differ" : std::string("equal");
        };
        c.bytes = static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

CaseDef histeq_case() {
    CaseDef d;
    d.name = "histeq";
    d.compares = "histeq(I), I uint8 (64 target levels, MATLAB's nearest-cumulative mapping) | cv::equalizeHist(I) "
                 "(256 levels, scaled cumulative histogram): different definitions, outputs not compared";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.smooth8, IPT_UINT8));
        IptCall& call = h.call("ipt.histeq", {"J"});
        call.call.image("I", a);
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat src = in.smooth8;
        c.cv = cv_side(dst, [src](cv::Mat& out) { cv::equalizeHist(src, out); }, o);
        c.check = [] { return std::string("not compared (definitions differ)"); };
        c.bytes = 2.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

CaseDef graythresh_case() {
    CaseDef d;
    d.name = "graythresh";
    d.compares = "graythresh(I), I uint8 (9x9 box-blurred noise) | cv::threshold(I, THRESH_BINARY | THRESH_OTSU) "
                 "(the same Otsu level; OpenCV also writes the binary image): 255*T against OpenCV's level";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.smooth8, IPT_UINT8));
        IptCall& call = h.call("ipt.graythresh", {"T"});
        call.call.image("I", a);
        call.attach(c);
        cv::Mat& dst = h.mat();
        auto level = std::make_shared<double>(0);
        const cv::Mat src = in.smooth8;
        c.cv = cv_side(dst, [src, level](cv::Mat& out) {
            *level = cv::threshold(src, out, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
        }, o);
        c.check = [&call, level] {
            const double t = call.result<double>("T").at(0) * 255;
            char buf[96];
            std::snprintf(buf, sizeof buf, "%s (255*T %.4g, OpenCV %.4g)", std::abs(t - *level) < 1e-9 ? "equal" : "differ",
                          t, *level);
            return std::string(buf);
        };
        c.bytes = static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

CaseDef integral_case() {
    CaseDef d;
    d.name = "integralImage";
    d.compares = "integralImage(I), I uint8 -> double (m+1)x(n+1) | cv::integral(I, CV_64F) (the same table)";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        IptCall& call = h.call("ipt.integralimage", {"J"});
        call.call.image("I", a);
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat src = in.u8;
        c.cv = cv_side(dst, [src](cv::Mat& out) { cv::integral(src, out, CV_64F); }, o);
        c.check = [&call, &dst] { return compare_exact(call.result<double>("J"), dst); };
        c.bytes = static_cast<double>(in.n * in.n) + 8.0 * static_cast<double>((in.n + 1) * (in.n + 1));
        return true;
    };
    return d;
}

CaseDef padarray_case(bool replicate, int p) {
    CaseDef d;
    d.name = std::string("padarray-") + (replicate ? "replicate" : "constant");
    d.compares = "padarray(A, [" + std::to_string(p) + " " + std::to_string(p) + "], " +
                 (replicate ? "'replicate'" : "0") + "), A uint8 | cv::copyMakeBorder(A, " + std::to_string(p) +
                 " on each side, " + (replicate ? "BORDER_REPLICATE" : "BORDER_CONSTANT 0") + ") (the same array)";
    d.build = [replicate, p](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        IptCall& call = h.call("ipt.padarray", {"B"});
        call.call.image("A", a).numbers("padsize", {double(p), double(p)}).option("method", replicate ? "replicate" : "constant");
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat src = in.u8;
        c.cv = cv_side(dst, [src, p, replicate](cv::Mat& out) {
            cv::copyMakeBorder(src, out, p, p, p, p, replicate ? cv::BORDER_REPLICATE : cv::BORDER_CONSTANT, cv::Scalar(0));
        }, o);
        c.check = [&call, &dst] { return compare_exact(call.result<uint8_t>("B"), dst); };
        c.bytes = static_cast<double>(in.n * in.n) + static_cast<double>((in.n + 2 * p) * (in.n + 2 * p));
        return true;
    };
    return d;
}

// The bounding box of the forward affine map m (2x3, 0-based pixel
// coordinates) of a rows x cols image, and m shifted to start at 0.
cv::Size fit_affine(cv::Mat& m, int rows, int cols) {
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (double u : {0.0, double(cols - 1)})
        for (double v : {0.0, double(rows - 1)}) {
            const double x = m.at<double>(0, 0) * u + m.at<double>(0, 1) * v + m.at<double>(0, 2);
            const double y = m.at<double>(1, 0) * u + m.at<double>(1, 1) * v + m.at<double>(1, 2);
            x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
        }
    m.at<double>(0, 2) -= std::floor(x0);
    m.at<double>(1, 2) -= std::floor(y0);
    return cv::Size(static_cast<int>(std::floor(x1) - std::floor(x0)) + 1, static_cast<int>(std::floor(y1) - std::floor(y0)) + 1);
}

CaseDef imrotate_case() {
    CaseDef d;
    d.name = "imrotate-bilinear";
    d.compares = "imrotate(A, 30, 'bilinear'), A uint8, loose bounding box | cv::warpAffine(A, getRotationMatrix2D(30) "
                 "moved to the bounding box, INTER_LINEAR, BORDER_CONSTANT 0) (a comparable, not the same, grid and "
                 "border: not compared)";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        IptCall& call = h.call("ipt.imrotate", {"J"});
        call.call.image("I", a).number("angle", 30).option("method", "bilinear");
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat src = in.u8;
        cv::Mat m = cv::getRotationMatrix2D(cv::Point2f(0, 0), 30, 1);
        const cv::Size size = fit_affine(m, src.rows, src.cols);
        c.cv = cv_side(dst, [src, m, size](cv::Mat& out) {
            cv::warpAffine(src, out, m, size, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(0));
        }, o);
        c.check = [] { return std::string("not compared"); };
        c.bytes = static_cast<double>(in.n * in.n) + static_cast<double>(size.area());
        return true;
    };
    return d;
}

// imwarp's T (row vector convention [x y 1] = [u v 1] * T) as OpenCV's
// forward matrix (column vectors), both over pixel coordinates.
CaseDef imwarp_case(bool projective) {
    static const double affine[9] = {1.05, 0.28, 0, -0.28, 1.05, 0, 12, -7, 1};
    static const double persp[9] = {1.0, 0.1, 0.0002, -0.1, 1.0, 0.0001, 12, -7, 1};
    const double* t = projective ? persp : affine;
    CaseDef d;
    d.name = projective ? "imwarp-projective" : "imwarp-affine";
    d.compares = std::string("imwarp(A, ") + (projective ? "projective2d" : "affine2d") +
                 "(T), 'linear'), A uint8, default output view | " +
                 (projective ? "cv::warpPerspective" : "cv::warpAffine") +
                 "(A, T', the bounding box, INTER_LINEAR, BORDER_CONSTANT 0) (a comparable, not the same, grid: not "
                 "compared)";
    d.build = [t, projective](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        IptCall& call = h.call("ipt.imwarp", {"B"});
        call.call.image("A", a).numbers("T", std::vector<double>(t, t + 9)).option("interp", "linear");
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat src = in.u8;
        cv::Mat m(3, 3, CV_64F);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) m.at<double>(i, j) = t[j * 3 + i];
        cv::Size size;
        if (projective) {
            std::vector<cv::Point2d> corners{{0, 0}, {double(src.cols - 1), 0}, {0, double(src.rows - 1)},
                                             {double(src.cols - 1), double(src.rows - 1)}}, mapped;
            cv::perspectiveTransform(corners, mapped, m);
            const cv::Rect box = cv::boundingRect(std::vector<cv::Point2f>(mapped.begin(), mapped.end()));
            cv::Mat shift = (cv::Mat_<double>(3, 3) << 1, 0, -box.x, 0, 1, -box.y, 0, 0, 1);
            m = shift * m;
            size = box.size();
        } else {
            m = m.rowRange(0, 2).clone();
            size = fit_affine(m, src.rows, src.cols);
        }
        c.cv = cv_side(dst, [src, m, size, projective](cv::Mat& out) {
            if (projective) cv::warpPerspective(src, out, m, size, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(0));
            else cv::warpAffine(src, out, m, size, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(0));
        }, o);
        c.check = [] { return std::string("not compared"); };
        c.bytes = static_cast<double>(in.n * in.n) + static_cast<double>(size.area());
        return true;
    };
    return d;
}

CaseDef normxcorr2_case(int k) {
    CaseDef d;
    d.name = "normxcorr2-" + std::to_string(k);
    d.compares = "normxcorr2(template, A), A uint8, template its top-left " + std::to_string(k) + "x" + std::to_string(k) +
                 " block, full size (double) | cv::matchTemplate(A, template, TM_CCOEFF_NORMED) (valid part only, "
                 "float: a comparable, not the same, result; not compared)";
    d.build = [k](Case& c, Holder& h, const Inputs& in, const Options& o) {
        if (in.n < 2 * k) return false;
        const cv::Mat src = in.u8, tpl = in.u8(cv::Rect(0, 0, k, k)).clone();
        const ipt::Image& a = h.image(upload_mat(src, IPT_UINT8));
        const ipt::Image& t = h.image(upload_mat(tpl, IPT_UINT8));
        IptCall& call = h.call("ipt.normxcorr2", {"C"});
        call.call.image("template", t).image("A", a);
        call.attach(c);
        cv::Mat& dst = h.mat();
        c.cv = cv_side(dst, [src, tpl](cv::Mat& out) { cv::matchTemplate(src, tpl, out, cv::TM_CCOEFF_NORMED); }, o);
        c.check = [] { return std::string("not compared"); };
        c.bytes = static_cast<double>(in.n * in.n) + 8.0 * static_cast<double>((in.n + k - 1) * (in.n + k - 1));
        return true;
    };
    return d;
}

CaseDef adapthisteq_case() {
    CaseDef d;
    d.name = "adapthisteq";
    d.compares = "adapthisteq(I), I uint8, 8x8 tiles, ClipLimit 0.01 | cv::createCLAHE(clipLimit 3.55, 8x8)->apply "
                 "(about the same clip height; MATLAB interpolates and redistributes its own way: a comparable, not "
                 "the same, result; not compared)";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.smooth8, IPT_UINT8));
        IptCall& call = h.call("ipt.adapthisteq", {"J"});
        call.call.image("I", a);
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat src = in.smooth8;
        // MATLAB clips a bin at the mean bin plus 0.01 of the rest of the
        // tile's pixels, about 1 + 0.01 * 255 times the mean bin; OpenCV's
        // limit is that multiple.
        auto clahe = std::shared_ptr<cv::CLAHE>(cv::createCLAHE(3.55, cv::Size(8, 8)));
        c.cv = cv_side(dst, [src, clahe](cv::Mat& out) { clahe->apply(src, out); }, o);
        c.check = [] { return std::string("not compared"); };
        c.bytes = 2.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

CaseDef imbinarize_adaptive_case() {
    CaseDef d;
    d.name = "imbinarize-adaptive";
    d.compares = "imbinarize(I, 'adaptive'), I uint8 (adaptthresh: local mean over 2*floor(n/16)+1, sensitivity "
                 "0.5) | cv::adaptiveThreshold(I, ADAPTIVE_THRESH_MEAN_C, THRESH_BINARY, the same window, C = 0) "
                 "(a comparable, not the same, threshold: not compared)";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options& o) {
        const ipt::Image& a = h.image(upload_mat(in.smooth8, IPT_UINT8));
        IptCall& call = h.call("ipt.imbinarize", {"BW"});
        call.call.image("I", a).option("method", "adaptive");
        call.attach(c);
        cv::Mat& dst = h.mat();
        const cv::Mat src = in.smooth8;
        const int window = 2 * static_cast<int>(in.n / 16) + 1;
        c.cv = cv_side(dst, [src, window](cv::Mat& out) {
            cv::adaptiveThreshold(src, out, 255, cv::ADAPTIVE_THRESH_MEAN_C, cv::THRESH_BINARY, window, 0);
        }, o);
        c.check = [] { return std::string("not compared"); };
        c.bytes = 2.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

CaseDef stdfilt_case() {
    CaseDef d;
    d.name = "stdfilt";
    d.compares = "stdfilt(I), I uint8, true(3) (double result) | no OpenCV peer";
    d.build = [](Case& c, Holder& h, const Inputs& in, const Options&) {
        const ipt::Image& a = h.image(upload_mat(in.u8, IPT_UINT8));
        IptCall& call = h.call("ipt.stdfilt", {"J"});
        call.call.image("I", a);
        call.attach(c);
        c.bytes = 9.0 * static_cast<double>(in.n * in.n);
        return true;
    };
    return d;
}

std::vector<CaseDef> all_cases() {
    std::vector<CaseDef> v;
    v.push_back(lut_case());
    v.push_back(mean_case());
    for (int k : {3, 7, 15, 31}) v.push_back(conv2_case(k));
    v.push_back(sep_case(7));
    v.push_back(imfilter_prewitt_case());
    v.push_back(edge_prewitt_case());
    v.push_back(dilate_square_case(3));
    v.push_back(dilate_square_case(15));
    v.push_back(dilate_disk_case(7));
    for (int k : {3, 5, 7, 15}) v.push_back(median_case(k));
    v.push_back(bwdist_case(false, false));
    v.push_back(bwdist_case(true, false));
    v.push_back(bwdist_case(false, true));
    v.push_back(bwdist_case(true, true));
    v.push_back(radon_case());
    v.push_back(regionalmax_case());
    v.push_back(dither_case());
    v.push_back(rgb2gray_case());
    for (const char* op : {"rgb2hsv", "hsv2rgb"})
        for (ipt_dtype cls : {IPT_DOUBLE, IPT_SINGLE}) v.push_back(colour_case(op, cls));
    for (const char* op : {"rgb2ycbcr", "ycbcr2rgb"}) v.push_back(colour_case(op, IPT_UINT8));
    v.push_back(im2double_case());
    v.push_back(imcomplement_case());
    for (const char* m : {"bicubic", "bilinear", "box"}) v.push_back(imresize_case(m, 0.5));
    for (const char* m : {"bicubic", "bilinear"}) v.push_back(imresize_case(m, 2));
    v.push_back(imgaussfilt_case(false));
    v.push_back(imgaussfilt_case(true));
    v.push_back(imboxfilt_case(5));
    v.push_back(gradient_case(false));
    v.push_back(gradient_case(true));
    v.push_back(imhist_case());
    v.push_back(histeq_case());
    v.push_back(graythresh_case());
    v.push_back(integral_case());
    v.push_back(padarray_case(true, 64));
    v.push_back(padarray_case(false, 64));
    v.push_back(pending(imrotate_case(), "ipt.imrotate"));
    v.push_back(pending(imwarp_case(false), "ipt.imwarp"));
    v.push_back(pending(imwarp_case(true), "ipt.imwarp"));
    v.push_back(pending(normxcorr2_case(64), "ipt.normxcorr2"));
    v.push_back(pending(adapthisteq_case(), "ipt.adapthisteq"));
    v.push_back(pending(imbinarize_adaptive_case(), "ipt.imbinarize"));
    v.push_back(pending(stdfilt_case(), "ipt.stdfilt"));
    return v;
}

bool selected(const std::string& name, const std::vector<std::string>& wanted) {
    if (wanted.empty()) return true;
    for (const std::string& w : wanted)
        if (name == w || name.rfind(w + "-", 0) == 0) return true;
    return false;
}

// ---- output -------------------------------------------------------------------

std::string fmt(double x, int decimals = 2) {
    if (std::isnan(x)) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
    return buf;
}

std::string json_escape(const std::string& s) {
    std::string out;
    for (char ch : s) {
        if (ch == '"' || ch == '\\') out += '\\';
        if (static_cast<unsigned char>(ch) < 0x20) continue;
        out += ch;
    }
    return out;
}

std::string json_number(double x) { return std::isnan(x) ? "null" : fmt(x, 4); }

bool cpu_implements(const ipt::Context& ctx, const std::string& op) {
    for (const ipt_impl_info& i : ctx.impls(op.c_str()))
        if (i.plugin && std::string(i.plugin) == "cpu") return true;
    return false;
}

void print_header_row() {
    std::printf("| case | size | OpenIPT variant | OpenIPT ms | (in plugin) | OpenCV ms | ratio | ratio of minima | "
                "floor ms | OpenIPT/floor | page faults per run | runs | outputs |\n");
    std::printf("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
}

void print_row(const Result& r) {
    const double ratio = r.ipt_median / r.cv_median;
    const double ratio_min = r.ipt_min / r.cv_min;
    // A class OpenCV lacks has no like-for-like ratio: named, not marked.
    const std::string mark = !r.cv_class.empty() ? " (OpenCV in " + r.cv_class + ")" : ratio > 1.5 ? " **>1.5**" : "";
    const std::string faults = fmt(r.ipt_faults, 0) + " / " + fmt(r.cv_faults, 0);
    std::printf("| %s | %s | %s | %s | %s | %s | %s%s | %s | %s | %s | %s | %d | %s |\n", r.name.c_str(),
                r.size_label.c_str(), r.variant.empty() ? "-" : r.variant.c_str(), fmt(r.ipt_median).c_str(),
                fmt(r.ipt_kernel).c_str(), fmt(r.cv_median).c_str(), fmt(ratio).c_str(), mark.c_str(), fmt(ratio_min).c_str(),
                fmt(r.floor_ms, 3).c_str(), fmt(r.ipt_median / r.floor_ms, 1).c_str(), faults.c_str(), r.ipt_runs,
                r.check.c_str());
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse_options(argc, argv);
    const std::vector<CaseDef> defs = all_cases();
    if (o.list) {
        for (const CaseDef& d : defs) std::printf("%-18s %s\n", d.name.c_str(), d.compares.c_str());
        return 0;
    }
    for (const std::string& w : o.cases) {
        bool any = false;
        for (const CaseDef& d : defs) any = any || selected(d.name, {w});
        if (!any) usage(("no case matches '" + w + "' (see --list)").c_str());
    }

    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int threads = o.threads > 0 ? o.threads : cores;
    // libipt reads IPT_NUM_THREADS once (the CPU plugin's thread count);
    // measurements stay in memory and outputs are not poisoned.
    if (o.threads > 0) setenv("IPT_NUM_THREADS", std::to_string(threads).c_str(), 1);
    setenv("IPT_TUNING_CACHE", "", 1);
    unsetenv("IPT_POISON_OUTPUTS");
    unsetenv("IPT_DEVICE");
    cv::setNumThreads(threads);

    try {
        ipt::Context ctx;
        g_ctx = &ctx;
        ctx.set_tuning_cache("");
        ctx.set_device(IPT_DEVICE_HOST);
        bool have_cpu = false;
        for (const ipt_plugin_report& r : ctx.plugin_reports())
            have_cpu = have_cpu || (r.outcome == IPT_LOAD_LOADED && r.name && std::string(r.name) == "cpu");
        if (!have_cpu) {
            std::fprintf(stderr, "ipt_cpu_bench: the CPU plugin was not found next to libipt\n");
            for (const ipt_plugin_report& r : ctx.plugin_reports())
                std::fprintf(stderr, "  %s: %s\n", r.path, r.error);
            return 1;
        }

        const std::string load_before = load_average();
        const double bandwidth = copy_bandwidth(threads);
        std::printf("# ipt_cpu_bench, %s\n\n", utc_now().c_str());
        std::printf("- CPU: %s, %d cores; threads per library: %d (OpenCV setNumThreads, OpenIPT%s)\n",
                    cpu_model().c_str(), cores, threads, o.threads > 0 ? " IPT_NUM_THREADS" : " default");
        std::printf("- OpenCV %s, parallel framework: %s, IPP: %s\n", CV_VERSION, opencv_parallel_framework().c_str(),
                    cv::ipp::useIPP() ? "on" : "off");
        std::printf("- copy bandwidth (memcpy 256 MiB, %d threads, read + write): %.2f GB/s\n", threads, bandwidth / 1e9);
        std::printf("- load average at start: %s\n", load_before.c_str());
        std::printf("- timing: median of up to %d runs per side (at least %d, fewer when a run is slow: %.0f s "
                    "budget per case and side), after 2 warm-up runs; runs alternate between the libraries "
                    "(which goes first alternates too), "
                    "%.0f ms pause before each; OpenCV dst %s\n\n",
                    o.runs, o.min_runs, o.budget_s, o.gap_ms,
                    o.cv_reuse_dst ? "kept allocated between runs (OpenIPT reuses freed host blocks)"
                                   : "released before each run (fresh output)");
        print_header_row();

        std::vector<Result> results;
        for (int64_t n : o.sizes) {
            const Inputs in = make_inputs(n);
            for (const CaseDef& d : defs) {
                if (!selected(d.name, o.cases)) continue;
                Case c;
                c.name = d.name;
                c.size_label = sq(n);
                Holder h;
                if (o.run_ipt && !d.op.empty() && !cpu_implements(ctx, d.op)) {
                    std::printf("| %s | %s | skipped: %s has no implementation loaded (the peer is not run) |\n",
                                d.name.c_str(), sq(n).c_str(), d.op.c_str());
                    continue;
                }
                try {
                    if (!d.build(c, h, in, o)) continue;
                    results.push_back(measure(c, o, bandwidth));
                    results.back().cv_class = d.cv_class;
                    print_row(results.back());
                } catch (const std::exception& e) {
                    std::printf("| %s | %s | failed: %s |\n", d.name.c_str(), sq(n).c_str(), e.what());
                    std::fflush(stdout);
                }
            }
        }
        const std::string load_after = load_average();
        std::printf("\n- load average at end: %s\n", load_after.c_str());

        if (!o.json.empty()) {
            std::ofstream js(o.json);
            js << "{\n  \"date\": \"" << utc_now() << "\",\n  \"cpu\": \"" << json_escape(cpu_model())
               << "\",\n  \"cores\": " << cores << ",\n  \"threads\": " << threads << ",\n  \"opencv\": \""
               << CV_VERSION << "\",\n  \"opencv_parallel\": \"" << json_escape(opencv_parallel_framework())
               << "\",\n  \"copy_bandwidth_GBps\": " << json_number(bandwidth / 1e9) << ",\n  \"load_before\": \""
               << load_before << "\",\n  \"load_after\": \"" << load_after << "\",\n  \"cv_dst\": \""
               << (o.cv_reuse_dst ? "reuse" : "fresh") << "\",\n  \"results\": [\n";
            for (size_t i = 0; i < results.size(); ++i) {
                const Result& r = results[i];
                js << "    {\"case\": \"" << r.name << "\", \"size\": \"" << r.size_label << "\", \"variant\": \""
                   << r.variant << "\", \"ipt_ms\": " << json_number(r.ipt_median)
                   << ", \"ipt_min_ms\": " << json_number(r.ipt_min)
                   << ", \"ipt_in_plugin_ms\": " << json_number(r.ipt_kernel) << ", \"cv_ms\": " << json_number(r.cv_median)
                   << ", \"cv_min_ms\": " << json_number(r.cv_min)
                   << ", \"ratio\": " << json_number(r.ipt_median / r.cv_median)
                   << (r.cv_class.empty() ? "" : ", \"cv_class\": \"" + r.cv_class + "\"")
                   << ", \"floor_ms\": " << json_number(r.floor_ms) << ", \"ipt_faults\": " << json_number(r.ipt_faults)
                   << ", \"cv_faults\": " << json_number(r.cv_faults) << ", \"runs\": " << r.ipt_runs
                   << ", \"outputs\": \"" << json_escape(r.check) << "\"}" << (i + 1 < results.size() ? "," : "")
                   << "\n";
            }
            js << "  ]\n}\n";
            if (!js) {
                std::fprintf(stderr, "ipt_cpu_bench: cannot write %s\n", o.json.c_str());
                return 1;
            }
        }
        g_ctx = nullptr;
    } catch (const ipt::Error& e) {
        std::fprintf(stderr, "ipt_cpu_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
