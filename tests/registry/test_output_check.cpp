// SPDX-License-Identifier: Apache-2.0
// The registry checks every output a plugin asks for against the operator's
// plan (built-in operators: the front-end's sizes and classes) or, for an
// operator a plugin introduces, against the schema's rules on outputs. A
// mismatch is IPT_ERR_PLUGIN naming the plugin, the operator, the output,
// what was expected and what came.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "ipt/ipt.hpp"

namespace {

// The measured selection here measures every candidate on a miss
// (IPT_SELECT=measure), the faulty ones included.
class MeasureOnMiss : public ::testing::Environment {
public:
    void SetUp() override { ::setenv("IPT_SELECT", "measure", 1); }
};
const auto* const measure_on_miss = ::testing::AddGlobalTestEnvironment(new MeasureOnMiss);

std::string plugin_file(const std::string& name) { return std::string(IPT_TEST_PLUGIN_DIR) + "/libipt_" + name + ".so"; }
std::string cpu_plugin() { return std::string(IPT_BUILD_LIB_DIR) + "/libipt_cpu.so"; }

class OutputCheck : public ::testing::Test {
protected:
    void SetUp() override {
        ctx.load_plugin(cpu_plugin());
        ctx.load_plugin(plugin_file("fault_wrong_output"));
        ctx.set_selection(IPT_SELECT_STATIC);
    }
    // Runs the call and returns the error it must end with.
    static ipt::Error failure(ipt::Call& call) {
        try {
            call.run();
        } catch (const ipt::Error& e) {
            return e;
        }
        ADD_FAILURE() << "the call succeeded";
        return ipt::Error(IPT_OK, "");
    }
    ipt::Context ctx{IPT_CONTEXT_NO_DISCOVERY};
    std::vector<uint8_t> pixels = {1, 2, 3, 4};
};

// mean2's m is 1x1 (MATLAB: mean2 returns a scalar); a 2x2 m is refused.
TEST_F(OutputCheck, WrongSizeOfABuiltInOutputIsAPluginError) {
    ipt::Image a = ctx.upload<uint8_t>(2, 2, pixels);
    ipt::Call call(ctx, "ipt.mean2");
    call.image("A", a).variant("wrong_size");
    const ipt::Error e = failure(call);
    EXPECT_EQ(e.status(), IPT_ERR_PLUGIN);
    EXPECT_NE(std::string(e.what()).find("plugin 'fault' asked for output 'm' of ipt.mean2 as 2x2x1 double, "
                                         "but the operator's plan says 1x1x1 double"),
              std::string::npos)
        << e.what();
}

// mean2 of a uint8 image is double (single only for single A). The plugin
// returns IPT_OK after its output was refused: the call still fails.
TEST_F(OutputCheck, WrongClassOfABuiltInOutputIsAPluginError) {
    ipt::Image a = ctx.upload<uint8_t>(2, 2, pixels);
    ipt::Call call(ctx, "ipt.mean2");
    call.image("A", a).variant("wrong_class");
    const ipt::Error e = failure(call);
    EXPECT_EQ(e.status(), IPT_ERR_PLUGIN);
    EXPECT_NE(std::string(e.what()).find("as 1x1x1 single, but the operator's plan says 1x1x1 double"),
              std::string::npos)
        << e.what();
}

// fault.same's B carries IPT_P_SAME_SIZE and IPT_P_SAME_DTYPE with ref A.
TEST_F(OutputCheck, OutputAgainstTheSchemaOfAnIntroducedOperator) {
    ipt::Image a = ctx.upload<uint8_t>(2, 2, pixels);
    ipt::Call call(ctx, "fault.same");
    call.image("A", a);
    const ipt::Error e = failure(call);
    EXPECT_EQ(e.status(), IPT_ERR_PLUGIN);
    EXPECT_NE(std::string(e.what()).find("plugin 'fault' asked for output 'B' of fault.same as 3x3x1 uint8, "
                                         "but the schema says the size of 'A' (2x2x1)"),
              std::string::npos)
        << e.what();
}

// The well-behaved implementation beside them still runs, with its output
// as the plan says: mean2([1 2; 3 4]) = 2.5.
TEST_F(OutputCheck, CorrectOutputsPass) {
    ipt::Image a = ctx.upload<uint8_t>(2, 2, pixels);
    ipt::Call call(ctx, "ipt.mean2");
    call.image("A", a).plugin("cpu").run();
    ipt::Image m = call.take("m");
    EXPECT_EQ(m.rows(), 1);
    EXPECT_EQ(m.cols(), 1);
    EXPECT_EQ(m.dtype(), IPT_DOUBLE);
    EXPECT_EQ(m.download<double>().at(0), 2.5);
}

// Measured selection tries the faulty candidates too; they fail, with the
// reason as their note, and the call runs on the one that works.
TEST_F(OutputCheck, MeasuredSelectionSkipsAFaultyCandidate) {
    ctx.set_selection(IPT_SELECT_AUTO);
    ipt::Image a = ctx.upload<uint8_t>(2, 2, pixels);
    ipt::Call call(ctx, "ipt.mean2");
    call.image("A", a).run();
    EXPECT_EQ(call.take("m").download<double>().at(0), 2.5);
    EXPECT_STREQ(ctx.last_dispatch().plugin, "cpu");
    bool noted = false;
    for (const ipt_candidate_info& c : ctx.last_candidates())
        if (std::string(c.plugin) == "fault" && std::string(c.note).find("the operator's plan says") != std::string::npos)
            noted = true;
    EXPECT_TRUE(noted) << "a faulty candidate's note names the mismatch";
}

}  // namespace
