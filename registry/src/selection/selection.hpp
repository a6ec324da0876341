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
    double expected_ms = -1;  // what measuring expects a run to take (a prior); < 0 unknown
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

// What the selection decided besides the order.
struct Ordering {
    bool by_cost = false;  // ranked by cost (IPT_SELECT_AUTO with more than one candidate)
    // Some candidates are still unmeasured for this key: the call that runs
    // is timed (synchronously) and reported to observe_run, which keeps the
    // time as a prior of that candidate and adds it to what the key has spent.
    bool observe = false;
    std::string key, family;
    uint64_t input_bytes = 0;
    std::string tail;  // for the dispatch reason: what was left unmeasured and why
};

// Orders `cands` (all of them on the pinned device when `pinned`) for trying:
// the static order, then, under IPT_SELECT_AUTO with more than one candidate,
// by cost. Candidates the tuning cache holds are priced from it; the others
// from priors (tuning.hpp), and measured with `run` only once the calls of
// their key have spent what measuring them costs (at once under
// IPT_SELECT=measure). Costs, priors, declines and failures are left in each
// candidate's record. `input_device` is where the call's data lives (nullptr:
// no image input).
Ordering order_candidates(ipt_context* ctx, const ipt_op_schema& op, const std::vector<ParamValue>& values,
                          std::vector<Candidate>& cands, bool pinned, const Device* input_device, const RunTrial& run);

// The call ran `ran` (synchronously, as Ordering::observe asked): `run_ms`
// its run, `transfer_ms` the moves of its inputs.
void observe_run(ipt_context* ctx, const Ordering& ordering, const Candidate& ran, double run_ms, double transfer_ms,
                 uint64_t output_bytes, uint32_t output_count);

}  // namespace ipt::reg
