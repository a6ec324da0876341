#include "device.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ipt::vk {

namespace {

constexpr VkDeviceSize kDeviceBlockBytes = 64ull << 20;
constexpr VkDeviceSize kHostBlockBytes = 16ull << 20;
// Emptied blocks are kept for later calls (a fresh vkAllocateMemory of a
// block costs far more than a call's work), up to 1/16 of their heap; the
// host-visible kinds (pinned host memory) at most 256 MiB.
constexpr VkDeviceSize kKeepEmptyHostBytes = 256ull << 20;
// Timestamp queries per pool (pairs: one dispatch takes two).
constexpr uint32_t kQueriesPerPool = 64;
// Long enough for any honest kernel on lavapipe; a hang becomes an error.
constexpr uint64_t kWaitTimeoutNs = 600ull * 1000 * 1000 * 1000;

void log(int level, const std::string& message) {
    const ipt_host_table* h = ipt::plugin::host();
    if (h && h->log) h->log(level, "vulkan", message.c_str());
}

bool env_is(const char* name, const char* value) {
    const char* v = std::getenv(name);
    return v && std::strcmp(v, value) == 0;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

const char* kind_name(MemoryKind kind) {
    switch (kind) {
    case MemoryKind::DeviceLocal: return "device-local";
    case MemoryKind::Upload: return "upload";
    case MemoryKind::Readback: return "readback";
    }
    return "?";
}

const char* vendor_name(uint32_t id) {
    switch (id) {
    case 0x1002: return "AMD";
    case 0x10DE: return "NVIDIA";
    case 0x8086: return "Intel";
    case 0x13B5: return "ARM";
    case 0x5143: return "Qualcomm";
    case 0x106B: return "Apple";
    case 0x1010: return "Imagination";
    case 0x10005: return "Mesa";
    default: return nullptr;
    }
}

const char* type_name(VkPhysicalDeviceType t) {
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
    }
}

bool has_extension(VkPhysicalDevice physical, const char* name) {
    uint32_t n = 0;
    if (vkEnumerateDeviceExtensionProperties(physical, nullptr, &n, nullptr) != VK_SUCCESS) return false;
    std::vector<VkExtensionProperties> ext(n);
    if (vkEnumerateDeviceExtensionProperties(physical, nullptr, &n, ext.data()) != VK_SUCCESS) return false;
    for (const auto& e : ext)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

// Feature chain of the features the plugin needs or uses.
struct Features {
    VkPhysicalDeviceSubgroupSizeControlFeaturesEXT sgc = vk_struct<VkPhysicalDeviceSubgroupSizeControlFeaturesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES_EXT);
    VkPhysicalDeviceVulkan12Features v12 = vk_struct<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
    VkPhysicalDeviceVulkan11Features v11 = vk_struct<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
    VkPhysicalDeviceFeatures2 core = vk_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    explicit Features(bool with_sgc) {
        core.pNext = &v11;
        v11.pNext = &v12;
        v12.pNext = with_sgc ? &sgc : nullptr;
    }
};

bool subgroup_control_offered(VkPhysicalDevice physical) {
    VkPhysicalDeviceProperties p{};
    vkGetPhysicalDeviceProperties(physical, &p);
    return p.apiVersion >= VK_API_VERSION_1_3 ||
           has_extension(physical, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
}

std::string hex(const uint8_t* bytes, size_t n) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < n; ++i) {
        s += digits[bytes[i] >> 4];
        s += digits[bytes[i] & 15];
    }
    return s;
}

}  // namespace

struct Block {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    uint32_t type = 0;
    MemoryKind kind = MemoryKind::DeviceLocal;
    uint8_t* mapped = nullptr;
    std::map<VkDeviceSize, VkDeviceSize> free_ranges;  // offset -> bytes
    VkDeviceSize used = 0;
};

// ---------------------------------------------------------------------------
// Device set-up
// ---------------------------------------------------------------------------

std::string Device::unsuitable(VkPhysicalDevice physical) {
    VkPhysicalDeviceProperties p{};
    vkGetPhysicalDeviceProperties(physical, &p);
    if (p.apiVersion < VK_API_VERSION_1_2) return "needs Vulkan 1.2";
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &n, nullptr);
    std::vector<VkQueueFamilyProperties> q(n);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &n, q.data());
    bool compute = false;
    for (const auto& f : q) compute |= (f.queueFlags & VK_QUEUE_COMPUTE_BIT) != 0;
    if (!compute) return "no compute queue";
    Features f(false);
    vkGetPhysicalDeviceFeatures2(physical, &f.core);
    std::string missing;
    auto need = [&](VkBool32 have, const char* name) {
        if (!have) missing += std::string(missing.empty() ? "" : ", ") + name;
    };
    need(f.core.features.shaderFloat64, "shaderFloat64");
    need(f.core.features.shaderInt64, "shaderInt64");
    need(f.core.features.shaderInt16, "shaderInt16");
    need(f.v11.storageBuffer16BitAccess, "storageBuffer16BitAccess");
    need(f.v12.storageBuffer8BitAccess, "storageBuffer8BitAccess");
    need(f.v12.shaderInt8, "shaderInt8");
    need(f.v12.bufferDeviceAddress, "bufferDeviceAddress");
    need(f.v12.timelineSemaphore, "timelineSemaphore");
    if (!missing.empty()) return "lacks " + missing;
    return "";
}

CallInProgress& call_in_progress() {
    thread_local CallInProgress call;
    return call;
}

Device::Device(VkInstance instance, VkPhysicalDevice physical, uint32_t index)
    : instance_(instance), physical_(physical), index_(index) {
    timing_ = env_is("IPT_VULKAN_TIMING", "1");
    create_device();
    describe();
    load_pipeline_cache();
}

void Device::create_device() {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    vkGetPhysicalDeviceQueueFamilyProperties(physical_, &n, families.data());
    // A compute-only family (AMD's and NVIDIA's async compute queues) if there
    // is one, else the first family that computes.
    int chosen = -1;
    for (uint32_t i = 0; i < n; ++i) {
        const auto flags = families[i].queueFlags;
        if (!(flags & VK_QUEUE_COMPUTE_BIT)) continue;
        if (chosen < 0 || !(flags & VK_QUEUE_GRAPHICS_BIT)) {
            if (chosen < 0 || (families[chosen].queueFlags & VK_QUEUE_GRAPHICS_BIT)) chosen = int(i);
        }
    }
    queue_family_ = static_cast<uint32_t>(chosen);
    if (timing_) {
        // The chosen family's timestampValidBits decides (0: no timestamps);
        // timestampComputeAndGraphics, which would promise them on every
        // compute queue, is named in the warning.
        VkPhysicalDeviceProperties props{};
        vkGetPhysicalDeviceProperties(physical_, &props);
        const uint32_t bits = families[queue_family_].timestampValidBits;
        if (bits == 0) {
            log(2, std::string("IPT_VULKAN_TIMING=1 ignored on '") + props.deviceName + "': queue family " +
                       std::to_string(queue_family_) + " has no timestamps (timestampValidBits 0, " +
                       "timestampComputeAndGraphics " + (props.limits.timestampComputeAndGraphics ? "1" : "0") + ")");
            timing_ = false;
        } else {
            timestamp_mask_ = bits >= 64 ? ~0ull : (1ull << bits) - 1;
        }
    }

    const bool sgc_offered = subgroup_control_offered(physical_);
    Features have(sgc_offered);
    vkGetPhysicalDeviceFeatures2(physical_, &have.core);

    Features want(sgc_offered && have.sgc.subgroupSizeControl);
    want.core.features.shaderFloat64 = VK_TRUE;
    want.core.features.shaderInt64 = VK_TRUE;
    want.core.features.shaderInt16 = VK_TRUE;
    want.v11.storageBuffer16BitAccess = VK_TRUE;
    want.v12.storageBuffer8BitAccess = VK_TRUE;
    want.v12.shaderInt8 = VK_TRUE;
    want.v12.bufferDeviceAddress = VK_TRUE;
    want.v12.timelineSemaphore = VK_TRUE;
    want.v12.shaderBufferInt64Atomics = have.v12.shaderBufferInt64Atomics;
    want.v12.vulkanMemoryModel = have.v12.vulkanMemoryModel;
    want.v12.vulkanMemoryModelDeviceScope = have.v12.vulkanMemoryModelDeviceScope;
    want.v12.scalarBlockLayout = have.v12.scalarBlockLayout;
    if (sgc_offered && have.sgc.subgroupSizeControl) {
        want.sgc.subgroupSizeControl = VK_TRUE;
        want.sgc.computeFullSubgroups = have.sgc.computeFullSubgroups;
    }

    std::vector<const char*> extensions;
    VkPhysicalDeviceProperties base{};
    vkGetPhysicalDeviceProperties(physical_, &base);
    if (sgc_offered && base.apiVersion < VK_API_VERSION_1_3)
        extensions.push_back(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = vk_struct<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
    qci.queueFamilyIndex = queue_family_;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci = vk_struct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
    dci.pNext = &want.core;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    dci.ppEnabledExtensionNames = extensions.data();
    IPT_VK_CHECK(vkCreateDevice(physical_, &dci, nullptr, &device_));
    vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
    subgroup_control_ = want.sgc.subgroupSizeControl == VK_TRUE;

    VkSemaphoreTypeCreateInfo tci = vk_struct<VkSemaphoreTypeCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
    tci.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    tci.initialValue = 0;
    VkSemaphoreCreateInfo sci = vk_struct<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
    sci.pNext = &tci;
    IPT_VK_CHECK(vkCreateSemaphore(device_, &sci, nullptr, &timeline_));

    VkCommandPoolCreateInfo pci = vk_struct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = queue_family_;
    IPT_VK_CHECK(vkCreateCommandPool(device_, &pci, nullptr, &command_pool_));

    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushConstantBytes};
    VkPipelineLayoutCreateInfo lci = vk_struct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    lci.pushConstantRangeCount = 1;
    lci.pPushConstantRanges = &range;
    IPT_VK_CHECK(vkCreatePipelineLayout(device_, &lci, nullptr, &layout_));

    vkGetPhysicalDeviceMemoryProperties(physical_, &memory_props_);
    min_alignment_ = std::max<VkDeviceSize>(256, base.limits.minStorageBufferOffsetAlignment);
    max_workgroup_invocations_ = base.limits.maxComputeWorkGroupInvocations;
    max_shared_bytes_ = base.limits.maxComputeSharedMemorySize;
    for (int i = 0; i < 3; ++i) max_group_count_[i] = base.limits.maxComputeWorkGroupCount[i];
    vendor_id_ = base.vendorID;
    timestamp_period_ns_ = base.limits.timestampPeriod;
}

void Device::describe() {
    VkPhysicalDeviceSubgroupSizeControlPropertiesEXT sgc = vk_struct<VkPhysicalDeviceSubgroupSizeControlPropertiesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES_EXT);
    VkPhysicalDeviceVulkan12Properties v12 = vk_struct<VkPhysicalDeviceVulkan12Properties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES);
    VkPhysicalDeviceVulkan11Properties v11 = vk_struct<VkPhysicalDeviceVulkan11Properties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES);
    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV nv = vk_struct<VkPhysicalDeviceShaderSMBuiltinsPropertiesNV>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV);
    VkPhysicalDeviceShaderCorePropertiesAMD amd = vk_struct<VkPhysicalDeviceShaderCorePropertiesAMD>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD);
    VkPhysicalDeviceProperties2 p = vk_struct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    p.pNext = &v11;
    v11.pNext = &v12;
    void** tail = &v12.pNext;
    if (subgroup_control_offered(physical_)) {
        *tail = &sgc;
        tail = &sgc.pNext;
    }
    const bool has_nv = has_extension(physical_, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
    const bool has_amd = has_extension(physical_, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME);
    if (has_nv) {
        *tail = &nv;
        tail = &nv.pNext;
    }
    if (has_amd) {
        *tail = &amd;
        tail = &amd.pNext;
    }
    vkGetPhysicalDeviceProperties2(physical_, &p);
    subgroup_size_ = v11.subgroupSize;
    if (subgroup_control_ && (sgc.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT)) {
        min_subgroup_ = sgc.minSubgroupSize;
        max_subgroup_ = sgc.maxSubgroupSize;
    } else {
        subgroup_control_ = false;
        min_subgroup_ = max_subgroup_ = subgroup_size_;
    }

    const auto& props = p.properties;
    const char* vendor = vendor_name(props.vendorID);
    char vendor_buf[32];
    if (!vendor) {
        std::snprintf(vendor_buf, sizeof vendor_buf, "0x%04x", props.vendorID);
        vendor = vendor_buf;
    }
    vendor_ = std::string(vendor) + " (" + v12.driverName + ")";
    name_ = std::string(props.deviceName) + " [Vulkan " + type_name(props.deviceType) + "]";
    spin_before_wait_ = props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU;
    identity_ = "vulkan:" + hex(v11.deviceUUID, VK_UUID_SIZE) + ":" + std::to_string(props.vendorID) +
                ":" + std::to_string(props.deviceID) + ":driver " + v12.driverInfo + " " +
                std::to_string(props.driverVersion);
    cache_key_ = hex(props.pipelineCacheUUID, VK_UUID_SIZE).substr(0, 16) + "-" +
                 std::to_string(props.vendorID) + "-" + std::to_string(props.deviceID);

    uint64_t memory = 0;
    for (uint32_t i = 0; i < memory_props_.memoryHeapCount; ++i)
        if (memory_props_.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            memory += memory_props_.memoryHeaps[i].size;
    uint32_t units = 0;
    if (has_nv) units = nv.shaderSMCount;
    if (has_amd)
        units = amd.shaderEngineCount * amd.shaderArraysPerEngineCount *
                amd.computeUnitsPerShaderArray;

    desc_.struct_size = sizeof(ipt_device_desc);
    desc_.name = name_.c_str();
    desc_.kind = "vulkan";
    desc_.vendor = vendor_.c_str();
    desc_.identity = identity_.c_str();
    desc_.memory_bytes = memory;
    desc_.compute_units = units;
    desc_.subgroup_size = subgroup_size_;
}

bool Device::can_require_subgroup_size(uint32_t size) const {
    return subgroup_control_ && size >= min_subgroup_ && size <= max_subgroup_;
}

Device::~Device() {
    if (!device_) return;
    if (!lost_) vkDeviceWaitIdle(device_);
    report_timings(lost_ ? 0 : submitted_);
    for (auto& t : timed_)
        for (VkQueryPool pool : t.pools) vkDestroyQueryPool(device_, pool, nullptr);
    timed_.clear();
    attachments_.clear();
    save_pipeline_cache();
    completed_ = submitted_;
    for (auto& [value, buffer] : pending_release_) destroy_buffer(buffer);
    pending_release_.clear();
    for (auto& [key, pipeline] : pipelines_) vkDestroyPipeline(device_, pipeline, nullptr);
    for (auto& [key, module] : modules_) vkDestroyShaderModule(device_, module, nullptr);
    if (pipeline_cache_) vkDestroyPipelineCache(device_, pipeline_cache_, nullptr);
    if (layout_) vkDestroyPipelineLayout(device_, layout_, nullptr);
    if (command_pool_) vkDestroyCommandPool(device_, command_pool_, nullptr);
    if (timeline_) vkDestroySemaphore(device_, timeline_, nullptr);
    for (auto& b : blocks_) {
        if (b->mapped) vkUnmapMemory(device_, b->memory);
        vkFreeMemory(device_, b->memory, nullptr);
    }
    blocks_.clear();
    vkDestroyDevice(device_, nullptr);
}

// ---------------------------------------------------------------------------
// Health
// ---------------------------------------------------------------------------

void Device::fail(VkResult r, const char* what) {
    if (r == VK_ERROR_DEVICE_LOST && !lost_) {
        lost_ = true;
        lost_message_ = std::string("vulkan: device '") + name_ + "' was lost (" + what + ")";
        log(3, lost_message_);
    }
    throw_result(r, what);
}

void Device::check_healthy() {
    if (lost_) throw ipt::plugin::Error(IPT_ERR_DEVICE, lost_message_);
    std::string v = Instance::get().take_validation_errors();
    if (!v.empty()) throw ipt::plugin::Error(IPT_ERR_DEVICE, v);
}

// ---------------------------------------------------------------------------
// Memory: blocks of VkDeviceMemory, each sub-allocated first-fit.
// ---------------------------------------------------------------------------

uint32_t Device::memory_type(uint32_t bits, MemoryKind kind) const {
    VkMemoryPropertyFlags need = 0, prefer = 0, avoid = 0;
    switch (kind) {
    case MemoryKind::DeviceLocal:
        prefer = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
        avoid = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
        break;
    case MemoryKind::Upload:
        need = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        break;
    case MemoryKind::Readback:
        need = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        prefer = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
        break;
    }
    int best = -1, best_score = -1;
    for (uint32_t i = 0; i < memory_props_.memoryTypeCount; ++i) {
        if (!(bits & (1u << i))) continue;
        const auto flags = memory_props_.memoryTypes[i].propertyFlags;
        if ((flags & need) != need) continue;
        int score = ((flags & prefer) == prefer ? 2 : 0) + ((flags & avoid) ? 0 : 1);
        if (score > best_score) {
            best = int(i);
            best_score = score;
        }
    }
    if (best < 0)
        throw ipt::plugin::Error(IPT_ERR_DEVICE, "vulkan: no suitable memory type on '" + name_ + "'");
    return static_cast<uint32_t>(best);
}

Block* Device::new_block(VkDeviceSize bytes, uint32_t type, MemoryKind kind) {
    VkMemoryAllocateFlagsInfo flags = vk_struct<VkMemoryAllocateFlagsInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo ai = vk_struct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    ai.pNext = &flags;
    ai.allocationSize = bytes;
    ai.memoryTypeIndex = type;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    const auto t0 = std::chrono::steady_clock::now();
    VkResult r = vkAllocateMemory(device_, &ai, nullptr, &memory);
    if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY) {
        // Memory that queued work still holds may be enough: wait, free, retry.
        wait_for(submitted_);
        collect();
        for (auto it = blocks_.begin(); it != blocks_.end();) {
            if ((*it)->used == 0) {
                if ((*it)->mapped) vkUnmapMemory(device_, (*it)->memory);
                vkFreeMemory(device_, (*it)->memory, nullptr);
                it = blocks_.erase(it);
            } else {
                ++it;
            }
        }
        r = vkAllocateMemory(device_, &ai, nullptr, &memory);
    }
    if (r != VK_SUCCESS) {
        std::string what = "vkAllocateMemory of " + std::to_string(bytes) + " bytes";
        fail(r, what.c_str());
    }
    auto block = std::make_unique<Block>();
    block->memory = memory;
    block->size = bytes;
    block->type = type;
    block->kind = kind;
    block->free_ranges[0] = bytes;
    if (kind != MemoryKind::DeviceLocal ||
        (memory_props_.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
        void* p = nullptr;
        if (kind != MemoryKind::DeviceLocal) {
            r = vkMapMemory(device_, memory, 0, VK_WHOLE_SIZE, 0, &p);
            if (r != VK_SUCCESS) {
                vkFreeMemory(device_, memory, nullptr);
                fail(r, "vkMapMemory");
            }
            block->mapped = static_cast<uint8_t*>(p);
        }
    }
    blocks_.push_back(std::move(block));
    if (timing_)
        std::fprintf(stderr, "ipt-vulkan-timing vkAllocateMemory kind=%s mib=%.1f host_ms=%.3f\n", kind_name(kind),
                     double(bytes) / (1 << 20), ms_since(t0));
    return blocks_.back().get();
}

bool Device::place(Block* block, VkDeviceSize bytes, VkDeviceSize alignment, VkDeviceSize* offset) {
    for (auto it = block->free_ranges.begin(); it != block->free_ranges.end(); ++it) {
        const VkDeviceSize start = (it->first + alignment - 1) / alignment * alignment;
        const VkDeviceSize end = it->first + it->second;
        if (start + bytes > end) continue;
        const VkDeviceSize range_start = it->first;
        block->free_ranges.erase(it);
        if (start > range_start) block->free_ranges[range_start] = start - range_start;
        if (start + bytes < end) block->free_ranges[start + bytes] = end - (start + bytes);
        block->used += bytes;
        *offset = start;
        return true;
    }
    return false;
}

void Device::free_range(Block* block, VkDeviceSize offset, VkDeviceSize bytes) {
    block->used -= bytes;
    auto next = block->free_ranges.lower_bound(offset);
    VkDeviceSize start = offset, size = bytes;
    if (next != block->free_ranges.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == offset) {
            start = prev->first;
            size += prev->second;
            block->free_ranges.erase(prev);
        }
    }
    if (next != block->free_ranges.end() && offset + bytes == next->first) {
        size += next->second;
        block->free_ranges.erase(next);
    }
    block->free_ranges[start] = size;
}

Buffer* Device::allocate(VkDeviceSize bytes, MemoryKind kind) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    check_healthy();
    collect();
    auto buffer = std::make_unique<Buffer>();
    buffer->device = this;
    buffer->size = bytes;
    // Empty images get a small buffer so that every image has a handle.
    const VkDeviceSize create_bytes = std::max<VkDeviceSize>(16, (bytes + 15) / 16 * 16);
    VkBufferCreateInfo bci = vk_struct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    bci.size = create_bytes;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkResult r = vkCreateBuffer(device_, &bci, nullptr, &buffer->buffer);
    if (r != VK_SUCCESS) fail(r, "vkCreateBuffer");
    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(device_, buffer->buffer, &req);
    const uint32_t type = memory_type(req.memoryTypeBits, kind);
    const VkDeviceSize alignment = std::max(req.alignment, min_alignment_);
    Block* block = nullptr;
    VkDeviceSize offset = 0;
    for (auto& b : blocks_) {
        if (b->type == type && b->kind == kind && place(b.get(), req.size, alignment, &offset)) {
            block = b.get();
            break;
        }
    }
    if (!block) {
        const VkDeviceSize standard =
            kind == MemoryKind::DeviceLocal ? kDeviceBlockBytes : kHostBlockBytes;
        const VkDeviceSize size = std::max(standard, (req.size + (1 << 20) - 1) >> 20 << 20);
        try {
            block = new_block(size, type, kind);
        } catch (...) {
            vkDestroyBuffer(device_, buffer->buffer, nullptr);
            throw;
        }
        place(block, req.size, alignment, &offset);
    }
    r = vkBindBufferMemory(device_, buffer->buffer, block->memory, offset);
    if (r != VK_SUCCESS) {
        free_range(block, offset, req.size);
        vkDestroyBuffer(device_, buffer->buffer, nullptr);
        fail(r, "vkBindBufferMemory");
    }
    buffer->block = block;
    buffer->block_offset = offset;
    buffer->block_bytes = req.size;
    buffer->mapped = block->mapped ? block->mapped + offset : nullptr;
    VkBufferDeviceAddressInfo dai = vk_struct<VkBufferDeviceAddressInfo>(VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
    dai.buffer = buffer->buffer;
    buffer->address = vkGetBufferDeviceAddress(device_, &dai);
    return buffer.release();
}

void Device::destroy_buffer(Buffer* buffer) {
    vkDestroyBuffer(device_, buffer->buffer, nullptr);
    Block* block = buffer->block;
    free_range(block, buffer->block_offset, buffer->block_bytes);
    delete buffer;
    if (block->used != 0) return;
    // Keep the emptied block for later calls while the empty blocks of its
    // kind stay within 1/16 of the heap (and kKeepEmptyHostBytes for the
    // host-visible kinds); else give it back.
    const VkDeviceSize heap = memory_props_.memoryHeaps[memory_props_.memoryTypes[block->type].heapIndex].size;
    VkDeviceSize limit = heap / 16;
    if (block->kind != MemoryKind::DeviceLocal) limit = std::min(limit, kKeepEmptyHostBytes);
    VkDeviceSize empty = 0;
    for (auto& b : blocks_)
        if (b->kind == block->kind && b->used == 0) empty += b->size;
    if (empty <= limit) return;
    auto it = std::find_if(blocks_.begin(), blocks_.end(), [&](const auto& b) { return b.get() == block; });
    const auto t0 = std::chrono::steady_clock::now();
    if (block->mapped) vkUnmapMemory(device_, block->memory);
    vkFreeMemory(device_, block->memory, nullptr);
    if (timing_)
        std::fprintf(stderr, "ipt-vulkan-timing vkFreeMemory kind=%s mib=%.1f host_ms=%.3f\n", kind_name(block->kind),
                     double(block->size) / (1 << 20), ms_since(t0));
    blocks_.erase(it);
}

void Device::release(Buffer* buffer) {
    if (!buffer) return;
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    release_after(buffer, submitted_);
    collect();
}

void Device::release_after(Buffer* buffer, uint64_t value) {
    pending_release_.emplace_back(value, buffer);
}

uint64_t Device::completed_value() {
    if (lost_) return completed_;
    uint64_t value = 0;
    VkResult r = vkGetSemaphoreCounterValue(device_, timeline_, &value);
    if (r != VK_SUCCESS) fail(r, "vkGetSemaphoreCounterValue");
    completed_ = std::max(completed_, value);
    return completed_;
}

void Device::collect() {
    if (!timed_.empty()) report_timings(lost_ ? 0 : completed_value());
    if (pending_release_.empty()) return;
    const uint64_t done = lost_ ? submitted_ : completed_value();
    auto keep = pending_release_.begin();
    for (auto it = pending_release_.begin(); it != pending_release_.end(); ++it) {
        if (it->first <= done) destroy_buffer(it->second);
        else *keep++ = *it;
    }
    pending_release_.erase(keep, pending_release_.end());
}

// ---------------------------------------------------------------------------
// IPT_VULKAN_TIMING
// ---------------------------------------------------------------------------

const std::string& Device::pipeline_shader(VkPipeline pipeline) const {
    static const std::string unknown = "?";
    auto it = pipeline_shaders_.find(pipeline);
    return it != pipeline_shaders_.end() ? it->second : unknown;
}

void Device::add_timed(TimedSubmission submission) { timed_.push_back(std::move(submission)); }

// Prints the dispatches of every submission the timeline has passed, one
// line each, then one line for the call (sum of dispatches, first start to
// last end, host time from the call's start to its submit).
void Device::report_timings(uint64_t done) {
    auto keep = timed_.begin();
    for (auto it = timed_.begin(); it != timed_.end(); ++it) {
        if (it->value > done) {
            if (keep != it) *keep = std::move(*it);
            ++keep;
            continue;
        }
        double sum = 0;
        uint64_t first = 0, last = 0;
        bool have_span = false;
        for (const TimedDispatch& d : it->dispatches) {
            uint64_t ts[2] = {0, 0};
            const VkResult r = vkGetQueryPoolResults(device_, d.pool, d.first_query, 2, sizeof ts, ts, sizeof ts[0],
                                                     VK_QUERY_RESULT_64_BIT);
            char groups[64];
            if (d.groups[0]) std::snprintf(groups, sizeof groups, "%ux%ux%u", d.groups[0], d.groups[1], d.groups[2]);
            else std::snprintf(groups, sizeof groups, "indirect");
            if (r != VK_SUCCESS) {
                std::fprintf(stderr, "ipt-vulkan-timing op=%s shader=%s groups=%s gpu_ms=? (%s)\n", it->op.c_str(),
                             d.shader.c_str(), groups, result_name(r));
                continue;
            }
            const double ms = double((ts[1] - ts[0]) & timestamp_mask_) * timestamp_period_ns_ * 1e-6;
            sum += ms;
            if (!have_span) first = ts[0];
            last = ts[1];
            have_span = true;
            std::fprintf(stderr, "ipt-vulkan-timing op=%s shader=%s groups=%s gpu_ms=%.4f\n", it->op.c_str(),
                         d.shader.c_str(), groups, ms);
        }
        const double span = have_span ? double((last - first) & timestamp_mask_) * timestamp_period_ns_ * 1e-6 : 0;
        std::fprintf(stderr, "ipt-vulkan-timing op=%s dispatches=%zu gpu_ms=%.4f span_ms=%.4f host_ms=%.4f\n",
                     it->op.c_str(), it->dispatches.size(), sum, span, it->host_ms);
        for (VkQueryPool pool : it->pools) vkDestroyQueryPool(device_, pool, nullptr);
    }
    timed_.erase(keep, timed_.end());
}

// ---------------------------------------------------------------------------
// Submission
// ---------------------------------------------------------------------------

VkCommandBuffer Device::acquire_command_buffer() {
    const uint64_t done = completed_value();
    for (auto it = command_buffers_.begin(); it != command_buffers_.end(); ++it) {
        if (it->second <= done) {
            VkCommandBuffer cb = it->first;
            command_buffers_.erase(it);
            VkResult r = vkResetCommandBuffer(cb, 0);
            if (r != VK_SUCCESS) fail(r, "vkResetCommandBuffer");
            return cb;
        }
    }
    VkCommandBufferAllocateInfo ai = vk_struct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    ai.commandPool = command_pool_;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VkResult r = vkAllocateCommandBuffers(device_, &ai, &cb);
    if (r != VK_SUCCESS) fail(r, "vkAllocateCommandBuffers");
    return cb;
}

void Device::recycle_command_buffer(VkCommandBuffer cb, uint64_t value) {
    command_buffers_.emplace_back(cb, value);
}

uint64_t Device::submit(VkCommandBuffer cb) {
    const uint64_t value = submitted_ + 1;
    VkTimelineSemaphoreSubmitInfo tsi = vk_struct<VkTimelineSemaphoreSubmitInfo>(VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
    tsi.signalSemaphoreValueCount = 1;
    tsi.pSignalSemaphoreValues = &value;
    VkSubmitInfo si = vk_struct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    si.pNext = &tsi;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    si.signalSemaphoreCount = 1;
    si.pSignalSemaphores = &timeline_;
    VkResult r = vkQueueSubmit(queue_, 1, &si, VK_NULL_HANDLE);
    if (r != VK_SUCCESS) fail(r, "vkQueueSubmit");
    submitted_ = value;
    return value;
}

void Device::wait_for(uint64_t value) {
    if (lost_) check_healthy();
    if (value <= completed_) return;
    if (spin_before_wait_) {
        // Most calls finish within microseconds, sooner than a blocked thread
        // is woken (tens of microseconds on NVIDIA's driver): poll the
        // timeline for a short while first, as CUDA's default scheduling
        // does. Not on a CPU device (lavapipe), whose workers need the cores.
        const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(200);
        do {
            if (completed_value() >= value) return;
        } while (std::chrono::steady_clock::now() < until);
    }
    VkSemaphoreWaitInfo wi = vk_struct<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
    wi.semaphoreCount = 1;
    wi.pSemaphores = &timeline_;
    wi.pValues = &value;
    VkResult r = vkWaitSemaphores(device_, &wi, kWaitTimeoutNs);
    if (r == VK_TIMEOUT)
        throw ipt::plugin::Error(IPT_ERR_DEVICE, "vulkan: queued work on '" + name_ +
                                                     "' did not complete within 600 s");
    if (r != VK_SUCCESS) fail(r, "vkWaitSemaphores");
    completed_ = std::max(completed_, value);
}

void Device::upload(Buffer* dst, uint64_t offset, const void* src, uint64_t bytes) {
    if (bytes == 0) return;
    Recorder rec(*this);
    rec.write(dst, offset, src, bytes);
    rec.submit();
}

void Device::download(Buffer* src, uint64_t offset, void* dst, uint64_t bytes) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    check_healthy();
    if (bytes == 0) {
        wait_for(submitted_);
        check_healthy();
        return;
    }
    Buffer* staging = allocate(bytes, MemoryKind::Readback);
    uint64_t value = 0;
    try {
        Recorder rec(*this);
        rec.copy(src, offset, staging, 0, bytes);
        value = rec.submit();
        wait_for(value);
    } catch (...) {
        release_after(staging, submitted_);
        throw;
    }
    std::memcpy(dst, staging->mapped, bytes);
    release_after(staging, value);
    collect();
    check_healthy();
}

void Device::sync() {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    check_healthy();
    wait_for(submitted_);
    collect();
    check_healthy();
}

// ---------------------------------------------------------------------------
// Pipelines
// ---------------------------------------------------------------------------

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

void Device::load_pipeline_cache() {
    std::vector<char> data;
    const std::string path = pipeline_cache_path();
    if (!path.empty()) {
        std::ifstream in(path, std::ios::binary);
        if (in) data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
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
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    // Written aside and renamed, so a reader never sees half a file.
    const std::string tmp = path + ".tmp" + std::to_string(reinterpret_cast<uintptr_t>(this));
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return;
        out.write(data.data(), static_cast<std::streamsize>(size));
        if (!out) return;
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) std::filesystem::remove(tmp, ec);
    else pipelines_at_load_ = pipelines_.size();
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

// ---------------------------------------------------------------------------
// Recorder
// ---------------------------------------------------------------------------

Recorder::Recorder(Device& device) : device_(device), lock_(device.mutex()) {
    device_.check_healthy();
    device_.collect();
    cb_ = device_.acquire_command_buffer();
    VkCommandBufferBeginInfo bi = vk_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VkResult r = vkBeginCommandBuffer(cb_, &bi);
    if (r != VK_SUCCESS) {
        device_.recycle_command_buffer(cb_, 0);
        device_.fail(r, "vkBeginCommandBuffer");
    }
}

Recorder::~Recorder() {
    if (submitted_) return;
    // Nothing of this recording reached the queue: everything is free now.
    vkEndCommandBuffer(cb_);
    device_.recycle_command_buffer(cb_, 0);
    for (VkQueryPool pool : timed_.pools) vkDestroyQueryPool(device_.handle(), pool, nullptr);
    for (Buffer* b : transient_) device_.release_after(b, 0);
    device_.collect();
}

void Recorder::barrier() {
    // Orders this command after everything before it on the queue (earlier
    // calls included: a barrier's first scope covers prior submissions).
    VkMemoryBarrier mb = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                       VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                       VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
    vkCmdPipelineBarrier(cb_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
                             VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                         0, 1, &mb, 0, nullptr, 0, nullptr);
    recorded_ = true;
}

VkDeviceAddress Recorder::params(const void* data, size_t bytes) {
    Buffer* b = device_.allocate(std::max<size_t>(bytes, 16), MemoryKind::Upload);
    transient_.push_back(b);
    if (bytes) std::memcpy(b->mapped, data, bytes);
    return b->address;
}

Buffer* Recorder::scratch(VkDeviceSize bytes) {
    Buffer* b = device_.allocate(bytes, MemoryKind::DeviceLocal);
    transient_.push_back(b);
    return b;
}

void Recorder::dispatch(VkPipeline pipeline, const void* push, uint32_t push_bytes,
                        uint32_t gx, uint32_t gy, uint32_t gz) {
    if (gx == 0 || gy == 0 || gz == 0) return;
    for (int axis = 0; axis < 3; ++axis) {
        const uint32_t g = axis == 0 ? gx : (axis == 1 ? gy : gz);
        if (g > device_.max_group_count(axis))
            throw ipt::plugin::Error(IPT_ERR_UNSUPPORTED,
                                     "vulkan: image too large for one dispatch on this device");
    }
    barrier();
    vkCmdBindPipeline(cb_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    if (push_bytes)
        vkCmdPushConstants(cb_, device_.pipeline_layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                           push_bytes, push);
    if (!device_.timing_enabled()) {
        vkCmdDispatch(cb_, gx, gy, gz);
        return;
    }
    TimedDispatch d{device_.pipeline_shader(pipeline), {gx, gy, gz}, VK_NULL_HANDLE, timestamp()};
    vkCmdDispatch(cb_, gx, gy, gz);
    timestamp();
    d.pool = timed_.pools.back();
    timed_.dispatches.push_back(std::move(d));
}

void Recorder::dispatch_indirect(VkPipeline pipeline, const void* push, uint32_t push_bytes,
                                 Buffer* args, VkDeviceSize offset) {
    barrier();
    vkCmdBindPipeline(cb_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    if (push_bytes)
        vkCmdPushConstants(cb_, device_.pipeline_layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                           push_bytes, push);
    if (!device_.timing_enabled()) {
        vkCmdDispatchIndirect(cb_, args->buffer, offset);
        return;
    }
    TimedDispatch d{device_.pipeline_shader(pipeline), {0, 0, 0}, VK_NULL_HANDLE, timestamp()};
    vkCmdDispatchIndirect(cb_, args->buffer, offset);
    timestamp();
    d.pool = timed_.pools.back();
    timed_.dispatches.push_back(std::move(d));
}

uint32_t Recorder::timestamp() {
    // Queries go in pairs and pools hold an even number, so a dispatch's
    // start and end share a pool.
    if (timed_.pools.empty() || queries_used_ == kQueriesPerPool) {
        VkQueryPoolCreateInfo ci = vk_struct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
        ci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        ci.queryCount = kQueriesPerPool;
        VkQueryPool pool = VK_NULL_HANDLE;
        VkResult r = vkCreateQueryPool(device_.handle(), &ci, nullptr, &pool);
        if (r != VK_SUCCESS) device_.fail(r, "vkCreateQueryPool");
        timed_.pools.push_back(pool);
        vkCmdResetQueryPool(cb_, pool, 0, kQueriesPerPool);
        queries_used_ = 0;
    }
    // Bottom of pipe: written once every command before it has completed,
    // so consecutive stamps bracket exactly one dispatch.
    vkCmdWriteTimestamp(cb_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timed_.pools.back(), queries_used_);
    return queries_used_++;
}

void Recorder::fill(Buffer* buffer, VkDeviceSize offset, VkDeviceSize bytes, uint32_t value) {
    if (bytes == 0) return;
    barrier();
    vkCmdFillBuffer(cb_, buffer->buffer, offset, (bytes + 3) / 4 * 4, value);
}

void Recorder::copy(Buffer* src, VkDeviceSize src_offset, Buffer* dst, VkDeviceSize dst_offset,
                    VkDeviceSize bytes) {
    if (bytes == 0) return;
    barrier();
    VkBufferCopy region{src_offset, dst_offset, bytes};
    vkCmdCopyBuffer(cb_, src->buffer, dst->buffer, 1, &region);
}

void Recorder::write(Buffer* dst, VkDeviceSize offset, const void* data, VkDeviceSize bytes) {
    if (bytes == 0) return;
    Buffer* staging = device_.allocate(bytes, MemoryKind::Upload);
    transient_.push_back(staging);
    std::memcpy(staging->mapped, data, bytes);
    copy(staging, 0, dst, offset, bytes);
}

VkCommandBuffer Recorder::external_commands() {
    barrier();
    return cb_;
}

uint64_t Recorder::submit() {
    if (recorded_) {
        // Makes transfer results visible to a host read after the wait.
        VkMemoryBarrier mb = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
        mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cb_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
    }
    VkResult r = vkEndCommandBuffer(cb_);
    if (r != VK_SUCCESS) device_.fail(r, "vkEndCommandBuffer");
    uint64_t value = device_.last_submitted();
    if (recorded_) value = device_.submit(cb_);
    submitted_ = true;
    device_.recycle_command_buffer(cb_, value);
    for (Buffer* b : transient_) device_.release_after(b, value);
    transient_.clear();
    if (!timed_.pools.empty()) {
        const CallInProgress& call = call_in_progress();
        timed_.value = value;
        timed_.op = call.op ? call.op : "(internal)";
        timed_.host_ms = call.op ? ms_since(call.start) : 0;
        device_.add_timed(std::move(timed_));
        timed_ = TimedSubmission{};
    }
    device_.check_healthy();
    return value;
}

// ---------------------------------------------------------------------------
// Instance
// ---------------------------------------------------------------------------

Instance& Instance::get() {
    // Never destroyed: Vulkan objects must not be torn down by static
    // destructors at exit, after the loader may be gone. shutdown() does it.
    static Instance* instance = new Instance;
    return *instance;
}

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL on_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                VkDebugUtilsMessageTypeFlagsEXT,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                void*) {
    const std::string message = data && data->pMessage ? data->pMessage : "(no message)";
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
        Instance::get().on_validation_error(message);
    } else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        log(2, "validation: " + message);
    } else {
        log(0, "validation: " + message);
    }
    return VK_FALSE;
}

}  // namespace

void Instance::on_validation_error(const std::string& message) {
    log(3, "validation: " + message);
    std::lock_guard<std::mutex> lock(validation_mutex_);
    if (validation_errors_ == validation_reported_) validation_first_ = message;
    ++validation_errors_;
}

std::string Instance::take_validation_errors() {
    std::lock_guard<std::mutex> lock(validation_mutex_);
    if (validation_errors_ == validation_reported_) return "";
    const uint64_t n = validation_errors_ - validation_reported_;
    validation_reported_ = validation_errors_;
    return "vulkan: the validation layer reported " + std::to_string(n) +
           " error(s); first: " + validation_first_;
}

void Instance::init() {
    if (initialised_) return;
    initialised_ = true;
    note_.clear();
    if (std::string why = load_loader(); !why.empty()) {
        note_ = why;
        return;
    }
    validation_ = env_is("IPT_VULKAN_VALIDATION", "1");

    std::vector<const char*> layers, extensions;
    if (validation_) {
        uint32_t n = 0;
        vkEnumerateInstanceLayerProperties(&n, nullptr);
        std::vector<VkLayerProperties> props(n);
        vkEnumerateInstanceLayerProperties(&n, props.data());
        bool found = false;
        for (const auto& p : props) found |= std::strcmp(p.layerName, "VK_LAYER_KHRONOS_validation") == 0;
        if (found) {
            layers.push_back("VK_LAYER_KHRONOS_validation");
            extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        } else {
            log(2, "IPT_VULKAN_VALIDATION=1 but VK_LAYER_KHRONOS_validation is not installed");
            validation_ = false;
        }
    }

    uint32_t loader_version = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion) vkEnumerateInstanceVersion(&loader_version);
    if (loader_version < VK_API_VERSION_1_2) {
        note_ = "the Vulkan loader supports only Vulkan " + std::to_string(VK_API_VERSION_MAJOR(loader_version)) +
                "." + std::to_string(VK_API_VERSION_MINOR(loader_version)) + "; libipt_vulkan needs 1.2";
        return;
    }
    VkApplicationInfo app = vk_struct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
    app.pApplicationName = "OpenIPT";
    app.pEngineName = "libipt_vulkan";
    app.apiVersion = loader_version >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;
    VkDebugUtilsMessengerCreateInfoEXT mci = vk_struct<VkDebugUtilsMessengerCreateInfoEXT>(VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
    mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    mci.pfnUserCallback = on_debug_message;
    VkInstanceCreateInfo ci = vk_struct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
    ci.pNext = validation_ ? &mci : nullptr;
    ci.pApplicationInfo = &app;
    ci.enabledLayerCount = static_cast<uint32_t>(layers.size());
    ci.ppEnabledLayerNames = layers.data();
    ci.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    ci.ppEnabledExtensionNames = extensions.data();
    VkResult r = vkCreateInstance(&ci, nullptr, &instance_);
    if (r != VK_SUCCESS) {
        instance_ = VK_NULL_HANDLE;
        note_ = std::string("vkCreateInstance failed: ") + result_name(r) +
                (r == VK_ERROR_INCOMPATIBLE_DRIVER ? " (no Vulkan driver installed)" : "");
        return;
    }
    if (std::string missing = load_instance_functions(instance_); !missing.empty()) {
        note_ = "the Vulkan loader lacks " + missing;
        return;
    }
    if (validation_ && vkCreateDebugUtilsMessengerEXT)
        vkCreateDebugUtilsMessengerEXT(instance_, &mci, nullptr, &messenger_);

    uint32_t n = 0;
    r = vkEnumeratePhysicalDevices(instance_, &n, nullptr);
    std::vector<VkPhysicalDevice> physical(n);
    if (r == VK_SUCCESS && n) r = vkEnumeratePhysicalDevices(instance_, &n, physical.data());
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        note_ = std::string("vkEnumeratePhysicalDevices failed: ") + result_name(r);
        return;
    }
    std::string skipped;
    for (VkPhysicalDevice p : physical) {
        VkPhysicalDeviceProperties props{};
        vkGetPhysicalDeviceProperties(p, &props);
        std::string why = Device::unsuitable(p);
        if (why.empty()) {
            try {
                devices_.push_back(std::make_unique<Device>(instance_, p, device_count()));
                continue;
            } catch (const std::exception& e) {
                why = e.what();
            }
        }
        const std::string line = std::string(props.deviceName) + ": " + why;
        log(1, "skipping Vulkan device " + line);
        skipped += (skipped.empty() ? "" : "; ") + line;
    }
    for (auto& d : devices_) descs_.push_back(&d->desc());
    if (devices_.empty())
        note_ = physical.empty() ? "no Vulkan physical device (is a Vulkan driver/ICD installed?)"
                                 : "no usable Vulkan device: " + skipped;
}

void Instance::shutdown() {
    devices_.clear();
    descs_.clear();
    if (messenger_ && vkDestroyDebugUtilsMessengerEXT)
        vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
    if (instance_) vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
    if (validation_errors_)
        log(3, "the validation layer reported " + std::to_string(validation_errors_) + " error(s) in total");
    unload_loader();
    initialised_ = false;
}

}  // namespace ipt::vk
