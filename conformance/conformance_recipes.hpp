// SPDX-License-Identifier: Apache-2.0
// Recipes: the cases (inputs and parameters) every operator is run with. One
// source of inputs per operator, used by the conformance suite and `ipt demo`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "conformance_image.hpp"
#include "ipt/ipt_ops.h"

namespace ipt::conformance {

struct Arg {
    enum class Kind { Image, Int, Float, Floats, Text };
    std::string name;
    Kind kind = Kind::Text;
    ImageSpec image;
    int64_t i = 0;
    double f = 0;
    std::vector<double> floats;
    std::string text;

    std::string describe() const;  // "A=uint8 17x23 random", "shape=same", "size=[5 5]"
};

Arg image_arg(std::string name, ImageSpec s);
Arg int_arg(std::string name, int64_t v);
Arg float_arg(std::string name, double v);
Arg floats_arg(std::string name, std::vector<double> v);
Arg text_arg(std::string name, std::string v);

struct CaseSpec {
    std::vector<Arg> args;
    // Optional outputs to request. Empty with want_all_optional: every
    // optional output of the schema is requested.
    std::vector<std::string> want;
    bool want_all_optional = true;
    // The implementation must reject the call with IPT_ERR_INVALID_ARGUMENT
    // (a check the catalogue flags cannot express).
    bool expect_error = false;
    bool large = false;

    std::string label() const;  // args described, joined by ", "
    const Arg* find(const std::string& name) const;
    CaseSpec& add(Arg a);
    CaseSpec& without_optional_outputs();
};

struct RecipeOptions {
    bool quick = false;
    int64_t large_size = 2048;  // the side of the large case (--quick: 256)
};

// Every case of an operator: each parameter option, each accepted class of the
// main input over the edge shapes (1x1, 1xN, Nx1, odd sizes, sizes that are not
// multiples of 8/16/32/64, large), special images, RGB where accepted. Built-in
// operators have hand-written recipes; an operator a plugin introduces gets
// cases derived from its schema.
std::vector<CaseSpec> recipes_for(const ipt_op_schema& schema, const RecipeOptions& options);

// The representative call of an operator on the synthetic scene of size
// rows x cols (the demo). The class of the scene is the one the operator is
// most often used with.
CaseSpec demo_case(const ipt_op_schema& schema, int64_t rows, int64_t cols);

// True when the recipes of this operator are hand-written (a built-in).
bool has_builtin_recipes(const std::string& op);

// The value of a scalar or enum parameter in a case, or its schema default
// text ("" when neither).
std::string param_text(const ipt_op_schema& schema, const CaseSpec& c, const std::string& name);

}  // namespace ipt::conformance
