// SPDX-License-Identifier: Apache-2.0
// The benchmark matrix shared by `ipt bench` and `ipt tune`.
#include "bench_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "command.hpp"

namespace ipt::cli {

namespace {

constexpr uint64_t bench_seed = 20260101;

bool has_image_input(const ipt_op_schema& s) {
    for (uint32_t i = 0; i < s.param_count; ++i)
        if (ipt_op_param(&s, i)->kind == IPT_PARAM_INPUT && !(ipt_op_param(&s, i)->flags & IPT_P_HOST)) return true;
    return false;
}

const ipt_param_schema* param_of(const ipt_op_schema& s, const std::string& name) {
    for (uint32_t i = 0; i < s.param_count; ++i)
        if (name == ipt_op_param(&s, i)->name) return ipt_op_param(&s, i);
    return nullptr;
}

}  // namespace

std::vector<const ipt_op_schema*> bench_ops(const ipt::Context& ctx, const std::vector<std::string>& names) {
    std::vector<const ipt_op_schema*> out;
    if (names.empty()) {
        for (const ipt_op_schema* s : ctx.ops())
            if (has_image_input(*s) && ipt_impl_count(ctx.get(), s->name) > 0) out.push_back(s);
        return out;
    }
    for (const std::string& n : names) {
        const ipt_op_schema* s = ipt_op_find(ctx.get(), resolve_op(ctx, n).c_str());
        if (!has_image_input(*s)) throw UsageError(std::string(s->name) + " has no image input to time");
        out.push_back(s);
    }
    return out;
}

std::vector<int64_t> parse_sizes(const std::string& text) {
    std::vector<int64_t> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        char* end = nullptr;
        long long v = std::strtoll(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || v < 1 || v > 65536)
            throw UsageError("--sizes expects side lengths such as 256,2048,8192; got '" + text + "'");
        out.push_back(v);
    }
    if (out.empty()) throw UsageError("--sizes is empty");
    return out;
}

BenchCase::BenchCase(const ipt_op_schema& schema, int64_t n)
    : schema_(&schema), spec_(conformance::demo_case(schema, n, n)),
      inputs_(conformance::generate_inputs(spec_, schema.name, bench_seed)) {}

std::string BenchCase::dtype() const {
    for (const auto& a : spec_.args)
        if (a.kind == conformance::Arg::Kind::Image) return std::string(conformance::dtype_label(a.image.dtype));
    return "";
}

uint64_t BenchCase::input_bytes() const {
    uint64_t n = 0;
    for (const auto& [name, img] : inputs_.items) n += img.bytes.size();
    return n;
}

std::vector<ipt::Image> BenchCase::upload(ipt::Context& ctx, uint32_t device) const {
    std::vector<ipt::Image> out;
    for (const auto& a : spec_.args) {
        if (a.kind != conformance::Arg::Kind::Image) continue;
        const conformance::HostImage* h = inputs_.find(a.name);
        const ipt_param_schema* p = param_of(*schema_, a.name);
        const uint32_t where = p && (p->flags & IPT_P_HOST) ? IPT_DEVICE_HOST : device;
        out.push_back(ctx.upload(h->dtype, h->rows, h->cols, h->bytes.data(), h->channels, where));
    }
    return out;
}

ipt::Call BenchCase::make_call(ipt::Context& ctx, const std::vector<ipt::Image>& images) const {
    ipt::Call call(ctx, schema_->name);
    size_t k = 0;
    for (const auto& a : spec_.args) {
        switch (a.kind) {
        case conformance::Arg::Kind::Image: call.image(a.name.c_str(), images.at(k++)); break;
        case conformance::Arg::Kind::Int: call.integer(a.name.c_str(), a.i); break;
        case conformance::Arg::Kind::Float: call.number(a.name.c_str(), a.f); break;
        case conformance::Arg::Kind::Floats: call.numbers(a.name.c_str(), a.floats); break;
        case conformance::Arg::Kind::Text: call.option(a.name.c_str(), a.text); break;
        }
    }
    return call;
}

double median(std::vector<double> v) {
    if (v.empty()) return -1;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double quantile(std::vector<double> v, double q) {
    if (v.empty()) return -1;
    std::sort(v.begin(), v.end());
    const double rank = std::clamp(q, 0.0, 1.0) * static_cast<double>(v.size() - 1);
    return v[static_cast<size_t>(std::lround(rank))];
}

void progress_bar(size_t done, size_t total, const std::string& label) {
    constexpr int width = 30;
    const int filled = total ? static_cast<int>(width * done / total) : width;
    std::fprintf(stderr, "\r[%s%s] %zu/%zu %-40.40s", std::string(filled, '#').c_str(),
                 std::string(width - filled, '.').c_str(), done, total, label.c_str());
    if (done == total) std::fprintf(stderr, "\n");
    std::fflush(stderr);
}

}  // namespace ipt::cli
