// SPDX-License-Identifier: Apache-2.0
// Instance and devices: the process-wide Vulkan instance, the choice of
// physical devices, a device's queue, features and description, its health.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "device_internal.hpp"

namespace ipt::vk {

namespace {

bool env_is(const char* name, const char* value) {
    const char* v = std::getenv(name);
    return v && std::strcmp(v, value) == 0;
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
    host_copy().stop();
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
