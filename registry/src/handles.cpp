// SPDX-License-Identifier: Apache-2.0
// Handle checking (SQLite's misuse detection): type tags, the quarantine of
// freed handles, and the reference a context keeps for its images and calls.
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <new>
#include <string>

#include "internal.hpp"
#include "tuning.hpp"

namespace ipt::reg {

namespace {

const char* type_name(HandleType t) {
    switch (t) {
    case HandleType::context: return "ipt_context";
    case HandleType::image: return "ipt_image";
    case HandleType::call: return "ipt_call";
    }
    return "handle";
}

uint64_t read_tag(const void* handle) {
    uint64_t tag = 0;
    std::memcpy(&tag, handle, sizeof tag);
    return tag;
}

// Freed handles the user held, kept from reuse so that a later use of one
// reads its freed tag instead of whatever the allocator put there. Bounded:
// the oldest shell is returned to the allocator when a newer one comes.
// Process-wide and never destroyed (handles may be freed at exit). Handles are
// at most a few hundred bytes, so the quarantine holds well under 1 MiB.
class Quarantine {
public:
    static Quarantine& instance() {
        static Quarantine* q = new Quarantine;
        return *q;
    }
    void hold(void* shell) {
        void* drop = nullptr;
        {
            std::lock_guard lock(mutex_);
            shells_.push_back(shell);
            if (shells_.size() > kCapacity) {
                drop = shells_.front();
                shells_.pop_front();
            }
        }
        ::operator delete(drop);
    }

private:
    static constexpr size_t kCapacity = 1024;
    std::mutex mutex_;
    std::deque<void*> shells_;
};

void destroy_context(ipt_context* ctx) {
    try {
        unload_all(ctx);
    } catch (...) {
    }
    retire_handle(ctx, HandleType::context);
}

}  // namespace

bool handle_is(const void* handle, HandleType type) { return handle && read_tag(handle) == live_tag(type); }

ipt_status check_handle(const void* handle, HandleType want, const char* fn, const char* param) {
    if (!handle) return fail(IPT_ERR_INVALID_ARGUMENT, std::string(fn) + ": " + param + " is NULL");
    const uint64_t tag = read_tag(handle);
    if (tag == live_tag(want)) return IPT_OK;
    const std::string head = std::string(fn) + ": parameter '" + param + "'";
    if (tag == (live_tag(want) ^ kFreedMask))
        return fail(IPT_ERR_MISUSE, head + " is an " + type_name(want) + " that was already " +
                                        (want == HandleType::context ? "destroyed" : "freed"));
    for (HandleType other : {HandleType::context, HandleType::image, HandleType::call}) {
        if (tag == live_tag(other))
            return fail(IPT_ERR_MISUSE, head + " is an " + type_name(other) + ", not an " + type_name(want));
        if (tag == (live_tag(other) ^ kFreedMask))
            return fail(IPT_ERR_MISUSE, head + " is a freed " + type_name(other) + ", not an " + type_name(want));
    }
    return fail(IPT_ERR_MISUSE, head + " is not an " + type_name(want) +
                                    " (a handle freed long ago and its memory reused, or no handle at all)");
}

void quarantine_shell(void* shell, uint64_t freed_tag) {
    std::memcpy(shell, &freed_tag, sizeof freed_tag);
    Quarantine::instance().hold(shell);
}

void context_ref(ipt_context* ctx) { ctx->refs.fetch_add(1, std::memory_order_relaxed); }

void context_unref(ipt_context* ctx) {
    if (ctx->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy_context(ctx);
}

}  // namespace ipt::reg

using namespace ipt::reg;

extern "C" {

IPT_API void ipt_context_destroy(ipt_context* ctx) {
    if (!ctx) return;
    // No clear_error(): a context may be destroyed at exit, after this
    // thread's error text is gone. Only a misused handle sets it.
    if (check_handle(ctx, HandleType::context, "ipt_context_destroy", "ctx") != IPT_OK) return;
    try {
        if (ctx->tuning->save() != IPT_OK) std::fprintf(stderr, "openipt: %s\n", ipt_last_error());
    } catch (...) {
    }
    // The handle is dead from here on; what it holds lives while its images
    // and calls do.
    ctx->tag = kTagContext ^ kFreedMask;
    context_unref(ctx);
}

}  // extern "C"
