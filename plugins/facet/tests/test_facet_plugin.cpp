// SPDX-License-Identifier: Apache-2.0
// facet.robust through the public host API (ipt.hpp) of an installed
// OpenIPT, with libipt_facet found through IPT_PLUGIN_PATH: loading and the
// schema, exact polynomial fits, borders against an independent
// implementation, the paper's synthetic images (outliers removed, edges
// kept), classes, optional outputs, bad input, and, when the context has a
// CUDA device, the CUDA implementation against the CPU one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <ipt/ipt.hpp>

#include "../src/facet_core.hpp"
#include "independent_fit.hpp"
#include "synthetic.hpp"

namespace {

constexpr const char* kOp = "facet.robust";

ipt::Context& context() {
    static ipt::Context ctx;  // discovery: the installed plugins plus IPT_PLUGIN_PATH
    return ctx;
}

struct Result {
    std::vector<float> J;
    std::vector<uint8_t> degree;
    std::vector<float> coef;  // 10 planes, when asked for
};

template <class T>
std::vector<T> cast_to(const std::vector<double>& v) {
    std::vector<T> out(v.size());
    for (size_t i = 0; i < v.size(); ++i) out[i] = static_cast<T>(v[i]);
    return out;
}

ipt::Image upload_as(ipt_dtype dtype, int rows, int cols, const std::vector<double>& v, uint32_t device) {
    ipt::Context& ctx = context();
    switch (dtype) {
    case IPT_UINT8: return ctx.upload(rows, cols, cast_to<uint8_t>(v), 1, device);
    case IPT_UINT16: return ctx.upload(rows, cols, cast_to<uint16_t>(v), 1, device);
    case IPT_INT16: return ctx.upload(rows, cols, cast_to<int16_t>(v), 1, device);
    case IPT_INT32: return ctx.upload(rows, cols, cast_to<int32_t>(v), 1, device);
    case IPT_UINT32: return ctx.upload(rows, cols, cast_to<uint32_t>(v), 1, device);
    case IPT_SINGLE: return ctx.upload(rows, cols, cast_to<float>(v), 1, device);
    default: return ctx.upload(rows, cols, v, 1, device);
    }
}

using Params = std::map<std::string, std::string>;

Result run(const std::vector<double>& v, int rows, int cols, const Params& params = {}, bool coefficients = false,
           ipt_dtype dtype = IPT_DOUBLE, uint32_t device = IPT_DEVICE_HOST) {
    ipt::Context& ctx = context();
    ipt::Image in = upload_as(dtype, rows, cols, v, device);
    ipt::Call call(ctx, kOp);
    call.image("I", in).device(device);
    for (const auto& [name, value] : params) call.text(name.c_str(), value);
    if (coefficients) call.want("coefficients");
    call.run();
    Result r;
    r.J = call.take("J").download<float>();
    r.degree = call.take("degree").download<uint8_t>();
    if (coefficients) r.coef = call.take("coefficients").download<float>();
    return r;
}

std::vector<uint32_t> cuda_devices() {
    std::vector<uint32_t> ids;
    for (const ipt_device_info& d : context().devices())
        if (std::string(d.kind) == "cuda") ids.push_back(d.id);
    return ids;
}

// ---- loading ------------------------------------------------------------------

TEST(FacetPlugin, LoadsThroughPluginPathAndIntroducesTheOperator) {
    bool found = false;
    for (const ipt_plugin_report& r : context().plugin_reports())
        if (std::string(r.name) == "facet") {
            found = true;
            EXPECT_EQ(r.outcome, IPT_LOAD_LOADED) << r.error;
            EXPECT_STREQ(r.source, "IPT_PLUGIN_PATH");
            EXPECT_EQ(r.device_count, 0u);
            EXPECT_GE(r.impl_count, 1u);
        }
    ASSERT_TRUE(found) << "libipt_facet was not in the load report (IPT_PLUGIN_PATH=" << std::getenv("IPT_PLUGIN_PATH")
                       << ")";
    const ipt_op_schema* s = ipt_op_find(context().get(), kOp);
    ASSERT_NE(s, nullptr);
    std::vector<std::string> names;
    for (uint32_t i = 0; i < s->param_count; ++i) names.emplace_back(ipt_op_param(s, i)->name);
    const std::vector<std::string> want = {"I",      "window", "max_degree", "max_iter", "epsilon",
                                           "tuning", "J",      "degree",     "coefficients"};
    EXPECT_EQ(names, want);
    bool on_host = false;
    for (const ipt_impl_info& i : context().impls(kOp)) on_host |= i.device_id == IPT_DEVICE_HOST;
    EXPECT_TRUE(on_host);
}

// ---- exact fits -----------------------------------------------------------------

// A cubic in scaled global coordinates x = (row - r0) / 8, y = (col - c0) / 8,
// with its local coefficients around any pixel by binomial expansion.
struct Polynomial {
    double g[10] = {};  // in the documented monomial order, in x and y
    double r0 = 0, c0 = 0, step = 0.125;
    double at(double row, double col) const {
        const double x = (row - r0) * step, y = (col - c0) * step;
        double v = 0;
        for (int k = 0; k < 10; ++k)
            v += g[k] * std::pow(x, facet_test::kExponents[k].first) * std::pow(y, facet_test::kExponents[k].second);
        return v;
    }
    // Coefficients in the plugin's local basis (r, c pixel offsets).
    std::vector<double> local(double row, double col) const {
        auto binom = [](int n, int k) { return n == 3 && (k == 1 || k == 2) ? 3.0 : n == 2 && k == 1 ? 2.0 : 1.0; };
        const double X = (row - r0) * step, Y = (col - c0) * step;
        std::vector<double> out(10, 0.0);
        for (int k = 0; k < 10; ++k) {
            const auto [a, b] = facet_test::kExponents[k];
            for (int i = 0; i <= a; ++i)
                for (int j = 0; j <= b; ++j) {
                    // term g (X + s r)^a (Y + s c)^b contributes to r^i c^j
                    const double f = g[k] * binom(a, i) * std::pow(X, a - i) * std::pow(step, i) * binom(b, j) *
                                     std::pow(Y, b - j) * std::pow(step, j);
                    for (int m = 0; m < 10; ++m)
                        if (facet_test::kExponents[m] == std::make_pair(i, j)) out[m] += f;
                }
        }
        return out;
    }
};

TEST(FacetPlugin, PurePolynomialsAreReproducedWithTheirDegree) {
    facet_test::Random rnd(21);
    const int rows = 23, cols = 29;
    for (int window : {5, 7})
        for (int deg = 0; deg <= 3; ++deg) {
            Polynomial poly;
            poly.r0 = rows / 2.0;
            poly.c0 = cols / 2.0;
            const int p = (deg + 1) * (deg + 2) / 2;
            for (int k = 0; k < p; ++k) poly.g[k] = 2 * rnd.uniform() - 1;
            poly.g[p - 1] += poly.g[p - 1] >= 0 ? 1 : -1;  // the top degree is really there
            std::vector<double> img(rows * cols);
            for (int r = 0; r < rows; ++r)
                for (int c = 0; c < cols; ++c) img[r * cols + c] = poly.at(r, c);
            const Result out = run(img, rows, cols, {{"window", std::to_string(window)}}, true);
            const int h = window / 2;
            int checked = 0;
            for (int r = h; r < rows - h; ++r)
                for (int c = h; c < cols - h; ++c) {
                    const int at = r * cols + c;
                    ASSERT_EQ(out.degree[at], deg) << "window " << window << " pixel " << r << "," << c;
                    const double want = poly.at(r, c);
                    // J is the single rounding of the exact value (the fit's own error is ~1e-13).
                    ASSERT_NEAR(out.J[at], want, std::fabs(want) * 6e-8 + 1e-12) << "pixel " << r << "," << c;
                    const std::vector<double> local = poly.local(r, c);
                    for (int k = 0; k < 10; ++k)
                        ASSERT_NEAR(out.coef[k * rows * cols + at], local[k], std::fabs(local[k]) * 6e-8 + 1e-9)
                            << "coefficient " << k << " at " << r << "," << c;
                    ++checked;
                }
            EXPECT_EQ(checked, (rows - 2 * h) * (cols - 2 * h));
        }
}

// ---- borders, shapes, against the independent implementation ------------------------

TEST(FacetPlugin, EveryPixelMatchesTheIndependentFitWithSymmetricPadding) {
    facet_test::Random rnd(22);
    struct Case { int rows, cols, window, max_degree; };
    const Case cases[] = {{1, 1, 5, 3}, {1, 9, 5, 3}, {9, 1, 5, 3}, {2, 3, 3, 2}, {6, 7, 5, 3},
                          {12, 11, 7, 3}, {10, 13, 5, 1}, {8, 8, 9, 2}};
    int compared = 0, clear = 0;
    for (const Case& k : cases) {
        std::vector<double> img(k.rows * k.cols);
        for (int r = 0; r < k.rows; ++r)
            for (int c = 0; c < k.cols; ++c)
                img[r * k.cols + c] = 0.2 * r - 0.1 * c + 0.05 * r * c / 8 + rnd.uniform() +
                                      (rnd.uniform() < 0.1 ? 5.0 : 0.0);
        const Result out = run(img, k.rows, k.cols,
                               {{"window", std::to_string(k.window)}, {"max_degree", std::to_string(k.max_degree)}},
                               true);
        for (int r = 0; r < k.rows; ++r)
            for (int c = 0; c < k.cols; ++c) {
                const facet_test::IndependentResult want = facet_test::independent_fit(
                    facet_test::window_at(img, k.rows, k.cols, r, c, k.window), k.window, k.max_degree, 4, 1e-6, 1.345);
                ++compared;
                if (!facet_test::clear_choice(want)) continue;
                ++clear;
                const int at = r * k.cols + c;
                ASSERT_EQ(out.degree[at], want.degree) << k.rows << "x" << k.cols << " pixel " << r << "," << c;
                for (int m = 0; m < 10; ++m)
                    ASSERT_NEAR(out.coef[m * k.rows * k.cols + at], want.coef[m], 1e-6 * (1 + std::fabs(want.coef[m])))
                        << "coefficient " << m << " at " << r << "," << c;
                ASSERT_EQ(out.J[at], out.coef[at]);  // J is coefficient 0
            }
    }
    EXPECT_GT(clear, compared * 9 / 10);
}

TEST(FacetPlugin, OneByOneImageIsItsOwnValue) {
    const Result out = run({42.5}, 1, 1, {}, true);
    EXPECT_EQ(out.J[0], 42.5f);
    EXPECT_EQ(out.degree[0], 0);
    for (int k = 1; k < 10; ++k) EXPECT_EQ(out.coef[k], 0.0f);
}

TEST(FacetPlugin, EmptyImageGivesEmptyOutputs) {
    ipt::Context& ctx = context();
    ipt::Image in = ctx.create(IPT_DOUBLE, 0, 5);
    ipt::Call call(ctx, kOp);
    call.image("I", in).run();
    ipt::Image J = call.take("J");
    EXPECT_EQ(J.rows(), 0);
    EXPECT_EQ(J.cols(), 5);
    EXPECT_EQ(J.dtype(), IPT_SINGLE);
    EXPECT_EQ(call.take("degree").dtype(), IPT_UINT8);
}

// The host implementation splits rows over threads; the result must be the
// per-window reference fit, whatever the split.
TEST(FacetPlugin, ThreadedResultEqualsTheSerialReference) {
    const facet_test::Layout l = facet_test::layout_for(48);
    const facet_test::Image img = facet_test::s2_image(l);
    const Result out = run(img.v, img.rows, img.cols);
    facet::Settings st;
    auto ws = std::make_unique<facet::ReferenceWorkspace>();
    for (int r = 0; r < img.rows; ++r)
        for (int c = 0; c < img.cols; ++c) {
            const std::vector<double> w = facet_test::window_at(img.v, img.rows, img.cols, r, c, 5);
            const facet::Fit f = facet::fit_reference(w.data(), st, *ws);
            ASSERT_EQ(out.J[r * img.cols + c], static_cast<float>(f.coef[0])) << r << "," << c;
            ASSERT_EQ(out.degree[r * img.cols + c], f.degree) << r << "," << c;
        }
}

// ---- the paper's synthetic images ------------------------------------------------------

double rms_error(const std::vector<float>& a, const facet_test::Image& clean) {
    double s = 0;
    for (size_t i = 0; i < a.size(); ++i) s += (a[i] - clean.v[i]) * (a[i] - clean.v[i]);
    return std::sqrt(s / a.size());
}
double rms_error(const std::vector<double>& a, const facet_test::Image& clean) {
    return rms_error(cast_to<float>(a), clean);
}

// Column of the largest jump |J(r, c+1) - J(r, c)| for c in [lo, hi).
template <class Get>
int strongest_jump(Get get, int lo, int hi) {
    int best = lo;
    double size = -1;
    for (int c = lo; c < hi; ++c) {
        const double d = std::fabs(get(c + 1) - get(c));
        if (d > size) size = d, best = c;
    }
    return best;
}

struct EdgeCount {
    int checked = 0, kept = 0, worst_shift = 0;
    void add(int found, int want) {
        ++checked;
        kept += found == want;
        worst_shift = std::max(worst_shift, std::abs(found - want));
    }
};

// The vertical step edge (upper left) in every row, and the horizontal one
// between the halves in every column left of the pyramid, away from the
// corner where three levels meet.
std::pair<EdgeCount, EdgeCount> edges_kept(const std::vector<float>& J, const facet_test::Layout& l) {
    EdgeCount rows, cols;
    auto at = [&](int r, int c) { return static_cast<double>(J[r * l.cols + c]); };
    for (int r = 2; r < l.band_row - 3; ++r)
        rows.add(strongest_jump([&](int cc) { return at(r, cc); }, l.step_col - 6, l.step_col + 5), l.step_col - 1);
    for (int c = 2; c < l.apex_c - l.half_width - 3; ++c)
        if (std::abs(c - l.step_col) > 3) cols.add(strongest_jump([&](int rr) { return at(rr, c); }, l.band_row - 6, l.band_row + 5), l.band_row - 1);
    return {rows, cols};
}

TEST(FacetPlugin, SyntheticStrokeAndImpulseNoiseIsRemovedAndEdgesStay) {
    const facet_test::Layout l = facet_test::layout_for(128);
    const facet_test::Image clean = facet_test::clean_image(l);
    std::vector<uint8_t> impulses;
    const facet_test::Image s1 = facet_test::s1_image(l);
    const facet_test::Image s2 = facet_test::add_impulses(s1, 0.05, 12, &impulses);

    const Result out1 = run(s1.v, l.rows, l.cols);
    const Result out2 = run(s2.v, l.rows, l.cols);
    const double before1 = rms_error(s1.v, clean), after1 = rms_error(out1.J, clean);
    const double before2 = rms_error(s2.v, clean), after2 = rms_error(out2.J, clean);
    std::printf("[ facet    ] S1 (strokes): rms error %.4f -> %.4f (x%.1f)\n", before1, after1, before1 / after1);
    std::printf("[ facet    ] S2 (strokes + impulses): rms error %.4f -> %.4f (x%.1f)\n", before2, after2,
                before2 / after2);
    // The error left is mostly the model's own (corners rounded, the apex
    // flattened): on the clean image it is about 0.013.
    EXPECT_LT(after1, before1 / 2.5);
    EXPECT_LT(after2, before2 / 6);

    // Impulse pixels come back to the clean value.
    int hit = 0, restored = 0;
    for (size_t i = 0; i < impulses.size(); ++i)
        if (impulses[i]) {
            ++hit;
            restored += std::fabs(out2.J[i] - clean.v[i]) < 0.05;
        }
    std::printf("[ facet    ] impulses restored to within 0.05: %d of %d\n", restored, hit);
    EXPECT_GT(hit, 500);
    EXPECT_GE(restored, hit * 97 / 100);

    // Edges stay where they are: the strongest jump across each step edge
    // sits between the same two pixels as in the clean image in at least 90%
    // of the rows and columns crossing it, and never moves by more than one
    // pixel (where noise sits on the edge itself, the window cannot tell).
    const auto [clean_rows, clean_cols] = edges_kept(cast_to<float>(clean.v), l);
    ASSERT_EQ(clean_rows.kept, clean_rows.checked);  // the test's own premise
    ASSERT_EQ(clean_cols.kept, clean_cols.checked);
    const auto [out_rows, out_cols] = edges_kept(out2.J, l);
    const auto [in_rows, in_cols] = edges_kept(cast_to<float>(s2.v), l);
    std::printf("[ facet    ] S2 edge positions kept: rows %d/%d (shift <= %d), columns %d/%d (shift <= %d); "
                "noisy input: rows %d, columns %d\n",
                out_rows.kept, out_rows.checked, out_rows.worst_shift, out_cols.kept, out_cols.checked,
                out_cols.worst_shift, in_rows.kept, in_cols.kept);
    EXPECT_GE(out_rows.kept, out_rows.checked * 9 / 10);
    EXPECT_GE(out_cols.kept, out_cols.checked * 9 / 10);
    EXPECT_LE(out_rows.worst_shift, 1);
    EXPECT_LE(out_cols.worst_shift, 1);

    // The noise that gets through: the output on S2 against the output on
    // the clean image (the model's own smoothing taken out), overall and on
    // the pyramid (the four roof edges).
    const Result out0 = run(clean.v, l.rows, l.cols);
    double passed = 0, passed_roof = 0, noise_roof = 0;
    int roof = 0;
    for (int r = 0; r < l.rows; ++r)
        for (int c = 0; c < l.cols; ++c) {
            const size_t i = static_cast<size_t>(r) * l.cols + c;
            const double d = out2.J[i] - out0.J[i];
            passed += d * d;
            if (std::max(std::abs(r - l.apex_r), std::abs(c - l.apex_c)) <= l.half_width) {
                ++roof;
                passed_roof += d * d;
                noise_roof += (s2.v[i] - clean.v[i]) * (s2.v[i] - clean.v[i]);
            }
        }
    passed = std::sqrt(passed / clean.v.size());
    passed_roof = std::sqrt(passed_roof / roof);
    noise_roof = std::sqrt(noise_roof / roof);
    std::printf("[ facet    ] S2 noise passed through: rms %.4f of %.4f (x%.0f); on the pyramid %.4f of %.4f (x%.0f)\n",
                passed, before2, before2 / passed, passed_roof, noise_roof, noise_roof / passed_roof);
    EXPECT_LT(passed, before2 / 8);
    EXPECT_LT(passed_roof, noise_roof / 8);
}

// ---- classes and options ---------------------------------------------------------------

TEST(FacetPlugin, EveryClassGivesTheSameResultForTheSameValues) {
    facet_test::Random rnd(23);
    const int rows = 15, cols = 17;
    std::vector<double> v(rows * cols);
    for (double& x : v) x = rnd.below(200);
    const Result ref = run(v, rows, cols, {}, true, IPT_DOUBLE);
    for (ipt_dtype d : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE}) {
        const Result got = run(v, rows, cols, {}, true, d);
        EXPECT_EQ(got.J, ref.J) << ipt_dtype_name(d);
        EXPECT_EQ(got.degree, ref.degree) << ipt_dtype_name(d);
        EXPECT_EQ(got.coef, ref.coef) << ipt_dtype_name(d);
    }
}

TEST(FacetPlugin, CoefficientsOnlyWhenAskedFor) {
    ipt::Context& ctx = context();
    ipt::Image in = ctx.upload(4, 4, std::vector<double>(16, 1.0));
    ipt::Call call(ctx, kOp);
    call.image("I", in).run();
    ipt_image* img = nullptr;
    EXPECT_NE(ipt_call_take_output(call.get(), "coefficients", &img), IPT_OK);
    EXPECT_EQ(img, nullptr);
    ipt::Call asked(ctx, kOp);
    asked.image("I", in).want("coefficients").run();
    ipt::Image c = asked.take("coefficients");
    EXPECT_EQ(c.channels(), 10);
    EXPECT_EQ(c.dtype(), IPT_SINGLE);
}

TEST(FacetPlugin, MaxDegreeLimitsTheChoice) {
    const facet_test::Layout l = facet_test::layout_for(40);
    const facet_test::Image img = facet_test::s2_image(l);
    for (int deg = 0; deg <= 3; ++deg) {
        const Result out = run(img.v, l.rows, l.cols, {{"max_degree", std::to_string(deg)}});
        const int top = *std::max_element(out.degree.begin(), out.degree.end());
        EXPECT_LE(top, deg);
        if (deg == 0) {  // degree 0 is the median filter with symmetric padding
            for (int r = 0; r < l.rows; ++r)
                for (int c = 0; c < l.cols; ++c) {
                    ASSERT_EQ(out.J[r * l.cols + c],
                              static_cast<float>(facet_test::sorted_median(
                                  facet_test::window_at(img.v, l.rows, l.cols, r, c, 5))));
                }
        }
    }
}

// ---- bad input ---------------------------------------------------------------------------

struct BadCase {
    const char* what;
    Params params;
    double pixel;        // written at (1, 2) when not 0
    const char* names;   // the parameter the message must name
};

TEST(FacetPlugin, BadInputIsRejectedWithAMessageNamingTheParameter) {
    const double nan = std::nan(""), inf = HUGE_VAL;
    const BadCase cases[] = {
        {"even window", {{"window", "4"}}, 0, "window"},
        {"window below 3", {{"window", "1"}}, 0, "window"},
        {"window above 15", {{"window", "17"}}, 0, "window"},
        {"max_degree 4", {{"max_degree", "4"}}, 0, "max_degree"},
        {"max_degree -1", {{"max_degree", "-1"}}, 0, "max_degree"},
        {"3x3 window for a cubic", {{"window", "3"}, {"max_degree", "3"}}, 0, "window"},
        {"max_iter 0", {{"max_iter", "0"}}, 0, "max_iter"},
        {"negative epsilon", {{"epsilon", "-1"}}, 0, "epsilon"},
        {"tuning 0", {{"tuning", "0"}}, 0, "tuning"},
        {"NaN pixel", {}, nan, "'I'"},
        {"Inf pixel", {}, inf, "'I'"},
        {"-Inf pixel", {}, -inf, "'I'"},
        {"huge pixel", {}, 1e301, "'I'"},
    };
    for (const BadCase& k : cases) {
        std::vector<double> v(6 * 7, 1.0);
        if (k.pixel != 0) v[1 * 7 + 2] = k.pixel;
        ipt::Context& ctx = context();
        ipt::Image in = ctx.upload(6, 7, v);
        ipt::Call call(ctx, kOp);
        call.image("I", in);
        bool set_failed = false;
        for (const auto& [name, value] : k.params) {
            if (ipt_call_set_text(call.get(), name.c_str(), value.c_str()) != IPT_OK) set_failed = true;
        }
        ipt_status s = set_failed ? IPT_ERR_INVALID_ARGUMENT : ipt_call_run(call.get());
        const std::string message = ipt_last_error();
        EXPECT_EQ(s, IPT_ERR_INVALID_ARGUMENT) << k.what << ": " << message;
        EXPECT_NE(message.find(k.names), std::string::npos) << k.what << ": " << message;
        if (!set_failed) {
            EXPECT_NE(message.find(kOp), std::string::npos) << k.what << ": " << message;
            ipt_image* out = nullptr;
            EXPECT_NE(ipt_call_take_output(call.get(), "J", &out), IPT_OK) << k.what;
            EXPECT_EQ(out, nullptr);
        }
        if (k.pixel != 0) {
            EXPECT_NE(message.find("(2, 3)"), std::string::npos) << "names the pixel: " << message;
        }
    }
}

// ---- CUDA against the CPU ------------------------------------------------------------------

TEST(FacetPluginCuda, EqualsTheCpuResultBitForBit) {
    const std::vector<uint32_t> gpus = cuda_devices();
    if (gpus.empty()) GTEST_SKIP() << "no device of kind 'cuda' in this context (no CUDA backend or no GPU)";
    bool has_impl = false;
    for (const ipt_impl_info& i : context().impls(kOp))
        for (uint32_t g : gpus) has_impl |= i.device_id == g && std::string(i.plugin) == "facet";
    ASSERT_TRUE(has_impl) << "a CUDA device exists but facet.robust has no implementation on it "
                             "(plugin built without CUDA?)";
    struct Case { int size, window, max_degree; ipt_dtype dtype; };
    const Case cases[] = {{128, 5, 3, IPT_DOUBLE}, {97, 7, 3, IPT_SINGLE}, {64, 3, 2, IPT_UINT8},
                          {33, 9, 3, IPT_DOUBLE}, {40, 15, 3, IPT_DOUBLE}};
    for (uint32_t gpu : gpus)
        for (const Case& k : cases) {
            const facet_test::Layout l = facet_test::layout_for(k.size);
            std::vector<double> v = facet_test::s2_image(l).v;
            if (k.dtype == IPT_UINT8)
                for (double& x : v) x = std::round(255 * x);
            const Params p = {{"window", std::to_string(k.window)}, {"max_degree", std::to_string(k.max_degree)}};
            const Result cpu = run(v, l.rows, l.cols, p, true, k.dtype, IPT_DEVICE_HOST);
            const Result gpu_out = run(v, l.rows, l.cols, p, true, k.dtype, gpu);
            EXPECT_EQ(gpu_out.degree, cpu.degree) << "size " << k.size << " window " << k.window;
            size_t differ = 0;
            float worst = 0;
            for (size_t i = 0; i < cpu.J.size(); ++i)
                if (gpu_out.J[i] != cpu.J[i]) ++differ, worst = std::max(worst, std::fabs(gpu_out.J[i] - cpu.J[i]));
            EXPECT_EQ(differ, 0u) << "J differs at " << differ << " pixels, worst " << worst << " (size " << k.size
                                  << ", window " << k.window << ")";
            EXPECT_EQ(gpu_out.coef, cpu.coef) << "size " << k.size << " window " << k.window;
        }
    // Shapes at the edges: single pixels, rows and columns.
    for (uint32_t gpu : gpus)
        for (auto [rows, cols] : {std::pair{1, 1}, {1, 37}, {41, 1}}) {
            std::vector<double> v(rows * cols);
            facet_test::Random rnd(rows * 100 + cols);
            for (double& x : v) x = rnd.uniform();
            const Result cpu = run(v, rows, cols, {}, true);
            const Result g = run(v, rows, cols, {}, true, IPT_DOUBLE, gpu);
            EXPECT_EQ(g.J, cpu.J) << rows << "x" << cols;
            EXPECT_EQ(g.degree, cpu.degree) << rows << "x" << cols;
            EXPECT_EQ(g.coef, cpu.coef) << rows << "x" << cols;
        }
}

TEST(FacetPluginCuda, BadPixelsAreRejectedOnTheDevice) {
    const std::vector<uint32_t> gpus = cuda_devices();
    if (gpus.empty()) GTEST_SKIP() << "no device of kind 'cuda' in this context";
    std::vector<double> v(30 * 40, 0.5);
    v[7 * 40 + 9] = std::nan("");
    v[20 * 40 + 3] = HUGE_VAL;
    ipt::Context& ctx = context();
    ipt::Image in = ctx.upload(30, 40, v, 1, gpus.front());
    ipt::Call call(ctx, kOp);
    call.image("I", in).device(gpus.front());
    EXPECT_EQ(ipt_call_run(call.get()), IPT_ERR_INVALID_ARGUMENT);
    const std::string message = ipt_last_error();
    EXPECT_NE(message.find("(8, 10)"), std::string::npos) << message;  // the first bad pixel, 1-based
}

}  // namespace

int main(int argc, char** argv) {
    // The plugin built next to this test, unless the caller names one; no tuning cache.
    setenv("IPT_PLUGIN_PATH", FACET_PLUGIN_FILE, 0);
    setenv("IPT_TUNING_CACHE", "", 1);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
