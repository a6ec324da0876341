// SPDX-License-Identifier: Apache-2.0
// ipt.padarray and ipt.imcrop on Vulkan against the CPU reference, every
// variant: every class, every method and direction, pads larger than the
// image, empty images, RGB, output sizes whose bytes are not a multiple of
// four (the shader's last, partial word), and rects that clip or miss.
// Validation layers are on (vulkan_compare.hpp).
#include <string>
#include <vector>

#include "vulkan_compare.hpp"

namespace {

using namespace vk_test;

const ipt_dtype kClasses[] = {IPT_LOGICAL, IPT_UINT8,  IPT_UINT16, IPT_INT16,
                              IPT_INT32,   IPT_UINT32, IPT_SINGLE, IPT_DOUBLE};

void compare(const char* op, const Setup& setup, const char* output, const std::string& label) {
    auto ref = run_on(IPT_DEVICE_HOST, "", op, setup, {output});
    const std::vector<std::string> vs = variants(op);
    ASSERT_FALSE(vs.empty()) << op << " is not registered on the Vulkan device";
    for (const std::string& v : vs) {
        auto got = run_on(vulkan_device().id, v, op, setup, {output});
        expect_match(ref[output], got[output], std::string(op) + " " + label + " variant " + v);
    }
}

TEST(VulkanPadarray, EveryClassMethodDirection) {
    REQUIRE_VULKAN();
    Random rnd(15);
    const struct { int64_t rows, cols, channels; std::vector<double> padsize; } cases[] = {
        {1, 1, 1, {2, 3}}, {1, 9, 1, {1}}, {9, 1, 1, {0, 5}}, {13, 17, 1, {3, 2}}, {3, 4, 1, {9, 11}},
        {11, 7, 3, {2, 1}}, {0, 5, 1, {2, 1}}, {5, 3, 1, {1, 0}}};
    for (ipt_dtype dt : kClasses)
        for (const auto& c : cases) {
            ipt::Image a = rnd.image(dt, c.rows, c.cols, c.channels);
            for (const char* method : {"constant", "circular", "replicate", "symmetric"})
                for (const char* direction : {"both", "pre", "post"}) {
                    const double padval = dt == IPT_LOGICAL ? 1 : -2.5;
                    compare("ipt.padarray",
                            [&](ipt::Call& call) {
                                call.image("A", a).numbers("padsize", c.padsize).text("method", method);
                                call.number("padval", padval).text("direction", direction);
                            },
                            "B",
                            std::to_string(c.rows) + "x" + std::to_string(c.cols) + "x" + std::to_string(c.channels) +
                                " " + ipt_dtype_name(dt) + " " + method + " " + direction);
                }
        }
}

TEST(VulkanImcrop, EveryClassAndRect) {
    REQUIRE_VULKAN();
    Random rnd(16);
    const std::vector<std::vector<double>> rects = {{2.5, 3.5, 4.5, 5.5}, {-3, -2, 30, 40}, {5, 5, 0, 0},
                                                    {1.49, 1, 0.02, 3},   {40, 1, 1, 1},    {2, 2, 2, 9}};
    for (ipt_dtype dt : kClasses)
        for (int64_t channels : {1, 3})
            for (const auto& rect : rects) {
                ipt::Image i = rnd.image(dt, 13, 17, channels);
                compare("ipt.imcrop", [&](ipt::Call& call) { call.image("I", i).numbers("rect", rect); }, "J",
                        std::string(ipt_dtype_name(dt)) + " x" + std::to_string(channels) + " rect " +
                            std::to_string(rect[0]) + " " + std::to_string(rect[1]) + " " + std::to_string(rect[2]) +
                            " " + std::to_string(rect[3]));
            }
}

}  // namespace
