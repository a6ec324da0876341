// SPDX-License-Identifier: Apache-2.0
// Vulkan devices of libipt_vulkan: instance and device set-up, a sub-allocator
// for device memory, in-order submission on one queue with a timeline
// semaphore, deferred release of everything queued work may still use, and
// compute pipelines (built from the embedded SPIR-V, cached on disk).
// Defined in instance.cpp (Instance, Device set-up and health), memory.cpp
// (allocation, release, host transfers), commands.cpp (Recorder, submission,
// waiting, IPT_VULKAN_TIMING) and pipelines.cpp (pipelines, attachments).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "vk_api.hpp"

namespace ipt::vk {

class Device;
struct Block;

// Where an allocation lives.
enum class MemoryKind {
    DeviceLocal,  // images and scratch
    Upload,       // staging for uploads (host writes)
    Params,       // per-call parameter blocks that shaders read (host writes; in device memory where the
                  // host can map it: a shader's misses then go to device memory, not across the bus)
    Readback      // staging for downloads (host reads)
};

// One sub-allocation: its own VkBuffer bound to a range of a shared
// VkDeviceMemory block. This is what mem_alloc hands the host as "buffer".
struct Buffer {
    Device* device = nullptr;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceAddress address = 0;   // of byte 0 of the buffer
    VkDeviceSize size = 0;         // bytes the caller asked for
    Block* block = nullptr;
    VkDeviceSize block_offset = 0; // range taken in the block
    VkDeviceSize block_bytes = 0;
    uint8_t* mapped = nullptr;     // host address (host-visible kinds only)
};

// Embedded SPIR-V of one shader (generated at build time, see CMakeLists.txt).
struct ShaderCode {
    const char* name;
    const uint32_t* words;
    size_t word_count;
};
const ShaderCode* find_shader(const std::string& name);

// IPT_VULKAN_TIMING=1: the operator call this thread is running (set by
// run_op), so that the report names it and gives its host time to submit.
struct CallInProgress {
    const char* op = nullptr;
    const char* variant = "";  // the implementation's ("wave32", "wave64", ...)
    std::chrono::steady_clock::time_point start;
};
CallInProgress& call_in_progress();  // this thread's

// One dispatch timed by two GPU timestamps (IPT_VULKAN_TIMING=1).
struct TimedDispatch {
    std::string shader;
    uint32_t groups[3] = {0, 0, 0};  // all 0: an indirect dispatch
    VkQueryPool pool = VK_NULL_HANDLE;
    uint32_t first_query = 0;        // start; first_query + 1: end
};

// The timed dispatches of one submission, reported once it completes.
struct TimedSubmission {
    uint64_t value = 0;              // timeline value of the submission
    std::string op;                  // "ipt.conv2" or, for a variant, "ipt.conv2@wave64"
    double host_ms = 0;              // run_op's start to the submit
    std::vector<TimedDispatch> dispatches;
    std::vector<VkQueryPool> pools;  // destroyed after the report
};

// Largest push-constant block any shader declares (the guaranteed minimum).
constexpr uint32_t kPushConstantBytes = 128;

// State an operator keeps per device across calls (conv2's FFT plans). The
// device destroys its attachments after its queue is idle and before the
// VkDevice, so they may hold Vulkan objects and buffers of the device.
struct DeviceAttachment {
    virtual ~DeviceAttachment() = default;
};

class Device {
public:
    Device(VkInstance instance, VkPhysicalDevice physical, uint32_t index);
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    // Why a physical device cannot be used ("" if it can).
    static std::string unsuitable(VkPhysicalDevice physical);

    const ipt_device_desc& desc() const { return desc_; }
    uint32_t index() const { return index_; }
    VkDevice handle() const { return device_; }
    VkPhysicalDevice physical() const { return physical_; }
    VkQueue queue() const { return queue_; }
    VkCommandPool command_pool() const { return command_pool_; }
    uint32_t subgroup_size() const { return subgroup_size_; }
    bool can_require_subgroup_size(uint32_t size) const;
    uint32_t max_workgroup_invocations() const { return max_workgroup_invocations_; }
    uint32_t max_shared_bytes() const { return max_shared_bytes_; }
    uint32_t max_group_count(int axis) const { return max_group_count_[axis]; }
    uint32_t vendor_id() const { return vendor_id_; }

    // Held by everything that touches the queue or the allocator.
    std::recursive_mutex& mutex() { return mutex_; }

    // Memory. release() waits for nothing: the buffer is freed once the work
    // queued so far has completed.
    Buffer* allocate(VkDeviceSize bytes, MemoryKind kind);
    void release(Buffer* buffer);

    // Transfers between host memory and a buffer (offset in bytes). upload
    // returns once the data is staged; download waits for the queue.
    void upload(Buffer* dst, uint64_t offset, const void* src, uint64_t bytes);
    void download(Buffer* src, uint64_t offset, void* dst, uint64_t bytes);
    // Waits for all queued work; reports an error raised by it.
    void sync();

    // A compute pipeline for a shader with its specialisation constants
    // (constant_id i = constants[i]) and, when non-zero and offered, a
    // required subgroup size.
    VkPipeline pipeline(const std::string& shader, const std::vector<uint32_t>& constants,
                        uint32_t required_subgroup = 0);
    VkPipelineLayout pipeline_layout() const { return layout_; }

    // Submission bookkeeping used by Recorder.
    VkCommandBuffer acquire_command_buffer();
    uint64_t submit(VkCommandBuffer cb);           // returns the timeline value
    void recycle_command_buffer(VkCommandBuffer cb, uint64_t value);
    void release_after(Buffer* buffer, uint64_t value);
    uint64_t last_submitted() const { return submitted_; }
    void wait_for(uint64_t value);
    // Frees what completed work no longer needs (called on every entry).
    void collect();
    // Throws if the device was lost or validation reported errors.
    void check_healthy();
    // Records a failed Vulkan result: a lost device stays lost.
    [[noreturn]] void fail(VkResult r, const char* what);

    // IPT_VULKAN_TIMING=1 on a queue with timestamps: Recorder brackets each
    // dispatch with timestamps; collect() prints them once the work is done.
    bool timing_enabled() const { return timing_; }
    const std::string& pipeline_shader(VkPipeline pipeline) const;
    void add_timed(TimedSubmission submission);

    void save_pipeline_cache();
    // A file of this device in the folder of the pipeline cache:
    // <folder>/<stem>-<device key>.bin, or "" when there is no such folder.
    std::string cache_file_path(const std::string& stem) const;

    // The attachment filed under `key`, or nullptr. Callers hold mutex().
    DeviceAttachment* attachment(const std::string& key);
    DeviceAttachment& attach(const std::string& key, std::unique_ptr<DeviceAttachment> value);

private:
    void create_device();
    void describe();
    uint32_t memory_type(uint32_t type_bits, MemoryKind kind) const;
    Block* new_block(VkDeviceSize bytes, uint32_t type, MemoryKind kind);
    bool place(Block* block, VkDeviceSize bytes, VkDeviceSize alignment, VkDeviceSize* offset);
    void free_range(Block* block, VkDeviceSize offset, VkDeviceSize bytes);
    void destroy_buffer(Buffer* buffer);
    std::string pipeline_cache_path() const { return cache_file_path("vulkan-pipelines"); }
    void load_pipeline_cache();
    uint64_t completed_value();
    void report_timings(uint64_t done);

    VkInstance instance_;
    VkPhysicalDevice physical_;
    uint32_t index_;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t queue_family_ = 0;
    VkSemaphore timeline_ = VK_NULL_HANDLE;
    VkCommandPool command_pool_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipelineCache pipeline_cache_ = VK_NULL_HANDLE;
    size_t pipelines_at_load_ = 0;

    std::recursive_mutex mutex_;
    uint64_t submitted_ = 0;
    uint64_t completed_ = 0;
    bool spin_before_wait_ = false;  // a GPU: poll briefly before blocking (see wait_for)
    bool lost_ = false;
    std::string lost_message_;

    VkPhysicalDeviceMemoryProperties memory_props_{};
    VkDeviceSize min_alignment_ = 256;
    std::vector<std::unique_ptr<Block>> blocks_;
    std::vector<std::pair<uint64_t, Buffer*>> pending_release_;
    std::vector<std::pair<VkCommandBuffer, uint64_t>> command_buffers_;  // idle, with last use

    std::map<std::string, VkShaderModule> modules_;
    std::map<std::pair<std::string, std::vector<uint32_t>>, VkPipeline> pipelines_;
    std::map<VkPipeline, std::string> pipeline_shaders_;
    std::map<std::string, std::unique_ptr<DeviceAttachment>> attachments_;

    uint32_t subgroup_size_ = 0;
    uint32_t min_subgroup_ = 0, max_subgroup_ = 0;
    bool subgroup_control_ = false;
    uint32_t max_workgroup_invocations_ = 128;
    uint32_t max_shared_bytes_ = 16384;
    uint32_t max_group_count_[3] = {65535, 65535, 65535};
    uint32_t vendor_id_ = 0;
    bool timing_ = false;
    double timestamp_period_ns_ = 1;
    uint64_t timestamp_mask_ = ~0ull;  // the queue's timestampValidBits
    std::vector<TimedSubmission> timed_;

    ipt_device_desc desc_{};
    std::string name_, vendor_, identity_, cache_key_;
};

// The process-wide Vulkan instance and the devices it found.
class Instance {
public:
    static Instance& get();
    // Creates the instance and devices. Never throws; afterwards note() says
    // why there are no devices when there are none.
    void init();
    void shutdown();

    uint32_t device_count() const { return static_cast<uint32_t>(devices_.size()); }
    Device& device(uint32_t index) { return *devices_.at(index); }
    // The plugin table's device list: one pointer per device.
    const ipt_device_desc* const* descs() const { return descs_.empty() ? nullptr : descs_.data(); }
    const std::string& note() const { return note_; }
    VkInstance handle() const { return instance_; }

    // Validation messages (IPT_VULKAN_VALIDATION=1): errors are counted and
    // the first not yet reported becomes the error of the next call.
    void on_validation_error(const std::string& message);
    // Returns "" or a message about validation errors not reported yet.
    std::string take_validation_errors();
    bool validation_enabled() const { return validation_; }

private:
    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    bool validation_ = false;
    bool initialised_ = false;
    std::vector<std::unique_ptr<Device>> devices_;
    std::vector<const ipt_device_desc*> descs_;
    std::string note_;
    std::mutex validation_mutex_;
    uint64_t validation_errors_ = 0;
    uint64_t validation_reported_ = 0;
    std::string validation_first_;
};

// Records one call's commands into one command buffer and submits it. Holds
// the device lock from construction to destruction. Every command is preceded
// by a full memory barrier, so calls and the commands of one call run as if
// one after another (the queue is in order; barriers make it so for memory).
class Recorder {
public:
    explicit Recorder(Device& device);
    ~Recorder();
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    Device& device() { return device_; }

    // Copies host data into a host-visible buffer that lives until the work
    // completes; returns its device address (16-byte aligned).
    VkDeviceAddress params(const void* data, size_t bytes);
    template <class T>
    VkDeviceAddress params(const std::vector<T>& v) {
        return params(v.data(), v.size() * sizeof(T));
    }
    // Device-local scratch that lives until the work completes.
    Buffer* scratch(VkDeviceSize bytes);

    void dispatch(VkPipeline pipeline, const void* push, uint32_t push_bytes, uint32_t groups_x,
                  uint32_t groups_y = 1, uint32_t groups_z = 1);
    void dispatch_indirect(VkPipeline pipeline, const void* push, uint32_t push_bytes,
                           Buffer* args, VkDeviceSize offset);
    void fill(Buffer* buffer, VkDeviceSize offset, VkDeviceSize bytes, uint32_t value);
    void copy(Buffer* src, VkDeviceSize src_offset, Buffer* dst, VkDeviceSize dst_offset,
              VkDeviceSize bytes);
    // Host data copied into dst (through a staging buffer).
    void write(Buffer* dst, VkDeviceSize offset, const void* data, VkDeviceSize bytes);
    // The command buffer, for commands a library records itself (VkFFT),
    // after the same full barrier as our own commands; our next command is
    // preceded by one again. The library must leave the buffer recording.
    VkCommandBuffer external_commands();

    // Ends and submits; returns the timeline value. A recorder destroyed
    // without submit() (an error on the way) discards what it recorded.
    uint64_t submit();

private:
    void barrier();
    // IPT_VULKAN_TIMING: a timestamp after everything recorded so far.
    uint32_t timestamp();

    Device& device_;
    std::unique_lock<std::recursive_mutex> lock_;
    VkCommandBuffer cb_ = VK_NULL_HANDLE;
    bool recorded_ = false;
    bool submitted_ = false;
    std::vector<Buffer*> transient_;
    TimedSubmission timed_;  // IPT_VULKAN_TIMING only
    uint32_t queries_used_ = 0;  // in timed_.pools.back()
};

}  // namespace ipt::vk
