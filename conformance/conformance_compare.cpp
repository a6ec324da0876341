// SPDX-License-Identifier: Apache-2.0
#include "conformance_compare.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>

namespace ipt::conformance {

const HostImage* NamedImages::find(const std::string& name) const {
    for (const auto& [n, im] : items)
        if (n == name) return &im;
    return nullptr;
}

void NamedImages::set(const std::string& name, HostImage image) {
    for (auto& [n, im] : items)
        if (n == name) {
            im = std::move(image);
            return;
        }
    items.emplace_back(name, std::move(image));
}

void Verdict::merge(const Verdict& other) {
    if (ok && !other.ok) message = other.message;
    ok = ok && other.ok;
    worst_abs = std::max(worst_abs, other.worst_abs);
    worst_ratio = std::max(worst_ratio, other.worst_ratio);
}

namespace {

std::string g17(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string g3(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

Verdict failure(std::string message) {
    Verdict v;
    v.ok = false;
    v.worst_ratio = std::numeric_limits<double>::infinity();
    v.message = std::move(message);
    return v;
}

// Same class and size, or a failure saying how they differ.
bool same_shape(const std::string& name, const HostImage& ref, const HostImage& got, Verdict& v) {
    if (ref.dtype != got.dtype) {
        v = failure(name + ": class " + std::string(dtype_label(got.dtype)) + ", reference " +
                    std::string(dtype_label(ref.dtype)));
        return false;
    }
    if (ref.rows != got.rows || ref.cols != got.cols || ref.channels != got.channels) {
        v = failure(name + ": size " + got.shape_text() + ", reference " + ref.shape_text());
        return false;
    }
    return true;
}

// Floating elements equal for the exact rule: same bits, both NaN, or both
// zero (IEEE min/max may return either sign of zero).
bool exact_equal(const HostImage& ref, const HostImage& got, size_t i) {
    const size_t w = element_size(ref.dtype);
    if (std::memcmp(ref.bytes.data() + i * w, got.bytes.data() + i * w, w) == 0) return true;
    if (!is_float(ref.dtype)) return false;
    const double r = ref.get(i), x = got.get(i);
    return (std::isnan(r) && std::isnan(x)) || (r == 0 && x == 0);
}

double metric_distance(const std::string& method, double dr, double dc) {
    dr = std::abs(dr);
    dc = std::abs(dc);
    if (method == "cityblock") return dr + dc;
    if (method == "chessboard") return std::max(dr, dc);
    if (method == "quasi-euclidean") return std::max(dr, dc) + (std::sqrt(2.0) - 1) * std::min(dr, dc);
    return std::sqrt(dr * dr + dc * dc);
}

}  // namespace

std::string element_name(const std::string& output, const HostImage& im, size_t index) {
    const size_t plane = static_cast<size_t>(im.rows * im.cols);
    const size_t ch = plane ? index / plane : 0;
    const size_t at = plane ? index % plane : 0;
    const size_t cols = static_cast<size_t>(std::max<int64_t>(im.cols, 1));
    std::string s = output + "(" + std::to_string(at / cols + 1) + "," + std::to_string(at % cols + 1);
    if (im.channels > 1) s += "," + std::to_string(ch + 1);
    return s + ")";
}

Verdict compare_exact(const std::string& name, const HostImage& ref, const HostImage& got) {
    Verdict v;
    if (!same_shape(name, ref, got, v)) return v;
    size_t mismatches = 0;
    for (size_t i = 0; i < ref.numel(); ++i) {
        if (exact_equal(ref, got, i)) continue;
        const double r = ref.get(i), x = got.get(i);
        if (std::isfinite(r) && std::isfinite(x)) v.worst_abs = std::max(v.worst_abs, std::abs(x - r));
        if (mismatches++ == 0) {
            v.ok = false;
            v.worst_ratio = std::numeric_limits<double>::infinity();
            v.message = element_name(name, ref, i) + " = " + g17(x) + ", reference " + g17(r) + " (exact)";
        }
    }
    if (mismatches > 1) v.message += "; " + std::to_string(mismatches) + " of " + std::to_string(ref.numel()) + " elements differ";
    return v;
}

Verdict compare_bounded(const std::string& name, const HostImage& ref, const HostImage& got,
                        const std::vector<double>& bound, const std::string& rule) {
    Verdict v;
    if (!same_shape(name, ref, got, v)) return v;
    size_t failures = 0;
    for (size_t i = 0; i < ref.numel(); ++i) {
        const double r = ref.get(i), x = got.get(i);
        double allowed = bound.size() == 1 ? bound[0] : bound[i];
        if (std::isnan(allowed)) allowed = std::numeric_limits<double>::infinity();  // no information
        bool ok;
        double diff = 0;
        if (std::isnan(r)) {
            ok = std::isnan(x);
        } else if (std::isinf(r)) {
            ok = x == r;
        } else {
            ok = std::isfinite(x);
            if (ok) {
                diff = std::abs(x - r);
                ok = diff <= allowed;
                v.worst_abs = std::max(v.worst_abs, diff);
                const double ratio = allowed > 0 ? diff / allowed : (diff > 0 ? std::numeric_limits<double>::infinity() : 0);
                v.worst_ratio = std::max(v.worst_ratio, ratio);
            }
        }
        if (ok) continue;
        if (!std::isfinite(r) || !std::isfinite(x)) v.worst_ratio = std::numeric_limits<double>::infinity();
        if (failures++ == 0) {
            v.ok = false;
            v.message = element_name(name, ref, i) + " = " + g17(x) + ", reference " + g17(r);
            if (std::isfinite(r) && std::isfinite(x))
                v.message += " (|diff| " + g3(diff) + " > " + rule + " bound " + g3(allowed) + ")";
            else
                v.message += " (non-finite values must match)";
        }
    }
    if (failures > 1) v.message += "; " + std::to_string(failures) + " of " + std::to_string(ref.numel()) + " elements outside";
    return v;
}

Verdict compare_bwdist_idx(const HostImage& ref_idx, const HostImage& got_idx, const HostImage& ref_d,
                           const HostImage& bw, const std::string& method) {
    Verdict v;
    if (!same_shape("IDX", ref_idx, got_idx, v)) return v;
    const int64_t rows = ref_idx.rows, cols = ref_idx.cols;
    size_t failures = 0;
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
            const size_t i = static_cast<size_t>(r * cols + c);
            const double want = ref_idx.get(i), have = got_idx.get(i);
            if (want == have) continue;
            // A tie: another feature pixel at the same distance is as right.
            std::string why;
            const double n = static_cast<double>(rows * cols);
            if (have < 1 || have > n || want == 0) {
                why = "not a pixel index";
            } else {
                const int64_t lin = static_cast<int64_t>(have) - 1;  // column-major, 1-based in IDX
                const int64_t fr = lin % rows, fc = lin / rows;
                const double feature = bw.get(static_cast<size_t>(fr * cols + fc));
                if (feature == 0) {
                    why = "not a feature pixel";
                } else {
                    const double d = static_cast<float>(metric_distance(method, static_cast<double>(r - fr),
                                                                        static_cast<double>(c - fc)));
                    const double dref = ref_d.get(i);
                    if (!(std::abs(d - dref) <= 4 * FLT_EPSILON * std::max(1.0, dref)))
                        why = "distance " + g17(d) + " to it, reference distance " + g17(dref);
                }
            }
            if (why.empty()) continue;
            v.worst_abs = std::max(v.worst_abs, std::abs(have - want));
            if (failures++ == 0) {
                v.ok = false;
                v.worst_ratio = std::numeric_limits<double>::infinity();
                v.message = element_name("IDX", ref_idx, i) + " = " + g17(have) + ", reference " + g17(want) + " (" + why + ")";
            }
        }
    }
    if (failures > 1) v.message += "; " + std::to_string(failures) + " elements differ";
    return v;
}

// ---- |A| * |B| -------------------------------------------------------------

namespace {

struct Kernel {
    int64_t rows = 0, cols = 0;
    std::vector<double> w;  // |h|, row-major
};

Kernel abs_kernel(const HostImage& h) {
    Kernel k{h.rows, h.cols, std::vector<double>(static_cast<size_t>(h.rows * h.cols))};
    for (size_t i = 0; i < k.w.size(); ++i) k.w[i] = std::abs(h.get(i));
    return k;
}

Kernel outer_kernel(const HostImage& u, const HostImage& v) {
    const int64_t m = static_cast<int64_t>(u.numel()), n = static_cast<int64_t>(v.numel());
    Kernel k{m, n, std::vector<double>(static_cast<size_t>(m * n))};
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
            k.w[static_cast<size_t>(i * n + j)] = std::abs(u.get(static_cast<size_t>(i))) * std::abs(v.get(static_cast<size_t>(j)));
    return k;
}

// Index into [0, n) by MATLAB's padding rule, or -1 for "outside".
int64_t pad_index(int64_t i, int64_t n, const std::string& boundary) {
    if (i >= 0 && i < n) return i;
    if (boundary == "replicate") return std::clamp<int64_t>(i, 0, n - 1);
    if (boundary == "circular") return ((i % n) + n) % n;
    if (boundary == "symmetric") {
        const int64_t period = 2 * n;
        const int64_t m = ((i % period) + period) % period;
        return m < n ? m : period - 1 - m;
    }
    return -1;
}

}  // namespace

std::vector<double> conv_magnitude(const ipt_op_schema& schema, const CaseSpec& c, const NamedImages& inputs,
                                   const HostImage& out) {
    const std::string op = schema.name;
    const HostImage* a = inputs.find("A");
    if (!a) return {};
    std::vector<double> mag(out.numel(), 0.0);
    const int64_t ma = a->rows, na = a->cols;

    if (op == "ipt.conv2") {
        Kernel k;
        if (const HostImage* b = inputs.find("B")) k = abs_kernel(*b);
        else if (inputs.find("u") && inputs.find("v")) k = outer_kernel(*inputs.find("u"), *inputs.find("v"));
        else return {};
        const std::string shape = param_text(schema, c, "shape");
        // Offset of the output inside the 'full' result.
        int64_t r0 = 0, c0 = 0;
        if (shape == "same") r0 = k.rows / 2, c0 = k.cols / 2;
        if (shape == "valid") r0 = k.rows - 1, c0 = k.cols - 1;
        for (int64_t r = 0; r < out.rows; ++r)
            for (int64_t q = 0; q < out.cols; ++q) {
                const int64_t fr = r + r0, fc = q + c0;
                double s = 0;
                for (int64_t i = std::max<int64_t>(0, fr - ma + 1); i <= std::min(k.rows - 1, fr); ++i)
                    for (int64_t j = std::max<int64_t>(0, fc - na + 1); j <= std::min(k.cols - 1, fc); ++j)
                        s += k.w[static_cast<size_t>(i * k.cols + j)] *
                             std::abs(a->get(static_cast<size_t>((fr - i) * na + (fc - j))));
                mag[static_cast<size_t>(r * out.cols + q)] = s;
            }
        return mag;
    }

    if (op == "ipt.imfilter") {
        const HostImage* h = inputs.find("h");
        if (!h) return {};
        Kernel k = abs_kernel(*h);
        if (param_text(schema, c, "mode") == "conv") std::reverse(k.w.begin(), k.w.end());  // rot180
        const std::string boundary = param_text(schema, c, "boundary");
        const bool full = param_text(schema, c, "output") == "full";
        const std::string x_text = param_text(schema, c, "X");
        const double x_abs = std::abs(x_text.empty() ? 0.0 : std::stod(x_text));
        // Correlation with origin floor((size+1)/2): out(r) = sum k(i) A(r + i - o);
        // 'full' starts m-1-o rows earlier.
        const int64_t orow = (k.rows - 1) / 2, ocol = (k.cols - 1) / 2;
        const int64_t shift_r = full ? k.rows - 1 : orow, shift_c = full ? k.cols - 1 : ocol;
        const size_t in_plane = static_cast<size_t>(ma * na);
        const size_t out_plane = static_cast<size_t>(out.rows * out.cols);
        for (int64_t ch = 0; ch < out.channels; ++ch)
            for (int64_t r = 0; r < out.rows; ++r)
                for (int64_t q = 0; q < out.cols; ++q) {
                    double s = 0;
                    for (int64_t i = 0; i < k.rows; ++i) {
                        const int64_t ar = pad_index(r + i - shift_r, ma, boundary);
                        for (int64_t j = 0; j < k.cols; ++j) {
                            const double w = k.w[static_cast<size_t>(i * k.cols + j)];
                            const int64_t ac = pad_index(q + j - shift_c, na, boundary);
                            const double av = (ar < 0 || ac < 0)
                                                  ? x_abs
                                                  : std::abs(a->get(static_cast<size_t>(ch) * in_plane +
                                                                    static_cast<size_t>(ar * na + ac)));
                            s += w * av;
                        }
                    }
                    mag[static_cast<size_t>(ch) * out_plane + static_cast<size_t>(r * out.cols + q)] = s;
                }
        return mag;
    }
    return {};
}

// ---- every output of a case ------------------------------------------------

Verdict compare_outputs(const ipt_op_schema& schema, const CaseSpec& c, const NamedImages& inputs,
                        const NamedImages& ref, const NamedImages& got, bool transform_variant) {
    Verdict all;
    for (const auto& [name, r] : ref.items) {
        const HostImage* g = got.find(name);
        if (!g) {
            all.merge(failure("output " + name + " missing"));
            continue;
        }
        Verdict v;
        if (r.dtype == IPT_LOGICAL && same_shape(name, r, *g, v)) {
            // An unwritten (poisoned) logical element is neither 0 nor 1.
            for (size_t i = 0; i < g->numel(); ++i)
                if (g->bytes[i] > 1) {
                    v = failure(element_name(name, *g, i) + " holds byte " + std::to_string(g->bytes[i]) +
                                ", not a logical value (unwritten?)");
                    break;
                }
            for (size_t i = 0; v.ok && i < r.numel(); ++i)
                if (r.bytes[i] > 1)
                    v = failure("reference " + element_name(name, r, i) + " holds byte " + std::to_string(r.bytes[i]) +
                                ", not a logical value (unwritten in the reference?)");
        }
        if (!v.ok) {
            all.merge(v);
            continue;
        }
        const ipt_dtype d = r.dtype;
        const double eps = eps_of(d);
        if (schema.compare == IPT_CMP_BWDIST && name == "IDX") {
            const HostImage* dref = ref.find("D");
            const HostImage* bw = inputs.find("BW");
            v = dref && bw ? compare_bwdist_idx(r, *g, *dref, *bw, param_text(schema, c, "method"))
                           : compare_exact(name, r, *g);
        } else if (!is_float(d) || schema.compare == IPT_CMP_EXACT || schema.compare == IPT_CMP_BWDIST) {
            v = compare_exact(name, r, *g);
        } else if (schema.compare == IPT_CMP_CONV) {
            std::vector<double> bound = conv_magnitude(schema, c, inputs, r);
            if (bound.empty() || bound.size() != r.numel()) {
                // Not a convolution whose magnitude we know: fall back to the range rule.
                double peak = 1;
                for (size_t i = 0; i < r.numel(); ++i)
                    if (std::isfinite(r.get(i))) peak = std::max(peak, std::abs(r.get(i)));
                v = compare_bounded(name, r, *g, {schema.tolerance * eps * peak}, "range");
            } else {
                // Plus one smallest normal number per kernel element: the
                // underflow term of the error bound (flush-to-zero devices).
                const HostImage* k = inputs.find("h") ? inputs.find("h") : inputs.find("B");
                const double terms = k ? static_cast<double>(k->numel()) : 1.0;
                if (transform_variant) {
                    double peak = 0;
                    for (double b : bound) peak = std::max(peak, b);
                    std::fill(bound.begin(), bound.end(), peak);
                }
                for (double& b : bound) b = schema.tolerance * eps * b + terms * min_normal_of(d);
                v = compare_bounded(name, r, *g, bound, "conv");
            }
        } else {  // IPT_CMP_RANGE_EPS, and any rule this suite does not know
            double peak = 1;
            for (size_t i = 0; i < r.numel(); ++i)
                if (std::isfinite(r.get(i))) peak = std::max(peak, std::abs(r.get(i)));
            v = compare_bounded(name, r, *g, {schema.tolerance * eps * peak}, "range");
        }
        all.merge(v);
    }
    // An output the device produced that the reference did not.
    for (const auto& item : got.items)
        if (!ref.find(item.first)) all.merge(failure("output " + item.first + " produced, but not by the reference"));
    return all;
}

}  // namespace ipt::conformance
