// SPDX-License-Identifier: Apache-2.0
// The benchmark matrix shared by `ipt bench` and `ipt tune`: which operators,
// sizes and data locations, and how one call is prepared from the
// conformance suite's representative case of an operator.
#ifndef IPT_TOOLS_BENCH_MATRIX_HPP
#define IPT_TOOLS_BENCH_MATRIX_HPP

#include <cstdint>
#include <string>
#include <vector>

#include <ipt/ipt.hpp>

#include "conformance_recipes.hpp"
#include "conformance_run.hpp"

namespace ipt::cli {

// Operators worth timing: those with an image input (strel and fspecial only
// build small arrays). `names` empty = every such operator of the context.
std::vector<const ipt_op_schema*> bench_ops(const ipt::Context& ctx, const std::vector<std::string>& names);

// "256,2048,8192" -> {256, 2048, 8192}; throws UsageError.
std::vector<int64_t> parse_sizes(const std::string& text);

// One prepared call: the operator's representative case at n x n, its inputs
// generated once (fixed seed), uploaded to a device on demand.
class BenchCase {
public:
    BenchCase(const ipt_op_schema& schema, int64_t n);

    const ipt_op_schema& schema() const { return *schema_; }
    const conformance::CaseSpec& spec() const { return spec_; }
    std::string dtype() const;     // class of the first image input
    uint64_t input_bytes() const;  // every image input, as generated

    // The inputs on a device (host-side parameters stay on the host).
    std::vector<ipt::Image> upload(ipt::Context& ctx, uint32_t device) const;
    // A call with every parameter of the case set, images from `images`.
    ipt::Call make_call(ipt::Context& ctx, const std::vector<ipt::Image>& images) const;

private:
    const ipt_op_schema* schema_;
    conformance::CaseSpec spec_;
    conformance::NamedImages inputs_;
};

// Median of a sample (empty: -1).
double median(std::vector<double> v);

// The q-quantile (0 <= q <= 1) of a sample, nearest rank (empty: -1).
double quantile(std::vector<double> v, double q);

// Prints a one-line progress bar to stderr ("[#####.....] 12/40 label").
void progress_bar(size_t done, size_t total, const std::string& label);

}  // namespace ipt::cli

#endif  // IPT_TOOLS_BENCH_MATRIX_HPP
