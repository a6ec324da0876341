// SPDX-License-Identifier: Apache-2.0
// Running one case on one implementation through the public API, and the CPU
// reference. Used by the suite (conformance.cpp) and by `ipt demo`.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "conformance_compare.hpp"
#include "conformance_recipes.hpp"
#include "ipt/ipt.hpp"

namespace ipt::conformance {

// Where a case runs: a device of a context, optionally one plugin's
// implementations and one variant.
struct Target {
    ipt::Context* ctx = nullptr;
    uint32_t device = IPT_DEVICE_HOST;
    std::string plugin;        // "" = any plugin
    std::string variant;
    bool pin_variant = false;  // run only `variant`
    std::string describe() const;  // "cpu" or "cpu:fft"
};

struct RunResult {
    ipt_status status = IPT_OK;
    std::string error;         // the library's message when status != IPT_OK
    NamedImages outputs;       // downloaded to the host
    double ms = 0;             // wall time of run + sync (best of the repeats)
    uint32_t ran_on = IPT_DEVICE_HOST;
    std::string ran_plugin;
    std::string ran_variant;
    // Set when the case ran in a worker process that crashed, exited or
    // overran the case time limit (conformance_worker.hpp): how it ended.
    std::string died;
};

// The inputs of a case, generated from the run's seed and the case label (so
// a seed replays every case, whatever ran before it).
NamedImages generate_inputs(const CaseSpec& c, const std::string& op, uint64_t seed);

// Uploads the inputs to the target's device (parameters the schema reads on
// the host stay there), runs, syncs and downloads every output produced.
RunResult run_case(const Target& target, const ipt_op_schema& schema, const CaseSpec& c, const NamedImages& inputs,
                   int repeats = 1);

// The CPU reference: its own context holding only the CPU plugin, so that no
// other plugin's host implementation can answer for it.
struct Reference {
    std::unique_ptr<ipt::Context> ctx;
    std::string path;
    std::string plugin;   // name in its load report ("cpu")
    std::string version;
    // The reference for an operator: the CPU plugin's plain implementation on
    // the host. Returns false (and why) when the CPU plugin has none.
    bool target_for(const std::string& op, Target& out, std::string& why) const;
};

// The CPU plugin that ships with OpenIPT: libipt_cpu.so in the folder of
// the libipt this process runs (the loader's default folder); "" when libipt
// cannot be located.
std::string builtin_reference_path();

// Opens the reference from `path`, or when empty from builtin_reference_path()
// (whatever IPT_PLUGIN_PATH holds). Returns nullptr and sets `error` (with the
// load-report entry) on failure.
std::unique_ptr<Reference> open_reference(const std::string& path, std::string& error);

// One load-report entry as a line: path, source, outcome, plugin, versions,
// devices, error.
std::string describe_report(const ipt_plugin_report& r);

// Implementations of an operator on a device, one per (plugin, variant).
std::vector<Target> targets_on(ipt::Context& ctx, const std::string& op, uint32_t device);

}  // namespace ipt::conformance
