// SPDX-License-Identifier: Apache-2.0
#include "conformance_recipes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

namespace ipt::conformance {

// ---- args and cases ------------------------------------------------------

namespace {

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

}  // namespace

std::string Arg::describe() const {
    switch (kind) {
    case Kind::Image: return name + "=" + image.describe();
    case Kind::Int: return name + "=" + std::to_string(i);
    case Kind::Float: return name + "=" + num(f);
    case Kind::Floats: {
        std::string s = name + "=[";
        // Long arrays (radon angles) are summarised to keep labels readable.
        const size_t shown = floats.size() > 12 ? 6 : floats.size();
        for (size_t k = 0; k < shown; ++k) s += (k ? " " : "") + num(floats[k]);
        if (shown < floats.size()) s += " ... (" + std::to_string(floats.size()) + " values)";
        return s + "]";
    }
    case Kind::Text: return name + "=" + text;
    }
    return name;
}

Arg image_arg(std::string name, ImageSpec s) {
    Arg a;
    a.name = std::move(name);
    a.kind = Arg::Kind::Image;
    a.image = std::move(s);
    return a;
}

Arg int_arg(std::string name, int64_t v) {
    Arg a;
    a.name = std::move(name);
    a.kind = Arg::Kind::Int;
    a.i = v;
    return a;
}

Arg float_arg(std::string name, double v) {
    Arg a;
    a.name = std::move(name);
    a.kind = Arg::Kind::Float;
    a.f = v;
    return a;
}

Arg floats_arg(std::string name, std::vector<double> v) {
    Arg a;
    a.name = std::move(name);
    a.kind = Arg::Kind::Floats;
    a.floats = std::move(v);
    return a;
}

Arg text_arg(std::string name, std::string v) {
    Arg a;
    a.name = std::move(name);
    a.kind = Arg::Kind::Text;
    a.text = std::move(v);
    return a;
}

std::string CaseSpec::label() const {
    std::string s;
    for (const Arg& a : args) s += (s.empty() ? "" : ", ") + a.describe();
    if (!want_all_optional) {
        s += s.empty() ? "" : ", ";
        s += "outputs=required";
        for (const std::string& w : want) s += "+" + w;
    }
    return s;
}

const Arg* CaseSpec::find(const std::string& name) const {
    for (const Arg& a : args)
        if (a.name == name) return &a;
    return nullptr;
}

CaseSpec& CaseSpec::add(Arg a) {
    args.push_back(std::move(a));
    return *this;
}

CaseSpec& CaseSpec::without_optional_outputs() {
    want_all_optional = false;
    want.clear();
    return *this;
}

std::string param_text(const ipt_op_schema& schema, const CaseSpec& c, const std::string& name) {
    if (const Arg* a = c.find(name)) {
        switch (a->kind) {
        case Arg::Kind::Text: return a->text;
        case Arg::Kind::Int: return std::to_string(a->i);
        case Arg::Kind::Float: return num(a->f);
        default: return "";
        }
    }
    for (uint32_t i = 0; i < schema.param_count; ++i) {
        const ipt_param_schema* p = ipt_op_param(&schema, i);
        if (name == p->name && p->default_text) return p->default_text;
    }
    return "";
}

// ---- the sweep shared by every operator ----------------------------------

namespace {

using Cases = std::vector<CaseSpec>;

CaseSpec make_case(std::initializer_list<Arg> args) {
    CaseSpec c;
    c.args.assign(args.begin(), args.end());
    return c;
}

struct OpRecipe {
    std::string main;  // the input swept over classes, shapes and special images ("" if none)
    Fill random_fill = Fill::Random;
    double lo = 0, hi = 0;  // parameters of random_fill
    ipt_dtype demo_dtype = static_cast<ipt_dtype>(0);
    int64_t demo_channels = 1;  // of the main input in the demo and the benchmark case
    std::function<CaseSpec(const ImageSpec& main)> primary;
    std::function<void(Cases&, const RecipeOptions&)> options;
};

struct Shape {
    int64_t rows, cols;
};
// Empty (0x0 and one side 0), 1x1, 1xN, Nx1, small odd, and sizes just past
// multiples of 8/16/32/64.
const Shape kShapes[] = {{0, 0}, {0, 5}, {4, 0}, {1, 1}, {1, 37}, {41, 1}, {17, 23}, {63, 65}, {130, 97}};
const Shape kSpecialShape = {17, 23};
const Shape kDensityShape = {67, 61};  // enough pixels for 0.1% to hold a few

const ipt_param_schema* find_param(const ipt_op_schema& schema, const std::string& name) {
    for (uint32_t i = 0; i < schema.param_count; ++i)
        if (name == ipt_op_param(&schema, i)->name) return ipt_op_param(&schema, i);
    return nullptr;
}

ipt_dtype first_of(const std::vector<ipt_dtype>& accepted, std::initializer_list<ipt_dtype> preference) {
    for (ipt_dtype d : preference)
        if (std::find(accepted.begin(), accepted.end(), d) != accepted.end()) return d;
    return accepted.empty() ? IPT_DOUBLE : accepted.front();
}

ImageSpec main_spec(const OpRecipe& r, ipt_dtype d, int64_t rows, int64_t cols, int64_t channels = 1) {
    ImageSpec s = spec(d, rows, cols, r.random_fill, r.lo, r.hi);
    s.channels = channels;
    return s;
}

void sweep(const ipt_op_schema& schema, const OpRecipe& r, const RecipeOptions& opt, Cases& out) {
    if (r.main.empty()) {
        out.push_back(r.primary(ImageSpec{}));
        return;
    }
    const ipt_param_schema* p = find_param(schema, r.main);
    if (!p) throw std::logic_error(std::string("conformance recipe of ") + schema.name + ": no input " + r.main);
    const std::vector<ipt_dtype> dtypes = dtypes_in(p->dtypes);
    for (ipt_dtype d : dtypes)
        for (const Shape& s : kShapes) out.push_back(r.primary(main_spec(r, d, s.rows, s.cols)));
    for (ipt_dtype d : dtypes) {
        for (ImageSpec s : special_specs(d, kSpecialShape.rows, kSpecialShape.cols, 1)) {
            if (s.fill == Fill::Density) s.rows = kDensityShape.rows, s.cols = kDensityShape.cols;
            if (s.lo >= s.hi && s.fill != Fill::Density) s.lo = r.lo, s.hi = r.hi;  // keep the op's value range
            out.push_back(r.primary(s));
        }
    }
    if (p->flags & IPT_P_PLANES) {
        // Planes beside the colour count: 2 and 4 are what an RGB-only loop misses.
        for (ipt_dtype d : dtypes)
            for (int64_t planes : {2, 3, 4}) out.push_back(r.primary(main_spec(r, d, 17, 23, planes)));
    } else if (p->flags & IPT_P_RGB) {
        for (ipt_dtype d : dtypes) out.push_back(r.primary(main_spec(r, d, 17, 23, 3)));
    }
    // The large case: one integer-like and one floating class.
    std::set<ipt_dtype> large;
    large.insert(first_of(dtypes, {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_LOGICAL, IPT_INT32, IPT_UINT32}));
    large.insert(first_of(dtypes, {IPT_SINGLE, IPT_DOUBLE}));
    for (ipt_dtype d : large) {
        CaseSpec c = r.primary(main_spec(r, d, opt.large_size, opt.large_size));
        c.large = true;
        out.push_back(c);
    }
}

// ---- per-operator recipes ------------------------------------------------

const std::vector<ipt_dtype> kAll = dtypes_in(IPT_DT_ALL);
const std::vector<ipt_dtype> kImage = dtypes_in(IPT_DT_IMAGE);

std::vector<double> range(double first, double step, double last) {
    std::vector<double> v;
    for (double x = first; x <= last + 1e-9; x += step) v.push_back(x);
    return v;
}

// Every value of an integer class once, in order: uint8 as 1x256, uint16 and
// int16 as 256x256 (row-major from the class's lowest value). Floating
// classes: k/255 for k = 0..255, the points of MATLAB's uint8 tables, where
// the .5 ties of a rounding are. Rounding rules are only trustworthy where
// every value was seen.
ImageSpec every_value(ipt_dtype d, int64_t channels = 1) {
    const bool wide = d == IPT_UINT16 || d == IPT_INT16;
    const int64_t n = wide ? 65536 : 256;
    std::vector<double> v(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k)
        v[static_cast<size_t>(k)] = d == IPT_INT16 ? static_cast<double>(k - 32768)
                                    : is_float(d)  ? static_cast<double>(k) / 255.0
                                                   : static_cast<double>(k);
    ImageSpec s = values_spec(d, wide ? 256 : 1, 256, std::move(v), "every value");
    s.channels = channels;
    return s;
}

OpRecipe intlut_recipe() {
    OpRecipe r;
    r.main = "A";
    auto lut_size = [](ipt_dtype d) { return d == IPT_UINT8 ? 256 : 65536; };
    r.primary = [=](const ImageSpec& a) {
        return make_case({image_arg("A", a), image_arg("LUT", spec(a.dtype, 1, lut_size(a.dtype)))});
    };
    r.options = [=](Cases& out, const RecipeOptions&) {
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16}) {
            out.push_back(make_case({image_arg("A", spec(d, 63, 65)), image_arg("LUT", spec(d, lut_size(d), 1))}));
            out.push_back(make_case(
                {image_arg("A", spec(d, 17, 23)), image_arg("LUT", spec(d, 1, lut_size(d), Fill::Constant))}));
            // Every value through a random table, as a row and as a column.
            out.push_back(make_case({image_arg("A", every_value(d)), image_arg("LUT", spec(d, 1, lut_size(d)))}));
            out.push_back(make_case({image_arg("A", every_value(d, 3)), image_arg("LUT", spec(d, lut_size(d), 1))}));
        }
    };
    return r;
}

OpRecipe stretchlim_recipe() {
    OpRecipe r;
    r.main = "I";
    r.primary = [](const ImageSpec& i) { return make_case({image_arg("I", i)}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        const std::vector<std::vector<double>> tols = {{0.05}, {0.1, 0.9}, {0, 1}, {0.5, 0.5}, {0.3, 0.2}, {0, 0.4}, {0.02}};
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_DOUBLE, IPT_SINGLE, IPT_LOGICAL})
            for (const auto& t : tols) out.push_back(make_case({image_arg("I", spec(d, 63, 65)), floats_arg("tol", t)}));
        out.push_back(make_case({image_arg("I", spec(IPT_DOUBLE, 63, 65, Fill::Random, -0.5, 1.5))}));
        out.push_back(make_case({image_arg("I", spec(IPT_UINT8, 63, 65, Fill::Levels, 3))}));
        out.push_back(make_case({image_arg("I", spec(IPT_DOUBLE, 63, 65, Fill::Levels, 5))}));
        ImageSpec rgb = spec(IPT_UINT8, 17, 23);
        rgb.channels = 3;
        out.push_back(make_case({image_arg("I", rgb), floats_arg("tol", {0.02, 0.98})}));
        // Every value once: each bin holds one count, so the cdf passes each
        // tolerance at a known bin (and exactly at it for 0.25, 0.5, 0.75).
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_DOUBLE, IPT_SINGLE})
            for (const auto& t : std::vector<std::vector<double>>{{0.01, 0.99}, {0.25, 0.75}, {0.5}, {0.1, 0.9}})
                out.push_back(make_case({image_arg("I", every_value(d)), floats_arg("tol", t)}));
    };
    return r;
}

OpRecipe imadjust_recipe() {
    OpRecipe r;
    r.main = "I";
    r.primary = [](const ImageSpec& i) { return make_case({image_arg("I", i)}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        for (ipt_dtype d : kImage) {
            const ImageSpec i = spec(d, 63, 65);
            out.push_back(make_case({image_arg("I", i), floats_arg("low_high_in", {0.2, 0.8})}));
            out.push_back(make_case(
                {image_arg("I", i), floats_arg("low_high_in", {0.2, 0.8}), floats_arg("low_high_out", {0.1, 0.9})}));
            out.push_back(make_case({image_arg("I", i), floats_arg("low_high_out", {1, 0})}));
            out.push_back(make_case({image_arg("I", i), floats_arg("low_high_in", {0.1, 0.7}),
                                     floats_arg("low_high_out", {0.9, 0.2}), floats_arg("gamma", {0.5})}));
            out.push_back(make_case({image_arg("I", i), floats_arg("low_high_in", {0, 1}), floats_arg("gamma", {2.5})}));
            out.push_back(make_case({image_arg("I", i), floats_arg("low_high_in", {0, 1})}));
        }
        // RGB: limits as 2x3 (a column per channel). The values are chosen so
        // that low < high whichever way the six numbers are read.
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_DOUBLE}) {
            ImageSpec rgb = spec(d, 17, 23);
            rgb.channels = 3;
            out.push_back(make_case({image_arg("I", rgb), floats_arg("low_high_in", {0.1, 0.15, 0.2, 0.8, 0.85, 0.9}),
                                     floats_arg("gamma", {0.5, 1, 2})}));
            out.push_back(make_case({image_arg("I", rgb), floats_arg("low_high_in", {0.1, 0.15, 0.2, 0.8, 0.85, 0.9}),
                                     floats_arg("low_high_out", {0.1, 0.2, 0.05, 0.9, 0.8, 0.95})}));
        }
        out.push_back(make_case({image_arg("I", spec(IPT_DOUBLE, 63, 65, Fill::Random, -0.5, 1.5)),
                                 floats_arg("low_high_in", {0.2, 0.8})}));
        // Every value of each class through several curves: the integer
        // tables must match MATLAB's at every entry, including the exact .5
        // ties (uint8 119 with [0.2 0.8], [0.1 0.9], gamma 0.5 is 161.5 in
        // exact arithmetic), inverted output ranges, and the default limits.
        struct Limits {
            std::vector<double> in, out;
        };
        const std::vector<Limits> limits = {
            {{0.2, 0.8}, {0.1, 0.9}}, {{0, 1}, {0, 1}}, {{0.1, 0.7}, {0.9, 0.2}}, {{0.25, 0.75}, {1, 0}}, {{}, {0.1, 0.9}}};
        for (ipt_dtype d : kImage)
            for (const Limits& l : limits)
                for (double g : {0.5, 1.0, 2.0, 0.3}) {
                    CaseSpec c = make_case({image_arg("I", every_value(d)), floats_arg("low_high_out", l.out),
                                            floats_arg("gamma", {g})});
                    if (!l.in.empty()) c.add(floats_arg("low_high_in", l.in));
                    out.push_back(c);
                }
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16}) {
            out.push_back(make_case({image_arg("I", every_value(d, 3)),
                                     floats_arg("low_high_in", {0.2, 0.8, 0.1, 0.7, 0, 1}),
                                     floats_arg("low_high_out", {0.1, 0.9, 0.9, 0.2, 0, 1}),
                                     floats_arg("gamma", {0.5, 2, 0.3})}));
            out.push_back(make_case({image_arg("I", every_value(d, 3)), floats_arg("gamma", {0.5, 1, 2})}));
        }
    };
    return r;
}

OpRecipe imlincomb_recipe() {
    OpRecipe r;
    r.main = "A1";
    r.primary = [](const ImageSpec& a1) {
        ImageSpec a2 = spec(a1.dtype, a1.rows, a1.cols);
        a2.channels = a1.channels;
        // Halves: .5 ties of both signs after the sum, rounded once.
        return make_case({floats_arg("K", {0.5, -0.5, 0.5}), image_arg("A1", a1), image_arg("A2", a2)});
    };
    r.options = [](Cases& out, const RecipeOptions&) {
        for (ipt_dtype d : {IPT_UINT8, IPT_INT16, IPT_UINT16, IPT_INT32, IPT_DOUBLE, IPT_SINGLE, IPT_LOGICAL}) {
            const ImageSpec a = spec(d, 17, 23);
            out.push_back(make_case({floats_arg("K", {2}), image_arg("A1", a)}));
            out.push_back(make_case({floats_arg("K", {1.5, 3.25}), image_arg("A1", a)}));
            out.push_back(make_case({floats_arg("K", {0.5}), image_arg("A1", a)}));
            out.push_back(make_case({floats_arg("K", {-0.5}), image_arg("A1", a)}));
            out.push_back(make_case({floats_arg("K", {-1}), image_arg("A1", a)}));
            out.push_back(make_case({floats_arg("K", {300}), image_arg("A1", a)}));
            out.push_back(make_case({floats_arg("K", {0.25, 0.5, 0.25}), image_arg("A1", a),
                                     image_arg("A2", spec(d, 17, 23)), image_arg("A3", spec(d, 17, 23))}));
            out.push_back(make_case({floats_arg("K", {1, -1, 1, 128}), image_arg("A1", a),
                                     image_arg("A2", spec(d, 17, 23)), image_arg("A3", spec(d, 17, 23))}));
        }
        for (bool offset : {false, true}) {
            CaseSpec c;
            std::vector<double> k = {0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8};
            if (offset) k.push_back(12.5);
            c.add(floats_arg("K", k));
            for (int i = 1; i <= 8; ++i) c.add(image_arg("A" + std::to_string(i), spec(IPT_UINT8, 17, 23)));
            out.push_back(c);
        }
        // Every output class, from a double range wide enough to saturate each.
        for (const char* oc : {"default", "uint8", "uint16", "int16", "int32", "uint32", "single", "double"}) {
            out.push_back(make_case({floats_arg("K", {1.5}), image_arg("A1", spec(IPT_DOUBLE, 17, 23, Fill::Random, -1e10, 1e10)),
                                     text_arg("outclass", oc)}));
            out.push_back(make_case({floats_arg("K", {0.5, 0.5}), image_arg("A1", spec(IPT_UINT8, 17, 23)),
                                     image_arg("A2", spec(IPT_UINT8, 17, 23)), text_arg("outclass", oc)}));
            out.push_back(make_case({floats_arg("K", {1}), image_arg("A1", spec(IPT_DOUBLE, 17, 23, Fill::NaN)),
                                     text_arg("outclass", oc)}));
        }
        // Every value with coefficients that make .5 ties of both signs, and
        // sums that leave the class before the offset brings them back.
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16}) {
            out.push_back(make_case({floats_arg("K", {0.5}), image_arg("A1", every_value(d))}));
            out.push_back(make_case({floats_arg("K", {-0.5}), image_arg("A1", every_value(d)), text_arg("outclass", "int16")}));
            out.push_back(make_case({floats_arg("K", {0.5, 0.5}), image_arg("A1", every_value(d)),
                                     image_arg("A2", spec(d, every_value(d).rows, every_value(d).cols))}));
            out.push_back(make_case({floats_arg("K", {1.5, -0.25}), image_arg("A1", every_value(d)), text_arg("outclass", "double")}));
            out.push_back(make_case({floats_arg("K", {1.5, -0.25}), image_arg("A1", every_value(d))}));
            out.push_back(make_case({floats_arg("K", {2, -300.5}), image_arg("A1", every_value(d)), text_arg("outclass", "int32")}));
        }
        {
            std::vector<double> ramp(256), reversed(256);
            for (int k = 0; k < 256; ++k) ramp[k] = k, reversed[k] = 255 - k;
            out.push_back(make_case({floats_arg("K", {1, -1, 128}), image_arg("A1", values_spec(IPT_UINT8, 1, 256, ramp, "0:255")),
                                     image_arg("A2", values_spec(IPT_UINT8, 1, 256, reversed, "255:-1:0"))}));
            // Halves from -20 to 280 into each integer class.
            std::vector<double> halves;
            for (int i = -40; i <= 560; ++i) halves.push_back(0.5 * i);
            for (const char* oc : {"uint8", "uint16", "int16", "int32", "uint32"})
                out.push_back(make_case({floats_arg("K", {1}),
                                         image_arg("A1", values_spec(IPT_DOUBLE, 1, int64_t(halves.size()), halves, "-20:0.5:280")),
                                         text_arg("outclass", oc)}));
        }
        // Mixed classes: MATLAB requires one class for all images, so the
        // implementation must reject these.
        CaseSpec mixed = make_case({floats_arg("K", {1, 2, 3}), image_arg("A1", spec(IPT_UINT8, 17, 23)),
                                    image_arg("A2", spec(IPT_DOUBLE, 17, 23)), image_arg("A3", spec(IPT_LOGICAL, 17, 23))});
        mixed.expect_error = true;
        out.push_back(mixed);
        out.push_back(make_case({floats_arg("K", {1, 1}), image_arg("A1", spec(IPT_LOGICAL, 17, 23)),
                                 image_arg("A2", spec(IPT_LOGICAL, 17, 23))}));
        CaseSpec mixed2 = make_case({floats_arg("K", {0.5, 0.25, -7.5}), image_arg("A1", spec(IPT_INT16, 17, 23)),
                                     image_arg("A2", spec(IPT_SINGLE, 17, 23, Fill::Random, -100, 100))});
        mixed2.expect_error = true;
        out.push_back(mixed2);
    };
    return r;
}

OpRecipe edge_recipe() {
    OpRecipe r;
    r.main = "I";
    r.demo_dtype = IPT_UINT8;
    r.primary = [](const ImageSpec& i) { return make_case({image_arg("I", i)}); };
    r.options = [](Cases& out, const RecipeOptions& opt) {
        const ImageSpec h5 = spec(IPT_DOUBLE, 5, 5, Fill::Random, -1, 1);
        auto with_method = [&](const ImageSpec& i, const std::string& m) {
            CaseSpec c = make_case({image_arg("I", i), text_arg("method", m)});
            if (m == "zerocross") c.add(image_arg("h", h5));
            return c;
        };
        const char* methods[] = {"sobel", "prewitt", "roberts", "log", "zerocross", "canny"};
        for (const char* m : methods) {
            for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_DOUBLE, IPT_SINGLE, IPT_LOGICAL}) {
                out.push_back(with_method(spec(d, 63, 65, Fill::Synthetic), m));
                out.push_back(with_method(spec(d, 17, 23), m));
            }
            for (const Shape& s : kShapes) out.push_back(with_method(spec(IPT_DOUBLE, s.rows, s.cols), m));
            out.push_back(with_method(spec(IPT_DOUBLE, 17, 23, Fill::Constant), m));
            out.push_back(with_method(spec(IPT_SINGLE, 17, 23, Fill::NaN), m));
            out.push_back(with_method(spec(IPT_UINT8, 63, 65, Fill::Synthetic), m).without_optional_outputs());
        }
        const ImageSpec scene = spec(IPT_DOUBLE, 63, 65, Fill::Synthetic);
        const ImageSpec scene8 = spec(IPT_UINT8, 63, 65, Fill::Synthetic);
        for (const char* m : {"sobel", "prewitt", "roberts"}) {
            for (const ImageSpec& i : {scene, scene8}) {
                out.push_back(with_method(i, m).add(floats_arg("threshold", {0.05})));
                out.push_back(with_method(i, m).add(floats_arg("threshold", {0})));
                for (const char* dir : {"both", "horizontal", "vertical"}) {
                    out.push_back(with_method(i, m).add(text_arg("direction", dir)));
                    out.push_back(with_method(i, m).add(text_arg("direction", dir)).add(text_arg("thinning", "nothinning")));
                }
            }
        }
        for (const ImageSpec& i : {scene, scene8}) {
            out.push_back(with_method(i, "log").add(floats_arg("threshold", {0.003})));
            out.push_back(with_method(i, "log").add(floats_arg("threshold", {0})));
            out.push_back(with_method(i, "log").add(float_arg("sigma", 1.0)));
            out.push_back(with_method(i, "log").add(float_arg("sigma", 3.0)).add(floats_arg("threshold", {0.001})));
            out.push_back(with_method(i, "zerocross").add(floats_arg("threshold", {0})));
            out.push_back(with_method(i, "zerocross").add(floats_arg("threshold", {0.002})));
            out.push_back(make_case({image_arg("I", i), text_arg("method", "zerocross"),
                                     image_arg("h", spec(IPT_SINGLE, 3, 3, Fill::Random, -1, 1))}));
            out.push_back(with_method(i, "canny").add(floats_arg("threshold", {0.05, 0.15})));
            out.push_back(with_method(i, "canny").add(floats_arg("threshold", {0.2})));
            out.push_back(with_method(i, "canny").add(floats_arg("threshold", {0, 0.1})));
            out.push_back(with_method(i, "canny").add(float_arg("sigma", 1.0)));
            out.push_back(with_method(i, "canny").add(float_arg("sigma", 2.5)).add(floats_arg("threshold", {0.1, 0.3})));
        }
        CaseSpec big = with_method(spec(IPT_UINT8, opt.large_size, opt.large_size, Fill::Synthetic), "canny");
        big.large = true;
        out.push_back(big);
    };
    return r;
}

OpRecipe imregionalmax_recipe() {
    OpRecipe r;
    r.main = "I";
    r.random_fill = Fill::Levels;  // few levels: plateaus of every shape
    r.lo = 4;
    r.primary = [](const ImageSpec& i) { return make_case({image_arg("I", i)}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        for (ipt_dtype d : {IPT_UINT8, IPT_DOUBLE, IPT_INT16, IPT_SINGLE, IPT_UINT32, IPT_LOGICAL}) {
            for (int conn : {4, 8}) {
                out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Levels, 3)), int_arg("conn", conn)}));
                out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Levels, 2)), int_arg("conn", conn)}));
                out.push_back(make_case({image_arg("I", spec(d, 63, 65)), int_arg("conn", conn)}));
                out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Synthetic)), int_arg("conn", conn)}));
                out.push_back(make_case({image_arg("I", spec(d, 1, 37, Fill::Levels, 3)), int_arg("conn", conn)}));
                out.push_back(make_case({image_arg("I", spec(d, 17, 23, Fill::Constant)), int_arg("conn", conn)}));
            }
        }
        out.push_back(make_case({image_arg("I", spec(IPT_DOUBLE, 63, 65, Fill::NaN)), int_arg("conn", 4)}));
        out.push_back(make_case({image_arg("I", spec(IPT_SINGLE, 63, 65, Fill::Inf)), int_arg("conn", 4)}));
    };
    return r;
}

// A fixed 3x5 neighbourhood with 9 members, not symmetric.
const std::vector<double> kDomain3x5 = {1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1};

OpRecipe ordfilt2_recipe() {
    OpRecipe r;
    r.main = "A";
    r.primary = [](const ImageSpec& a) {
        return make_case({image_arg("A", a), int_arg("order", 5), image_arg("domain", ones_spec(IPT_LOGICAL, 3, 3))});
    };
    r.options = [](Cases& out, const RecipeOptions&) {
        const ImageSpec ones33 = ones_spec(IPT_LOGICAL, 3, 3);
        for (ipt_dtype d : {IPT_UINT8, IPT_DOUBLE, IPT_SINGLE, IPT_INT16, IPT_UINT32, IPT_LOGICAL}) {
            const ImageSpec a = spec(d, 17, 23);
            for (const char* pad : {"zeros", "symmetric"}) {
                auto c = [&](int64_t order, const ImageSpec& dom) {
                    return make_case({image_arg("A", a), int_arg("order", order), image_arg("domain", dom), text_arg("padopt", pad)});
                };
                out.push_back(c(1, ones33));
                out.push_back(c(9, ones33));
                out.push_back(c(5, ones33));
                out.push_back(c(4, ones_spec(IPT_LOGICAL, 2, 3)));
                out.push_back(c(8, ones_spec(IPT_LOGICAL, 4, 4)));
                out.push_back(c(3, values_spec(IPT_LOGICAL, 3, 5, kDomain3x5, "pattern3x5")));
                out.push_back(c(1, ones_spec(IPT_LOGICAL, 1, 1)));
                out.push_back(c(3, ones_spec(IPT_LOGICAL, 1, 5)));
                out.push_back(c(2, ones_spec(IPT_LOGICAL, 5, 1)));
                CaseSpec s = c(5, ones33);
                s.add(image_arg("S", spec(IPT_DOUBLE, 3, 3, Fill::Random, -2, 2)));
                out.push_back(s);
                out.push_back(make_case({image_arg("A", spec(d, 3, 4)), int_arg("order", 13),
                                         image_arg("domain", ones_spec(IPT_LOGICAL, 5, 5)), text_arg("padopt", pad)}));
            }
            out.push_back(make_case({image_arg("A", spec(d, 63, 65)), int_arg("order", 25),
                                     image_arg("domain", ones_spec(IPT_LOGICAL, 7, 7))}));
        }
    };
    return r;
}

OpRecipe medfilt2_recipe() {
    OpRecipe r;
    r.main = "A";
    r.primary = [](const ImageSpec& a) { return make_case({image_arg("A", a)}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        const std::vector<std::vector<double>> sizes = {{5, 5}, {2, 2}, {4, 3}, {3, 4}, {1, 7}, {7, 1}, {1, 1}, {4, 4}};
        for (ipt_dtype d : kAll) {
            for (const auto& sz : sizes)
                out.push_back(make_case({image_arg("A", spec(d, 17, 23)), floats_arg("size", sz)}));
            for (const char* pad : {"symmetric", "indexed"})
                for (const auto& sz : std::vector<std::vector<double>>{{3, 3}, {2, 2}, {4, 5}})
                    out.push_back(make_case({image_arg("A", spec(d, 17, 23)), floats_arg("size", sz), text_arg("padopt", pad)}));
            // Even windows on few levels: the mean of two middles is often x.5.
            out.push_back(make_case({image_arg("A", spec(d, 17, 23, Fill::Levels, 4)), floats_arg("size", {2, 2})}));
            out.push_back(make_case({image_arg("A", spec(d, 5, 6)), floats_arg("size", {9, 9})}));
        }
        out.push_back(make_case({image_arg("A", spec(IPT_UINT8, 63, 65)), floats_arg("size", {15, 15})}));
        // Images wider and taller than a block of the GPU kernels (network
        // pairs, running histograms), odd widths, both paddings.
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16})
            for (double k : {3.0, 5.0})
                out.push_back(make_case({image_arg("A", spec(d, 70, 131)), floats_arg("size", {k, k}), text_arg("padopt", "symmetric")}));
        for (const char* pad : {"zeros", "symmetric"}) {
            out.push_back(make_case({image_arg("A", spec(IPT_UINT8, 70, 150)), floats_arg("size", {7, 7}), text_arg("padopt", pad)}));
            out.push_back(make_case({image_arg("A", spec(IPT_UINT8, 100, 301)), floats_arg("size", {15, 15}), text_arg("padopt", pad)}));
            out.push_back(make_case({image_arg("A", spec(IPT_UINT8, 70, 150, Fill::Levels, 4)), floats_arg("size", {8, 6}), text_arg("padopt", pad)}));
            out.push_back(make_case({image_arg("A", spec(IPT_UINT8, 40, 37)), floats_arg("size", {16, 16}), text_arg("padopt", pad)}));
        }
        out.push_back(make_case({image_arg("A", spec(IPT_DOUBLE, 63, 65)), floats_arg("size", {6, 11}), text_arg("padopt", "symmetric")}));
    };
    return r;
}

OpRecipe conv2_recipe() {
    OpRecipe r;
    r.main = "A";
    r.lo = -1;
    r.hi = 1;
    r.demo_dtype = IPT_DOUBLE;
    r.primary = [](const ImageSpec& a) {
        return make_case({image_arg("A", a), image_arg("B", spec(a.dtype, 3, 3, Fill::Random, -1, 1))});
    };
    r.options = [](Cases& out, const RecipeOptions& opt) {
        // A large image with a large kernel: the case FFT variants are for.
        CaseSpec big = make_case({image_arg("A", spec(IPT_SINGLE, opt.large_size, opt.large_size, Fill::Random, -1, 1)),
                                  image_arg("B", spec(IPT_SINGLE, 25, 25, Fill::Random, -1, 1)), text_arg("shape", "same")});
        big.large = true;
        out.push_back(big);
        const Shape kernels[] = {{1, 1}, {2, 4}, {3, 3}, {5, 7}, {1, 9}, {9, 1}};
        for (const char* shape : {"full", "same", "valid"}) {
            for (ipt_dtype da : {IPT_SINGLE, IPT_DOUBLE}) {
                for (ipt_dtype db : {IPT_SINGLE, IPT_DOUBLE})
                    for (const Shape& k : kernels)
                        out.push_back(make_case({image_arg("A", spec(da, 17, 23, Fill::Random, -1, 1)),
                                                 image_arg("B", spec(db, k.rows, k.cols, Fill::Random, -1, 1)),
                                                 text_arg("shape", shape)}));
                // A kernel larger than the image ('valid' is then empty).
                out.push_back(make_case({image_arg("A", spec(da, 3, 4, Fill::Random, -1, 1)),
                                         image_arg("B", spec(da, 5, 6, Fill::Random, -1, 1)), text_arg("shape", shape)}));
            }
            // conv2(u, v, A): columns by u, rows by v; either orientation of each vector.
            out.push_back(make_case({image_arg("A", spec(IPT_DOUBLE, 17, 23, Fill::Random, -1, 1)),
                                     image_arg("u", spec(IPT_DOUBLE, 5, 1, Fill::Random, -1, 1)),
                                     image_arg("v", spec(IPT_DOUBLE, 1, 3, Fill::Random, -1, 1)), text_arg("shape", shape)}));
            out.push_back(make_case({image_arg("A", spec(IPT_SINGLE, 17, 23, Fill::Random, -1, 1)),
                                     image_arg("u", spec(IPT_SINGLE, 1, 4, Fill::Random, -1, 1)),
                                     image_arg("v", spec(IPT_SINGLE, 7, 1, Fill::Random, -1, 1)), text_arg("shape", shape)}));
            out.push_back(make_case({image_arg("A", spec(IPT_SINGLE, 17, 23, Fill::Random, -1, 1)),
                                     image_arg("u", spec(IPT_SINGLE, 3, 1, Fill::Random, -1, 1)),
                                     image_arg("v", spec(IPT_DOUBLE, 1, 6, Fill::Random, -1, 1)), text_arg("shape", shape)}));
            out.push_back(make_case({image_arg("A", spec(IPT_DOUBLE, 1, 1, Fill::Random, -1, 1)),
                                     image_arg("u", spec(IPT_DOUBLE, 3, 1, Fill::Random, -1, 1)),
                                     image_arg("v", spec(IPT_DOUBLE, 1, 2, Fill::Random, -1, 1)), text_arg("shape", shape)}));
            // Kernels large enough for FFT variants (which decline small ones):
            // odd and even sides, a kernel larger than A, a long separable pair.
            for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE}) {
                for (const Shape& k : {Shape{17, 17}, Shape{16, 19}})
                    out.push_back(make_case({image_arg("A", spec(d, 63, 65, Fill::Random, -1, 1)),
                                             image_arg("B", spec(d, k.rows, k.cols, Fill::Random, -1, 1)), text_arg("shape", shape)}));
                out.push_back(make_case({image_arg("A", spec(d, 9, 10, Fill::Random, -1, 1)),
                                         image_arg("B", spec(d, 17, 17, Fill::Random, -1, 1)), text_arg("shape", shape)}));
                out.push_back(make_case({image_arg("A", spec(d, 40, 50, Fill::Random, -1, 1)),
                                         image_arg("u", spec(d, 211, 1, Fill::Random, -1, 1)),
                                         image_arg("v", spec(d, 1, 197, Fill::Random, -1, 1)), text_arg("shape", shape)}));
                // Empty operands.
                out.push_back(make_case({image_arg("A", spec(d, 0, 5)), image_arg("B", spec(d, 3, 3, Fill::Random, -1, 1)),
                                         text_arg("shape", shape)}));
                out.push_back(make_case({image_arg("A", spec(d, 4, 5, Fill::Random, -1, 1)), image_arg("B", spec(d, 0, 3)),
                                         text_arg("shape", shape)}));
            }
            // Special values in the kernel.
            for (Fill f : {Fill::NaN, Fill::Inf, Fill::Denormal})
                for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE})
                    out.push_back(make_case({image_arg("A", spec(d, 17, 23, Fill::Random, -1, 1)),
                                             image_arg("B", spec(d, 4, 3, f, -1, 1)), text_arg("shape", shape)}));
            // Square kernels of the GPU's small-kernel path, on images wider
            // and taller than its blocks, with widths that are not whole
            // 16-byte words; a special value in a square kernel.
            for (int k : {3, 5, 7, 9}) {
                out.push_back(make_case({image_arg("A", spec(IPT_SINGLE, 70, 261, Fill::Random, -1, 1)),
                                         image_arg("B", spec(IPT_SINGLE, k, k, Fill::Random, -1, 1)), text_arg("shape", shape)}));
                out.push_back(make_case({image_arg("A", spec(IPT_SINGLE, 33, 128, Fill::Random, -1, 1)),
                                         image_arg("B", spec(IPT_SINGLE, k, k, Fill::Random, -1, 1)), text_arg("shape", shape)}));
            }
            for (Fill f : {Fill::NaN, Fill::Inf})
                for (int k : {3, 7})
                    out.push_back(make_case({image_arg("A", spec(IPT_SINGLE, 40, 150, Fill::Random, -1, 1)),
                                             image_arg("B", spec(IPT_SINGLE, k, k, f, -1, 1)), text_arg("shape", shape)}));
        }
    };
    return r;
}

OpRecipe imfilter_recipe() {
    OpRecipe r;
    r.main = "A";
    r.primary = [](const ImageSpec& a) {
        return make_case({image_arg("A", a), image_arg("h", spec(IPT_DOUBLE, 3, 3, Fill::Random, -0.2, 0.4))});
    };
    r.options = [](Cases& out, const RecipeOptions&) {
        const char* boundaries[] = {"constant", "symmetric", "replicate", "circular"};
        for (ipt_dtype d : {IPT_UINT8, IPT_DOUBLE, IPT_SINGLE, IPT_INT16}) {
            const ImageSpec a = spec(d, 17, 23);
            for (const char* b : boundaries) {
                for (const char* o : {"same", "full"}) {
                    for (const char* m : {"corr", "conv"}) {
                        out.push_back(make_case({image_arg("A", a), image_arg("h", spec(IPT_DOUBLE, 3, 5, Fill::Random, -1, 1)),
                                                 text_arg("boundary", b), text_arg("output", o), text_arg("mode", m)}));
                    }
                    // Even kernel: origin floor((size+1)/2).
                    out.push_back(make_case({image_arg("A", a), image_arg("h", spec(IPT_DOUBLE, 2, 4, Fill::Random, -1, 1)),
                                             text_arg("boundary", b), text_arg("output", o)}));
                    // Kernel larger than the image: padding reaches past one mirror.
                    out.push_back(make_case({image_arg("A", spec(d, 3, 4)), image_arg("h", spec(IPT_DOUBLE, 5, 7, Fill::Random, -1, 1)),
                                             text_arg("boundary", b), text_arg("output", o), text_arg("mode", "conv")}));
                }
            }
            for (double x : {3.5, -2.0, 1e6})
                out.push_back(make_case({image_arg("A", a), image_arg("h", spec(IPT_DOUBLE, 3, 3, Fill::Random, -1, 1)),
                                         text_arg("boundary", "constant"), float_arg("X", x)}));
            out.push_back(make_case({image_arg("A", a), image_arg("h", spec(IPT_SINGLE, 3, 3, Fill::Random, -1, 1))}));
            // Halves: .5 ties of both signs; saturation at both ends.
            out.push_back(make_case({image_arg("A", a), image_arg("h", values_spec(IPT_DOUBLE, 1, 1, {0.5}, "[0.5]"))}));
            out.push_back(make_case({image_arg("A", a), image_arg("h", values_spec(IPT_DOUBLE, 1, 1, {-0.5}, "[-0.5]"))}));
            out.push_back(make_case({image_arg("A", a), image_arg("h", values_spec(IPT_DOUBLE, 1, 2, {0.5, 0.5}, "[0.5 0.5]"))}));
            out.push_back(make_case({image_arg("A", a), image_arg("h", values_spec(IPT_DOUBLE, 3, 3, std::vector<double>(9, 2.0), "2*ones3x3"))}));
            out.push_back(make_case({image_arg("A", a), image_arg("h", values_spec(IPT_DOUBLE, 3, 3, std::vector<double>(9, -1.0), "-ones3x3"))}));
        }
        for (ipt_dtype d : {IPT_LOGICAL, IPT_UINT16, IPT_INT32, IPT_UINT32})
            for (const char* b : boundaries)
                out.push_back(make_case({image_arg("A", spec(d, 17, 23)), image_arg("h", spec(IPT_DOUBLE, 3, 3, Fill::Random, -0.5, 1.5)),
                                         text_arg("boundary", b)}));
        for (Fill f : {Fill::NaN, Fill::Inf, Fill::Denormal, Fill::Extreme})
            out.push_back(make_case({image_arg("A", spec(IPT_DOUBLE, 17, 23)), image_arg("h", spec(IPT_DOUBLE, 3, 3, f))}));
        // Inf and NaN in a single image under kernels with zero taps: a zero
        // tap must not turn them into NaN (MATLAB skips zero taps), on images
        // spanning several blocks of the GPU's small-kernel path.
        const std::vector<double> cross5 = {0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 1, 2, -4, 2, 1, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0};
        for (Fill f : {Fill::NaN, Fill::Inf}) {
            out.push_back(make_case({image_arg("A", spec(IPT_SINGLE, 70, 300, f)), image_arg("h", values_spec(IPT_DOUBLE, 5, 5, cross5, "cross5x5"))}));
            out.push_back(make_case({image_arg("A", spec(IPT_SINGLE, 70, 300, f)), image_arg("h", values_spec(IPT_DOUBLE, 3, 3, {0, 1, 0, 1, -4, 1, 0, 1, 0}, "laplacian3x3")),
                                     text_arg("boundary", "replicate")}));
        }
        for (int k : {3, 5, 7, 9})
            out.push_back(make_case({image_arg("A", spec(IPT_SINGLE, 70, 261)), image_arg("h", spec(IPT_DOUBLE, k, k, Fill::Random, -1, 1)),
                                     text_arg("boundary", "symmetric")}));
        // Integer taps: sums exact in single when the taps' total weight
        // times the class's largest magnitude stays below 2^24 (Prewitt on
        // uint8, Sobel on uint16, a Laplacian on int16), and past it.
        const std::vector<double> prewitt = {1, 0, -1, 1, 0, -1, 1, 0, -1}, sobel = {1, 2, 1, 0, 0, 0, -1, -2, -1};
        for (const char* b : {"replicate", "symmetric"}) {
            out.push_back(make_case({image_arg("A", spec(IPT_UINT8, 70, 261)), image_arg("h", values_spec(IPT_DOUBLE, 3, 3, prewitt, "prewitt")),
                                     text_arg("boundary", b)}));
            out.push_back(make_case({image_arg("A", spec(IPT_UINT16, 70, 261)), image_arg("h", values_spec(IPT_DOUBLE, 3, 3, sobel, "sobel")),
                                     text_arg("boundary", b)}));
            out.push_back(make_case({image_arg("A", spec(IPT_INT16, 70, 261)), image_arg("h", values_spec(IPT_DOUBLE, 3, 3, {0, 1, 0, 1, -4, 1, 0, 1, 0}, "laplacian3x3")),
                                     text_arg("boundary", b)}));
            out.push_back(make_case({image_arg("A", spec(IPT_UINT16, 70, 261)), image_arg("h", values_spec(IPT_DOUBLE, 3, 3, std::vector<double>(9, 300.0), "300*ones3x3")),
                                     text_arg("boundary", b)}));
            out.push_back(make_case({image_arg("A", spec(IPT_UINT8, 70, 261)), image_arg("h", values_spec(IPT_DOUBLE, 5, 5, cross5, "cross5x5")),
                                     text_arg("boundary", b)}));
        }
        // Overflow whatever the seed: at realmax, each kernel row's sum (0.75,
        // 0.9, -0.9 realmax) is finite and the first two rows' total is not.
        // In single that is Inf (MATLAB and the reference filter single in
        // single); a wider accumulator would give 0.75 realmax. Not rank 1, so
        // no separable route changes the order.
        const std::vector<double> rows_overflow = {0.2, 0.3, 0.25, 0.3, 0.3, 0.3, -0.3, -0.3, -0.3};
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE})
            for (Fill f : {Fill::Max, Fill::Min})
                out.push_back(make_case({image_arg("A", spec(d, 17, 23, f)),
                                         image_arg("h", values_spec(IPT_DOUBLE, 3, 3, rows_overflow, "rows-overflow"))}));
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE})
            out.push_back(make_case({image_arg("A", spec(d, 17, 23, Fill::Denormal)), image_arg("h", spec(IPT_DOUBLE, 3, 3, Fill::Denormal))}));
        // Large kernels (FFT variants decline small ones).
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE, IPT_UINT8})
            for (const char* b : {"constant", "symmetric", "circular"})
                out.push_back(make_case({image_arg("A", spec(d, 63, 65)), image_arg("h", spec(IPT_DOUBLE, 17, 16, Fill::Random, -0.1, 0.2)),
                                         text_arg("boundary", b)}));
    };
    return r;
}

OpRecipe fspecial_recipe() {
    OpRecipe r;
    r.primary = [](const ImageSpec&) {
        return make_case({text_arg("type", "gaussian"), floats_arg("hsize", {15}), float_arg("sigma", 3)});
    };
    r.options = [](Cases& out, const RecipeOptions&) {
        auto t = [](const char* type) { return make_case({text_arg("type", type)}); };
        for (const char* type : {"average", "disk", "gaussian", "laplacian", "log", "motion", "prewitt", "sobel", "unsharp"})
            out.push_back(t(type));
        for (const std::vector<double>& hs : std::vector<std::vector<double>>{{1}, {5}, {3, 7}, {1, 4}, {8}})
            out.push_back(t("average").add(floats_arg("hsize", hs)));
        for (double rad : {0.5, 1.0, 2.5, 3.0, 7.2, 10.0})
            out.push_back(t("disk").add(float_arg("radius", rad)));
        CaseSpec disk0 = t("disk").add(float_arg("radius", 0));  // MATLAB: radius must be positive
        disk0.expect_error = true;
        out.push_back(disk0);
        for (const std::vector<double>& hs : std::vector<std::vector<double>>{{1}, {5, 7}, {9}, {4}})
            for (double s : {0.1, 0.5, 1.2, 2.0, 30.0})
                out.push_back(t("gaussian").add(floats_arg("hsize", hs)).add(float_arg("sigma", s)));
        for (double a : {0.0, 0.5, 1.0, 0.123})
            out.push_back(t("laplacian").add(float_arg("alpha", a)));
        for (const std::vector<double>& hs : std::vector<std::vector<double>>{{7}, {5, 9}, {1}, {4}})
            for (double s : {0.5, 1.0, 1.5})
                out.push_back(t("log").add(floats_arg("hsize", hs)).add(float_arg("sigma", s)));
        for (double len : {1.0, 2.0, 5.0, 9.5, 12.0, 15.0})
            for (double th : {0.0, 30.0, 45.0, 90.0, -60.0, 135.0, 400.0})
                out.push_back(t("motion").add(float_arg("len", len)).add(float_arg("theta", th)));
        for (double a : {0.0, 0.7, 1.0})
            out.push_back(t("unsharp").add(float_arg("alpha", a)));
    };
    return r;
}

OpRecipe mean2_recipe() {
    OpRecipe r;
    r.main = "A";
    r.primary = [](const ImageSpec& a) { return make_case({image_arg("A", a)}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_SINGLE, IPT_DOUBLE}) {
            out.push_back(make_case({image_arg("A", every_value(d))}));
            out.push_back(make_case({image_arg("A", every_value(d, 3))}));
        }
    };
    return r;
}

OpRecipe strel_recipe() {
    OpRecipe r;
    r.primary = [](const ImageSpec&) { return make_case({text_arg("shape", "disk"), int_arg("r", 10)}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        auto s = [](const char* shape) { return make_case({text_arg("shape", shape)}); };
        for (int64_t w : {1, 2, 3, 4, 7}) out.push_back(s("square").add(int_arg("w", w)));
        for (const auto& sz : std::vector<std::vector<double>>{{2, 5}, {1, 1}, {4, 1}, {1, 6}, {3, 3}})
            out.push_back(s("rectangle").add(floats_arg("size", sz)));
        for (int64_t rad : {0, 1, 2, 3, 5}) out.push_back(s("diamond").add(int_arg("r", rad)));
        for (int64_t rad : {0, 3, 6, 9}) out.push_back(s("octagon").add(int_arg("r", rad)));
        for (double len : {1.0, 2.0, 7.0, 9.5, 10.0})
            for (double deg : {0.0, 30.0, 45.0, 90.0, -20.0, 135.0, 17.0, 180.0, 400.0})
                out.push_back(s("line").add(float_arg("len", len)).add(float_arg("deg", deg)));
        for (int64_t rad : {1, 2, 3, 4, 5, 7, 10})
            for (int64_t n : {0, 4, 6, 8}) out.push_back(s("disk").add(int_arg("r", rad)).add(int_arg("n", n)));
        out.push_back(s("disk").add(int_arg("r", 5)));
        for (const auto& pv : std::vector<std::pair<int64_t, std::vector<double>>>{
                 {2, {1, 2}}, {0, {1, 1}}, {3, {-2, 1}}, {1, {0, 3}}, {2, {2, 0}}})
            out.push_back(s("periodicline").add(int_arg("P", pv.first)).add(floats_arg("V", pv.second)));
        out.push_back(s("arbitrary").add(image_arg("nhood_in", spec(IPT_LOGICAL, 5, 5, Fill::Density, 0.5))));
        out.push_back(s("arbitrary").add(image_arg("nhood_in", spec(IPT_LOGICAL, 4, 6, Fill::Density, 0.5))));
        out.push_back(s("arbitrary").add(image_arg("nhood_in", values_spec(IPT_LOGICAL, 3, 5, kDomain3x5, "pattern3x5"))));
        out.push_back(s("square").add(int_arg("w", 3)).without_optional_outputs());
        out.push_back(s("disk").add(int_arg("r", 7)).without_optional_outputs());
        // Checks no catalogue flag expresses: the implementation must reject them.
        CaseSpec octagon4 = s("octagon").add(int_arg("r", 4));
        octagon4.expect_error = true;
        out.push_back(octagon4);
        CaseSpec square_no_w = s("square");
        square_no_w.expect_error = true;
        out.push_back(square_no_w);
    };
    return r;
}

OpRecipe morphology_recipe() {
    OpRecipe r;
    r.main = "A";
    r.primary = [](const ImageSpec& a) {
        return make_case({image_arg("A", a), image_arg("nhood", ones_spec(IPT_LOGICAL, 3, 3))});
    };
    r.options = [](Cases& out, const RecipeOptions& opt) {
        const std::vector<ImageSpec> nhoods = {
            ones_spec(IPT_LOGICAL, 2, 4),
            ones_spec(IPT_LOGICAL, 1, 5),
            ones_spec(IPT_LOGICAL, 5, 1),
            values_spec(IPT_LOGICAL, 3, 3, {0, 1, 0, 1, 1, 1, 0, 1, 0}, "diamond3x3"),
            values_spec(IPT_LOGICAL, 3, 5, kDomain3x5, "pattern3x5"),
            ones_spec(IPT_LOGICAL, 1, 1),
            values_spec(IPT_LOGICAL, 1, 3, {1, 0, 0}, "[1 0 0]"),  // origin not a member
        };
        for (ipt_dtype d : {IPT_UINT8, IPT_DOUBLE, IPT_LOGICAL, IPT_INT16, IPT_SINGLE, IPT_UINT32, IPT_UINT16, IPT_INT32}) {
            for (const ImageSpec& n : nhoods)
                out.push_back(make_case({image_arg("A", spec(d, 17, 23)), image_arg("nhood", n)}));
            out.push_back(make_case({image_arg("A", spec(d, 5, 6)), image_arg("nhood", ones_spec(IPT_LOGICAL, 9, 9))}));
            out.push_back(make_case({image_arg("A", spec(d, 17, 23)), image_arg("nhood", values_spec(IPT_LOGICAL, 3, 3, std::vector<double>(9, 0.0), "none3x3"))}));
            if (d != IPT_LOGICAL) {
                out.push_back(make_case({image_arg("A", spec(d, 17, 23)), image_arg("nhood", ones_spec(IPT_LOGICAL, 3, 3)),
                                         image_arg("heights", spec(IPT_DOUBLE, 3, 3, Fill::Random, 0, 5))}));
                out.push_back(make_case({image_arg("A", spec(d, 17, 23)), image_arg("nhood", values_spec(IPT_LOGICAL, 3, 5, kDomain3x5, "pattern3x5")),
                                         image_arg("heights", spec(IPT_DOUBLE, 3, 5, Fill::Random, -3, 3))}));
            }
        }
        // Wider than a 128-column block of the GPU's one-byte rectangle
        // kernel, widths with and without whole 4-byte words.
        for (ipt_dtype d : {IPT_UINT8, IPT_LOGICAL})
            for (const Shape& s : {Shape{67, 301}, Shape{64, 256}})
                for (const ImageSpec& n : {ones_spec(IPT_LOGICAL, 15, 15), ones_spec(IPT_LOGICAL, 2, 4), ones_spec(IPT_LOGICAL, 1, 9)})
                    out.push_back(make_case({image_arg("A", spec(d, s.rows, s.cols)), image_arg("nhood", n)}));
        for (double density : {0.001, 0.5, 0.999})
            out.push_back(make_case({image_arg("A", spec(IPT_LOGICAL, 67, 61, Fill::Density, density)),
                                     image_arg("nhood", values_spec(IPT_LOGICAL, 3, 5, kDomain3x5, "pattern3x5"))}));
        CaseSpec big = make_case({image_arg("A", spec(IPT_LOGICAL, opt.large_size, opt.large_size, Fill::Density, 0.5)),
                                  image_arg("nhood", ones_spec(IPT_LOGICAL, 5, 5))});
        big.large = true;
        out.push_back(big);
    };
    return r;
}

OpRecipe bwdist_recipe() {
    OpRecipe r;
    r.main = "BW";
    r.random_fill = Fill::Density;  // features must be sparse for distances to mean anything
    r.lo = 0.05;
    r.demo_dtype = IPT_LOGICAL;
    r.primary = [](const ImageSpec& bw) { return make_case({image_arg("BW", bw)}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        std::vector<double> one(63 * 65, 0.0);
        one[31 * 65 + 20] = 1;
        std::vector<double> two(5 * 5, 0.0);  // MATLAB's example: ties on the anti-diagonal
        two[1 * 5 + 1] = 1;
        two[3 * 5 + 3] = 1;
        for (const char* m : {"euclidean", "cityblock", "chessboard", "quasi-euclidean"}) {
            auto c = [&](const ImageSpec& bw) { return make_case({image_arg("BW", bw), text_arg("method", m)}); };
            for (double density : {0.001, 0.05, 0.5, 0.999})
                out.push_back(c(spec(IPT_LOGICAL, 64, 64, Fill::Density, density)));
            for (const Shape& s : kShapes) out.push_back(c(spec(IPT_LOGICAL, s.rows, s.cols, Fill::Density, 0.05)));
            out.push_back(c(spec(IPT_LOGICAL, 1, 1, Fill::Max)));
            out.push_back(c(values_spec(IPT_LOGICAL, 63, 65, one, "one-pixel")));
            out.push_back(c(values_spec(IPT_LOGICAL, 5, 5, two, "matlab-example")));
            out.push_back(c(spec(IPT_LOGICAL, 17, 23, Fill::Zero)));
            out.push_back(c(spec(IPT_UINT8, 63, 65, Fill::Density, 0.02)));
            out.push_back(c(spec(IPT_DOUBLE, 63, 65, Fill::Density, 0.02)));
            out.push_back(c(spec(IPT_DOUBLE, 63, 65, Fill::NaN)));
            out.push_back(c(spec(IPT_LOGICAL, 63, 65, Fill::Density, 0.05)).without_optional_outputs());
        }
    };
    return r;
}

OpRecipe radon_recipe() {
    OpRecipe r;
    r.main = "I";
    r.demo_dtype = IPT_DOUBLE;
    r.primary = [](const ImageSpec& i) {
        CaseSpec c = make_case({image_arg("I", i)});
        // The default 180 angles on a 2048^2 image take minutes on a CPU.
        if (i.rows * i.cols > 512 * 512) c.add(floats_arg("theta", range(0, 15, 179)));
        return c;
    };
    r.options = [](Cases& out, const RecipeOptions&) {
        const std::vector<double> odd = {0, 30, 45, 60, 90, 135, 180, 270, -45, 360.5, 1e-7, 89.99};
        for (ipt_dtype d : {IPT_DOUBLE, IPT_UINT8, IPT_LOGICAL, IPT_SINGLE, IPT_INT16}) {
            out.push_back(make_case({image_arg("I", spec(d, 17, 23)), floats_arg("theta", {45})}));
            out.push_back(make_case({image_arg("I", spec(d, 17, 23)), floats_arg("theta", odd)}));
            out.push_back(make_case({image_arg("I", spec(d, 64, 63)), floats_arg("theta", odd)}));
        }
        out.push_back(make_case({image_arg("I", spec(IPT_DOUBLE, 31, 17)), floats_arg("theta", range(-360, 37.3, 360))}));
        out.push_back(make_case({image_arg("I", spec(IPT_DOUBLE, 17, 23, Fill::Random, -5, 5))}));
        out.push_back(make_case({image_arg("I", spec(IPT_DOUBLE, 2, 2, Fill::Max)), floats_arg("theta", {30})}));
        out.push_back(make_case({image_arg("I", spec(IPT_DOUBLE, 17, 23))}).without_optional_outputs());
    };
    return r;
}

OpRecipe dither_recipe() {
    OpRecipe r;
    r.main = "I";
    r.demo_dtype = IPT_UINT8;
    r.primary = [](const ImageSpec& i) {
        CaseSpec c = make_case({image_arg("I", i)});
        if (i.channels == 3) c.add(image_arg("map", spec(IPT_DOUBLE, 8, 3)));
        return c;
    };
    r.options = [](Cases& out, const RecipeOptions&) {
        auto rgb = [](ipt_dtype d, int64_t rows, int64_t cols, Fill f = Fill::Random, double lo = 0, double hi = 0) {
            ImageSpec s = spec(d, rows, cols, f, lo, hi);
            s.channels = 3;
            return s;
        };
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_SINGLE, IPT_DOUBLE}) {
            for (int64_t colours : {1, 2, 16, 256, 300})
                out.push_back(make_case({image_arg("I", rgb(d, 17, 23)), image_arg("map", spec(IPT_DOUBLE, colours, 3))}));
            for (const auto& q : std::vector<std::pair<int64_t, int64_t>>{{4, 6}, {6, 10}, {1, 1}, {8, 8}, {5, 5}, {3, 16}})
                out.push_back(make_case({image_arg("I", rgb(d, 17, 23)), image_arg("map", spec(IPT_DOUBLE, 16, 3)),
                                         int_arg("Qm", q.first), int_arg("Qe", q.second)}));
            out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Synthetic))}));
            out.push_back(make_case({image_arg("I", rgb(d, 63, 65, Fill::Synthetic)), image_arg("map", spec(IPT_DOUBLE, 32, 3))}));
        }
        // Equal colours: ties go to the lowest index.
        out.push_back(make_case({image_arg("I", rgb(IPT_UINT8, 17, 23)),
                                 image_arg("map", values_spec(IPT_DOUBLE, 4, 3, {0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1}, "repeated"))}));
        out.push_back(make_case({image_arg("I", spec(IPT_DOUBLE, 63, 65, Fill::Random, -0.2, 1.2))}));
        out.push_back(make_case({image_arg("I", rgb(IPT_DOUBLE, 17, 23, Fill::Random, -0.2, 1.2)), image_arg("map", spec(IPT_DOUBLE, 8, 3))}));
        out.push_back(make_case({image_arg("I", spec(IPT_UINT8, 63, 65, Fill::Levels, 3))}));
    };
    return r;
}

// ---- image class conversions: im2double, im2single, im2uint8, im2uint16, im2int16 ----

// Every value of each integer class; floating values k/255 (MATLAB's uint8
// points), multiples of 1/1024 and 1/256 from below 0 to above 1 (the .5
// ties of round(255*x) and round(65535*x), saturation at both ends), and a
// random spread past [0, 1].
OpRecipe im2class_recipe() {
    OpRecipe r;
    r.main = "I";
    r.primary = [](const ImageSpec& i) { return make_case({image_arg("I", i)}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_SINGLE, IPT_DOUBLE}) {
            out.push_back(make_case({image_arg("I", every_value(d))}));
            out.push_back(make_case({image_arg("I", every_value(d, 3))}));
        }
        out.push_back(make_case({image_arg("I", spec(IPT_LOGICAL, 63, 65))}));
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE}) {
            std::vector<double> v;
            for (int m = -300; m <= 1400; ++m) v.push_back(m / 1024.0);
            out.push_back(make_case({image_arg("I", values_spec(d, 1, int64_t(v.size()), v, "m/1024"))}));
            v.clear();
            for (int m = -64; m <= 320; ++m) v.push_back(m / 256.0);
            out.push_back(make_case({image_arg("I", values_spec(d, int64_t(v.size()), 1, v, "m/256"))}));
            out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Random, -0.25, 1.25))}));
        }
    };
    return r;
}

// ---- intensity conversions: imcomplement, mat2gray, rgb2gray ---------------

OpRecipe imcomplement_recipe() {
    OpRecipe r;
    r.main = "I";
    r.primary = [](const ImageSpec& i) { return make_case({image_arg("I", i)}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        // Every value of the small integer classes, as one plane and as RGB.
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_SINGLE, IPT_DOUBLE}) {
            out.push_back(make_case({image_arg("I", every_value(d))}));
            out.push_back(make_case({image_arg("I", every_value(d, 3))}));
        }
        // Floats outside [0,1] are not clipped.
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE})
            out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Random, -3, 4))}));
        // Sizes that are not a multiple of 4 bytes (element-wise, not word-wise, on some paths).
        for (ipt_dtype d : {IPT_UINT8, IPT_LOGICAL, IPT_INT16})
            for (int64_t cols : {1, 2, 3, 5, 7})
                out.push_back(make_case({image_arg("I", spec(d, 1, cols))}));
    };
    return r;
}

OpRecipe mat2gray_recipe() {
    OpRecipe r;
    r.main = "A";
    r.lo = -50;
    r.hi = 200;
    r.primary = [](const ImageSpec& a) { return make_case({image_arg("A", a)}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        const std::vector<std::vector<double>> limits = {{0, 1},   {0.25, 0.75}, {20, 150}, {150, 20},
                                                         {-1e4, 0}, {3, 3},       {0, 1e300}, {-1, 65535}};
        for (ipt_dtype d : kAll) {
            for (const auto& l : limits)
                out.push_back(make_case({image_arg("A", spec(d, 17, 23)), floats_arg("limits", l)}));
            out.push_back(make_case({image_arg("A", spec(d, 63, 65, Fill::Constant))}));
            out.push_back(make_case({image_arg("A", spec(d, 63, 65, Fill::Levels, 3))}));
            ImageSpec rgb = spec(d, 17, 23, Fill::Random);
            rgb.channels = 3;
            out.push_back(make_case({image_arg("A", rgb), floats_arg("limits", {10, 100})}));
        }
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16}) out.push_back(make_case({image_arg("A", every_value(d))}));
        // Floats: NaN and Inf among the elements, and one NaN limit.
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE}) {
            for (Fill f : {Fill::NaN, Fill::Inf, Fill::Extreme, Fill::Denormal}) {
                out.push_back(make_case({image_arg("A", spec(d, 63, 65, f))}));
                out.push_back(make_case({image_arg("A", spec(d, 63, 65, f)), floats_arg("limits", {0.2, 0.8})}));
            }
            out.push_back(make_case({image_arg("A", values_spec(d, 1, 3, {NAN, NAN, NAN}, "all NaN"))}));
            out.push_back(make_case({image_arg("A", spec(d, 17, 23)), floats_arg("limits", {NAN, 1})}));
        }
    };
    return r;
}

OpRecipe rgb2gray_recipe() {
    OpRecipe r;
    r.main = "RGB";
    r.demo_channels = 3;
    // rgb2gray takes m x n x 3 only: the sweep's one-plane images must be
    // refused, and the options repeat its shapes and special images with
    // three planes.
    r.primary = [](const ImageSpec& rgb) {
        CaseSpec c = make_case({image_arg("RGB", rgb)});
        c.expect_error = rgb.channels != 3;
        return c;
    };
    r.options = [](Cases& out, const RecipeOptions& opt) {
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_SINGLE, IPT_DOUBLE}) {
            for (const Shape& s : kShapes) {
                ImageSpec rgb = spec(d, s.rows, s.cols);
                rgb.channels = 3;
                out.push_back(make_case({image_arg("RGB", rgb)}));
            }
            for (const ImageSpec& special : special_specs(d, kSpecialShape.rows, kSpecialShape.cols, 3))
                out.push_back(make_case({image_arg("RGB", special)}));
            ImageSpec large = spec(d, opt.large_size, opt.large_size);
            large.channels = 3;
            CaseSpec big = make_case({image_arg("RGB", large)});
            big.large = true;
            out.push_back(big);
            // Every value in every plane (greys and, between planes, colours).
            out.push_back(make_case({image_arg("RGB", every_value(d, 3))}));
            ImageSpec synthetic = spec(d, 63, 65, Fill::Synthetic);
            synthetic.channels = 3;
            out.push_back(make_case({image_arg("RGB", synthetic)}));
        }
        // Floats outside [0,1] are not clipped.
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE}) {
            ImageSpec wide = spec(d, 17, 23, Fill::Random, -2, 3);
            wide.channels = 3;
            out.push_back(make_case({image_arg("RGB", wide)}));
        }
    };
    return r;
}

// ---- colour spaces: rgb2hsv, hsv2rgb, rgb2ycbcr, ycbcr2rgb -----------------

// Every sweep image as m x n x 3 (a one-channel image is not a colour image);
// options add c x 3 colormaps, levels that make the channels tie, and values
// outside [0, 1].
OpRecipe colour_recipe(const std::string& in, std::vector<ipt_dtype> classes, bool maps_double_only,
                       double lo, double hi) {
    OpRecipe r;
    r.main = in;
    r.demo_dtype = classes.front();
    r.primary = [in](const ImageSpec& a) {
        ImageSpec s = a;
        s.channels = 3;
        return make_case({image_arg(in, s)});
    };
    r.options = [=](Cases& out, const RecipeOptions&) {
        auto rgb = [](ipt_dtype d, int64_t rows, int64_t cols, Fill f = Fill::Random, double a = 0, double b = 0) {
            ImageSpec s = spec(d, rows, cols, f, a, b);
            s.channels = 3;
            return s;
        };
        for (ipt_dtype d : classes) {
            if (!maps_double_only || d == IPT_DOUBLE) {
                out.push_back(make_case({image_arg(in, spec(d, 64, 3))}));
                out.push_back(make_case({image_arg(in, spec(d, 1, 3))}));
                out.push_back(make_case({image_arg(in, spec(d, 0, 3))}));
            }
            // Two or three levels per channel: ties between channels, greys, black.
            out.push_back(make_case({image_arg(in, rgb(d, 17, 23, Fill::Levels, 2))}));
            out.push_back(make_case({image_arg(in, rgb(d, 63, 65, Fill::Levels, 3))}));
            out.push_back(make_case({image_arg(in, rgb(d, 63, 65, Fill::Levels, 7))}));
            if (d == IPT_UINT8 || d == IPT_UINT16) out.push_back(make_case({image_arg(in, every_value(d, 3))}));
            if (d == IPT_SINGLE || d == IPT_DOUBLE) {
                out.push_back(make_case({image_arg(in, rgb(d, 63, 65, Fill::Random, lo, hi))}));
                out.push_back(make_case({image_arg(in, every_value(d, 3))}));
            }
        }
    };
    return r;
}

OpRecipe rgb2hsv_recipe() {
    return colour_recipe("RGB", {IPT_UINT8, IPT_UINT16, IPT_SINGLE, IPT_DOUBLE}, true, -0.25, 1.25);
}

OpRecipe hsv2rgb_recipe() {
    OpRecipe r = colour_recipe("HSV", {IPT_DOUBLE, IPT_SINGLE, IPT_LOGICAL}, false, -0.25, 1.25);
    const auto base = r.options;
    r.options = [base](Cases& out, const RecipeOptions& o) {
        base(out, o);
        // Hue at the sextant edges k/6 (and 1) with several saturations and values.
        for (ipt_dtype d : {IPT_DOUBLE, IPT_SINGLE}) {
            std::vector<double> h, s, v;
            for (int k = 0; k <= 12; ++k)
                for (double sat : {0.0, 0.5, 1.0}) {
                    h.push_back(k / 12.0);
                    s.push_back(sat);
                    v.push_back(0.75);
                }
            std::vector<double> all = h;
            all.insert(all.end(), s.begin(), s.end());
            all.insert(all.end(), v.begin(), v.end());
            ImageSpec e = spec(d, 1, static_cast<int64_t>(h.size()), Fill::Values);
            e.values = std::move(all);
            e.tag = "sextant edges";
            e.channels = 3;
            out.push_back(make_case({image_arg("HSV", e)}));
        }
    };
    return r;
}

OpRecipe rgb2ycbcr_recipe() {
    return colour_recipe("RGB", {IPT_UINT8, IPT_UINT16, IPT_SINGLE, IPT_DOUBLE}, false, -0.25, 1.25);
}

OpRecipe ycbcr2rgb_recipe() {
    return colour_recipe("YCBCR", {IPT_UINT8, IPT_UINT16, IPT_SINGLE, IPT_DOUBLE}, false, -0.25, 1.25);
}

// ---- geometric transformations: imresize -----------------------------------

struct ImresizeLarge {
    int64_t rows, cols;
    std::vector<double> scale;
    const char* method;
};

OpRecipe imresize_recipe() {
    OpRecipe r;
    r.main = "A";
    // The sweep shrinks by 0.6 with the default bicubic kernel and antialiasing.
    r.primary = [](const ImageSpec& a) { return make_case({image_arg("A", a), floats_arg("Scale", {0.6})}); };
    r.options = [](Cases& out, const RecipeOptions& opt) {
        const char* methods[] = {"nearest", "bilinear", "bicubic", "box", "triangle", "cubic", "lanczos2", "lanczos3"};
        const std::vector<std::vector<double>> scales = {{0.5}, {2}, {0.37}, {1.7, 0.6}, {0.45, 3}, {1, 0.25}};
        for (ipt_dtype d : kAll) {
            for (const char* m : methods) {
                for (const auto& sc : scales)
                    out.push_back(make_case({image_arg("A", spec(d, 17, 23)), floats_arg("Scale", sc), text_arg("method", m)}));
                for (int aa : {0, 1})
                    out.push_back(make_case({image_arg("A", spec(d, 31, 29)), floats_arg("Scale", {0.3, 0.55}),
                                             text_arg("method", m), int_arg("Antialiasing", aa)}));
            }
            for (const Shape& s : kShapes) {
                out.push_back(make_case({image_arg("A", spec(d, s.rows, s.cols)), floats_arg("Scale", {2.5})}));
                out.push_back(make_case({image_arg("A", spec(d, s.rows, s.cols)), floats_arg("OutputSize", {5, 7}),
                                         text_arg("method", "bilinear")}));
            }
            ImageSpec rgb = spec(d, 40, 37);
            rgb.channels = 3;
            out.push_back(make_case({image_arg("A", rgb), floats_arg("OutputSize", {NAN, 25}), text_arg("method", "lanczos3")}));
            out.push_back(make_case({image_arg("A", rgb), floats_arg("OutputSize", {64, NAN})}));
            // Any number of planes, each resized alike.
            for (int64_t planes : {2, 4}) {
                ImageSpec a = spec(d, 31, 29);
                a.channels = planes;
                out.push_back(make_case({image_arg("A", a), floats_arg("Scale", {0.45, 1.6}), text_arg("method", "bilinear")}));
                out.push_back(make_case({image_arg("A", a), floats_arg("Scale", {2}), text_arg("method", "nearest")}));
            }
            // Plateaus and extremes: saturation where the kernels overshoot.
            out.push_back(make_case({image_arg("A", spec(d, 63, 65, Fill::Levels, 2)), floats_arg("Scale", {1.5})}));
            out.push_back(make_case({image_arg("A", spec(d, 17, 23, Fill::Max)), floats_arg("Scale", {0.7, 1.3})}));
        }
        // Every value of the small classes, enlarged and shrunk.
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16}) {
            out.push_back(make_case({image_arg("A", every_value(d)), floats_arg("Scale", {1.5}), text_arg("method", "bilinear")}));
            out.push_back(make_case({image_arg("A", every_value(d, 3)), floats_arg("Scale", {0.5})}));
        }
        // The large cases: shrinking and enlarging a 2048 x 2048 image (--quick: 256).
        const int64_t n = opt.large_size;
        for (ipt_dtype d : {IPT_UINT8, IPT_SINGLE, IPT_DOUBLE}) {
            CaseSpec up = make_case({image_arg("A", spec(d, n, n)), floats_arg("Scale", {1.5}), text_arg("method", "bilinear")});
            up.large = true;
            out.push_back(up);
            CaseSpec down = make_case({image_arg("A", spec(d, n, n)), floats_arg("OutputSize", {double(n / 3), NAN}),
                                       text_arg("method", "lanczos3")});
            down.large = true;
            out.push_back(down);
        }
        // uint8 sums taken in single first: power-of-two scales, whose dyadic
        // weights make every sum exact (ties included), and a scale whose
        // weights are not, where sums near a half-integer go the double way;
        // widths a multiple of 4 and not.
        for (const ImresizeLarge& c : {ImresizeLarge{n, n, {2}, "bilinear"}, ImresizeLarge{n, n, {0.5}, "bicubic"},
                                       ImresizeLarge{n, n + 3, {0.73}, "bicubic"}, ImresizeLarge{n + 1, n - 2, {1.37, 0.81}, "bilinear"}}) {
            CaseSpec u8 = make_case({image_arg("A", spec(IPT_UINT8, c.rows, c.cols)), floats_arg("Scale", c.scale),
                                     text_arg("method", c.method)});
            u8.large = true;
            out.push_back(u8);
        }
        // uint8 at power-of-two scales, whose weights are small integers over
        // a power of two: widths a multiple of 4, odd heights, the folded
        // borders' taps, one and three planes, both dimensions' orders.
        for (const char* m : {"bilinear", "bicubic", "box"})
            for (const std::vector<double>& sc : {std::vector<double>{0.5}, {2}, {0.25}, {4}, {0.5, 2}, {2, 0.5}})
                for (int64_t planes : {1, 3}) {
                    ImageSpec a = spec(IPT_UINT8, 23, 36);
                    a.channels = planes;
                    out.push_back(make_case({image_arg("A", a), floats_arg("Scale", sc), text_arg("method", m)}));
                }
        out.push_back(make_case({image_arg("A", spec(IPT_UINT8, 9, 4, Fill::Max)), floats_arg("Scale", {0.5}),
                                 text_arg("method", "bicubic")}));
        // Rules the schema cannot express.
        for (const std::vector<double>& bad : {std::vector<double>{0}, std::vector<double>{-1}, std::vector<double>{2, -0.5}}) {
            CaseSpec c = make_case({image_arg("A", spec(IPT_UINT8, 5, 5)), floats_arg("Scale", bad)});
            c.expect_error = true;
            out.push_back(c);
        }
        for (const std::vector<double>& bad : {std::vector<double>{NAN, NAN}, std::vector<double>{INFINITY, 3}}) {
            CaseSpec c = make_case({image_arg("A", spec(IPT_UINT8, 5, 5)), floats_arg("OutputSize", bad)});
            c.expect_error = true;
            out.push_back(c);
        }
    };
    return r;
}

// ---- rotation, translation and geometric warps: imrotate, imtranslate, imwarp

// Every method, view and class; angles on and off the multiples of 90 (whose
// samples are exact), RGB fill values per plane, shapes that swap, and the
// errors the schema cannot express.
OpRecipe imrotate_recipe() {
    OpRecipe r;
    r.main = "I";
    r.primary = [](const ImageSpec& i) {
        return make_case({image_arg("I", i), float_arg("angle", 30), text_arg("method", "bilinear")});
    };
    r.options = [](Cases& out, const RecipeOptions&) {
        for (ipt_dtype d : kAll)
            for (const char* m : {"nearest", "bilinear", "bicubic"})
                for (const char* box : {"loose", "crop"})
                    for (double a : {-17.5, 45.0, 90.0, 123.0, -270.0, 180.0, 1e-9}) {
                        ImageSpec s = spec(d, 17, 22);
                        out.push_back(make_case(
                            {image_arg("I", s), float_arg("angle", a), text_arg("method", m), text_arg("bbox", box)}));
                    }
        for (ipt_dtype d : kAll) {
            ImageSpec rgb = spec(d, 21, 16);
            rgb.channels = 3;
            out.push_back(make_case({image_arg("I", rgb), float_arg("angle", 33), text_arg("method", "bicubic")}));
            out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Max)), float_arg("angle", 10),
                                     text_arg("method", "bicubic"), text_arg("bbox", "crop")}));
        }
        for (const Shape& s : kShapes)
            out.push_back(make_case({image_arg("I", spec(IPT_UINT8, s.rows, s.cols)), float_arg("angle", -90),
                                     text_arg("bbox", "crop")}));
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE})
            for (Fill f : {Fill::NaN, Fill::Inf, Fill::Extreme})
                out.push_back(make_case({image_arg("I", spec(d, 17, 23, f)), float_arg("angle", 200),
                                         text_arg("method", "bicubic")}));
    };
    return r;
}

OpRecipe imtranslate_recipe() {
    OpRecipe r;
    r.main = "A";
    r.primary = [](const ImageSpec& a) { return make_case({image_arg("A", a), floats_arg("translation", {2.5, -1.25})}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        const std::vector<std::vector<double>> shifts = {{3, -2}, {0.5, 0.5}, {-4.75, 7.1}, {40, 0}};
        for (ipt_dtype d : kAll)
            for (const char* m : {"nearest", "linear", "cubic"})
                for (const char* view : {"same", "full"})
                    for (const auto& t : shifts)
                        out.push_back(make_case({image_arg("A", spec(d, 17, 23)), floats_arg("translation", t),
                                                 text_arg("method", m), text_arg("OutputView", view)}));
        for (ipt_dtype d : kAll) {
            ImageSpec rgb = spec(d, 19, 14);
            rgb.channels = 3;
            out.push_back(make_case({image_arg("A", rgb), floats_arg("translation", {1.5, 2.25}),
                                     floats_arg("FillValues", {0.5, 200, -3}), text_arg("method", "cubic")}));
            out.push_back(make_case({image_arg("A", spec(d, 17, 23)), floats_arg("translation", {-1.5, 0.75}),
                                     floats_arg("FillValues", {1e6}), text_arg("OutputView", "full")}));
        }
        CaseSpec bad = make_case({image_arg("A", spec(IPT_UINT8, 5, 5)), floats_arg("translation", {1, 1}),
                                  floats_arg("FillValues", {1, 2})});
        bad.expect_error = true;
        out.push_back(bad);
    };
    return r;
}

OpRecipe imwarp_recipe() {
    OpRecipe r;
    r.main = "A";
    // A shear with rotation and a shift.
    const std::vector<double> affine = {0.9, 0.35, 0, -0.2, 1.1, 0, 3.5, -2.25, 1};
    r.primary = [affine](const ImageSpec& a) { return make_case({image_arg("A", a), floats_arg("T", affine)}); };
    r.options = [affine](Cases& out, const RecipeOptions&) {
        const std::vector<std::vector<double>> tforms = {
            affine,
            {2, 0, 0, 0, 0.5, 0, 0, 0, 1},                     // scale
            {1, 0, 0, 0, 1, 0, -3, 4, 1},                      // integral shift: exact copies
            {1, 0, 0.002, 0.1, 1, 0.001, 0, 0, 1},             // projective
            {std::cos(1.0), -std::sin(1.0), 0, std::sin(1.0), std::cos(1.0), 0, 0, 0, 1},
        };
        // Both edge rules: sharp (the default) and SmoothEdges.
        for (ipt_dtype d : kAll)
            for (const char* m : {"nearest", "linear", "cubic"})
                for (const auto& t : tforms)
                    for (int smooth : {0, 1})
                        out.push_back(make_case({image_arg("A", spec(d, 17, 23)), floats_arg("T", t), text_arg("interp", m),
                                                 int_arg("SmoothEdges", smooth)}));
        // Lines too short for bicubic's extrapolated edge (1 and 2 pixels).
        for (ipt_dtype d : {IPT_UINT8, IPT_DOUBLE})
            for (auto [rows, cols] : {std::pair{1, 9}, std::pair{2, 7}, std::pair{8, 2}})
                out.push_back(make_case({image_arg("A", spec(d, rows, cols)), floats_arg("T", affine),
                                         text_arg("interp", "cubic")}));
        for (ipt_dtype d : kAll) {
            ImageSpec rgb = spec(d, 19, 14);
            rgb.channels = 3;
            out.push_back(make_case({image_arg("A", rgb), floats_arg("T", affine), floats_arg("FillValues", {0.25, 99, 7}),
                                     text_arg("interp", "cubic")}));
            out.push_back(make_case({image_arg("A", rgb), floats_arg("T", affine), floats_arg("FillValues", {0.25, 99, 7}),
                                     text_arg("interp", "cubic"), int_arg("SmoothEdges", 1)}));
            out.push_back(make_case({image_arg("A", spec(d, 17, 23)), floats_arg("T", tforms[3]),
                                     floats_arg("OutputView", {20, 30, -2.5, 27.5, 0.5, 20.5}),
                                     floats_arg("FillValues", {1})}));
        }
        for (const std::vector<double>& bad :
             {std::vector<double>{1, 2, 0, 2, 4, 0, 0, 0, 1}, std::vector<double>{0, 0, 0, 0, 0, 0, 0, 0, 0}}) {
            CaseSpec c = make_case({image_arg("A", spec(IPT_UINT8, 5, 5)), floats_arg("T", bad)});
            c.expect_error = true;
            out.push_back(c);
        }
    };
    return r;
}

// ---- gradients: imgradientxy, imgradient -------------------------------------

// Every method over every class and shape (one column and one row change the
// central and intermediate ends), flat and stepped images where differences
// are exactly zero (the direction's +-0 and +-180 hinge on those signs), and
// floats far outside [0, 1].
OpRecipe gradient_recipe(std::vector<std::string> methods) {
    OpRecipe r;
    r.main = "I";
    r.demo_dtype = IPT_UINT8;
    r.primary = [](const ImageSpec& i) { return make_case({image_arg("I", i)}); };
    r.options = [methods](Cases& out, const RecipeOptions&) {
        auto with_method = [](const ImageSpec& i, const std::string& m) {
            return make_case({image_arg("I", i), text_arg("method", m)});
        };
        for (const std::string& m : methods) {
            for (ipt_dtype d : kAll) {
                out.push_back(with_method(spec(d, 17, 23), m));
                out.push_back(with_method(spec(d, 63, 65, Fill::Levels, 3), m));
            }
            for (const Shape& s : kShapes) {
                out.push_back(with_method(spec(IPT_DOUBLE, s.rows, s.cols), m));
                out.push_back(with_method(spec(IPT_SINGLE, s.rows, s.cols), m));
            }
            for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE}) {
                out.push_back(with_method(spec(d, 17, 23, Fill::Constant), m));
                out.push_back(with_method(spec(d, 63, 65, Fill::Synthetic), m));
                out.push_back(with_method(spec(d, 33, 31, Fill::Random, -1e3, 1e3), m));
                for (Fill f : {Fill::NaN, Fill::Inf, Fill::Extreme, Fill::Denormal})
                    out.push_back(with_method(spec(d, 17, 23, f), m));
            }
            out.push_back(with_method(spec(IPT_UINT8, 63, 65, Fill::Synthetic), m).without_optional_outputs());
        }
    };
    return r;
}

OpRecipe imgradientxy_recipe() { return gradient_recipe({"sobel", "prewitt", "central", "intermediate"}); }

OpRecipe imgradient_recipe() { return gradient_recipe({"sobel", "prewitt", "central", "intermediate", "roberts"}); }

// ---- padding and cropping: padarray, imcrop --------------------------------

OpRecipe padarray_recipe() {
    OpRecipe r;
    r.main = "A";
    r.primary = [](const ImageSpec& a) {
        return make_case({image_arg("A", a), floats_arg("padsize", {3, 2}), text_arg("method", "symmetric")});
    };
    r.options = [](Cases& out, const RecipeOptions&) {
        const char* methods[] = {"constant", "circular", "replicate", "symmetric"};
        const char* directions[] = {"both", "pre", "post"};
        auto rgb = [](ipt_dtype d, int64_t rows, int64_t cols) {
            ImageSpec s = spec(d, rows, cols);
            s.channels = 3;
            return s;
        };
        for (ipt_dtype d : kAll) {
            for (const char* m : methods)
                for (const char* dir : directions) {
                    out.push_back(make_case({image_arg("A", spec(d, 17, 23)), floats_arg("padsize", {5, 7}),
                                             text_arg("method", m), text_arg("direction", dir)}));
                    // Pads larger than A: the patterns repeat.
                    out.push_back(make_case({image_arg("A", spec(d, 3, 4)), floats_arg("padsize", {9, 11}),
                                             text_arg("method", m), text_arg("direction", dir)}));
                }
            for (const char* m : methods) {
                out.push_back(make_case({image_arg("A", rgb(d, 17, 23)), floats_arg("padsize", {4, 1}), text_arg("method", m)}));
                out.push_back(make_case({image_arg("A", spec(d, 1, 37)), floats_arg("padsize", {2}), text_arg("method", m)}));
                out.push_back(make_case({image_arg("A", spec(d, 41, 1)), floats_arg("padsize", {0, 3}), text_arg("method", m)}));
                // Empty A: the padded size, filled with padval (0 for the other methods).
                out.push_back(make_case({image_arg("A", spec(d, 0, 5)), floats_arg("padsize", {2, 1}), text_arg("method", m),
                                         float_arg("padval", 1)}));
            }
            // padval converted to the class: ties, saturation, NaN, Inf, fractions.
            for (double v : std::initializer_list<double>{2.5, -2.5, 0.1, 300.0, -1e10, 1e10, INFINITY, -INFINITY, NAN}) {
                CaseSpec c = make_case({image_arg("A", spec(d, 5, 6)), floats_arg("padsize", {1, 2}), float_arg("padval", v)});
                c.expect_error = d == IPT_LOGICAL && std::isnan(v);  // NaN cannot be logical
                out.push_back(c);
            }
            out.push_back(make_case({image_arg("A", spec(d, 63, 65)), floats_arg("padsize", {1, 2, 0}),
                                     text_arg("method", "replicate"), text_arg("direction", "post")}));
        }
        // No padding along the planes.
        CaseSpec third = make_case({image_arg("A", rgb(IPT_UINT8, 5, 6)), floats_arg("padsize", {1, 1, 1})});
        third.expect_error = true;
        out.push_back(third);
        CaseSpec fraction = make_case({image_arg("A", spec(IPT_UINT8, 5, 6)), floats_arg("padsize", {1.5, 1})});
        fraction.expect_error = true;
        out.push_back(fraction);
    };
    return r;
}

OpRecipe imcrop_recipe() {
    OpRecipe r;
    r.main = "I";
    // The middle of I, from a quarter in with a half-pixel tie.
    r.primary = [](const ImageSpec& i) {
        return make_case({image_arg("I", i), floats_arg("rect", {0.25 * double(i.cols) + 0.5, 0.25 * double(i.rows) + 0.5,
                                                                0.5 * double(i.cols), 0.5 * double(i.rows)})});
    };
    r.options = [](Cases& out, const RecipeOptions&) {
        const std::vector<std::vector<double>> rects = {
            {2.5, 3.5, 4.5, 5.5},  {2.49, 3.51, 0.02, 0},  {-3, -2, 30, 40},  {0.5, 0.5, 23, 17}, {5, 5, 0, 0},
            {23, 17, 10, 10},      {-5, 1, 5.5, 1},        {40, 1, 1, 1},     {1, 17.5, 3, 3},    {-10, -10, 5, 5},
            {1e300, 1, 1, 1},      {-1e300, -1e300, 1e300, 1e300}};
        for (ipt_dtype d : kAll) {
            for (const auto& rect : rects) {
                out.push_back(make_case({image_arg("I", spec(d, 17, 23)), floats_arg("rect", rect)}));
                ImageSpec rgb = spec(d, 17, 23);
                rgb.channels = 3;
                out.push_back(make_case({image_arg("I", rgb), floats_arg("rect", rect)}));
            }
            out.push_back(make_case({image_arg("I", spec(d, 0, 5)), floats_arg("rect", {1, 1, 2, 2})}));
            out.push_back(make_case({image_arg("I", spec(d, 1, 37)), floats_arg("rect", {3.5, 1, 30, 0})}));
            out.push_back(make_case({image_arg("I", spec(d, 41, 1)), floats_arg("rect", {1, 2.5, 0, 30})}));
        }
        // Bad rect: negative width or height, not finite, not four numbers.
        for (const std::vector<double>& rect : std::vector<std::vector<double>>{
                 {1, 1, -1, 2}, {1, 1, 2, -0.5}, {NAN, 1, 1, 1}, {1, 1, INFINITY, 1}, {1, 1, 1}}) {
            CaseSpec c = make_case({image_arg("I", spec(IPT_UINT8, 5, 6)), floats_arg("rect", rect)});
            c.expect_error = true;
            out.push_back(c);
        }
    };
    return r;
}

// ---- smoothing filters: imgaussfilt, imboxfilt, integralImage ----------

OpRecipe imgaussfilt_recipe() {
    OpRecipe r;
    r.main = "A";
    r.primary = [](const ImageSpec& a) { return make_case({image_arg("A", a), floats_arg("sigma", {1.3})}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        const ipt_dtype classes[] = {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE};
        for (ipt_dtype d : classes) {
            const ImageSpec a = spec(d, 29, 31);
            for (const char* pad : {"replicate", "circular", "symmetric", "constant"}) {
                // Direct route (imfilter with the 2-D kernel), then the separable
                // route (conv2 of the padded image in single or double).
                out.push_back(make_case({image_arg("A", a), text_arg("Padding", pad), float_arg("X", 7.5)}));
                out.push_back(make_case({image_arg("A", a), floats_arg("sigma", {2, 0.7}), text_arg("Padding", pad)}));
                out.push_back(make_case({image_arg("A", a), floats_arg("sigma", {4}), floats_arg("FilterSize", {17, 19}),
                                         text_arg("Padding", pad), float_arg("X", 300.5)}));
            }
            out.push_back(make_case({image_arg("A", a), floats_arg("sigma", {3}), floats_arg("FilterSize", {7})}));
            out.push_back(make_case({image_arg("A", a), floats_arg("sigma", {3}), floats_arg("FilterSize", {1, 21})}));
            out.push_back(make_case({image_arg("A", spec(d, 4, 3)), floats_arg("sigma", {5})}));
            out.push_back(make_case({image_arg("A", spec(d, 17, 19, Fill::Max)), floats_arg("sigma", {1.5}),
                                     text_arg("Padding", "constant"), float_arg("X", -1e12)}));
            out.push_back(make_case({image_arg("A", spec(d, 17, 19, Fill::Min)), floats_arg("sigma", {5})}));
            out.push_back(make_case({image_arg("A", spec(d, 29, 31, Fill::Levels, 3)), floats_arg("sigma", {0.5})}));
        }
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE})
            for (Fill f : {Fill::NaN, Fill::Inf, Fill::Denormal})
                for (double sigma : {0.8, 4.0})
                    out.push_back(make_case({image_arg("A", spec(d, 29, 31, f)), floats_arg("sigma", {sigma})}));
        for (const char* domain : {"spatial", "frequency"})
            out.push_back(make_case({image_arg("A", spec(IPT_UINT8, 20, 20)), text_arg("FilterDomain", domain)}));
        CaseSpec even = make_case({image_arg("A", spec(IPT_DOUBLE, 5, 5)), floats_arg("FilterSize", {4})});
        even.expect_error = true;
        out.push_back(even);
    };
    return r;
}

OpRecipe imboxfilt_recipe() {
    OpRecipe r;
    r.main = "A";
    r.primary = [](const ImageSpec& a) { return make_case({image_arg("A", a), floats_arg("filterSize", {5})}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        const ipt_dtype classes[] = {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE};
        for (ipt_dtype d : classes) {
            const ImageSpec a = spec(d, 29, 31);
            for (const char* pad : {"replicate", "circular", "symmetric", "constant"}) {
                out.push_back(make_case({image_arg("A", a), text_arg("Padding", pad), float_arg("X", 300.5)}));
                out.push_back(make_case({image_arg("A", a), floats_arg("filterSize", {7, 3}), text_arg("Padding", pad),
                                         float_arg("X", -2.5)}));
            }
            out.push_back(make_case({image_arg("A", a), floats_arg("filterSize", {1, 15})}));
            out.push_back(make_case({image_arg("A", a), floats_arg("filterSize", {41})}));  // larger than A
            // Local sums (factor 1) saturate the integer classes; a .5 factor makes ties.
            out.push_back(make_case({image_arg("A", a), floats_arg("filterSize", {3}), float_arg("NormalizationFactor", 1)}));
            out.push_back(make_case({image_arg("A", a), floats_arg("filterSize", {1}), float_arg("NormalizationFactor", 0.5)}));
            out.push_back(make_case({image_arg("A", spec(d, 17, 19, Fill::Max)), floats_arg("filterSize", {5})}));
            out.push_back(make_case({image_arg("A", spec(d, 17, 19, Fill::Min)), floats_arg("filterSize", {5}),
                                     float_arg("NormalizationFactor", -0.3)}));
        }
        // uint8 rows a multiple of 4 wide, which GPU backends sum four
        // columns at a time (inside quads from aligned words, the row's ends
        // by the border rule): every padding, widths 3 to 11 and heights up
        // to 15; on a 7 x 8 image an 11 x 11 window leaves no quad inside.
        const std::pair<double, double> sizes[] = {{5, 3}, {3, 5}, {15, 7}, {9, 9}, {1, 11}};
        for (const char* pad : {"replicate", "circular", "symmetric", "constant"}) {
            for (const auto& [fr, fc] : sizes)
                out.push_back(make_case({image_arg("A", spec(IPT_UINT8, 29, 32)), floats_arg("filterSize", {fr, fc}),
                                         text_arg("Padding", pad), float_arg("X", 77)}));
            out.push_back(make_case({image_arg("A", spec(IPT_UINT8, 7, 8)), floats_arg("filterSize", {11}),
                                     text_arg("Padding", pad), float_arg("X", 200)}));
        }
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE})
            for (Fill f : {Fill::NaN, Fill::Inf, Fill::Denormal})
                out.push_back(make_case({image_arg("A", spec(d, 29, 31, f)), floats_arg("filterSize", {3})}));
        CaseSpec even = make_case({image_arg("A", spec(IPT_DOUBLE, 5, 5)), floats_arg("filterSize", {2, 3})});
        even.expect_error = true;
        out.push_back(even);
    };
    return r;
}

OpRecipe integralimage_recipe() {
    OpRecipe r;
    r.main = "I";
    r.primary = [](const ImageSpec& a) { return make_case({image_arg("I", a)}); };
    r.options = [](Cases& out, const RecipeOptions& opt) {
        for (ipt_dtype d : {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE}) {
            for (const char* o : {"upright", "rotated"}) {
                out.push_back(make_case({image_arg("I", spec(d, 29, 31)), text_arg("orientation", o)}));
                out.push_back(make_case({image_arg("I", spec(d, 1, 37)), text_arg("orientation", o)}));
                out.push_back(make_case({image_arg("I", spec(d, 37, 1)), text_arg("orientation", o)}));
                out.push_back(make_case({image_arg("I", spec(d, 2, 2)), text_arg("orientation", o)}));
                out.push_back(make_case({image_arg("I", spec(d, 0, 4)), text_arg("orientation", o)}));
                out.push_back(make_case({image_arg("I", spec(d, 17, 19, Fill::Max)), text_arg("orientation", o)}));
            }
            if (d != IPT_LOGICAL) out.push_back(make_case({image_arg("I", every_value(d))}));
        }
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE})
            for (Fill f : {Fill::NaN, Fill::Inf, Fill::Denormal})
                for (const char* o : {"upright", "rotated"})
                    out.push_back(make_case({image_arg("I", spec(d, 29, 31, f)), text_arg("orientation", o)}));
        // Enough rows and columns for several tiles of the GPUs' row pass.
        CaseSpec big = make_case({image_arg("I", spec(IPT_DOUBLE, opt.large_size, opt.large_size, Fill::Random, -1, 1))});
        big.large = true;
        out.push_back(big);
        out.push_back(make_case({image_arg("I", spec(IPT_SINGLE, 300, 70, Fill::Random, -1, 1))}));
        out.push_back(make_case({image_arg("I", spec(IPT_UINT8, 70, 300)), text_arg("orientation", "rotated")}));
    };
    return r;
}

// ---- histograms and thresholds: imhist, otsuthresh, graythresh, histeq -----

OpRecipe imhist_recipe() {
    OpRecipe r;
    r.main = "I";
    r.primary = [](const ImageSpec& i) {
        CaseSpec c = make_case({image_arg("I", i)});
        c.add(int_arg("n", i.dtype == IPT_LOGICAL ? 2 : 256));
        return c;
    };
    r.options = [](Cases& out, const RecipeOptions&) {
        // Bin counts other than the class's own: integer classes scale,
        // 1 bin holds everything, 65536 gives uint16 and int16 a bin a value.
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE})
            for (int64_t n : {1, 2, 7, 64, 255, 1000, 65536})
                out.push_back(make_case({image_arg("I", spec(d, 63, 65)), int_arg("n", n)}));
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_SINGLE, IPT_DOUBLE}) {
            out.push_back(make_case({image_arg("I", every_value(d))}));
            out.push_back(make_case({image_arg("I", every_value(d, 3)), int_arg("n", 100)}));
        }
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE}) {
            out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Random, -0.5, 1.5)), int_arg("n", 37)}));
            out.push_back(make_case({image_arg("I", spec(d, 17, 23, Fill::NaN)), int_arg("n", 5)}));
            out.push_back(make_case({image_arg("I", spec(d, 17, 23, Fill::Inf)), int_arg("n", 5)}));
        }
        out.push_back(make_case({image_arg("I", spec(IPT_UINT8, 0, 0))}));
        out.push_back(make_case({image_arg("I", spec(IPT_DOUBLE, 0, 5)), int_arg("n", 3)}));
        // The only bin count logical accepts is 2.
        CaseSpec bad = make_case({image_arg("I", spec(IPT_LOGICAL, 17, 23)), int_arg("n", 3)});
        bad.expect_error = true;
        out.push_back(bad);
    };
    return r;
}

// counts must be a vector: the swept matrices (17x23, ...) are rejected by
// every implementation, as MATLAB rejects them; the vectors of the sweep
// (1x1, 1x37, 41x1) and the options carry the values, signed classes drawing
// nonnegative counts (negative ones are rejected too).
OpRecipe otsuthresh_recipe() {
    OpRecipe r;
    r.main = "counts";
    r.primary = [](const ImageSpec& i) {
        ImageSpec s = i;
        if (s.fill == Fill::Random && (s.dtype == IPT_INT16 || s.dtype == IPT_INT32)) s.lo = 0, s.hi = 1000;
        return make_case({image_arg("counts", s)});
    };
    r.options = [](Cases& out, const RecipeOptions&) {
        for (ipt_dtype d : {IPT_UINT8, IPT_DOUBLE, IPT_SINGLE}) {
            out.push_back(make_case({image_arg("counts", spec(d, 256, 1))}));
            out.push_back(make_case({image_arg("counts", spec(d, 1, 256, Fill::Levels, 3))}));
            out.push_back(make_case({image_arg("counts", spec(d, 1, 2))}));
        }
        // The special images of every class as vectors.
        for (ipt_dtype d : dtypes_in(IPT_DT_NUMERIC))
            for (const ImageSpec& sp : special_specs(d, 1, 391, 1)) out.push_back(make_case({image_arg("counts", sp)}));
        out.push_back(make_case({image_arg("counts", spec(IPT_UINT16, 1, 65536))}));
        // Ties: two occupied bins far apart, so sigma is flat between them.
        std::vector<double> two(256, 0.0);
        two[10] = 5;
        two[200] = 5;
        out.push_back(make_case({image_arg("counts", values_spec(IPT_DOUBLE, 1, 256, two, "two levels"))}));
        out.push_back(make_case({image_arg("counts", spec(IPT_DOUBLE, 1, 64, Fill::Zero))}));
        CaseSpec negative = make_case({image_arg("counts", values_spec(IPT_DOUBLE, 1, 3, {1, -1, 2}, "negative"))});
        negative.expect_error = true;
        out.push_back(negative);
        CaseSpec matrix = make_case({image_arg("counts", spec(IPT_DOUBLE, 3, 4))});
        matrix.expect_error = true;
        out.push_back(matrix);
    };
    return r;
}

OpRecipe graythresh_recipe() {
    OpRecipe r;
    r.main = "I";
    r.primary = [](const ImageSpec& i) { return make_case({image_arg("I", i)}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        for (ipt_dtype d : kImage) {
            out.push_back(make_case({image_arg("I", every_value(d))}));
            out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Levels, 2))}));
            out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Levels, 5))}));
            out.push_back(make_case({image_arg("I", spec(d, 0, 4))}));
        }
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE})
            out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Random, -0.25, 1.25))}));
    };
    return r;
}

OpRecipe histeq_recipe() {
    OpRecipe r;
    r.main = "I";
    r.primary = [](const ImageSpec& i) { return make_case({image_arg("I", i)}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        std::vector<double> ramp(40), peaks(256, 1.0);
        for (size_t k = 0; k < ramp.size(); ++k) ramp[k] = double(k + 1);
        peaks[0] = peaks[128] = peaks[255] = 1000;
        for (ipt_dtype d : kImage) {
            for (int64_t n : {1, 2, 3, 255, 256, 1000})
                out.push_back(make_case({image_arg("I", spec(d, 63, 65)), int_arg("n", n)}));
            out.push_back(make_case({image_arg("I", spec(d, 63, 65)), floats_arg("hgram", ramp)}));
            out.push_back(make_case({image_arg("I", spec(d, 63, 65)), floats_arg("hgram", peaks)}));
            out.push_back(make_case({image_arg("I", every_value(d))}));
            out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Levels, 3)), int_arg("n", 8)}));
            out.push_back(make_case({image_arg("I", spec(d, 0, 7))}));
        }
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE})
            out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Random, -0.25, 1.25)), int_arg("n", 16)}));
        CaseSpec both = make_case({image_arg("I", spec(IPT_UINT8, 17, 23)), int_arg("n", 4), floats_arg("hgram", {1, 2})});
        both.expect_error = true;
        out.push_back(both);
    };
    return r;
}

// ---- correlation and adaptive noise removal: normxcorr2, wiener2 --------

OpRecipe normxcorr2_recipe() {
    OpRecipe r;
    r.main = "template";
    r.primary = [](const ImageSpec& t) {
        // A a little larger than the template; a template larger than the
        // shapes' largest stands for the large case: a 16x16 template over
        // that image (the window sums are direct, m*n per output).
        if (t.rows * t.cols > 130 * 97)
            return make_case({image_arg("template", spec(t.dtype, 16, 16)), image_arg("A", t)});
        return make_case({image_arg("template", t), image_arg("A", spec(t.dtype, t.rows + 3, t.cols + 5))});
    };
    r.options = [](Cases& out, const RecipeOptions&) {
        for (ipt_dtype d : kAll) {
            const ImageSpec a = spec(d, 29, 31);
            out.push_back(make_case({image_arg("template", spec(d, 5, 4)), image_arg("A", a)}));
            out.push_back(make_case({image_arg("template", spec(d, 29, 31)), image_arg("A", a)}));  // A's size
            out.push_back(make_case({image_arg("template", spec(d, 1, 6)), image_arg("A", spec(d, 1, 40))}));
            out.push_back(make_case({image_arg("template", spec(d, 7, 1)), image_arg("A", spec(d, 40, 1))}));
            // Windows with no variance, and few levels (exact zeros in the sums).
            out.push_back(make_case({image_arg("template", spec(d, 3, 3)), image_arg("A", spec(d, 29, 31, Fill::Constant))}));
            out.push_back(make_case({image_arg("template", spec(d, 4, 2, Fill::Levels, 2)),
                                     image_arg("A", spec(d, 29, 31, Fill::Levels, 2))}));
            out.push_back(make_case({image_arg("template", spec(d, 3, 5)), image_arg("A", spec(d, 17, 19, Fill::Max))}));
            out.push_back(make_case({image_arg("template", spec(d, 3, 5)), image_arg("A", spec(d, 17, 19, Fill::Min))}));
            CaseSpec larger = make_case({image_arg("template", spec(d, 9, 4)), image_arg("A", spec(d, 8, 30))});
            larger.expect_error = true;
            out.push_back(larger);
        }
        // Signed data with negative values is shifted by its minimum.
        for (ipt_dtype d : {IPT_INT16, IPT_INT32, IPT_SINGLE, IPT_DOUBLE})
            out.push_back(make_case({image_arg("template", spec(d, 6, 5, Fill::Random, -3, 1)),
                                     image_arg("A", spec(d, 23, 29, Fill::Random, -2, 2))}));
        // Mixed classes.
        out.push_back(make_case({image_arg("template", spec(IPT_UINT8, 5, 5)), image_arg("A", spec(IPT_DOUBLE, 29, 31))}));
        out.push_back(make_case({image_arg("template", spec(IPT_SINGLE, 4, 6)), image_arg("A", spec(IPT_UINT16, 29, 31))}));
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE})
            for (Fill f : {Fill::NaN, Fill::Inf}) {
                CaseSpec bad = make_case({image_arg("template", spec(d, 3, 3)), image_arg("A", spec(d, 29, 31, f))});
                bad.expect_error = true;
                out.push_back(bad);
            }
        CaseSpec one = make_case({image_arg("template", spec(IPT_DOUBLE, 1, 1)), image_arg("A", spec(IPT_DOUBLE, 5, 5))});
        one.expect_error = true;
        out.push_back(one);
    };
    return r;
}

OpRecipe wiener2_recipe() {
    OpRecipe r;
    r.main = "I";
    r.primary = [](const ImageSpec& i) { return make_case({image_arg("I", i)}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        for (ipt_dtype d : kImage) {
            const ImageSpec a = spec(d, 29, 31);
            out.push_back(make_case({image_arg("I", a), floats_arg("size", {5, 5})}));
            // Even windows reach one more row and column forward.
            out.push_back(make_case({image_arg("I", a), floats_arg("size", {2, 4})}));
            out.push_back(make_case({image_arg("I", a), floats_arg("size", {1, 7}), float_arg("noise", 0.01)}));
            out.push_back(make_case({image_arg("I", a), floats_arg("size", {41, 3})}));  // taller than I
            // [1 1]: zero variance and zero noise, 0/0 everywhere.
            out.push_back(make_case({image_arg("I", a), floats_arg("size", {1, 1})}));
            out.push_back(make_case({image_arg("I", a), float_arg("noise", 0)}));
            out.push_back(make_case({image_arg("I", a), float_arg("noise", 1e6)}));
            out.push_back(make_case({image_arg("I", spec(d, 17, 19, Fill::Max))}));
            out.push_back(make_case({image_arg("I", spec(d, 17, 19, Fill::Min)), floats_arg("size", {3, 2})}));
            out.push_back(make_case({image_arg("I", spec(d, 29, 31, Fill::Levels, 2))}));
            out.push_back(make_case({image_arg("I", spec(d, 29, 31, Fill::Constant))}));
        }
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE}) {
            for (Fill f : {Fill::NaN, Fill::Inf, Fill::Denormal})
                out.push_back(make_case({image_arg("I", spec(d, 29, 31, f))}));
            out.push_back(make_case({image_arg("I", spec(d, 29, 31, Fill::Random, -0.25, 1.25)), floats_arg("size", {4, 3})}));
        }
    };
    return r;
}

// ---- thresholds: multithresh, imbinarize, adaptthresh ---------------------

// 'global' for the classes graythresh counts; 32-bit integers take a given T.
OpRecipe imbinarize_recipe() {
    OpRecipe r;
    r.main = "I";
    r.primary = [](const ImageSpec& i) {
        if (i.dtype == IPT_INT32 || i.dtype == IPT_UINT32) {
            const bool empty = i.rows * i.cols == 0;  // T is never empty: a scalar then
            const ImageSpec t = spec(IPT_DOUBLE, empty ? 1 : i.rows, empty ? 1 : i.cols);
            return make_case({image_arg("I", i), image_arg("T", t)});
        }
        return make_case({image_arg("I", i)});
    };
    r.options = [](Cases& out, const RecipeOptions&) {
        for (ipt_dtype d : dtypes_in(IPT_DT_NUMERIC)) {
            // A matrix T of either class, a scalar T, and levels on the values.
            for (ipt_dtype t : {IPT_DOUBLE, IPT_SINGLE})
                out.push_back(make_case({image_arg("I", spec(d, 63, 65)), image_arg("T", spec(t, 63, 65))}));
            out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Levels, 5)),
                                     image_arg("T", values_spec(IPT_DOUBLE, 1, 1, {0.25}, "a quarter"))}));
            out.push_back(make_case({image_arg("I", spec(d, 0, 4)), image_arg("T", spec(IPT_DOUBLE, 1, 1))}));
            if (d == IPT_INT32 || d == IPT_UINT32) continue;
            out.push_back(make_case({image_arg("I", every_value(d)),
                                     image_arg("T", values_spec(IPT_SINGLE, 1, 1, {0.5}, "a half"))}));
            out.push_back(make_case({image_arg("I", spec(d, 63, 65)), text_arg("method", "global")}));
            out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Levels, 2))}));
            out.push_back(make_case({image_arg("I", spec(d, 0, 4))}));
        }
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE}) {
            out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Random, -0.25, 1.25))}));
            out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::NaN)), image_arg("T", spec(d, 63, 65))}));
        }
        // 'adaptive': adaptthresh's T, compared as a given T is.
        for (ipt_dtype d : dtypes_in(IPT_DT_NUMERIC)) {
            out.push_back(make_case({image_arg("I", spec(d, 63, 65)), text_arg("method", "adaptive")}));
            out.push_back(make_case({image_arg("I", spec(d, 130, 97, Fill::Synthetic)), text_arg("method", "adaptive"),
                                     float_arg("Sensitivity", 0.4), text_arg("ForegroundPolarity", "dark")}));
        }
        for (double s : {0.0, 0.7, 1.0})
            out.push_back(make_case({image_arg("I", spec(IPT_UINT8, 63, 65, Fill::Levels, 4)),
                                     text_arg("method", "adaptive"), float_arg("Sensitivity", s)}));
        CaseSpec wrong = make_case({image_arg("I", spec(IPT_UINT8, 17, 23)), image_arg("T", spec(IPT_DOUBLE, 23, 17))});
        wrong.expect_error = true;
        out.push_back(wrong);
    };
    return r;
}

OpRecipe adaptthresh_recipe() {
    OpRecipe r;
    r.main = "I";
    r.primary = [](const ImageSpec& i) { return make_case({image_arg("I", i)}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        for (ipt_dtype d : dtypes_in(IPT_DT_NUMERIC)) {
            out.push_back(make_case({image_arg("I", spec(d, 63, 65)), float_arg("sensitivity", 0.2),
                                     floats_arg("NeighborhoodSize", {7, 3})}));
            out.push_back(make_case({image_arg("I", spec(d, 130, 97, Fill::Synthetic)),
                                     text_arg("ForegroundPolarity", "dark")}));
        }
        for (double s : {0.0, 0.45, 1.0})
            for (const char* p : {"bright", "dark"})
                out.push_back(make_case({image_arg("I", spec(IPT_DOUBLE, 63, 65, Fill::Random, -0.25, 1.25)),
                                         float_arg("sensitivity", s), text_arg("ForegroundPolarity", p)}));
        // Windows larger than the image, a scalar size, one row and column.
        for (const std::vector<double>& n : std::vector<std::vector<double>>{{1}, {5}, {1, 31}, {99, 1}, {201, 201}})
            out.push_back(make_case({image_arg("I", spec(IPT_UINT16, 41, 37)), floats_arg("NeighborhoodSize", n)}));
        // 'median' (sorting network up to 25 values, radix select above) and
        // 'gaussian' (direct up to 48 taps, separable above) on every class.
        for (const char* st : {"median", "gaussian"}) {
            for (ipt_dtype d : dtypes_in(IPT_DT_NUMERIC)) {
                out.push_back(make_case({image_arg("I", spec(d, 63, 65)), text_arg("Statistic", st),
                                         float_arg("sensitivity", 0.2), floats_arg("NeighborhoodSize", {3, 5})}));
                out.push_back(make_case({image_arg("I", spec(d, 130, 97, Fill::Synthetic)), text_arg("Statistic", st),
                                         text_arg("ForegroundPolarity", "dark")}));
                out.push_back(make_case({image_arg("I", spec(d, 0, 4)), text_arg("Statistic", st)}));
            }
            for (const std::vector<double>& n : std::vector<std::vector<double>>{{1}, {5}, {1, 7}, {9, 1}, {31, 3}})
                out.push_back(make_case({image_arg("I", spec(IPT_UINT16, 41, 37)), text_arg("Statistic", st),
                                         floats_arg("NeighborhoodSize", n)}));
            for (const std::pair<int64_t, int64_t>& sz : {std::pair<int64_t, int64_t>{1, 1}, {1, 40}, {40, 1}})
                out.push_back(make_case({image_arg("I", spec(IPT_DOUBLE, sz.first, sz.second)),
                                         text_arg("Statistic", st), floats_arg("NeighborhoodSize", {3})}));
            for (Fill f : {Fill::NaN, Fill::Inf, Fill::Constant})
                out.push_back(make_case({image_arg("I", spec(IPT_DOUBLE, 33, 29, f)), text_arg("Statistic", st),
                                         floats_arg("NeighborhoodSize", {3})}));
            out.push_back(make_case({image_arg("I", spec(IPT_SINGLE, 63, 65, Fill::Random, -0.25, 1.25)),
                                     text_arg("Statistic", st), float_arg("sensitivity", 0.9)}));
            CaseSpec odd = make_case({image_arg("I", spec(IPT_UINT8, 17, 23)), text_arg("Statistic", st),
                                      floats_arg("NeighborhoodSize", {3, 2})});
            odd.expect_error = true;
            out.push_back(odd);
        }
        CaseSpec even = make_case({image_arg("I", spec(IPT_UINT8, 17, 23)), floats_arg("NeighborhoodSize", {4, 3})});
        even.expect_error = true;
        out.push_back(even);
    };
    return r;
}

// Thresholds 1 and 2 (N > 2 is declined), flat, few-valued and special images.
OpRecipe multithresh_recipe() {
    OpRecipe r;
    r.main = "A";
    r.primary = [](const ImageSpec& a) { return make_case({image_arg("A", a)}); };
    r.options = [](Cases& out, const RecipeOptions&) {
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_SINGLE, IPT_DOUBLE}) {
            for (int64_t n : {1, 2}) {
                out.push_back(make_case({image_arg("A", spec(d, 63, 65)), int_arg("N", n)}));
                out.push_back(make_case({image_arg("A", spec(d, 130, 97, Fill::Synthetic)), int_arg("N", n)}));
                out.push_back(make_case({image_arg("A", spec(d, 63, 65, Fill::Levels, 2)), int_arg("N", n)}));
                out.push_back(make_case({image_arg("A", spec(d, 63, 65, Fill::Levels, 3)), int_arg("N", n)}));
                out.push_back(make_case({image_arg("A", spec(d, 17, 23, Fill::Constant)), int_arg("N", n)}));
                out.push_back(make_case({image_arg("A", spec(d, 0, 4)), int_arg("N", n)}));
                out.push_back(make_case({image_arg("A", every_value(d)), int_arg("N", n)}));
            }
            ImageSpec rgb = spec(d, 17, 23);
            rgb.channels = 3;
            out.push_back(make_case({image_arg("A", rgb), int_arg("N", 2)}));
        }
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE})
            for (Fill f : {Fill::NaN, Fill::Inf})
                out.push_back(make_case({image_arg("A", spec(d, 63, 65, f)), int_arg("N", 2)}));
        out.push_back(make_case({image_arg("A", spec(IPT_DOUBLE, 63, 65, Fill::Random, -3, 7)), int_arg("N", 2)}));
        // Declined: N > 2, 32-bit integers.
        for (int64_t n : {3, 20}) out.push_back(make_case({image_arg("A", spec(IPT_UINT8, 17, 23)), int_arg("N", n)}));
    };
    return r;
}

// ---- contrast-limited adaptive histogram equalisation: adapthisteq -------

// The sweep uses 2x2 tiles so that every image of at least 2x2 pixels is
// accepted; smaller ones are refused alike. The options cover tile grids
// that need padding, clip limits, bin counts, ranges and distributions.
OpRecipe adapthisteq_recipe() {
    OpRecipe r;
    r.main = "I";
    r.primary = [](const ImageSpec& i) {
        return make_case({image_arg("I", i), floats_arg("NumTiles", {2, 2})});
    };
    r.options = [](Cases& out, const RecipeOptions&) {
        for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_SINGLE, IPT_DOUBLE}) {
            out.push_back(make_case({image_arg("I", spec(d, 63, 65))}));
            out.push_back(make_case({image_arg("I", spec(d, 17, 23)), floats_arg("NumTiles", {3, 5}),
                                     float_arg("ClipLimit", 0.3), int_arg("NBins", 37)}));
            out.push_back(make_case({image_arg("I", spec(d, 40, 33, Fill::Levels, 5)), floats_arg("NumTiles", {4, 2}),
                                     float_arg("ClipLimit", 0), int_arg("NBins", 1000)}));
            out.push_back(make_case({image_arg("I", spec(d, 31, 30)), floats_arg("NumTiles", {2, 3}),
                                     float_arg("ClipLimit", 1), text_arg("Range", "original")}));
            for (const char* dist : {"rayleigh", "exponential"})
                out.push_back(make_case({image_arg("I", spec(d, 32, 32)), floats_arg("NumTiles", {4, 4}),
                                         text_arg("Distribution", dist), float_arg("Alpha", 0.9)}));
            out.push_back(make_case({image_arg("I", spec(d, 2, 2)), floats_arg("NumTiles", {2, 2}),
                                     int_arg("NBins", 2)}));
            out.push_back(make_case({image_arg("I", spec(d, 16, 16, Fill::Constant)), floats_arg("NumTiles", {2, 2})}));
        }
        for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE})
            out.push_back(make_case({image_arg("I", spec(d, 63, 65, Fill::Random, -0.25, 1.25)),
                                     floats_arg("NumTiles", {3, 3})}));
        // More bins than a GPU counts in shared memory.
        out.push_back(make_case({image_arg("I", spec(IPT_UINT16, 48, 50)), floats_arg("NumTiles", {2, 2}),
                                 int_arg("NBins", 10000)}));
        CaseSpec small = make_case({image_arg("I", spec(IPT_UINT8, 5, 5))});  // fewer rows than 8 tiles
        small.expect_error = true;
        out.push_back(small);
    };
    return r;
}

// ---- neighbourhood statistics: stdfilt, rangefilt, entropyfilt ------------

// Neighbourhoods every statistic is swept over: odd rectangles, a pattern, a
// single member, none, and one larger than the small images.
std::vector<ImageSpec> local_statistics_nhoods() {
    return {
        ones_spec(IPT_LOGICAL, 5, 5),
        ones_spec(IPT_LOGICAL, 1, 7),
        ones_spec(IPT_LOGICAL, 7, 1),
        values_spec(IPT_LOGICAL, 3, 3, {0, 1, 0, 1, 1, 1, 0, 1, 0}, "diamond3x3"),
        values_spec(IPT_LOGICAL, 3, 5, kDomain3x5, "pattern3x5"),
        ones_spec(IPT_LOGICAL, 1, 1),
        values_spec(IPT_LOGICAL, 3, 3, std::vector<double>(9, 0.0), "none3x3"),
    };
}

OpRecipe local_statistics_recipe(bool entropy, bool even_allowed) {
    OpRecipe r;
    r.main = "I";
    r.demo_dtype = IPT_UINT8;
    r.primary = [=](const ImageSpec& i) {
        CaseSpec c = make_case({image_arg("I", i)});
        // entropyfilt converts with im2uint8, which has no int32 or uint32.
        c.expect_error = entropy && (i.dtype == IPT_INT32 || i.dtype == IPT_UINT32);
        return c;
    };
    r.options = [=](Cases& out, const RecipeOptions& opt) {
        for (ipt_dtype d : kAll) {
            if (entropy && (d == IPT_INT32 || d == IPT_UINT32)) continue;
            for (const ImageSpec& n : local_statistics_nhoods())
                out.push_back(make_case({image_arg("I", spec(d, 17, 23)), image_arg("nhood", n)}));
            out.push_back(make_case({image_arg("I", spec(d, 5, 6)), image_arg("nhood", ones_spec(IPT_LOGICAL, 11, 9))}));
            // Few levels: repeated values (entropy bins, zero ranges and deviations).
            out.push_back(make_case({image_arg("I", spec(d, 17, 23, Fill::Levels, 3))}));
            ImageSpec rgb = spec(d, 17, 23);
            rgb.channels = 3;
            out.push_back(make_case({image_arg("I", rgb), image_arg("nhood", ones_spec(IPT_LOGICAL, 3, 3))}));
            // An even size: rangefilt's two windows are not centred alike; the others refuse it.
            CaseSpec even = make_case({image_arg("I", spec(d, 17, 23)), image_arg("nhood", ones_spec(IPT_LOGICAL, 2, 4))});
            even.expect_error = !even_allowed;
            out.push_back(even);
        }
        for (ipt_dtype d : {IPT_INT32, IPT_UINT32})
            if (entropy) {
                CaseSpec c = make_case({image_arg("I", spec(d, 17, 23))});
                c.expect_error = true;
                out.push_back(c);
            }
        CaseSpec big = make_case({image_arg("I", spec(IPT_UINT8, opt.large_size, opt.large_size))});
        big.large = true;
        out.push_back(big);
    };
    return r;
}

OpRecipe stdfilt_recipe() { return local_statistics_recipe(false, false); }
OpRecipe rangefilt_recipe() { return local_statistics_recipe(false, true); }
OpRecipe entropyfilt_recipe() { return local_statistics_recipe(true, false); }

const std::map<std::string, std::function<OpRecipe()>>& builtin_recipes() {
    static const std::map<std::string, std::function<OpRecipe()>> table = {
        {"ipt.intlut", intlut_recipe},         {"ipt.stretchlim", stretchlim_recipe},
        {"ipt.imadjust", imadjust_recipe},     {"ipt.imlincomb", imlincomb_recipe},
        {"ipt.edge", edge_recipe},             {"ipt.imregionalmax", imregionalmax_recipe},
        {"ipt.ordfilt2", ordfilt2_recipe},     {"ipt.medfilt2", medfilt2_recipe},
        {"ipt.conv2", conv2_recipe},           {"ipt.imfilter", imfilter_recipe},
        {"ipt.fspecial", fspecial_recipe},     {"ipt.mean2", mean2_recipe},
        {"ipt.strel", strel_recipe},           {"ipt.imdilate", morphology_recipe},
        {"ipt.imerode", morphology_recipe},    {"ipt.bwdist", bwdist_recipe},
        {"ipt.radon", radon_recipe},           {"ipt.dither", dither_recipe},
        // Image class conversions.
        {"ipt.im2double", im2class_recipe},    {"ipt.im2single", im2class_recipe},
        {"ipt.im2uint8", im2class_recipe},     {"ipt.im2uint16", im2class_recipe},
        {"ipt.im2int16", im2class_recipe},
        {"ipt.imcomplement", imcomplement_recipe}, {"ipt.mat2gray", mat2gray_recipe},
        {"ipt.rgb2gray", rgb2gray_recipe},
        // Colour spaces.
        {"ipt.rgb2hsv", rgb2hsv_recipe},       {"ipt.hsv2rgb", hsv2rgb_recipe},
        {"ipt.rgb2ycbcr", rgb2ycbcr_recipe},   {"ipt.ycbcr2rgb", ycbcr2rgb_recipe},
        // Geometric transformations.
        {"ipt.imresize", imresize_recipe},
        // Rotation, translation and geometric warps.
        {"ipt.imrotate", imrotate_recipe},     {"ipt.imtranslate", imtranslate_recipe},
        {"ipt.imwarp", imwarp_recipe},
        // Gradients.
        {"ipt.imgradientxy", imgradientxy_recipe}, {"ipt.imgradient", imgradient_recipe},
        // Padding and cropping.
        {"ipt.padarray", padarray_recipe},     {"ipt.imcrop", imcrop_recipe},
        // Smoothing filters.
        {"ipt.imgaussfilt", imgaussfilt_recipe}, {"ipt.imboxfilt", imboxfilt_recipe},
        {"ipt.integralimage", integralimage_recipe},
        // Histograms and thresholds.
        {"ipt.imhist", imhist_recipe},         {"ipt.otsuthresh", otsuthresh_recipe},
        {"ipt.graythresh", graythresh_recipe}, {"ipt.histeq", histeq_recipe},
        // Correlation and adaptive noise removal.
        {"ipt.normxcorr2", normxcorr2_recipe}, {"ipt.wiener2", wiener2_recipe},
        // Thresholds (multithresh, imbinarize, adaptthresh).
        {"ipt.multithresh", multithresh_recipe}, {"ipt.imbinarize", imbinarize_recipe},
        {"ipt.adaptthresh", adaptthresh_recipe},
        // Contrast-limited adaptive histogram equalisation.
        {"ipt.adapthisteq", adapthisteq_recipe},
        // Neighbourhood statistics.
        {"ipt.stdfilt", stdfilt_recipe},       {"ipt.rangefilt", rangefilt_recipe},
        {"ipt.entropyfilt", entropyfilt_recipe},
    };
    return table;
}

// ---- operators a plugin introduces: cases from the schema ----------------

double mid_value(const ipt_param_schema& p) {
    const double lo = p.min_value <= -1e300 ? -10 : p.min_value;
    const double hi = p.max_value >= 1e300 ? lo + 20 : p.max_value;
    double v = lo + (hi - lo) / 2;
    if (p.flags & IPT_P_INTEGRAL || p.kind == IPT_PARAM_INT) v = std::round(v);
    return v;
}

OpRecipe generic_recipe(const ipt_op_schema& schema) {
    OpRecipe r;
    for (uint32_t i = 0; i < schema.param_count; ++i) {
        const ipt_param_schema& p = *ipt_op_param(&schema, i);
        if (p.kind == IPT_PARAM_INPUT && !(p.flags & IPT_P_OPTIONAL) && !(p.flags & IPT_P_HOST)) {
            r.main = p.name;
            break;
        }
    }
    const ipt_op_schema* s = &schema;
    // Required parameters without defaults get a value the schema accepts.
    auto base = [s](const ImageSpec& main, const std::string& main_name) {
        CaseSpec c;
        for (uint32_t i = 0; i < s->param_count; ++i) {
            const ipt_param_schema& p = *ipt_op_param(s, i);
            const bool required = !(p.flags & IPT_P_OPTIONAL) && !p.default_text;
            if (p.kind == IPT_PARAM_INPUT) {
                if (p.name == main_name) {
                    c.add(image_arg(p.name, main));
                } else if (!(p.flags & IPT_P_OPTIONAL)) {
                    const std::vector<ipt_dtype> ds = dtypes_in(p.dtypes);
                    ipt_dtype d = ds.empty() ? IPT_DOUBLE : ds.front();
                    if ((p.flags & IPT_P_SAME_DTYPE) && std::find(ds.begin(), ds.end(), main.dtype) != ds.end()) d = main.dtype;
                    ImageSpec in = spec(d, 3, 3);
                    if (p.flags & IPT_P_SAME_SIZE) in.rows = main.rows, in.cols = main.cols, in.channels = main.channels;
                    if (p.flags & IPT_P_LUT) in.rows = 1, in.cols = main.dtype == IPT_UINT8 ? 256 : 65536;
                    if (p.flags & IPT_P_MAP) in.rows = 8, in.cols = 3;
                    c.add(image_arg(p.name, in));
                }
            } else if (required) {
                if (p.kind == IPT_PARAM_INT) c.add(int_arg(p.name, static_cast<int64_t>(mid_value(p))));
                if (p.kind == IPT_PARAM_FLOAT) c.add(float_arg(p.name, mid_value(p)));
                if (p.kind == IPT_PARAM_FLOATS)
                    c.add(floats_arg(p.name, std::vector<double>(std::max<uint32_t>(p.min_count, 1), mid_value(p))));
                if (p.kind == IPT_PARAM_ENUM && p.values) {
                    const std::string v = p.values;
                    c.add(text_arg(p.name, v.substr(0, v.find('|'))));
                }
            }
        }
        return c;
    };
    const std::string main_name = r.main;
    r.primary = [base, main_name](const ImageSpec& main) { return base(main, main_name); };
    r.options = [s, base, main_name](Cases& out, const RecipeOptions&) {
        ImageSpec main = spec(IPT_DOUBLE, 17, 23);
        if (!main_name.empty()) {
            for (uint32_t i = 0; i < s->param_count; ++i)
                if (main_name == ipt_op_param(s, i)->name) {
                    const std::vector<ipt_dtype> ds = dtypes_in(ipt_op_param(s, i)->dtypes);
                    if (!ds.empty()) main.dtype = first_of(ds, {IPT_UINT8, IPT_DOUBLE});
                }
        }
        for (uint32_t i = 0; i < s->param_count; ++i) {
            const ipt_param_schema& p = *ipt_op_param(s, i);
            if (p.kind == IPT_PARAM_ENUM && p.values) {
                std::string all = p.values;
                for (size_t at = 0; at <= all.size();) {
                    const size_t bar = std::min(all.find('|', at), all.size());
                    CaseSpec c = base(main, main_name);
                    c.args.erase(std::remove_if(c.args.begin(), c.args.end(), [&](const Arg& a) { return a.name == p.name; }),
                                 c.args.end());
                    c.add(text_arg(p.name, all.substr(at, bar - at)));
                    out.push_back(c);
                    at = bar + 1;
                }
            }
            if (p.kind == IPT_PARAM_INT && p.values) {
                std::string all = p.values;
                for (size_t at = 0; at <= all.size();) {
                    const size_t bar = std::min(all.find('|', at), all.size());
                    CaseSpec c = base(main, main_name);
                    c.args.erase(std::remove_if(c.args.begin(), c.args.end(), [&](const Arg& a) { return a.name == p.name; }),
                                 c.args.end());
                    c.add(int_arg(p.name, std::stoll(all.substr(at, bar - at))));
                    out.push_back(c);
                    at = bar + 1;
                }
            }
        }
    };
    return r;
}

OpRecipe recipe_of(const ipt_op_schema& schema) {
    const auto& table = builtin_recipes();
    auto it = table.find(schema.name);
    return it != table.end() ? it->second() : generic_recipe(schema);
}

}  // namespace

bool has_builtin_recipes(const std::string& op) { return builtin_recipes().count(op) != 0; }

std::vector<CaseSpec> recipes_for(const ipt_op_schema& schema, const RecipeOptions& options) {
    const OpRecipe r = recipe_of(schema);
    Cases all;
    sweep(schema, r, options, all);
    r.options(all, options);
    // One case per label: the label seeds the inputs, so equal labels would
    // only repeat the same work.
    Cases unique;
    std::set<std::string> seen;
    for (CaseSpec& c : all)
        if (seen.insert(c.label()).second) unique.push_back(std::move(c));
    return unique;
}

CaseSpec demo_case(const ipt_op_schema& schema, int64_t rows, int64_t cols) {
    const OpRecipe r = recipe_of(schema);
    if (r.main.empty()) return r.primary(ImageSpec{});
    const ipt_param_schema* p = find_param(schema, r.main);
    const std::vector<ipt_dtype> dtypes = dtypes_in(p ? p->dtypes : 0);
    ipt_dtype d = r.demo_dtype;
    if (!d || std::find(dtypes.begin(), dtypes.end(), d) == dtypes.end())
        d = first_of(dtypes, {IPT_UINT8, IPT_DOUBLE, IPT_SINGLE, IPT_LOGICAL});
    ImageSpec main = spec(d, rows, cols, Fill::Synthetic);
    main.channels = r.demo_channels;
    return r.primary(main);
}

}  // namespace ipt::conformance
