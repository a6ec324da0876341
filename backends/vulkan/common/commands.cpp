// SPDX-License-Identifier: Apache-2.0
// Command recording and submission: Recorder, in-order submission on one
// queue with a timeline semaphore, command buffer reuse, waiting, and the
// IPT_VULKAN_TIMING report.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "device_internal.hpp"

namespace ipt::vk {

namespace {

// Timestamp queries per pool (pairs: one dispatch takes two).
constexpr uint32_t kQueriesPerPool = 64;
// Long enough for any honest kernel on lavapipe; a hang becomes an error.
constexpr uint64_t kWaitTimeoutNs = 600ull * 1000 * 1000 * 1000;

}  // namespace

CallInProgress& call_in_progress() {
    thread_local CallInProgress call;
    return call;
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

void Device::sync() {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    check_healthy();
    wait_for(submitted_);
    collect();
    check_healthy();
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
    Buffer* b = device_.allocate(std::max<size_t>(bytes, 16), MemoryKind::Params);
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
    host_copy().copy(staging->mapped, data, bytes);
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
        if (call.op && call.variant && *call.variant) timed_.op += std::string("@") + call.variant;
        timed_.host_ms = call.op ? ms_since(call.start) : 0;
        device_.add_timed(std::move(timed_));
        timed_ = TimedSubmission{};
    }
    device_.check_healthy();
    return value;
}

}  // namespace ipt::vk
