// SPDX-License-Identifier: Apache-2.0
// Run-time choice of the instruction set for hot loops. The plugin is built
// for the baseline x86-64 (SSE2) so that it loads everywhere; a body passed to
// simd_dispatch is compiled a second time with AVX2 enabled (everything it
// calls is inlined into that copy by `flatten`) and that copy runs when the
// CPU has AVX2. The loops themselves stay plain C++ that the compiler
// vectorises.
#pragma once

#include "isa.hpp"

namespace ipt::cpu {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define IPT_CPU_HAVE_MULTIVERSION 1

template <class Body>
__attribute__((target("avx2"), flatten)) void simd_run_avx2(Body& body) {
    body();
}
template <class Body>
__attribute__((flatten)) void simd_run_baseline(Body& body) {
    body();
}

inline bool cpu_has_avx2() {
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
}

// Calls body() through the widest copy the CPU runs.
template <class Body>
void simd_dispatch(Body&& body) {
    if (cpu_has_avx2())
        simd_run_avx2(body);
    else
        simd_run_baseline(body);
}

template <class Body>
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"), flatten)) void simd_run_avx512(Body& body) {
    body();
}

// Calls body() compiled for AVX-512 when the CPU has it (isa_level 2: twice
// the lanes of the AVX2 copy), else through simd_dispatch.
template <class Body>
void simd_dispatch_widest(Body&& body) {
    if (isa_level() == 2)
        simd_run_avx512(body);
    else
        simd_dispatch(body);
}

#else

template <class Body>
void simd_dispatch(Body&& body) {
    body();
}
template <class Body>
void simd_dispatch_widest(Body&& body) {
    body();
}

#endif

}  // namespace ipt::cpu
