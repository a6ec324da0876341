// SPDX-License-Identifier: Apache-2.0
// Memory: blocks of VkDeviceMemory, each sub-allocated first-fit, buffers
// released once the work queued before them has completed, and transfers
// between host memory and buffers.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "device_internal.hpp"

namespace ipt::vk {

namespace {

constexpr VkDeviceSize kDeviceBlockBytes = 64ull << 20;
constexpr VkDeviceSize kHostBlockBytes = 16ull << 20;
// Emptied blocks are kept for later calls (a fresh vkAllocateMemory of a
// block costs far more than a call's work), up to 1/16 of their heap; the
// host-visible kinds (pinned host memory) at most 256 MiB.
constexpr VkDeviceSize kKeepEmptyHostBytes = 256ull << 20;
// Larger transfers go through staging buffers of this size, two in flight:
// the host copies one chunk while the GPU copies the other, and a transfer
// needs at most two chunks of host-visible memory, which the kept blocks
// above then serve (a whole-size staging buffer of a 512 MiB result would be
// pinned afresh on every call).
constexpr VkDeviceSize kStagingChunkBytes = 32ull << 20;

const char* kind_name(MemoryKind kind) {
    switch (kind) {
    case MemoryKind::DeviceLocal: return "device-local";
    case MemoryKind::Upload: return "upload";
    case MemoryKind::Params: return "params";
    case MemoryKind::Readback: return "readback";
    }
    return "?";
}

}  // namespace

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
    case MemoryKind::Params:
        need = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        prefer = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
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
    // Parameter blocks may live in the upload type too (below).
    auto usable = [&](const Block& b) {
        return b.kind == kind && (b.type == type || (kind == MemoryKind::Params && (req.memoryTypeBits >> b.type & 1u)));
    };
    for (auto& b : blocks_) {
        if (usable(*b) && place(b.get(), req.size, alignment, &offset)) {
            block = b.get();
            break;
        }
    }
    if (!block) {
        const VkDeviceSize standard =
            kind == MemoryKind::DeviceLocal ? kDeviceBlockBytes : kHostBlockBytes;
        const VkDeviceSize size = std::max(standard, (req.size + (1 << 20) - 1) >> 20 << 20);
        try {
            try {
                block = new_block(size, type, kind);
            } catch (const ipt::plugin::Error&) {
                // Device memory the host can map is small on some machines
                // (a 256 MiB window): parameter blocks then go where uploads do.
                const uint32_t upload = memory_type(req.memoryTypeBits, MemoryKind::Upload);
                if (kind != MemoryKind::Params || upload == type) throw;
                block = new_block(size, upload, kind);
            }
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

ipt::common::ParallelCopy& host_copy() {
    static auto* crew = ipt::common::ParallelCopy::for_plugin("vulkan");
    return *crew;
}

void Device::upload(Buffer* dst, uint64_t offset, const void* src, uint64_t bytes) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    const auto* from = static_cast<const uint8_t*>(src);
    uint64_t in_flight[2] = {0, 0};  // the submissions of the last two chunks
    for (uint64_t done = 0; done < bytes;) {
        const uint64_t n = std::min<uint64_t>(kStagingChunkBytes, bytes - done);
        // The chunk before last has left its staging buffer: the allocation
        // below reuses that memory.
        if (in_flight[0]) wait_for(in_flight[0]);
        Recorder rec(*this);
        rec.write(dst, offset + done, from + done, n);
        in_flight[0] = in_flight[1];
        in_flight[1] = rec.submit();
        done += n;
    }
}

void Device::download(Buffer* src, uint64_t offset, void* dst, uint64_t bytes) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    check_healthy();
    if (bytes == 0) {
        wait_for(submitted_);
        check_healthy();
        return;
    }
    struct Chunk {
        Buffer* staging;
        uint64_t value, at, bytes;
    };
    std::vector<Chunk> in_flight;  // at most two, oldest first
    auto* to = static_cast<uint8_t*>(dst);
    auto finish_oldest = [&] {
        const Chunk c = in_flight.front();
        wait_for(c.value);
        host_copy().copy(to + c.at, c.staging->mapped, c.bytes);
        in_flight.erase(in_flight.begin());
        release_after(c.staging, c.value);
    };
    try {
        for (uint64_t done = 0; done < bytes;) {
            const uint64_t n = std::min<uint64_t>(kStagingChunkBytes, bytes - done);
            Buffer* staging = allocate(n, MemoryKind::Readback);
            uint64_t value = 0;
            try {
                Recorder rec(*this);
                rec.copy(src, offset + done, staging, 0, n);
                value = rec.submit();
            } catch (...) {
                release_after(staging, submitted_);
                throw;
            }
            in_flight.push_back({staging, value, done, n});
            done += n;
            if (in_flight.size() == 2) finish_oldest();
        }
        while (!in_flight.empty()) finish_oldest();
    } catch (...) {
        for (const Chunk& c : in_flight) release_after(c.staging, submitted_);
        throw;
    }
    collect();
    check_healthy();
}

}  // namespace ipt::vk
