// SPDX-License-Identifier: Apache-2.0
#include "conformance_worker.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace ipt::conformance {

namespace {

// ---- messages: a u64 length, then fields in host byte order ----------------
// Both ends are the same program on the same machine.

class Writer {
public:
    template <class T> void put(T v) { buf_.append(reinterpret_cast<const char*>(&v), sizeof v); }
    void str(const std::string& s) {
        put<uint64_t>(s.size());
        buf_ += s;
    }
    void bytes(const std::vector<unsigned char>& b) {
        put<uint64_t>(b.size());
        buf_.append(reinterpret_cast<const char*>(b.data()), b.size());
    }
    std::string framed() const {
        std::string out(sizeof(uint64_t), '\0');
        const uint64_t n = buf_.size();
        std::memcpy(out.data(), &n, sizeof n);
        return out + buf_;
    }

private:
    std::string buf_;
};

class Reader {
public:
    explicit Reader(const std::string& b) : b_(b) {}
    template <class T> T get() {
        T v;
        need(sizeof v);
        std::memcpy(&v, b_.data() + at_, sizeof v);
        at_ += sizeof v;
        return v;
    }
    std::string str() {
        const uint64_t n = get<uint64_t>();
        need(n);
        std::string s = b_.substr(at_, n);
        at_ += n;
        return s;
    }
    std::vector<unsigned char> bytes() {
        const uint64_t n = get<uint64_t>();
        need(n);
        std::vector<unsigned char> v(b_.begin() + static_cast<std::ptrdiff_t>(at_),
                                     b_.begin() + static_cast<std::ptrdiff_t>(at_ + n));
        at_ += n;
        return v;
    }

private:
    void need(uint64_t n) const {
        if (n > b_.size() - at_) throw std::runtime_error("truncated message from the conformance worker");
    }
    const std::string& b_;
    size_t at_ = 0;
};

bool send_all(int fd, const std::string& data) {
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<size_t>(n);
    }
    return true;
}

enum class Got { Ok, Closed, TimedOut };

using Clock = std::chrono::steady_clock;

// Reads exactly n bytes; a deadline of Clock::time_point::max() waits forever.
Got recv_exact(int fd, char* dst, size_t n, Clock::time_point deadline) {
    size_t done = 0;
    while (done < n) {
        if (deadline != Clock::time_point::max()) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) return Got::TimedOut;
            pollfd p{fd, POLLIN, 0};
            const int r = poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
            if (r < 0 && errno != EINTR) return Got::Closed;
            if (r <= 0) continue;
        }
        const ssize_t got = recv(fd, dst + done, n - done, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return Got::Closed;
        done += static_cast<size_t>(got);
    }
    return Got::Ok;
}

Got recv_message(int fd, std::string& out, Clock::time_point deadline) {
    uint64_t n = 0;
    if (Got g = recv_exact(fd, reinterpret_cast<char*>(&n), sizeof n, deadline); g != Got::Ok) return g;
    out.assign(n, '\0');
    return recv_exact(fd, out.data(), n, deadline);
}

Clock::time_point deadline_after(double seconds) {
    return Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}

constexpr uint32_t kReady = 0x49505457;  // "IPTW"
constexpr double kStartSeconds = 60;

}  // namespace

// ---- the parent's side --------------------------------------------------------

Worker::Worker(std::vector<std::string> command, std::vector<std::string> plugins, bool quick)
    : command_(std::move(command)) {
    for (const std::string& p : plugins) command_.insert(command_.end(), {"--plugin", p});
    if (quick) command_.push_back("--quick");
}

Worker::~Worker() { stop(false); }

bool Worker::start(double timeout_s, std::string& why) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        why = std::string("cannot create the worker's socket: ") + std::strerror(errno);
        return false;
    }
    // The worker answers on its stdin; its stdout goes to our stderr, so
    // that nothing a plugin prints lands in the report.
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, sv[1], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
    std::vector<char*> argv;
    for (std::string& a : command_) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    close(sv[1]);
    if (rc != 0) {
        close(sv[0]);
        why = "cannot start the worker " + command_[0] + ": " + std::strerror(rc);
        return false;
    }
    pid_ = pid;
    fd_ = sv[0];
    std::string hello;
    const Got g = recv_message(fd_, hello, deadline_after(timeout_s));
    if (g != Got::Ok) {
        why = "the worker did not start: " + end_and_describe(g == Got::TimedOut, timeout_s);
        return false;
    }
    Reader r(hello);
    if (r.get<uint32_t>() != kReady) {
        why = "the worker did not start: " + r.str();
        stop(true);
        return false;
    }
    return true;
}

void Worker::stop(bool kill_it) {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
    if (pid_ <= 0) return;
    if (kill_it) kill(pid_, SIGKILL);
    // Closing the socket ends a healthy worker; one that lingers is killed.
    for (int k = 0;; ++k) {
        int status = 0;
        const pid_t w = waitpid(pid_, &status, kill_it ? 0 : WNOHANG);
        if (w == pid_ || (w < 0 && errno != EINTR)) break;
        if (k == 500) kill(pid_, SIGKILL), kill_it = true;
        else std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    pid_ = -1;
}

std::string Worker::end_and_describe(bool timed_out, double timeout_s) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", timeout_s);
    if (timed_out) {
        stop(true);
        return std::string("no answer within ") + limit + " s (the case time limit, --case-timeout); its process was killed";
    }
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
    int status = 0;
    pid_t w = -1;
    for (int k = 0; k < 500; ++k) {  // the worker has closed its end: it is ending
        w = waitpid(pid_, &status, WNOHANG);
        if (w != 0) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (w == 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        pid_ = -1;
        return "its process closed the connection and did not exit; it was killed";
    }
    pid_ = -1;
    if (w > 0 && WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        const char* name = sigabbrev_np(sig);
        return std::string("its process died of signal ") + std::to_string(sig) + (name ? std::string(" (SIG") + name + ")" : "") +
               ": " + strsignal(sig);
    }
    if (w > 0 && WIFEXITED(status)) return "its process exited with status " + std::to_string(WEXITSTATUS(status)) + " mid-case";
    return "its process ended";
}

RunResult Worker::run(const WorkerRequest& q, double timeout_s) {
    RunResult res;
    auto failed = [&](std::string why) {
        res = RunResult{};
        res.died = std::move(why);
        res.status = IPT_ERR_PLUGIN;
        res.error = res.died;
        return res;
    };
    if (fd_ < 0) {
        // Loading the plugins (a GPU driver's start, a sanitizer's) is not
        // the case's time: the start has its own, longer limit.
        std::string why;
        if (!start(std::max(timeout_s, kStartSeconds), why)) return failed(why);
    }
    Writer w;
    w.str(q.op);
    w.put<uint64_t>(q.case_index);
    w.str(q.label);
    w.put<uint64_t>(q.seed);
    w.put<uint32_t>(q.device);
    w.str(q.plugin);
    w.str(q.variant);
    w.put<uint8_t>(q.pin_variant);
    const Clock::time_point deadline = deadline_after(timeout_s);
    if (!send_all(fd_, w.framed())) return failed(end_and_describe(false, timeout_s));
    std::string answer;
    if (Got g = recv_message(fd_, answer, deadline); g != Got::Ok) return failed(end_and_describe(g == Got::TimedOut, timeout_s));
    Reader r(answer);
    res.status = static_cast<ipt_status>(r.get<int32_t>());
    res.error = r.str();
    res.ms = r.get<double>();
    res.ran_on = r.get<uint32_t>();
    res.ran_plugin = r.str();
    res.ran_variant = r.str();
    const uint64_t outputs = r.get<uint64_t>();
    for (uint64_t k = 0; k < outputs; ++k) {
        const std::string name = r.str();
        HostImage h;
        h.dtype = static_cast<ipt_dtype>(r.get<int32_t>());
        h.rows = r.get<int64_t>();
        h.cols = r.get<int64_t>();
        h.channels = r.get<int64_t>();
        h.bytes = r.bytes();
        if (h.bytes.size() != h.numel() * element_size(h.dtype))
            return failed("the worker sent output " + name + " of the wrong size");
        res.outputs.set(name, std::move(h));
    }
    return res;
}

// ---- the worker's side --------------------------------------------------------

int run_worker(const std::vector<std::string>& plugins, bool quick, int fd) {
    // A parent that is killed (a test's time limit) takes a hung worker with it.
    const pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) return 1;
    // From here on stdout is the parent's stderr (see Worker::start), so the
    // socket is the only channel of answers.
    std::unique_ptr<ipt::Context> ctx;
    std::string load_error;
    try {
        ctx = std::make_unique<ipt::Context>(IPT_CONTEXT_NO_DISCOVERY);
        for (const std::string& p : plugins)
            if (ipt_load_plugin(ctx->get(), p.c_str()) != IPT_OK) {
                load_error = "plugin " + p + " did not load: " + ipt_last_error();
                break;
            }
    } catch (const std::exception& e) {
        load_error = e.what();
    }
    {
        Writer hello;
        hello.put<uint32_t>(load_error.empty() ? kReady : 0);
        hello.str(load_error);
        if (!send_all(fd, hello.framed()) || !load_error.empty()) return 1;
    }
    RecipeOptions options;
    options.quick = quick;
    options.large_size = quick ? 256 : 2048;
    std::map<std::string, std::vector<CaseSpec>> cases;  // by operator
    for (;;) {
        std::string message;
        if (recv_message(fd, message, Clock::time_point::max()) != Got::Ok) return 0;  // the parent is done
        RunResult res;
        try {
            Reader r(message);
            WorkerRequest q;
            q.op = r.str();
            q.case_index = r.get<uint64_t>();
            q.label = r.str();
            q.seed = r.get<uint64_t>();
            q.device = r.get<uint32_t>();
            q.plugin = r.str();
            q.variant = r.str();
            q.pin_variant = r.get<uint8_t>() != 0;
            const ipt_op_schema* schema = ipt_op_find(ctx->get(), q.op.c_str());
            if (!schema) throw std::runtime_error("the worker does not know " + q.op);
            auto it = cases.find(q.op);
            if (it == cases.end()) it = cases.emplace(q.op, recipes_for(*schema, options)).first;
            if (q.case_index >= it->second.size() || it->second[q.case_index].label() != q.label)
                throw std::runtime_error("the worker's case " + std::to_string(q.case_index) + " of " + q.op +
                                         " is not '" + q.label + "'");
            const CaseSpec& c = it->second[q.case_index];
            Target t;
            t.ctx = ctx.get();
            t.device = q.device;
            t.plugin = q.plugin;
            t.variant = q.variant;
            t.pin_variant = q.pin_variant;
            res = run_case(t, *schema, c, generate_inputs(c, q.op, q.seed));
        } catch (const std::exception& e) {
            res = RunResult{};
            res.status = IPT_ERR_INTERNAL;
            res.error = std::string("conformance worker: ") + e.what();
        }
        Writer w;
        w.put<int32_t>(res.status);
        w.str(res.error);
        w.put<double>(res.ms);
        w.put<uint32_t>(res.ran_on);
        w.str(res.ran_plugin);
        w.str(res.ran_variant);
        w.put<uint64_t>(res.outputs.items.size());
        for (const auto& [n, image] : res.outputs.items) {
            const HostImage* h = &image;
            w.str(n);
            w.put<int32_t>(h->dtype);
            w.put<int64_t>(h->rows);
            w.put<int64_t>(h->cols);
            w.put<int64_t>(h->channels);
            w.bytes(h->bytes);
        }
        if (!send_all(fd, w.framed())) return 0;
    }
}

}  // namespace ipt::conformance
