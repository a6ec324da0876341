// SPDX-License-Identifier: Apache-2.0
#include "vk_api.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <optional>

#include "device_internal.hpp"
#include "library_file.hpp"

namespace ipt::vk {

#define IPT_VK_DEFINE(name) PFN_##name name = nullptr;
IPT_VK_DEFINE(vkGetInstanceProcAddr)
IPT_VK_GLOBAL_FUNCTIONS(IPT_VK_DEFINE)
IPT_VK_INSTANCE_FUNCTIONS(IPT_VK_DEFINE)
IPT_VK_OPTIONAL_FUNCTIONS(IPT_VK_DEFINE)
#undef IPT_VK_DEFINE

namespace {
void* loader_handle = nullptr;
}

std::string load_loader() {
    if (loader_handle) return "";
    // IPT_VULKAN_LOADER lets a run bring its own loader (a machine with a
    // Vulkan driver but no libvulkan.so.1 installed).
    std::string tried;
    const char* chosen = getenv("IPT_VULKAN_LOADER");
    // A path is checked before dlopen, which dies on a truncated library and
    // blocks on a FIFO. The variable names this loader and no other: when it
    // is refused there is no Vulkan device. Bare names are left to the
    // dynamic linker's search.
    if (chosen && *chosen && is_library_path(chosen)) {
        if (std::optional<std::string> problem = library_file_problem(chosen)) {
            const std::string why = std::string("IPT_VULKAN_LOADER=") + chosen + " refused: " + *problem;
            log(2, why);
            return "no Vulkan loader: " + why;
        }
    }
    const char* candidates[] = {chosen, "libvulkan.so.1", "libvulkan.so"};
    for (const char* name : candidates) {
        if (!name || !*name) continue;
        loader_handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (loader_handle) break;
        const char* err = dlerror();
        tried += std::string(tried.empty() ? "" : "; ") + (err ? err : name);
    }
    if (!loader_handle) return "no Vulkan loader: " + tried;
    vkGetInstanceProcAddr =
        reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(loader_handle, "vkGetInstanceProcAddr"));
    if (!vkGetInstanceProcAddr) {
        unload_loader();
        return "the Vulkan loader exports no vkGetInstanceProcAddr";
    }
#define IPT_VK_LOAD_GLOBAL(name) \
    name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(nullptr, #name));
    IPT_VK_GLOBAL_FUNCTIONS(IPT_VK_LOAD_GLOBAL)
#undef IPT_VK_LOAD_GLOBAL
    if (!vkCreateInstance || !vkEnumerateInstanceExtensionProperties ||
        !vkEnumerateInstanceLayerProperties) {
        unload_loader();
        return "the Vulkan loader lacks vkCreateInstance";
    }
    return "";
}

std::string load_instance_functions(VkInstance instance) {
#define IPT_VK_LOAD_INSTANCE(name)                                                      \
    name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(instance, #name));       \
    if (!name) return #name;
    IPT_VK_INSTANCE_FUNCTIONS(IPT_VK_LOAD_INSTANCE)
#undef IPT_VK_LOAD_INSTANCE
#define IPT_VK_LOAD_OPTIONAL(name) \
    name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(instance, #name));
    IPT_VK_OPTIONAL_FUNCTIONS(IPT_VK_LOAD_OPTIONAL)
#undef IPT_VK_LOAD_OPTIONAL
    return "";
}

void unload_loader() {
    if (loader_handle) dlclose(loader_handle);
    loader_handle = nullptr;
}

const char* result_name(VkResult r) {
    switch (r) {
#define IPT_VK_NAME(x) case x: return #x;
    IPT_VK_NAME(VK_SUCCESS)
    IPT_VK_NAME(VK_NOT_READY)
    IPT_VK_NAME(VK_TIMEOUT)
    IPT_VK_NAME(VK_EVENT_SET)
    IPT_VK_NAME(VK_EVENT_RESET)
    IPT_VK_NAME(VK_INCOMPLETE)
    IPT_VK_NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
    IPT_VK_NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    IPT_VK_NAME(VK_ERROR_INITIALIZATION_FAILED)
    IPT_VK_NAME(VK_ERROR_DEVICE_LOST)
    IPT_VK_NAME(VK_ERROR_MEMORY_MAP_FAILED)
    IPT_VK_NAME(VK_ERROR_LAYER_NOT_PRESENT)
    IPT_VK_NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
    IPT_VK_NAME(VK_ERROR_FEATURE_NOT_PRESENT)
    IPT_VK_NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
    IPT_VK_NAME(VK_ERROR_TOO_MANY_OBJECTS)
    IPT_VK_NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
    IPT_VK_NAME(VK_ERROR_FRAGMENTED_POOL)
    IPT_VK_NAME(VK_ERROR_UNKNOWN)
    IPT_VK_NAME(VK_ERROR_OUT_OF_POOL_MEMORY)
    IPT_VK_NAME(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    IPT_VK_NAME(VK_ERROR_FRAGMENTATION)
    IPT_VK_NAME(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    IPT_VK_NAME(VK_PIPELINE_COMPILE_REQUIRED)
#undef IPT_VK_NAME
    default: return "VkResult";
    }
}

ipt_status status_of(VkResult r) {
    switch (r) {
    case VK_SUCCESS: return IPT_OK;
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
    case VK_ERROR_FRAGMENTED_POOL:
    case VK_ERROR_FRAGMENTATION:
    case VK_ERROR_TOO_MANY_OBJECTS: return IPT_ERR_OUT_OF_MEMORY;
    default: return IPT_ERR_DEVICE;
    }
}

void throw_result(VkResult r, const char* what) {
    throw ipt::plugin::Error(status_of(r), std::string("vulkan: ") + what + " failed: " +
                                               result_name(r) + " (" + std::to_string(r) + ")");
}

}  // namespace ipt::vk
