// SPDX-License-Identifier: Apache-2.0
// Every ABI fault gives a load-report entry with its reason, while the
// process and the other plugins keep working.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <string>
#include <vector>

#include "ipt/ipt.hpp"
#include "ipt/ipt_plugin.h"

namespace {

std::string plugin_file(const std::string& name) { return std::string(IPT_TEST_PLUGIN_DIR) + "/libipt_" + name + ".so"; }
std::string cpu_plugin() { return std::string(IPT_BUILD_LIB_DIR) + "/libipt_cpu.so"; }

ipt_plugin_report last_report(const ipt::Context& ctx) {
    auto reports = ctx.plugin_reports();
    EXPECT_FALSE(reports.empty());
    return reports.back();
}

// Loads `name` into a fresh context, expects a failed entry whose error
// mentions `needle`, then checks the CPU plugin still loads and runs.
void expect_fault(const std::string& name, ipt_status status, const std::string& needle) {
    ipt::Context ctx(IPT_CONTEXT_NO_DISCOVERY);
    ipt_status s = ipt_load_plugin(ctx.get(), plugin_file(name).c_str());
    EXPECT_EQ(s, status) << ipt_last_error();
    std::string message = ipt_last_error();
    EXPECT_NE(message.find(needle), std::string::npos) << "message: " << message;
    ipt_plugin_report r = last_report(ctx);
    EXPECT_EQ(r.outcome, IPT_LOAD_FAILED);
    EXPECT_EQ(std::string(r.path), plugin_file(name));
    EXPECT_NE(std::string(r.error).find(needle), std::string::npos) << "report: " << r.error;
    EXPECT_EQ(ipt_impl_count(ctx.get(), nullptr), 0u) << "nothing of a failed plugin may be registered";

    // The context and the other plugins keep working.
    ctx.load_plugin(cpu_plugin());
    EXPECT_EQ(last_report(ctx).outcome, IPT_LOAD_LOADED);
    EXPECT_GT(ipt_impl_count(ctx.get(), nullptr), 0u);
}

TEST(AbiFaults, WrongAbiVersion) {
    expect_fault("fault_wrong_abi", IPT_ERR_ABI, "ABI version " + std::to_string(IPT_ABI_VERSION + 98));
}

TEST(AbiFaults, MissingEntrySymbol) { expect_fault("fault_no_entry", IPT_ERR_PLUGIN, "no exported symbol 'ipt_plugin_entry'"); }

TEST(AbiFaults, EntryReturnsNullWithReason) {
    expect_fault("fault_null_entry", IPT_ERR_PLUGIN, "refuses to load on purpose");
}

TEST(AbiFaults, EntryThrowsCxxException) {
    expect_fault("fault_throws", IPT_ERR_PLUGIN, "initialisation failed on purpose");
}

TEST(AbiFaults, OperatorRegisteredTwice) { expect_fault("fault_dup_op", IPT_ERR_PLUGIN, "'ipt.mean2' (variant '', device kind 'cpu') twice"); }

TEST(AbiFaults, TableTooShortForItsVersion) { expect_fault("fault_short_table", IPT_ERR_ABI, "plugin table is"); }

// Descriptions and strides below the API version 1 sizes are refused, each
// with the size seen and the size needed.
TEST(AbiFaults, ImplementationDescriptionTooShort) {
    expect_fault("fault_short_impl", IPT_ERR_ABI,
                 "implementation 0 has struct_size " + std::to_string(offsetof(ipt_impl_desc, run)) +
                     ", API version 1 needs at least " + std::to_string(IPT_IMPL_DESC_MIN_SIZE));
}

TEST(AbiFaults, DeviceDescriptionTooShort) {
    expect_fault("fault_short_device", IPT_ERR_ABI,
                 "device 0 description has struct_size " + std::to_string(offsetof(ipt_device_desc, memory_bytes)) +
                     ", API version 1 needs at least " + std::to_string(IPT_DEVICE_DESC_MIN_SIZE));
}

TEST(AbiFaults, ParameterStrideTooSmall) {
    expect_fault("fault_short_param_stride", IPT_ERR_ABI,
                 "schema 0 ('fault.stride') has param_stride " + std::to_string(IPT_PARAM_SCHEMA_MIN_SIZE - 8));
}

TEST(AbiFaults, SchemaTooShort) {
    expect_fault("fault_short_schema", IPT_ERR_ABI,
                 "schema 0 has struct_size " + std::to_string(offsetof(ipt_op_schema, compare)) +
                     ", API version 1 needs at least " + std::to_string(IPT_OP_SCHEMA_MIN_SIZE));
}

// A schema is validated whole at load, so that no call can trip on it.
TEST(AbiFaults, SchemaRuleReferringToAnIntegerIsRefused) {
    expect_fault("fault_order_of_int", IPT_ERR_PLUGIN, "parameter 'order' refers to 'n', which is not an input image");
}
TEST(AbiFaults, SchemaLutReferringToANumberIsRefused) {
    expect_fault("fault_lut_of_float", IPT_ERR_PLUGIN, "parameter 'LUT' refers to 'scale', which is not an input image");
}
TEST(AbiFaults, SchemaWithAHugeParameterCountIsRefused) {
    expect_fault("fault_huge_param_count", IPT_ERR_PLUGIN, "more than the 64 an operator may have");
}

// A plugin that returns a status this library does not define: the caller
// gets IPT_ERR_PLUGIN with the value named, never the raw number.
TEST(AbiFaults, UnknownStatusFromAnImplementationIsAPluginError) {
    ipt::Context ctx(IPT_CONTEXT_NO_DISCOVERY);
    ctx.load_plugin(cpu_plugin());
    ctx.load_plugin(plugin_file("fault_unknown_status"));
    std::vector<uint8_t> a = {1, 2, 3, 4};
    ipt::Image img = ctx.upload<uint8_t>(2, 2, a);
    ipt::Call call(ctx, "ipt.mean2");
    call.image("A", img).variant("unknown_status");
    try {
        call.run();
        ADD_FAILURE() << "the call succeeded";
    } catch (const ipt::Error& e) {
        EXPECT_EQ(e.status(), IPT_ERR_PLUGIN);
        EXPECT_NE(std::string(e.what()).find("unknown status 1234"), std::string::npos) << e.what();
    }
}

TEST(AbiFaults, FileIsNotASharedLibrary) { expect_fault("fault_notalib", IPT_ERR_PLUGIN, "cannot load shared library"); }

TEST(AbiFaults, MissingFile) { expect_fault("fault_does_not_exist", IPT_ERR_PLUGIN, "cannot load shared library"); }

TEST(AbiFaults, VersionsSeenAreReported) {
    ipt::Context ctx(IPT_CONTEXT_NO_DISCOVERY);
    (void)ipt_load_plugin(ctx.get(), plugin_file("fault_wrong_abi").c_str());
    ipt_plugin_report r = last_report(ctx);
    EXPECT_EQ(r.abi_version_seen, IPT_ABI_VERSION + 98);
    EXPECT_EQ(r.api_version_seen, IPT_API_VERSION);
}

TEST(Discovery, BrokenPluginOnPluginPathIsReportedAndOthersLoad) {
    ASSERT_EQ(setenv("IPT_PLUGIN_PATH", plugin_file("fault_null_entry").c_str(), 1), 0);
    ipt::Context ctx;
    unsetenv("IPT_PLUGIN_PATH");
    bool saw_failed = false, saw_cpu = false;
    for (const auto& r : ctx.plugin_reports()) {
        if (std::string(r.path) == plugin_file("fault_null_entry")) {
            saw_failed = true;
            EXPECT_EQ(r.outcome, IPT_LOAD_FAILED);
            EXPECT_STREQ(r.source, "IPT_PLUGIN_PATH");
            EXPECT_NE(std::string(r.error).find("refuses to load on purpose"), std::string::npos);
        }
        if (r.outcome == IPT_LOAD_LOADED && std::string(r.name) == "cpu") {
            saw_cpu = true;
            EXPECT_STREQ(r.source, "default");
        }
    }
    EXPECT_TRUE(saw_failed);
    EXPECT_TRUE(saw_cpu);
}

TEST(Discovery, SamePluginFoundTwiceLoadsOnce) {
    ASSERT_EQ(setenv("IPT_PLUGIN_PATH", IPT_BUILD_LIB_DIR, 1), 0);
    ipt::Context ctx;
    unsetenv("IPT_PLUGIN_PATH");
    int loaded = 0, duplicate = 0;
    for (const auto& r : ctx.plugin_reports()) {
        if (std::string(r.path).find("libipt_cpu.so") == std::string::npos) continue;
        loaded += r.outcome == IPT_LOAD_LOADED;
        duplicate += r.outcome == IPT_LOAD_DUPLICATE;
    }
    EXPECT_EQ(loaded, 1);
    EXPECT_EQ(duplicate, 1);
    // And explicitly once more.
    EXPECT_EQ(ipt_load_plugin(ctx.get(), cpu_plugin().c_str()), IPT_OK);
    EXPECT_EQ(ctx.plugin_reports().back().outcome, IPT_LOAD_DUPLICATE);
}

TEST(Discovery, NoDiscoveryFlagLoadsNothing) {
    ipt::Context ctx(IPT_CONTEXT_NO_DISCOVERY);
    EXPECT_EQ(ipt_plugin_report_count(ctx.get()), 0u);
    EXPECT_EQ(ipt_device_count(ctx.get()), 1u) << "the host is always a device";
}

TEST(Plugins, ExceptionFromAnImplementationBecomesAStatus) {
    ipt::Context ctx(IPT_CONTEXT_NO_DISCOVERY);
    ctx.load_plugin(plugin_file("testdev"));
    std::vector<double> a = {1, 2, 3, 4};
    ipt::Image img = ctx.upload<double>(2, 2, a);
    ipt_call* call = nullptr;
    ASSERT_EQ(ipt_call_create(ctx.get(), "ipt.imlincomb", &call), IPT_OK);
    double k = 2;
    ASSERT_EQ(ipt_call_set_floats(call, "K", &k, 1), IPT_OK);
    ASSERT_EQ(ipt_call_set_image(call, "A1", img.get()), IPT_OK);
    ASSERT_EQ(ipt_call_set_variant(call, "throws"), IPT_OK);
    EXPECT_EQ(ipt_call_run(call), IPT_ERR_PLUGIN);
    EXPECT_NE(std::string(ipt_last_error()).find("thrown on purpose"), std::string::npos) << ipt_last_error();
    ipt_image* out = nullptr;
    EXPECT_EQ(ipt_call_take_output(call, "Z", &out), IPT_ERR_NOT_FOUND);
    EXPECT_EQ(out, nullptr);
    ipt_call_free(call);
}

}  // namespace
