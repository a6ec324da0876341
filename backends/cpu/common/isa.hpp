// SPDX-License-Identifier: Apache-2.0
// Run-time choice of the instruction set for the hot loops that are compiled
// several times (with __attribute__((target(...)))): 2 = AVX-512F,
// 1 = AVX2+FMA, 0 = the x86-64 baseline (SSE2). IPT_CPU_ISA=sse2|avx2 caps
// the choice, so that every path can be tested on one machine.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <cstring>

#if defined(__GNUC__)
#define IPT_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define IPT_ALWAYS_INLINE inline
#endif

namespace ipt::cpu {

inline int isa_level() {
    static const int level = [] {
        int l = 0;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) l = 1;
        if (l == 1 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) l = 2;
#endif
        if (const char* cap = std::getenv("IPT_CPU_ISA")) {
            if (std::strcmp(cap, "sse2") == 0) l = 0;
            else if (std::strcmp(cap, "avx2") == 0) l = std::min(l, 1);
        }
        return l;
    }();
    return level;
}

// AVX-512 VBMI's byte permutes (with BW), where isa_level() allows AVX-512:
// one more feature for the loops that need it, under the same cap.
inline bool isa_avx512_vbmi() {
    static const bool has = [] {
#if defined(__x86_64__) || defined(__i386__)
        return isa_level() == 2 && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi");
#else
        return false;
#endif
    }();
    return has;
}

}  // namespace ipt::cpu
