// SPDX-License-Identifier: Apache-2.0
// Images: allocation on any device, transfers through host memory.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <mutex>
#include <utility>
#include <vector>

#include "internal.hpp"
#include "tuning.hpp"

namespace ipt::reg {

namespace {

constexpr size_t host_alignment = 64;  // a cache line; wide vector loads
// Blocks that may be page-locked start and end on a page: a lock covers
// whole pages, which no other block may then share.
constexpr size_t host_page = 4096;

size_t host_block_alignment(uint64_t bytes) { return bytes >= kPinHostMinBytes ? host_page : host_alignment; }

// Bytes of the host block behind an image of `bytes`: at least one block, so
// that even an empty image has a valid address, rounded to the alignment.
uint64_t host_block_bytes(uint64_t bytes) {
    const uint64_t a = host_block_alignment(bytes);
    return ((bytes == 0 ? a : bytes) + a - 1) / a * a;
}

std::string device_label(const Device& d) { return d.kind + ":" + std::to_string(d.id); }

using Unpin = void (*)(void*);

// Undoes a page-lock (a plugin's host_unregister), then frees the block.
void free_host_block(void* p, Unpin unpin) {
    if (unpin) {
        try {
            unpin(p);
        } catch (...) {
            // A throwing host_unregister leaves the pages locked; the block still goes.
        }
    }
    std::free(p);
}

// Freed host blocks of 64 KiB and more, kept for the next image of the same
// size. A fresh block from the C library is mapped anew (glibc maps large
// blocks), so every call that produced a new output paid a page fault and
// the kernel's zeroing per 4 KiB page: 64 faults for a 512x512 uint8 image,
// 16 000 for an 8192x8192 one. A page-locked block stays locked here (locking
// costs about what a copy of it does), with what unlocks it. Process-wide,
// never destroyed (images may outlive their context, and a host program may
// free one at exit; plugin libraries stay mapped until exit, so the unlock
// function stays callable), at most IPT_HOST_CACHE_MB in all (default: a
// sixteenth of the machine's memory, from 256 MiB to 2 GiB, so that the
// 512 MiB double results of 8192x8192 calls are kept too: a fresh one cost
// 190-800 ms of faults and locking against 10 ms to copy it from a GPU),
// oldest dropped first. Off under AddressSanitizer, so that a use after free
// is still caught.
class HostBlockCache {
public:
    struct Block {
        void* p = nullptr;
        Unpin unpin = nullptr;
    };
    static HostBlockCache& instance() {
        static HostBlockCache* cache = new HostBlockCache;
        return *cache;
    }
    Block take(size_t bytes) {
        if (bytes < kMinBytes || capacity_ == 0) return {};
        std::lock_guard lock(mutex_);
        for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it)
            if (it->bytes == bytes) {
                const Block b{it->p, it->unpin};
                blocks_.erase(std::next(it).base());
                held_ -= bytes;
                return b;
            }
        return {};
    }
    // Keeps the block (true) or leaves it to the caller to free.
    bool give(void* p, size_t bytes, Unpin unpin) {
        if (!p || bytes < kMinBytes || bytes > capacity_) return false;
        std::vector<Entry> drop;
        {
            std::lock_guard lock(mutex_);
            while (held_ + bytes > capacity_ && !blocks_.empty()) {
                drop.push_back(blocks_.front());
                held_ -= blocks_.front().bytes;
                blocks_.erase(blocks_.begin());
            }
            blocks_.push_back({p, bytes, unpin});
            held_ += bytes;
        }
        for (const Entry& d : drop) free_host_block(d.p, d.unpin);
        return true;
    }

private:
    static constexpr size_t kMinBytes = size_t{64} << 10;
    HostBlockCache() {
#if defined(__SANITIZE_ADDRESS__)
        capacity_ = 0;
#else
        capacity_ = default_capacity();
        if (const char* mb = std::getenv("IPT_HOST_CACHE_MB"); mb && *mb) {
            // A whole number of MiB up to kMaxHostCacheMb; anything else is
            // reported and the default kept.
            constexpr unsigned long long kMaxHostCacheMb = 1ull << 20;  // 1 TiB
            char* end = nullptr;
            errno = 0;
            const unsigned long long v = std::strtoull(mb, &end, 10);
            if (end && !*end && errno == 0 && mb[0] != '-' && v <= kMaxHostCacheMb)
                capacity_ = static_cast<size_t>(v) << 20;
            else
                host_log(2, "openipt",
                         (std::string("IPT_HOST_CACHE_MB='") + mb + "' is not a whole number of MiB from 0 to " +
                          std::to_string(kMaxHostCacheMb) + "; the default of " + std::to_string(capacity_ >> 20) +
                          " is used")
                             .c_str());
        }
#endif
    }
    static size_t default_capacity() {
        constexpr size_t kLeast = size_t{256} << 20, kMost = size_t{2} << 30;
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
        const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        if (pages > 0 && page > 0)
            return std::clamp(static_cast<size_t>(pages) / 16 * static_cast<size_t>(page), kLeast, kMost);
#endif
        return kLeast;
    }
    std::mutex mutex_;
    struct Entry {
        void* p;
        size_t bytes;
        Unpin unpin;
    };
    std::vector<Entry> blocks_;  // oldest first
    size_t held_ = 0, capacity_ = 0;
};

// Page-locks a new host block through the context's pinner, so that GPU
// copies from and into it skip the driver's staging. A refusal (a limit on
// locked memory, a plugin that cannot) leaves it pageable, said only at debug
// level: the image works the same, its copies are slower.
void pin_host_block(ipt_context* ctx, ipt_image& img, uint64_t bytes) {
    const ipt_plugin_table* pinner = ctx ? ctx->host_pinner.load() : nullptr;
    if (!pinner) return;
    ipt_status s = IPT_ERR_PLUGIN;
    try {
        s = pinner->host_register(img.host_block, bytes);
    } catch (...) {
        set_plugin_error("host_register threw a C++ exception");
    }
    if (s == IPT_OK) {
        img.host_unregister = pinner->host_unregister;
        return;
    }
    const std::string why = take_plugin_error();
    host_log(0, "openipt",
             ("a host image of " + std::to_string(bytes) + " bytes stays pageable: " +
              (why.empty() ? std::string(ipt_status_name(s)) : why))
                 .c_str());
}

// The shape of a tightly packed image (rows one after another, planes after
// the rows) on a device.
void describe_tensor(ipt_tensor& t, int32_t dtype, int64_t rows, int64_t cols, int64_t channels, uint32_t device) {
    t.struct_size = sizeof(ipt_tensor);
    t.dtype = dtype;
    t.rows = rows;
    t.cols = cols;
    t.channels = channels;
    t.row_pitch = cols * static_cast<int64_t>(dtype_size(dtype));
    t.device_id = device;
}

}  // namespace

std::string ImageRequest::prefix() const {
    if (!fn) return "";
    return std::string(fn) + (output ? std::string(": output '") + output + "' of " + (op ? op : "?") : "") + ": ";
}

ipt_status check_dims(int32_t dtype, int64_t rows, int64_t cols, int64_t channels, uint64_t* bytes,
                      const ImageRequest& who) {
    auto head = [&] { return who.prefix(); };
    const size_t elem = dtype_size(dtype);
    if (elem == 0)
        return fail(IPT_ERR_INVALID_ARGUMENT, head() + "dtype " + std::to_string(dtype) + " is not a class of OpenIPT");
    // Each dimension within IPT_IMAGE_MAX_DIM, so that sums and products of
    // two stay far from int64's end; the bytes within IPT_IMAGE_MAX_BYTES, so
    // that element counts, byte counts and row_pitch * rows do too. An empty
    // image is bounded the same way: loops over its other dimension must end.
    const struct {
        const char* name;
        int64_t value, least;
    } dims[] = {{"rows", rows, 0}, {"cols", cols, 0}, {"channels", channels, 1}};
    for (const auto& d : dims) {
        if (d.value < d.least)
            return fail(IPT_ERR_INVALID_ARGUMENT, head() + d.name + " must be >= " + std::to_string(d.least) + " (got " +
                                                      std::to_string(d.value) + ")");
        if (d.value > IPT_IMAGE_MAX_DIM)
            return fail(IPT_ERR_INVALID_ARGUMENT, head() + d.name + " " + std::to_string(d.value) +
                                                      " is more than IPT_IMAGE_MAX_DIM (" +
                                                      std::to_string(IPT_IMAGE_MAX_DIM) + ")");
    }
    // rows * cols < 2^62 fits; each further factor is checked before it is
    // applied.
    const uint64_t limit = static_cast<uint64_t>(IPT_IMAGE_MAX_BYTES);
    uint64_t n = static_cast<uint64_t>(rows) * static_cast<uint64_t>(cols);
    for (uint64_t f : {static_cast<uint64_t>(channels), static_cast<uint64_t>(elem)}) {
        if (n > limit / f)
            return fail(IPT_ERR_INVALID_ARGUMENT,
                        head() + "an image of " + std::to_string(rows) + " x " + std::to_string(cols) + " x " +
                            std::to_string(channels) + " " + dtype_name(dtype) +
                            " elements is more than IPT_IMAGE_MAX_BYTES (" + std::to_string(IPT_IMAGE_MAX_BYTES) +
                            " bytes)");
        n *= f;
    }
    *bytes = n;
    return IPT_OK;
}

ImagePtr allocate_image(ipt_context* ctx, const Device& dev, int32_t dtype, int64_t rows, int64_t cols,
                        int64_t channels, ipt_status* status, const ImageRequest& who) {
    uint64_t bytes = 0;
    *status = check_dims(dtype, rows, cols, channels, &bytes, who);
    if (*status != IPT_OK) return nullptr;

    auto owned = std::make_unique<ipt_image>();
    owned->alive = std::make_shared<char>(0);
    owned->ctx = ctx;
    owned->device = &dev;
    owned->bytes = bytes;
    // From here on the image holds a reference to its context; release_image
    // drops it.
    context_ref(ctx);
    ImagePtr img(owned.release());
    ipt_tensor& t = img->tensor;
    describe_tensor(t, dtype, rows, cols, channels, dev.id);
    // At least one block so that even an empty image has a valid address.
    const uint64_t alloc_bytes = bytes == 0 ? host_alignment : bytes;
    if (dev.is_host()) {
        const uint64_t rounded = host_block_bytes(bytes);
        const HostBlockCache::Block cached = HostBlockCache::instance().take(rounded);
        img->host_block = cached.p;
        img->host_unregister = cached.unpin;
        if (!img->host_block) img->host_block = std::aligned_alloc(host_block_alignment(bytes), rounded);
        if (!img->host_block) {
            *status = fail(IPT_ERR_OUT_OF_MEMORY, "cannot allocate " + std::to_string(bytes) +
                                                      " bytes of host memory for an image");
            return nullptr;
        }
        if (!img->host_unregister && bytes >= kPinHostMinBytes) pin_host_block(ctx, *img, rounded);
        t.data = img->host_block;
        t.buffer = img->host_block;
    } else {
        const ipt_plugin_table* tab = dev.owner->table;
        void* buffer = nullptr;
        void* address = nullptr;
        ipt_status s = IPT_ERR_PLUGIN;
        try {
            s = tab->mem_alloc ? tab->mem_alloc(dev.index_in_plugin, alloc_bytes, &buffer, &address)
                               : IPT_ERR_UNSUPPORTED;
        } catch (...) {
            set_plugin_error("mem_alloc threw a C++ exception");
            s = IPT_ERR_PLUGIN;
        }
        if (s != IPT_OK) {
            std::string why = take_plugin_error();
            *status = fail(s == IPT_OK ? IPT_ERR_PLUGIN : s,
                           "cannot allocate " + std::to_string(bytes) + " bytes on " +
                               device_label(dev) + (why.empty() ? "" : ": " + why));
            img->device = nullptr;  // nothing to return to the plugin
            return nullptr;
        }
        t.buffer = buffer;
        t.data = address;
    }
    *status = IPT_OK;
    return img;
}

void release_image(ipt_image* image, bool from_user) {
    if (!image) return;
    if (image->device && image->device->is_host()) {
        if (image->host_block &&
            !HostBlockCache::instance().give(image->host_block, host_block_bytes(image->bytes),
                                             image->host_unregister))
            free_host_block(image->host_block, image->host_unregister);
    } else if (image->device && !image->caller_memory) {
        const ipt_plugin_table* tab = image->device->owner->table;
        try {
            if (tab->mem_free) tab->mem_free(image->device->index_in_plugin, image->tensor.buffer);
        } catch (...) {
            // A throwing mem_free leaks its buffer; nothing else can be done.
        }
    }
    ipt_context* ctx = image->ctx;
    if (from_user) {
        retire_handle(image, HandleType::image);
    } else {
        image->tag = kTagImage ^ kFreedMask;
        delete image;
    }
    // Last: a destroyed context whose last image this was goes now.
    if (ctx) context_unref(ctx);
}

ipt_status sync_device(const Device& dev) {
    if (dev.is_host()) return IPT_OK;
    ipt_status s = IPT_ERR_PLUGIN;
    try {
        s = dev.owner->table->sync(dev.index_in_plugin);
    } catch (...) {
        set_plugin_error("sync threw a C++ exception");
    }
    if (s == IPT_OK) return IPT_OK;
    const std::string why = take_plugin_error();
    return fail(s, "work queued on " + dev.kind + ":" + std::to_string(dev.id) + " failed" +
                       (why.empty() ? "" : ": " + why));
}

ipt_status copy_bytes_to_host(const ipt_image* image, void* dst) {
    if (image->bytes == 0) return IPT_OK;
    if (image->device->is_host()) {
        std::memcpy(dst, image->tensor.data, image->bytes);
        return IPT_OK;
    }
    const Device& dev = *image->device;
    ipt_status s = IPT_ERR_PLUGIN;
    try {
        s = dev.owner->table->mem_download(dev.index_in_plugin, image->tensor.buffer,
                                           image->tensor.offset, dst, image->bytes);
    } catch (...) {
        set_plugin_error("mem_download threw a C++ exception");
    }
    if (s != IPT_OK) {
        std::string why = take_plugin_error();
        return fail(s, "download from " + device_label(dev) + " failed" + (why.empty() ? "" : ": " + why));
    }
    return IPT_OK;
}

ipt_status copy_bytes_from_host(ipt_image* image, const void* src) {
    if (image->bytes == 0) return IPT_OK;
    if (image->device->is_host()) {
        std::memcpy(image->tensor.data, src, image->bytes);
        return IPT_OK;
    }
    const Device& dev = *image->device;
    ipt_status s = IPT_ERR_PLUGIN;
    try {
        s = dev.owner->table->mem_upload(dev.index_in_plugin, image->tensor.buffer,
                                         image->tensor.offset, src, image->bytes);
    } catch (...) {
        set_plugin_error("mem_upload threw a C++ exception");
    }
    if (s != IPT_OK) {
        std::string why = take_plugin_error();
        return fail(s, "upload to " + device_label(dev) + " failed" + (why.empty() ? "" : ": " + why));
    }
    return IPT_OK;
}

ipt_status fill_poison(ipt_image* image, unsigned char byte) {
    // One byte everywhere (0xA5 by default): not 0 or 1 for logical, a value
    // rarely produced in the integer classes, a tiny odd number in the floats.
    if (image->device->is_host()) {
        std::memset(image->tensor.data, byte, image->bytes);
        return IPT_OK;
    }
    std::vector<unsigned char> pattern(image->bytes, byte);
    return copy_bytes_from_host(image, pattern.data());
}

ImagePtr copy_image(ipt_context* ctx, const ipt_image* src, const Device& dev, ipt_status* status) {
    const ipt_tensor& t = src->tensor;
    auto out = allocate_image(ctx, dev, t.dtype, t.rows, t.cols, t.channels, status);
    if (!out) return nullptr;
    if (src->device->is_host()) {
        *status = copy_bytes_from_host(out.get(), src->tensor.data);
    } else if (dev.is_host()) {
        *status = copy_bytes_to_host(src, out->tensor.data);
    } else {
        std::vector<unsigned char> staging(src->bytes);
        *status = copy_bytes_to_host(src, staging.data());
        if (*status == IPT_OK) *status = copy_bytes_from_host(out.get(), staging.data());
    }
    if (*status != IPT_OK) return nullptr;
    return out;
}

}  // namespace ipt::reg

using namespace ipt::reg;

namespace {

const Device* find_device(const ipt_context* ctx, uint32_t id) {
    std::shared_lock lock(ctx->mutex);
    return id < ctx->devices.size() ? &ctx->devices[id] : nullptr;
}

// Copies between a tightly packed buffer and a caller's buffer with a pitch.
void repitch(const unsigned char* src, int64_t src_pitch, unsigned char* dst, int64_t dst_pitch,
             int64_t rows_total, int64_t row_bytes) {
    for (int64_t r = 0; r < rows_total; ++r)
        std::memcpy(dst + r * dst_pitch, src + r * src_pitch, static_cast<size_t>(row_bytes));
}

// A caller's row pitch: 0 (tight), or at least a row and small enough that
// the offset of the last row fits in int64.
ipt_status check_pitch(const ipt_tensor& t, int64_t host_row_pitch, const char* fn) {
    if (host_row_pitch == 0) return IPT_OK;
    if (host_row_pitch < t.row_pitch || host_row_pitch < 0)
        return fail(IPT_ERR_INVALID_ARGUMENT, std::string(fn) + ": host_row_pitch " + std::to_string(host_row_pitch) +
                                                  " is smaller than a row (" + std::to_string(t.row_pitch) + " bytes)");
    const int64_t rows_total = t.rows * t.channels;
    if (rows_total > 0 && host_row_pitch > IPT_IMAGE_MAX_BYTES / rows_total)
        return fail(IPT_ERR_INVALID_ARGUMENT, std::string(fn) + ": host_row_pitch " + std::to_string(host_row_pitch) +
                                                  " times " + std::to_string(rows_total) +
                                                  " rows is more than IPT_IMAGE_MAX_BYTES");
    return IPT_OK;
}

}  // namespace

extern "C" {

IPT_API ipt_status ipt_image_create(ipt_context* ctx, uint32_t device_id, ipt_dtype dtype,
                                    int64_t rows, int64_t cols, int64_t channels, ipt_image** out) {
    return guard([&] {
        if (ipt_status s = check_handle(ctx, HandleType::context, "ipt_image_create", "ctx"); s != IPT_OK) return s;
        if (!out) return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_image_create: out is NULL");
        const Device* dev = find_device(ctx, device_id);
        if (!dev)
            return fail(IPT_ERR_NOT_FOUND, "ipt_image_create: no device with id " + std::to_string(device_id));
        ipt_status s = IPT_OK;
        auto img = allocate_image(ctx, *dev, dtype, rows, cols, channels, &s, {"ipt_image_create"});
        if (!img) return s;
        *out = img.release();
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_image_wrap_host(ipt_context* ctx, ipt_dtype dtype, int64_t rows, int64_t cols,
                                       int64_t channels, const void* data, int64_t row_pitch, ipt_image** out) {
    return guard([&] {
        constexpr const char* fn = "ipt_image_wrap_host";
        if (ipt_status s = check_handle(ctx, HandleType::context, fn, "ctx"); s != IPT_OK) return s;
        if (!out) return fail(IPT_ERR_INVALID_ARGUMENT, std::string(fn) + ": out is NULL");
        uint64_t bytes = 0;
        if (ipt_status s = check_dims(dtype, rows, cols, channels, &bytes, {fn}); s != IPT_OK) return s;
        const size_t elem = dtype_size(dtype);
        // Implementations read planes tightly packed: another pitch needs a copy (ipt_image_upload).
        if (row_pitch != 0 && row_pitch != cols * static_cast<int64_t>(elem))
            return fail(IPT_ERR_INVALID_ARGUMENT, std::string(fn) + ": row_pitch " + std::to_string(row_pitch) +
                                                      " must be 0 or cols * element size (" +
                                                      std::to_string(cols * static_cast<int64_t>(elem)) + ")");
        if (!data) return fail(IPT_ERR_INVALID_ARGUMENT, std::string(fn) + ": data is NULL");
        if (reinterpret_cast<uintptr_t>(data) % elem != 0)
            return fail(IPT_ERR_INVALID_ARGUMENT, std::string(fn) + ": data is not aligned to its element size (" +
                                                      std::to_string(elem) + " bytes)");
        auto img = std::make_unique<ipt_image>();
        img->alive = std::make_shared<char>(0);
        img->ctx = ctx;
        img->device = find_device(ctx, IPT_DEVICE_HOST);
        img->bytes = bytes;
        img->caller_memory = true;
        ipt_tensor& t = img->tensor;
        describe_tensor(t, dtype, rows, cols, channels, IPT_DEVICE_HOST);
        t.data = t.buffer = const_cast<void*>(data);  // read only: see caller_memory
        context_ref(ctx);  // dropped by release_image, as for every image
        *out = img.release();
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_image_wrap_device(ipt_context* ctx, uint32_t device_id, ipt_dtype dtype, int64_t rows,
                                         int64_t cols, int64_t channels, void* native_address, int64_t row_pitch,
                                         ipt_image** out) {
    return guard([&] {
        constexpr const char* fn = "ipt_image_wrap_device";
        const std::string head = std::string(fn) + ": ";
        if (ipt_status s = check_handle(ctx, HandleType::context, fn, "ctx"); s != IPT_OK) return s;
        if (!out) return fail(IPT_ERR_INVALID_ARGUMENT, head + "out is NULL");
        const Device* dev = find_device(ctx, device_id);
        if (!dev) return fail(IPT_ERR_NOT_FOUND, head + "device_id: no device with id " + std::to_string(device_id));
        if (dev->is_host())
            return fail(IPT_ERR_INVALID_ARGUMENT,
                        head + "device_id " + std::to_string(device_id) +
                            " is the host; wrap host memory with ipt_image_wrap_host");
        const Plugin& plugin = *dev->owner;
        if (!plugin.has_slot(IPT_SIZE_THROUGH(ipt_plugin_table, mem_wrap)) || !plugin.table->mem_wrap)
            return fail(IPT_ERR_UNSUPPORTED, head + "device_id " + std::to_string(device_id) + " (" +
                                                 device_label(*dev) + ", plugin '" + dev->plugin_name +
                                                 "') cannot wrap memory it did not allocate");
        uint64_t bytes = 0;
        if (ipt_status s = check_dims(dtype, rows, cols, channels, &bytes, {fn}); s != IPT_OK) return s;
        const int64_t row_bytes = cols * static_cast<int64_t>(dtype_size(dtype));
        if (row_pitch < 0 || (row_pitch != 0 && row_pitch < row_bytes))
            return fail(IPT_ERR_INVALID_ARGUMENT, head + "row_pitch " + std::to_string(row_pitch) +
                                                      " is smaller than a row (" + std::to_string(row_bytes) +
                                                      " bytes)");
        // Implementations read planes tightly packed: another pitch needs a copy.
        if (row_pitch != 0 && row_pitch != row_bytes)
            return fail(IPT_ERR_INVALID_ARGUMENT, head + "row_pitch " + std::to_string(row_pitch) +
                                                      " must be 0 or cols * element size (" +
                                                      std::to_string(row_bytes) +
                                                      "): implementations read tightly packed rows");
        if (!native_address) return fail(IPT_ERR_INVALID_ARGUMENT, head + "native_address is NULL");
        if (reinterpret_cast<uintptr_t>(native_address) % dtype_size(dtype) != 0)
            return fail(IPT_ERR_INVALID_ARGUMENT, head + "native_address is not aligned to its element size (" +
                                                      std::to_string(dtype_size(dtype)) + " bytes)");
        if (reinterpret_cast<uintptr_t>(native_address) > UINTPTR_MAX - bytes)
            return fail(IPT_ERR_INVALID_ARGUMENT, head + "native_address + " + std::to_string(bytes) +
                                                      " bytes wraps around the address space");
        void* buffer = nullptr;
        ipt_status s = IPT_ERR_PLUGIN;
        try {
            s = plugin.table->mem_wrap(dev->index_in_plugin, native_address, bytes, &buffer);
        } catch (...) {
            set_plugin_error("mem_wrap threw a C++ exception");
            s = IPT_ERR_PLUGIN;
        }
        if (s != IPT_OK) {
            const std::string why = take_plugin_error();
            return fail(s, head + "device_id " + std::to_string(device_id) + " (" + device_label(*dev) + ")" +
                               (why.empty() ? std::string(": the plugin refused native_address") : ": " + why));
        }
        auto img = std::make_unique<ipt_image>();
        img->alive = std::make_shared<char>(0);
        img->ctx = ctx;
        img->device = dev;
        img->bytes = bytes;
        img->caller_memory = true;
        ipt_tensor& t = img->tensor;
        describe_tensor(t, dtype, rows, cols, channels, dev->id);
        t.data = native_address;
        t.buffer = buffer;
        context_ref(ctx);  // dropped by release_image, as for every image
        *out = img.release();
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_image_native_address(const ipt_image* image, void** address, int64_t* row_pitch) {
    return guard([&] {
        constexpr const char* fn = "ipt_image_native_address";
        if (ipt_status s = check_handle(image, HandleType::image, fn, "image"); s != IPT_OK) return s;
        if (!address) return fail(IPT_ERR_INVALID_ARGUMENT, std::string(fn) + ": address is NULL");
        *address = image->tensor.data;
        if (row_pitch) *row_pitch = image->tensor.row_pitch;
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_set_native_stream(ipt_context* ctx, uint32_t device_id, void* stream) {
    return guard([&] {
        constexpr const char* fn = "ipt_set_native_stream";
        const std::string head = std::string(fn) + ": ";
        if (ipt_status s = check_handle(ctx, HandleType::context, fn, "ctx"); s != IPT_OK) return s;
        const Device* dev = find_device(ctx, device_id);
        if (!dev) return fail(IPT_ERR_NOT_FOUND, head + "device_id: no device with id " + std::to_string(device_id));
        if (dev->is_host())
            return fail(IPT_ERR_UNSUPPORTED, head + "device_id " + std::to_string(device_id) +
                                                 " is the host, which has no native queue");
        const Plugin& plugin = *dev->owner;
        if (!plugin.has_slot(IPT_SIZE_THROUGH(ipt_plugin_table, set_stream)) || !plugin.table->set_stream)
            return fail(IPT_ERR_UNSUPPORTED, head + "device_id " + std::to_string(device_id) + " (" +
                                                 device_label(*dev) + ", plugin '" + dev->plugin_name +
                                                 "') does not take a caller's queue");
        ipt_status s = IPT_ERR_PLUGIN;
        try {
            s = plugin.table->set_stream(dev->index_in_plugin, stream);
        } catch (...) {
            set_plugin_error("set_stream threw a C++ exception");
            s = IPT_ERR_PLUGIN;
        }
        if (s != IPT_OK) {
            const std::string why = take_plugin_error();
            return fail(s, head + "stream on device_id " + std::to_string(device_id) + " (" + device_label(*dev) +
                               ")" + (why.empty() ? "" : ": " + why));
        }
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_image_upload(ipt_image* image, const void* host, int64_t host_row_pitch) {
    return guard([&] {
        if (ipt_status s = check_handle(image, HandleType::image, "ipt_image_upload", "image"); s != IPT_OK) return s;
        if (image->caller_memory)
            return fail(IPT_ERR_INVALID_ARGUMENT,
                        "ipt_image_upload: image wraps the caller's memory (ipt_image_wrap_host or "
                        "ipt_image_wrap_device), which the library never writes");
        if (!host && image->bytes) return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_image_upload: host is NULL");
        const ipt_tensor& t = image->tensor;
        if (ipt_status s = check_pitch(t, host_row_pitch, "ipt_image_upload"); s != IPT_OK) return s;
        if (host_row_pitch == 0 || host_row_pitch == t.row_pitch) return copy_bytes_from_host(image, host);
        std::vector<unsigned char> tight(image->bytes);
        repitch(static_cast<const unsigned char*>(host), host_row_pitch, tight.data(), t.row_pitch,
                t.rows * t.channels, t.row_pitch);
        return copy_bytes_from_host(image, tight.data());
    });
}

// Read-outs this large or larger refine the copy model of their device.
constexpr uint64_t kObservedReadoutBytes = uint64_t{1} << 20;

IPT_API ipt_status ipt_image_download(const ipt_image* image, void* host, int64_t host_row_pitch) {
    return guard([&] {
        if (ipt_status s = check_handle(image, HandleType::image, "ipt_image_download", "image"); s != IPT_OK) return s;
        if (!host && image->bytes) return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_image_download: host is NULL");
        const ipt_tensor& t = image->tensor;
        if (ipt_status s = check_pitch(t, host_row_pitch, "ipt_image_download"); s != IPT_OK) return s;
        if (host_row_pitch == 0 || host_row_pitch == t.row_pitch) {
            // Large read-outs refine the device's copy model (the host's: a
            // memcpy that the selection prices, a GPU's download replacing it).
            // A device is synchronised first, so that the time is the copy's
            // and not the queued work's, which the download waits for anyway.
            const Device& dev = *image->device;
            const bool observe = image->bytes >= kObservedReadoutBytes && image->ctx;
            if (observe && !dev.is_host())
                if (ipt_status s = sync_device(dev); s != IPT_OK) return s;
            const auto t0 = std::chrono::steady_clock::now();
            const ipt_status s = copy_bytes_to_host(image, host);
            if (observe && s == IPT_OK)
                image->ctx->tuning->observe_readout(
                    image->device->identity, image->bytes,
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            return s;
        }
        std::vector<unsigned char> tight(image->bytes);
        ipt_status s = copy_bytes_to_host(image, tight.data());
        if (s != IPT_OK) return s;
        repitch(tight.data(), t.row_pitch, static_cast<unsigned char*>(host), host_row_pitch,
                t.rows * t.channels, t.row_pitch);
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_image_get_info(const ipt_image* image, ipt_image_info* out) {
    return guard([&] {
        if (ipt_status s = check_handle(image, HandleType::image, "ipt_image_get_info", "image"); s != IPT_OK) return s;
        if (!out) return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_image_get_info: out is NULL");
        if (out->struct_size < sizeof(uint32_t))
            return fail(IPT_ERR_ABI, "ipt_image_get_info: out->struct_size is not set");
        ipt_image_info info{};
        info.struct_size = out->struct_size;
        info.dtype = image->tensor.dtype;
        info.rows = image->tensor.rows;
        info.cols = image->tensor.cols;
        info.channels = image->tensor.channels;
        info.row_pitch = image->tensor.row_pitch;
        info.device_id = image->device->id;
        std::memcpy(out, &info, std::min<size_t>(out->struct_size, sizeof info));
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_image_copy_to(ipt_context* ctx, const ipt_image* image, uint32_t device_id,
                                     ipt_image** out) {
    return guard([&] {
        if (!ctx || !image || !out)
            return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_image_copy_to: ctx, image and out must not be NULL");
        if (ipt_status s = check_handle(ctx, HandleType::context, "ipt_image_copy_to", "ctx"); s != IPT_OK) return s;
        if (ipt_status s = check_handle(image, HandleType::image, "ipt_image_copy_to", "image"); s != IPT_OK) return s;
        const Device* dev = find_device(ctx, device_id);
        if (!dev)
            return fail(IPT_ERR_NOT_FOUND, "ipt_image_copy_to: no device with id " + std::to_string(device_id));
        ipt_status s = IPT_OK;
        auto img = copy_image(ctx, image, *dev, &s);
        if (!img) return s;
        *out = img.release();
        return IPT_OK;
    });
}

IPT_API void ipt_image_free(ipt_image* image) {
    if (!image) return;
    // A freed or foreign handle is left alone; the reason is the last error
    // (which a good handle leaves as it is: it may be freed at exit).
    if (check_handle(image, HandleType::image, "ipt_image_free", "image") != IPT_OK) return;
    release_image(image, true);
}

}  // extern "C"
