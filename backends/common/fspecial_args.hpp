// ipt.fspecial's parameters turned into a filter: which parameters each
// type takes and MATLAB's defaults, shared by every backend that registers
// ipt.fspecial (the filters themselves are built by fspecial.hpp).
#pragma once

#include <cmath>
#include <string>

#include "fspecial.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::common::fspecial_args {

using ipt::common::Filter2D;
using ipt::plugin::invalid;
using ipt::plugin::KernelArgs;

// Parameters other than `type` that each type takes.
struct TypeParams {
    const char* type;
    const char* takes;  // space-separated
};
constexpr TypeParams kTakes[] = {
    {"average", "hsize"},        {"disk", "radius"},  {"gaussian", "hsize sigma"},
    {"laplacian", "alpha"},      {"log", "hsize sigma"}, {"motion", "len theta"},
    {"prewitt", ""},             {"sobel", ""},        {"unsharp", "alpha"},
};

inline bool takes(const std::string& type, const char* param) {
    for (const auto& t : kTakes)
        if (type == t.type) {
            const std::string list = std::string(" ") + t.takes + " ";
            return list.find(std::string(" ") + param + " ") != std::string::npos;
        }
    return false;
}

// hsize: a scalar n means [n n].
inline void filter_size(const KernelArgs& args, int64_t def, int64_t& rows, int64_t& cols) {
    rows = cols = def;
    if (!args.present("hsize")) return;
    const double* v = args.floats("hsize");
    const uint64_t n = args.count("hsize");
    if (n < 1 || n > 2) invalid("ipt.fspecial: parameter 'hsize' must have 1 or 2 values");
    for (uint64_t i = 0; i < n; ++i)
        if (!(v[i] >= 1) || v[i] != static_cast<double>(static_cast<int64_t>(v[i])) || v[i] > 4096)
            invalid("ipt.fspecial: parameter 'hsize' must hold positive integers (at most 4096)");
    rows = static_cast<int64_t>(v[0]);
    cols = static_cast<int64_t>(n == 2 ? v[1] : v[0]);
}

inline double number_or(const KernelArgs& args, const char* name, double def) {
    return args.present(name) ? args.number(name) : def;
}

// The filter a call asks for; throws an invalid-argument error naming the
// parameter otherwise.
inline Filter2D build(const KernelArgs& args) {
    const std::string type = args.text("type");
    bool known = false;
    for (const auto& t : kTakes) known |= type == t.type;
    if (!known)
        invalid("ipt.fspecial: parameter 'type' must be average, disk, gaussian, laplacian, log, motion, "
                "prewitt, sobel or unsharp");
    for (const char* p : {"hsize", "sigma", "alpha", "radius", "len", "theta"})
        if (args.present(p) && !takes(type, p))
            invalid(std::string("ipt.fspecial: parameter '") + p + "' is not used by type '" + type + "'");

    Filter2D h;
    int64_t rows = 0, cols = 0;
    if (type == "average") {
        filter_size(args, 3, rows, cols);
        h = ipt::common::fspecial_average(rows, cols);
    } else if (type == "gaussian" || type == "log") {
        filter_size(args, type == "log" ? 5 : 3, rows, cols);
        const double sigma = number_or(args, "sigma", 0.5);
        if (!(sigma > 0) || !std::isfinite(sigma)) invalid("ipt.fspecial: parameter 'sigma' must be positive");
        h = type == "log" ? ipt::common::fspecial_log(rows, cols, sigma)
                          : ipt::common::fspecial_gaussian(rows, cols, sigma);
    } else if (type == "disk") {
        const double radius = number_or(args, "radius", 5);
        if (!(radius > 0) || radius > 4096) invalid("ipt.fspecial: parameter 'radius' must be positive (at most 4096)");
        h = ipt::common::fspecial_disk(radius);
    } else if (type == "laplacian" || type == "unsharp") {
        const double alpha = number_or(args, "alpha", 0.2);
        if (!(alpha >= 0 && alpha <= 1)) invalid("ipt.fspecial: parameter 'alpha' must be in [0, 1]");
        h = type == "laplacian" ? ipt::common::fspecial_laplacian(alpha) : ipt::common::fspecial_unsharp(alpha);
    } else if (type == "motion") {
        const double len = number_or(args, "len", 9);
        const double theta = number_or(args, "theta", 0);
        if (!(len >= 0) || len > 4096) invalid("ipt.fspecial: parameter 'len' must be in [0, 4096]");
        if (!std::isfinite(theta)) invalid("ipt.fspecial: parameter 'theta' must be finite");
        h = ipt::common::fspecial_motion(len, theta);
    } else if (type == "prewitt") {
        h = ipt::common::fspecial_prewitt();
    } else {
        h = ipt::common::fspecial_sobel();
    }
    return h;
}

}  // namespace ipt::common::fspecial_args
