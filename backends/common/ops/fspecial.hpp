// SPDX-License-Identifier: Apache-2.0
// ipt.fspecial's front-end: h = fspecial(type, ...). Which parameters each
// type takes, MATLAB's defaults, and the filter itself, built on the host by
// the shared construction (backends/common/fspecial_filters.hpp). Backends
// only place plan.h in the output.
//
// The schema already checks the ranges (hsize whole and in [1, 4096], sigma
// positive, alpha in [0, 1], radius and len in [0, 4096], theta finite).
#pragma once

#include <cstdint>
#include <string>

#include "../fspecial_filters.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

enum class FspecialType { Average, Disk, Gaussian, Laplacian, Log, Motion, Prewitt, Sobel, Unsharp };

struct FspecialPlan {
    FspecialType type = FspecialType::Average;
    // The resolved parameters (MATLAB's defaults where the call gave none);
    // those the type does not take keep these values.
    int64_t hsize_rows = 0, hsize_cols = 0;  // average, gaussian, log
    double sigma = 0.5;                      // gaussian, log
    double alpha = 0.2;                      // laplacian, unsharp
    double radius = 5;                       // disk
    double len = 9, theta = 0;               // motion
    ipt::common::Filter2D h;                 // the output, double, row-major
};

namespace fspecial_detail {

struct TypeInfo {
    const char* name;
    FspecialType type;
    const char* takes;  // parameters besides `type`, space-separated
};
constexpr TypeInfo kTypes[] = {
    {"average", FspecialType::Average, "hsize"},       {"disk", FspecialType::Disk, "radius"},
    {"gaussian", FspecialType::Gaussian, "hsize sigma"}, {"laplacian", FspecialType::Laplacian, "alpha"},
    {"log", FspecialType::Log, "hsize sigma"},          {"motion", FspecialType::Motion, "len theta"},
    {"prewitt", FspecialType::Prewitt, ""},            {"sobel", FspecialType::Sobel, ""},
    {"unsharp", FspecialType::Unsharp, "alpha"},
};

inline bool takes(const TypeInfo& t, const std::string& param) {
    return (std::string(" ") + t.takes + " ").find(" " + param + " ") != std::string::npos;
}

inline double number_or(const ipt::plugin::KernelArgs& args, const char* name, double def) {
    return args.present(name) ? args.number(name) : def;
}

// hsize: a scalar n means [n n]; absent, [def def].
inline void filter_size(const ipt::plugin::KernelArgs& args, int64_t def, FspecialPlan& p) {
    p.hsize_rows = p.hsize_cols = def;
    if (!args.present("hsize")) return;
    const double* v = args.floats("hsize");
    p.hsize_rows = static_cast<int64_t>(v[0]);
    p.hsize_cols = static_cast<int64_t>(args.count("hsize") == 2 ? v[1] : v[0]);
}

}  // namespace fspecial_detail

// The filter a call asks for; a parameter the type does not take, or a
// radius of 0, is an invalid argument naming the parameter.
inline FspecialPlan plan_fspecial(const ipt::plugin::KernelArgs& args) {
    using namespace fspecial_detail;
    const std::string name = args.text("type");
    const TypeInfo* info = nullptr;
    for (const TypeInfo& t : kTypes)
        if (name == t.name) info = &t;
    if (!info)
        ipt::plugin::invalid("ipt.fspecial: parameter 'type' must be average, disk, gaussian, laplacian, log, "
                             "motion, prewitt, sobel or unsharp");
    for (const char* p : {"hsize", "sigma", "alpha", "radius", "len", "theta"})
        if (args.present(p) && !takes(*info, p))
            ipt::plugin::invalid(std::string("ipt.fspecial: parameter '") + p + "' is not used by type '" + name +
                                 "'");

    FspecialPlan plan;
    plan.type = info->type;
    plan.sigma = number_or(args, "sigma", plan.sigma);
    plan.alpha = number_or(args, "alpha", plan.alpha);
    plan.radius = number_or(args, "radius", plan.radius);
    plan.len = number_or(args, "len", plan.len);
    plan.theta = number_or(args, "theta", plan.theta);
    namespace f = ipt::common;
    switch (plan.type) {
    case FspecialType::Average:
        filter_size(args, 3, plan);
        plan.h = f::fspecial_average(plan.hsize_rows, plan.hsize_cols);
        break;
    case FspecialType::Gaussian:
        filter_size(args, 3, plan);
        plan.h = f::fspecial_gaussian(plan.hsize_rows, plan.hsize_cols, plan.sigma);
        break;
    case FspecialType::Log:
        filter_size(args, 5, plan);
        plan.h = f::fspecial_log(plan.hsize_rows, plan.hsize_cols, plan.sigma);
        break;
    case FspecialType::Disk:
        if (!(plan.radius > 0)) ipt::plugin::invalid("ipt.fspecial: parameter 'radius' must be positive");
        plan.h = f::fspecial_disk(plan.radius);
        break;
    case FspecialType::Laplacian: plan.h = f::fspecial_laplacian(plan.alpha); break;
    case FspecialType::Unsharp: plan.h = f::fspecial_unsharp(plan.alpha); break;
    case FspecialType::Motion: plan.h = f::fspecial_motion(plan.len, plan.theta); break;
    case FspecialType::Prewitt: plan.h = f::fspecial_prewitt(); break;
    case FspecialType::Sobel: plan.h = f::fspecial_sobel(); break;
    }
    return plan;
}

}  // namespace ipt::frontend
