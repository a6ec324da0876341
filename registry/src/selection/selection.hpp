// SPDX-License-Identifier: Apache-2.0
// Selection: the order in which a call tries the implementations of its
// operator. The static order (the inputs' device, priority, device id) and,
// under IPT_SELECT_AUTO, the cost model (cost.cpp) with its measurements and
// the tuning cache they are kept in (tuning.hpp). call.cpp builds, validates
// and runs calls; it asks this for the order and hands it a way to run an
// implementation for measurement.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "internal.hpp"

namespace ipt::reg {

// What the dispatch record shows of one candidate (ipt_candidate_info).
struct CandidateRecord {
    std::string plugin, variant, note;
    uint32_t device_id = 0;
    double run_ms = -1, transfer_ms = 0, cost_ms = -1;
    uint64_t output_bytes = 0;
    uint32_t output_count = 0;
    int32_t source = IPT_COST_STATIC;
    bool chosen = false;
};

// An implementation the call may run, and what the selection found of it.
struct Candidate {
    const Impl* impl;
    bool on_input_device;
    CandidateRecord record;
};

// One synchronous run of an implementation on given values, for measurement.
// `held` keeps the run's outputs (and the inputs it moved) until the result
// is dropped.
struct TrialRun {
    ipt_status status = IPT_OK;
    std::string message;  // the plugin's, on failure or decline
    double run_ms = 0;
    uint64_t output_bytes = 0;
    uint32_t output_count = 0;
    std::shared_ptr<void> held;
};
using RunTrial = std::function<TrialRun(const std::vector<ParamValue>& values, const Impl& impl)>;

// Orders `cands` (all of them on the pinned device when `pinned`) for trying:
// the static order, then, under IPT_SELECT_AUTO with more than one candidate,
// by cost, measuring with `run` what the tuning cache lacks (costs, declines
// and failures are left in each candidate's record). `input_device` is where
// the call's data lives (nullptr: no image input). Returns whether the order
// is by cost.
bool order_candidates(ipt_context* ctx, const ipt_op_schema& op, const std::vector<ParamValue>& values,
                      std::vector<Candidate>& cands, bool pinned, const Device* input_device, const RunTrial& run);

}  // namespace ipt::reg
