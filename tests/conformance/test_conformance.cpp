// SPDX-License-Identifier: Apache-2.0
// Tests of the conformance suite itself: each comparison rule catches what it
// must (expected values worked out by hand below), the deviation list, the
// coverage of the recipes, and whole runs: a plugin that is wrong on purpose,
// broken plugins and bad names. The CPU plugin through a second load path and
// every GPU plugin built here are certified through the `ipt` program (ctest
// conformance_cli_*), as a third party runs it.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "conformance.hpp"
#include "conformance_compare.hpp"
#include "conformance_deviations.hpp"
#include "conformance_recipes.hpp"
#include "conformance_run.hpp"
#include "ipt/ipt_ops.h"

namespace fs = std::filesystem;
using namespace ipt::conformance;

namespace {

HostImage image_of(ipt_dtype d, int64_t rows, int64_t cols, const std::vector<double>& v, int64_t channels = 1) {
    HostImage im = HostImage::make(d, rows, cols, channels);
    for (size_t i = 0; i < v.size(); ++i) im.put(i, v[i]);
    return im;
}

const ipt_op_schema& builtin(const std::string& name) {
    for (uint32_t i = 0; i < IPT_BUILTIN_OP_COUNT; ++i)
        if (name == ipt_builtin_ops[i].name) return ipt_builtin_ops[i];
    throw std::logic_error("no built-in " + name);
}

NamedImages named(std::initializer_list<std::pair<std::string, HostImage>> items) {
    NamedImages n;
    for (const auto& [k, v] : items) n.set(k, v);
    return n;
}

}  // namespace

// ---- the exact rule ----------------------------------------------------------

TEST(ConformanceRules, ExactPassesEqualAndNamesTheFirstDifference) {
    const HostImage ref = image_of(IPT_UINT8, 2, 3, {1, 2, 3, 4, 5, 6});
    EXPECT_TRUE(compare_exact("B", ref, ref).ok);
    HostImage got = ref;
    got.put(4, 7);  // row 2, column 2
    const Verdict v = compare_exact("B", ref, got);
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.message.find("B(2,2) = 7, reference 5"), std::string::npos) << v.message;
    EXPECT_EQ(v.worst_abs, 2);
}

TEST(ConformanceRules, ExactTreatsNaNsAsEqualAndSignedZerosAsEqual) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const HostImage ref = image_of(IPT_DOUBLE, 1, 3, {nan, 0.0, 1.0});
    const HostImage got = image_of(IPT_DOUBLE, 1, 3, {-nan, -0.0, 1.0});
    EXPECT_TRUE(compare_exact("C", ref, got).ok);
    const HostImage off = image_of(IPT_DOUBLE, 1, 3, {nan, 0.0, std::nextafter(1.0, 2.0)});
    EXPECT_FALSE(compare_exact("C", ref, off).ok);  // one ulp is a failure for the exact rule
}

TEST(ConformanceRules, SizeAndClassMismatchFail) {
    const HostImage ref = image_of(IPT_SINGLE, 2, 2, {1, 2, 3, 4});
    const Verdict size = compare_exact("C", ref, image_of(IPT_SINGLE, 4, 1, {1, 2, 3, 4}));
    EXPECT_FALSE(size.ok);
    EXPECT_NE(size.message.find("size 4x1, reference 2x2"), std::string::npos) << size.message;
    const Verdict cls = compare_exact("C", ref, image_of(IPT_DOUBLE, 2, 2, {1, 2, 3, 4}));
    EXPECT_FALSE(cls.ok);
    EXPECT_NE(cls.message.find("class double, reference single"), std::string::npos) << cls.message;
}

// ---- the bounded rules -------------------------------------------------------

TEST(ConformanceRules, BoundedAcceptsInsideRejectsOutsideAndMatchesNonFinite) {
    const double inf = std::numeric_limits<double>::infinity();
    const HostImage ref = image_of(IPT_DOUBLE, 1, 3, {1.0, inf, -2.0});
    EXPECT_TRUE(compare_bounded("m", ref, image_of(IPT_DOUBLE, 1, 3, {1.0 + 1e-10, inf, -2.0}), {1e-9}, "range").ok);
    const Verdict out = compare_bounded("m", ref, image_of(IPT_DOUBLE, 1, 3, {1.0 + 1e-8, inf, -2.0}), {1e-9}, "range");
    EXPECT_FALSE(out.ok);
    EXPECT_NEAR(out.worst_ratio, 10, 1e-3);
    EXPECT_FALSE(compare_bounded("m", ref, image_of(IPT_DOUBLE, 1, 3, {1.0, -inf, -2.0}), {1}, "range").ok);
    EXPECT_FALSE(compare_bounded("m", ref, image_of(IPT_DOUBLE, 1, 3, {1.0, inf, std::nan("")}), {1}, "range").ok);
}

TEST(ConformanceRules, RangeEpsBoundIsToleranceEpsTimesPeak) {
    // mean2 on single: 16 eps(single) * max(1, |ref|).
    const ipt_op_schema& s = builtin("ipt.mean2");
    ASSERT_EQ(s.compare, IPT_CMP_RANGE_EPS);
    CaseSpec c;
    const HostImage ref = image_of(IPT_SINGLE, 1, 1, {1000.0});
    const double bound = s.tolerance * FLT_EPSILON * 1000.0;  // 1000 > 1
    const HostImage inside = image_of(IPT_SINGLE, 1, 1, {1000.0 + bound * 0.9});
    const HostImage outside = image_of(IPT_SINGLE, 1, 1, {static_cast<double>(std::nextafter(static_cast<float>(1000.0 + bound), 2000.0f))});
    EXPECT_TRUE(compare_outputs(s, c, {}, named({{"m", ref}}), named({{"m", inside}})).ok);
    EXPECT_FALSE(compare_outputs(s, c, {}, named({{"m", ref}}), named({{"m", outside}})).ok);
}

TEST(ConformanceRules, ConvMagnitudeOfConv2SameByHand) {
    // |A| = [1 2; 3 4], |B| = [1 1]: full |A|*|B| = [1 3 2; 3 7 4]; 'same'
    // keeps columns floor(2/2)+1 .. +2, i.e. [3 2; 7 4].
    const ipt_op_schema& s = builtin("ipt.conv2");
    CaseSpec c;
    c.add(text_arg("shape", "same"));
    const NamedImages in = named({{"A", image_of(IPT_DOUBLE, 2, 2, {1, -2, 3, 4})}, {"B", image_of(IPT_DOUBLE, 1, 2, {1, -1})}});
    const HostImage out = HostImage::make(IPT_DOUBLE, 2, 2);
    EXPECT_EQ(conv_magnitude(s, c, in, out), (std::vector<double>{3, 2, 7, 4}));
    CaseSpec full;
    const HostImage out_full = HostImage::make(IPT_DOUBLE, 2, 3);
    EXPECT_EQ(conv_magnitude(s, full, in, out_full), (std::vector<double>{1, 3, 2, 3, 7, 4}));
    CaseSpec valid;
    valid.add(text_arg("shape", "valid"));
    EXPECT_EQ(conv_magnitude(s, valid, in, HostImage::make(IPT_DOUBLE, 2, 1)), (std::vector<double>{3, 7}));
}

TEST(ConformanceRules, ConvMagnitudeOfSeparableConv2ByHand) {
    // u = [1; -2] (column), v = [3 1]: kernel |u||v| = [3 1; 6 2]; A = 1x1 [2]
    // 'full' = 2 * kernel.
    const ipt_op_schema& s = builtin("ipt.conv2");
    CaseSpec c;
    const NamedImages in = named({{"A", image_of(IPT_DOUBLE, 1, 1, {-2})},
                                  {"u", image_of(IPT_DOUBLE, 2, 1, {1, -2})},
                                  {"v", image_of(IPT_DOUBLE, 1, 2, {3, 1})}});
    EXPECT_EQ(conv_magnitude(s, c, in, HostImage::make(IPT_DOUBLE, 2, 2)), (std::vector<double>{6, 2, 12, 4}));
}

TEST(ConformanceRules, ConvMagnitudeOfImfilterReplicateCorrByHand) {
    // A = [1 2 3], h = [1 1 1] (origin the middle), replicate: [1+1+2, 1+2+3, 2+3+3].
    const ipt_op_schema& s = builtin("ipt.imfilter");
    CaseSpec c;
    c.add(text_arg("boundary", "replicate"));
    const NamedImages in = named({{"A", image_of(IPT_DOUBLE, 1, 3, {1, -2, 3})}, {"h", image_of(IPT_DOUBLE, 1, 3, {1, 1, -1})}});
    EXPECT_EQ(conv_magnitude(s, c, in, HostImage::make(IPT_DOUBLE, 1, 3)), (std::vector<double>{4, 6, 8}));
    // 'full', symmetric, conv with h = [1 2] (rotated: [2 1], origin the first):
    // full(R) = sum_i k(i) |A|(R - 1 + i), A padded c b a | a b c | c b a.
    CaseSpec f;
    f.add(text_arg("boundary", "symmetric")).add(text_arg("output", "full")).add(text_arg("mode", "conv"));
    const NamedImages in2 = named({{"A", image_of(IPT_DOUBLE, 1, 3, {1, 2, 3})}, {"h", image_of(IPT_DOUBLE, 1, 2, {1, 2})}});
    // R=0: 2*A(-1)+1*A(0) = 2*1+1 = 3; R=1: 2*1+2 = 4; R=2: 2*2+3 = 7; R=3: 2*3+A(3)=2*3+3 = 9.
    EXPECT_EQ(conv_magnitude(s, f, in2, HostImage::make(IPT_DOUBLE, 1, 4)), (std::vector<double>{3, 4, 7, 9}));
    // constant boundary with X = -5: |X| pads.
    CaseSpec x;
    x.add(float_arg("X", -5));
    EXPECT_EQ(conv_magnitude(s, x, in2, HostImage::make(IPT_DOUBLE, 1, 3)), (std::vector<double>{1 + 2 * 2, 2 + 2 * 3, 3 + 2 * 5}));
}

TEST(ConformanceRules, ConvRuleCatchesAFlippedKernel) {
    // conv2([1 2 3], [1 2], 'full') = [1 4 7 6]; correlation gives [2 5 8 3].
    const ipt_op_schema& s = builtin("ipt.conv2");
    CaseSpec c;
    const NamedImages in = named({{"A", image_of(IPT_DOUBLE, 1, 3, {1, 2, 3})}, {"B", image_of(IPT_DOUBLE, 1, 2, {1, 2})}});
    const NamedImages ref = named({{"C", image_of(IPT_DOUBLE, 1, 4, {1, 4, 7, 6})}});
    EXPECT_TRUE(compare_outputs(s, c, in, ref, ref).ok);
    const Verdict v = compare_outputs(s, c, in, ref, named({{"C", image_of(IPT_DOUBLE, 1, 4, {2, 5, 8, 3})}}));
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.message.find("C(1,1) = 2, reference 1"), std::string::npos) << v.message;
    // One ulp of 7 is far inside 16 eps (|A|*|B| = 7 there).
    EXPECT_TRUE(compare_outputs(s, c, in, ref, named({{"C", image_of(IPT_DOUBLE, 1, 4, {1, 4, std::nextafter(7.0, 8.0), 6})}})).ok);
}

TEST(ConformanceRules, IntegerOutputsAreExactWhateverTheRule) {
    // imfilter's rule is CONV, but a uint8 output must match exactly.
    const ipt_op_schema& s = builtin("ipt.imfilter");
    CaseSpec c;
    const NamedImages in = named({{"A", image_of(IPT_UINT8, 1, 2, {10, 20})}, {"h", image_of(IPT_DOUBLE, 1, 1, {1})}});
    const NamedImages ref = named({{"B", image_of(IPT_UINT8, 1, 2, {10, 20})}});
    EXPECT_FALSE(compare_outputs(s, c, in, ref, named({{"B", image_of(IPT_UINT8, 1, 2, {10, 21})}})).ok);
}

TEST(ConformanceRules, PoisonedLogicalElementFails) {
    const ipt_op_schema& s = builtin("ipt.imregionalmax");
    CaseSpec c;
    HostImage ref = image_of(IPT_LOGICAL, 1, 3, {1, 0, 1});
    HostImage got = ref;
    got.bytes[1] = 0xA5;  // what the registry's poison leaves in an unwritten element
    const Verdict v = compare_outputs(s, c, {}, named({{"BW", ref}}), named({{"BW", got}}));
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.message.find("BW(1,2) holds byte 165"), std::string::npos) << v.message;
}

TEST(ConformanceRules, MissingAndExtraOutputsFail) {
    const ipt_op_schema& s = builtin("ipt.bwdist");
    CaseSpec c;
    const HostImage d = image_of(IPT_SINGLE, 1, 1, {0});
    EXPECT_FALSE(compare_outputs(s, c, {}, named({{"D", d}}), NamedImages{}).ok);
    EXPECT_FALSE(compare_outputs(s, c, {}, named({{"D", d}}), named({{"D", d}, {"IDX", image_of(IPT_UINT32, 1, 1, {1})}})).ok);
}

TEST(ConformanceRules, BwdistIdxAcceptsTiesOnly) {
    // MATLAB's example: features at (2,2) and (4,4) of a 5x5 image, linear
    // indices (column-major, 1-based) 7 and 19. Pixel (1,5) is sqrt(10) from
    // both: a tie. Pixel (1,1) is sqrt(2) from (2,2) and sqrt(18) from (4,4).
    std::vector<double> bw(25, 0);
    bw[1 * 5 + 1] = 1;
    bw[3 * 5 + 3] = 1;
    const HostImage BW = image_of(IPT_LOGICAL, 5, 5, bw);
    HostImage D = HostImage::make(IPT_SINGLE, 5, 5);
    HostImage idx = HostImage::make(IPT_UINT32, 5, 5);
    for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 5; ++c) {
            const double d1 = std::hypot(r - 1, c - 1), d2 = std::hypot(r - 3, c - 3);
            D.put(static_cast<size_t>(r * 5 + c), static_cast<float>(std::min(d1, d2)));
            idx.put(static_cast<size_t>(r * 5 + c), d1 <= d2 ? 7 : 19);
        }
    HostImage tie = idx;
    tie.put(0 * 5 + 4, 19);  // (1,5): the other, equally near feature
    EXPECT_TRUE(compare_bwdist_idx(idx, tie, D, BW, "euclidean").ok);
    HostImage wrong = idx;
    wrong.put(0, 19);  // (1,1): farther feature
    const Verdict v = compare_bwdist_idx(idx, wrong, D, BW, "euclidean");
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.message.find("IDX(1,1) = 19, reference 7"), std::string::npos) << v.message;
    HostImage not_feature = idx;
    not_feature.put(0 * 5 + 4, 1);  // index 1 = pixel (1,1), not a feature
    EXPECT_FALSE(compare_bwdist_idx(idx, not_feature, D, BW, "euclidean").ok);
    // Through compare_outputs, with the schema's rule.
    CaseSpec c;
    const ipt_op_schema& s = builtin("ipt.bwdist");
    EXPECT_TRUE(compare_outputs(s, c, named({{"BW", BW}}), named({{"D", D}, {"IDX", idx}}), named({{"D", D}, {"IDX", tie}})).ok);
    HostImage d_off = D;
    d_off.put(3, std::nextafter(static_cast<float>(D.get(3)), 10.0f));
    EXPECT_FALSE(compare_outputs(s, c, named({{"BW", BW}}), named({{"D", D}, {"IDX", idx}}), named({{"D", d_off}, {"IDX", idx}})).ok);
}

// ---- deviations ----------------------------------------------------------------

TEST(ConformanceDeviations, ParsesMatchesAndRejectsLinesWithoutReason) {
    const DeviationList list = parse_deviations(
        "# comment\n"
        "\n"
        "ipt.conv2:fft | vulkan | *nan* | FFT spreads NaN over the whole output (issue 12)\n"
        "ipt.edge | * | *canny* |\n"
        "ipt.radon | cuda | *\n"
        "ipt.mean2 | cpu | * | reasons may contain | bars\n",
        "dev.txt");
    ASSERT_EQ(list.items.size(), 2u);
    ASSERT_EQ(list.errors.size(), 2u);
    EXPECT_NE(list.errors[0].find("dev.txt:4: deviation without a reason"), std::string::npos) << list.errors[0];
    EXPECT_NE(list.errors[1].find("dev.txt:5"), std::string::npos) << list.errors[1];
    EXPECT_EQ(list.items[1].reason, "reasons may contain | bars");
    const Deviation* d = list.match("ipt.conv2", "fft", "vulkan", "A=single 17x23 nan, B=single 3x3 random");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->where, "dev.txt:3");
    EXPECT_EQ(list.match("ipt.conv2", "", "vulkan", "A=single 17x23 nan"), nullptr);  // plain variant not listed
    EXPECT_EQ(list.match("ipt.conv2", "fft", "cuda", "A=single 17x23 nan"), nullptr);
    EXPECT_EQ(list.match("ipt.conv2", "fft", "vulkan", "A=single 17x23 random"), nullptr);
}

TEST(ConformanceDeviations, GlobMatch) {
    EXPECT_TRUE(glob_match("*", ""));
    EXPECT_TRUE(glob_match("a*c", "abbbc"));
    EXPECT_TRUE(glob_match("a?c", "abc"));
    EXPECT_FALSE(glob_match("a?c", "ac"));
    EXPECT_TRUE(glob_match("*nan*", "A=single 17x23 nan, B"));
    EXPECT_FALSE(glob_match("ipt.conv2", "ipt.conv2:fft"));
}

TEST(ConformanceDeviations, BuiltInListIsWellFormed) {
    const DeviationList list = load_deviations("");
    EXPECT_TRUE(list.errors.empty()) << list.errors.front();
}

// ---- recipes -------------------------------------------------------------------

namespace {

std::vector<std::string> labels_of(const std::vector<CaseSpec>& cases) {
    std::vector<std::string> out;
    for (const CaseSpec& c : cases) out.push_back(c.label());
    return out;
}

bool any_contains(const std::vector<std::string>& labels, const std::string& needle) {
    for (const std::string& l : labels)
        if (l.find(needle) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST(ConformanceRecipes, EveryBuiltInOperatorHasHandWrittenRecipes) {
    for (uint32_t i = 0; i < IPT_BUILTIN_OP_COUNT; ++i)
        EXPECT_TRUE(has_builtin_recipes(ipt_builtin_ops[i].name)) << ipt_builtin_ops[i].name;
}

TEST(ConformanceRecipes, CoverEveryOptionClassShapeAndSpecialImage) {
    RecipeOptions quick;
    quick.quick = true;
    quick.large_size = 256;
    for (uint32_t k = 0; k < IPT_BUILTIN_OP_COUNT; ++k) {
        const ipt_op_schema& s = ipt_builtin_ops[k];
        SCOPED_TRACE(s.name);
        const std::vector<CaseSpec> cases = recipes_for(s, quick);
        const std::vector<std::string> labels = labels_of(cases);
        ASSERT_FALSE(cases.empty());
        EXPECT_EQ(std::set<std::string>(labels.begin(), labels.end()).size(), labels.size()) << "labels must be unique";
        for (uint32_t i = 0; i < s.param_count; ++i) {
            const ipt_param_schema& p = *ipt_op_param(&s, i);
            // Each value of each option (the default may be implied).
            if ((p.kind == IPT_PARAM_ENUM || p.kind == IPT_PARAM_INT) && p.values) {
                std::string all = p.values;
                for (size_t at = 0; at <= all.size();) {
                    const size_t bar = std::min(all.find('|', at), all.size());
                    const std::string v = all.substr(at, bar - at);
                    at = bar + 1;
                    if (p.default_text && v == p.default_text) continue;
                    EXPECT_TRUE(any_contains(labels, std::string(p.name) + "=" + v)) << p.name << "=" << v;
                }
            }
            // Optional inputs and numbers are exercised by some case.
            if ((p.flags & IPT_P_OPTIONAL) && p.kind != IPT_PARAM_OUTPUT) {
                EXPECT_TRUE(any_contains(labels, std::string(p.name) + "=")) << "optional " << p.name << " never given";
            }
        }
        // The first required input: every class it accepts, the edge shapes,
        // special images, the large case.
        const ipt_param_schema* main = nullptr;
        for (uint32_t i = 0; i < s.param_count && !main; ++i) {
            const ipt_param_schema* p = ipt_op_param(&s, i);
            if (p->kind == IPT_PARAM_INPUT && !(p->flags & IPT_P_OPTIONAL)) main = p;
        }
        if (!main) continue;
        // A colour-only input (rgb2hsv's RGB: three planes or a c x 3
        // colormap) is swept with every shape as m x n x 3.
        bool colour_only = (main->flags & IPT_P_RGB) != 0;
        for (ipt_dtype d : dtypes_in(main->dtypes))
            if (any_contains(labels, std::string(main->name) + "=" + std::string(dtype_label(d)) + " 17x23 "))
                colour_only = false;
        auto covered = [&](const std::string& prefix, const std::string& rest) {
            if (any_contains(labels, prefix + rest)) return true;
            if (!colour_only) return false;
            const size_t shape_end = rest.find(' ');
            return any_contains(labels, prefix + rest.substr(0, shape_end) + "x3" +
                                            (shape_end == std::string::npos ? "" : rest.substr(shape_end)));
        };
        for (ipt_dtype d : dtypes_in(main->dtypes)) {
            const std::string prefix = std::string(main->name) + "=" + std::string(dtype_label(d)) + " ";
            for (const char* shape : {"1x1 ", "1x37 ", "41x1 ", "17x23 ", "63x65 ", "130x97 "})
                EXPECT_TRUE(covered(prefix, shape)) << prefix << shape;
            for (const char* special : {"17x23 const", "17x23 zero", "17x23 min", "17x23 max"}) {
                if (d == IPT_LOGICAL && std::string(special) != "17x23 zero" && std::string(special) != "17x23 max") continue;
                EXPECT_TRUE(covered(prefix, special)) << prefix << special;
            }
            if (d == IPT_SINGLE || d == IPT_DOUBLE) {
                // Every run, whatever the seed: overflow and denormal classes.
                for (const char* special : {" nan", " inf", " denormal", " extreme"}) {
                    EXPECT_TRUE(covered(prefix, std::string("17x23") + special)) << prefix << special;
                }
            }
            if (d == IPT_LOGICAL) {
                for (const char* density : {"density=0.001", "density=0.5", "density=0.999"}) {
                    EXPECT_TRUE(covered(prefix, std::string("67x61 ") + density)) << prefix << density;
                }
            }
            if (main->flags & IPT_P_PLANES) {
                for (const char* planes : {"17x23x2 ", "17x23x3 ", "17x23x4 "})
                    EXPECT_TRUE(any_contains(labels, prefix + planes)) << prefix << planes;
            } else if (main->flags & IPT_P_RGB) {
                EXPECT_TRUE(any_contains(labels, prefix + "17x23x3")) << prefix << "RGB";
            }
        }
        bool large = false;
        for (const CaseSpec& c : cases) large = large || c.large;
        EXPECT_TRUE(large) << "no large case";
    }
}

TEST(ConformanceRecipes, FullRunUses2048Squared) {
    RecipeOptions full;
    const std::vector<std::string> labels = labels_of(recipes_for(builtin("ipt.conv2"), full));
    EXPECT_TRUE(any_contains(labels, "A=single 2048x2048"));
}

TEST(ConformanceRecipes, InputsReplayFromTheSeed) {
    // The first case whose random input has elements (the sweep starts empty).
    CaseSpec c;
    for (const CaseSpec& candidate : recipes_for(builtin("ipt.conv2"), RecipeOptions{}))
        if (!generate_inputs(candidate, "ipt.conv2", 42).find("A")->bytes.empty()) {
            c = candidate;
            break;
        }
    const NamedImages a = generate_inputs(c, "ipt.conv2", 42);
    const NamedImages b = generate_inputs(c, "ipt.conv2", 42);
    const NamedImages other = generate_inputs(c, "ipt.conv2", 43);
    ASSERT_NE(a.find("A"), nullptr);
    EXPECT_EQ(a.find("A")->bytes, b.find("A")->bytes);
    EXPECT_NE(a.find("A")->bytes, other.find("A")->bytes);
}

TEST(ConformanceRecipes, SpecialImagesHoldWhatTheirNamesSay) {
    Rng rng(7);
    const HostImage mx = generate(spec(IPT_INT16, 4, 5, Fill::Max), rng);
    for (size_t i = 0; i < mx.numel(); ++i) EXPECT_EQ(mx.get(i), 32767);
    const HostImage mn = generate(spec(IPT_SINGLE, 4, 5, Fill::Min), rng);
    EXPECT_EQ(mn.get(0), -static_cast<double>(FLT_MAX));
    const HostImage dn = generate(spec(IPT_SINGLE, 40, 50, Fill::Denormal), rng);
    size_t subnormal = 0;
    for (size_t i = 0; i < dn.numel(); ++i) subnormal += std::fpclassify(dn.load<float>(i)) == FP_SUBNORMAL;
    EXPECT_GT(subnormal, dn.numel() / 4);
    for (ipt_dtype d : {IPT_SINGLE, IPT_DOUBLE}) {
        const double top = d == IPT_SINGLE ? FLT_MAX : DBL_MAX;
        const HostImage ex = generate(spec(d, 40, 50, Fill::Extreme), rng);
        size_t negative = 0, at_top = 0;
        for (size_t i = 0; i < ex.numel(); ++i) {
            const double v = ex.get(i);
            EXPECT_TRUE(std::isfinite(v));
            EXPECT_GE(std::abs(v), top / 4 * (1 - 1e-7));
            EXPECT_LE(std::abs(v), top);
            negative += v < 0;
            at_top += std::abs(v) == top;
        }
        EXPECT_GT(negative, ex.numel() / 4);
        EXPECT_LT(negative, ex.numel() * 3 / 4);
        EXPECT_GT(at_top, ex.numel() / 20);  // a tenth expected
    }
    const HostImage sparse = generate(spec(IPT_LOGICAL, 200, 200, Fill::Density, 0.001), rng);
    size_t on = 0;
    for (size_t i = 0; i < sparse.numel(); ++i) on += sparse.bytes[i];
    EXPECT_GT(on, 10u);
    EXPECT_LT(on, 80u);  // 40 expected
    const HostImage scene = generate(spec(IPT_DOUBLE, 64, 64, Fill::Synthetic), rng);
    double lo = 1, hi = 0;
    for (size_t i = 0; i < scene.numel(); ++i) lo = std::min(lo, scene.get(i)), hi = std::max(hi, scene.get(i));
    EXPECT_GE(lo, 0);
    EXPECT_LE(hi, 1);
    EXPECT_GT(hi - lo, 0.8);  // edges and ramps span the range
}

// imfilter at realmax with a kernel whose rows' sums are finite and whose
// first two rows overflow single together: present in every run, and doing
// what it says (checked in float and double by hand here).
TEST(ConformanceRecipes, ImfilterRowOverflowCaseIsInEveryRun) {
    RecipeOptions quick;
    quick.quick = true;
    quick.large_size = 256;
    const std::vector<CaseSpec> cases = recipes_for(builtin("ipt.imfilter"), quick);
    const CaseSpec* found = nullptr;
    for (const CaseSpec& c : cases)
        if (c.label() == "A=single 17x23 max, h=double 3x3 rows-overflow") found = &c;
    ASSERT_NE(found, nullptr);
    for (const char* label : {"A=single 17x23 min, h=double 3x3 rows-overflow", "A=double 17x23 max, h=double 3x3 rows-overflow"})
        EXPECT_TRUE(any_contains(labels_of(cases), label)) << label;
    for (uint64_t seed : {1u, 477860902u}) {
        const NamedImages in = generate_inputs(*found, "ipt.imfilter", seed);
        const HostImage& h = *in.find("h");
        ASSERT_EQ(h.rows, 3);
        ASSERT_EQ(h.cols, 3);
        volatile float big = FLT_MAX;
        float rows[3];
        for (int i = 0; i < 3; ++i) {
            volatile float part = 0;
            for (int j = 0; j < 3; ++j) part = part + static_cast<float>(h.get(static_cast<size_t>(i * 3 + j))) * big;
            rows[i] = part;
            EXPECT_TRUE(std::isfinite(rows[i])) << "row " << i;
        }
        volatile float single_sum = rows[0];
        single_sum = single_sum + rows[1];
        single_sum = single_sum + rows[2];
        EXPECT_TRUE(std::isinf(single_sum));
        const double double_sum = static_cast<double>(rows[0]) + rows[1] + rows[2];
        EXPECT_LT(double_sum, FLT_MAX);
    }
}

// ---- whole runs
// (The CPU plugin through a second load path and every GPU plugin built here
// are certified through the `ipt` program: ctest conformance_cli_*.) ------------------------------------------------------------------

namespace {

struct RunOutput {
    int code;
    std::string out, err;
};

RunOutput run(Options opt) {
    opt.progress = Progress::Off;
    std::ostringstream out, err;
    const int code = run_conformance(opt, out, err);
    return {code, out.str(), err.str()};
}

bool reference_has(const std::string& op) {
    std::string error;
    auto ref = open_reference("", error);
    if (!ref) return false;
    Target t;
    std::string why;
    return ref->target_for(op, t, why);
}

}  // namespace


TEST(ConformanceRun, WrongConvPluginIsCaughtAndNamed) {
    if (!reference_has("ipt.conv2")) GTEST_SKIP() << "the CPU reference has no ipt.conv2 yet";
    Options opt;
    opt.plugins = {std::string(IPT_TEST_PLUGIN_DIR) + "/libipt_wrongconv.so"};
    opt.quick = true;
    const RunOutput r = run(opt);
    EXPECT_EQ(r.code, kExitFail) << r.out << r.err;
    EXPECT_NE(r.out.find("ipt.conv2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("FAIL"), std::string::npos) << r.out;
    // Symmetric kernels (1x1) cannot tell the two apart, so some cases pass;
    // the first failure is a non-symmetric kernel with its element and values.
    EXPECT_NE(r.out.find("reference"), std::string::npos) << r.out;

    opt.json = true;
    const RunOutput j = run(opt);
    EXPECT_EQ(j.code, kExitFail);
    EXPECT_NE(j.out.find("\"summary\""), std::string::npos) << j.out;
    EXPECT_NE(j.out.find("\"fail\": 1"), std::string::npos) << j.out;
    EXPECT_NE(j.out.find("\"first_failure\""), std::string::npos) << j.out;
}

TEST(ConformanceRun, ADeviationTurnsFailuresIntoExpectedFailsNeverPasses) {
    if (!reference_has("ipt.conv2")) GTEST_SKIP() << "the CPU reference has no ipt.conv2 yet";
    const fs::path list = fs::path(IPT_CONFORMANCE_WORK_DIR) / "deviations_test.txt";
    {
        std::ofstream f(list);
        f << "ipt.conv2 | cpu | * | wrongconv computes correlation on purpose\n";
    }
    Options opt;
    opt.plugins = {std::string(IPT_TEST_PLUGIN_DIR) + "/libipt_wrongconv.so"};
    opt.quick = true;
    opt.deviations = list.string();
    opt.json = true;
    const RunOutput r = run(opt);
    EXPECT_EQ(r.code, kExitPass) << r.out << r.err;
    EXPECT_NE(r.out.find("\"expected_fail\": 1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"pass\": 0"), std::string::npos) << r.out;

    {
        std::ofstream f(list);
        f << "ipt.conv2 | cpu | *\n";  // no reason: the run fails
    }
    const RunOutput bad = run(opt);
    EXPECT_EQ(bad.code, kExitFail) << bad.out;
    EXPECT_NE(bad.out.find("deviation without a reason"), std::string::npos) << bad.out;
}

// The reference is libipt_cpu.so next to libipt, by its file: a wrong
// plugin named "cpu" first on IPT_PLUGIN_PATH does not replace it.
TEST(ConformanceRun, ReferenceIsTheCpuPluginNextToLibiptWhateverThePluginPath) {
    const std::string real = fs::canonical(fs::path(IPT_BUILD_LIB_DIR) / "libipt_cpu.so").string();
    EXPECT_EQ(builtin_reference_path(), real);
    const char* saved = std::getenv("IPT_PLUGIN_PATH");
    const std::string old = saved ? saved : "";
    setenv("IPT_PLUGIN_PATH", (std::string(IPT_TEST_PLUGIN_DIR) + "/fake_cpu").c_str(), 1);
    std::string error;
    auto ref = open_reference("", error);
    Options opt;
    opt.plugins = {std::string(IPT_TEST_PLUGIN_DIR) + "/libipt_wrongconv.so"};
    opt.op = "conv2";
    opt.quick = true;
    opt.seed = 5;
    const RunOutput r = run(opt);
    if (saved) setenv("IPT_PLUGIN_PATH", old.c_str(), 1);
    else unsetenv("IPT_PLUGIN_PATH");
    ASSERT_NE(ref, nullptr) << error;
    EXPECT_EQ(ref->path, real);
    EXPECT_EQ(ref->plugin, "cpu");
    EXPECT_EQ(r.code, kExitFail) << r.out << r.err;
    EXPECT_NE(r.out.find("(" + real + ")"), std::string::npos) << r.out;
}

TEST(ConformanceRun, BrokenPluginPrintsItsLoadReport) {
    Options opt;
    opt.plugins = {std::string(IPT_CONFORMANCE_WORK_DIR) + "/no_such_plugin.so"};
    const RunOutput r = run(opt);
    EXPECT_EQ(r.code, kExitUsage);
    EXPECT_NE(r.err.find("load report"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("no_such_plugin.so"), std::string::npos) << r.err;
}

TEST(ConformanceRun, UnknownOperatorAndDeviceAreClearErrors) {
    Options op;
    op.op = "nosuchop";
    const RunOutput a = run(op);
    EXPECT_EQ(a.code, kExitUsage);
    EXPECT_NE(a.err.find("unknown operator 'nosuchop'"), std::string::npos) << a.err;
    EXPECT_NE(a.err.find("ipt.conv2"), std::string::npos) << "lists the operators: " << a.err;
    Options dev;
    dev.device = "99";
    const RunOutput b = run(dev);
    EXPECT_EQ(b.code, kExitUsage);
    EXPECT_NE(b.err.find("unknown device '99'"), std::string::npos) << b.err;
}

