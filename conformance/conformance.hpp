// SPDX-License-Identifier: Apache-2.0
// The OpenIPT conformance suite: every operator, on every device (or the
// devices and implementations one plugin brings), against the CPU reference.
//
//   ipt::conformance::Options opt;
//   opt.plugins = {"/path/libacme.so"};
//   int code = ipt::conformance::run_conformance(opt, std::cout, std::cerr);
//
// With --plugin and a worker command, the plugins' calls run in a child
// process: a crash or a hang (past the case time limit) fails that case, and
// the next case runs in a fresh child.
//
// Exit codes: 0 every certified case passed (expected fails and skips
// allowed), 1 a case failed or the deviation list is malformed, 2 a usage
// error (unknown operator or device, a plugin that does not load), 77 nothing
// could be certified (no implementation on any device; the reason is printed).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ipt::conformance {

inline constexpr int kExitPass = 0;
inline constexpr int kExitFail = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitNothingCertified = 77;  // ctest SKIP_RETURN_CODE

enum class Progress { Auto, Lines, Off };  // Auto: one overwritten line on a terminal

struct Options {
    std::string device;                // id, kind or name; "" = every device
    std::vector<std::string> plugins;  // certify what these plugins bring (nothing else is loaded)
    std::string op;                    // "conv2" or "ipt.conv2"; "" = every operator
    bool quick = false;                // large case 256^2 instead of 2048^2
    bool json = false;                 // JSON on `out` instead of the tables
    std::optional<uint64_t> seed;      // replay; random when absent (printed)
    std::string reference;             // CPU reference plugin file; "" = libipt_cpu.so next to libipt
    std::string deviations;            // deviation list file; "" = the built-in conformance/deviations.txt
    std::string case_filter;           // only cases whose label matches this glob
    Progress progress = Progress::Auto;
    // Isolation of `plugins` (conformance_worker.hpp): the argv of the worker
    // mode, e.g. {"/path/to/ipt", "conformance", "--worker"}. Empty: the
    // plugins run in this process, and a crash or a hang of theirs is ours.
    std::vector<std::string> worker_command;
    double case_timeout = 60;          // seconds per case in the worker; large cases get 10 times that
};

// The hidden worker mode of `ipt conformance --worker`: answers the parent on
// stdin. Returns the process exit code.
int run_conformance_worker(const std::vector<std::string>& plugins, bool quick);

int run_conformance(const Options& options, std::ostream& out, std::ostream& err);

}  // namespace ipt::conformance
