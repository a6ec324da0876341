// SPDX-License-Identifier: Apache-2.0
// ipt.strel's front-end: which parameters each shape takes, their rules the
// schema cannot express, and the structuring element they build (the
// construction itself is in backends/common/strel.hpp). A backend only copies
// the plan's neighbourhood and decomposition planes into the outputs.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../strel.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct StrelPlan {
    common::Strel strel;  // the neighbourhood (output 'nhood') and its factors
    // 'decomposition' output, when wanted: one logical plane per factor, each
    // of the neighbourhood's size with the origins aligned, planes one after
    // the other. Not wanted: factor_count is 0 and planes is empty.
    int64_t factor_count = 0;
    std::vector<uint8_t> planes;
};

namespace strel_detail {

using ipt::plugin::invalid;
using ipt::plugin::KernelArgs;

// Parameters of each shape; any other optional parameter given is an error.
struct ShapeParams {
    const char* shape;
    const char* params[2];
};
constexpr ShapeParams kShapeParams[] = {
    {"square", {"w", nullptr}},        {"rectangle", {"size", nullptr}},
    {"diamond", {"r", nullptr}},       {"octagon", {"r", nullptr}},
    {"line", {"len", "deg"}},          {"disk", {"r", nullptr}},
    {"periodicline", {"P", "V"}},      {"arbitrary", {"nhood_in", nullptr}},
};
constexpr const char* kOptional[] = {"w", "size", "r", "len", "deg", "P", "V", "nhood_in"};

inline void check_params(const KernelArgs& args, const std::string& shape) {
    const ShapeParams* sp = nullptr;
    for (const auto& s : kShapeParams)
        if (shape == s.shape) sp = &s;
    if (!sp) invalid("ipt.strel: parameter 'shape' has an unknown value '" + shape + "'");
    for (const char* name : kOptional) {
        const bool wanted = (sp->params[0] && std::strcmp(sp->params[0], name) == 0) ||
                            (sp->params[1] && std::strcmp(sp->params[1], name) == 0);
        if (wanted && !args.present(name))
            invalid(std::string("ipt.strel: parameter '") + name + "' is required for shape '" + shape + "'");
        if (!wanted && args.present(name))
            invalid(std::string("ipt.strel: parameter '") + name + "' does not apply to shape '" + shape + "'");
    }
}

// The schema already enforces each parameter's class, count, range and
// whole-number rule; what is left are the rules between parameters.
inline common::Strel build(const KernelArgs& args) {
    namespace cm = ipt::common;
    const std::string shape = args.text("shape");
    check_params(args, shape);
    if (shape == "square") return cm::make_strel_square(args.integer("w"));
    if (shape == "rectangle") {
        const double* size = args.floats("size");
        return cm::make_strel_rectangle(static_cast<int64_t>(size[0]), static_cast<int64_t>(size[1]));
    }
    if (shape == "diamond") return cm::make_strel_diamond(args.integer("r"));
    if (shape == "octagon") {
        const int64_t r = args.integer("r");
        if (r % 3 != 0) invalid("ipt.strel: parameter 'r' must be a multiple of 3 for shape 'octagon'");
        return cm::make_strel_octagon(r);
    }
    if (shape == "disk") return cm::make_strel_disk(args.integer("r"), static_cast<int>(args.integer("n")));
    if (shape == "line") return cm::make_strel_line(args.number("len"), args.number("deg"));
    if (shape == "periodicline") {
        const double* v = args.floats("V");
        return cm::make_strel_periodicline(args.integer("P"), static_cast<int64_t>(v[0]), static_cast<int64_t>(v[1]));
    }
    // arbitrary
    const ipt_tensor* t = args.image("nhood_in");
    cm::StrelMask m(t->rows, t->cols);
    const auto* src = static_cast<const uint8_t*>(t->data);
    for (int64_t i = 0; i < t->rows * t->cols; ++i) m.bits[static_cast<size_t>(i)] = src[i] != 0;
    return cm::make_strel_arbitrary(m);
}

}  // namespace strel_detail

// The structuring element of a validated call and, when the decomposition is
// wanted, its factors framed as the output holds them. Every factor is framed
// before any output is allocated, so a failure writes nothing.
inline StrelPlan plan_strel(const ipt::plugin::KernelArgs& args) {
    StrelPlan plan;
    plan.strel = strel_detail::build(args);
    if (args.wanted("decomposition"))
        for (const auto& f : plan.strel.factors) {
            const common::StrelMask m = common::strel_factor_in_frame(f, plan.strel.nhood);
            plan.planes.insert(plan.planes.end(), m.bits.begin(), m.bits.end());
            ++plan.factor_count;
        }
    return plan;
}

}  // namespace ipt::frontend
