// SPDX-License-Identifier: Apache-2.0
// Isolation of the plugin under test: its calls run in a child process (the
// worker), so a crash or a hang in one case becomes a failure of that case
// and the suite goes on with a fresh worker.
//
// The parent starts the worker by running `command` (the `ipt` program in its
// hidden worker mode) with the plugins and --quick appended; the worker loads
// only those plugins, exactly as the parent's test context does, so device
// ids agree. Only case indexes go to the worker: it rebuilds the case from
// the recipes and its inputs from the seed, and sends the outputs back.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "conformance_run.hpp"

namespace ipt::conformance {

struct WorkerRequest {
    std::string op;
    uint64_t case_index = 0;  // in recipes_for(schema, options), before any --case filter
    std::string label;        // checked by the worker against its own case
    uint64_t seed = 0;
    uint32_t device = IPT_DEVICE_HOST;
    std::string plugin, variant;
    bool pin_variant = false;
};

class Worker {
public:
    // command: argv of the worker mode, e.g. {"/proc/self/exe", "conformance", "--worker"}.
    Worker(std::vector<std::string> command, std::vector<std::string> plugins, bool quick);
    ~Worker();
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    // Runs one case in the worker (started first when none runs). When the
    // worker dies or overruns `timeout_s`, it is ended, the result's `died`
    // says how, and the next call starts a fresh one.
    RunResult run(const WorkerRequest& request, double timeout_s);

private:
    bool start(double timeout_s, std::string& why);
    void stop(bool kill_it);
    std::string end_and_describe(bool timed_out, double timeout_s);

    std::vector<std::string> command_;
    pid_t pid_ = -1;
    int fd_ = -1;
};

// The worker's side: loads `plugins` into a context without discovery,
// answers requests on `fd` until it is closed. Returns the process exit code.
int run_worker(const std::vector<std::string>& plugins, bool quick, int fd);

}  // namespace ipt::conformance
