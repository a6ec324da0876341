// SPDX-License-Identifier: Apache-2.0
// Known deviations: one data file (conformance/deviations.txt, built
// into the library; --deviations FILE replaces it), one deviation per line:
//
//   operator | device kind | case pattern | reason
//
// operator matches "ipt.conv2" or "ipt.conv2:fft" (op:variant); patterns use
// * and ?. A case that matches is reported as "expected fail", never as a
// pass. A line without a reason, or malformed, is itself a failure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ipt::conformance {

struct Deviation {
    std::string op;
    std::string device_kind;
    std::string case_pattern;
    std::string reason;
    std::string where;  // "deviations.txt:12"
};

struct DeviationList {
    std::vector<Deviation> items;
    std::vector<std::string> errors;  // malformed lines, reasons missing, unreadable file

    // The first deviation matching an operator (and variant), a device kind
    // and a case label; nullptr when none does.
    const Deviation* match(const std::string& op, const std::string& variant, const std::string& device_kind,
                           const std::string& case_label) const;
};

DeviationList parse_deviations(std::string_view text, const std::string& source);
// path "" reads the list built into the library.
DeviationList load_deviations(const std::string& path);
std::string_view builtin_deviations_text();

// Glob match with * (any run) and ? (one character).
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace ipt::conformance
