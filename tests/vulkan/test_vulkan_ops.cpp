// SPDX-License-Identifier: Apache-2.0
// The Vulkan backend against the CPU reference: random inputs of every class
// and edge shapes, every variant the plugin registers, the catalogue's
// comparison rule per operator. Validation layers are on (vulkan_compare.hpp)
// and any validation error fails the call that caused it.
#include <algorithm>
#include <cstdlib>
#include <tuple>

#include "vulkan_compare.hpp"

namespace {

using namespace vk_test;

using Bound = std::function<std::function<double(int64_t)>(const std::string&, const Output&)>;

// Runs op on the CPU and on the given Vulkan variants and compares the outputs.
void compare_variants(const char* op, const std::vector<std::string>& vs, const Setup& setup,
                      const std::vector<const char*>& outputs, const std::string& label, const Bound& bound) {
    auto ref = run_on(IPT_DEVICE_HOST, "", op, setup, outputs);
    ASSERT_FALSE(vs.empty()) << op << " is not registered on the Vulkan device";
    for (const std::string& v : vs) {
        auto got = run_on(vulkan_device().id, v, op, setup, outputs);
        for (const char* o : outputs)
            expect_match(ref[o], got[o], std::string(op) + " " + label + " variant " + v + " output " + o,
                         bound ? bound(o, ref[o]) : nullptr);
    }
}

// Runs op on the CPU and on every Vulkan variant and compares the outputs.
void compare(const char* op, const Setup& setup, const std::vector<const char*>& outputs,
             const std::string& label, const Bound& bound = nullptr) {
    compare_variants(op, variants(op), setup, outputs, label, bound);
}

std::string shape_label(const Shape& s, ipt_dtype dt) {
    return std::to_string(s.rows) + "x" + std::to_string(s.cols) + "x" + std::to_string(s.channels) + " " +
           ipt_dtype_name(dt);
}

TEST(VulkanDevice, IsListedWithItsProperties) {
    REQUIRE_VULKAN();
    ipt_device_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(ipt_device_get(ipt_test::context().get(), vulkan_device().id, &info), IPT_OK);
    EXPECT_STREQ(info.kind, "vulkan");
    EXPECT_GT(info.subgroup_size, 0u);
    EXPECT_GT(info.memory_bytes, 0u);
    EXPECT_NE(std::string(info.identity).find("vulkan:"), std::string::npos);
}

TEST(VulkanMemory, UploadDownloadRoundTrip) {
    REQUIRE_VULKAN();
    Random rnd(1);
    for (int64_t n : {1, 3, 1000, 100003}) {
        auto bytes = rnd.bytes(IPT_UINT8, n);
        ipt::Image img = ipt_test::context().upload(IPT_UINT8, 1, n, bytes.data(), 1, vulkan_device().id);
        EXPECT_EQ(fetch(img).bytes, bytes) << n;
    }
    // Transfers over 32 MiB go in chunks, two in flight: a length that ends
    // inside a third chunk, as rows, so that every chunk boundary cuts a row.
    const int64_t rows = 3 * 4099, cols = 5 * 1097;
    auto big = rnd.bytes(IPT_UINT8, rows * cols);
    for (int round = 0; round < 2; ++round) {  // the second reuses the kept staging blocks
        ipt::Image img = ipt_test::context().upload(IPT_UINT8, rows, cols, big.data(), 1, vulkan_device().id);
        const auto back = fetch(img).bytes;
        ASSERT_EQ(back.size(), big.size());
        EXPECT_TRUE(back == big) << "round " << round << ": first difference at byte "
                                 << (std::mismatch(back.begin(), back.end(), big.begin()).first - back.begin());
    }
    ipt::Image empty = ipt_test::context().create(IPT_DOUBLE, 0, 4, 1, vulkan_device().id);
    EXPECT_EQ(fetch(empty).numel(), 0);
    ipt_test::context().sync(vulkan_device().id);
}

TEST(VulkanOps, Intlut) {
    REQUIRE_VULKAN();
    Random rnd(6);
    for (ipt_dtype dt : {IPT_UINT8, IPT_UINT16, IPT_INT16}) {
        const int64_t entries = dt == IPT_UINT8 ? 256 : 65536;
        for (const Shape& s : shapes()) {
            ipt::Image a = rnd.image(dt, s.rows, s.cols, s.channels);
            ipt::Image lut = rnd.image(dt, entries, 1, 1);
            compare("ipt.intlut", [&](ipt::Call& c) { c.image("A", a).image("LUT", lut); }, {"B"},
                    shape_label(s, dt));
        }
    }
}

TEST(VulkanOps, Imlincomb) {
    REQUIRE_VULKAN();
    Random rnd(7);
    const ipt_dtype classes[] = {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE};
    for (ipt_dtype dt : classes) {
        for (const Shape& s : shapes()) {
            ipt::Image a = rnd.image(dt, s.rows, s.cols, s.channels);
            ipt::Image b = rnd.image(dt, s.rows, s.cols, s.channels);
            // Halves produce exact .5 ties of both signs.
            std::vector<double> k = {0.5, -1.5, 128.25};
            for (const char* outclass : {"default", "uint8", "int16", "single"}) {
                compare("ipt.imlincomb",
                        [&](ipt::Call& c) {
                            c.numbers("K", k).image("A1", a).image("A2", b).option("outclass", outclass);
                        },
                        {"Z"}, shape_label(s, dt) + " outclass " + outclass,
                        [](const std::string&, const Output& ref) { return range_eps(ref, 4); });
            }
            compare("ipt.imlincomb", [&](ipt::Call& c) { c.numbers("K", {2.5}).image("A1", a); }, {"Z"},
                    shape_label(s, dt) + " one image",
                    [](const std::string&, const Output& ref) { return range_eps(ref, 4); });
        }
    }
}

TEST(VulkanOps, ImlincombEightImages) {
    REQUIRE_VULKAN();
    Random rnd(8);
    std::vector<ipt::Image> imgs;
    for (int j = 0; j < 8; ++j) imgs.push_back(rnd.image(IPT_UINT8, 19, 23));
    std::vector<double> k = {0.5, -0.25, 1, 2, -1, 0.125, 3, -0.5, 0.5};
    compare("ipt.imlincomb",
            [&](ipt::Call& c) {
                c.numbers("K", k);
                for (int j = 0; j < 8; ++j) {
                    std::string name = "A";  // appended, not "A" + ...: GCC 12 misreads that as an overlapping copy
                    name += std::to_string(j + 1);
                    c.image(name.c_str(), imgs[j]);
                }
            },
            {"Z"}, "8 uint8 images");
}

}  // namespace

namespace {

TEST(VulkanOps, Mean2) {
    REQUIRE_VULKAN();
    Random rnd(9);
    const ipt_dtype classes[] = {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE};
    for (ipt_dtype dt : classes)
        for (const Shape& s : shapes()) {
            if (s.rows * s.cols == 0) continue;
            ipt::Image a = rnd.image(dt, s.rows, s.cols, s.channels, false);
            compare("ipt.mean2", [&](ipt::Call& c) { c.image("A", a); }, {"m"}, shape_label(s, dt),
                    [](const std::string&, const Output& ref) { return range_eps(ref, 16); });
        }
    // Large enough for many partial sums.
    ipt::Image big = rnd.image(IPT_UINT16, 1023, 1025);
    compare("ipt.mean2", [&](ipt::Call& c) { c.image("A", big); }, {"m"}, "1023x1025 uint16");
}

TEST(VulkanOps, Stretchlim) {
    REQUIRE_VULKAN();
    Random rnd(10);
    const ipt_dtype classes[] = {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE};
    for (ipt_dtype dt : classes)
        for (const Shape& s : shapes()) {
            if (s.rows * s.cols == 0) continue;
            ipt::Image a = rnd.image(dt, s.rows, s.cols, s.channels);
            for (std::vector<double> tol : {std::vector<double>{0.01, 0.99}, {0.2}, {0.0, 1.0}, {0.5, 0.4}, {0.3, 0.31}})
                compare("ipt.stretchlim", [&](ipt::Call& c) { c.image("I", a).numbers("tol", tol); }, {"LOWHIGH"},
                        shape_label(s, dt) + " tol " + std::to_string(tol[0]));
        }
}

TEST(VulkanOps, Imadjust) {
    REQUIRE_VULKAN();
    Random rnd(11);
    for (ipt_dtype dt : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_SINGLE, IPT_DOUBLE})
        for (const Shape& s : shapes()) {
            ipt::Image a = rnd.image(dt, s.rows, s.cols, s.channels);
            auto bound = [](const std::string&, const Output& ref) { return range_eps(ref, 8); };
            const std::string label = shape_label(s, dt);
            compare("ipt.imadjust", [&](ipt::Call& c) { c.image("I", a); }, {"J"}, label + " default", bound);
            compare("ipt.imadjust",
                    [&](ipt::Call& c) {
                        c.image("I", a).numbers("low_high_in", {0.2, 0.7}).numbers("low_high_out", {0.9, 0.1});
                    },
                    {"J"}, label + " inverted", bound);
            compare("ipt.imadjust",
                    [&](ipt::Call& c) {
                        c.image("I", a).numbers("low_high_in", {0.1, 0.8}).numbers("low_high_out", {0, 1}).numbers("gamma", {1.0});
                    },
                    {"J"}, label + " limits", bound);
            compare("ipt.imadjust", [&](ipt::Call& c) { c.image("I", a).numbers("gamma", {0.5}); }, {"J"},
                    label + " gamma 0.5 on stretchlim", bound);
        }
}

}  // namespace

namespace {

// (|A| * |K|)(p) for conv2's shapes, by brute force over the definition.
std::vector<double> abs_conv(const Output& a, const std::vector<double>& k, int64_t kr, int64_t kc,
                             const std::string& shape, int64_t out_rows, int64_t out_cols) {
    const int64_t ma = a.rows, na = a.cols;
    int64_t off_r = 0, off_c = 0;
    if (shape == "same") off_r = kr / 2, off_c = kc / 2;
    if (shape == "valid") off_r = std::max<int64_t>(kr - 1, 0), off_c = std::max<int64_t>(kc - 1, 0);
    std::vector<double> out(static_cast<size_t>(out_rows * out_cols), 0.0);
    for (int64_t o = 0; o < out_rows; ++o)
        for (int64_t c = 0; c < out_cols; ++c) {
            const int64_t p = o + off_r, q = c + off_c;
            double s = 0;
            for (int64_t i = std::max<int64_t>(0, p - kr + 1); i <= std::min(ma - 1, p); ++i)
                for (int64_t j = std::max<int64_t>(0, q - kc + 1); j <= std::min(na - 1, q); ++j)
                    s += std::abs(a.at(i * na + j)) * std::abs(k[(p - i) * kc + (q - j)]);
            out[o * out_cols + c] = s;
        }
    return out;
}

std::vector<double> values(const Output& o) {
    std::vector<double> v(static_cast<size_t>(o.numel()));
    for (int64_t i = 0; i < o.numel(); ++i) v[i] = o.at(i);
    return v;
}

// conv2's direct variants: the fft variant declines the small kernels and
// empty operands used here (it is tested on its own below).
std::vector<std::string> direct_conv2_variants() {
    std::vector<std::string> vs = variants("ipt.conv2");
    std::erase(vs, "fft");
    return vs;
}

// The direct engine's bound: 16 eps(class) (|A|*|K|)(p) per element.
Bound direct_bound(const Output& a, const std::vector<double>& k, int64_t kr, int64_t kc, const std::string& shape) {
    return [=](const std::string&, const Output& ref) {
        auto m = abs_conv(a, k, kr, kc, shape, ref.rows, ref.cols);
        const double e = eps_of(ref.dtype);
        return std::function<double(int64_t)>([m, e](int64_t i) { return 16 * e * m[i]; });
    };
}

TEST(VulkanOps, Conv2) {
    REQUIRE_VULKAN();
    Random rnd(12);
    struct Case {
        int64_t ma, na, kr, kc;
    };
    const Case cases[] = {{1, 1, 1, 1}, {1, 9, 1, 3}, {9, 1, 4, 1}, {13, 17, 3, 3}, {13, 17, 2, 4},
                          {40, 33, 7, 5}, {5, 6, 9, 8}, {0, 5, 3, 3}, {6, 6, 0, 2}};
    for (const Case& cs : cases)
        for (ipt_dtype da : {IPT_SINGLE, IPT_DOUBLE})
            for (ipt_dtype dk : {IPT_SINGLE, IPT_DOUBLE})
                for (const char* shape : {"full", "same", "valid"}) {
                    ipt::Image A = rnd.image(da, cs.ma, cs.na, 1, false);
                    ipt::Image B = rnd.image(dk, cs.kr, cs.kc, 1, false);
                    const Output a = fetch(A), b = fetch(B);
                    auto bound = [&](const std::string&, const Output& ref) {
                        auto m = abs_conv(a, values(b), cs.kr, cs.kc, shape, ref.rows, ref.cols);
                        const double e = eps_of(ref.dtype);
                        return std::function<double(int64_t)>([m, e](int64_t i) { return 16 * e * m[i]; });
                    };
                    const std::string label = std::to_string(cs.ma) + "x" + std::to_string(cs.na) + " * " +
                                              std::to_string(cs.kr) + "x" + std::to_string(cs.kc) + " " + shape +
                                              " " + ipt_dtype_name(da) + "/" + ipt_dtype_name(dk);
                    compare_variants("ipt.conv2", direct_conv2_variants(),
                                     [&](ipt::Call& c) { c.image("A", A).image("B", B).option("shape", shape); },
                                     {"C"}, label, bound);
                    // conv2(u, v, A) with u = first column of B's shape, v = a row.
                    ipt::Image U = rnd.image(dk, cs.kr, 1, 1, false);
                    ipt::Image V = rnd.image(da, 1, cs.kc, 1, false);
                    const Output uu = fetch(U), vv = fetch(V);
                    std::vector<double> outer(static_cast<size_t>(cs.kr * cs.kc));
                    for (int64_t i = 0; i < cs.kr; ++i)
                        for (int64_t j = 0; j < cs.kc; ++j) outer[i * cs.kc + j] = uu.at(i) * vv.at(j);
                    auto sep_bound = [&](const std::string&, const Output& ref) {
                        auto m = abs_conv(a, outer, cs.kr, cs.kc, shape, ref.rows, ref.cols);
                        const double e = eps_of(ref.dtype);
                        return std::function<double(int64_t)>([m, e](int64_t i) { return 16 * e * m[i]; });
                    };
                    compare_variants(
                        "ipt.conv2", direct_conv2_variants(),
                        [&](ipt::Call& c) { c.image("A", A).image("u", U).image("v", V).option("shape", shape); },
                        {"C"}, label + " separable", sep_bound);
                }
}

TEST(VulkanOps, Conv2NonFiniteFollowsTheDefinition) {
    REQUIRE_VULKAN();
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    ipt::Image A = ipt_test::image<double>(3, 3, {1, inf, 0, 2, 3, nan, 0, 0, 1});
    ipt::Image B = ipt_test::image<double>(2, 2, {0, 1, inf, 0});
    for (const char* shape : {"full", "same", "valid"})
        compare_variants("ipt.conv2", direct_conv2_variants(),
                         [&](ipt::Call& c) { c.image("A", A).image("B", B).option("shape", shape); }, {"C"},
                         std::string("Inf/NaN ") + shape, [](const std::string&, const Output&) {
                             return std::function<double(int64_t)>([](int64_t) { return 0.0; });
                         });
}

// --- conv2's fft variant ------------------------------------------------------

#define REQUIRE_FFT_VARIANT()                                                                           \
    do {                                                                                                \
        REQUIRE_VULKAN();                                                                               \
        const auto vs = variants("ipt.conv2");                                                          \
        if (std::find(vs.begin(), vs.end(), "fft") == vs.end())                                         \
            GTEST_SKIP() << "conv2's fft variant is not registered (IPT_VULKAN_VARIANT set, or the plugin " \
                            "was built without libvkfft-dev and glslang-dev)";                          \
    } while (0)

// The catalogue's bound for FFT variants: 16 eps(class) max_p (|A|*|K|)(p).
Bound fft_bound(const Output& a, const std::vector<double>& k, int64_t kr, int64_t kc, const std::string& shape) {
    return [=](const std::string&, const Output& ref) {
        double peak = 0;
        for (double m : abs_conv(a, k, kr, kc, shape, ref.rows, ref.cols)) peak = std::max(peak, m);
        const double b = 16 * eps_of(ref.dtype) * peak;
        return std::function<double(int64_t)>([b](int64_t) { return b; });
    };
}

std::vector<double> outer(const Output& u, const Output& v) {
    std::vector<double> k;
    for (int64_t i = 0; i < u.numel(); ++i)
        for (int64_t j = 0; j < v.numel(); ++j) k.push_back(u.at(i) * v.at(j));
    return k;
}

TEST(VulkanConv2Fft, MatchesTheReference) {
    REQUIRE_FFT_VARIANT();
    Random rnd(21);
    struct Case {
        int64_t ma, na, kr, kc;
    };
    // Odd and even kernels, a kernel larger than A, transform sizes of
    // several prime factors, one row or column, and lengths beyond one pass
    // in shared memory (VkFFT's four-step algorithm, with a temporary buffer).
    for (const Case& cs : {Case{80, 90, 15, 16}, Case{100, 64, 16, 16}, Case{20, 30, 41, 37}, Case{37, 129, 15, 17},
                           Case{64, 65, 7, 7}, Case{1, 300, 1, 60}, Case{200, 1, 50, 1}, Case{2100, 40, 9, 9},
                           Case{30, 2100, 9, 9}})
        for (auto [da, dk] : {std::pair{IPT_DOUBLE, IPT_DOUBLE}, {IPT_SINGLE, IPT_SINGLE}, {IPT_SINGLE, IPT_DOUBLE}})
            for (const char* shape : {"full", "same", "valid"}) {
                if (std::string(shape) == "valid" && (cs.ma < cs.kr || cs.na < cs.kc)) continue;  // empty: declined
                ipt::Image A = rnd.image(da, cs.ma, cs.na, 1, false);
                ipt::Image B = rnd.image(dk, cs.kr, cs.kc, 1, false);
                compare_variants("ipt.conv2", {"fft"},
                                 [&](ipt::Call& c) { c.image("A", A).image("B", B).option("shape", shape); }, {"C"},
                                 std::to_string(cs.ma) + "x" + std::to_string(cs.na) + " * " +
                                     std::to_string(cs.kr) + "x" + std::to_string(cs.kc) + " " + shape + " " +
                                     ipt_dtype_name(da) + "/" + ipt_dtype_name(dk),
                                 fft_bound(fetch(A), values(fetch(B)), cs.kr, cs.kc, shape));
            }
    // conv2(u,v,A) above its crossover (numel(u) + numel(v) >= 30).
    for (auto [d, ku, kv] : {std::tuple{IPT_DOUBLE, 101, 103}, {IPT_SINGLE, 15, 16}, {IPT_SINGLE, 211, 197}})
        for (const char* shape : {"full", "same"}) {
            ipt::Image A = rnd.image(d, 150, 160, 1, false);
            ipt::Image U = rnd.image(d, ku, 1, 1, false);
            ipt::Image V = rnd.image(d, 1, kv, 1, false);
            compare_variants("ipt.conv2", {"fft"},
                             [&](ipt::Call& c) { c.image("A", A).image("u", U).image("v", V).option("shape", shape); },
                             {"C"}, std::string("separable ") + ipt_dtype_name(d) + " " + shape,
                             fft_bound(fetch(A), outer(fetch(U), fetch(V)), ku, kv, shape));
        }
}

TEST(VulkanConv2Fft, DeclinesSmallKernelsAndEmptyOperands) {
    REQUIRE_FFT_VARIANT();
    Random rnd(22);
    const uint32_t dev = vulkan_device().id;
    auto run = [&](const ipt::Image& A, const ipt::Image& B, const char* shape) {
        return run_on(dev, "fft", "ipt.conv2", [&](ipt::Call& c) { c.image("A", A).image("B", B).option("shape", shape); },
                      {"C"});
    };
    // Below 49 taps; 7x7 is the first square kernel taken.
    ipt::Image A = rnd.image(IPT_DOUBLE, 70, 70, 1, false);
    IPT_EXPECT_ERROR(run(A, rnd.image(IPT_DOUBLE, 6, 8, 1, false), "same"), IPT_ERR_UNSUPPORTED, "crossover");
    IPT_EXPECT_ERROR(run(rnd.image(IPT_SINGLE, 70, 70, 1, false), rnd.image(IPT_SINGLE, 1, 48, 1, false), "same"),
                     IPT_ERR_UNSUPPORTED, "crossover");
    EXPECT_EQ(run(A, rnd.image(IPT_DOUBLE, 7, 7, 1, false), "same")["C"].rows, 70);
    ipt::Image big = rnd.image(IPT_DOUBLE, 15, 15, 1, false);
    IPT_EXPECT_ERROR(run(rnd.image(IPT_DOUBLE, 0, 5, 1, false), big, "full"), IPT_ERR_UNSUPPORTED, "empty");
    IPT_EXPECT_ERROR(run(rnd.image(IPT_DOUBLE, 10, 40, 1, false), big, "valid"), IPT_ERR_UNSUPPORTED, "empty");
    // conv2(u,v,A) below numel(u) + numel(v) = 30.
    ipt::Image U = rnd.image(IPT_DOUBLE, 14, 1, 1, false), V = rnd.image(IPT_DOUBLE, 1, 15, 1, false);
    IPT_EXPECT_ERROR(
        run_on(dev, "fft", "ipt.conv2", [&](ipt::Call& c) { c.image("A", A).image("u", U).image("v", V); }, {"C"}),
        IPT_ERR_UNSUPPORTED, "crossover");
}

// Inf, NaN or magnitudes the transform could overflow are found on the device;
// the direct engine then writes the output in the same recording, so the
// result is MATLAB's definition (NaN and Inf where the reference has them).
TEST(VulkanConv2Fft, NonFiniteAndHugeValuesTakeTheDirectRoute) {
    REQUIRE_FFT_VARIANT();
    Random rnd(23);
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    auto with = [&](ipt_dtype dt, int64_t rows, int64_t cols, std::vector<std::pair<int64_t, double>> specials) {
        auto bytes = rnd.bytes(dt, rows * cols, false);
        for (auto [i, x] : specials) {
            if (dt == IPT_SINGLE) {
                const float f = static_cast<float>(x);
                std::memcpy(bytes.data() + i * 4, &f, 4);
            } else {
                std::memcpy(bytes.data() + i * 8, &x, 8);
            }
        }
        return ipt_test::context().upload(dt, rows, cols, bytes.data());
    };
    struct Case {
        const char* label;
        ipt::Image A, B;
    };
    std::vector<Case> cases;
    cases.push_back({"NaN and Inf in A", with(IPT_DOUBLE, 40, 50, {{130, nan}, {1030, inf}, {1777, -inf}}),
                     rnd.image(IPT_DOUBLE, 15, 15, 1, false)});
    cases.push_back({"NaN in the kernel", rnd.image(IPT_DOUBLE, 40, 50, 1, false),
                     with(IPT_DOUBLE, 13, 12, {{77, nan}})});
    cases.push_back({"Inf in a single kernel", rnd.image(IPT_SINGLE, 33, 31, 1, false),
                     with(IPT_SINGLE, 16, 16, {{5, inf}})});
    cases.push_back({"1e300 in A", with(IPT_DOUBLE, 40, 50, {{600, 1e300}}), rnd.image(IPT_DOUBLE, 15, 15, 1, false)});
    const uint32_t dev = vulkan_device().id;
    for (const Case& cs : cases) {
        const Output a = fetch(cs.A), b = fetch(cs.B);
        for (const char* shape : {"full", "same", "valid"}) {
            const vk_test::Setup setup = [&](ipt::Call& c) { c.image("A", cs.A).image("B", cs.B).option("shape", shape); };
            const std::string label = std::string(cs.label) + " " + shape;
            compare_variants("ipt.conv2", {"fft"}, setup, {"C"}, label,
                             direct_bound(a, values(b), b.rows, b.cols, shape));
            // The route runs the engine as the wave32 variant does: the same sums.
            expect_match(run_on(dev, "wave32", "ipt.conv2", setup, {"C"})["C"],
                         run_on(dev, "fft", "ipt.conv2", setup, {"C"})["C"], label + ": fft variant against wave32");
        }
    }
    // The separable form: Inf in v.
    ipt::Image A = rnd.image(IPT_DOUBLE, 30, 40, 1, false);
    ipt::Image U = rnd.image(IPT_DOUBLE, 100, 1, 1, false);
    ipt::Image V = with(IPT_DOUBLE, 1, 101, {{50, inf}});
    compare_variants("ipt.conv2", {"fft"},
                     [&](ipt::Call& c) { c.image("A", A).image("u", U).image("v", V).option("shape", "same"); },
                     {"C"}, "Inf in v", direct_bound(fetch(A), outer(fetch(U), fetch(V)), 100, 101, "same"));
    // The next call of the same size is finite again: the transform's output
    // stands (its rounding differs from the engine's sums somewhere).
    ipt::Image B = rnd.image(IPT_DOUBLE, 15, 15, 1, false);
    ipt::Image F = rnd.image(IPT_DOUBLE, 40, 50, 1, false);
    const vk_test::Setup setup = [&](ipt::Call& c) { c.image("A", F).image("B", B).option("shape", "same"); };
    compare_variants("ipt.conv2", {"fft"}, setup, {"C"}, "finite after non-finite",
                     fft_bound(fetch(F), values(fetch(B)), 15, 15, "same"));
    const Output direct = run_on(dev, "wave32", "ipt.conv2", setup, {"C"})["C"];
    const Output transform = run_on(dev, "fft", "ipt.conv2", setup, {"C"})["C"];
    EXPECT_NE(direct.bytes, transform.bytes) << "the fft variant gave the direct engine's sums: did the transform run?";
}

// More transform sizes than the device keeps plans for: the least recently
// used go, and a size used again is planned again (from the stored kernels).
TEST(VulkanConv2Fft, PlansForManySizes) {
    REQUIRE_FFT_VARIANT();
    Random rnd(24);
    ipt::Image B = rnd.image(IPT_DOUBLE, 12, 12, 1, false);
    const Output b = fetch(B);
    for (int64_t n : {20, 27, 33, 41, 50, 61, 73, 88, 99, 20, 27}) {
        ipt::Image A = rnd.image(IPT_DOUBLE, n, n + 3, 1, false);
        compare_variants("ipt.conv2", {"fft"}, [&](ipt::Call& c) { c.image("A", A).image("B", B).option("shape", "full"); },
                         {"C"}, std::to_string(n) + "x" + std::to_string(n + 3) + " full",
                         fft_bound(fetch(A), values(b), 12, 12, "full"));
    }
}

}  // namespace

namespace {

ipt::Image random_mask(Random& rnd, int64_t rows, int64_t cols, bool full = false) {
    std::vector<int> bits(static_cast<size_t>(rows * cols));
    for (auto& b : bits) b = full ? 1 : (rnd.pick(3) != 0);
    return ipt_test::logical(rows, cols, bits);
}

TEST(VulkanOps, DilateErode) {
    REQUIRE_VULKAN();
    Random rnd(13);
    const ipt_dtype classes[] = {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_SINGLE, IPT_DOUBLE};
    struct Se {
        int64_t rows, cols;
        bool full;
    };
    const Se ses[] = {{3, 3, true}, {1, 5, true}, {5, 1, true}, {2, 3, false}, {4, 5, false}, {1, 1, true}, {7, 7, false}};
    for (ipt_dtype dt : classes)
        for (const Shape& s : shapes())
            for (const Se& se : ses) {
                if (s.channels != 1) continue;  // the catalogue takes 2-D images
                ipt::Image a = rnd.image(dt, s.rows, s.cols, s.channels);
                ipt::Image nh = random_mask(rnd, se.rows, se.cols, se.full);
                const std::string label = shape_label(s, dt) + " se " + std::to_string(se.rows) + "x" + std::to_string(se.cols);
                for (const char* op : {"ipt.imdilate", "ipt.imerode"}) {
                    compare(op, [&](ipt::Call& c) { c.image("A", a).image("nhood", nh); }, {"B"}, label);
                    if (dt == IPT_LOGICAL) continue;
                    std::vector<double> h(static_cast<size_t>(se.rows * se.cols));
                    for (auto& x : h) x = std::round(rnd.uniform(-20, 20)) / 4;
                    ipt::Image heights = ipt_test::image<double>(se.rows, se.cols, h);
                    compare(op, [&](ipt::Call& c) { c.image("A", a).image("nhood", nh).image("heights", heights); },
                            {"B"}, label + " non-flat");
                }
            }
}

}  // namespace

namespace {

TEST(VulkanOps, Ordfilt2) {
    REQUIRE_VULKAN();
    Random rnd(14);
    const ipt_dtype classes[] = {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE};
    struct Dom {
        int64_t rows, cols;
        bool full;
    };
    const Dom doms[] = {{3, 3, true}, {2, 3, false}, {4, 4, false}, {1, 5, true}, {5, 2, false}};
    for (ipt_dtype dt : classes)
        for (const Shape& s : shapes()) {
            if (s.channels != 1) continue;
            for (const Dom& d : doms) {
                ipt::Image a = rnd.image(dt, s.rows, s.cols);
                ipt::Image dom = random_mask(rnd, d.rows, d.cols, d.full);
                const Output dm = fetch(dom);
                int64_t nnz = 0;
                for (int64_t i = 0; i < dm.numel(); ++i) nnz += dm.at(i) != 0;
                if (nnz == 0) continue;
                const std::string label = shape_label(s, dt) + " domain " + std::to_string(d.rows) + "x" + std::to_string(d.cols);
                for (int64_t order : {int64_t(1), (nnz + 1) / 2, nnz})
                    for (const char* pad : {"zeros", "symmetric"}) {
                        if (rnd.pick(3) != 0 && s.rows != 13) continue;  // a sample keeps the run short
                        compare("ipt.ordfilt2",
                                [&](ipt::Call& c) { c.image("A", a).integer("order", order).image("domain", dom).option("padopt", pad); },
                                {"B"}, label + " order " + std::to_string(order) + " " + pad);
                    }
                std::vector<double> sv(static_cast<size_t>(d.rows * d.cols));
                for (auto& x : sv) x = std::round(rnd.uniform(-8, 8)) / 2;
                ipt::Image S = ipt_test::image<double>(d.rows, d.cols, sv);
                compare("ipt.ordfilt2",
                        [&](ipt::Call& c) { c.image("A", a).integer("order", (nnz + 1) / 2).image("domain", dom).image("S", S); },
                        {"B"}, label + " with S");
            }
        }
}

TEST(VulkanOps, Medfilt2) {
    REQUIRE_VULKAN();
    Random rnd(15);
    const ipt_dtype classes[] = {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_SINGLE, IPT_DOUBLE};
    for (ipt_dtype dt : classes)
        for (const Shape& s : shapes()) {
            if (s.channels != 1) continue;
            ipt::Image a = rnd.image(dt, s.rows, s.cols);
            // Up to 25 values the window is sorted in registers, above that
            // selected by radix (order_filter.comp): 5x5 and 5x6 straddle it.
            for (std::vector<double> size : {std::vector<double>{3, 3}, {2, 2}, {1, 4}, {5, 3}, {4, 4}, {5, 5}, {5, 6}})
                for (const char* pad : {"zeros", "symmetric", "indexed"}) {
                    if (rnd.pick(2) != 0 && s.rows != 13) continue;
                    compare("ipt.medfilt2", [&](ipt::Call& c) { c.image("A", a).numbers("size", size).option("padopt", pad); },
                            {"B"}, shape_label(s, dt) + " " + std::to_string(int(size[0])) + "x" + std::to_string(int(size[1])) + " " + pad);
                }
        }
}

}  // namespace

namespace {

// IDX must match except at ties, where both pixels must be equally near
// (IPT_CMP_BWDIST). Distances by the metric's definition, in double.
double metric_distance(const std::string& method, int64_t dr, int64_t dc) {
    dr = std::abs(dr), dc = std::abs(dc);
    if (method == "cityblock") return double(dr + dc);
    if (method == "chessboard") return double(std::max(dr, dc));
    if (method == "quasi-euclidean")
        return double(std::max(dr, dc)) + (std::sqrt(2.0) - 1.0) * double(std::min(dr, dc));
    return std::sqrt(double(dr * dr + dc * dc));
}

TEST(VulkanOps, Bwdist) {
    REQUIRE_VULKAN();
    Random rnd(16);
    for (ipt_dtype dt : {IPT_LOGICAL, IPT_UINT8, IPT_DOUBLE})
        for (const Shape& s : shapes()) {
            if (s.channels != 1) continue;
            for (int density : {2, 10, 1000}) {
                // Sparse images: features with probability 1/density.
                auto bytes = rnd.bytes(dt, s.rows * s.cols, false);
                for (int64_t i = 0; i < s.rows * s.cols; ++i) {
                    const bool on = rnd.pick(density) == 0;
                    if (dt == IPT_DOUBLE) reinterpret_cast<double*>(bytes.data())[i] = on ? 0.5 : 0.0;
                    else bytes[i] = on ? 1 : 0;
                }
                ipt::Image bw = ipt_test::context().upload(dt, s.rows, s.cols, bytes.data());
                for (const char* method : {"euclidean", "cityblock", "chessboard", "quasi-euclidean"}) {
                    const std::string label = shape_label(s, dt) + " 1/" + std::to_string(density) + " " + method;
                    auto setup = [&](ipt::Call& c) { c.image("BW", bw).option("method", method); };
                    auto ref = run_on(IPT_DEVICE_HOST, "", "ipt.bwdist", setup, {"D", "IDX"});
                    for (const std::string& v : variants("ipt.bwdist")) {
                        auto got = run_on(vulkan_device().id, v, "ipt.bwdist", setup, {"D", "IDX"});
                        expect_match(ref["D"], got["D"], label + " " + v + " D");
                        const Output& ri = ref["IDX"];
                        const Output& gi = got["IDX"];
                        ASSERT_EQ(ri.numel(), gi.numel());
                        for (int64_t p = 0; p < ri.numel(); ++p) {
                            if (ri.at(p) == gi.at(p)) continue;
                            ASSERT_NE(gi.at(p), 0) << label;
                            const int64_t r = p / s.cols, c = p % s.cols;
                            auto dist = [&](double idx) {
                                const int64_t k = int64_t(idx) - 1;
                                return metric_distance(method, k % s.rows - r, k / s.rows - c);
                            };
                            EXPECT_EQ(dist(ri.at(p)), dist(gi.at(p))) << label << " " << v << " IDX at " << p;
                        }
                    }
                }
            }
        }
}

// Euclidean bwdist is the lower-envelope pass: D and IDX must be the
// reference's bit for bit (ties to the lowest linear index), whichever way
// the row's working set is held: 16-bit in shared memory, or global scratch
// (rows too wide for shared memory). Very sparse and tie-heavy (regular grid)
// images included.
TEST(VulkanOps, BwdistEuclideanExact) {
    REQUIRE_VULKAN();
    Random rnd(17);
    struct Case {
        int64_t rows, cols;
        int density;  // features with probability 1/density; 0: a grid every 4 pixels
    };
    const Case cases[] = {{1, 1, 1}, {7, 300, 0}, {300, 7, 5}, {257, 513, 0}, {256, 256, 20000},
                          {512, 384, 3000}, {20000, 3, 50}, {70000, 2, 997}, {3, 70000, 50}, {2, 70000, 0}, {5, 9, 1000000}};
    for (const Case& k : cases) {
        std::vector<uint8_t> bytes(static_cast<size_t>(k.rows * k.cols));
        for (int64_t i = 0; i < k.rows * k.cols; ++i) {
            const int64_t r = i / k.cols, c = i % k.cols;  // row-major
            bytes[i] = k.density == 0 ? (r % 4 == 1 && c % 4 == 2) : rnd.pick(k.density) == 0;
        }
        ipt::Image bw = ipt_test::context().upload(IPT_LOGICAL, k.rows, k.cols, bytes.data());
        const std::string label = std::to_string(k.rows) + "x" + std::to_string(k.cols) + " 1/" +
                                  std::to_string(k.density);
        auto setup = [&](ipt::Call& c) { c.image("BW", bw).option("method", "euclidean"); };
        auto ref = run_on(IPT_DEVICE_HOST, "", "ipt.bwdist", setup, {"D", "IDX"});
        for (const std::string& v : variants("ipt.bwdist")) {
            auto got = run_on(vulkan_device().id, v, "ipt.bwdist", setup, {"D", "IDX"});
            expect_match(ref["D"], got["D"], label + " " + v + " D");
            expect_match(ref["IDX"], got["IDX"], label + " " + v + " IDX");
        }
    }
}

}  // namespace

namespace {

// Values 0..levels-1 (NaN now and then for the float classes).
std::vector<uint8_t> small_levels(Random& rnd, ipt_dtype dt, int64_t n, int levels) {
    std::vector<uint8_t> out(static_cast<size_t>(n) * ipt_dtype_size(dt));
    for (int64_t i = 0; i < n; ++i) {
        const int v = int(rnd.pick(dt == IPT_LOGICAL ? 2 : levels));
        const bool nan = rnd.pick(50) == 0;
        switch (dt) {
        case IPT_LOGICAL:
        case IPT_UINT8: out[i] = uint8_t(v); break;
        case IPT_UINT16: reinterpret_cast<uint16_t*>(out.data())[i] = uint16_t(v); break;
        case IPT_INT16: reinterpret_cast<int16_t*>(out.data())[i] = int16_t(v - 1); break;
        case IPT_INT32: reinterpret_cast<int32_t*>(out.data())[i] = v - 1; break;
        case IPT_UINT32: reinterpret_cast<uint32_t*>(out.data())[i] = uint32_t(v); break;
        case IPT_SINGLE: reinterpret_cast<float*>(out.data())[i] = nan ? NAN : float(v); break;
        default: reinterpret_cast<double*>(out.data())[i] = nan ? NAN : double(v); break;
        }
    }
    return out;
}

TEST(VulkanOps, Imregionalmax) {
    REQUIRE_VULKAN();
    Random rnd(17);
    const ipt_dtype classes[] = {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_SINGLE, IPT_DOUBLE};
    for (ipt_dtype dt : classes)
        for (const Shape& s : shapes()) {
            if (s.channels != 1) continue;
            // Few distinct values: large plateaus that snake across the image.
            for (int levels : {2, 4, 1000}) {
                auto bytes = rnd.bytes(dt, s.rows * s.cols);
                if (levels < 1000) bytes = small_levels(rnd, dt, s.rows * s.cols, levels);
                ipt::Image a = ipt_test::context().upload(dt, s.rows, s.cols, bytes.data());
                for (int conn : {4, 8})
                    compare("ipt.imregionalmax", [&](ipt::Call& c) { c.image("I", a).integer("conn", conn); }, {"BW"},
                            shape_label(s, dt) + " levels " + std::to_string(levels) + " conn " + std::to_string(conn));
            }
        }
}

}  // namespace

namespace {

TEST(VulkanOps, Radon) {
    REQUIRE_VULKAN();
    Random rnd(18);
    for (ipt_dtype dt : {IPT_LOGICAL, IPT_UINT8, IPT_SINGLE, IPT_DOUBLE})
        for (const Shape& s : shapes()) {
            if (s.channels != 1) continue;
            ipt::Image a = rnd.image(dt, s.rows, s.cols, 1, false);
            std::vector<double> theta;
            for (int k = 0; k < 180; k += 7) theta.push_back(k);
            theta.push_back(45);
            theta.push_back(-30.5);
            theta.push_back(400);
            compare("ipt.radon", [&](ipt::Call& c) { c.image("I", a).numbers("theta", theta); }, {"R", "xp"},
                    shape_label(s, dt), [](const std::string&, const Output& ref) { return range_eps(ref, 64); });
        }
    // The documentation example: radon(ones(2,2), 30).
    ipt::Image ones = ipt_test::image<double>(2, 2, {1, 1, 1, 1});
    auto got = run_on(vulkan_device().id, "", "ipt.radon", [&](ipt::Call& c) { c.image("I", ones).numbers("theta", {30}); }, {"R"});
    const double expect[] = {0, 0, 0.608253, 2.103326, 1.236538, 0.051883, 0};
    ASSERT_EQ(got["R"].numel(), 7);
    for (int i = 0; i < 7; ++i) EXPECT_NEAR(got["R"].at(i), expect[i], 1e-6) << i;
}

}  // namespace

namespace {

TEST(VulkanOps, Dither) {
    REQUIRE_VULKAN();
    Random rnd(19);
    for (ipt_dtype dt : {IPT_UINT8, IPT_UINT16, IPT_SINGLE, IPT_DOUBLE})
        for (const Shape& s : shapes()) {
            ipt::Image a = rnd.image(dt, s.rows, s.cols, s.channels, false);
            if (s.channels == 1) {
                compare("ipt.dither", [&](ipt::Call& c) { c.image("I", a); }, {"X"}, shape_label(s, dt));
                compare("ipt.dither", [&](ipt::Call& c) { c.image("I", a).integer("Qm", 3).integer("Qe", 6); }, {"X"},
                        shape_label(s, dt) + " Qm 3 Qe 6");
                // Errors up to 65535: 32-bit errors in shared memory.
                compare("ipt.dither", [&](ipt::Call& c) { c.image("I", a).integer("Qm", 5).integer("Qe", 16); }, {"X"},
                        shape_label(s, dt) + " Qm 5 Qe 16");
                continue;
            }
            for (int colours : {2, 7, 300}) {
                std::vector<double> m(static_cast<size_t>(colours * 3));
                for (auto& v : m) v = std::round(rnd.unit() * 8) / 8;  // repeated colours: ties
                ipt::Image map = ipt_test::image<double>(colours, 3, m);
                compare("ipt.dither", [&](ipt::Call& c) { c.image("I", a).image("map", map); }, {"X"},
                        shape_label(s, dt) + " " + std::to_string(colours) + " colours");
                compare("ipt.dither", [&](ipt::Call& c) { c.image("I", a).image("map", map).integer("Qm", 8).integer("Qe", 9); },
                        {"X"}, shape_label(s, dt) + " " + std::to_string(colours) + " colours Qm 8");
            }
        }
}

}  // namespace

namespace {

TEST(VulkanOps, DitherTallImageKeepsItsErrorsInDeviceMemory) {
    REQUIRE_VULKAN();
    // 8000 row pairs, eight per lane of 1024: their slots (two ints per pair,
    // 63 KB) fit neither in lavapipe's 32 KB nor in NVIDIA's 48 KB of shared
    // memory, so dither.comp's global-buffer path.
    Random rnd(23);
    ipt::Image a = rnd.image(IPT_UINT8, 16000, 3, 1, false);
    compare("ipt.dither", [&](ipt::Call& c) { c.image("I", a).integer("Qe", 16); }, {"X"}, "16000x3 uint8 Qe 16");
    compare("ipt.dither", [&](ipt::Call& c) { c.image("I", a); }, {"X"}, "16000x3 uint8");
}

TEST(VulkanOps, DitherTwoRowPairsPerLane) {
    REQUIRE_VULKAN();
    // More than 2048 rows: two or more row pairs per lane (at most 1024
    // lanes), slots in shared memory; odd row counts leave a last pair of one
    // row.
    Random rnd(24);
    ipt::Image grey = rnd.image(IPT_UINT8, 3001, 5, 1, false);
    compare("ipt.dither", [&](ipt::Call& c) { c.image("I", grey); }, {"X"}, "3001x5 uint8");
    ipt::Image rgb = rnd.image(IPT_SINGLE, 2501, 4, 3, false);
    std::vector<double> m(7 * 3);
    for (auto& v : m) v = std::round(rnd.unit() * 8) / 8;
    ipt::Image map = ipt_test::image<double>(7, 3, m);
    compare("ipt.dither", [&](ipt::Call& c) { c.image("I", rgb).image("map", map); }, {"X"}, "2501x4 single 7 colours");
}

TEST(VulkanOps, DitherDirectPath) {
    REQUIRE_VULKAN();
    // IPT_VULKAN_DITHER=direct: dither.comp reading the input in place, as
    // for tall images, on sizes that otherwise take the skewed buffers
    // (dither_levels, dither_skewed, dither_unskew): one and two row pairs
    // per lane, slots in shared memory.
    Random rnd(25);
    ipt::Image grey = rnd.image(IPT_UINT8, 3001, 5, 1, false);
    ipt::Image wide = rnd.image(IPT_DOUBLE, 37, 301, 1, false);
    ipt::Image rgb = rnd.image(IPT_UINT16, 41, 39, 3, false);
    std::vector<double> m(7 * 3);
    for (auto& v : m) v = std::round(rnd.unit() * 8) / 8;
    ipt::Image map = ipt_test::image<double>(7, 3, m);
    for (const char* path : {"direct", "skewed"}) {
        setenv("IPT_VULKAN_DITHER", path, 1);
        const std::string tag = std::string(" ") + path;
        compare("ipt.dither", [&](ipt::Call& c) { c.image("I", grey); }, {"X"}, "3001x5 uint8" + tag);
        compare("ipt.dither", [&](ipt::Call& c) { c.image("I", wide).integer("Qe", 16); }, {"X"}, "37x301 double Qe 16" + tag);
        compare("ipt.dither", [&](ipt::Call& c) { c.image("I", rgb).image("map", map); }, {"X"}, "41x39 uint16 7 colours" + tag);
    }
    unsetenv("IPT_VULKAN_DITHER");
}

TEST(VulkanOps, Imfilter) {
    REQUIRE_VULKAN();
    Random rnd(20);
    const ipt_dtype classes[] = {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_SINGLE, IPT_DOUBLE};
    struct K {
        int64_t rows, cols;
        bool rank1;
    };
    // 3x4 and 4x5 rank-1 kernels take the reference's two-pass route.
    const K kernels[] = {{3, 3, false}, {2, 4, false}, {1, 5, false}, {3, 4, true}, {4, 5, true}, {5, 5, false}};
    for (ipt_dtype dt : classes)
        for (const Shape& s : shapes())
            for (const K& k : kernels) {
                ipt::Image a = rnd.image(dt, s.rows, s.cols, s.channels);
                std::vector<double> h(static_cast<size_t>(k.rows * k.cols));
                if (k.rank1) {
                    std::vector<double> u(k.rows), v(k.cols);
                    for (auto& x : u) x = std::round(rnd.uniform(-4, 4)) / 4;
                    for (auto& x : v) x = rnd.uniform(-1, 1);
                    for (int64_t i = 0; i < k.rows; ++i)
                        for (int64_t j = 0; j < k.cols; ++j) h[i * k.cols + j] = u[i] * v[j];
                } else {
                    // Multiples of 1/8 with zeros: exact .5 ties on integer images.
                    for (auto& x : h) x = std::round(rnd.uniform(-4, 4)) / 8;
                }
                for (ipt_dtype hdt : {IPT_DOUBLE, IPT_SINGLE}) {
                    if (hdt == IPT_SINGLE && rnd.pick(3) != 0) continue;  // keeps the run short
                    ipt::Image hk = hdt == IPT_DOUBLE ? ipt_test::image<double>(k.rows, k.cols, h)
                                                      : ipt_test::image<float>(k.rows, k.cols, std::vector<float>(h.begin(), h.end()));
                    for (const char* boundary : {"constant", "symmetric", "replicate", "circular"})
                        for (const char* output : {"same", "full"})
                            for (const char* mode : {"corr", "conv"}) {
                                // Every combination on one shape, a third of them elsewhere.
                                if (s.rows != 13 && rnd.pick(3) != 0) continue;
                                const std::string label = shape_label(s, dt) + " h " + std::to_string(k.rows) + "x" +
                                                          std::to_string(k.cols) + " " + ipt_dtype_name(hdt) + " " +
                                                          boundary + " " + output + " " + mode;
                                // Floating classes: the catalogue's bound, 16 eps (|A|*|h|)(p),
                                // with |A| <= max|A| (integer classes: exact).
                                compare("ipt.imfilter",
                                        [&](ipt::Call& c) {
                                            c.image("A", a).image("h", hk).option("boundary", boundary).option("output", output).option("mode", mode);
                                            if (std::string(boundary) == "constant") c.number("X", 3.5);
                                        },
                                        {"B"}, label, [&](const std::string&, const Output& ref) {
                                            if (ref.dtype != IPT_SINGLE && ref.dtype != IPT_DOUBLE)
                                                return std::function<double(int64_t)>(nullptr);
                                            const Output av = fetch(a);
                                            double amax = 3.5, hsum = 0;
                                            for (int64_t i = 0; i < av.numel(); ++i)
                                                if (std::isfinite(av.at(i))) amax = std::max(amax, std::abs(av.at(i)));
                                            for (double x : h) hsum += std::abs(x);
                                            const double b = 16 * eps_of(ref.dtype) * amax * hsum;
                                            return std::function<double(int64_t)>([b](int64_t) { return b; });
                                        });
                            }
                }
            }
}

}  // namespace

namespace {

TEST(VulkanOps, Edge) {
    REQUIRE_VULKAN();
    Random rnd(21);
    for (ipt_dtype dt : {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_SINGLE, IPT_DOUBLE})
        for (const Shape& s : shapes()) {
            if (s.channels != 1) continue;
            ipt::Image a = rnd.image(dt, s.rows, s.cols, 1, false);
            const std::string label = shape_label(s, dt);
            auto run = [&](const std::string& what, const vk_test::Setup& setup) {
                compare("ipt.edge", setup, {"BW", "thresh"}, label + " " + what,
                        [](const std::string& out, const Output& ref) {
                            // thresh: 64 eps relative (the catalogue); BW exact.
                            if (out != "thresh") return std::function<double(int64_t)>(nullptr);
                            return range_eps(ref, 64);
                        });
            };
            for (const char* method : {"sobel", "prewitt", "roberts"}) {
                run(method, [&](ipt::Call& c) { c.image("I", a).option("method", method); });
                run(std::string(method) + " nothinning horizontal",
                    [&](ipt::Call& c) { c.image("I", a).option("method", method).option("thinning", "nothinning").option("direction", "horizontal"); });
                run(std::string(method) + " threshold",
                    [&](ipt::Call& c) { c.image("I", a).option("method", method).numbers("threshold", {0.1}); });
            }
            run("log", [&](ipt::Call& c) { c.image("I", a).option("method", "log"); });
            run("log sigma 1 t 0", [&](ipt::Call& c) { c.image("I", a).option("method", "log").number("sigma", 1).numbers("threshold", {0}); });
            ipt::Image h = ipt_test::image<double>(3, 4, {1, 2, -1, 0, 0.5, -2, 1, 1, 0, 1, -1, 2});
            run("zerocross", [&](ipt::Call& c) { c.image("I", a).option("method", "zerocross").image("h", h); });
            run("canny", [&](ipt::Call& c) { c.image("I", a).option("method", "canny"); });
            run("canny [0.1 0.3] sigma 1", [&](ipt::Call& c) {
                c.image("I", a).option("method", "canny").numbers("threshold", {0.1, 0.3}).number("sigma", 1);
            });
        }
}

}  // namespace

namespace {

TEST(VulkanOps, FspecialAndStrel) {
    REQUIRE_VULKAN();
    auto bound = [](const std::string&, const Output& ref) { return range_eps(ref, 4); };
    compare("ipt.fspecial", [](ipt::Call& c) { c.option("type", "gaussian").numbers("hsize", {5, 7}).number("sigma", 1.5); },
            {"h"}, "gaussian 5x7", bound);
    compare("ipt.fspecial", [](ipt::Call& c) { c.option("type", "disk").number("radius", 3.5); }, {"h"}, "disk 3.5", bound);
    compare("ipt.fspecial", [](ipt::Call& c) { c.option("type", "motion").number("len", 7).number("theta", 30); }, {"h"},
            "motion 7 30", bound);
    compare("ipt.strel", [](ipt::Call& c) { c.option("shape", "disk").integer("r", 5); }, {"nhood", "decomposition"}, "disk 5");
    compare("ipt.strel", [](ipt::Call& c) { c.option("shape", "line").number("len", 7).number("deg", 30); }, {"nhood"},
            "line 7 30");
    IPT_EXPECT_ERROR(run_on(vulkan_device().id, "", "ipt.strel", [](ipt::Call& c) { c.option("shape", "octagon").integer("r", 4); },
                            {"nhood"}),
                     IPT_ERR_INVALID_ARGUMENT, "'r'");
}

TEST(VulkanErrors, BadArgumentsNameTheParameterAndWriteNothing) {
    REQUIRE_VULKAN();
    // One variant per call: the plugin's own checks answer (with several
    // candidates the registry's measured selection reports its own summary).
    ipt::Image a = ipt_test::image<uint8_t>(2, 2, {1, 2, 3, 4});
    ipt::Image lut = ipt_test::image<uint8_t>(1, 256, std::vector<uint8_t>(256, 7));
    // A 2x2 ordfilt2 order beyond nnz(domain) is refused by the registry or the plugin.
    ipt::Image dom = ipt_test::logical(1, 2, {1, 0});
    IPT_EXPECT_ERROR(run_on(vulkan_device().id, variants("ipt.ordfilt2")[0], "ipt.ordfilt2",
                            [&](ipt::Call& c) { c.image("A", a).integer("order", 2).image("domain", dom); }, {"B"}),
                     IPT_ERR_INVALID_ARGUMENT, "order");
    IPT_EXPECT_ERROR(run_on(vulkan_device().id, variants("ipt.imadjust")[0], "ipt.imadjust",
                            [&](ipt::Call& c) { c.image("I", a).numbers("low_high_in", {0.7, 0.2}); }, {"J"}),
                     IPT_ERR_INVALID_ARGUMENT, "low_high_in");
    IPT_EXPECT_ERROR(run_on(vulkan_device().id, variants("ipt.edge")[0], "ipt.edge",
                            [&](ipt::Call& c) { c.image("I", a).option("method", "log").option("direction", "vertical"); }, {"BW"}),
                     IPT_ERR_INVALID_ARGUMENT, "direction");
    // A correct call still works afterwards (the device is healthy).
    auto got = run_on(vulkan_device().id, "", "ipt.intlut", [&](ipt::Call& c) { c.image("A", a).image("LUT", lut); }, {"B"});
    EXPECT_EQ(got["B"].at(3), 7);
}

// An image with no pixels and a huge other side: the outputs have its size
// at once (edge: thresh NaN; bwdist: D and IDX empty), on every variant.
TEST(VulkanEmptyImages, EdgeAndBwdistReturnEmptyOutputsOfTheImagesSize) {
    REQUIRE_VULKAN();
    const uint32_t dev = vulkan_device().id;
    for (auto [rows, cols] : {std::pair<int64_t, int64_t>{int64_t{1} << 30, 0}, {0, int64_t{1} << 30}}) {
        const ipt::Image I = ipt_test::context().upload(IPT_SINGLE, rows, cols, nullptr);
        const ipt::Image BW = ipt_test::context().upload(IPT_LOGICAL, rows, cols, nullptr);
        const std::string what = std::to_string(rows) + "x" + std::to_string(cols);
        for (const std::string& v : variants("ipt.edge"))
            for (const char* method : {"sobel", "log", "canny"}) {
                auto got = run_on(dev, v, "ipt.edge", [&](ipt::Call& c) { c.image("I", I).option("method", method); },
                                  {"BW", "thresh"});
                EXPECT_EQ(got["BW"].dtype, IPT_LOGICAL) << what << " " << method;
                EXPECT_EQ(got["BW"].rows, rows) << what << " " << method;
                EXPECT_EQ(got["BW"].cols, cols) << what << " " << method;
                ASSERT_EQ(got["thresh"].numel(), std::string(method) == "canny" ? 2 : 1) << what << " " << method;
                EXPECT_TRUE(std::isnan(got["thresh"].at(0))) << what << " " << method;
            }
        for (const std::string& v : variants("ipt.bwdist")) {
            auto got = run_on(dev, v, "ipt.bwdist", [&](ipt::Call& c) { c.image("BW", BW); }, {"D", "IDX"});
            EXPECT_EQ(got["D"].dtype, IPT_SINGLE) << what;
            EXPECT_EQ(got["D"].rows, rows) << what;
            EXPECT_EQ(got["D"].cols, cols) << what;
            EXPECT_EQ(got["IDX"].dtype, IPT_UINT32) << what;
            EXPECT_EQ(got["IDX"].rows, rows) << what;
            EXPECT_EQ(got["IDX"].cols, cols) << what;
        }
    }
}

// imresize: both dispatches against the reference, every class, shrinking
// (with and without antialiasing) and enlarging, each kernel. Integer and
// logical results must be exact; floating ones within 16 eps of the range.
TEST(VulkanOps, Imresize) {
    REQUIRE_VULKAN();
    Random rnd(15);
    const std::vector<std::vector<double>> scales = {{0.45}, {2.5}, {1.7, 0.35}};
    for (ipt_dtype dt : {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE})
        for (const Shape& s : shapes()) {
            if (s.rows == 0) continue;  // imresize refuses empty images
            ipt::Image a = rnd.image(dt, s.rows, s.cols, s.channels);
            for (const char* m : {"nearest", "bilinear", "bicubic", "lanczos3"})
                for (const auto& sc : scales)
                    for (int aa : {0, 1})
                        compare("ipt.imresize",
                                [&](ipt::Call& c) {
                                    c.image("A", a).numbers("Scale", sc).option("method", m).integer("Antialiasing", aa);
                                },
                                {"B"}, shape_label(s, dt) + " " + m + " aa " + std::to_string(aa),
                                [](const std::string&, const Output& ref) { return range_eps(ref, 16); });
        }
    // Any number of planes: each is resized alike.
    for (ipt_dtype dt : {IPT_LOGICAL, IPT_UINT8, IPT_INT16, IPT_SINGLE, IPT_DOUBLE})
        for (int64_t planes : {2, 4}) {
            const Shape s{13, 17, planes};
            ipt::Image a = rnd.image(dt, s.rows, s.cols, s.channels);
            for (const auto& sc : scales)
                compare("ipt.imresize", [&](ipt::Call& c) { c.image("A", a).numbers("Scale", sc).option("method", "bicubic"); },
                        {"B"}, shape_label(s, dt) + " bicubic",
                        [](const std::string&, const Output& ref) { return range_eps(ref, 16); });
        }
}

TEST(VulkanOps, Histograms) {
    REQUIRE_VULKAN();
    Random rnd(15);
    const ipt_dtype all[] = {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE};
    const ipt_dtype images[] = {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_SINGLE, IPT_DOUBLE};
    for (const Shape& s : shapes()) {
        for (ipt_dtype dt : all) {
            ipt::Image a = rnd.image(dt, s.rows, s.cols, s.channels);
            for (int64_t n : {2, 7, 256, 3000, 65536}) {
                if (dt == IPT_LOGICAL && n != 2) continue;
                compare("ipt.imhist", [&](ipt::Call& c) { c.image("I", a).integer("n", n); }, {"counts", "binLocations"},
                        shape_label(s, dt) + " n " + std::to_string(n));
            }
        }
        for (ipt_dtype dt : images) {
            ipt::Image a = rnd.image(dt, s.rows, s.cols, s.channels);
            compare("ipt.graythresh", [&](ipt::Call& c) { c.image("I", a); }, {"T", "EM"}, shape_label(s, dt));
            compare("ipt.histeq", [&](ipt::Call& c) { c.image("I", a); }, {"J", "T"}, shape_label(s, dt));
            compare("ipt.histeq", [&](ipt::Call& c) { c.image("I", a).integer("n", 5); }, {"J", "T"},
                    shape_label(s, dt) + " n 5");
            compare("ipt.histeq", [&](ipt::Call& c) { c.image("I", a).numbers("hgram", {1, 4, 9, 4, 1}); }, {"J", "T"},
                    shape_label(s, dt) + " hgram");
        }
    }
    std::vector<double> counts(256);
    for (size_t k = 0; k < counts.size(); ++k) counts[k] = double((k * 37) % 101);
    ipt::Image h = ipt_test::context().upload<double>(1, 256, counts);
    compare("ipt.otsuthresh", [&](ipt::Call& c) { c.image("counts", h); }, {"T", "EM"}, "256 counts");
}

TEST(VulkanOps, Adapthisteq) {
    // Tables are built on the host from the device's tile counts and the blend
    // keeps MATLAB's order, so every class agrees exactly with the CPU.
    REQUIRE_VULKAN();
    Random rnd(16);
    const ipt_dtype images[] = {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_SINGLE, IPT_DOUBLE};
    for (ipt_dtype dt : images)
        for (const Shape& s : {Shape{2, 2, 1}, Shape{13, 17, 1}, Shape{64, 65, 1}, Shape{37, 129, 1}}) {
            ipt::Image a = rnd.image(dt, s.rows, s.cols, s.channels);
            compare("ipt.adapthisteq", [&](ipt::Call& c) { c.image("I", a).numbers("NumTiles", {2, 2}); }, {"J"},
                    shape_label(s, dt));
            if (s.rows < 8) continue;
            compare("ipt.adapthisteq", [&](ipt::Call& c) { c.image("I", a); }, {"J"}, shape_label(s, dt) + " defaults");
            // More bins than shared memory holds: global counts.
            compare("ipt.adapthisteq",
                    [&](ipt::Call& c) {
                        c.image("I", a).numbers("NumTiles", {3, 5}).integer("NBins", 5000).number("ClipLimit", 0.2);
                    },
                    {"J"}, shape_label(s, dt) + " 5000 bins");
            compare("ipt.adapthisteq",
                    [&](ipt::Call& c) {
                        // Floating images here reach below 0, which 'original' refuses.
                        const bool floating = dt == IPT_SINGLE || dt == IPT_DOUBLE;
                        c.image("I", a).option("Range", floating ? "full" : "original").option("Distribution", "rayleigh");
                    },
                    {"J"}, shape_label(s, dt) + " original rayleigh");
            compare("ipt.adapthisteq",
                    [&](ipt::Call& c) {
                        c.image("I", a).option("Distribution", "exponential").number("Alpha", 2).integer("NBins", 37);
                    },
                    {"J"}, shape_label(s, dt) + " exponential");
        }
}

}  // namespace

namespace {

// Neighbourhood statistics: stdfilt, rangefilt, entropyfilt, over every
// class, the edge shapes (RGB included), the default and random nhoods (an
// even one for rangefilt, the others refuse it).
TEST(VulkanOps, LocalStatistics) {
    REQUIRE_VULKAN();
    Random rnd(31);
    const ipt_dtype classes[] = {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE};
    const ipt::Image odd = random_mask(rnd, 5, 3);
    const ipt::Image even = random_mask(rnd, 2, 4);
    for (ipt_dtype dt : classes)
        for (const Shape& s : shapes()) {
            ipt::Image a = rnd.image(dt, s.rows, s.cols, s.channels);
            const std::string label = shape_label(s, dt);
            const bool entropy = dt != IPT_INT32 && dt != IPT_UINT32;  // im2uint8 has no int32, uint32
            // The catalogue's bounds: stdfilt 1024, entropyfilt 64 eps(class); rangefilt exact.
            const std::pair<const char*, double> ops[] = {{"ipt.stdfilt", 1024}, {"ipt.rangefilt", 0}, {"ipt.entropyfilt", 64}};
            for (auto [op, tol] : ops) {
                if (!entropy && std::string(op) == "ipt.entropyfilt") continue;
                const Bound bound = [tol = tol](const std::string&, const Output& ref) { return range_eps(ref, tol); };
                compare(op, [&](ipt::Call& c) { c.image("I", a); }, {"J"}, label, bound);
                compare(op, [&](ipt::Call& c) { c.image("I", a).image("nhood", odd); }, {"J"}, label + " nhood 5x3", bound);
            }
            compare("ipt.rangefilt", [&](ipt::Call& c) { c.image("I", a).image("nhood", even); }, {"J"},
                    label + " nhood 2x4");
        }
}

}  // namespace
