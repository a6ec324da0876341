// SPDX-License-Identifier: Apache-2.0
// Parameters: parsing their textual form (defaults and the CLI), and checking
// every rule of a schema before any backend sees a call.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

#include "internal.hpp"

namespace ipt::reg {

namespace {

std::string op_param(const ipt_op_schema& op, const ipt_param_schema& p) {
    return std::string(op.name) + ": parameter '" + p.name + "'";
}


std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

bool iequals(const std::string& a, const char* b) {
    size_t n = std::strlen(b);
    if (a.size() != n) return false;
    for (size_t i = 0; i < n; ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

// One number: decimal, inf, -inf, nan, or pi.
bool parse_number(const std::string& text, double* out) {
    std::string t = trim(text);
    if (t.empty()) return false;
    if (iequals(t, "pi")) {
        *out = M_PI;
        return true;
    }
    if (iequals(t, "nan")) {
        *out = NAN;
        return true;
    }
    if (iequals(t, "inf") || iequals(t, "+inf")) {
        *out = INFINITY;
        return true;
    }
    if (iequals(t, "-inf")) {
        *out = -INFINITY;
        return true;
    }
    // from_chars: the C locale's decimal point whatever the process's locale.
    const char* first = t.data();
    const char* last = t.data() + t.size();
    const bool plus = *first == '+';  // from_chars takes '-' only
    if (plus) ++first;
    if (first == last || (plus && *first == '-')) return false;
    double v = 0;
    const auto [end, ec] = std::from_chars(first, last, v);
    if (ec == std::errc::result_out_of_range && end == last) {
        // strtod's rule: overflow is +-Inf, underflow a signed zero.
        const bool negative = *first == '-';
        const char* e = std::find_if(first, last, [](char c) { return c == 'e' || c == 'E'; });
        const char* digits = first + (negative ? 1 : 0);
        const bool tiny = e != last ? (e + 1 < last && e[1] == '-')
                                    : std::all_of(digits, std::find(digits, e, '.'), [](char c) { return c == '0'; });
        v = tiny ? (negative ? -0.0 : 0.0) : (negative ? -INFINITY : INFINITY);
    } else if (ec != std::errc()) {
        return false;
    }
    if (end != last) return false;
    *out = v;
    return true;
}

// Words between blanks (space, tab, line breaks).
std::vector<std::string> split_blanks(const std::string& s) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        size_t j = i;
        while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
        if (j > i) out.emplace_back(s, i, j - i);
        i = j;
    }
    return out;
}

// The most values a number list without its own max_count may hold.
constexpr size_t kMaxListValues = size_t(1) << 24;

// MATLAB colon range a:b or a:s:b, as MATLAB counts it (with a tolerance for
// floating steps so 0:0.1:1 has 11 elements).
bool parse_range(const std::string& text, std::vector<double>* out, size_t limit, bool* too_many) {
    std::vector<std::string> parts = split(text, ':');
    if (parts.size() != 2 && parts.size() != 3) return false;
    double a, s = 1, b;
    if (!parse_number(parts[0], &a) || !parse_number(parts.back(), &b)) return false;
    if (parts.size() == 3 && !parse_number(parts[1], &s)) return false;
    if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(s) || s == 0) return false;
    const double n = std::floor((b - a) / s + 1e-10);
    if (n < 0) return true;  // empty range
    // Counted before it is expanded: a short text must not become a huge list.
    if (n + 1 > static_cast<double>(limit - out->size())) {
        *too_many = true;
        return false;
    }
    for (int64_t k = 0; k <= static_cast<int64_t>(n); ++k) out->push_back(a + static_cast<double>(k) * s);
    return true;
}

// "[1 2 3]", "1,2,3", "[0.01 0.99]", "0:179", "[0:5:175]", "3"; at most
// `limit` values (*too_many set when there would be more).
bool parse_number_list(const std::string& text, std::vector<double>* out, size_t limit, bool* too_many) {
    std::string t = trim(text);
    if (!t.empty() && t.front() == '[') {
        if (t.back() != ']') return false;
        t = t.substr(1, t.size() - 2);
    }
    for (char& c : t)
        if (c == ',' || c == ';') c = ' ';
    for (const std::string& token : split_blanks(t)) {
        if (token.find(':') != std::string::npos) {
            if (!parse_range(token, out, limit, too_many)) return false;
        } else {
            double v;
            if (!parse_number(token, &v)) return false;
            if (out->size() >= limit) {
                *too_many = true;
                return false;
            }
            out->push_back(v);
        }
    }
    return true;
}

bool enum_contains(const char* values, const std::string& s, std::string* canonical) {
    if (!values) return false;
    for (const std::string& v : split(values, '|'))
        if (iequals(s, v.c_str())) {
            *canonical = v;
            return true;
        }
    return false;
}

const ipt_param_schema* find_param(const ipt_op_schema& op, const char* name) {
    int i = param_index(op, name);
    return i < 0 ? nullptr : ipt_op_param(&op, static_cast<uint32_t>(i));
}

bool in_alternatives(const ipt_op_schema& op, const char* name) {
    if (!op.alternatives) return false;
    for (const std::string& group : split(op.alternatives, '|'))
        for (const std::string& n : split(group, ','))
            if (n == name) return true;
    return false;
}

}  // namespace

int param_index(const ipt_op_schema& op, const char* name) {
    if (!name) return -1;
    for (uint32_t i = 0; i < op.param_count; ++i)
        if (std::strcmp(ipt_op_param(&op, i)->name, name) == 0) return static_cast<int>(i);
    return -1;
}

std::string enum_choices(const char* values) {
    std::vector<std::string> v = split(values ? values : "", '|');
    std::string out;
    for (size_t i = 0; i < v.size(); ++i) {
        if (i) out += (i + 1 == v.size()) ? " or " : ", ";
        out += "'" + v[i] + "'";
    }
    return out;
}

ipt_status parse_param_text(const ipt_op_schema& op, const ipt_param_schema& p, const char* text,
                            ParamValue* out) {
    const std::string t = text ? text : "";
    switch (p.kind) {
    case IPT_PARAM_ENUM: {
        std::string canonical;
        if (!enum_contains(p.values, trim(t), &canonical))
            return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " must be " + enum_choices(p.values) +
                                                      ", got '" + t + "'");
        out->str = canonical;
        break;
    }
    case IPT_PARAM_INT: {
        double v;
        if (!parse_number(t, &v))
            return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " expects an integer, got '" + t + "'");
        if (std::isnan(v))
            return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " expects an integer, got NaN");
        if (!std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 9.007199254740992e15)
            return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " expects an integer, got '" + t + "'");
        out->i = static_cast<int64_t>(v);
        break;
    }
    case IPT_PARAM_FLOAT: {
        double v;
        if (!parse_number(t, &v))
            return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " expects a number, got '" + t + "'");
        out->f = v;
        break;
    }
    case IPT_PARAM_FLOATS: {
        std::vector<double> v;
        // One value over the schema's bound still parses, so that the count
        // rule reports it as usual; far more stops the expansion.
        const size_t most = p.max_count > 0 ? p.max_count : kMaxListValues;
        bool too_many = false;
        const bool parsed = parse_number_list(t, &v, most + 1, &too_many);
        if (too_many)
            return fail(IPT_ERR_INVALID_ARGUMENT,
                        op_param(op, p) + " has more than " + std::to_string(most) + " values");
        if (!parsed)
            return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) +
                                                      " expects numbers such as '[0.01 0.99]', '3' or "
                                                      "'0:179', got '" + t + "'");
        out->floats = std::move(v);
        break;
    }
    default:
        return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " is an image and has no textual form");
    }
    out->set = true;
    return IPT_OK;
}

namespace {

ipt_status check_number(const ipt_op_schema& op, const ipt_param_schema& p, double v,
                        const std::string& where) {
    if ((p.flags & IPT_P_FINITE) && !std::isfinite(v))
        return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + where + " must be finite, got " + format_number(v));
    if ((p.flags & IPT_P_INTEGRAL) && std::isfinite(v) && v != std::floor(v))
        return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + where + " must be a whole number, got " + format_number(v));
    if (std::isfinite(v) && (v < p.min_value || v > p.max_value)) {
        std::string range = "[";
        range += p.min_value <= -IPT_UNBOUNDED ? "-Inf" : format_number(p.min_value);
        range += ", ";
        range += p.max_value >= IPT_UNBOUNDED ? "Inf" : format_number(p.max_value);
        range += "]";
        return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + where + " must be in " + range + ", got " + format_number(v));
    }
    return IPT_OK;
}

uint64_t count_nonzero(const ipt_image* img) {
    std::vector<unsigned char> bytes(img->bytes);
    if (copy_bytes_to_host(img, bytes.data()) != IPT_OK) return 0;
    const size_t elem = dtype_size(img->tensor.dtype);
    uint64_t n = 0;
    for (size_t i = 0; i < bytes.size(); i += elem) {
        bool nz = false;
        for (size_t b = 0; b < elem; ++b) nz |= bytes[i + b] != 0;
        n += nz;
    }
    return n;
}

int64_t images_given(const ipt_op_schema& op, const std::vector<ParamValue>& values) {
    int64_t n = 0;
    for (uint32_t i = 0; i < op.param_count; ++i)
        if (op.params[i].kind == IPT_PARAM_INPUT && values[i].set) ++n;
    return n;
}

// "B|u,v": exactly one group is complete, and no parameter of another group is set.
ipt_status check_alternatives(const ipt_op_schema& op, const std::vector<ParamValue>& values) {
    if (!op.alternatives) return IPT_OK;
    std::vector<std::string> groups = split(op.alternatives, '|');
    int complete = 0;
    std::string describe;
    for (const std::string& g : groups) {
        std::vector<std::string> names = split(g, ',');
        size_t given = 0;
        for (const std::string& n : names) {
            int i = param_index(op, n.c_str());
            if (i >= 0 && values[i].set) ++given;
        }
        if (given == names.size()) ++complete;
        else if (given != 0)
            return fail(IPT_ERR_INVALID_ARGUMENT, std::string(op.name) + ": parameters '" + g +
                                                      "' go together; give all of them or none");
        describe += (describe.empty() ? "" : "' or '") + g;
    }
    if (complete != 1)
        return fail(IPT_ERR_INVALID_ARGUMENT, std::string(op.name) + ": give exactly one of '" + describe + "'" +
                                                  (complete == 0 ? "" : " (more than one was given)"));
    return IPT_OK;
}

}  // namespace

ipt_status validate_call(const ipt_op_schema& op, std::vector<ParamValue>& values, ipt_context*) {
    // Defaults first, so every rule sees the final values.
    for (uint32_t i = 0; i < op.param_count; ++i) {
        const ipt_param_schema& p = op.params[i];
        if (!values[i].set && p.default_text && p.kind != IPT_PARAM_INPUT && p.kind != IPT_PARAM_OUTPUT) {
            ipt_status s = parse_param_text(op, p, p.default_text, &values[i]);
            if (s != IPT_OK)
                return fail(IPT_ERR_INTERNAL, std::string("catalogue default of ") + op.name + "." + p.name +
                                                  " does not parse: " + ipt_last_error());
        }
    }
    for (uint32_t i = 0; i < op.param_count; ++i) {
        const ipt_param_schema& p = op.params[i];
        ParamValue& v = values[i];
        if (p.kind == IPT_PARAM_OUTPUT) continue;
        const bool in_alternative = in_alternatives(op, p.name);
        if (!v.set) {
            if (!(p.flags & IPT_P_OPTIONAL) && !in_alternative)
                return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " is required");
            continue;
        }
        switch (p.kind) {
        case IPT_PARAM_INPUT: {
            const ipt_tensor& t = v.image->tensor;
            if (!(p.dtypes & IPT_DT(t.dtype)))
                return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " must be of class " + dtype_list(p.dtypes) +
                                                          ", got " + dtype_name(t.dtype));
            if (p.flags & IPT_P_PLANES) {
                // Any count: every image has at least one channel (check_dims, images.cpp).
            } else if (p.flags & IPT_P_RGB) {
                if (t.channels != 1 && t.channels != 3)
                    return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " must have 1 or 3 channels, got " +
                                                              std::to_string(t.channels));
            } else if (t.channels != 1) {
                return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " must be a 2-D image (1 channel), got " +
                                                          std::to_string(t.channels) + " channels");
            }
            if ((p.flags & IPT_P_VECTOR) && t.rows != 1 && t.cols != 1)
                return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " must be a vector (1xN or Nx1), got " +
                                                          std::to_string(t.rows) + "x" + std::to_string(t.cols));
            if ((p.flags & IPT_P_NONEMPTY) && (t.rows == 0 || t.cols == 0))
                return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " must not be empty");
            if ((p.flags & IPT_P_MAP) && (t.cols != 3 || t.rows < 1))
                return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " must be an n x 3 colormap, got " +
                                                          std::to_string(t.rows) + "x" + std::to_string(t.cols));
            if (p.flags & (IPT_P_SAME_SIZE | IPT_P_SAME_DTYPE | IPT_P_LUT)) {
                const ipt_param_schema* rp = find_param(op, p.ref);
                const int ri = param_index(op, p.ref);
                if (!rp || ri < 0) return fail(IPT_ERR_INTERNAL, op_param(op, p) + " refers to an unknown parameter");
                if (!values[ri].set) break;  // the reference's own rule reports it
                const ipt_tensor& r = values[ri].image->tensor;
                if ((p.flags & IPT_P_SAME_SIZE) && (t.rows != r.rows || t.cols != r.cols || t.channels != r.channels))
                    return fail(IPT_ERR_INVALID_ARGUMENT,
                                op_param(op, p) + " must be the size of '" + p.ref + "' (" + std::to_string(r.rows) + "x" +
                                    std::to_string(r.cols) + "x" + std::to_string(r.channels) + "), got " +
                                    std::to_string(t.rows) + "x" + std::to_string(t.cols) + "x" + std::to_string(t.channels));
                if ((p.flags & IPT_P_SAME_DTYPE) && t.dtype != r.dtype)
                    return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " must be of the class of '" + p.ref + "' (" +
                                                              dtype_name(r.dtype) + "), got " + dtype_name(t.dtype));
                if (p.flags & IPT_P_LUT) {
                    const int64_t need = r.dtype == IPT_UINT8 ? 256 : 65536;
                    if (t.rows * t.cols != need)
                        return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " must have " + std::to_string(need) +
                                                                  " entries for " + dtype_name(r.dtype) + " '" + p.ref +
                                                                  "', got " + std::to_string(t.rows * t.cols));
                }
            }
            break;
        }
        case IPT_PARAM_INT: {
            if (p.values) {
                bool ok = false;
                for (const std::string& a : split(p.values, '|')) ok |= std::to_string(v.i) == a;
                if (!ok)
                    return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " must be " + enum_choices(p.values) +
                                                              ", got " + std::to_string(v.i));
            }
            ipt_status s = check_number(op, p, static_cast<double>(v.i), "");
            if (s != IPT_OK) return s;
            if (p.flags & IPT_P_ORDER_OF) {
                const int ri = param_index(op, p.ref);
                if (ri >= 0 && values[ri].set) {
                    const uint64_t n = count_nonzero(values[ri].image);
                    if (v.i < 1 || static_cast<uint64_t>(v.i) > n)
                        return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " must be between 1 and nnz(" + p.ref +
                                                                  ") = " + std::to_string(n) + ", got " + std::to_string(v.i));
                }
            }
            break;
        }
        case IPT_PARAM_FLOAT: {
            ipt_status s = check_number(op, p, v.f, "");
            if (s != IPT_OK) return s;
            break;
        }
        case IPT_PARAM_FLOATS: {
            const uint64_t n = v.floats.size();
            if (n < p.min_count || n > p.max_count)
                return fail(IPT_ERR_INVALID_ARGUMENT,
                            op_param(op, p) + " must have " +
                                (p.min_count == p.max_count ? std::to_string(p.min_count)
                                                            : std::to_string(p.min_count) + " to " + std::to_string(p.max_count)) +
                                " values, got " + std::to_string(n));
            for (uint64_t k = 0; k < n; ++k) {
                std::string where;
                if (n > 1) where.append("(").append(std::to_string(k + 1)).append(")");
                ipt_status s = check_number(op, p, v.floats[k], where);
                if (s != IPT_OK) return s;
            }
            if (p.flags & IPT_P_COUNT_IMAGES) {
                const int64_t images = images_given(op, values);
                if (static_cast<int64_t>(n) != images && static_cast<int64_t>(n) != images + 1)
                    return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " must have one value per image (" +
                                                              std::to_string(images) + "), plus optionally an offset; got " +
                                                              std::to_string(n));
            }
            break;
        }
        case IPT_PARAM_ENUM: {
            std::string canonical;
            if (!enum_contains(p.values, v.str, &canonical))
                return fail(IPT_ERR_INVALID_ARGUMENT, op_param(op, p) + " must be " + enum_choices(p.values) +
                                                          ", got '" + v.str + "'");
            v.str = canonical;
            break;
        }
        default: break;
        }
    }
    // Optional image inputs in a row (A1..A8): a later one without an earlier one
    // is allowed by the rules above; implementations use the ones given.
    return check_alternatives(op, values);
}

std::string format_number(double v, int precision) {
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, precision);
    return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

}  // namespace ipt::reg
