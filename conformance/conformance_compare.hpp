// SPDX-License-Identifier: Apache-2.0
// How the outputs of a device are compared with the reference's. Each rule of
// the catalogue (ipt_compare_kind) is implemented here once; the suite and
// `ipt demo` both call compare_outputs().
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "conformance_image.hpp"
#include "conformance_recipes.hpp"
#include "ipt/ipt_ops.h"

namespace ipt::conformance {

// Named images: the inputs of a case as generated, or the outputs of a run.
struct NamedImages {
    std::vector<std::pair<std::string, HostImage>> items;
    const HostImage* find(const std::string& name) const;
    void set(const std::string& name, HostImage image);
};

struct Verdict {
    bool ok = true;
    double worst_abs = 0;    // largest |x - ref| over the compared finite elements
    double worst_ratio = 0;  // largest |x - ref| / allowed; > 1 fails (exact rules: 0 or inf)
    std::string message;     // the first failure: output, element, values and bound
    void merge(const Verdict& other);
};

// Compares every output the reference produced. Integer and logical outputs
// are always exact; floating outputs follow schema.compare and
// schema.tolerance. Logical outputs must hold only 0 and 1 (a poisoned,
// unwritten element does not). transform_variant: the implementation
// computes through a transform (an FFT), whose rounding error scales with the
// whole result, so the CONV bound uses the output's largest (|A|*|B|)(p).
Verdict compare_outputs(const ipt_op_schema& schema, const CaseSpec& c, const NamedImages& inputs,
                        const NamedImages& ref, const NamedImages& got,
                        bool transform_variant = false);

// The rules on their own (tested directly).
Verdict compare_exact(const std::string& name, const HostImage& ref, const HostImage& got);
// |x - ref| <= bound[i] for finite references (bound of size 1: the same for
// all); NaN and +-Inf in the reference must be matched exactly.
Verdict compare_bounded(const std::string& name, const HostImage& ref, const HostImage& got,
                        const std::vector<double>& bound, const std::string& rule);
// bwdist IDX: exact, or at a tie a feature pixel whose distance by `method`
// equals the reference distance.
Verdict compare_bwdist_idx(const HostImage& ref_idx, const HostImage& got_idx, const HostImage& ref_d,
                           const HostImage& bw, const std::string& method);

// (|A| * |B|)(p) in double for each element of the output of a conv2 or
// imfilter case (the IPT_CMP_CONV bound); empty when the operator is not one
// whose magnitude is known.
std::vector<double> conv_magnitude(const ipt_op_schema& schema, const CaseSpec& c, const NamedImages& inputs,
                                   const HostImage& out);

// "C(3,4)" or "C(3,4,2)", 1-based as in MATLAB.
std::string element_name(const std::string& output, const HostImage& im, size_t index);

}  // namespace ipt::conformance
