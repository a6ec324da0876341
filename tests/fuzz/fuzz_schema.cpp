// SPDX-License-Identifier: Apache-2.0
// The plugin schema validator on schemas built from arbitrary bytes: sizes,
// strides, counts, names, kinds, flags and references as a careless or
// hostile plugin might declare them. The validator reads nothing outside
// what the schema declares (ASan sees the exact allocation), and a schema it
// accepts is safe to use: its defaults parse or are refused, and checking a
// call against it (nothing given) ends in a status.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "internal.hpp"

namespace {

// Strings a schema points at: NULL, empty, names that clash, or bytes.
const char* pick_string(FuzzedDataProvider& in, std::deque<std::string>& keep) {
    static const char* const pool[] = {nullptr, "", "A", "B", "h", "A|B", "x,y", "same|full|valid", "1|2|4"};
    const size_t k = in.ConsumeIntegralInRange<size_t>(0, std::size(pool));
    if (k < std::size(pool)) return pool[k];
    return keep.emplace_back(in.ConsumeRandomLengthString(24)).c_str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace ipt::reg;
    FuzzedDataProvider in(data, size);
    std::deque<std::string> keep;

    ipt_op_schema s{};
    s.struct_size = in.ConsumeBool() ? sizeof s : in.ConsumeIntegral<uint32_t>();
    s.name = in.ConsumeBool() ? "fuzz.op" : pick_string(in, keep);
    s.param_count = in.ConsumeBool() ? in.ConsumeIntegralInRange<uint32_t>(0, 8) : in.ConsumeIntegral<uint32_t>();
    switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0: s.param_stride = sizeof(ipt_param_schema); break;
    case 1: s.param_stride = sizeof(ipt_param_schema) + 8; break;  // a newer writer
    case 2: s.param_stride = sizeof(ipt_param_schema) - 8; break;
    default: s.param_stride = in.ConsumeIntegralInRange<uint32_t>(0, 4096); break;
    }
    s.alternatives = in.ConsumeBool() ? nullptr : pick_string(in, keep);
    s.compare = in.ConsumeIntegral<int32_t>();

    // Exactly the bytes the declared count and stride cover (none past a
    // bound no operator reaches): a read beyond them is a finding.
    const uint64_t count = s.param_count <= 64 ? s.param_count : 0;
    const size_t bytes = static_cast<size_t>(count * s.param_stride);
    auto storage = std::make_unique<unsigned char[]>(bytes ? bytes : 1);
    std::memset(storage.get(), 0, bytes ? bytes : 1);
    for (uint64_t i = 0; i < count && s.param_stride >= sizeof(ipt_param_schema); ++i) {
        ipt_param_schema p{};
        p.name = in.ConsumeProbability<float>() < 0.9f ? pick_string(in, keep) : nullptr;
        p.kind = in.ConsumeIntegralInRange<int32_t>(-1, 8);
        p.dtypes = in.ConsumeIntegral<uint32_t>();
        p.flags = in.ConsumeIntegral<uint32_t>();
        p.values = pick_string(in, keep);
        p.default_text = pick_string(in, keep);
        p.min_value = in.ConsumeBool() ? -IPT_UNBOUNDED : in.ConsumeFloatingPoint<double>();
        p.max_value = in.ConsumeBool() ? IPT_UNBOUNDED : in.ConsumeFloatingPoint<double>();
        p.min_count = in.ConsumeIntegralInRange<uint32_t>(0, 8);
        p.max_count = in.ConsumeBool() ? in.ConsumeIntegralInRange<uint32_t>(0, 16) : in.ConsumeIntegral<uint32_t>();
        p.ref = pick_string(in, keep);
        std::memcpy(storage.get() + i * s.param_stride, &p, sizeof p);
    }
    s.params = in.ConsumeProbability<float>() < 0.95f ? reinterpret_cast<const ipt_param_schema*>(storage.get())
                                                     : nullptr;

    if (check_schema(&s, 0) != IPT_OK) return 0;

    // Accepted: use it as the registry does, in this library's layout.
    ipt_op_schema copy = s;
    std::vector<ipt_param_schema> params(s.param_count);
    for (uint32_t i = 0; i < s.param_count; ++i) params[i] = *ipt_op_param(&s, i);
    copy.param_stride = sizeof(ipt_param_schema);
    copy.params = params.data();
    for (const ipt_param_schema& p : params) {
        ParamValue v;
        if (p.kind != IPT_PARAM_INPUT && p.kind != IPT_PARAM_OUTPUT)
            parse_param_text(copy, p, p.default_text ? p.default_text : in.ConsumeRandomLengthString(32).c_str(), &v);
    }
    std::vector<ParamValue> values(copy.param_count);
    validate_call(copy, values, nullptr);
    return 0;
}
