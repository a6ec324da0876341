// SPDX-License-Identifier: Apache-2.0
// ipt.entropyfilt on Vulkan against the CPU reference, bit for bit: both
// slide a running histogram and subtract the same table of terms over the
// occupied bins in increasing order. Every class it accepts, odd sizes,
// single rows and columns, RGB, and nhoods whose counts take 8 and 16 bits
// (16-bit histograms of 64 invocations exceed lavapipe's 32 KiB of shared
// memory, so wave64 takes the global scratch there), flat, holed and larger
// than the image.
#include "vulkan_compare.hpp"

namespace {

using namespace vk_test;

ipt::Image mask_image(int64_t rows, int64_t cols, const std::vector<int>& v) {
    return ipt_test::logical(rows, cols, v);
}

ipt::Image random_mask(Random& rnd, int64_t rows, int64_t cols, uint32_t one_in) {
    std::vector<int> v(static_cast<size_t>(rows * cols));
    for (auto& x : v) x = rnd.pick(one_in) != 0 ? 1 : 0;
    return mask_image(rows, cols, v);
}

void compare_all(const ipt::Image& a, const ipt::Image* nhood, const std::string& what) {
    const Setup setup = [&](ipt::Call& c) {
        c.image("I", a);
        if (nhood) c.image("nhood", *nhood);
    };
    const auto ref = run_on(0, "", "ipt.entropyfilt", setup, {"J"});
    for (const std::string& v : variants("ipt.entropyfilt")) {
        const auto got = run_on(vulkan_device().id, v, "ipt.entropyfilt", setup, {"J"});
        expect_match(ref.at("J"), got.at("J"), what + " " + v);
    }
}

}  // namespace

TEST(VulkanEntropyfilt, MatchesReferenceBitForBit) {
    REQUIRE_VULKAN();
    Random rnd(57);
    const ipt_dtype classes[] = {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_SINGLE, IPT_DOUBLE};
    const Shape sizes[] = {{13, 17, 1}, {40, 3, 1}, {1, 30, 1}, {30, 1, 1}, {21, 9, 3}};
    std::vector<std::pair<std::string, ipt::Image>> nhoods;
    nhoods.emplace_back("5x3 holed", random_mask(rnd, 5, 3, 3));
    nhoods.emplace_back("1x7", mask_image(1, 7, std::vector<int>(7, 1)));
    nhoods.emplace_back("7x1", mask_image(7, 1, std::vector<int>(7, 1)));
    nhoods.emplace_back("17x17 (16-bit counts)", mask_image(17, 17, std::vector<int>(17 * 17, 1)));
    nhoods.emplace_back("3x101 holed (16-bit counts)", random_mask(rnd, 3, 101, 8));
    for (ipt_dtype dt : classes)
        for (const Shape& s : sizes) {
            const ipt::Image a = rnd.image(dt, s.rows, s.cols, s.channels);
            const std::string label = std::to_string(s.rows) + "x" + std::to_string(s.cols) + "x" +
                                      std::to_string(s.channels) + " class " + std::to_string(dt);
            compare_all(a, nullptr, label + " default nhood");
            for (const auto& [name, nh] : nhoods) compare_all(a, &nh, label + " nhood " + name);
        }
}

// 32-bit counts need 65536 members or more: an invocation then loops more
// than 65535 times, which llvmpipe (lavapipe) cuts short, so they are left to
// conformance on real devices. 181^2 = 32761 members still take 16-bit counts.
TEST(VulkanEntropyfilt, LargeNhoodAndEmptyNhood) {
    REQUIRE_VULKAN();
    Random rnd(58);
    const ipt::Image big = mask_image(181, 181, std::vector<int>(181 * 181, 1));
    for (ipt_dtype dt : {IPT_UINT8, IPT_LOGICAL}) compare_all(rnd.image(dt, 9, 11), &big, "nhood 181x181");
    const ipt::Image none = mask_image(3, 3, std::vector<int>(9, 0));
    compare_all(rnd.image(IPT_UINT8, 6, 7), &none, "empty nhood");
}
