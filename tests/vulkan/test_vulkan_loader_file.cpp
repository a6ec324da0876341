// SPDX-License-Identifier: Apache-2.0
// IPT_VULKAN_LOADER naming a file dlopen would die on (a truncated library):
// the Vulkan plugin refuses it with a warning naming the variable and the
// file, has no device, and the process goes on with the CPU plugin.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ipt/ipt.hpp"

namespace fs = std::filesystem;

namespace {

TEST(VulkanLoaderFile, TruncatedLoaderIsRefusedWithAWarning) {
    // Any ELF file cut short will do: the check refuses it before dlopen.
    std::ifstream in("/proc/self/exe", std::ios::binary);
    std::vector<char> self((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_GT(self.size(), 3000u);
    char tmpl[] = "/tmp/ipt_vk_loader_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const fs::path dir = tmpl;
    const fs::path loader = dir / "libvulkan.so.1";
    std::ofstream(loader, std::ios::binary).write(self.data(), 3000);
    ASSERT_EQ(setenv("IPT_VULKAN_LOADER", loader.c_str(), 1), 0);

    testing::internal::CaptureStderr();
    ipt::Context ctx;
    const std::string log = testing::internal::GetCapturedStderr();
    unsetenv("IPT_VULKAN_LOADER");
    fs::remove_all(dir);

    bool found = false;
    for (const ipt_plugin_report& r : ctx.plugin_reports()) {
        if (std::string(r.name) != "vulkan") continue;
        found = true;
        EXPECT_EQ(r.outcome, IPT_LOAD_LOADED);
        EXPECT_EQ(r.device_count, 0u);
        const std::string note = r.device_note;
        EXPECT_NE(note.find("IPT_VULKAN_LOADER=" + loader.string() + " refused"), std::string::npos) << note;
        EXPECT_NE(note.find("truncated"), std::string::npos) << note;
    }
    if (!found) GTEST_SKIP() << "no Vulkan plugin was built";
    EXPECT_NE(log.find("warning: IPT_VULKAN_LOADER=" + loader.string() + " refused"), std::string::npos) << log;
    for (const ipt_device_info& d : ctx.devices()) EXPECT_STRNE(d.kind, "vulkan");

    // The process goes on: the CPU reference runs.
    ipt::Image a = ctx.upload<double>(1, 4, {2, 4, 6, 8});
    ipt::Call call(ctx, "ipt.mean2");
    call.image("A", a).run();
    double mean = 0;
    call.take("m").download(&mean);
    EXPECT_DOUBLE_EQ(mean, 5.0);  // (2 + 4 + 6 + 8) / 4
}

}  // namespace
