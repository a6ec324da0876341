// ipt.strel's parameters turned into a structuring element: the rules of
// which parameters each shape takes, shared by every backend that registers
// ipt.strel (the construction itself is in strel.hpp).
#pragma once

#include <cmath>
#include <cstring>
#include <string>

#include "ipt/ipt_plugin.hpp"
#include "strel.hpp"

namespace ipt::common::strel_args {

using ipt::plugin::invalid;
using ipt::plugin::KernelArgs;
namespace cm = ipt::common;

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

inline int64_t whole(const char* name, double v) {
    if (!std::isfinite(v) || v != std::floor(v))
        invalid(std::string("ipt.strel: parameter '") + name + "' must hold whole numbers");
    return static_cast<int64_t>(v);
}

inline cm::Strel build(const KernelArgs& args) {
    const std::string shape = args.text("shape");
    check_params(args, shape);
    if (shape == "square") {
        const int64_t w = args.integer("w");
        if (w < 0) invalid("ipt.strel: parameter 'w' must be nonnegative");
        return cm::make_strel_square(w);
    }
    if (shape == "rectangle") {
        if (args.count("size") != 2) invalid("ipt.strel: parameter 'size' must be [m n]");
        const int64_t m = whole("size", args.floats("size")[0]);
        const int64_t n = whole("size", args.floats("size")[1]);
        if (m < 0 || n < 0) invalid("ipt.strel: parameter 'size' must be nonnegative");
        return cm::make_strel_rectangle(m, n);
    }
    if (shape == "diamond" || shape == "octagon" || shape == "disk") {
        const int64_t r = args.integer("r");
        if (r < 0) invalid("ipt.strel: parameter 'r' must be nonnegative");
        if (shape == "diamond") return cm::make_strel_diamond(r);
        if (shape == "octagon") {
            if (r % 3 != 0) invalid("ipt.strel: parameter 'r' must be a multiple of 3 for shape 'octagon'");
            return cm::make_strel_octagon(r);
        }
        const int64_t n = args.integer("n");
        if (n != 0 && n != 4 && n != 6 && n != 8) invalid("ipt.strel: parameter 'n' must be 0, 4, 6 or 8");
        return cm::make_strel_disk(r, static_cast<int>(n));
    }
    if (shape == "line") {
        const double len = args.number("len"), deg = args.number("deg");
        if (!std::isfinite(len) || len < 0) invalid("ipt.strel: parameter 'len' must be finite and nonnegative");
        if (!std::isfinite(deg)) invalid("ipt.strel: parameter 'deg' must be finite");
        return cm::make_strel_line(len, deg);
    }
    if (shape == "periodicline") {
        const int64_t p = args.integer("P");
        if (p < 0) invalid("ipt.strel: parameter 'P' must be nonnegative");
        if (args.count("V") != 2) invalid("ipt.strel: parameter 'V' must be [row col]");
        const int64_t vr = whole("V", args.floats("V")[0]);
        const int64_t vc = whole("V", args.floats("V")[1]);
        return cm::make_strel_periodicline(p, vr, vc);
    }
    // arbitrary
    const ipt_tensor* t = args.image("nhood_in");
    if (t->dtype != IPT_LOGICAL || t->channels != 1)
        invalid("ipt.strel: parameter 'nhood_in' must be a 2-D logical array");
    cm::StrelMask m(t->rows, t->cols);
    const auto* src = static_cast<const uint8_t*>(t->data);
    for (int64_t i = 0; i < t->rows * t->cols; ++i) m.bits[static_cast<size_t>(i)] = src[i] != 0;
    return cm::make_strel_arbitrary(m);
}


}  // namespace ipt::common::strel_args
