// SPDX-License-Identifier: Apache-2.0
// Per-thread error messages, status and class names, versions.
#include <cstring>
#include <string>

#include "internal.hpp"

namespace ipt::reg {

namespace {
thread_local std::string last_error;
thread_local std::string plugin_error;
}  // namespace

ipt_status fail(ipt_status status, const std::string& message) {
    last_error = message;
    return status;
}

void clear_error() { last_error.clear(); }

std::string take_plugin_error() {
    std::string s;
    s.swap(plugin_error);
    return s;
}

void set_plugin_error(const char* message) { plugin_error = message ? message : ""; }

size_t dtype_size(int32_t dtype) {
    switch (dtype) {
    case IPT_LOGICAL: case IPT_UINT8: return 1;
    case IPT_UINT16: case IPT_INT16: return 2;
    case IPT_INT32: case IPT_UINT32: case IPT_SINGLE: return 4;
    case IPT_DOUBLE: return 8;
    default: return 0;
    }
}

std::string dtype_name(int32_t dtype) {
    const char* n = ipt_dtype_name(static_cast<ipt_dtype>(dtype));
    return n ? n : "class #" + std::to_string(dtype);
}

std::string dtype_list(uint32_t mask) {
    std::string out;
    for (int d = 1; d < IPT_DTYPE_COUNT; ++d)
        if (mask & IPT_DT(d)) out += (out.empty() ? "" : ", ") + dtype_name(d);
    return out;
}

}  // namespace ipt::reg

extern "C" {

IPT_API const char* ipt_last_error(void) { return ipt::reg::last_error.c_str(); }

IPT_API const char* ipt_status_name(ipt_status status) {
    switch (status) {
    case IPT_OK: return "IPT_OK";
    case IPT_ERR_INVALID_ARGUMENT: return "IPT_ERR_INVALID_ARGUMENT";
    case IPT_ERR_UNSUPPORTED: return "IPT_ERR_UNSUPPORTED";
    case IPT_ERR_OUT_OF_MEMORY: return "IPT_ERR_OUT_OF_MEMORY";
    case IPT_ERR_NOT_FOUND: return "IPT_ERR_NOT_FOUND";
    case IPT_ERR_PLUGIN: return "IPT_ERR_PLUGIN";
    case IPT_ERR_DEVICE: return "IPT_ERR_DEVICE";
    case IPT_ERR_INTERNAL: return "IPT_ERR_INTERNAL";
    case IPT_ERR_ABI: return "IPT_ERR_ABI";
    case IPT_ERR_MISUSE: return "IPT_ERR_MISUSE";
    case IPT_STATUS_MAX_ENUM: break;  // not a status: the enum's 32-bit marker
    }
    return "IPT_ERR_UNKNOWN";
}

IPT_API size_t ipt_dtype_size(ipt_dtype dtype) { return ipt::reg::dtype_size(dtype); }

static const char* const dtype_names[IPT_DTYPE_COUNT] = {
    nullptr, "logical", "uint8", "uint16", "int16", "int32", "uint32", "single", "double"};

IPT_API const char* ipt_dtype_name(ipt_dtype dtype) {
    if (dtype < 1 || dtype >= IPT_DTYPE_COUNT) return nullptr;
    return dtype_names[dtype];
}

IPT_API ipt_status ipt_dtype_from_name(const char* name, ipt_dtype* out) {
    if (!name || !out) return ipt::reg::fail(IPT_ERR_INVALID_ARGUMENT, "ipt_dtype_from_name: name and out must not be NULL");
    for (int d = 1; d < IPT_DTYPE_COUNT; ++d)
        if (std::strcmp(name, dtype_names[d]) == 0) {
            *out = static_cast<ipt_dtype>(d);
            return IPT_OK;
        }
    if (std::strcmp(name, "float") == 0 || std::strcmp(name, "float32") == 0) {
        *out = IPT_SINGLE;
        return IPT_OK;
    }
    if (std::strcmp(name, "float64") == 0 || std::strcmp(name, "bool") == 0) {
        *out = name[0] == 'f' ? IPT_DOUBLE : IPT_LOGICAL;
        return IPT_OK;
    }
    return ipt::reg::fail(IPT_ERR_NOT_FOUND, std::string("unknown class '") + name +
                                                 "'; expected logical, uint8, uint16, int16, "
                                                 "int32, uint32, single or double");
}

IPT_API uint32_t ipt_version_abi(void) { return IPT_ABI_VERSION; }
IPT_API uint32_t ipt_version_api(void) { return IPT_API_VERSION; }

}  // extern "C"
