// SPDX-License-Identifier: Apache-2.0
// Compute pipelines built from the embedded SPIR-V, the on-disk pipeline
// cache, and the state operators attach to a device.
#include <cstring>
#include <filesystem>

#include "common/file_access.hpp"
#include "device_internal.hpp"

namespace ipt::vk {

std::string Device::cache_file_path(const std::string& stem) const {
    // Next to the registry's tuning cache (IPT_TUNING_CACHE, else
    // $XDG_CACHE_HOME/openipt/, else ~/.cache/openipt/).
    std::filesystem::path dir;
    if (const char* t = std::getenv("IPT_TUNING_CACHE"); t && *t) dir = std::filesystem::path(t).parent_path();
    else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) dir = std::filesystem::path(xdg) / "openipt";
    else if (const char* home = std::getenv("HOME"); home && *home) dir = std::filesystem::path(home) / ".cache" / "openipt";
    else return "";
    return (dir / (stem + "-" + cache_key_ + ".bin")).string();
}

namespace {

// The pipeline cache file: this header, then the driver's data. The driver
// checks its own header (vendor, device, cache UUID) but trusts the rest, so
// data cut short or damaged on disk is caught here first.
constexpr char kPipelineCacheMagic[8] = {'I', 'P', 'T', 'V', 'K', 'P', 'C', '1'};
constexpr size_t kPipelineCacheHeader = sizeof kPipelineCacheMagic + 16;  // + size + checksum
constexpr uint64_t kMaxPipelineCacheBytes = uint64_t(256) << 20;

std::string driver_data(const std::string& file) {
    uint64_t size = 0, sum = 0;
    if (file.size() < kPipelineCacheHeader || std::memcmp(file.data(), kPipelineCacheMagic, 8) != 0) return {};
    std::memcpy(&size, file.data() + 8, 8);
    std::memcpy(&sum, file.data() + 16, 8);
    if (size != file.size() - kPipelineCacheHeader) return {};
    std::string data = file.substr(kPipelineCacheHeader);
    return ipt::files::checksum(data.data(), data.size()) == sum ? data : std::string();
}

}  // namespace

void Device::load_pipeline_cache() {
    std::string data;
    if (const std::string path = pipeline_cache_path(); !path.empty())
        data = driver_data(ipt::files::read_regular(path, kMaxPipelineCacheBytes).data);
    VkPipelineCacheCreateInfo ci = vk_struct<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
    ci.initialDataSize = data.size();
    ci.pInitialData = data.empty() ? nullptr : data.data();
    // Drivers check the header and ignore data of another device or driver;
    // a file they reject is replaced on the next save.
    VkResult r = vkCreatePipelineCache(device_, &ci, nullptr, &pipeline_cache_);
    if (r != VK_SUCCESS && !data.empty()) {
        ci.initialDataSize = 0;
        ci.pInitialData = nullptr;
        r = vkCreatePipelineCache(device_, &ci, nullptr, &pipeline_cache_);
    }
    if (r != VK_SUCCESS) fail(r, "vkCreatePipelineCache");
}

void Device::save_pipeline_cache() {
    if (!pipeline_cache_ || pipelines_.size() == pipelines_at_load_) return;
    const std::string path = pipeline_cache_path();
    if (path.empty()) return;
    size_t size = 0;
    if (vkGetPipelineCacheData(device_, pipeline_cache_, &size, nullptr) != VK_SUCCESS || size == 0) return;
    std::vector<char> data(size);
    if (vkGetPipelineCacheData(device_, pipeline_cache_, &size, data.data()) != VK_SUCCESS) return;
    if (size > kMaxPipelineCacheBytes) return;
    std::string file(kPipelineCacheMagic, sizeof kPipelineCacheMagic);
    const uint64_t sum = ipt::files::checksum(data.data(), size);
    file.append(reinterpret_cast<const char*>(&size), 8);
    file.append(reinterpret_cast<const char*>(&sum), 8);
    file.append(data.data(), size);
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    // A cache that cannot be written only makes the next process slower.
    std::string why;
    if (ipt::files::replace(path, file, &why)) pipelines_at_load_ = pipelines_.size();
}

VkPipeline Device::pipeline(const std::string& shader, const std::vector<uint32_t>& constants,
                            uint32_t required_subgroup) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    if (!can_require_subgroup_size(required_subgroup)) required_subgroup = 0;
    std::vector<uint32_t> key_constants = constants;
    key_constants.push_back(required_subgroup);
    auto key = std::make_pair(shader, key_constants);
    if (auto it = pipelines_.find(key); it != pipelines_.end()) return it->second;

    VkShaderModule module = VK_NULL_HANDLE;
    if (auto it = modules_.find(shader); it != modules_.end()) {
        module = it->second;
    } else {
        const ShaderCode* code = find_shader(shader);
        if (!code)
            throw ipt::plugin::Error(IPT_ERR_INTERNAL, "vulkan: no embedded shader '" + shader + "'");
        VkShaderModuleCreateInfo mci = vk_struct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
        mci.codeSize = code->word_count * 4;
        mci.pCode = code->words;
        VkResult r = vkCreateShaderModule(device_, &mci, nullptr, &module);
        if (r != VK_SUCCESS) fail(r, "vkCreateShaderModule");
        modules_[shader] = module;
    }

    std::vector<VkSpecializationMapEntry> entries(constants.size());
    for (size_t i = 0; i < constants.size(); ++i)
        entries[i] = {static_cast<uint32_t>(i), static_cast<uint32_t>(i * 4), 4};
    VkSpecializationInfo spec{};
    spec.mapEntryCount = static_cast<uint32_t>(entries.size());
    spec.pMapEntries = entries.data();
    spec.dataSize = constants.size() * 4;
    spec.pData = constants.data();

    VkPipelineShaderStageRequiredSubgroupSizeCreateInfoEXT sgs = vk_struct<VkPipelineShaderStageRequiredSubgroupSizeCreateInfoEXT>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO_EXT);
    sgs.requiredSubgroupSize = required_subgroup;
    VkComputePipelineCreateInfo ci = vk_struct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.pNext = required_subgroup ? &sgs : nullptr;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = module;
    ci.stage.pName = "main";
    ci.stage.pSpecializationInfo = constants.empty() ? nullptr : &spec;
    ci.layout = layout_;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkResult r = vkCreateComputePipelines(device_, pipeline_cache_, 1, &ci, nullptr, &pipeline);
    if (r != VK_SUCCESS) {
        std::string what = "vkCreateComputePipelines(" + shader + ")";
        fail(r, what.c_str());
    }
    pipelines_[key] = pipeline;
    pipeline_shaders_[pipeline] = shader;
    return pipeline;
}

DeviceAttachment* Device::attachment(const std::string& key) {
    auto it = attachments_.find(key);
    return it == attachments_.end() ? nullptr : it->second.get();
}

DeviceAttachment& Device::attach(const std::string& key, std::unique_ptr<DeviceAttachment> value) {
    auto& slot = attachments_[key];
    slot = std::move(value);
    return *slot;
}

}  // namespace ipt::vk
