// Tuning cache file and selection keys.
#include "tuning.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace ipt::reg {

namespace {

constexpr int cache_format = 1;

void warn(const std::string& message) { std::fprintf(stderr, "openipt: %s\n", message.c_str()); }

int bucket(int64_t n) {
    int b = 0;
    while ((int64_t{1} << b) < n) ++b;
    return b;
}

std::string dims_bucket(const ipt_tensor& t) {
    return std::to_string(bucket(t.rows)) + "x" + std::to_string(bucket(t.cols)) + "x" + std::to_string(t.channels);
}

std::string number(double v) {
    std::ostringstream s;
    s.precision(6);
    s << v;
    return s.str();
}

// Parses a file into entries and rates; false when it is not ours or corrupt.
bool parse_file(const std::string& path, std::map<std::string, std::map<std::string, Measurement>>& entries,
                std::map<std::string, TransferModel>& rates, std::map<std::string, double>& switches,
                std::string* why) {
    std::ifstream in(path);
    if (!in) return true;  // no file yet
    try {
        json j = json::parse(in);
        if (!j.is_object() || j.value("format", 0) != cache_format || !j.contains("entries"))
            throw std::runtime_error("not an OpenIPT tuning cache of format " + std::to_string(cache_format));
        for (auto& [key, cands] : j.at("entries").items())
            for (auto& [cand, m] : cands.items()) {
                Measurement x;
                x.run_ms = m.at("run_ms").get<double>();
                x.output_bytes = m.value("output_bytes", uint64_t{0});
                x.output_count = m.value("output_count", uint32_t{x.output_bytes ? 1u : 0u});
                if (!std::isfinite(x.run_ms) || x.run_ms < 0) throw std::runtime_error("bad run_ms for " + key);
                entries[key][cand] = x;
            }
        if (j.contains("transfer"))
            for (auto& [dev, r] : j.at("transfer").items()) {
                // Entries of older files (one rate, no size points) are measured again.
                if (!r.contains("up") || !r.contains("down")) continue;
                TransferModel t;
                for (auto [curve, name] : {std::pair{&t.up, "up"}, std::pair{&t.down, "down"}}) {
                    for (auto& p : r.at(name)) curve->points.emplace_back(p.at(0).get<double>(), p.at(1).get<double>());
                    if (!curve->valid()) throw std::runtime_error(std::string("bad ") + name + " copy times for " + dev);
                }
                rates[dev] = t;
            }
        if (j.contains("switch"))
            for (auto& [pair, ms] : j.at("switch").items()) {
                const double v = ms.get<double>();
                if (!std::isfinite(v) || v < 0) throw std::runtime_error("bad switch cost for " + pair);
                switches[pair] = v;
            }
        return true;
    } catch (const std::exception& e) {
        *why = e.what();
        entries.clear();
        rates.clear();
        switches.clear();
        return false;
    }
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
    dirty_ = false;
    if (path.empty()) return;
    std::string why;
    if (!parse_file(path, entries_, rates_, switches_, &why))
        warn("tuning cache " + path + " is corrupt and is ignored (" + why + "); it will be rewritten");
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

ipt_status TuningCache::save() {
    std::lock_guard lock(mutex_);
    if (path_.empty() || !dirty_) return IPT_OK;
    std::error_code ec;
    fs::create_directories(fs::path(path_).parent_path(), ec);
    // An advisory lock on a side file serialises writers of the same cache;
    // the rename makes each write atomic for readers.
    const std::string lock_path = path_ + ".lock";
    int fd = ::open(lock_path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    if (fd < 0) return fail(IPT_ERR_INTERNAL, "tuning cache: cannot open lock file " + lock_path);
    if (::flock(fd, LOCK_EX) != 0) {
        ::close(fd);
        return fail(IPT_ERR_INTERNAL, "tuning cache: cannot lock " + lock_path);
    }
    std::map<std::string, std::map<std::string, Measurement>> merged;
    std::map<std::string, TransferModel> rates;
    std::map<std::string, double> switches;
    std::string why;
    parse_file(path_, merged, rates, switches, &why);  // a corrupt file contributes nothing
    for (auto& [k, cands] : entries_)
        for (auto& [c, m] : cands) merged[k][c] = m;
    for (auto& [d, r] : rates_) rates[d] = r;
    for (auto& [p, ms] : switches_) switches[p] = ms;

    json j;
    j["format"] = cache_format;
    j["written_by"] = "OpenIPT " + std::to_string(IPT_ABI_VERSION) + "." + std::to_string(IPT_API_VERSION);
    json& e = j["entries"] = json::object();
    for (auto& [k, cands] : merged)
        for (auto& [c, m] : cands)
            e[k][c] = {{"run_ms", m.run_ms}, {"output_bytes", m.output_bytes}, {"output_count", m.output_count}};
    json& t = j["transfer"] = json::object();
    for (auto& [d, r] : rates) t[d] = {{"up", r.up.points}, {"down", r.down.points}};
    j["switch"] = switches;

    const std::string tmp = path_ + ".tmp." + std::to_string(::getpid());
    ipt_status status = IPT_OK;
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << j.dump(1) << "\n";
        if (!out) status = fail(IPT_ERR_INTERNAL, "tuning cache: cannot write " + tmp);
    }
    if (status == IPT_OK && std::rename(tmp.c_str(), path_.c_str()) != 0)
        status = fail(IPT_ERR_INTERNAL, "tuning cache: cannot replace " + path_);
    if (status != IPT_OK) std::remove(tmp.c_str());
    else {
        entries_ = std::move(merged);
        rates_ = std::move(rates);
        switches_ = std::move(switches);
        dirty_ = false;
    }
    ::flock(fd, LOCK_UN);
    ::close(fd);
    return status;
}

std::string selection_key(const ipt_op_schema& op, const std::vector<ParamValue>& values) {
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
            key += dtype_name(v.image->tensor.dtype) + ":";
            if (!primary_done || !(p.flags & IPT_P_HOST)) key += dims_bucket(v.image->tensor);
            // Small parameter arrays (kernels, domains) matter by their exact size.
            if (primary_done)
                key += "(" + std::to_string(v.image->tensor.rows) + "x" + std::to_string(v.image->tensor.cols) + ")";
            primary_done = true;
            break;
        case IPT_PARAM_INT: key += std::to_string(v.i); break;
        case IPT_PARAM_FLOAT: key += number(v.f); break;
        case IPT_PARAM_FLOATS:
            if (v.floats.size() <= 4)
                for (double f : v.floats) key += number(f) + ",";
            else
                key += "n" + std::to_string(bucket(static_cast<int64_t>(v.floats.size())));
            break;
        case IPT_PARAM_ENUM: key += v.str; break;
        default: break;
        }
    }
    return key;
}

std::string candidate_identity(const Impl& impl, const Device& dev) {
    const ipt_plugin_table* t = impl.plugin->table;
    return std::string(t->name ? t->name : "") + "@" + (t->version ? t->version : "") + "|" + impl.variant + "|" +
           dev.identity;
}

}  // namespace ipt::reg
