// SPDX-License-Identifier: Apache-2.0
// The tiling rule of an operator (docs/abi.md#tiling):
//
//   rule  := [cond ('&' cond)* '?'] [term ('|' term)*] ['#' why]
//   cond  := NAME            the parameter is given
//          | NAME '=' VALUE  an option (default applied) equals VALUE
//          | NAME '!=' VALUE
//   term  := 'size:' NAME    numbers [m n] (one: both) of a window; reach floor(m/2)
//          | 'gauss:' NAME   sigma (one or [r c]); reach ceil(2 sigma), imgaussfilt's
//                            default FilterSize 2*ceil(2*sigma)+1
//          | 'dims:' NAME    an input image's rows and cols (kernel, neighbourhood)
//          | 'vec:' NAME ',' NAME  two vectors: rows from the first's length,
//                            cols from the second's (conv2(u, v, A))
//          | 'fixed:' R [',' C]
//
// The first term whose parameter is given, or has a default, gives the halo.
// When a condition fails the operator is not tiled (WHOLE) and `why` says so.
// REDUCE and WHOLE rules are text for people and are not parsed.
#include "tiling.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace ipt::reg {
namespace {

std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        const size_t at = s.find(sep, start);
        parts.push_back(trim(s.substr(start, at == std::string::npos ? std::string::npos : at - start)));
        if (at == std::string::npos) return parts;
        start = at + 1;
    }
}

bool iequal(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

struct Cond {
    int param = -1;
    enum { given, equal, differ } test = given;
    std::string value;
};

struct Term {
    enum Kind { size, gauss, dims, vec, fixed } kind = fixed;
    int a = -1, b = -1;
    int64_t rows = 0, cols = 0;  // fixed
};

struct Rule {
    std::vector<Cond> conds;
    std::string cond_text, why;
    std::vector<Term> terms;
};

class Parser {
public:
    Parser(const ipt_op_schema& op, const char* rule) : op_(op), text_(rule ? rule : "") {}

    ipt_status bad(const std::string& what) const {
        return fail(IPT_ERR_PLUGIN, std::string(op_.name) + ": tiling rule '" + text_ + "': " + what);
    }

    ipt_status param(const std::string& name, int* out) const {
        *out = param_index(op_, name.c_str());
        if (name.empty() || *out < 0) return bad("names no parameter '" + name + "'");
        return IPT_OK;
    }

    ipt_status parse(Rule* r) const {
        std::string body = text_;
        if (const size_t hash = body.find('#'); hash != std::string::npos) {
            r->why = trim(body.substr(hash + 1));
            body = body.substr(0, hash);
        }
        std::string terms = body;
        if (const size_t q = body.find('?'); q != std::string::npos) {
            r->cond_text = trim(body.substr(0, q));
            terms = body.substr(q + 1);
            for (const std::string& c : split(r->cond_text, '&')) {
                Cond cond;
                std::string name = c;
                if (const size_t ne = c.find("!="); ne != std::string::npos) {
                    cond.test = Cond::differ;
                    name = trim(c.substr(0, ne));
                    cond.value = trim(c.substr(ne + 2));
                } else if (const size_t eq = c.find('='); eq != std::string::npos) {
                    cond.test = Cond::equal;
                    name = trim(c.substr(0, eq));
                    cond.value = trim(c.substr(eq + 1));
                }
                if (ipt_status s = param(name, &cond.param); s != IPT_OK) return s;
                const int32_t kind = op_.params[cond.param].kind;
                if (cond.test != Cond::given && kind != IPT_PARAM_ENUM && kind != IPT_PARAM_INT)
                    return bad("compares '" + name + "', which is not an option or an integer");
                if (cond.test != Cond::given && cond.value.empty()) return bad("compares '" + name + "' with nothing");
                if (kind == IPT_PARAM_OUTPUT) return bad("tests the output '" + name + "'");
                r->conds.push_back(cond);
            }
        }
        if (trim(terms).empty()) return IPT_OK;
        for (const std::string& t : split(terms, '|')) {
            const size_t colon = t.find(':');
            if (colon == std::string::npos) return bad("term '" + t + "' has no ':'");
            const std::string kind = trim(t.substr(0, colon)), arg = trim(t.substr(colon + 1));
            Term term;
            if (kind == "size" || kind == "gauss") {
                term.kind = kind == "size" ? Term::size : Term::gauss;
                if (ipt_status s = param(arg, &term.a); s != IPT_OK) return s;
                const int32_t k = op_.params[term.a].kind;
                if (k != IPT_PARAM_INT && k != IPT_PARAM_FLOAT && k != IPT_PARAM_FLOATS)
                    return bad("'" + kind + ":" + arg + "' needs a numeric parameter");
            } else if (kind == "dims") {
                term.kind = Term::dims;
                if (ipt_status s = param(arg, &term.a); s != IPT_OK) return s;
                if (op_.params[term.a].kind != IPT_PARAM_INPUT) return bad("'dims:" + arg + "' needs an input image");
            } else if (kind == "vec") {
                term.kind = Term::vec;
                const std::vector<std::string> two = split(arg, ',');
                if (two.size() != 2) return bad("'vec:' needs two parameters, got '" + arg + "'");
                if (ipt_status s = param(two[0], &term.a); s != IPT_OK) return s;
                if (ipt_status s = param(two[1], &term.b); s != IPT_OK) return s;
                if (op_.params[term.a].kind != IPT_PARAM_INPUT || op_.params[term.b].kind != IPT_PARAM_INPUT)
                    return bad("'vec:" + arg + "' needs two input images");
            } else if (kind == "fixed") {
                term.kind = Term::fixed;
                const std::vector<std::string> nums = split(arg, ',');
                if (nums.size() > 2) return bad("'fixed:' takes one or two counts, got '" + arg + "'");
                int64_t v[2] = {0, 0};
                for (size_t i = 0; i < nums.size(); ++i) {
                    char* end = nullptr;
                    const long long n = std::strtoll(nums[i].c_str(), &end, 10);
                    if (nums[i].empty() || *end != '\0' || n < 0 || n > (1ll << 40))
                        return bad("'fixed:' takes whole counts >= 0, got '" + arg + "'");
                    v[i] = n;
                }
                term.rows = v[0];
                term.cols = nums.size() > 1 ? v[1] : v[0];
            } else {
                return bad("unknown term '" + kind + "' (size, gauss, dims, vec or fixed)");
            }
            r->terms.push_back(term);
        }
        return IPT_OK;
    }

private:
    const ipt_op_schema& op_;
    std::string text_;
};

// The value of a parameter as the call will see it: the caller's, else the
// schema's default. `*have` is false when neither exists.
ipt_status value_of(const ipt_op_schema& op, const std::vector<ParamValue>& values, int i, ParamValue* out,
                    bool* have) {
    *have = false;
    if (values[i].set) {
        *out = values[i];
        *have = true;
        return IPT_OK;
    }
    const ipt_param_schema& p = op.params[i];
    if (p.kind == IPT_PARAM_INPUT || p.kind == IPT_PARAM_OUTPUT || !p.default_text) return IPT_OK;
    if (parse_param_text(op, p, p.default_text, out) != IPT_OK)
        return fail(IPT_ERR_PLUGIN, std::string(op.name) + ": the default of parameter '" + p.name +
                                        "' does not parse: " + ipt_last_error());
    *have = true;
    return IPT_OK;
}

ipt_status numbers(const ipt_op_schema& op, const std::vector<ParamValue>& values, int i, double* r, double* c,
                   bool* have) {
    ParamValue v;
    if (ipt_status s = value_of(op, values, i, &v, have); s != IPT_OK || !*have) return s;
    const ipt_param_schema& p = op.params[i];
    std::vector<double> nums;
    if (p.kind == IPT_PARAM_INT) nums = {static_cast<double>(v.i)};
    else if (p.kind == IPT_PARAM_FLOAT) nums = {v.f};
    else nums = v.floats;
    if (nums.empty() || nums.size() > 2)
        return fail(IPT_ERR_INVALID_ARGUMENT, std::string(op.name) + ": parameter '" + p.name +
                                                  "' must hold one or two numbers to give a halo");
    *r = nums[0];
    *c = nums.size() > 1 ? nums[1] : nums[0];
    return IPT_OK;
}

ipt_status reach(const ipt_op_schema& op, const ipt_param_schema& p, double v, bool gauss, int64_t* out) {
    const double h = gauss ? std::ceil(2 * v) : std::floor(v / 2);
    if (!std::isfinite(v) || v < 0 || h > 1e12)
        return fail(IPT_ERR_INVALID_ARGUMENT, std::string(op.name) + ": parameter '" + p.name +
                                                  "' must hold finite numbers >= 0 (and below 1e12) to give a halo");
    *out = static_cast<int64_t>(h);
    return IPT_OK;
}

bool holds(const ipt_op_schema& op, const std::vector<ParamValue>& values, const Cond& c, ipt_status* status) {
    *status = IPT_OK;
    const ipt_param_schema& p = op.params[c.param];
    if (c.test == Cond::given) return values[c.param].set && (p.kind != IPT_PARAM_INPUT || values[c.param].image);
    ParamValue v;
    bool have = false;
    if ((*status = value_of(op, values, c.param, &v, &have)) != IPT_OK) return false;
    bool eq = false;
    if (have && p.kind == IPT_PARAM_ENUM) {
        eq = iequal(v.str, c.value);
    } else if (have) {
        char* end = nullptr;
        const long long n = std::strtoll(c.value.c_str(), &end, 10);
        eq = *end == '\0' && n == v.i;
    }
    return c.test == Cond::equal ? eq : !eq;
}

}  // namespace

ipt_status evaluate_tiling(const ipt_op_schema& op, const std::vector<ParamValue>& values, TilingResult* out) {
    const std::string name = op.name;
    *out = TilingResult{};
    const bool declared = op.struct_size >= IPT_SIZE_THROUGH(ipt_op_schema, tiling_rule);
    const int32_t kind = declared ? op.tiling : IPT_TILING_UNKNOWN;
    const char* rule = declared ? op.tiling_rule : nullptr;
    switch (kind) {
    case IPT_TILING_UNKNOWN:
        out->tiling = IPT_TILING_UNKNOWN;
        out->reason = name + " does not say how it tiles (its schema declares no tiling)";
        return IPT_OK;
    case IPT_TILING_WHOLE:
        out->tiling = IPT_TILING_WHOLE;
        out->reason = name + " needs the whole image" + (rule && *rule ? std::string(": ") + rule : std::string());
        return IPT_OK;
    case IPT_TILING_REDUCE:
        out->tiling = IPT_TILING_REDUCE;
        out->reason = rule ? rule : "";
        return IPT_OK;
    case IPT_TILING_POINTWISE:
    case IPT_TILING_WINDOW: break;
    default:
        return fail(IPT_ERR_PLUGIN, name + ": tiling " + std::to_string(kind) + " is not an ipt_tiling value");
    }

    Rule r;
    if (ipt_status s = Parser(op, rule).parse(&r); s != IPT_OK) return s;
    if (kind == IPT_TILING_WINDOW && r.terms.empty())
        return Parser(op, rule).bad("a window operator's rule needs a halo term");
    if (kind == IPT_TILING_POINTWISE && !r.terms.empty())
        return Parser(op, rule).bad("a pointwise operator's rule has no halo terms");

    for (const Cond& c : r.conds) {
        ipt_status s;
        const bool ok = holds(op, values, c, &s);
        if (s != IPT_OK) return s;
        if (!ok) {
            out->tiling = IPT_TILING_WHOLE;
            out->reason = name + " tiles only when " + r.cond_text + (r.why.empty() ? "" : ": " + r.why);
            return IPT_OK;
        }
    }
    out->tiling = kind;
    if (kind == IPT_TILING_POINTWISE) return IPT_OK;

    std::string wanted;
    for (const Term& t : r.terms) {
        switch (t.kind) {
        case Term::fixed:
            out->halo_rows = t.rows;
            out->halo_cols = t.cols;
            return IPT_OK;
        case Term::size:
        case Term::gauss: {
            double vr = 0, vc = 0;
            bool have = false;
            if (ipt_status s = numbers(op, values, t.a, &vr, &vc, &have); s != IPT_OK) return s;
            if (!have) break;
            const bool g = t.kind == Term::gauss;
            const ipt_param_schema& p = op.params[t.a];
            if (ipt_status s = reach(op, p, vr, g, &out->halo_rows); s != IPT_OK) return s;
            return reach(op, p, vc, g, &out->halo_cols);
        }
        case Term::dims: {
            const ipt_image* im = values[t.a].set ? values[t.a].image : nullptr;
            if (!im) break;
            out->halo_rows = im->tensor.rows / 2;
            out->halo_cols = im->tensor.cols / 2;
            return IPT_OK;
        }
        case Term::vec: {
            const ipt_image* u = values[t.a].set ? values[t.a].image : nullptr;
            const ipt_image* v = values[t.b].set ? values[t.b].image : nullptr;
            if (!u || !v) break;
            out->halo_rows = u->tensor.rows * u->tensor.cols / 2;
            out->halo_cols = v->tensor.rows * v->tensor.cols / 2;
            return IPT_OK;
        }
        }
        const char* w = op.params[t.a].name;
        wanted += (wanted.empty() ? "'" : " or '") + std::string(w) + "'";
        if (t.kind == Term::vec) wanted += std::string(" with '") + op.params[t.b].name + "'";
    }
    out->tiling = IPT_TILING_UNKNOWN;
    return fail(IPT_ERR_INVALID_ARGUMENT, name + ": the halo comes from " + wanted + "; set it on the call first");
}

}  // namespace ipt::reg
