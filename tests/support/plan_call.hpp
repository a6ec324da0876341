// SPDX-License-Identifier: Apache-2.0
// A kernel call built in memory for the unit tests of the operator
// front-ends (backends/common/ops/): the values an implementation would
// receive after the registry validated the call, without a registry or a
// device. Parameters that a test does not set take the catalogue's default
// text (a number, "[a b c]" or "a:b" / "a:s:b"), as the registry fills them.
//
//   PlanCall call("ipt.conv2");
//   call.image("A", IPT_DOUBLE, 5, 7).image("B", IPT_DOUBLE, 2, 3).text("shape", "same");
//   const auto plan = ipt::frontend::plan_conv2(call.args());
//
// Images carry sizes and a class; give host data only where the front-end
// reads it (IPT_P_HOST parameters such as kernels and lookup tables).
#pragma once

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ipt/ipt_ops.h"
#include "ipt/ipt_plugin.hpp"

namespace ipt::test {

inline const ipt_op_schema& catalogue_schema(const char* op) {
    for (uint32_t i = 0; i < IPT_BUILTIN_OP_COUNT; ++i)
        if (std::strcmp(ipt_builtin_ops[i].name, op) == 0) return ipt_builtin_ops[i];
    throw std::invalid_argument(std::string("no operator ") + op + " in the catalogue");
}

// "1", "[0.01 0.99]", "0:179", "0:0.5:2" as a list of numbers.
inline std::vector<double> parse_numbers(const std::string& text) {
    std::string t = text;
    for (char& c : t)
        if (c == '[' || c == ']' || c == ',') c = ' ';
    std::vector<double> out;
    if (t.find(':') != std::string::npos) {
        std::vector<double> parts;
        std::stringstream ss(t);
        std::string item;
        while (std::getline(ss, item, ':')) parts.push_back(std::strtod(item.c_str(), nullptr));
        const double lo = parts.front(), step = parts.size() == 3 ? parts[1] : 1.0, hi = parts.back();
        for (double v = lo; v <= hi + 1e-12; v += step) out.push_back(v);
        return out;
    }
    std::stringstream ss(t);
    double v;
    while (ss >> v) out.push_back(v);
    return out;
}

class PlanCall {
public:
    explicit PlanCall(const char* op) : schema_(&catalogue_schema(op)), values_(schema_->param_count) {
        set_.assign(schema_->param_count, false);
        for (uint32_t i = 0; i < schema_->param_count; ++i) values_[i].kind = ipt_op_param(schema_, i)->kind;
    }

    PlanCall& image(const char* name, int32_t dtype, int64_t rows, int64_t cols, int64_t channels = 1,
                    const void* host_data = nullptr) {
        ipt_tensor& t = tensors_.emplace_back();
        t.struct_size = sizeof(ipt_tensor);
        t.dtype = dtype;
        t.rows = rows;
        t.cols = cols;
        t.channels = channels;
        t.row_pitch = cols * static_cast<int64_t>(ipt::plugin::dtype_size(dtype));
        t.data = const_cast<void*>(host_data);
        ipt_value& v = at(name);
        v.image = &t;
        return mark(name);
    }
    PlanCall& integer(const char* name, int64_t value) {
        at(name).i = value;
        return mark(name);
    }
    PlanCall& number(const char* name, double value) {
        at(name).f = value;
        return mark(name);
    }
    PlanCall& floats(const char* name, std::vector<double> values) {
        const std::vector<double>& kept = lists_.emplace_back(std::move(values));
        at(name).floats = kept.data();
        at(name).count = kept.size();
        return mark(name);
    }
    PlanCall& text(const char* name, const char* value) {
        at(name).str = strings_.emplace_back(value).c_str();
        return mark(name);
    }
    // Outputs are wanted unless a test says otherwise.
    PlanCall& want(const char* name, bool wanted) {
        at(name).wanted = wanted ? 1 : 0;
        wanted_set_.push_back(name);
        return *this;
    }

    // The call as an implementation sees it; unset parameters take defaults.
    ipt::plugin::KernelArgs args() {
        for (uint32_t i = 0; i < schema_->param_count; ++i) {
            const ipt_param_schema& p = *ipt_op_param(schema_, i);
            ipt_value& v = values_[i];
            if (p.kind == IPT_PARAM_OUTPUT) {
                bool explicit_want = false;
                for (const std::string& w : wanted_set_) explicit_want |= w == p.name;
                if (!explicit_want) v.wanted = 1;
                continue;
            }
            if (set_[i] || !p.default_text || p.kind == IPT_PARAM_INPUT) continue;
            v.present = 1;
            switch (p.kind) {
            case IPT_PARAM_INT: v.i = std::llround(parse_numbers(p.default_text).at(0)); break;
            case IPT_PARAM_FLOAT: v.f = parse_numbers(p.default_text).at(0); break;
            case IPT_PARAM_FLOATS: {
                const std::vector<double>& kept = lists_.emplace_back(parse_numbers(p.default_text));
                v.floats = kept.data();
                v.count = kept.size();
                break;
            }
            case IPT_PARAM_ENUM: v.str = strings_.emplace_back(p.default_text).c_str(); break;
            default: break;
            }
        }
        call_ = ipt_kernel_call{};
        call_.struct_size = sizeof(ipt_kernel_call);
        call_.schema = schema_;
        call_.value_count = schema_->param_count;
        call_.value_stride = sizeof(ipt_value);
        call_.values = values_.data();
        return ipt::plugin::KernelArgs(&call_);
    }

private:
    uint32_t index(const char* name) const {
        for (uint32_t i = 0; i < schema_->param_count; ++i)
            if (std::strcmp(ipt_op_param(schema_, i)->name, name) == 0) return i;
        throw std::invalid_argument(std::string(schema_->name) + " has no parameter " + name);
    }
    ipt_value& at(const char* name) { return values_[index(name)]; }
    PlanCall& mark(const char* name) {
        const uint32_t i = index(name);
        values_[i].present = 1;
        set_[i] = true;
        return *this;
    }

    const ipt_op_schema* schema_;
    std::vector<ipt_value> values_;
    std::vector<bool> set_;
    std::deque<ipt_tensor> tensors_;
    std::deque<std::vector<double>> lists_;
    std::deque<std::string> strings_;
    std::vector<std::string> wanted_set_;
    ipt_kernel_call call_{};
};

}  // namespace ipt::test
