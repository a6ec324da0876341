// SPDX-License-Identifier: Apache-2.0
#include "conformance_deviations.hpp"

#include <fstream>
#include <sstream>

namespace ipt::conformance {

bool glob_match(std::string_view pattern, std::string_view text) {
    // Iterative matcher: remember the last * and retry from one further.
    size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

namespace {

std::string trim(std::string_view s) {
    const size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return "";
    const size_t e = s.find_last_not_of(" \t\r");
    return std::string(s.substr(b, e - b + 1));
}

}  // namespace

DeviationList parse_deviations(std::string_view text, const std::string& source) {
    DeviationList list;
    size_t line_no = 0;
    for (size_t at = 0; at < text.size();) {
        size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        const std::string line = trim(text.substr(at, end - at));
        at = end + 1;
        ++line_no;
        if (line.empty() || line[0] == '#') continue;
        const std::string where = source + ":" + std::to_string(line_no);
        std::vector<std::string> fields;
        size_t from = 0;
        // Three separators; the reason may itself contain '|'.
        for (int k = 0; k < 3; ++k) {
            const size_t bar = line.find('|', from);
            if (bar == std::string::npos) break;
            fields.push_back(trim(std::string_view(line).substr(from, bar - from)));
            from = bar + 1;
        }
        fields.push_back(trim(std::string_view(line).substr(from)));
        if (fields.size() < 3) {
            list.errors.push_back(where + ": expected 'operator | device kind | case pattern | reason', got '" + line + "'");
            continue;
        }
        if (fields.size() == 3 || fields[3].empty()) {
            list.errors.push_back(where + ": deviation without a reason ('" + line + "')");
            continue;
        }
        if (fields[0].empty() || fields[1].empty() || fields[2].empty()) {
            list.errors.push_back(where + ": empty operator, device kind or case pattern ('" + line + "')");
            continue;
        }
        list.items.push_back(Deviation{fields[0], fields[1], fields[2], fields[3], where});
    }
    return list;
}

DeviationList load_deviations(const std::string& path) {
    if (path.empty()) return parse_deviations(builtin_deviations_text(), "deviations.txt");
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        DeviationList list;
        list.errors.push_back(path + ": cannot read the deviation list");
        return list;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return parse_deviations(text.str(), path);
}

const Deviation* DeviationList::match(const std::string& op, const std::string& variant,
                                      const std::string& device_kind, const std::string& case_label) const {
    const std::string op_variant = variant.empty() ? op : op + ":" + variant;
    for (const Deviation& d : items) {
        if (!glob_match(d.op, op) && !glob_match(d.op, op_variant)) continue;
        if (!glob_match(d.device_kind, device_kind)) continue;
        if (!glob_match(d.case_pattern, case_label)) continue;
        return &d;
    }
    return nullptr;
}

}  // namespace ipt::conformance
