// SPDX-License-Identifier: Apache-2.0
// cuFFT, opened at run time. libipt_cuda never links libcufft: the plugin must
// load and run its other operators on machines without it, where the FFT
// variants decline with the loader's reason instead. The library is opened on
// first use (libcufft.so.12, then libcufft.so, then the same names in the
// toolkit this plugin was built with), never closed, and only the functions
// the FFT convolution calls are resolved.
//
// The few cuFFT types are declared here rather than taken from cufft.h, so the
// build needs no cuFFT headers either; where cufft.h exists, the values are
// checked against it at compile time.
#pragma once

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstddef>
#include <string>
#include <type_traits>

#include "ipt/ipt_plugin.hpp"

namespace ipt::cuda {

namespace cufft {

// cufft.h's C ABI: a plan is an int, results and transform types are C enums
// (int-sized), and cufftDoubleComplex is cuDoubleComplex, i.e. double2.
using Handle = int;
using Result = int;
using DoubleComplex = double2;

inline constexpr Result kSuccess = 0x0;
inline constexpr Result kAllocFailed = 0x2;
inline constexpr int kD2Z = 0x6a;  // double to double-complex
inline constexpr int kZ2D = 0x6c;  // double-complex to double

using CreateFn = Result (*)(Handle* plan);
using SetAutoAllocationFn = Result (*)(Handle plan, int auto_allocate);
using MakePlanManyFn = Result (*)(Handle plan, int rank, int* n, int* inembed, int istride, int idist,
                                  int* onembed, int ostride, int odist, int type, int batch, size_t* work_size);
using SetWorkAreaFn = Result (*)(Handle plan, void* work_area);
using SetStreamFn = Result (*)(Handle plan, cudaStream_t stream);
using ExecD2ZFn = Result (*)(Handle plan, double* in, DoubleComplex* out);
using ExecZ2DFn = Result (*)(Handle plan, DoubleComplex* in, double* out);
using DestroyFn = Result (*)(Handle plan);

inline const char* result_name(Result r) {
    switch (r) {
    case 0x0: return "CUFFT_SUCCESS";
    case 0x1: return "CUFFT_INVALID_PLAN";
    case 0x2: return "CUFFT_ALLOC_FAILED";
    case 0x3: return "CUFFT_INVALID_TYPE";
    case 0x4: return "CUFFT_INVALID_VALUE";
    case 0x5: return "CUFFT_INTERNAL_ERROR";
    case 0x6: return "CUFFT_EXEC_FAILED";
    case 0x7: return "CUFFT_SETUP_FAILED";
    case 0x8: return "CUFFT_INVALID_SIZE";
    case 0x9: return "CUFFT_UNALIGNED_DATA";
    case 0xB: return "CUFFT_INVALID_DEVICE";
    case 0xD: return "CUFFT_NO_WORKSPACE";
    case 0xE: return "CUFFT_NOT_IMPLEMENTED";
    case 0x10: return "CUFFT_NOT_SUPPORTED";
    case 0x11: return "CUFFT_MISSING_DEPENDENCY";
    default: return "unknown cuFFT result";
    }
}

}  // namespace cufft

// The toolkit libipt_cuda was built with, tried after the loader's own search
// (its lib folder is not on every machine's loader path).
#ifndef IPT_CUDA_TOOLKIT_LIBDIR
#define IPT_CUDA_TOOLKIT_LIBDIR ""
#endif

class CufftLibrary {
public:
    bool loaded() const { return handle_ != nullptr; }
    // Why it is not loaded: every name tried, with the loader's message.
    const std::string& failure() const { return failure_; }

    cufft::CreateFn create = nullptr;
    cufft::SetAutoAllocationFn set_auto_allocation = nullptr;
    cufft::MakePlanManyFn make_plan_many = nullptr;
    cufft::SetWorkAreaFn set_work_area = nullptr;
    cufft::SetStreamFn set_stream = nullptr;
    cufft::ExecD2ZFn exec_d2z = nullptr;
    cufft::ExecZ2DFn exec_z2d = nullptr;
    cufft::DestroyFn destroy = nullptr;

    // Opened once per process, on first use.
    static const CufftLibrary& get() {
        static const CufftLibrary library = open();
        return library;
    }

private:
    static CufftLibrary open() {
        CufftLibrary lib;
        const std::string toolkit = IPT_CUDA_TOOLKIT_LIBDIR;
        std::string names[] = {"libcufft.so.12", "libcufft.so", "", ""};
        if (!toolkit.empty()) {
            names[2] = toolkit + "/libcufft.so.12";
            names[3] = toolkit + "/libcufft.so";
        }
        std::string tried;
        for (const std::string& name : names) {
            if (name.empty()) continue;
            // RTLD_LOCAL: cuFFT's symbols stay out of the process's namespace.
            void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (h) {
                lib.handle_ = h;
                lib.path_ = name;
                break;
            }
            const char* why = dlerror();
            tried += (tried.empty() ? "" : "; ") + std::string(why ? why : name + ": not found");
        }
        if (!lib.handle_) {
            lib.failure_ = "cuFFT (libcufft.so.12 or libcufft.so) could not be loaded: " + tried;
            return lib;
        }
        std::string missing;
        auto resolve = [&](auto& fn, const char* symbol) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib.handle_, symbol));
            if (!fn) missing += (missing.empty() ? "" : ", ") + std::string(symbol);
        };
        resolve(lib.create, "cufftCreate");
        resolve(lib.set_auto_allocation, "cufftSetAutoAllocation");
        resolve(lib.make_plan_many, "cufftMakePlanMany");
        resolve(lib.set_work_area, "cufftSetWorkArea");
        resolve(lib.set_stream, "cufftSetStream");
        resolve(lib.exec_d2z, "cufftExecD2Z");
        resolve(lib.exec_z2d, "cufftExecZ2D");
        resolve(lib.destroy, "cufftDestroy");
        if (!missing.empty()) {
            // Left open: closing a library whose initialisers ran is not worth the risk.
            lib.handle_ = nullptr;
            lib.failure_ = lib.path_ + " lacks " + missing;
        }
        return lib;
    }

    void* handle_ = nullptr;
    std::string path_, failure_;
};

// A cuFFT result as an ipt_status with the call named (thrown; the operator
// entry turns it into the status and the host's message).
inline void check_cufft(cufft::Result r, const std::string& what) {
    if (r == cufft::kSuccess) return;
    throw ipt::plugin::Error(r == cufft::kAllocFailed ? IPT_ERR_OUT_OF_MEMORY : IPT_ERR_DEVICE,
                             what + ": " + cufft::result_name(r));
}

}  // namespace ipt::cuda

// The declarations above against cufft.h, where the build has it.
#if __has_include(<cufft.h>)
#include <cufft.h>
namespace ipt::cuda::cufft {
static_assert(sizeof(cufftHandle) == sizeof(Handle) && sizeof(cufftResult) == sizeof(Result) &&
              sizeof(cufftType) == sizeof(int));
static_assert(CUFFT_SUCCESS == kSuccess && CUFFT_ALLOC_FAILED == kAllocFailed);
static_assert(CUFFT_D2Z == kD2Z && CUFFT_Z2D == kZ2D);
static_assert(sizeof(cufftDoubleComplex) == sizeof(DoubleComplex) &&
              alignof(cufftDoubleComplex) == alignof(DoubleComplex));
}  // namespace ipt::cuda::cufft
#endif
