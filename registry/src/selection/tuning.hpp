// SPDX-License-Identifier: Apache-2.0
// The measured selection: tuning cache (a JSON file, like FFTW's wisdom),
// the keys measurements are filed under, and per-device transfer rates.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "internal.hpp"

namespace ipt::reg {

// One measurement of one implementation for one key.
struct Measurement {
    double run_ms = 0;        // median run time, data already on the device
    uint64_t output_bytes = 0;  // what the results weigh (to price bringing them back)
    uint32_t output_count = 0;  // how many images that is (each copy pays a latency)
    // What a prior scales this measurement by for other keys of the same
    // family (selection_family): the bytes of the call's image inputs.
    // Empty and 0 in entries that do not say.
    std::string family;
    uint64_t input_bytes = 0;
};

// A candidate's cost before it is measured for a key: a run time and the
// range the true time is expected in.
struct Prior {
    double run_ms = 0, low_ms = 0, high_ms = 0;
    uint64_t output_bytes = 0;
    uint32_t output_count = 0;
    std::string from;  // what it was made from, for the dispatch record
};

// Copy times of one direction, measured at a few sizes: (bytes, ms) points in
// ascending size. A copy's time is interpolated between the two points around
// its size (extrapolated from the last two beyond the largest; the smallest
// point's time, the fixed cost of a copy, below it). One rate would not do:
// on an H100 host 4 MiB copies ran at 13 GB/s and 32 MiB ones at about 4,
// the larger ones no longer served from the host's caches.
struct CopyCurve {
    std::vector<std::pair<double, double>> points;
    double ms(double bytes) const;
    bool valid() const;  // at least two points, sizes ascending, times finite and >= 0
};

// Host<->device copies of one device. Each image moved pays one copy of its
// own, so `copies` images of `bytes` in all cost copies x a copy of
// bytes / copies (the images of one call are priced at their mean size).
// The plain curves are copies from and into pageable memory; the locked ones
// from and into page-locked host memory (host images libipt locked through
// the device's plugin), empty when the device's plugin locks none: then the
// plain curves price every copy.
struct TransferModel {
    CopyCurve up, down;
    CopyCurve up_locked, down_locked;
    double up_ms(uint64_t bytes, uint32_t copies, bool locked = false) const {
        return per_copy(locked && up_locked.valid() ? up_locked : up, bytes, copies);
    }
    double down_ms(uint64_t bytes, uint32_t copies, bool locked = false) const {
        return per_copy(locked && down_locked.valid() ? down_locked : down, bytes, copies);
    }
    bool has_locked() const { return up_locked.valid() && down_locked.valid(); }

private:
    static double per_copy(const CopyCurve& c, uint64_t bytes, uint32_t copies) {
        return copies && c.valid() ? copies * c.ms(static_cast<double>(bytes) / copies) : 0;
    }
};

class TuningCache {
public:
    // Loads `path` ("" = memory only). A missing or empty file is a new cache.
    // A corrupt cache (ours by its format marker) is reported, ignored and
    // rewritten at the next save. Anything else there (a file that is not a
    // tuning cache, a FIFO, a device, a file over 64 MiB) is reported once and
    // never read past its size limit nor replaced: measurements stay in memory.
    void open(const std::string& path);
    const std::string& path() const { return path_; }

    std::optional<Measurement> find(const std::string& key, const std::string& candidate);
    void record(const std::string& key, const std::string& candidate, const Measurement& m);

    // A prior for a candidate that has no measurement for `key`: its one
    // observed run for this key (a call that ran it), else its measurement of
    // the nearest size in the same family, scaled by input bytes (see
    // docs/selection.md for the range). None when nothing is known.
    std::optional<Prior> prior(const std::string& key, const std::string& family, uint64_t input_bytes,
                               const std::string& candidate);
    // A call's run of a candidate that had no measurement for its key.
    void observe(const std::string& key, const std::string& candidate, const Measurement& m);
    // Milliseconds the calls of a key have spent running while some of its
    // candidates were left unmeasured: measuring them waits until this
    // reaches what measuring would cost (kept in the file, so that a script's
    // processes add up).
    double spent(const std::string& key);
    void add_spent(const std::string& key, double ms);

    // Under IPT_SELECT=measure (and `ipt tune`) a miss measures every
    // candidate at once instead of starting from priors.
    std::atomic<bool> measure_on_miss{false};

    // A candidate that declined a key is not measured again for that key in
    // this process (its decline may depend on values the key leaves out, so
    // it is not written to the file).
    bool declined(const std::string& key, const std::string& candidate);
    void record_decline(const std::string& key, const std::string& candidate);

    // Measured host<->device copy costs of a device.
    std::optional<TransferModel> transfer_model(const std::string& device_identity);
    void record_transfer_model(const std::string& device_identity, const TransferModel& m);
    // A caller's read-out of `bytes` from a device's memory that took `ms`
    // (the host: a memcpy of a result already in host memory) moves the
    // read-out curve's point nearest that size a quarter of the way towards
    // what was observed, so the model follows what read-outs cost in this
    // process rather than a microbenchmark's cache-warm copies. Nothing
    // happens without a model.
    void observe_readout(const std::string& device_identity, uint64_t bytes, double ms);

    // Extra cost of handing work from one GPU to another and back (two APIs'
    // contexts on one GPU take turns), measured per ordered pair of device
    // identities beyond what their copy models price.
    std::optional<double> switch_cost(const std::string& from, const std::string& to);
    void record_switch_cost(const std::string& from, const std::string& to, double ms);

    // Merges what is on disk (other processes) with what was measured here and
    // writes atomically, under an advisory lock: a new file created with
    // O_EXCL|O_NOFOLLOW beside the cache, synced, renamed over it. Any failure
    // leaves the old file as it was. A path refused by open() (or found not to
    // be a tuning cache now) is not written; that is not an error.
    ipt_status save();

    static std::string default_path();

private:
    std::mutex mutex_;
    std::string path_;
    // key -> candidate -> measurement
    std::map<std::string, std::map<std::string, Measurement>> entries_;
    std::map<std::string, TransferModel> rates_;
    std::map<std::string, double> switches_;  // "from -> to" -> ms
    std::map<std::string, std::map<std::string, Measurement>> observed_;  // key -> candidate -> one run
    std::map<std::string, double> spent_;                                 // key -> ms
    // The measurements by candidate and family ("candidate\nfamily"), then
    // by input bytes: a prior is looked up on every call of a key with
    // unmeasured candidates, and a scan of every entry cost more than the call.
    std::map<std::string, std::map<uint64_t, std::pair<std::string, Measurement>>> by_family_;
    void index(const std::string& key, const std::string& candidate, const Measurement& m);  // under mutex_
    void reindex();                                                                          // under mutex_
    std::map<std::string, std::vector<std::string>> declined_;  // key -> candidates
    bool dirty_ = false;
    bool refused_ = false;  // the path holds something that is not ours: memory only

    void refuse(const std::string& why);  // under mutex_
};

// The key a call's measurements are filed under: operator, class of the first
// image input, parameter class (options, small numeric values, sizes of the
// other images) and size bucket (powers of two per dimension).
std::string selection_key(const ipt_op_schema& op, const std::vector<ParamValue>& values);
// The key without the class and size of the primary image input: the keys
// whose measurements scale to each other by bytes.
std::string selection_family(const ipt_op_schema& op, const std::vector<ParamValue>& values);
// Bytes of a call's image inputs that are not host-side parameters.
uint64_t selection_input_bytes(const ipt_op_schema& op, const std::vector<ParamValue>& values);

// Identity of an implementation on a device: plugin name and version, variant,
// device identity. A new plugin version or driver gives a new identity, so
// stale measurements are never used.
std::string candidate_identity(const Impl& impl, const Device& dev);

}  // namespace ipt::reg
