// SPDX-License-Identifier: Apache-2.0
// Dispatch: the device where the inputs live, pinning and its fallback
// policy, declined calls falling through to the next candidate, moves between
// devices, and the dispatch record.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ipt/ipt.hpp"

namespace {

std::string testdev_plugin() { return std::string(IPT_TEST_PLUGIN_DIR) + "/libipt_testdev.so"; }

class Dispatch : public ::testing::Test {
protected:
    void SetUp() override {
        // These tests are about the static rules; the measured selection has its own.
        ctx.set_selection(IPT_SELECT_STATIC);
        ctx.load_plugin(testdev_plugin());
        for (const auto& d : ctx.devices())
            if (std::string(d.kind) == "testdev") testdev = d.id;
        ASSERT_NE(testdev, IPT_DEVICE_ANY);
    }
    double mean_of(ipt::Image& out) { return out.download<double>().at(0); }

    ipt::Context ctx;  // discovers the CPU plugin next to libipt
    uint32_t testdev = IPT_DEVICE_ANY;
};

TEST_F(Dispatch, DeviceOfTheInputsWins) {
    std::vector<uint8_t> a = {1, 2, 3, 4, 5, 6};
    ipt::Image on_dev = ctx.upload<uint8_t>(2, 3, a, 1, testdev);
    ipt::Call call(ctx, "ipt.mean2");
    call.image("A", on_dev).variant("").run();
    ipt::Image m = call.take("m");
    EXPECT_DOUBLE_EQ(mean_of(m), 3.5);
    auto d = ctx.last_dispatch();
    EXPECT_EQ(d.device_id, testdev);
    EXPECT_STREQ(d.plugin, "testdev");
    EXPECT_NE(std::string(d.reason).find("inputs live on"), std::string::npos) << d.reason;
    EXPECT_EQ(m.info().device_id, testdev) << "outputs stay on the device that computed them";
}

TEST_F(Dispatch, HostInputsMoveToAPinnedDevice) {
    std::vector<uint8_t> a = {0, 10, 20, 30};
    ipt::Image on_host = ctx.upload<uint8_t>(2, 2, a);
    ipt::Call call(ctx, "ipt.mean2");
    call.image("A", on_host).device(testdev).variant("").run();
    ipt::Image m = call.take("m");
    EXPECT_DOUBLE_EQ(mean_of(m), 15.0);
    auto d = ctx.last_dispatch();
    EXPECT_EQ(d.device_id, testdev);
    EXPECT_NE(std::string(d.reason).find("pinned"), std::string::npos) << d.reason;
    // The caller's image did not move.
    EXPECT_EQ(on_host.info().device_id, IPT_DEVICE_HOST);
}

TEST_F(Dispatch, DeclinedCallFallsThroughToTheNextCandidate) {
    // testdev has the highest priority for mean2 but declines double inputs.
    std::vector<double> a = {1, 2, 3, 4};
    ipt::Image on_dev = ctx.upload<double>(2, 2, a, 1, testdev);
    ipt::Call call(ctx, "ipt.mean2");
    call.image("A", on_dev).variant("").run();
    ipt::Image m = call.take("m");
    EXPECT_DOUBLE_EQ(mean_of(m), 2.5);
    auto d = ctx.last_dispatch();
    EXPECT_EQ(d.device_id, IPT_DEVICE_HOST);
    EXPECT_STREQ(d.plugin, "cpu");
    EXPECT_EQ(d.declined, 1u);
    EXPECT_NE(std::string(d.reason).find("declined"), std::string::npos) << d.reason;
    EXPECT_NE(std::string(d.reason).find("handles uint8 and logical only"), std::string::npos) << d.reason;
}

TEST_F(Dispatch, PinnedWithoutImplementationIsAnErrorUnlessFallbackAllows) {
    std::vector<double> a = {1, 2, 3, 4};
    ipt::Image img = ctx.upload<double>(2, 2, a);
    ipt::Call call(ctx, "ipt.conv2");
    call.image("A", img).image("B", img).device(testdev);
    EXPECT_EQ(ipt_call_run(call.get()), IPT_ERR_UNSUPPORTED);
    EXPECT_NE(std::string(ipt_last_error()).find("pinned device"), std::string::npos) << ipt_last_error();

    ASSERT_EQ(ipt_set_fallback(ctx.get(), IPT_FALLBACK_ALLOW), IPT_OK);
    call.run();
    auto d = ctx.last_dispatch();
    EXPECT_EQ(d.device_id, IPT_DEVICE_HOST);
    EXPECT_NE(std::string(d.reason).find("fallback"), std::string::npos) << d.reason;
}

TEST_F(Dispatch, ContextPinAppliesToEveryCall) {
    ctx.set_device(testdev);
    std::vector<uint8_t> a = {4, 4, 4, 4};
    ipt::Image img = ctx.upload<uint8_t>(2, 2, a);
    ipt::Call call(ctx, "ipt.mean2");
    call.image("A", img).run();
    EXPECT_EQ(ctx.last_dispatch().device_id, testdev);
    ctx.set_device(IPT_DEVICE_ANY);
    call.device(IPT_DEVICE_HOST).run();
    EXPECT_EQ(ctx.last_dispatch().device_id, IPT_DEVICE_HOST);
}

TEST_F(Dispatch, CopyBetweenDevicesRoundTrips) {
    std::vector<int16_t> a = {-3, 7, 32767, -32768, 0, 1};
    ipt::Image host = ctx.upload<int16_t>(3, 2, a);
    ipt::Image dev = ctx.copy_to(host, testdev);
    EXPECT_EQ(dev.info().device_id, testdev);
    ipt::Image back = ctx.copy_to(dev, IPT_DEVICE_HOST);
    EXPECT_EQ(back.download<int16_t>(), a);
    EXPECT_EQ(dev.download<int16_t>(), a);
}

TEST_F(Dispatch, VariantAndPluginSelection) {
    std::vector<uint8_t> a = {2, 4};
    ipt::Image img = ctx.upload<uint8_t>(1, 2, a);
    ipt::Call call(ctx, "ipt.mean2");
    call.image("A", img).plugin("cpu").run();
    EXPECT_STREQ(ctx.last_dispatch().plugin, "cpu");
    call.plugin("nosuchplugin");
    EXPECT_EQ(ipt_call_run(call.get()), IPT_ERR_UNSUPPORTED);
    EXPECT_NE(std::string(ipt_last_error()).find("nosuchplugin"), std::string::npos);
    call.plugin("").variant("nosuchvariant");
    EXPECT_EQ(ipt_call_run(call.get()), IPT_ERR_UNSUPPORTED);
    EXPECT_NE(std::string(ipt_last_error()).find("nosuchvariant"), std::string::npos);
}

TEST_F(Dispatch, DevicesTableHasHostAndPluginDevices) {
    auto devs = ctx.devices();
    ASSERT_GE(devs.size(), 2u);
    EXPECT_EQ(devs[0].id, IPT_DEVICE_HOST);
    EXPECT_STREQ(devs[0].kind, "cpu");
    EXPECT_STREQ(devs[0].plugin, "openipt");
    EXPECT_GT(devs[0].memory_bytes, 0u);
    const auto& t = devs[testdev];
    EXPECT_STREQ(t.name, "test device");
    EXPECT_STREQ(t.plugin, "testdev");
    EXPECT_EQ(t.memory_bytes, 1u << 20);
    for (size_t i = 0; i < devs.size(); ++i) EXPECT_EQ(devs[i].id, i) << "ids are table positions";
}

}  // namespace
