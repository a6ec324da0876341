// SPDX-License-Identifier: Apache-2.0
// Tuning cache file and selection keys.
#include "tuning.hpp"

#include "common/file_access.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace ipt::reg {

namespace {

constexpr int cache_format = 1;
// A cache of one entry per operator, class, size bucket and candidate stays far
// below this; a larger file is not read (it would only cost memory and time).
constexpr size_t kMaxCacheBytes = size_t{64} << 20;

// A warning through the library's log, given once per process for a message.
void warn_once(const std::string& message) {
    static std::mutex mutex;
    static std::set<std::string> given;
    std::lock_guard lock(mutex);
    if (given.insert(message).second) host_log(2, "openipt", message.c_str());
}

// What reading a cache path found.
struct CacheFile {
    enum Kind { Missing, Empty, Ours, Corrupt, Foreign, Refused } kind;
    std::string why;  // Corrupt, Foreign, Refused
};

int bucket(int64_t n) {
    int b = 0;
    while ((int64_t{1} << b) < n) ++b;
    return b;
}

std::string dims_bucket(const ipt_tensor& t) {
    return std::to_string(bucket(t.rows)) + "x" + std::to_string(bucket(t.cols)) + "x" + std::to_string(t.channels);
}

std::string number(double v) { return format_number(v, 6); }

// What a cache file holds once parsed.
struct CacheContents {
    std::map<std::string, std::map<std::string, Measurement>> entries;
    std::map<std::string, TransferModel> rates;
    std::map<std::string, double> switches;
    std::map<std::string, std::map<std::string, Measurement>> observed;
    std::map<std::string, double> spent;
};

Measurement read_measurement(const json& m, const std::string& key) {
    Measurement x;
    x.run_ms = m.at("run_ms").get<double>();
    x.output_bytes = m.value("output_bytes", uint64_t{0});
    x.output_count = m.value("output_count", uint32_t{x.output_bytes ? 1u : 0u});
    x.family = m.value("family", std::string());
    x.input_bytes = m.value("input_bytes", uint64_t{0});
    if (!std::isfinite(x.run_ms) || x.run_ms < 0) throw std::runtime_error("bad run_ms for " + key);
    return x;
}

nlohmann::ordered_json write_measurement(const Measurement& m) {
    nlohmann::ordered_json j = {{"run_ms", m.run_ms}, {"output_bytes", m.output_bytes}, {"output_count", m.output_count}};
    if (!m.family.empty()) {
        j["family"] = m.family;
        j["input_bytes"] = m.input_bytes;
    }
    return j;
}

// Fills `c` from a parsed cache; throws with the reason when a value is bad.
void read_contents(const json& j, CacheContents& c) {
    for (auto& [key, cands] : j.at("entries").items())
        for (auto& [cand, m] : cands.items()) c.entries[key][cand] = read_measurement(m, key);
    if (j.contains("observed"))
        for (auto& [key, cands] : j.at("observed").items())
            for (auto& [cand, m] : cands.items()) c.observed[key][cand] = read_measurement(m, key);
    if (j.contains("spent"))
        for (auto& [key, ms] : j.at("spent").items()) {
            const double v = ms.get<double>();
            if (!std::isfinite(v) || v < 0) throw std::runtime_error("bad spent time for " + key);
            c.spent[key] = v;
        }
    if (j.contains("transfer"))
        for (auto& [dev, r] : j.at("transfer").items()) {
            // Entries of older files (one rate, no size points) are measured again.
            if (!r.contains("up") || !r.contains("down")) continue;
            TransferModel t;
            for (auto [curve, name] : {std::pair{&t.up, "up"}, std::pair{&t.down, "down"},
                                       std::pair{&t.up_locked, "up_locked"}, std::pair{&t.down_locked, "down_locked"}}) {
                if (!r.contains(name)) continue;  // the locked curves are optional
                for (auto& p : r.at(name)) curve->points.emplace_back(p.at(0).get<double>(), p.at(1).get<double>());
                if (!curve->valid()) throw std::runtime_error(std::string("bad ") + name + " copy times for " + dev);
            }
            c.rates[dev] = t;
        }
    if (j.contains("switch"))
        for (auto& [pair, ms] : j.at("switch").items()) {
            const double v = ms.get<double>();
            if (!std::isfinite(v) || v < 0) throw std::runtime_error("bad switch cost for " + pair);
            c.switches[pair] = v;
        }
}

// Whether text that does not parse was written by OpenIPT (a cache cut short):
// the writer puts "format" first and "written_by": "OpenIPT ..." second.
bool has_our_header(const std::string& text) {
    size_t at = 0;
    auto space = [&] {
        while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    };
    auto token = [&](std::string_view t) {
        space();
        if (text.compare(at, t.size(), t) != 0) return false;
        at += t.size();
        return true;
    };
    if (!token("{") || !token("\"format\"") || !token(":")) return false;
    space();
    const size_t digits = at;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
    return at > digits && token(",") && token("\"written_by\"") && token(":") && token("\"OpenIPT ");
}

// Reads a cache file without blocking (a FIFO or a device is refused, not
// opened for a read that never ends) and without reading more than
// kMaxCacheBytes.
CacheFile read_cache_file(const std::string& path, CacheContents& c) {
    c = CacheContents{};
    ipt::files::ReadFile file = ipt::files::read_regular(path, kMaxCacheBytes);
    if (file.missing) return {CacheFile::Missing, ""};
    if (!file.ok) return {CacheFile::Refused, file.problem};
    const std::string& text = file.data;
    // An empty file (made by touch or mktemp) is a cache with nothing in it yet.
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return {CacheFile::Empty, ""};
    json j;
    try {
        j = json::parse(text);
    } catch (const std::exception& e) {
        if (has_our_header(text)) return {CacheFile::Corrupt, e.what()};
        return {CacheFile::Foreign, "it is not JSON"};
    }
    // Ours: an object with a numeric "format" and "entries".
    if (!j.is_object() || !j.contains("format") || !j["format"].is_number_integer() || !j.contains("entries"))
        return {CacheFile::Foreign, "it holds no \"format\" and \"entries\""};
    try {
        if (j["format"].get<int>() != cache_format)
            throw std::runtime_error("format " + j["format"].dump() + " is not format " + std::to_string(cache_format));
        read_contents(j, c);
    } catch (const std::exception& e) {
        c = CacheContents{};
        return {CacheFile::Corrupt, e.what()};
    }
    return {CacheFile::Ours, ""};
}

}  // namespace

std::string TuningCache::default_path() {
    if (const char* p = std::getenv("IPT_TUNING_CACHE")) return p;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/openipt/tuning.json";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/openipt/tuning.json";
    return "";
}

void TuningCache::open(const std::string& path) {
    std::lock_guard lock(mutex_);
    path_ = path;
    entries_.clear();
    rates_.clear();
    switches_.clear();
    observed_.clear();
    spent_.clear();
    by_family_.clear();
    refused_ = false;
    dirty_ = false;
    if (path.empty()) return;
    CacheContents c;
    const CacheFile f = read_cache_file(path, c);
    switch (f.kind) {
    case CacheFile::Missing:
    case CacheFile::Empty: break;
    case CacheFile::Ours:
        entries_ = std::move(c.entries);
        rates_ = std::move(c.rates);
        switches_ = std::move(c.switches);
        observed_ = std::move(c.observed);
        spent_ = std::move(c.spent);
        reindex();
        break;
    case CacheFile::Corrupt:
        warn_once("tuning cache " + path + " is corrupt and is ignored (" + f.why + "); it will be rewritten");
        break;
    case CacheFile::Foreign:
    case CacheFile::Refused: refuse(f.why); break;
    }
}

void TuningCache::refuse(const std::string& why) {
    refused_ = true;
    warn_once("tuning cache " + path_ + (why.starts_with("it ") ? " is not a tuning cache (" + why + ")" : ": " + why) +
              "; it is left as it is and measurements stay in memory");
}

std::optional<Measurement> TuningCache::find(const std::string& key, const std::string& candidate) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return std::nullopt;
    auto jt = it->second.find(candidate);
    if (jt == it->second.end()) return std::nullopt;
    return jt->second;
}

void TuningCache::record(const std::string& key, const std::string& candidate, const Measurement& m) {
    std::lock_guard lock(mutex_);
    entries_[key][candidate] = m;
    index(key, candidate, m);
    dirty_ = true;
}

void TuningCache::index(const std::string& key, const std::string& candidate, const Measurement& m) {
    if (m.family.empty() || m.input_bytes == 0) return;
    by_family_[candidate + "\n" + m.family][m.input_bytes] = {key, m};
}

void TuningCache::reindex() {
    by_family_.clear();
    for (const auto& [key, cands] : entries_)
        for (const auto& [cand, m] : cands) index(key, cand, m);
}

std::optional<Prior> TuningCache::prior(const std::string& key, const std::string& family, uint64_t input_bytes,
                                        const std::string& candidate) {
    std::lock_guard lock(mutex_);
    if (auto it = observed_.find(key); it != observed_.end())
        if (auto jt = it->second.find(candidate); jt != it->second.end()) {
            // One run, which may have paid one-time setup (a pipeline built) or
            // met a busy machine.
            const Measurement& m = jt->second;
            return Prior{m.run_ms, m.run_ms / 2, m.run_ms * 2, m.output_bytes, m.output_count,
                         "one earlier run of this key"};
        }
    if (family.empty() || input_bytes == 0) return std::nullopt;
    auto fam = by_family_.find(candidate + "\n" + family);
    if (fam == by_family_.end() || fam->second.empty()) return std::nullopt;
    // The nearest size by ratio: the first at or above, or the last below.
    const auto& sizes = fam->second;
    auto distance = [&](uint64_t b) { return std::abs(std::log2(static_cast<double>(input_bytes) / b)); };
    auto it = sizes.lower_bound(input_bytes);
    if (it == sizes.end() || (it != sizes.begin() && distance(std::prev(it)->first) < distance(it->first))) --it;
    const Measurement* best = &it->second.second;
    const std::string* best_key = &it->second.first;
    // A run of more bytes costs no less, and at most proportionally more,
    // than one of fewer: between the measured time and the time scaled
    // linearly by bytes (fixed costs make the truth lie near the first from
    // small sizes, bandwidth near the second), widened by 1.5x for noise. The
    // estimate is their geometric mean.
    const double scale = static_cast<double>(input_bytes) / best->input_bytes;
    const double scaled = best->run_ms * scale;
    Prior p;
    p.run_ms = best->run_ms * std::sqrt(scale);
    p.low_ms = std::min(best->run_ms, scaled) / 1.5;
    p.high_ms = std::max(best->run_ms, scaled) * 1.5;
    p.output_bytes = static_cast<uint64_t>(static_cast<double>(best->output_bytes) * scale);
    p.output_count = best->output_count;
    p.from = "scaled from " + *best_key;
    return p;
}

void TuningCache::observe(const std::string& key, const std::string& candidate, const Measurement& m) {
    std::lock_guard lock(mutex_);
    observed_[key][candidate] = m;
    dirty_ = true;
}

double TuningCache::spent(const std::string& key) {
    std::lock_guard lock(mutex_);
    auto it = spent_.find(key);
    return it == spent_.end() ? 0 : it->second;
}

void TuningCache::add_spent(const std::string& key, double ms) {
    if (!std::isfinite(ms) || ms <= 0) return;
    std::lock_guard lock(mutex_);
    spent_[key] += ms;
    dirty_ = true;
}

bool TuningCache::declined(const std::string& key, const std::string& candidate) {
    std::lock_guard lock(mutex_);
    auto it = declined_.find(key);
    return it != declined_.end() && std::find(it->second.begin(), it->second.end(), candidate) != it->second.end();
}

void TuningCache::record_decline(const std::string& key, const std::string& candidate) {
    std::lock_guard lock(mutex_);
    auto& v = declined_[key];
    if (std::find(v.begin(), v.end(), candidate) == v.end()) v.push_back(candidate);
}

std::optional<TransferModel> TuningCache::transfer_model(const std::string& device_identity) {
    std::lock_guard lock(mutex_);
    auto it = rates_.find(device_identity);
    if (it == rates_.end()) return std::nullopt;
    return it->second;
}

void TuningCache::record_transfer_model(const std::string& device_identity, const TransferModel& m) {
    std::lock_guard lock(mutex_);
    rates_[device_identity] = m;
    dirty_ = true;
}

void TuningCache::observe_readout(const std::string& device_identity, uint64_t bytes, double ms) {
    std::lock_guard lock(mutex_);
    auto it = rates_.find(device_identity);
    if (it == rates_.end() || !it->second.down.valid()) return;
    CopyCurve& c = it->second.down;
    const double predicted = c.ms(static_cast<double>(bytes));
    if (!(predicted > 0) || !std::isfinite(ms) || ms < 0) return;
    // The point nearest in size (by ratio) takes the correction.
    auto nearest = std::min_element(c.points.begin(), c.points.end(), [&](const auto& a, const auto& b) {
        return std::abs(std::log(a.first / bytes)) < std::abs(std::log(b.first / bytes));
    });
    nearest->second *= 0.75 + 0.25 * (ms / predicted);
    dirty_ = true;
}

namespace {
std::string pair_name(const std::string& from, const std::string& to) { return from + " -> " + to; }
}  // namespace

std::optional<double> TuningCache::switch_cost(const std::string& from, const std::string& to) {
    std::lock_guard lock(mutex_);
    auto it = switches_.find(pair_name(from, to));
    if (it == switches_.end()) return std::nullopt;
    return it->second;
}

void TuningCache::record_switch_cost(const std::string& from, const std::string& to, double ms) {
    std::lock_guard lock(mutex_);
    switches_[pair_name(from, to)] = ms;
    dirty_ = true;
}

double CopyCurve::ms(double bytes) const {
    if (points.empty()) return 0;
    if (bytes <= points.front().first || points.size() == 1) return points.front().second;
    size_t hi = 1;
    while (hi + 1 < points.size() && points[hi].first < bytes) ++hi;
    const auto& [b0, t0] = points[hi - 1];
    const auto& [b1, t1] = points[hi];
    // A segment that got no dearer with size (noise) is priced by the larger
    // point's mean rate, which never makes a larger copy cheaper.
    const double slope = t1 > t0 ? (t1 - t0) / (b1 - b0) : t1 / b1;
    return std::max(t0, t0 + slope * (bytes - b0));
}

bool CopyCurve::valid() const {
    if (points.size() < 2) return false;
    for (size_t i = 0; i < points.size(); ++i) {
        const auto& [b, t] = points[i];
        if (!std::isfinite(b) || !std::isfinite(t) || b <= 0 || t < 0) return false;
        if (i && b <= points[i - 1].first) return false;
    }
    return true;
}

namespace {

// The file a save replaces: the target of a symlink that resolves (so the
// link stays), else the path itself.
std::string save_target(const std::string& path) {
    std::error_code ec;
    if (fs::is_symlink(path, ec)) {
        fs::path resolved = fs::canonical(path, ec);
        if (!ec) return resolved.string();
    }
    return path;
}

// Opens and locks the side file that serialises writers of one cache.
int lock_cache(const std::string& lock_path, std::string* why) {
    const int fd = ::open(lock_path.c_str(), O_CREAT | O_RDWR | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        *why = "cannot open lock file " + lock_path + ": " + std::strerror(errno);
        return -1;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *why = "lock file " + lock_path + " is not a regular file";
    } else if (::flock(fd, LOCK_EX) != 0) {
        *why = "cannot lock " + lock_path + ": " + std::strerror(errno);
    } else {
        return fd;
    }
    ::close(fd);
    return -1;
}

std::string cache_text(const CacheContents& c) {
    // "format" and "written_by" first: has_our_header() knows a cut-short file by them.
    nlohmann::ordered_json j;
    j["format"] = cache_format;
    j["written_by"] = "OpenIPT " + std::to_string(IPT_ABI_VERSION) + "." + std::to_string(IPT_API_VERSION);
    nlohmann::ordered_json& e = j["entries"] = nlohmann::ordered_json::object();
    for (auto& [k, cands] : c.entries)
        for (auto& [cand, m] : cands)
            e[k][cand] = write_measurement(m);
    nlohmann::ordered_json& t = j["transfer"] = nlohmann::ordered_json::object();
    for (auto& [d, r] : c.rates) {
        t[d] = {{"up", r.up.points}, {"down", r.down.points}};
        if (r.has_locked()) {
            t[d]["up_locked"] = r.up_locked.points;
            t[d]["down_locked"] = r.down_locked.points;
        }
    }
    j["switch"] = c.switches;
    nlohmann::ordered_json& o = j["observed"] = nlohmann::ordered_json::object();
    for (auto& [k, cands] : c.observed)
        for (auto& [cand, m] : cands) o[k][cand] = write_measurement(m);
    j["spent"] = c.spent;
    return j.dump(1) + "\n";
}

}  // namespace

ipt_status TuningCache::save() {
    std::lock_guard lock(mutex_);
    if (path_.empty() || !dirty_ || refused_) return IPT_OK;
    const std::string target = save_target(path_);
    std::error_code ec;
    const fs::path dir = fs::path(target).parent_path();
    if (!dir.empty()) fs::create_directories(dir, ec);
    // An advisory lock on a side file serialises writers of the same cache;
    // the rename makes each write atomic for readers.
    std::string why;
    const int lock_fd = lock_cache(path_ + ".lock", &why);
    if (lock_fd < 0) return fail(IPT_ERR_INTERNAL, "tuning cache: " + why);
    CacheContents merged;
    const CacheFile f = read_cache_file(target, merged);  // a corrupt file contributes nothing
    ipt_status status = IPT_OK;
    if (f.kind == CacheFile::Foreign || f.kind == CacheFile::Refused) {
        refuse(f.why);  // it became something else since it was opened: left alone
    } else {
        for (auto& [k, cands] : entries_)
            for (auto& [c, m] : cands) merged.entries[k][c] = m;
        for (auto& [d, r] : rates_) merged.rates[d] = r;
        for (auto& [p, ms] : switches_) merged.switches[p] = ms;
        for (auto& [k, cands] : observed_)
            for (auto& [c, m] : cands) merged.observed[k][c] = m;
        // Each process adds to what it read: the larger total is the newer.
        for (auto& [k, ms] : spent_) merged.spent[k] = std::max(merged.spent[k], ms);
        if (!ipt::files::replace(target, cache_text(merged), &why)) {
            status = fail(IPT_ERR_INTERNAL, "tuning cache: " + why);
        } else {
            entries_ = std::move(merged.entries);
            rates_ = std::move(merged.rates);
            switches_ = std::move(merged.switches);
            observed_ = std::move(merged.observed);
            spent_ = std::move(merged.spent);
            reindex();
            dirty_ = false;
        }
    }
    ::flock(lock_fd, LOCK_UN);
    ::close(lock_fd);
    return status;
}

namespace {

// selection_key, or with `primary` false the family: the primary input's
// class and size bucket left out.
std::string key_of(const ipt_op_schema& op, const std::vector<ParamValue>& values, bool primary) {
    std::string key = op.name;
    bool primary_done = false;
    for (uint32_t i = 0; i < op.param_count; ++i) {
        const ipt_param_schema& p = op.params[i];
        const ParamValue& v = values[i];
        if (!v.set || p.kind == IPT_PARAM_OUTPUT) continue;
        key += "|";
        key += p.name;
        key += "=";
        switch (p.kind) {
        case IPT_PARAM_INPUT:
            if (!primary_done && !primary) {
                key += "*";
                primary_done = true;
                break;
            }
            key.append(dtype_name(v.image->tensor.dtype)).append(":");
            // A family scales with the images' size: other images than
            // host-side parameters go by their class alone.
            if (!primary && !(p.flags & IPT_P_HOST)) break;
            if (!primary_done || !(p.flags & IPT_P_HOST)) key += dims_bucket(v.image->tensor);
            // Small parameter arrays (kernels, domains) matter by their exact size.
            if (primary_done)
                key.append("(")
                    .append(std::to_string(v.image->tensor.rows))
                    .append("x")
                    .append(std::to_string(v.image->tensor.cols))
                    .append(")");
            primary_done = true;
            break;
        case IPT_PARAM_INT: key += std::to_string(v.i); break;
        case IPT_PARAM_FLOAT: key += number(v.f); break;
        case IPT_PARAM_FLOATS:
            if (v.floats.size() <= 4)
                for (double f : v.floats) key.append(number(f)).append(",");
            else
                key.append("n").append(std::to_string(bucket(static_cast<int64_t>(v.floats.size()))));
            break;
        case IPT_PARAM_ENUM: key += v.str; break;
        default: break;
        }
    }
    return key;
}

}  // namespace

std::string selection_key(const ipt_op_schema& op, const std::vector<ParamValue>& values) {
    return key_of(op, values, true);
}

std::string selection_family(const ipt_op_schema& op, const std::vector<ParamValue>& values) {
    return key_of(op, values, false);
}

uint64_t selection_input_bytes(const ipt_op_schema& op, const std::vector<ParamValue>& values) {
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < op.param_count; ++i)
        if (op.params[i].kind == IPT_PARAM_INPUT && values[i].set && !(op.params[i].flags & IPT_P_HOST))
            bytes += values[i].image->bytes;
    return bytes;
}

std::string candidate_identity(const Impl& impl, const Device& dev) {
    const ipt_plugin_table* t = impl.plugin->table;
    return std::string(t->name ? t->name : "") + "@" + (t->version ? t->version : "") + "|" + impl.variant + "|" +
           dev.identity;
}

}  // namespace ipt::reg
