// SPDX-License-Identifier: Apache-2.0
// The parameter text parser through the C API: an operator and a few of its
// parameters set from arbitrary text (number lists, ranges, enumerations),
// then the call run on host images so that the schema's rules and defaults
// see the values. Every outcome is a status; nothing crashes or runs away.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "ipt/ipt.h"
#include "ipt/ipt_ops.h"

namespace {

// Built-in operators only: the schemas every build has, no plugin needed.
ipt_context* context() {
    static ipt_context* ctx = [] {
        setenv("IPT_TUNING_CACHE", "", 1);  // measurements stay in memory
        ipt_context* c = nullptr;
        if (ipt_context_create(IPT_CONTEXT_NO_DISCOVERY, &c) != IPT_OK) __builtin_trap();
        return c;
    }();
    return ctx;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    FuzzedDataProvider in(data, size);
    ipt_context* ctx = context();
    const uint32_t ops = ipt_op_count(ctx);
    if (ops == 0) __builtin_trap();
    const ipt_op_schema* op = ipt_op_get(ctx, in.ConsumeIntegralInRange<uint32_t>(0, ops - 1));
    ipt_call* call = nullptr;
    if (ipt_call_create(ctx, op->name, &call) != IPT_OK) __builtin_trap();

    std::vector<ipt_image*> images;
    const int settings = in.ConsumeIntegralInRange(0, 4);
    for (int k = 0; k < settings && in.remaining_bytes() > 0; ++k) {
        const ipt_param_schema* p = ipt_op_param(op, in.ConsumeIntegralInRange<uint32_t>(0, op->param_count - 1));
        const std::string text = in.ConsumeRandomLengthString(256);
        if (p->kind == IPT_PARAM_INPUT) {
            // A small host image of any class; its values come from the text.
            const int32_t dtype = in.ConsumeIntegralInRange<int32_t>(IPT_LOGICAL, IPT_DOUBLE);
            const int64_t rows = in.ConsumeIntegralInRange<int64_t>(0, 4), cols = in.ConsumeIntegralInRange<int64_t>(0, 4);
            ipt_image* img = nullptr;
            if (ipt_image_create(ctx, IPT_DEVICE_HOST, static_cast<ipt_dtype>(dtype), rows, cols, 1, &img) != IPT_OK)
                continue;
            std::vector<unsigned char> bytes(static_cast<size_t>(rows * cols) * ipt_dtype_size(static_cast<ipt_dtype>(dtype)));
            for (size_t b = 0; b < bytes.size(); ++b) bytes[b] = text.empty() ? 0 : static_cast<unsigned char>(text[b % text.size()]);
            if (dtype == IPT_LOGICAL)
                for (unsigned char& b : bytes) b &= 1;
            if (!bytes.empty()) ipt_image_upload(img, bytes.data(), 0);
            images.push_back(img);
            ipt_call_set_image(call, p->name, img);
        } else {
            ipt_call_set_text(call, p->name, text.c_str());
        }
    }
    // No device runs anything here (no plugin): the run validates and fails.
    ipt_call_run(call);
    ipt_call_free(call);
    for (ipt_image* img : images) ipt_image_free(img);
    return 0;
}
