// SPDX-License-Identifier: Apache-2.0
#include "conformance.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "conformance_deviations.hpp"
#include "conformance_run.hpp"
#include "conformance_worker.hpp"
#include "ipt/ipt.hpp"

namespace ipt::conformance {

namespace {

enum class Outcome { Pass, Fail, ExpectedFail, Skip };

// How often a listed deviation matched the cases of a row.
struct DeviationUse {
    std::string reason;
    size_t failed = 0, passed = 0;  // passed: listed, yet the case matched the reference
    std::string example;            // the first case that did deviate, with its message
};

// Failing cases listed one by one in the JSON report, per operator and implementation.
constexpr size_t kMaxListedFailures = 200;

// One line of a device's table: an operator's implementation (plugin and
// variant) on that device, with the tally of its cases.
struct Row {
    uint32_t device = 0;
    std::string op;
    bool runnable = false;  // has an implementation and a reference
    Target target;
    std::string skip_reason;  // why the whole row is skipped
    size_t cases = 0, pass = 0, fail = 0, xfail = 0, skip = 0;
    size_t rejected_by_both = 0;  // both refused the call with the same status
    double worst_abs = 0, worst_ratio = 0;
    std::string first_fail_case, first_fail_message;
    std::vector<std::pair<std::string, std::string>> failures;  // case, message; the first kMaxListedFailures
    std::string first_skip_case, first_skip_message;
    std::string first_rejected;  // a case both refused, with the reference's message
    std::map<std::string, DeviationUse> deviations;  // by "file:line"

    std::string implementation() const {
        if (!runnable) return "-";
        return target.variant.empty() ? target.plugin : target.plugin + ":" + target.variant;
    }
    std::string result() const {
        if (fail) return "FAIL";
        if (xfail) return "expected fail";
        if (pass) return "pass";
        return "skip";
    }
};

struct DeviceInfo {
    uint32_t id;
    std::string name, kind, plugin;
};

std::string str(const char* s) { return s ? s : ""; }

std::string fmt(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string status_text(ipt_status s) { return str(ipt_status_name(s)); }

// Progress on stderr: one line rewritten in place on a terminal, otherwise a
// line per operator.
class ProgressLine {
public:
    ProgressLine(std::ostream& err, Progress mode) : err_(err) {
        const bool tty = &err == &std::cerr && isatty(STDERR_FILENO);
        mode_ = mode == Progress::Auto ? (tty ? Progress::Auto : Progress::Lines) : mode;
    }
    void op_started(const std::string& op, size_t cases, size_t targets) {
        if (mode_ == Progress::Lines)
            err_ << "[conformance] " << op << ": " << cases << " cases on " << targets << " implementation(s)\n" << std::flush;
    }
    void update(const std::string& op, size_t index, size_t total, const std::string& label) {
        if (mode_ != Progress::Auto) return;
        const auto now = std::chrono::steady_clock::now();
        if (index + 1 != total && now - last_ < std::chrono::milliseconds(100)) return;
        last_ = now;
        std::string line = "[conformance] " + op + " " + std::to_string(index + 1) + "/" + std::to_string(total) + "  " + label;
        if (line.size() > 110) line = line.substr(0, 107) + "...";
        err_ << "\r\033[K" << line << std::flush;
        dirty_ = true;
    }
    void clear() {
        if (dirty_) err_ << "\r\033[K" << std::flush;
        dirty_ = false;
    }
    ~ProgressLine() { clear(); }

private:
    std::ostream& err_;
    Progress mode_;
    bool dirty_ = false;
    std::chrono::steady_clock::time_point last_{};
};

struct CaseOutcome {
    Outcome outcome = Outcome::Pass;
    std::string message;
    Verdict verdict;
    bool compared = false;
    bool rejected_by_both = false;
};

// The verdict on one case: reference run, device run, and the comparison.
CaseOutcome judge(const ipt_op_schema& schema, const CaseSpec& c, const NamedImages& inputs, const RunResult& ref,
                  const RunResult& got, const Row& row) {
    CaseOutcome o;
    auto fail = [&](std::string m) {
        o.outcome = Outcome::Fail;
        o.message = std::move(m);
        return o;
    };
    // A crash or a hang of the isolated plugin is a failure whatever the reference did.
    if (!got.died.empty()) return fail("the case did not complete: " + got.died);
    if (!ref.died.empty()) return fail("the reference (the plugin's own host implementation) did not complete: " + ref.died);
    auto skip = [&](std::string m) {
        o.outcome = Outcome::Skip;
        o.message = std::move(m);
        return o;
    };
    if (ref.status == IPT_ERR_UNSUPPORTED || ref.status == IPT_ERR_NOT_FOUND)
        return skip("the reference declined: " + ref.error);
    if (c.expect_error) {
        if (ref.status != IPT_ERR_INVALID_ARGUMENT)
            return fail("the reference " + (ref.status == IPT_OK ? std::string("accepted") : "returned " + status_text(ref.status)) +
                        " a call that must be rejected with IPT_ERR_INVALID_ARGUMENT");
        if (got.status == IPT_ERR_INVALID_ARGUMENT) return o;
        if (got.status == IPT_ERR_UNSUPPORTED) return skip("declined: " + got.error);
        return fail(got.status == IPT_OK ? "accepted a call that must be rejected with IPT_ERR_INVALID_ARGUMENT"
                                         : "returned " + status_text(got.status) + " instead of IPT_ERR_INVALID_ARGUMENT: " + got.error);
    }
    if (ref.status != IPT_OK) {
        if (got.status == ref.status) {
            o.rejected_by_both = true;
            return o;
        }
        return fail("the reference failed with " + status_text(ref.status) + " (" + ref.error + "), the device " +
                    (got.status == IPT_OK ? std::string("accepted the call") : "returned " + status_text(got.status)));
    }
    if (got.status == IPT_ERR_UNSUPPORTED) return skip("declined: " + got.error);
    if (got.status != IPT_OK) return fail(status_text(got.status) + ": " + got.error);
    if (got.ran_on != row.device || (!row.target.plugin.empty() && got.ran_plugin != row.target.plugin))
        return fail("ran on device " + std::to_string(got.ran_on) + " (plugin " + got.ran_plugin + ") instead of device " +
                    std::to_string(row.device) + " (plugin " + row.target.plugin + ")");
    o.verdict = compare_outputs(schema, c, inputs, ref.outputs, got.outputs, row.target.variant == "fft");
    o.compared = true;
    if (!o.verdict.ok) return fail(o.verdict.message);
    return o;
}

uint64_t fresh_seed() {
    std::random_device rd;
    return (static_cast<uint64_t>(rd()) << 32 | rd()) % 1000000000000ull;  // short enough to type
}

bool resolve_device(const std::vector<DeviceInfo>& devices, const std::string& text, uint32_t& id) {
    const bool numeric = !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
    for (const DeviceInfo& d : devices)
        if (numeric ? std::to_string(d.id) == text : d.kind == text) return id = d.id, true;
    for (const DeviceInfo& d : devices)
        if (d.name == text) return id = d.id, true;
    return false;
}

// Text tables with columns padded to their widest cell.
void print_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows, const std::string& indent,
                 const std::set<size_t>& right) {
    std::vector<size_t> width;
    for (const auto& r : rows)
        for (size_t i = 0; i < r.size(); ++i) {
            if (width.size() <= i) width.push_back(0);
            width[i] = std::max(width[i], r[i].size());
        }
    for (const auto& r : rows) {
        std::string line = indent;
        for (size_t i = 0; i < r.size(); ++i) {
            const size_t pad = width[i] - r[i].size();
            const bool last = i + 1 == r.size();
            if (right.count(i)) line += std::string(pad, ' ') + r[i];
            else line += r[i] + (last ? "" : std::string(pad, ' '));
            if (!last) line += "  ";
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out << line << "\n";
    }
}

std::string ratio_text(double r) {
    if (std::isinf(r)) return "inf";  // an exact rule failed, or a non-finite value where the reference is finite
    return fmt("%.3g", r);
}

}  // namespace

int run_conformance(const Options& opt, std::ostream& out, std::ostream& err) {
    const uint64_t seed = opt.seed ? *opt.seed : fresh_seed();
    const DeviationList deviations = load_deviations(opt.deviations);
    // Every output the registry allocates is filled with a pattern first, so
    // an element an implementation forgets to write cannot match by luck. The
    // tested devices and the reference get different patterns: an element
    // both leave unwritten still differs.
    setenv("IPT_POISON_OUTPUTS", "0xA5", 1);

    try {
        // ---- the contexts ----------------------------------------------------
        std::unique_ptr<ipt::Context> test;
        if (!opt.plugins.empty()) {
            test = std::make_unique<ipt::Context>(IPT_CONTEXT_NO_DISCOVERY);
            for (const std::string& path : opt.plugins) {
                if (ipt_load_plugin(test->get(), path.c_str()) == IPT_OK) continue;
                const std::string why = ipt_last_error();
                err << "ipt conformance: plugin " << path << " did not load: " << why << "\n";
                const auto reports = test->plugin_reports();
                if (!reports.empty()) err << "  load report: " << describe_report(reports.back()) << "\n";
                return kExitUsage;
            }
        } else {
            test = std::make_unique<ipt::Context>();
        }
        std::string ref_error;
        setenv("IPT_POISON_OUTPUTS", "0x5A", 1);
        std::unique_ptr<Reference> reference = open_reference(opt.reference, ref_error);
        setenv("IPT_POISON_OUTPUTS", "0xA5", 1);
        if (!reference) {
            err << "ipt conformance: " << ref_error << "\n";
            return kExitUsage;
        }

        // ---- what to certify ------------------------------------------------
        std::vector<const ipt_op_schema*> ops;
        for (const ipt_op_schema* s : test->ops()) if (s) ops.push_back(s);
        if (!opt.op.empty()) {
            const ipt_op_schema* s = ipt_op_find(test->get(), opt.op.c_str());
            if (!s && opt.op.find('.') == std::string::npos) s = ipt_op_find(test->get(), ("ipt." + opt.op).c_str());
            if (!s) {
                std::string known;
                for (const ipt_op_schema* o : ops) known += (known.empty() ? "" : ", ") + std::string(o->name);
                err << "ipt conformance: unknown operator '" << opt.op << "'; operators: " << known << "\n";
                return kExitUsage;
            }
            ops = {s};
        }
        std::vector<DeviceInfo> devices;
        for (const ipt_device_info& d : test->devices())
            devices.push_back({d.id, str(d.name), str(d.kind), str(d.plugin)});
        std::vector<DeviceInfo> selected = devices;
        if (!opt.device.empty()) {
            uint32_t id = 0;
            if (!resolve_device(devices, opt.device, id)) {
                std::string known;
                for (const DeviceInfo& d : devices)
                    known += (known.empty() ? "" : ", ") + std::to_string(d.id) + " " + d.name + " (" + d.kind + ")";
                err << "ipt conformance: unknown device '" << opt.device << "'; devices: " << known << "\n";
                return kExitUsage;
            }
            selected.erase(std::remove_if(selected.begin(), selected.end(), [&](const DeviceInfo& d) { return d.id != id; }),
                           selected.end());
        }
        const bool plugin_mode = !opt.plugins.empty();
        // The plugins' calls run in a child process (started at the first case).
        std::unique_ptr<Worker> worker;
        if (plugin_mode && !opt.worker_command.empty())
            worker = std::make_unique<Worker>(opt.worker_command, opt.plugins, opt.quick);

        RecipeOptions recipe_options;
        recipe_options.quick = opt.quick;
        recipe_options.large_size = opt.quick ? 256 : 2048;

        err << "[conformance] seed " << seed << " (replay with --seed " << seed << ")" << (opt.quick ? ", quick" : "") << "\n";
        ProgressLine progress(err, opt.progress);
        std::vector<Row> rows;

        // ---- run ------------------------------------------------------------
        for (const ipt_op_schema* schema : ops) {
            const std::string op = schema->name;
            Target ref_target;
            std::string ref_why;
            bool have_ref = reference->target_for(op, ref_target, ref_why);
            std::string ref_note;
            if (!have_ref && !ipt_op_find(reference->ctx->get(), op.c_str())) {
                // An operator a plugin introduces: its own host implementation is the reference.
                std::vector<Target> host = targets_on(*test, op, IPT_DEVICE_HOST);
                auto plain = std::find_if(host.begin(), host.end(), [](const Target& t) { return t.variant.empty(); });
                if (!host.empty()) {
                    ref_target = plain != host.end() ? *plain : host.front();
                    have_ref = true;
                } else {
                    ref_why = "no reference: " + op + " is not built in and has no host implementation";
                }
            }
            std::vector<size_t> mine;  // rows of this operator
            for (const DeviceInfo& d : selected) {
                std::vector<Target> targets = targets_on(*test, op, d.id);
                if (targets.empty()) {
                    if (plugin_mode) continue;  // not something the plugin brings
                    Row r;
                    r.device = d.id;
                    r.op = op;
                    r.skip_reason = "no implementation";
                    rows.push_back(r);
                    continue;
                }
                for (const Target& t : targets) {
                    Row r;
                    r.device = d.id;
                    r.op = op;
                    r.target = t;
                    r.runnable = have_ref;
                    if (!have_ref) r.skip_reason = ref_why;
                    rows.push_back(r);
                    if (have_ref) mine.push_back(rows.size() - 1);
                }
            }
            if (mine.empty()) continue;

            // The worker finds a case by its index in the unfiltered list.
            const std::vector<CaseSpec> all_cases = recipes_for(*schema, recipe_options);
            std::vector<size_t> cases;
            for (size_t k = 0; k < all_cases.size(); ++k)
                if (opt.case_filter.empty() || glob_match(opt.case_filter, all_cases[k].label())) cases.push_back(k);
            auto run_on = [&](const Target& t, const CaseSpec& c, size_t index, const std::string& label,
                              const NamedImages& inputs) {
                if (!worker || t.ctx != test.get()) return run_case(t, *schema, c, inputs);
                const WorkerRequest q{op, index, label, seed, t.device, t.plugin, t.variant, t.pin_variant};
                RunResult r = worker->run(q, c.large ? 10 * opt.case_timeout : opt.case_timeout);
                if (!r.died.empty()) {
                    progress.clear();
                    err << "[conformance] " << op << " on device " << t.device << " (" << t.describe() << "): case '"
                        << label << "' (seed " << seed << "): " << r.died << "; the next case runs in a fresh process\n"
                        << std::flush;
                }
                return r;
            };
            progress.op_started(op, cases.size(), mine.size());
            for (size_t ci = 0; ci < cases.size(); ++ci) {
                const CaseSpec& c = all_cases[cases[ci]];
                const std::string label = c.label();
                progress.update(op, ci, cases.size(), label);
                const NamedImages inputs = generate_inputs(c, op, seed);
                const RunResult ref = run_on(ref_target, c, cases[ci], label, inputs);
                for (size_t ri : mine) {
                    Row& row = rows[ri];
                    const RunResult got = run_on(row.target, c, cases[ci], label, inputs);
                    CaseOutcome o = judge(*schema, c, inputs, ref, got, row);
                    const std::string kind = devices[row.device].kind;
                    const Deviation* dev = o.outcome == Outcome::Skip ? nullptr : deviations.match(op, row.target.variant, kind, label);
                    if (dev) {
                        DeviationUse& use = row.deviations[dev->where];
                        use.reason = dev->reason;
                        if (o.outcome == Outcome::Pass) {
                            ++use.passed;
                        } else {
                            ++use.failed;
                            if (use.example.empty()) use.example = "'" + label + "': " + o.message;
                        }
                        o.outcome = Outcome::ExpectedFail;
                    }
                    ++row.cases;
                    if (o.rejected_by_both && row.rejected_by_both++ == 0) row.first_rejected = "'" + label + "': " + ref.error;
                    if (o.compared) {
                        row.worst_abs = std::max(row.worst_abs, o.verdict.worst_abs);
                        row.worst_ratio = std::max(row.worst_ratio, o.verdict.worst_ratio);
                    }
                    switch (o.outcome) {
                    case Outcome::Pass: ++row.pass; break;
                    case Outcome::ExpectedFail: ++row.xfail; break;
                    case Outcome::Skip:
                        ++row.skip;
                        if (row.first_skip_case.empty()) row.first_skip_case = label, row.first_skip_message = o.message;
                        break;
                    case Outcome::Fail:
                        ++row.fail;
                        if (row.first_fail_case.empty()) row.first_fail_case = label, row.first_fail_message = o.message;
                        if (row.failures.size() < kMaxListedFailures) row.failures.emplace_back(label, o.message);
                        break;
                    }
                }
            }
        }
        progress.clear();

        // ---- report -----------------------------------------------------------
        struct Tally {
            size_t pass = 0, fail = 0, xfail = 0, skip = 0;
        } ops_tally, case_tally;
        for (const Row& r : rows) {
            const std::string res = r.result();
            (res == "FAIL" ? ops_tally.fail : res == "pass" ? ops_tally.pass : res == "skip" ? ops_tally.skip : ops_tally.xfail)++;
            case_tally.pass += r.pass;
            case_tally.fail += r.fail;
            case_tally.xfail += r.xfail;
            case_tally.skip += r.skip;
        }
        const bool certified_something = case_tally.pass + case_tally.fail + case_tally.xfail > 0;
        int code = kExitPass;
        if (ops_tally.fail || !deviations.errors.empty()) code = kExitFail;
        else if (!certified_something) code = kExitNothingCertified;

        // Why nothing was certified, in words (plugins without devices say why).
        std::string nothing_reason;
        if (!certified_something) {
            for (const ipt_plugin_report& r : test->plugin_reports())
                if (r.outcome == IPT_LOAD_LOADED && r.device_count == 0 && r.device_note && *r.device_note)
                    nothing_reason += (nothing_reason.empty() ? "" : "; ") + std::string("plugin ") + str(r.name) +
                                      " has no device: " + str(r.device_note);
            if (nothing_reason.empty())
                nothing_reason = rows.empty() ? "no implementation of the selected operators on the selected devices"
                                              : "every case was skipped (" + (rows.front().skip_reason.empty()
                                                                                ? rows.front().first_skip_message
                                                                                : rows.front().skip_reason) + ")";
        }

        if (opt.json) {
            nlohmann::json j;
            j["seed"] = seed;
            j["quick"] = opt.quick;
            j["reference"] = {{"plugin", reference->plugin}, {"version", reference->version}, {"path", reference->path}};
            j["isolation"] = {{"child_process", worker != nullptr},
                              {"case_timeout_s", worker ? nlohmann::json(opt.case_timeout) : nlohmann::json(nullptr)}};
            nlohmann::json devs = nlohmann::json::array();
            for (const DeviceInfo& d : selected) {
                nlohmann::json jd = {{"id", d.id}, {"name", d.name}, {"kind", d.kind}, {"plugin", d.plugin}};
                nlohmann::json jops = nlohmann::json::array();
                for (const Row& r : rows) {
                    if (r.device != d.id) continue;
                    nlohmann::json jr = {{"op", r.op},
                                         {"implementation", r.implementation()},
                                         {"plugin", r.runnable ? r.target.plugin : ""},
                                         {"variant", r.runnable ? r.target.variant : ""},
                                         {"result", r.result() == "FAIL" ? "fail" : r.result() == "expected fail" ? "expected_fail" : r.result()},
                                         {"cases", r.cases},
                                         {"pass", r.pass},
                                         {"fail", r.fail},
                                         {"expected_fail", r.xfail},
                                         {"skip", r.skip},
                                         {"rejected_by_both", r.rejected_by_both},
                                         {"first_rejected", r.first_rejected},
                                         {"worst_error", r.worst_abs},
                                         {"worst_ratio_to_bound", std::isinf(r.worst_ratio) ? nlohmann::json(nullptr) : nlohmann::json(r.worst_ratio)}};
                    if (!r.skip_reason.empty()) jr["skip_reason"] = r.skip_reason;
                    if (!r.first_fail_case.empty())
                        jr["first_failure"] = {{"case", r.first_fail_case}, {"seed", seed}, {"message", r.first_fail_message}};
                    if (!r.failures.empty()) {
                        // Every failing case (up to a cap): the pattern across cases often names the bug.
                        nlohmann::json jf = nlohmann::json::array();
                        for (const auto& [label, message] : r.failures) jf.push_back({{"case", label}, {"message", message}});
                        jr["failures"] = jf;
                    }
                    if (!r.first_skip_case.empty())
                        jr["first_skip"] = {{"case", r.first_skip_case}, {"message", r.first_skip_message}};
                    if (!r.deviations.empty()) {
                        nlohmann::json jx = nlohmann::json::array();
                        for (const auto& [where, use] : r.deviations)
                            jx.push_back({{"deviation", where}, {"reason", use.reason}, {"deviated", use.failed},
                                          {"matched_reference", use.passed}, {"example", use.example}});
                        jr["expected_failures"] = jx;
                    }
                    jops.push_back(jr);
                }
                jd["operators"] = jops;
                devs.push_back(jd);
            }
            j["devices"] = devs;
            j["deviation_errors"] = deviations.errors;
            j["summary"] = {{"pass", ops_tally.pass}, {"fail", ops_tally.fail}, {"expected_fail", ops_tally.xfail}, {"skip", ops_tally.skip}};
            j["cases"] = {{"pass", case_tally.pass}, {"fail", case_tally.fail}, {"expected_fail", case_tally.xfail}, {"skip", case_tally.skip}};
            if (!certified_something) j["nothing_certified"] = nothing_reason;
            j["exit_code"] = code;
            out << j.dump(2) << "\n";
            return code;
        }

        out << "OpenIPT conformance: seed " << seed << " (replay with --seed " << seed << "), "
            << (opt.quick ? "quick run" : "full run") << ", large case " << recipe_options.large_size << "x"
            << recipe_options.large_size << "\n";
        out << "reference: plugin " << reference->plugin << " " << reference->version << " on the host (" << reference->path << ")\n";
        if (worker)
            out << "isolation: the plugins under test run in a child process; a case fails past " << fmt("%g", opt.case_timeout)
                << " s (" << fmt("%g", 10 * opt.case_timeout) << " s for the large case)\n";
        for (const DeviceInfo& d : selected) {
            std::vector<std::vector<std::string>> table = {
                {"operator", "implementation", "result", "cases", "pass", "fail", "xfail", "skip", "worst |err|", "of bound", "note"}};
            for (const Row& r : rows) {
                if (r.device != d.id) continue;
                std::string note = r.skip_reason;
                if (note.empty() && !r.first_fail_case.empty()) note = "first failure: " + r.first_fail_case;
                if (note.empty() && r.skip && !r.pass && !r.fail) note = r.first_skip_message;
                if (note.empty() && r.rejected_by_both)
                    note = std::to_string(r.rejected_by_both) + " case(s) rejected by both, e.g. " + r.first_rejected;
                const bool compared = r.pass + r.fail + r.xfail > 0;
                table.push_back({r.op, r.implementation(), r.result(), std::to_string(r.cases), std::to_string(r.pass),
                                 std::to_string(r.fail), std::to_string(r.xfail), std::to_string(r.skip),
                                 compared ? fmt("%.3g", r.worst_abs) : "-", compared ? ratio_text(r.worst_ratio) : "-", note});
            }
            out << "\ndevice " << d.id << ": " << d.name << " (" << d.kind << ", plugin " << d.plugin << ")\n";
            if (table.size() == 1) out << "  nothing to certify on this device\n";
            else print_table(out, table, "  ", {3, 4, 5, 6, 7, 8, 9});
        }
        bool header = false;
        for (const Row& r : rows) {
            if (r.first_fail_case.empty()) continue;
            if (!header) out << "\nfailures (first failing case of each; replay with --seed " << seed << " --op OP --case 'CASE'):\n";
            header = true;
            out << "  device " << r.device << ", " << r.op << " (" << r.implementation() << "), " << r.fail << " case(s) failed\n"
                << "    case '" << r.first_fail_case << "' (seed " << seed << ")\n    " << r.first_fail_message << "\n";
        }
        header = false;
        for (const Row& r : rows) {
            if (r.deviations.empty()) continue;
            if (!header) out << "\nexpected fails (known deviations, never counted as passes):\n";
            header = true;
            out << "  device " << r.device << ", " << r.op << " (" << r.implementation() << "), " << r.xfail << " case(s)\n";
            for (const auto& [where, use] : r.deviations) {
                out << "    " << where << ": " << use.failed << " deviated, " << use.passed << " matched the reference"
                    << (use.failed == 0 ? " (the deviation may be stale)" : "") << "\n      reason: " << use.reason << "\n";
                if (!use.example.empty()) out << "      e.g. " << use.example << "\n";
            }
        }
        if (!deviations.errors.empty()) {
            out << "\ndeviation list errors (each fails the run):\n";
            for (const std::string& e : deviations.errors) out << "  " << e << "\n";
        }
        out << "\nsummary: " << ops_tally.pass << " pass, " << ops_tally.fail << " fail, " << ops_tally.xfail
            << " expected fail, " << ops_tally.skip << " skip (operator x implementation); cases: " << case_tally.pass
            << " pass, " << case_tally.fail << " fail, " << case_tally.xfail << " expected fail, " << case_tally.skip << " skip\n";
        if (!certified_something) out << "SKIP: nothing was certified: " << nothing_reason << "\n";
        return code;
    } catch (const ipt::Error& e) {
        err << "ipt conformance: " << e.what() << "\n";
        return kExitFail;
    } catch (const std::exception& e) {
        err << "ipt conformance: internal error: " << e.what() << "\n";
        return kExitFail;
    }
}

int run_conformance_worker(const std::vector<std::string>& plugins, bool quick) {
    // The answers go over stdin (a socket); stdout is the parent's stderr.
    return run_worker(plugins, quick, STDIN_FILENO);
}

}  // namespace ipt::conformance
