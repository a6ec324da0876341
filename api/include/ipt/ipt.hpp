// SPDX-License-Identifier: Apache-2.0
// Header-only C++ wrapper over ipt.h: RAII handles, typed calls, and
// exceptions that carry the status and the library's message.
//
//   ipt::Context ctx;                                  // discovers plugins
//   ipt::Image a = ctx.upload(IPT_DOUBLE, 4, 5, data);  // on the host device
//   ipt::Call call(ctx, "ipt.conv2");
//   call.image("A", a).image("B", k).text("shape", "same").run();
//   call.image("A", ctx.upload<double>(4, 5, v)).run();  // the call keeps a temporary
//   ipt::Image c = call.take("C");
//   std::vector<double> out = c.download<double>();
#ifndef IPT_HPP
#define IPT_HPP

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ipt.h"
#include "ipt_ops.h"

namespace ipt {

class Error : public std::runtime_error {
public:
    Error(ipt_status status, const std::string& message)
        : std::runtime_error(message), status_(status) {}
    ipt_status status() const noexcept { return status_; }

private:
    ipt_status status_;
};

inline void check(ipt_status status) {
    if (status != IPT_OK) throw Error(status, ipt_last_error());
}

template <class T> constexpr ipt_dtype dtype_of();
template <> constexpr ipt_dtype dtype_of<bool>() { return IPT_LOGICAL; }
template <> constexpr ipt_dtype dtype_of<uint8_t>() { return IPT_UINT8; }
template <> constexpr ipt_dtype dtype_of<uint16_t>() { return IPT_UINT16; }
template <> constexpr ipt_dtype dtype_of<int16_t>() { return IPT_INT16; }
template <> constexpr ipt_dtype dtype_of<int32_t>() { return IPT_INT32; }
template <> constexpr ipt_dtype dtype_of<uint32_t>() { return IPT_UINT32; }
template <> constexpr ipt_dtype dtype_of<float>() { return IPT_SINGLE; }
template <> constexpr ipt_dtype dtype_of<double>() { return IPT_DOUBLE; }

class Image {
public:
    Image() = default;
    explicit Image(ipt_image* handle) : h_(handle) {}
    Image(Image&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
    Image& operator=(Image&& o) noexcept {
        if (this != &o) {
            ipt_image_free(h_);
            h_ = std::exchange(o.h_, nullptr);
        }
        return *this;
    }
    Image(const Image&) = delete;
    Image& operator=(const Image&) = delete;
    ~Image() { ipt_image_free(h_); }

    ipt_image* get() const { return h_; }
    explicit operator bool() const { return h_ != nullptr; }

    ipt_image_info info() const {
        ipt_image_info i{};
        i.struct_size = sizeof i;
        check(ipt_image_get_info(h_, &i));
        return i;
    }
    ipt_dtype dtype() const { return static_cast<ipt_dtype>(info().dtype); }
    int64_t rows() const { return info().rows; }
    int64_t cols() const { return info().cols; }
    int64_t channels() const { return info().channels; }
    int64_t numel() const {
        ipt_image_info i = info();
        return i.rows * i.cols * i.channels;
    }

    // Where the first element lies on the image's device and the row pitch
    // in bytes (ipt_image_native_address): a device pointer for a CUDA image,
    // to read an output in place on the caller's stream.
    struct NativeAddress {
        void* address;
        int64_t row_pitch;
    };
    NativeAddress native_address() const {
        NativeAddress a{nullptr, 0};
        check(ipt_image_native_address(h_, &a.address, &a.row_pitch));
        return a;
    }

    void upload(const void* host, int64_t row_pitch = 0) { check(ipt_image_upload(h_, host, row_pitch)); }
    void download(void* host, int64_t row_pitch = 0) const {
        check(ipt_image_download(h_, host, row_pitch));
    }
    // Tightly packed copy of the whole image. T must match the dtype's size.
    template <class T> std::vector<T> download() const {
        ipt_image_info i = info();
        if (ipt_dtype_size(static_cast<ipt_dtype>(i.dtype)) != sizeof(T))
            throw Error(IPT_ERR_INVALID_ARGUMENT, "download: element size does not match the image's class");
        std::vector<T> out(static_cast<size_t>(i.rows * i.cols * i.channels));
        if (!out.empty()) download(out.data());
        return out;
    }

private:
    ipt_image* h_ = nullptr;
};

class Context {
public:
    explicit Context(uint32_t flags = 0) { check(ipt_context_create(flags, &h_)); }
    Context(Context&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;
    ~Context() { ipt_context_destroy(h_); }

    ipt_context* get() const { return h_; }

    void load_plugin(const std::string& path) { check(ipt_load_plugin(h_, path.c_str())); }
    void set_device(uint32_t id) { check(ipt_set_device(h_, id)); }
    void sync(uint32_t id = IPT_DEVICE_ANY) { check(ipt_sync(h_, id)); }

    std::vector<ipt_plugin_report> plugin_reports() const {
        std::vector<ipt_plugin_report> out(ipt_plugin_report_count(h_));
        for (uint32_t i = 0; i < out.size(); ++i) {
            out[i].struct_size = sizeof(ipt_plugin_report);
            check(ipt_plugin_report_get(h_, i, &out[i]));
        }
        return out;
    }
    std::vector<ipt_device_info> devices() const {
        std::vector<ipt_device_info> out(ipt_device_count(h_));
        for (uint32_t i = 0; i < out.size(); ++i) {
            out[i].struct_size = sizeof(ipt_device_info);
            check(ipt_device_get(h_, i, &out[i]));
        }
        return out;
    }
    std::vector<const ipt_op_schema*> ops() const {
        std::vector<const ipt_op_schema*> out(ipt_op_count(h_));
        for (uint32_t i = 0; i < out.size(); ++i) out[i] = ipt_op_get(h_, i);
        return out;
    }
    std::vector<ipt_impl_info> impls(const char* op = nullptr) const {
        std::vector<ipt_impl_info> out(ipt_impl_count(h_, op));
        for (uint32_t i = 0; i < out.size(); ++i) {
            out[i].struct_size = sizeof(ipt_impl_info);
            check(ipt_impl_get(h_, op, i, &out[i]));
        }
        return out;
    }

    Image create(ipt_dtype dtype, int64_t rows, int64_t cols, int64_t channels = 1,
                 uint32_t device = IPT_DEVICE_HOST) {
        ipt_image* img = nullptr;
        check(ipt_image_create(h_, device, dtype, rows, cols, channels, &img));
        return Image(img);
    }
    Image upload(ipt_dtype dtype, int64_t rows, int64_t cols, const void* data,
                 int64_t channels = 1, uint32_t device = IPT_DEVICE_HOST) {
        Image img = create(dtype, rows, cols, channels, device);
        if (rows * cols * channels > 0) img.upload(data);
        return img;
    }
    template <class T>
    Image upload(int64_t rows, int64_t cols, const std::vector<T>& data, int64_t channels = 1,
                 uint32_t device = IPT_DEVICE_HOST) {
        if (static_cast<int64_t>(data.size()) != rows * cols * channels)
            throw Error(IPT_ERR_INVALID_ARGUMENT, "upload: data size does not match rows*cols*channels");
        return upload(dtype_of<T>(), rows, cols, data.data(), channels, device);
    }
    // A read-only host image over the caller's memory, tightly packed
    // (ipt_image_wrap_host): an input without a copy. Keep `data` valid and
    // unchanged while the Image lives.
    Image wrap_host(ipt_dtype dtype, int64_t rows, int64_t cols, const void* data, int64_t channels = 1) {
        ipt_image* img = nullptr;
        check(ipt_image_wrap_host(h_, dtype, rows, cols, channels, data, 0, &img));
        return Image(img);
    }
    template <class T>
    Image wrap_host(int64_t rows, int64_t cols, const std::vector<T>& data, int64_t channels = 1) {
        if (static_cast<int64_t>(data.size()) != rows * cols * channels)
            throw Error(IPT_ERR_INVALID_ARGUMENT, "wrap_host: data size does not match rows*cols*channels");
        return wrap_host(dtype_of<T>(), rows, cols, data.data(), channels);
    }
    // An input over memory the caller owns on a device (ipt_image_wrap_device):
    // a CUDA device pointer, read in place and never written or freed. Keep
    // it valid while the Image lives. row_pitch 0: tightly packed rows.
    Image wrap_device(uint32_t device, ipt_dtype dtype, int64_t rows, int64_t cols, void* address,
                      int64_t channels = 1, int64_t row_pitch = 0) {
        ipt_image* img = nullptr;
        check(ipt_image_wrap_device(h_, device, dtype, rows, cols, channels, address, row_pitch, &img));
        return Image(img);
    }
    // Queue this thread's work on `device` on the caller's native stream (a
    // cudaStream_t; nullptr: the plugin's own again), ipt_set_native_stream.
    // NativeStream below does it for a scope.
    void set_native_stream(uint32_t device, void* stream) { check(ipt_set_native_stream(h_, device, stream)); }
    Image copy_to(const Image& img, uint32_t device) {
        ipt_image* out = nullptr;
        check(ipt_image_copy_to(h_, img.get(), device, &out));
        return Image(out);
    }

    void set_selection(uint32_t policy) { check(ipt_set_selection(h_, policy)); }
    void set_fallback(uint32_t policy) { check(ipt_set_fallback(h_, policy)); }
    void set_tuning_cache(const std::string& path) { check(ipt_set_tuning_cache(h_, path.c_str())); }
    void save_tuning_cache() { check(ipt_tuning_cache_save(h_)); }

    std::vector<ipt_candidate_info> last_candidates() const {
        std::vector<ipt_candidate_info> out(ipt_last_candidate_count(h_));
        for (uint32_t i = 0; i < out.size(); ++i) {
            out[i].struct_size = sizeof(ipt_candidate_info);
            check(ipt_last_candidate_get(h_, i, &out[i]));
        }
        return out;
    }

    ipt_dispatch_info last_dispatch() const {
        ipt_dispatch_info d{};
        d.struct_size = sizeof d;
        check(ipt_last_dispatch(h_, &d));
        return d;
    }

private:
    ipt_context* h_ = nullptr;
};

// This thread's work on a device queued on the caller's stream for the
// lifetime of the object, then on the plugin's own queue again (ordered after
// what was queued meanwhile).
class NativeStream {
public:
    NativeStream(Context& ctx, uint32_t device, void* stream) : ctx_(ctx), device_(device) {
        ctx_.set_native_stream(device_, stream);
    }
    ~NativeStream() { (void)ipt_set_native_stream(ctx_.get(), device_, nullptr); }
    NativeStream(const NativeStream&) = delete;
    NativeStream& operator=(const NativeStream&) = delete;

private:
    Context& ctx_;
    uint32_t device_;
};

class Call {
public:
    Call(Context& ctx, const std::string& op) { check(ipt_call_create(ctx.get(), op.c_str(), &h_)); }
    Call(Call&& o) noexcept : h_(std::exchange(o.h_, nullptr)), kept_(std::move(o.kept_)) {}
    Call(const Call&) = delete;
    Call& operator=(const Call&) = delete;
    ~Call() { ipt_call_free(h_); }

    ipt_call* get() const { return h_; }

    // The call refers to the image: keep `img` alive until run().
    Call& image(const char* name, const Image& img) {
        check(ipt_call_set_image(h_, name, img.get()));
        drop_kept(name);
        return *this;
    }
    // An image handed over (a temporary, or std::move) is kept by the call
    // until the parameter is set again or the call is destroyed.
    Call& image(const char* name, Image&& img) {
        std::string key = name ? name : "";
        kept_.reserve(kept_.size() + 1);  // nothing below throws once the call refers to img
        check(ipt_call_set_image(h_, name, img.get()));
        drop_kept(key);
        kept_.emplace_back(std::move(key), std::move(img));
        return *this;
    }
    // A const temporary can be neither kept nor referred to.
    Call& image(const char* name, const Image&& img) = delete;
    Call& integer(const char* name, int64_t v) {
        check(ipt_call_set_int(h_, name, v));
        return *this;
    }
    Call& number(const char* name, double v) {
        check(ipt_call_set_float(h_, name, v));
        return *this;
    }
    Call& numbers(const char* name, const std::vector<double>& v) {
        check(ipt_call_set_floats(h_, name, v.data(), v.size()));
        return *this;
    }
    Call& text(const char* name, const std::string& v) {
        check(ipt_call_set_text(h_, name, v.c_str()));
        return *this;
    }
    Call& option(const char* name, const std::string& v) {
        check(ipt_call_set_string(h_, name, v.c_str()));
        return *this;
    }
    Call& want(const char* name) {
        check(ipt_call_want_output(h_, name));
        return *this;
    }
    Call& device(uint32_t id) {
        check(ipt_call_set_device(h_, id));
        return *this;
    }
    Call& variant(const std::string& v) {
        check(ipt_call_set_variant(h_, v.c_str()));
        return *this;
    }
    Call& plugin(const std::string& name) {
        check(ipt_call_set_plugin(h_, name.c_str()));
        return *this;
    }
    Call& run() {
        check(ipt_call_run(h_));
        return *this;
    }
    Image take(const char* name) {
        ipt_image* img = nullptr;
        check(ipt_call_take_output(h_, name, &img));
        return Image(img);
    }

private:
    void drop_kept(const std::string& name) {
        for (auto it = kept_.begin(); it != kept_.end(); ++it)
            if (it->first == name) {
                kept_.erase(it);
                return;
            }
    }

    ipt_call* h_ = nullptr;
    // Images handed over by value, by parameter name; freed after the call.
    std::vector<std::pair<std::string, Image>> kept_;
};

}  // namespace ipt

#endif  // IPT_HPP
