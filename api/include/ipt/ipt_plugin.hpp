// SPDX-License-Identifier: Apache-2.0
// Header-only C++ helpers for plugin authors, over the C ABI of ipt_plugin.h.
// They add nothing to the ABI: a plugin may use them or not.
//
//   - ipt::plugin::Error      an exception carrying an ipt_status and a message
//   - ipt::plugin::KernelArgs named access to a kernel call's values
//   - ipt::plugin::guarded    runs a body, turns any exception into a status
//                             (nothing may leave a plugin function as an exception)
#ifndef IPT_PLUGIN_HPP
#define IPT_PLUGIN_HPP

#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <utility>

#include "ipt_plugin.h"

namespace ipt::plugin {

struct Error : std::exception {
    ipt_status status;
    std::string message;
    Error(ipt_status s, std::string m) : status(s), message(std::move(m)) {}
    const char* what() const noexcept override { return message.c_str(); }
};

[[noreturn]] inline void fail(ipt_status status, const std::string& message) {
    throw Error(status, message);
}
[[noreturn]] inline void invalid(const std::string& message) {
    throw Error(IPT_ERR_INVALID_ARGUMENT, message);
}
[[noreturn]] inline void unsupported(const std::string& message) {
    throw Error(IPT_ERR_UNSUPPORTED, message);
}

// The host table, stored by the plugin's entry function.
inline const ipt_host_table*& host() {
    static const ipt_host_table* table = nullptr;
    return table;
}

inline void set_error(const char* message) {
    if (host() && host()->set_error) host()->set_error(message);
}

// Runs body(); returns IPT_OK, or the status of a thrown Error (or an internal
// error for anything else) after passing its message to the host.
template <class Body>
ipt_status guarded(Body&& body) noexcept {
    try {
        body();
        return IPT_OK;
    } catch (const Error& e) {
        set_error(e.message.c_str());
        return e.status;
    } catch (const std::bad_alloc&) {
        set_error("out of host memory");
        return IPT_ERR_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        set_error(e.what());
        return IPT_ERR_INTERNAL;
    } catch (...) {
        set_error("unknown exception in plugin");
        return IPT_ERR_INTERNAL;
    }
}

inline size_t dtype_size(int32_t dtype) {
    switch (dtype) {
    case IPT_LOGICAL: case IPT_UINT8: return 1;
    case IPT_UINT16: case IPT_INT16: return 2;
    case IPT_INT32: case IPT_UINT32: case IPT_SINGLE: return 4;
    case IPT_DOUBLE: return 8;
    default: return 0;
    }
}

// Named access to the values of a kernel call. The call's values and the
// schema's parameters are read with the strides the host gives, never with
// this header's sizeof (the host may be built against another header).
class KernelArgs {
public:
    explicit KernelArgs(const ipt_kernel_call* call) : call_(call) {
        if (!call || call->struct_size < IPT_KERNEL_CALL_MIN_SIZE || !call->schema ||
            call->schema->struct_size < IPT_OP_SCHEMA_MIN_SIZE)
            fail(IPT_ERR_ABI, "kernel call or its schema is shorter than API version 1");
        if (call->value_stride < IPT_VALUE_MIN_SIZE ||
            (call->value_count > 0 && call->schema->param_stride < IPT_PARAM_SCHEMA_MIN_SIZE))
            fail(IPT_ERR_ABI, std::string(call->schema->name ? call->schema->name : "?") +
                                  ": value or parameter stride is smaller than API version 1");
    }

    const ipt_kernel_call* raw() const { return call_; }
    const ipt_op_schema& schema() const { return *call_->schema; }
    const char* op() const { return call_->schema->name; }
    const ipt_param_schema& param_at(uint32_t i) const { return *ipt_op_param(call_->schema, i); }
    const ipt_value& value_at(uint32_t i) const { return *ipt_kernel_value(call_, i); }

    // Index of a parameter by name; throws if the schema has none.
    uint32_t index(const char* name) const {
        for (uint32_t i = 0; i < call_->value_count; ++i)
            if (std::strcmp(param_at(i).name, name) == 0) return i;
        fail(IPT_ERR_INTERNAL, std::string(op()) + ": no parameter '" + name + "'");
    }
    const ipt_value& value(const char* name) const { return value_at(index(name)); }

    bool present(const char* name) const { return value(name).present != 0; }
    const ipt_tensor* image(const char* name) const {
        const ipt_value& v = value(name);
        return v.present ? v.image : nullptr;
    }
    int64_t integer(const char* name) const { return value(name).i; }
    double number(const char* name) const { return value(name).f; }
    const double* floats(const char* name) const { return value(name).floats; }
    uint64_t count(const char* name) const { return value(name).count; }
    std::string text(const char* name) const {
        const char* s = value(name).str;
        return s ? s : "";
    }
    bool is(const char* name, const char* enum_value) const {
        const char* s = value(name).str;
        return s && std::strcmp(s, enum_value) == 0;
    }
    bool wanted(const char* name) const { return value(name).wanted != 0; }

    // Allocates an output image on the call's device.
    const ipt_tensor* output(const char* name, int32_t dtype, int64_t rows, int64_t cols,
                             int64_t channels = 1) const {
        const ipt_tensor* t = nullptr;
        ipt_status s = host()->alloc_output(call_->host_call, index(name), dtype, rows, cols,
                                            channels, &t);
        if (s != IPT_OK) fail(s, std::string(op()) + ": cannot allocate output '" + name + "'");
        return t;
    }

    void* native(int32_t kind, const ipt_tensor* tensor = nullptr) const {
        void* out = nullptr;
        ipt_status s = host()->native_handle(call_->host_call, kind, tensor, &out);
        if (s != IPT_OK) fail(s, std::string(op()) + ": native handle not available");
        return out;
    }

private:
    const ipt_kernel_call* call_;
};

}  // namespace ipt::plugin

#endif  // IPT_PLUGIN_HPP
