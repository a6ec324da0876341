// SPDX-License-Identifier: Apache-2.0
// The C++ wrapper (ipt/ipt.hpp): an image handed to Call::image as a
// temporary is kept by the call until it runs, an lvalue is referred to, and a
// const temporary does not compile. Under AddressSanitizer (IPT_SANITIZE) a
// temporary freed before run() is reported as a heap use-after-free.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;

template <class T>
concept ImageArgument = requires(ipt::Call& c, T&& img) { c.image("A", std::forward<T>(img)); };
static_assert(ImageArgument<ipt::Image&>, "an lvalue is referred to");
static_assert(ImageArgument<const ipt::Image&>, "a const lvalue is referred to");
static_assert(ImageArgument<ipt::Image>, "a temporary is kept");
static_assert(!ImageArgument<const ipt::Image>, "a const temporary can be neither kept nor referred to");

constexpr int64_t kRows = 64, kCols = 64;

std::vector<double> ramp(double scale) {
    std::vector<double> v(kRows * kCols);
    for (int64_t r = 0; r < kRows; ++r)
        for (int64_t c = 0; c < kCols; ++c) v[r * kCols + c] = scale * (r * 3 + c * 7 % 11);
    return v;
}

// conv2(A, [1 -1]), 'full', by its definition: C(r, c) = A(r, c) - A(r, c-1)
// with A zero outside, row-major, kRows x (kCols + 1).
std::vector<double> difference(const std::vector<double>& a) {
    std::vector<double> out(kRows * (kCols + 1));
    for (int64_t r = 0; r < kRows; ++r)
        for (int64_t c = 0; c <= kCols; ++c) {
            const double here = c < kCols ? a[r * kCols + c] : 0;
            const double left = c > 0 ? a[r * kCols + c - 1] : 0;
            out[r * (kCols + 1) + c] = here - left;
        }
    return out;
}

// Images of the same size allocated after the temporaries: if those had been
// freed, their memory would now hold these values.
std::vector<ipt::Image> decoys() {
    std::vector<ipt::Image> d;
    for (int i = 0; i < 4; ++i) {
        d.push_back(context().upload<double>(kRows, kCols, std::vector<double>(kRows * kCols, -1.0)));
        d.push_back(context().upload<double>(1, 2, {-5.0, -5.0}));
    }
    return d;
}

std::vector<double> result(ipt::Call& conv) {
    conv.run();
    ipt::Image c = conv.take("C");
    EXPECT_EQ(c.rows(), kRows);
    EXPECT_EQ(c.cols(), kCols + 1);
    return c.download<double>();
}

TEST(CppWrapper, TemporaryImagesAreKeptUntilRun) {
    const std::vector<double> px = ramp(1);
    ipt::Call conv(context(), "ipt.conv2");
    conv.image("A", context().upload<double>(kRows, kCols, px)).image("B", context().upload<double>(1, 2, {1.0, -1.0}));
    const std::vector<ipt::Image> other = decoys();
    EXPECT_EQ(result(conv), difference(px));
    // Kept for a second run too.
    EXPECT_EQ(result(conv), difference(px));
}

TEST(CppWrapper, LvalueImagesAreReferredTo) {
    const std::vector<double> px = ramp(2);
    ipt::Image a = context().upload<double>(kRows, kCols, px);
    const ipt::Image b = context().upload<double>(1, 2, {1.0, -1.0});
    ipt::Call conv(context(), "ipt.conv2");
    conv.image("A", a).image("B", b);
    EXPECT_EQ(result(conv), difference(px));
    EXPECT_TRUE(a) << "an lvalue stays the caller's";
}

TEST(CppWrapper, MovedImageIsHandedOver) {
    const std::vector<double> px = ramp(3);
    ipt::Image a = context().upload<double>(kRows, kCols, px);
    ipt::Call conv(context(), "ipt.conv2");
    conv.image("A", std::move(a)).image("B", context().upload<double>(1, 2, {1.0, -1.0}));
    EXPECT_FALSE(a) << "std::move hands the image to the call";
    const std::vector<ipt::Image> other = decoys();
    EXPECT_EQ(result(conv), difference(px));
}

TEST(CppWrapper, SettingAgainReplacesTheKeptImage) {
    const std::vector<double> first = ramp(1), second = ramp(5);
    ipt::Call conv(context(), "ipt.conv2");
    conv.image("A", context().upload<double>(kRows, kCols, first)).image("B", context().upload<double>(1, 2, {1.0, -1.0}));
    // A temporary replaced by another temporary, then by an lvalue.
    conv.image("A", context().upload<double>(kRows, kCols, second));
    EXPECT_EQ(result(conv), difference(second));
    const ipt::Image lvalue = context().upload<double>(kRows, kCols, first);
    conv.image("A", lvalue);
    const std::vector<ipt::Image> other = decoys();
    EXPECT_EQ(result(conv), difference(first));
}

TEST(CppWrapper, MovedCallKeepsItsImages) {
    const std::vector<double> px = ramp(4);
    auto make = [&] {
        ipt::Call conv(context(), "ipt.conv2");
        conv.image("A", context().upload<double>(kRows, kCols, px)).image("B", context().upload<double>(1, 2, {1.0, -1.0}));
        return conv;
    };
    ipt::Call conv = make();
    const std::vector<ipt::Image> other = decoys();
    EXPECT_EQ(result(conv), difference(px));
}

TEST(CppWrapper, RefusedImageIsNotKept) {
    ipt::Call conv(context(), "ipt.conv2");
    IPT_EXPECT_ERROR(conv.image("nosuch", context().upload<double>(1, 1, {1.0})), IPT_ERR_INVALID_ARGUMENT,
                     "no parameter 'nosuch'");
    // The call is still usable.
    const std::vector<double> px = ramp(1);
    conv.image("A", context().upload<double>(kRows, kCols, px)).image("B", context().upload<double>(1, 2, {1.0, -1.0}));
    EXPECT_EQ(result(conv), difference(px));
}


// Context::wrap_host: the call reads the caller's vector in place (a change
// to it before the run is seen), the caller's memory is never written, and
// a vector of the wrong length is refused before the library sees it.
TEST(CppWrapper, WrappedHostMemoryIsReadInPlace) {
    std::vector<double> px = ramp(1);
    const std::vector<double> kernel{1.0, -1.0};
    ipt::Call conv(context(), "ipt.conv2");
    conv.image("A", context().wrap_host<double>(kRows, kCols, px)).image("B", context().wrap_host<double>(1, 2, kernel));
    px[5] = 1000;  // after wrapping, before the run
    const std::vector<double> before = px;
    EXPECT_EQ(result(conv), difference(px));
    EXPECT_EQ(px, before) << "the wrapped memory is an input only";
    EXPECT_THROW(context().wrap_host<double>(kRows, kCols, kernel), ipt::Error);
}

}  // namespace
