// SPDX-License-Identifier: Apache-2.0
// The ABI grows without breaking compiled plugins: a plugin built against the
// oldest layout of this ABI (libipt_abi_oldest) and one built against a newer
// layout whose structs each have a field more (libipt_abi_newer) load beside
// the current plugins, and their devices, operators and implementations work.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ipt/ipt.hpp"
#include "ipt/ipt_ops.h"

namespace {

std::string plugin_file(const std::string& name) { return std::string(IPT_TEST_PLUGIN_DIR) + "/libipt_" + name + ".so"; }
std::string cpu_plugin() { return std::string(IPT_BUILD_LIB_DIR) + "/libipt_cpu.so"; }

const char* const kLayouts[] = {"abi_oldest", "abi_newer"};

// cpu, testdev (current headers) and both growth plugins in one context.
ipt::Context& context() {
    static ipt::Context ctx = [] {
        ipt::Context c(IPT_CONTEXT_NO_DISCOVERY);
        c.load_plugin(cpu_plugin());
        c.load_plugin(plugin_file("abi_oldest"));
        c.load_plugin(plugin_file("testdev"));
        c.load_plugin(plugin_file("abi_newer"));
        return c;
    }();
    return ctx;
}

uint32_t device_of_kind(const std::string& kind) {
    for (const auto& d : context().devices())
        if (kind == d.kind) return d.id;
    ADD_FAILURE() << "no device of kind " << kind;
    return IPT_DEVICE_ANY;
}

TEST(AbiGrowth, OlderAndNewerPluginsLoadBesideCurrentOnes) {
    int loaded = 0;
    for (const auto& r : context().plugin_reports()) {
        EXPECT_EQ(r.outcome, IPT_LOAD_LOADED) << r.path << ": " << r.error;
        EXPECT_EQ(r.abi_version_seen, IPT_ABI_VERSION) << r.name;
        const std::string name = r.name;
        if (name == "abi_oldest" || name == "abi_newer") {
            ++loaded;
            EXPECT_EQ(r.api_version_seen, name == "abi_oldest" ? 1u : 3u);
            EXPECT_EQ(r.device_count, 1u);
            // Per plugin: <name>.scale on the host and its device, ipt.mean2 on its device.
            EXPECT_EQ(r.impl_count, 3u) << name;
        }
    }
    EXPECT_EQ(loaded, 2);
}

// The host reads each description through the table's list of pointers, so
// the fields it knows come out right whatever the description's size.
TEST(AbiGrowth, DeviceDescriptionsAreReadAtTheirOwnSize) {
    struct Expected {
        const char* kind;
        uint64_t memory;
        uint32_t units, subgroup;
    };
    for (const Expected& e : {Expected{"abi_oldest", 1u << 20, 3, 7}, Expected{"abi_newer", 3u << 20, 5, 9}}) {
        bool found = false;
        for (const auto& d : context().devices()) {
            if (std::string(d.kind) != e.kind) continue;
            found = true;
            EXPECT_EQ(std::string(d.name), std::string(e.kind) + " device");
            EXPECT_EQ(std::string(d.plugin), e.kind);
            EXPECT_EQ(d.memory_bytes, e.memory);
            EXPECT_EQ(d.compute_units, e.units);
            EXPECT_EQ(d.subgroup_size, e.subgroup);
        }
        EXPECT_TRUE(found) << e.kind;
    }
}

// The schema a plugin introduces is read with its param_stride; applications
// read the host's copy with ipt_op_param().
TEST(AbiGrowth, IntroducedSchemasAreReadByTheirStride) {
    for (const char* layout : kLayouts) {
        const std::string name = std::string(layout) + ".scale";
        const ipt_op_schema* s = ipt_op_find(context().get(), name.c_str());
        ASSERT_NE(s, nullptr) << name;
        EXPECT_STREQ(s->summary, "A * k or A + k (ABI growth test)");
        EXPECT_STREQ(s->compare_doc, "exact");
        ASSERT_EQ(s->param_count, 4u);
        const char* names[] = {"A", "k", "mode", "B"};
        const int32_t kinds[] = {IPT_PARAM_INPUT, IPT_PARAM_FLOAT, IPT_PARAM_ENUM, IPT_PARAM_OUTPUT};
        for (uint32_t i = 0; i < 4; ++i) {
            const ipt_param_schema* p = ipt_op_param(s, i);
            EXPECT_STREQ(p->name, names[i]) << name;
            EXPECT_EQ(p->kind, kinds[i]) << name << " " << names[i];
        }
        EXPECT_STREQ(ipt_op_param(s, 1)->default_text, "2");
        EXPECT_EQ(ipt_op_param(s, 1)->min_value, -1e6);
        EXPECT_EQ(ipt_op_param(s, 1)->max_value, 1e6);
        EXPECT_STREQ(ipt_op_param(s, 2)->values, "mul|add");
        EXPECT_STREQ(ipt_op_param(s, 3)->doc, "result");
    }
}

std::vector<double> scale(const std::string& op, uint32_t device, const std::vector<double>& a, const char* mode,
                          const double* k) {
    ipt::Image img = context().upload<double>(2, 3, a);
    ipt::Call call(context(), op);
    call.image("A", img).device(device);
    if (mode) call.option("mode", mode);
    if (k) call.number("k", *k);
    call.run();
    return call.take("B").download<double>();
}

// The plugins read the host's values (and the host's copy of their schema)
// at the host's strides: wrong strides would give wrong parameters.
TEST(AbiGrowth, IntroducedOperatorRunsOnTheHostAndOnThePluginsDevice) {
    const std::vector<double> a = {1, -2, 3.5, 4, 0, 6};
    for (const char* layout : kLayouts) {
        const std::string op = std::string(layout) + ".scale";
        for (uint32_t device : {uint32_t{IPT_DEVICE_HOST}, device_of_kind(layout)}) {
            SCOPED_TRACE(op + " on device " + std::to_string(device));
            // Defaults: k = 2, mode = mul.
            EXPECT_EQ(scale(op, device, a, nullptr, nullptr), (std::vector<double>{2, -4, 7, 8, 0, 12}));
            const double k = 10;
            EXPECT_EQ(scale(op, device, a, "add", &k), (std::vector<double>{11, 8, 13.5, 14, 10, 16}));
            EXPECT_EQ(context().last_dispatch().device_id, device);
        }
    }
}

// A built-in operator: the plugin reads the host's catalogue schema.
TEST(AbiGrowth, BuiltInOperatorRunsOnThePluginsDevice) {
    for (const char* layout : kLayouts) {
        SCOPED_TRACE(layout);
        ipt::Image img = context().upload<double>(2, 2, std::vector<double>{1, 2, 3, 10});
        ipt::Call call(context(), "ipt.mean2");
        call.image("A", img).device(device_of_kind(layout)).run();
        EXPECT_EQ(call.take("m").download<double>(), std::vector<double>{4.0});
        EXPECT_STREQ(context().last_dispatch().plugin, layout);
    }
}

// Every current plugin keeps working beside them.
TEST(AbiGrowth, CurrentPluginsStillRun) {
    ipt::Image img = context().upload<double>(1, 4, std::vector<double>{1, 2, 3, 6});
    ipt::Call call(context(), "ipt.mean2");
    call.image("A", img).device(IPT_DEVICE_HOST).run();
    EXPECT_EQ(call.take("m").download<double>(), std::vector<double>{3.0});
    EXPECT_STREQ(context().last_dispatch().plugin, "cpu");
}

}  // namespace
