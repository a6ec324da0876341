// SPDX-License-Identifier: Apache-2.0
// `ipt conformance`: certifies devices and plugins against the CPU reference
// with the engine in conformance/ (see docs/conformance.md).
#include <unistd.h>

#include <iostream>
#include <memory>

#include "command.hpp"
#include "conformance.hpp"

namespace {

struct Options {
    ipt::conformance::Options suite;
    uint64_t seed = 0;
    bool worker = false;
    bool in_process = false;
};

// This program, run again in its worker mode for the plugins under test.
// Through /proc/self/exe, which stays this program's file even when a
// rebuild or an upgrade has replaced the path it was started from.
std::vector<std::string> worker_command() {
    if (access("/proc/self/exe", X_OK) != 0) return {};  // no isolation: the plugins run in this process
    return {"/proc/self/exe", "conformance", "--worker"};
}

ipt::cli::Action setup(CLI::App& sub) {
    auto opt = std::make_shared<Options>();
    ipt::conformance::Options& s = opt->suite;
    sub.add_option("--device", s.device, "Certify only this device (id, kind or name)");
    sub.add_option("--plugin", s.plugins,
                   "Certify what this plugin brings (repeatable; nothing else is loaded besides the CPU reference)");
    sub.add_option("--op", s.op, "Certify only this operator (conv2 or ipt.conv2)");
    sub.add_flag("--quick", s.quick, "Large case 256x256 instead of 2048x2048");
    sub.add_flag("--json", s.json, "Print the report as JSON");
    CLI::Option* seed = sub.add_option("--seed", opt->seed, "Replay the inputs of an earlier run");
    sub.add_option("--case", s.case_filter, "Only cases whose label matches this pattern (* and ?)");
    sub.add_option("--reference", s.reference, "The CPU reference plugin file (default: libipt_cpu.so next to libipt, whatever IPT_PLUGIN_PATH holds)");
    sub.add_option("--deviations", s.deviations, "Known-deviation list to use instead of the built-in one");
    sub.add_option("--case-timeout", s.case_timeout,
                   "Seconds a case of a --plugin may take (10 times that for the large case); past it the case fails")
        ->capture_default_str()
        ->check(CLI::Range(0.001, 1e6))
        ->type_name("SECONDS");
    sub.add_flag("--in-process", opt->in_process,
                 "Run the --plugin in this process (under a debugger); a crash or a hang of it then ends the run");
    // Internal: the child process that runs the plugins under test for the parent.
    sub.add_flag("--worker", opt->worker)->group("");
    return [opt, seed] {
        if (opt->worker) return ipt::conformance::run_conformance_worker(opt->suite.plugins, opt->suite.quick);
        if (seed->count()) opt->suite.seed = opt->seed;
        if (!opt->in_process) opt->suite.worker_command = worker_command();
        return ipt::conformance::run_conformance(opt->suite, std::cout, std::cerr);
    };
}

IPT_CLI_COMMAND("conformance", "Certify devices and plugins against the CPU reference, operator by operator", setup);

}  // namespace
