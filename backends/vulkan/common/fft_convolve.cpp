// SPDX-License-Identifier: Apache-2.0
#include "fft_convolve.hpp"


#include <algorithm>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "common/file_access.hpp"

#if IPT_HAVE_SPIRV_TOOLS
#include <spirv-tools/libspirv.h>
#endif

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>

// VkFFT calls the Vulkan entry points by their plain names: here they are the
// plugin's own pointers (vk_api.hpp), resolved from the instance.
using ipt::vk::vkAllocateCommandBuffers;
using ipt::vk::vkAllocateDescriptorSets;
using ipt::vk::vkAllocateMemory;
using ipt::vk::vkBeginCommandBuffer;
using ipt::vk::vkBindBufferMemory;
using ipt::vk::vkCmdBindDescriptorSets;
using ipt::vk::vkCmdBindPipeline;
using ipt::vk::vkCmdCopyBuffer;
using ipt::vk::vkCmdDispatch;
using ipt::vk::vkCmdPipelineBarrier;
using ipt::vk::vkCmdPushConstants;
using ipt::vk::vkCreateBuffer;
using ipt::vk::vkCreateComputePipelines;
using ipt::vk::vkCreateDescriptorPool;
using ipt::vk::vkCreateDescriptorSetLayout;
using ipt::vk::vkCreatePipelineLayout;
using ipt::vk::vkCreateShaderModule;
using ipt::vk::vkDestroyBuffer;
using ipt::vk::vkDestroyDescriptorPool;
using ipt::vk::vkDestroyDescriptorSetLayout;
using ipt::vk::vkDestroyPipeline;
using ipt::vk::vkDestroyPipelineLayout;
using ipt::vk::vkDestroyShaderModule;
using ipt::vk::vkEndCommandBuffer;
using ipt::vk::vkFreeCommandBuffers;
using ipt::vk::vkFreeMemory;
using ipt::vk::vkGetBufferMemoryRequirements;
using ipt::vk::vkGetPhysicalDeviceMemoryProperties;
using ipt::vk::vkGetPhysicalDeviceProperties;
using ipt::vk::vkMapMemory;
using ipt::vk::vkQueueSubmit;
using ipt::vk::vkResetFences;
using ipt::vk::vkUnmapMemory;
using ipt::vk::vkUpdateDescriptorSets;
using ipt::vk::vkWaitForFences;

namespace {

// VkFFT 1.2.26 initialises glslang's resource limits positionally, in the
// layout of glslang 11; glslang 12 (Debian 12) inserted fields, so that
// initialiser does not compile. Inside the VkFFT header the limits are of this
// type instead: it takes the same list and holds glslang's own default limits,
// which are the values VkFFT lists.
struct IgnoredLimit {
    IgnoredLimit(int) {}
    IgnoredLimit(std::initializer_list<int>) {}
};
struct GlslangDefaultLimits : glslang_resource_t {
    GlslangDefaultLimits(std::initializer_list<IgnoredLimit>) : glslang_resource_t(*glslang_default_resource()) {}
};

}  // namespace

#define glslang_resource_t GlslangDefaultLimits
#define VKFFT_BACKEND 0
#include <vkFFT.h>
#undef glslang_resource_t

namespace ipt::vk {

namespace {

const char* vkfft_result_name(VkFFTResult r) {
    switch (r) {
#define IPT_VKFFT_RESULTS(X) \
    X(VKFFT_SUCCESS) \
    X(VKFFT_ERROR_MALLOC_FAILED) \
    X(VKFFT_ERROR_INSUFFICIENT_CODE_BUFFER) \
    X(VKFFT_ERROR_INSUFFICIENT_TEMP_BUFFER) \
    X(VKFFT_ERROR_PLAN_NOT_INITIALIZED) \
    X(VKFFT_ERROR_NULL_TEMP_PASSED) \
    X(VKFFT_ERROR_INVALID_PHYSICAL_DEVICE) \
    X(VKFFT_ERROR_INVALID_DEVICE) \
    X(VKFFT_ERROR_INVALID_QUEUE) \
    X(VKFFT_ERROR_INVALID_COMMAND_POOL) \
    X(VKFFT_ERROR_INVALID_FENCE) \
    X(VKFFT_ERROR_ONLY_FORWARD_FFT_INITIALIZED) \
    X(VKFFT_ERROR_ONLY_INVERSE_FFT_INITIALIZED) \
    X(VKFFT_ERROR_INVALID_CONTEXT) \
    X(VKFFT_ERROR_INVALID_PLATFORM) \
    X(VKFFT_ERROR_ENABLED_saveApplicationToString) \
    X(VKFFT_ERROR_EMPTY_FILE) \
    X(VKFFT_ERROR_EMPTY_FFTdim) \
    X(VKFFT_ERROR_EMPTY_size) \
    X(VKFFT_ERROR_EMPTY_bufferSize) \
    X(VKFFT_ERROR_EMPTY_buffer) \
    X(VKFFT_ERROR_EMPTY_tempBufferSize) \
    X(VKFFT_ERROR_EMPTY_tempBuffer) \
    X(VKFFT_ERROR_EMPTY_inputBufferSize) \
    X(VKFFT_ERROR_EMPTY_inputBuffer) \
    X(VKFFT_ERROR_EMPTY_outputBufferSize) \
    X(VKFFT_ERROR_EMPTY_outputBuffer) \
    X(VKFFT_ERROR_EMPTY_kernelSize) \
    X(VKFFT_ERROR_EMPTY_kernel) \
    X(VKFFT_ERROR_EMPTY_applicationString) \
    X(VKFFT_ERROR_EMPRY_useCustomBluesteinPaddingPattern_arrays) \
    X(VKFFT_ERROR_UNSUPPORTED_RADIX) \
    X(VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH) \
    X(VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C) \
    X(VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_DCT) \
    X(VKFFT_ERROR_UNSUPPORTED_FFT_OMIT) \
    X(VKFFT_ERROR_FAILED_TO_ALLOCATE) \
    X(VKFFT_ERROR_FAILED_TO_MAP_MEMORY) \
    X(VKFFT_ERROR_FAILED_TO_ALLOCATE_COMMAND_BUFFERS) \
    X(VKFFT_ERROR_FAILED_TO_BEGIN_COMMAND_BUFFER) \
    X(VKFFT_ERROR_FAILED_TO_END_COMMAND_BUFFER) \
    X(VKFFT_ERROR_FAILED_TO_SUBMIT_QUEUE) \
    X(VKFFT_ERROR_FAILED_TO_WAIT_FOR_FENCES) \
    X(VKFFT_ERROR_FAILED_TO_RESET_FENCES) \
    X(VKFFT_ERROR_FAILED_TO_CREATE_DESCRIPTOR_POOL) \
    X(VKFFT_ERROR_FAILED_TO_CREATE_DESCRIPTOR_SET_LAYOUT) \
    X(VKFFT_ERROR_FAILED_TO_ALLOCATE_DESCRIPTOR_SETS) \
    X(VKFFT_ERROR_FAILED_TO_CREATE_PIPELINE_LAYOUT) \
    X(VKFFT_ERROR_FAILED_SHADER_PREPROCESS) \
    X(VKFFT_ERROR_FAILED_SHADER_PARSE) \
    X(VKFFT_ERROR_FAILED_SHADER_LINK) \
    X(VKFFT_ERROR_FAILED_SPIRV_GENERATE) \
    X(VKFFT_ERROR_FAILED_TO_CREATE_SHADER_MODULE) \
    X(VKFFT_ERROR_FAILED_TO_CREATE_INSTANCE) \
    X(VKFFT_ERROR_FAILED_TO_SETUP_DEBUG_MESSENGER) \
    X(VKFFT_ERROR_FAILED_TO_FIND_PHYSICAL_DEVICE) \
    X(VKFFT_ERROR_FAILED_TO_CREATE_DEVICE) \
    X(VKFFT_ERROR_FAILED_TO_CREATE_FENCE) \
    X(VKFFT_ERROR_FAILED_TO_CREATE_COMMAND_POOL) \
    X(VKFFT_ERROR_FAILED_TO_CREATE_BUFFER) \
    X(VKFFT_ERROR_FAILED_TO_ALLOCATE_MEMORY) \
    X(VKFFT_ERROR_FAILED_TO_BIND_BUFFER_MEMORY) \
    X(VKFFT_ERROR_FAILED_TO_FIND_MEMORY) \
    X(VKFFT_ERROR_FAILED_TO_SYNCHRONIZE) \
    X(VKFFT_ERROR_FAILED_TO_COPY) \
    X(VKFFT_ERROR_FAILED_TO_CREATE_PROGRAM) \
    X(VKFFT_ERROR_FAILED_TO_COMPILE_PROGRAM) \
    X(VKFFT_ERROR_FAILED_TO_GET_CODE_SIZE) \
    X(VKFFT_ERROR_FAILED_TO_GET_CODE) \
    X(VKFFT_ERROR_FAILED_TO_DESTROY_PROGRAM) \
    X(VKFFT_ERROR_FAILED_TO_LOAD_MODULE) \
    X(VKFFT_ERROR_FAILED_TO_GET_FUNCTION) \
    X(VKFFT_ERROR_FAILED_TO_SET_DYNAMIC_SHARED_MEMORY) \
    X(VKFFT_ERROR_FAILED_TO_MODULE_GET_GLOBAL) \
    X(VKFFT_ERROR_FAILED_TO_LAUNCH_KERNEL) \
    X(VKFFT_ERROR_FAILED_TO_EVENT_RECORD) \
    X(VKFFT_ERROR_FAILED_TO_ADD_NAME_EXPRESSION) \
    X(VKFFT_ERROR_FAILED_TO_INITIALIZE) \
    X(VKFFT_ERROR_FAILED_TO_SET_DEVICE_ID) \
    X(VKFFT_ERROR_FAILED_TO_GET_DEVICE) \
    X(VKFFT_ERROR_FAILED_TO_CREATE_CONTEXT) \
    X(VKFFT_ERROR_FAILED_TO_CREATE_PIPELINE) \
    X(VKFFT_ERROR_FAILED_TO_SET_KERNEL_ARG) \
    X(VKFFT_ERROR_FAILED_TO_CREATE_COMMAND_QUEUE) \
    X(VKFFT_ERROR_FAILED_TO_RELEASE_COMMAND_QUEUE) \
    X(VKFFT_ERROR_FAILED_TO_ENUMERATE_DEVICES) \
    X(VKFFT_ERROR_FAILED_TO_GET_ATTRIBUTE) \
    X(VKFFT_ERROR_FAILED_TO_CREATE_EVENT) \
    X(VKFFT_ERROR_FAILED_TO_CREATE_COMMAND_LIST) \
    X(VKFFT_ERROR_FAILED_TO_DESTROY_COMMAND_LIST) \
    X(VKFFT_ERROR_FAILED_TO_SUBMIT_BARRIER)
#define IPT_VKFFT_NAME(x) \
    case x: return #x;
        IPT_VKFFT_RESULTS(IPT_VKFFT_NAME)
#undef IPT_VKFFT_NAME
#undef IPT_VKFFT_RESULTS
    }
    return "VkFFTResult";
}

ipt_status vkfft_status(VkFFTResult r) {
    switch (r) {
    case VKFFT_ERROR_MALLOC_FAILED:
    case VKFFT_ERROR_FAILED_TO_ALLOCATE:
    case VKFFT_ERROR_FAILED_TO_ALLOCATE_MEMORY:
    case VKFFT_ERROR_FAILED_TO_ALLOCATE_COMMAND_BUFFERS:
    case VKFFT_ERROR_FAILED_TO_ALLOCATE_DESCRIPTOR_SETS:
    case VKFFT_ERROR_FAILED_TO_CREATE_DESCRIPTOR_POOL:
    case VKFFT_ERROR_FAILED_TO_FIND_MEMORY: return IPT_ERR_OUT_OF_MEMORY;
    case VKFFT_ERROR_UNSUPPORTED_RADIX:
    case VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH:
    case VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C: return IPT_ERR_UNSUPPORTED;
    default: return IPT_ERR_DEVICE;
    }
}

[[noreturn]] void throw_vkfft(VkFFTResult r, const std::string& what) {
    throw ipt::plugin::Error(vkfft_status(r), what + " failed: " + vkfft_result_name(r) + " (" +
                                                  std::to_string(static_cast<int>(r)) + ")");
}

// Plans kept per device: the least recently used goes when there are more,
// or when their buffers together exceed the budget.
constexpr size_t kMaxPlans = 8;
constexpr VkDeviceSize kMaxPlanBytes = VkDeviceSize(1) << 30;

// Smallest m >= n whose prime factors are 2, 3, 5 and 7 (a multiple of 2 when
// even is set): VkFFT runs such lengths as one sequence of radix passes.
int64_t smooth_length(int64_t n, bool even) {
    for (int64_t m = std::max<int64_t>(n, 2);; ++m) {
        if (even && m % 2) continue;
        int64_t r = m;
        for (int64_t p : {2, 3, 5, 7})
            while (r % p == 0) r /= p;
        if (r == 1) return m;
    }
}

// --- VkFFT's kernels on disk ---------------------------------------------------
//
// VkFFT (Vulkan) saves a plan's kernels as consecutive records, each a uint32
// byte count and that many bytes of SPIR-V, padded to whole words; loading
// (loadApplicationFromString) reads one record per kernel it would otherwise
// compile and advances by count/4 + 1 words, without any bounds check, and
// hands each record to vkCreateShaderModule. So before VkFFT sees a blob it is
// checked completely here: every record lies inside the blob, each is a
// well-formed SPIR-V module (header and instruction stream walked to its end,
// and SPIRV-Tools' validator where the build has it), and the records number
// what was stored with the entry when it was saved.

constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr size_t kSpirvHeaderWords = 5;
// Spare records after a loaded blob (see spare_kernel_records); a 2-D plan
// has a few kernels per axis.
constexpr int kSpareKernels = 64;

// The header and the instruction stream of one module, walked to its end.
bool well_formed_spirv(const uint32_t* w, size_t n) {
    if (n <= kSpirvHeaderWords || w[0] != kSpirvMagic) return false;
    const uint32_t version = w[1];
    if ((version & 0xFF0000FFu) != 0 || (version >> 16) != 1 || ((version >> 8) & 0xFF) > 6) return false;
    if (w[3] == 0 || w[3] > (1u << 22) || w[4] != 0) return false;  // id bound, reserved schema
    size_t i = kSpirvHeaderWords;
    while (i < n) {
        const uint32_t words = w[i] >> 16;
        if (words == 0 || words > n - i) return false;
        i += words;
    }
    return true;
}

#if IPT_HAVE_SPIRV_TOOLS
bool valid_spirv(const uint32_t* w, size_t n) {
    // VkFFT targets Vulkan 1.0 (SPIR-V 1.0), 1.1 (1.3) for half precision.
    static spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_1);
    spv_const_binary_t binary{w, n};
    spv_diagnostic diagnostic = nullptr;
    const spv_result_t r = spvValidate(context, &binary, &diagnostic);
    spvDiagnosticDestroy(diagnostic);
    return r == SPV_SUCCESS;
}
#else
bool valid_spirv(const uint32_t*, size_t) { return true; }
#endif

// The number of kernels in a blob, or 0 when any record is malformed.
uint64_t count_kernels(const std::vector<uint32_t>& blob) {
    uint64_t count = 0;
    size_t at = 0;
    while (at < blob.size()) {
        const uint32_t bytes = blob[at++];
        if (bytes % 4 != 0 || bytes / 4 > blob.size() - at) return 0;
        const uint32_t* code = blob.data() + at;
        if (!well_formed_spirv(code, bytes / 4) || !valid_spirv(code, bytes / 4)) return 0;
        at += bytes / 4;
        ++count;
    }
    return count;
}

// A compute shader that does nothing ("void main() {}", local size 1x1x1):
// what VkFFT finds after a loaded blob's records, so a blob that holds fewer
// kernels than the plan needs makes VkFFT read these instead of memory past
// the blob. VkFFT's position then lies beyond the blob, and the plan is
// compiled instead.
const std::vector<uint32_t>& spare_kernel_records() {
    static const std::vector<uint32_t> records = [] {
        const std::vector<uint32_t> module = {
            kSpirvMagic, 0x00010000, 0, 5, 0,   // SPIR-V 1.0, ids 1..4
            0x00020011, 1,                      // OpCapability Shader
            0x0003000E, 0, 1,                   // OpMemoryModel Logical GLSL450
            0x0005000F, 5, 1, 0x6E69616D, 0,    // OpEntryPoint GLCompute %1 "main"
            0x00060010, 1, 17, 1, 1, 1,         // OpExecutionMode %1 LocalSize 1 1 1
            0x00020013, 2,                      // %2 = OpTypeVoid
            0x00030021, 3, 2,                   // %3 = OpTypeFunction %2
            0x00050036, 2, 1, 0, 3,             // %1 = OpFunction %2 None %3
            0x000200F8, 4,                      // %4 = OpLabel
            0x000100FD,                         // OpReturn
            0x00010038,                         // OpFunctionEnd
        };
        std::vector<uint32_t> r;
        for (int i = 0; i < kSpareKernels; ++i) {
            r.push_back(uint32_t(module.size() * 4));
            r.insert(r.end(), module.begin(), module.end());
        }
        return r;
    }();
    return records;
}

// VkFFT's compiled kernels, kept in one file per device next to the pipeline
// cache: a later process loads them (loadApplicationFromString) instead of
// running glslang again. A file is used only when its header names this
// layout and VkFFT version and every entry's checksum holds; an entry is
// handed to VkFFT only when count_kernels() finds it whole and the count
// stored with it. Anything else is ignored and replaced on the next save.
class KernelStore {
public:
    struct Entry {
        std::string key;
        std::vector<uint32_t> blob;  // VkFFT's records
        uint64_t kernels = 0;        // records counted when it was saved
        int checked = 0;             // 0 not yet, 1 whole, -1 not to be used
    };

    explicit KernelStore(std::string path) : path_(std::move(path)) {
        if (!path_.empty()) entries_ = read(path_);
    }

    // The entry for `key` if it is fit to hand to VkFFT.
    const Entry* find(const std::string& key) {
        for (Entries* list : {&added_, &entries_})
            for (Entry& e : *list)
                if (e.key == key) {
                    if (e.checked == 0) e.checked = e.kernels && count_kernels(e.blob) == e.kernels ? 1 : -1;
                    return e.checked > 0 ? &e : nullptr;
                }
        return nullptr;
    }
    void put(const std::string& key, const void* data, size_t bytes) {
        Entry e{key, std::vector<uint32_t>(bytes / 4), 0, 1};
        std::memcpy(e.blob.data(), data, e.blob.size() * 4);
        e.kernels = count_kernels(e.blob);
        if (bytes % 4 != 0 || e.kernels == 0) return;  // not what VkFFT saves: not kept
        std::erase_if(added_, [&](const Entry& x) { return x.key == key; });
        added_.push_back(std::move(e));
    }

    // Writes what this process added after what the file holds now (another
    // process may have saved since), dropping the oldest entries beyond the
    // budget; into a new file beside it (O_EXCL: nothing placed at that name
    // is followed or overwritten), renamed over it.
    void save() const {
        if (path_.empty() || added_.empty()) return;
        Entries all = read(path_);
        for (const Entry& entry : added_) {
            std::erase_if(all, [&](const Entry& e) { return e.key == entry.key; });
            all.push_back(entry);
        }
        auto bytes = [&] {
            size_t n = 0;
            for (const Entry& e : all) n += e.key.size() + e.blob.size() * 4 + 32;
            return n;
        };
        while (all.size() > 1 && bytes() > kMaxBytes) all.erase(all.begin());
        std::string out(kMagic, sizeof kMagic);
        put_u64(out, uint64_t(VkFFTGetVersion()));
        put_u64(out, all.size());
        for (const Entry& e : all) {
            put_u64(out, e.key.size());
            out += e.key;
            const size_t blob_bytes = e.blob.size() * 4;
            put_u64(out, blob_bytes);
            put_u64(out, e.kernels);
            put_u64(out, ipt::files::checksum(e.blob.data(), blob_bytes));
            out.append(reinterpret_cast<const char*>(e.blob.data()), blob_bytes);
        }
        std::error_code ec;
        std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), ec);
        std::string why;
        ipt::files::replace(path_, out, &why);  // a cache that cannot be written is only slower
    }

private:
    using Entries = std::vector<Entry>;  // oldest first
    // "IPTVKFT" and the layout's number: files of another layout are ignored.
    static constexpr char kMagic[8] = {'I', 'P', 'T', 'V', 'K', 'F', 'T', '2'};
    // A plan's kernels take about 0.2-0.4 MB (VkFFT unrolls its radix passes).
    static constexpr size_t kMaxBytes = size_t(32) << 20;

    static void put_u64(std::string& out, uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }

    static Entries read(const std::string& path) {
        const std::string data = ipt::files::read_regular(path, kMaxBytes + (size_t(1) << 20)).data;
        size_t at = 0;
        auto take = [&](void* dst, size_t n) {
            if (data.size() - at < n) return false;
            std::memcpy(dst, data.data() + at, n);
            at += n;
            return true;
        };
        char magic[sizeof kMagic];
        uint64_t version = 0, count = 0;
        if (!take(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof magic) != 0 || !take(&version, 8) ||
            version != uint64_t(VkFFTGetVersion()) || !take(&count, 8))
            return {};
        Entries entries;
        for (uint64_t i = 0; i < count; ++i) {
            uint64_t key_bytes = 0, blob_bytes = 0, kernels = 0, sum = 0;
            if (!take(&key_bytes, 8) || data.size() - at < key_bytes) return {};
            Entry e;
            e.key.assign(data.data() + at, key_bytes);
            at += key_bytes;
            if (!take(&blob_bytes, 8) || !take(&kernels, 8) || !take(&sum, 8) || data.size() - at < blob_bytes ||
                blob_bytes % 4 != 0)
                return {};
            if (ipt::files::checksum(data.data() + at, blob_bytes) != sum) return {};
            e.blob.resize(blob_bytes / 4);
            std::memcpy(e.blob.data(), data.data() + at, blob_bytes);
            at += blob_bytes;
            e.kernels = kernels;
            entries.push_back(std::move(e));
        }
        return entries;
    }

    std::string path_;
    Entries entries_;  // as loaded
    Entries added_;    // made by this process
};

}  // namespace

FftSize fft_size(const FftConvolution& c) {
    // The circular convolution of length L is the linear one plus copies
    // shifted by multiples of L. Wanted rows lo..hi of the full result (of
    // ma + kr - 1 rows) have no copy on them when L >= ma + kr - 1 - lo and
    // L > hi; A and K must fit too. 'valid' then needs only L >= ma.
    auto length = [](int64_t m, int64_t k, int64_t lo, int64_t count, bool even) {
        const int64_t need = std::max({m, k, m + k - 1 - lo, lo + count});
        return smooth_length(need, even);
    };
    return {length(c.ma, c.kr, c.off_r, c.out_rows, false), length(c.na, c.kc, c.off_c, c.out_cols, true)};
}

class FftPlan {
public:
    FftPlan(Device& device, const FftSize& size) : device_(device), size_(size) {}
    ~FftPlan() {
        if (made_forward_) deleteVkFFT(&forward_);
        if (made_inverse_) deleteVkFFT(&inverse_);
        device_.release(work_);
        device_.release(temp_);
    }
    FftPlan(const FftPlan&) = delete;
    FftPlan& operator=(const FftPlan&) = delete;

    const FftSize& size() const { return size_; }
    // Complex values of one spectrum (the real transform keeps cols/2 + 1 per row).
    int64_t spectrum_count() const { return size_.rows * (size_.cols / 2 + 1); }
    // Both transforms: rows x (cols/2 + 1) complex doubles each.
    static VkDeviceSize work_bytes(const FftSize& s) {
        return 2 * VkDeviceSize(s.rows) * VkDeviceSize(s.cols / 2 + 1) * 16;
    }
    VkDeviceSize bytes() const { return (work_ ? work_->size : 0) + (temp_ ? temp_->size : 0); }
    Buffer* work() const { return work_; }

    // Allocates the buffers and makes the forward plan (both transforms at
    // once) and the inverse plan (the first only). VkFFT binds the buffers to
    // its descriptor sets here, once: sets that queued work may still use
    // are never updated.
    void make(VkFFTConfiguration base, bool needs_temp, KernelStore& store) {
        const VkDeviceSize spectrum_bytes = work_bytes(size_) / 2;
        work_ = device_.allocate(work_bytes(size_), MemoryKind::DeviceLocal);
        work_buffer_ = work_->buffer;
        both_bytes_ = work_bytes(size_);
        one_bytes_ = spectrum_bytes;
        base.FFTdim = 2;
        base.size[0] = uint64_t(size_.cols);
        base.size[1] = uint64_t(size_.rows);
        base.doublePrecision = 1;
        base.performR2C = 1;
        base.buffer = &work_buffer_;
        if (needs_temp) {
            // VkFFT's multi-pass (four-step) lengths reorder through a temporary
            // buffer; ours comes from the plugin's allocator.
            temp_ = device_.allocate(both_bytes_, MemoryKind::DeviceLocal);
            temp_buffer_ = temp_->buffer;
            temp_bytes_ = both_bytes_;
            base.userTempBuffer = 1;
            base.tempBuffer = &temp_buffer_;
            base.tempBufferSize = &temp_bytes_;
        }
        const std::string what = "VkFFT plan (double, real) of " + std::to_string(size_.rows) + "x" +
                                 std::to_string(size_.cols);
        const std::string key = std::to_string(size_.rows) + "x" + std::to_string(size_.cols) +
                                (needs_temp ? " temp" : "");
        VkFFTConfiguration forward = base;
        forward.numberBatches = 2;
        forward.bufferSize = &both_bytes_;
        forward.makeForwardPlanOnly = 1;
        initialize(forward_, forward, store, "forward " + key, what + ", forward");
        made_forward_ = true;
        VkFFTConfiguration inverse = base;
        inverse.numberBatches = 1;
        inverse.bufferSize = &one_bytes_;
        inverse.makeInversePlanOnly = 1;
        initialize(inverse_, inverse, store, "inverse " + key, what + ", inverse");
        made_inverse_ = true;
    }

    // Appends the forward (both transforms) or the inverse (the first) to the recording.
    void append(Recorder& rec, bool inverse) {
        VkCommandBuffer cb = rec.external_commands();
        VkFFTLaunchParams launch{};
        launch.commandBuffer = &cb;  // buffers left unset: those given at creation
        const VkFFTResult r = VkFFTAppend(inverse ? &inverse_ : &forward_, inverse ? 1 : -1, &launch);
        if (r != VKFFT_SUCCESS) throw_vkfft(r, inverse ? "VkFFTAppend (inverse)" : "VkFFTAppend (forward)");
    }

private:
    // From the stored kernels when there are some for this key, else compiled
    // (and stored). On failure the application is left deleted.
    static void initialize(VkFFTApplication& app, VkFFTConfiguration config, KernelStore& store,
                           const std::string& key, const std::string& what) {
        if (const KernelStore::Entry* kernels = store.find(key)) {
            // The blob, then spare records: VkFFT never reads past the buffer
            // as long as the plan needs fewer than kSpareKernels kernels more
            // than the blob holds.
            std::vector<uint32_t> words = kernels->blob;
            const std::vector<uint32_t>& spare = spare_kernel_records();
            words.insert(words.end(), spare.begin(), spare.end());
            VkFFTConfiguration load = config;
            load.loadApplicationFromString = 1;
            load.loadApplicationString = words.data();
            // Whole only when VkFFT took every record of the blob and no spare one.
            if (initializeVkFFT(&app, load) == VKFFT_SUCCESS && app.currentApplicationStringPos == kernels->blob.size())
                return;
            deleteVkFFT(&app);
            app = VkFFTApplication{};
        }
        config.saveApplicationToString = 1;
        const VkFFTResult r = initializeVkFFT(&app, config);
        if (r != VKFFT_SUCCESS) {
            deleteVkFFT(&app);
            throw_vkfft(r, what);
        }
        store.put(key, app.saveApplicationString, app.applicationStringSize);
    }

    Device& device_;
    FftSize size_;
    Buffer* work_ = nullptr;
    Buffer* temp_ = nullptr;
    // VkFFT keeps pointers to these for the life of the plan.
    VkBuffer work_buffer_ = VK_NULL_HANDLE, temp_buffer_ = VK_NULL_HANDLE;
    uint64_t both_bytes_ = 0, one_bytes_ = 0, temp_bytes_ = 0;
    VkFFTApplication forward_{}, inverse_{};
    bool made_forward_ = false, made_inverse_ = false;
};

namespace {

// The FFT plans of one device, with what VkFFT needs to make them: the
// device, its queue and command pool (VkFFT uploads its twiddle tables with a
// command buffer of its own, waited on with the fence) and an initialised
// glslang (reference-counted by glslang per client: one per device here).
class FftPlans final : public DeviceAttachment {
public:
    explicit FftPlans(Device& device)
        : device_(device), physical_(device.physical()), handle_(device.handle()), queue_(device.queue()),
          pool_(device.command_pool()), kernels_(device.cache_file_path("vulkan-vkfft")) {
        VkPhysicalDeviceProperties props{};
        vkGetPhysicalDeviceProperties(physical_, &props);
        VkFenceCreateInfo fci = vk_struct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
        const VkResult r = vkCreateFence(handle_, &fci, nullptr, &fence_);
        if (r != VK_SUCCESS) device_.fail(r, "vkCreateFence (VkFFT)");
        if (!glslang_initialize_process()) {
            vkDestroyFence(handle_, fence_, nullptr);
            throw ipt::plugin::Error(IPT_ERR_DEVICE, "vulkan: glslang_initialize_process failed (VkFFT's compiler)");
        }
        // Lengths beyond one pass in shared memory take VkFFT's four-step
        // algorithm, which needs a temporary buffer. VkFFT's bound is the
        // shared bytes (their largest power of two for power-of-two lengths)
        // over 16 bytes per complex double; the power of two is the safe side.
        uint64_t shared = props.limits.maxComputeSharedMemorySize, pow2 = 1;
        while (pow2 * 2 <= shared) pow2 *= 2;
        single_pass_length_ = int64_t(pow2 / 16);
        budget_ = std::min<VkDeviceSize>(kMaxPlanBytes, std::max<uint64_t>(device.desc().memory_bytes / 8, 64u << 20));
    }
    ~FftPlans() override {
        plans_.clear();  // the device is idle: nothing queued uses them
        vkDestroyFence(handle_, fence_, nullptr);
        glslang_finalize_process();
        kernels_.save();
    }

    FftPlan& get(const FftSize& size) {
        for (auto it = plans_.begin(); it != plans_.end(); ++it) {
            if ((*it)->size().rows == size.rows && (*it)->size().cols == size.cols) {
                plans_.splice(plans_.begin(), plans_, it);
                return *plans_.front();
            }
        }
        make_room(FftPlan::work_bytes(size));
        auto plan = std::make_unique<FftPlan>(device_, size);
        VkFFTConfiguration base{};
        base.physicalDevice = &physical_;
        base.device = &handle_;
        base.queue = &queue_;
        base.commandPool = &pool_;
        base.fence = &fence_;
        base.isCompilerInitialized = 1;  // ours, once per device
        plan->make(base, std::max(size.rows, size.cols) > single_pass_length_, kernels_);
        plans_.push_front(std::move(plan));
        return *plans_.front();
    }

private:
    // Drops least recently used plans until another of `bytes` fits. Queued
    // work may still run their pipelines: wait for it first (rare: only when
    // more sizes are in use than kept).
    void make_room(VkDeviceSize bytes) {
        auto total = [&] {
            VkDeviceSize t = 0;
            for (const auto& p : plans_) t += p->bytes();
            return t;
        };
        bool waited = false;
        while (!plans_.empty() && (plans_.size() >= kMaxPlans || total() + bytes > budget_)) {
            if (!waited) device_.wait_for(device_.last_submitted());
            waited = true;
            plans_.pop_back();
        }
    }

    Device& device_;
    // VkFFT keeps pointers to these for the life of each plan.
    VkPhysicalDevice physical_;
    VkDevice handle_;
    VkQueue queue_;
    VkCommandPool pool_;
    VkFence fence_ = VK_NULL_HANDLE;
    KernelStore kernels_;
    int64_t single_pass_length_ = 0;
    VkDeviceSize budget_ = kMaxPlanBytes;
    std::list<std::unique_ptr<FftPlan>> plans_;  // most recently used first
};

struct PackPush {
    uint64_t a, k, v, work, flag;
    int32_t ma, na, kr, kc, rows, stride;
};
struct MultiplyPush {
    uint64_t work;
    double scale;
    int32_t count;
};
struct CropPush {
    uint64_t work, out, flag;
    int32_t out_rows, out_cols, off_r, off_c, stride;
};

}  // namespace

FftPlan& fft_plan(OpContext& ctx, const FftConvolution& c) {
    const FftSize size = fft_size(c);
    const std::string op = ctx.op();
    // Shaders index with 32-bit integers; both transforms together must fit.
    if (2 * size.rows * (size.cols + 2) > kMaxElements)
        ipt::plugin::unsupported(op + " (fft): a transform of " + std::to_string(size.rows) + "x" +
                                 std::to_string(size.cols) + " is too large for the Vulkan backend");
    const Device& d = ctx.device;
    const uint64_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    if (div_up(size.cols + 2, gx) > d.max_group_count(0) || div_up(size.rows, gy) > d.max_group_count(1) ||
        div_up(c.out_cols, gx) > d.max_group_count(0) || div_up(c.out_rows, gy) > d.max_group_count(1))
        ipt::plugin::unsupported(op + " (fft): image too large for one dispatch on this device");
    const std::string key = "conv2_fft_plans";
    auto* plans = static_cast<FftPlans*>(ctx.device.attachment(key));
    if (!plans) plans = static_cast<FftPlans*>(&ctx.device.attach(key, std::make_unique<FftPlans>(ctx.device)));
    return plans->get(size);
}

void record_fft_convolution(OpContext& ctx, Recorder& rec, FftPlan& plan, const FftConvolution& c) {
    const FftSize& s = plan.size();
    const int32_t stride = int32_t(s.cols + 2);
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    const VkDeviceAddress work = plan.work()->address;

    PackPush pack{c.a, c.separable ? c.u : c.k, c.v, work, c.unsafe_flag, int32_t(c.ma), int32_t(c.na),
                  int32_t(c.kr), int32_t(c.kc), int32_t(s.rows), stride};
    const uint32_t k_dtype = uint32_t(c.separable ? c.u_dtype : c.k_dtype);
    rec.dispatch(ctx.pipeline("conv2_fft_pack", gx, gy,
                              {uint32_t(c.a_dtype), k_dtype, uint32_t(c.v_dtype), c.separable ? 1u : 0u}),
                 &pack, sizeof pack, div_up(stride, gx), div_up(s.rows, gy), 2);

    plan.append(rec, false);

    const int64_t count = plan.spectrum_count();
    MultiplyPush multiply{work, 1.0 / double(s.rows * s.cols), int32_t(count)};
    const uint32_t group = ctx.tuning.group_size;
    const Grid g = grid_for(ctx.device, uint64_t(count), group);
    rec.dispatch(ctx.pipeline("conv2_fft_multiply", group, 1, {}), &multiply, sizeof multiply, g.x, g.y);

    plan.append(rec, true);

    CropPush crop{work, c.out, c.unsafe_flag, int32_t(c.out_rows), int32_t(c.out_cols), int32_t(c.off_r),
                  int32_t(c.off_c), stride};
    rec.dispatch(ctx.pipeline("conv2_fft_crop", gx, gy, {uint32_t(c.out_dtype)}), &crop, sizeof crop,
                 div_up(c.out_cols, gx), div_up(c.out_rows, gy));
}

}  // namespace ipt::vk
