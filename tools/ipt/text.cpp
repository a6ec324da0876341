// SPDX-License-Identifier: Apache-2.0
#include "text.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <ostream>

#include "command.hpp"

namespace ipt::cli {

Assignment parse_assignment(std::string_view text, std::string_view option,
                            std::string_view value_word) {
    const auto eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0) {
        throw UsageError(std::string(option) + " expects NAME=" + std::string(value_word) +
                         ", got '" + std::string(text) + "'");
    }
    return {std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i) out += separator;
        out += parts[i];
    }
    return out;
}

Table::Table(std::vector<std::string> headers) : headers_(std::move(headers)) {}

void Table::add_row(std::vector<std::string> cells) {
    cells.resize(std::max(cells.size(), headers_.size()));
    rows_.push_back(std::move(cells));
}

void Table::print(std::ostream& out, std::string_view indent) const {
    std::vector<std::size_t> width(headers_.size(), 0);
    auto measure = [&](const std::vector<std::string>& cells) {
        for (std::size_t c = 0; c < cells.size(); ++c) {
            if (c >= width.size()) width.push_back(0);
            width[c] = std::max(width[c], cells[c].size());
        }
    };
    measure(headers_);
    for (const auto& row : rows_) measure(row);

    auto emit = [&](const std::vector<std::string>& cells) {
        std::string line(indent);
        for (std::size_t c = 0; c < cells.size(); ++c) {
            line += cells[c];
            if (c + 1 < cells.size()) line.append(width[c] - cells[c].size() + 2, ' ');
        }
        // Trailing blanks of empty last cells help nobody.
        line.erase(line.find_last_not_of(' ') + 1);
        out << line << '\n';
    };
    emit(headers_);
    for (const auto& row : rows_) emit(row);
}

void print_json(std::ostream& out, const nlohmann::json& value) {
    out << value.dump(2) << '\n';
}

namespace {
struct DtypeEntry {
    ipt_dtype dtype;
    std::string_view name;
    std::size_t size;
};
constexpr std::array<DtypeEntry, 8> kDtypes{{
    {IPT_LOGICAL, "logical", 1},
    {IPT_UINT8, "uint8", 1},
    {IPT_UINT16, "uint16", 2},
    {IPT_INT16, "int16", 2},
    {IPT_INT32, "int32", 4},
    {IPT_UINT32, "uint32", 4},
    {IPT_SINGLE, "single", 4},
    {IPT_DOUBLE, "double", 8},
}};
} // namespace

std::string_view dtype_name(ipt_dtype dtype) {
    for (const auto& e : kDtypes)
        if (e.dtype == dtype) return e.name;
    return "?";
}

std::optional<ipt_dtype> dtype_from_name(std::string_view name) {
    for (const auto& e : kDtypes)
        if (e.name == name) return e.dtype;
    return std::nullopt;
}

std::size_t dtype_size(ipt_dtype dtype) {
    for (const auto& e : kDtypes)
        if (e.dtype == dtype) return e.size;
    return 0;
}

std::string dtypes_in_words(uint32_t mask) {
    std::vector<std::string> names;
    for (const auto& e : kDtypes)
        if (mask & IPT_DT(e.dtype)) names.emplace_back(e.name);
    return join(names, "|");
}

std::string_view param_kind_name(int32_t kind) {
    switch (kind) {
    case IPT_PARAM_INPUT: return "input";
    case IPT_PARAM_OUTPUT: return "output";
    case IPT_PARAM_INT: return "int";
    case IPT_PARAM_FLOAT: return "float";
    case IPT_PARAM_FLOATS: return "floats";
    case IPT_PARAM_ENUM: return "enum";
    default: return "?";
    }
}

std::vector<std::string> flag_words(const ipt_param_schema& param) {
    const std::string ref = param.ref ? param.ref : "?";
    struct FlagWord {
        uint32_t flag;
        std::string words;
    };
    const FlagWord words[] = {
        {IPT_P_OPTIONAL, "optional"},
        {IPT_P_RGB, "1 or 3 channels"},
        {IPT_P_PLANES, "any number of channels (planes)"},
        {IPT_P_VECTOR, "vector"},
        {IPT_P_NONEMPTY, "non-empty"},
        {IPT_P_FINITE, "finite"},
        {IPT_P_INTEGRAL, "whole numbers"},
        {IPT_P_LUT, "lookup table for the class of " + ref},
        {IPT_P_HOST, "read on the host"},
        {IPT_P_SAME_SIZE, "same size as " + ref},
        {IPT_P_SAME_DTYPE, "same class as " + ref},
        {IPT_P_COUNT_IMAGES, "one per image (+ offset)"},
        {IPT_P_ORDER_OF, "1 <= value <= nnz(" + ref + ")"},
        {IPT_P_MAP, "colormap n x 3"},
    };
    std::vector<std::string> out;
    uint32_t known = 0;
    for (const auto& w : words) {
        known |= w.flag;
        // IPT_P_PLANES overrides IPT_P_RGB (a plugin may set both for older hosts).
        if (w.flag == IPT_P_RGB && (param.flags & IPT_P_PLANES)) continue;
        if (param.flags & w.flag) out.push_back(w.words);
    }
    // A plugin may use flags newer than this program: show them rather than hide them.
    if (const uint32_t unknown = param.flags & ~known) {
        char hex[32];
        std::snprintf(hex, sizeof hex, "flags 0x%x", unknown);
        out.emplace_back(hex);
    }
    return out;
}

std::string format_bytes(uint64_t bytes) {
    static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < std::size(units)) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    if (unit == 0)
        std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
    else
        std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
    return text;
}

std::string format_number(double value) {
    char text[64];
    const auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
}

} // namespace ipt::cli
