// SPDX-License-Identifier: Apache-2.0
// The Vulkan entry points libipt_vulkan uses, loaded at run time from the
// loader library (libvulkan.so.1). Loading it ourselves instead of linking
// lets the plugin load on a machine without a Vulkan loader and report zero
// devices with the reason, as the plugin contract asks.
#pragma once

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan.h>

#include <string>

#include "ipt/ipt_plugin.hpp"

// Entry points resolved through vkGetInstanceProcAddr(NULL, ...).
#define IPT_VK_GLOBAL_FUNCTIONS(X)           \
    X(vkCreateInstance)                      \
    X(vkEnumerateInstanceExtensionProperties) \
    X(vkEnumerateInstanceLayerProperties)    \
    X(vkEnumerateInstanceVersion)

// Entry points resolved through vkGetInstanceProcAddr(instance, ...). Device
// functions are taken from the instance too: the loader's trampolines dispatch
// to the right driver when devices of several drivers are open at once. The
// fences, descriptor sets and command-buffer frees are VkFFT's (the fft
// variant of conv2, fft_convolve.cpp), which calls these same pointers.
#define IPT_VK_INSTANCE_FUNCTIONS(X)              \
    X(vkDestroyInstance)                          \
    X(vkEnumeratePhysicalDevices)                 \
    X(vkGetPhysicalDeviceProperties)              \
    X(vkGetPhysicalDeviceProperties2)             \
    X(vkGetPhysicalDeviceFeatures2)               \
    X(vkGetPhysicalDeviceQueueFamilyProperties)   \
    X(vkGetPhysicalDeviceMemoryProperties)        \
    X(vkEnumerateDeviceExtensionProperties)       \
    X(vkCreateDevice)                             \
    X(vkDestroyDevice)                            \
    X(vkGetDeviceQueue)                           \
    X(vkDeviceWaitIdle)                           \
    X(vkCreateBuffer)                             \
    X(vkDestroyBuffer)                            \
    X(vkGetBufferMemoryRequirements)              \
    X(vkAllocateMemory)                           \
    X(vkFreeMemory)                               \
    X(vkBindBufferMemory)                         \
    X(vkMapMemory)                                \
    X(vkUnmapMemory)                              \
    X(vkGetBufferDeviceAddress)                   \
    X(vkCreateCommandPool)                        \
    X(vkDestroyCommandPool)                       \
    X(vkAllocateCommandBuffers)                   \
    X(vkResetCommandBuffer)                       \
    X(vkBeginCommandBuffer)                       \
    X(vkEndCommandBuffer)                         \
    X(vkCmdPipelineBarrier)                       \
    X(vkCmdCopyBuffer)                            \
    X(vkCmdFillBuffer)                            \
    X(vkCmdBindPipeline)                          \
    X(vkCmdPushConstants)                         \
    X(vkCmdDispatch)                              \
    X(vkCmdDispatchIndirect)                      \
    X(vkCmdWriteTimestamp)                        \
    X(vkQueueSubmit)                              \
    X(vkCreateSemaphore)                          \
    X(vkDestroySemaphore)                         \
    X(vkWaitSemaphores)                           \
    X(vkGetSemaphoreCounterValue)                 \
    X(vkCreateShaderModule)                       \
    X(vkDestroyShaderModule)                      \
    X(vkCreatePipelineLayout)                     \
    X(vkDestroyPipelineLayout)                    \
    X(vkCreateComputePipelines)                   \
    X(vkDestroyPipeline)                          \
    X(vkCreatePipelineCache)                      \
    X(vkDestroyPipelineCache)                     \
    X(vkGetPipelineCacheData)                     \
    X(vkCreateQueryPool)                          \
    X(vkDestroyQueryPool)                         \
    X(vkCmdResetQueryPool)                        \
    X(vkGetQueryPoolResults)                      \
    X(vkCreateFence)                              \
    X(vkDestroyFence)                             \
    X(vkResetFences)                              \
    X(vkWaitForFences)                            \
    X(vkFreeCommandBuffers)                       \
    X(vkCreateDescriptorPool)                     \
    X(vkDestroyDescriptorPool)                    \
    X(vkCreateDescriptorSetLayout)                \
    X(vkDestroyDescriptorSetLayout)               \
    X(vkAllocateDescriptorSets)                   \
    X(vkUpdateDescriptorSets)                     \
    X(vkCmdBindDescriptorSets)

// Optional (extension) entry points: may stay NULL.
#define IPT_VK_OPTIONAL_FUNCTIONS(X)      \
    X(vkCreateDebugUtilsMessengerEXT)     \
    X(vkDestroyDebugUtilsMessengerEXT)

namespace ipt::vk {

#define IPT_VK_DECLARE(name) extern PFN_##name name;
IPT_VK_DECLARE(vkGetInstanceProcAddr)
IPT_VK_GLOBAL_FUNCTIONS(IPT_VK_DECLARE)
IPT_VK_INSTANCE_FUNCTIONS(IPT_VK_DECLARE)
IPT_VK_OPTIONAL_FUNCTIONS(IPT_VK_DECLARE)
#undef IPT_VK_DECLARE

// Opens the loader library. Returns "" on success or why it failed.
std::string load_loader();
// Resolves the instance-level entry points. Returns "" or the missing name.
std::string load_instance_functions(VkInstance instance);
void unload_loader();

const char* result_name(VkResult r);

// A zeroed Vulkan struct with its sType set (the `T x{sType}` idiom without
// tripping -Wmissing-field-initializers).
template <class T>
T vk_struct(VkStructureType type) {
    T value{};
    value.sType = type;
    return value;
}

// Status a Vulkan result becomes: out-of-memory results are
// IPT_ERR_OUT_OF_MEMORY, everything else (device lost included) IPT_ERR_DEVICE.
ipt_status status_of(VkResult r);

// Throws ipt::plugin::Error naming the call that failed and the result.
[[noreturn]] void throw_result(VkResult r, const char* what);

}  // namespace ipt::vk

#define IPT_VK_CHECK(expr)                                             \
    do {                                                               \
        VkResult ipt_vk_result_ = (expr);                              \
        if (ipt_vk_result_ != VK_SUCCESS) ::ipt::vk::throw_result(ipt_vk_result_, #expr); \
    } while (0)
