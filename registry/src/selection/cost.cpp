// SPDX-License-Identifier: Apache-2.0
// The cost model of the measured selection: a candidate costs its run time
// (measured on the call's inputs once per selection key and kept in the
// tuning cache) plus the transfers its device implies, priced from measured
// copy curves and switch costs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

#include "selection.hpp"
#include "tuning.hpp"

namespace ipt::reg {

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Bytes and number of the image inputs that are not on `dev`, and how many
// of those are page-locked host images.
struct Moved {
    uint64_t bytes = 0, locked_bytes = 0;
    uint32_t count = 0, locked_count = 0;
};
Moved inputs_not_on(const ipt_op_schema& op, const std::vector<ParamValue>& values, const Device& dev) {
    Moved m;
    for (uint32_t i = 0; i < op.param_count; ++i)
        if (op.params[i].kind == IPT_PARAM_INPUT && values[i].set && !(op.params[i].flags & IPT_P_HOST) &&
            values[i].image->device != &dev) {
            const ipt_image* img = values[i].image;
            m.bytes += img->bytes;
            ++m.count;
            if (img->device->is_host() && host_image_pinned(img)) {
                m.locked_bytes += img->bytes;
                ++m.locked_count;
            }
        }
    return m;
}

// Whether host images libipt allocates are page-locked for `dev`'s copies:
// the context locks them through the plugin that owns the device.
bool locks_for(const ipt_context* ctx, const Device& dev) {
    const ipt_plugin_table* pinner = ctx->host_pinner.load();
    return pinner && !dev.is_host() && dev.owner->table == pinner;
}

// Median milliseconds of `runs` timed repetitions of `copy`, after one untimed
// (a device's first copies into a new buffer set up what later ones reuse:
// on lavapipe they priced a 4 KiB copy at 0.06 ms against 0.044 warm);
// -1 on failure.
template <class Copy>
double median_copy_ms(int runs, Copy&& copy) {
    if (!copy()) return -1;
    std::vector<double> t;
    for (int k = 0; k < runs; ++k) {
        auto t0 = Clock::now();
        if (!copy()) return -1;
        t.push_back(ms_since(t0));
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// Host<->device copy costs of a device, measured once and kept in the tuning
// cache: median times of copies of 4 KiB (the fixed cost of a copy), 256 KiB,
// 4 MiB and 64 MiB, each waiting for the device as a real transfer does,
// from and into pageable memory and, where the context page-locks host
// images for the device, from and into such an image (the locked curves:
// 54 GB/s against 8-12 from pageable memory on an H100 host).
// For the host itself the copies are the caller's download of a result that
// is already in host memory (a memcpy), which a GPU's download replaces.
TransferModel transfer_model(ipt_context* ctx, const Device& dev) {
    const bool want_locked = locks_for(ctx, dev);
    const std::optional<TransferModel> cached = ctx->tuning->transfer_model(dev.identity);
    if (cached && (!want_locked || cached->has_locked())) return *cached;
    struct Size {
        uint64_t bytes;
        int runs;
    };
    constexpr Size sizes[] = {{4u << 10, 15}, {256u << 10, 7}, {4u << 20, 5}, {64u << 20, 3}};
    constexpr uint64_t largest = sizes[std::size(sizes) - 1].bytes;
    // Times copies of each size from and into `host`; false on failure.
    auto measure_curves = [&](unsigned char* host, CopyCurve& up_curve, CopyCurve& down_curve) {
        for (const Size& size : sizes) {
            ipt_status s = IPT_OK;
            auto img = allocate_image(ctx, dev, IPT_UINT8, 1, static_cast<int64_t>(size.bytes), 1, &s);
            if (!img) return false;
            const double up = median_copy_ms(size.runs, [&] {
                return copy_bytes_from_host(img.get(), host) == IPT_OK && sync_device(dev) == IPT_OK;
            });
            const double down =
                median_copy_ms(size.runs, [&] { return copy_bytes_to_host(img.get(), host) == IPT_OK; });
            release_image(img.release());
            if (up < 0 || down < 0) return false;
            up_curve.points.emplace_back(static_cast<double>(size.bytes), up);
            down_curve.points.emplace_back(static_cast<double>(size.bytes), down);
        }
        return true;
    };
    TransferModel m;
    if (cached) {
        m = *cached;  // only the locked curves are missing
    } else {
        std::vector<unsigned char> host(largest, 1);
        if (!measure_curves(host.data(), m.up, m.down)) return {};
    }
    if (want_locked) {
        m.up_locked = {};
        m.down_locked = {};
        ipt_status s = IPT_OK;
        auto locked = allocate_image(ctx, ctx->devices[IPT_DEVICE_HOST], IPT_UINT8, 1, static_cast<int64_t>(largest),
                                     1, &s);
        if (locked && host_image_pinned(locked.get())) {
            std::memset(locked->tensor.data, 1, largest);
            if (!measure_curves(static_cast<unsigned char*>(locked->tensor.data), m.up_locked, m.down_locked)) {
                m.up_locked = {};
                m.down_locked = {};
            }
        }
        // Where locking fails, host images stay pageable and cost as such
        // (and are not measured again on every call).
        if (!m.has_locked()) {
            m.up_locked = m.up;
            m.down_locked = m.down;
        }
    }
    ctx->tuning->record_transfer_model(dev.identity, m);
    return m;
}

// What handing a call from GPU `from` to GPU `to` and back costs beyond the
// copies' own prices: on one GPU driven through two APIs (CUDA and Vulkan)
// the two contexts take turns, and a 64 KiB image sent from Vulkan to CUDA
// and back cost 0.4 ms more than its copies did alone. Timed as that round
// trip of a 4 KiB image (down from `from`, up to `to`, synchronised, and back)
// less the four copies' own times; measured once per ordered pair and kept.
double switch_cost(ipt_context* ctx, const Device& from, const Device& to) {
    if (from.is_host() || to.is_host() || &from == &to) return 0;
    if (auto r = ctx->tuning->switch_cost(from.identity, to.identity)) return *r;
    constexpr uint64_t bytes = 4u << 10;
    ipt_status s = IPT_OK;
    auto a = allocate_image(ctx, from, IPT_UINT8, 1, static_cast<int64_t>(bytes), 1, &s);
    auto b = allocate_image(ctx, to, IPT_UINT8, 1, static_cast<int64_t>(bytes), 1, &s);
    if (!a || !b) return 0;
    std::vector<unsigned char> host(bytes, 1);
    const double round_trip = median_copy_ms(9, [&] {
        return copy_bytes_to_host(a.get(), host.data()) == IPT_OK &&
               copy_bytes_from_host(b.get(), host.data()) == IPT_OK && sync_device(to) == IPT_OK &&
               copy_bytes_to_host(b.get(), host.data()) == IPT_OK &&
               copy_bytes_from_host(a.get(), host.data()) == IPT_OK && sync_device(from) == IPT_OK;
    });
    release_image(a.release());
    release_image(b.release());
    if (round_trip < 0) return 0;
    const TransferModel mf = transfer_model(ctx, from), mt = transfer_model(ctx, to);
    const double copies = mf.down_ms(bytes, 1) + mt.up_ms(bytes, 1) + mt.down_ms(bytes, 1) + mf.up_ms(bytes, 1);
    const double extra = std::max(round_trip - copies, 0.0);
    ctx->tuning->record_switch_cost(from.identity, to.identity, extra);
    return extra;
}

// Estimated milliseconds to bring inputs to `dev` and, when the data lives
// elsewhere, the results back to where it lives. Device to device goes
// through host memory: down from one, up to the other.
double transfer_estimate(ipt_context* ctx, const ipt_op_schema& op, const std::vector<ParamValue>& values,
                         const Device& dev, const Device* data_device, uint64_t output_bytes, uint32_t output_count) {
    double ms = 0;
    const Moved in = inputs_not_on(op, values, dev);
    if (in.count) {
        if (data_device && !data_device->is_host()) ms += transfer_model(ctx, *data_device).down_ms(in.bytes, in.count);
        // Page-locked host images go up at the locked rate, the others at the pageable one.
        if (!dev.is_host()) {
            const TransferModel m = transfer_model(ctx, dev);
            ms += m.up_ms(in.bytes - in.locked_bytes, in.count - in.locked_count) +
                  m.up_ms(in.locked_bytes, in.locked_count, true);
        }
    }
    if (data_device && data_device != &dev && output_count) {
        // A host result goes up from where it lies; anything else comes down first.
        if (!dev.is_host()) ms += transfer_model(ctx, dev).down_ms(output_bytes, output_count);
        if (!data_device->is_host()) ms += transfer_model(ctx, *data_device).up_ms(output_bytes, output_count);
        ms += switch_cost(ctx, *data_device, dev);
    } else if (data_device && data_device->is_host() && dev.is_host() && output_count) {
        // The caller reads a host result out as well: a memcpy where a GPU's
        // candidate pays its download instead.
        ms += transfer_model(ctx, dev).down_ms(output_bytes, output_count);
    }
    return ms;
}

// Median run times of implementations on the call's real inputs, with
// scratch outputs: each is warmed up once and then timed right away, 7 runs
// (3 when a run takes over 20 ms, 1 over 200 ms), one candidate after the
// other. Not in rounds across candidates: two GPU contexts (CUDA and Vulkan on one GPU)
// take turns, and a run right after the other API's pays the switch (CUDA's
// 0.016 ms intlut then measures dearer than a CPU call with its copies).
// The inputs are moved to each candidate's device once, before its warm-up,
// and the device synchronised: the run time is measured with the data
// already there, as the cost model counts it (moved with every run, the
// tail of a 512 MiB upload to Vulkan was timed as part of conv2's run and
// made wave64 look slower than wave32).
//
// A probe (`probe`) is the warm-up and one timed run, whose time is kept: what
// a candidate with nothing known of its run costs is found that way for two
// runs, the first of which may build pipelines or load modules.
void measure(ipt_context* ctx, const ipt_op_schema& op, const std::vector<ParamValue>& values,
             const std::vector<Candidate*>& cands, const RunTrial& run, bool probe = false) {
    std::map<uint32_t, std::vector<ParamValue>> values_on;  // device id -> the call's values with inputs there
    std::vector<ImagePtr> moved;
    for (Candidate* c : cands) {
        const Device& dev = ctx->devices[c->impl->device_id];
        auto [there, fresh] = values_on.try_emplace(dev.id, values);
        if (fresh) {
            for (uint32_t i = 0; i < op.param_count; ++i) {
                ParamValue& v = there->second[i];
                if (op.params[i].kind != IPT_PARAM_INPUT || !v.set || (op.params[i].flags & IPT_P_HOST) ||
                    v.image->device == &dev)
                    continue;
                ipt_status s = IPT_OK;
                auto copy = copy_image(ctx, v.image, dev, &s);
                if (!copy) continue;  // the run moves it, and reports what fails
                v.image = copy.get();
                moved.emplace_back(copy.release());
            }
            sync_device(dev);
        }
        const std::vector<ParamValue>& on_device = there->second;
        const TrialRun warm = run(on_device, *c->impl);
        if (warm.status != IPT_OK) {
            c->record.source = warm.status == IPT_ERR_UNSUPPORTED ? IPT_COST_DECLINED : IPT_COST_FAILED;
            c->record.note = warm.message.empty() ? ipt_status_name(warm.status) : warm.message;
            continue;
        }
        const uint64_t out_bytes = warm.output_bytes;
        const uint32_t out_count = warm.output_count;
        std::vector<double> times;
        // A warm-up far over what the prior expected is timed once more only:
        // a wrong prior must not make the measuring cost what it was meant to save.
        const bool over = c->expected_ms >= 0 && warm.run_ms > 4 * c->expected_ms + 1;
        const int runs = probe || over ? 1 : (warm.run_ms > 200 ? 1 : (warm.run_ms > 20 ? 3 : 7));
        for (int k = 0; k < runs; ++k) {
            const TrialRun a = run(on_device, *c->impl);
            if (a.status != IPT_OK) {
                c->record.source = IPT_COST_FAILED;
                c->record.note = a.message;
                break;
            }
            times.push_back(a.run_ms);
        }
        if (c->record.source == IPT_COST_FAILED) continue;
        std::sort(times.begin(), times.end());
        c->record.run_ms = times[times.size() / 2];
        c->record.output_bytes = out_bytes;
        c->record.output_count = out_count;
        c->record.source = probe ? IPT_COST_STATIC : IPT_COST_MEASURED;
    }
}

// What measuring costs is weighed against what a key's calls have spent.
// Candidates the prior puts clearly behind the best are measured only once
// the key has spent this many times what measuring them costs: they are
// unlikely to win, but a prior can be wrong and the steady state must not
// depend on it.
constexpr double kSeparatedFactor = 4;

int trial_runs(double ms) { return ms > 200 ? 1 : (ms > 20 ? 3 : 7); }
double trial_ms(double ms) { return ms * (1 + trial_runs(ms)); }  // the warm-up and the timed runs

bool has_copy_model(ipt_context* ctx, const Device& dev) { return ctx->tuning->transfer_model(dev.identity).has_value(); }

std::string ms_text(double ms) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3g", ms);
    return b;
}

// Ranks candidates by cost = run time + transfers. Run times come from the
// tuning cache; what it lacks is measured, or, while measuring would cost
// more than the key's calls have spent so far, estimated by a prior.
Ordering rank_by_cost(ipt_context* ctx, const ipt_op_schema& op, const std::vector<ParamValue>& values,
                      std::vector<Candidate>& cands, const Device* data_device, const RunTrial& run) {
    Ordering o;
    o.by_cost = true;
    o.key = selection_key(op, values);
    std::vector<Candidate*> pending;
    for (Candidate& c : cands) {
        const std::string& id = c.impl->identity;
        if (auto m = ctx->tuning->find(o.key, id)) {
            c.record.run_ms = m->run_ms;
            c.record.output_bytes = m->output_bytes;
            c.record.output_count = m->output_count;
            c.record.source = IPT_COST_CACHED;
        } else if (ctx->tuning->declined(o.key, id)) {
            // Measuring it again would move the inputs there again, on every call.
            c.record.source = IPT_COST_DECLINED;
            c.record.note = "declined this key earlier in this process";
        } else {
            pending.push_back(&c);
        }
    }
    if (!pending.empty()) {  // what a measurement or an observed run is filed with
        o.family = selection_family(op, values);
        o.input_bytes = selection_input_bytes(op, values);
    }

    auto price = [&](CandidateRecord& r, const Device& dev) {
        r.transfer_ms = transfer_estimate(ctx, op, values, dev, data_device, r.output_bytes, r.output_count);
        r.cost_ms = r.run_ms + r.transfer_ms;
    };
    // A candidate is priced only where the copy curves it needs are known:
    // measuring them is what a cold call must not pay.
    auto copies_priced = [&](const Device& dev) {
        return has_copy_model(ctx, dev) && (!data_device || has_copy_model(ctx, *data_device));
    };
    std::vector<Candidate*> to_measure, to_probe;
    std::map<const Candidate*, std::pair<double, double>> range;  // candidates priced by a prior: run time range
    std::map<const Candidate*, double> floors;  // candidates without a prior: the least their transfers cost
    double proxy_ms = -1;  // for a candidate with no prior: the fastest run time known of the others
    if (ctx->tuning->measure_on_miss) {
        to_measure = pending;
    } else if (!pending.empty()) {
        // Priors.
        double best_hi = -1, proxy = -1;
        auto bound = [&](double hi) { best_hi = best_hi < 0 ? hi : std::min(best_hi, hi); };
        auto prox = [&](double run_ms) { proxy = proxy < 0 ? run_ms : std::min(proxy, run_ms); };
        for (Candidate& c : cands) {
            const Device& dev = ctx->devices[c.impl->device_id];
            const bool priceable = copies_priced(dev);
            if (c.record.source == IPT_COST_CACHED) {
                prox(c.record.run_ms);
                if (priceable) {
                    price(c.record, dev);
                    bound(c.record.cost_ms);
                }
                continue;
            }
            if (std::find(pending.begin(), pending.end(), &c) == pending.end()) continue;
            auto p = ctx->tuning->prior(o.key, o.family, o.input_bytes, c.impl->identity);
            if (!p) {
                c.record.note = "not measured yet";
                if (priceable) {
                    // Nothing known of its run: what moving the inputs to its
                    // device costs is still a floor under its cost (the
                    // memory side of a roofline, with the copy curves as the
                    // bandwidth; the results' way back is left out, their
                    // size being unknown).
                    const double floor_ms = transfer_estimate(ctx, op, values, dev, data_device, 0, 0);
                    if (floor_ms > 0) {
                        floors[&c] = floor_ms;
                        c.record.note += "; at least " + ms_text(floor_ms) + " ms moving its inputs";
                    }
                }
                continue;
            }
            c.record.run_ms = p->run_ms;
            c.record.output_bytes = p->output_bytes;
            c.record.output_count = p->output_count;
            c.record.note = "estimated (" + ms_text(p->low_ms) + "-" + ms_text(p->high_ms) + " ms): " + p->from;
            prox(p->run_ms);
            if (!priceable) {
                c.record.note += "; transfers not priced yet";
                continue;
            }
            price(c.record, dev);
            range[&c] = {p->low_ms, p->high_ms};
            bound(p->high_ms + c.record.transfer_ms);
        }
        // Those whose best case is worse than the best's worst case are
        // separated; the rest are what the prior cannot decide.
        std::vector<Candidate*> open, behind;
        for (Candidate* c : pending) {
            auto it = range.find(c);
            auto fl = floors.find(c);
            const double least = it != range.end() ? it->second.first + c->record.transfer_ms
                                 : fl != floors.end() ? fl->second
                                                      : -1;
            const bool separated = least >= 0 && best_hi >= 0 && least > best_hi;
            (separated ? behind : open).push_back(c);
        }
        auto cost_of_measuring_one = [&](const Candidate* c) {
            const double run_ms = c->record.run_ms >= 0 ? c->record.run_ms : proxy;
            return run_ms < 0 ? -1.0 : trial_ms(run_ms);  // < 0: nothing known at all, not even a proxy
        };
        auto cost_of_measuring = [&](const std::vector<Candidate*>& set) {
            double ms = 0;
            for (const Candidate* c : set) {
                const double one = cost_of_measuring_one(c);
                if (one < 0) return -1.0;
                ms += one;
            }
            return ms;
        };
        proxy_ms = proxy;
        const double spent = ctx->tuning->spent(o.key);
        const double m_open = cost_of_measuring(open), m_behind = cost_of_measuring(behind);
        // Open candidates with nothing known of their run would be priced at
        // the best known run: a GPU beside a CPU whose call takes 20 ms would
        // wait for the key to spend 8 CPU runs per candidate. They are probed
        // instead (two runs, measure()), in the static order, as many as the
        // key has spent runs of the best known (a probed one counts as
        // known, so a fast probe lets the next call probe the rest), and the
        // second run's time is their prior from then on.
        std::vector<Candidate*> known;
        for (Candidate* c : open) (c->record.run_ms < 0 ? to_probe : known).push_back(c);
        if (proxy < 0) {
            to_probe.clear();
        } else if (proxy > 0) {
            const double affordable = std::floor(spent / proxy);
            if (affordable < static_cast<double>(to_probe.size())) to_probe.resize(static_cast<size_t>(affordable));
        }
        // The others cheapest to measure first, each once the key has spent
        // what measuring it and those before it costs: one slow candidate
        // does not hold back the measuring of fast ones.
        std::stable_sort(known.begin(), known.end(), [&](const Candidate* a, const Candidate* b) {
            return cost_of_measuring_one(a) < cost_of_measuring_one(b);
        });
        double paid = 0;
        for (Candidate* c : known) {
            paid += cost_of_measuring_one(c);
            if (spent < paid) break;
            to_measure.push_back(c);
        }
        if (!behind.empty() && m_open >= 0 && m_behind >= 0 && spent >= m_open + kSeparatedFactor * m_behind)
            to_measure.insert(to_measure.end(), behind.begin(), behind.end());
        const size_t left = pending.size() - to_measure.size();
        if (left) {
            o.tail = "; " + std::to_string(left) + " of " + std::to_string(cands.size()) +
                     " candidates not measured yet (this key's calls have spent " + ms_text(spent) + " ms";
            if (m_open >= 0) o.tail += "; measuring would cost about " + ms_text(open.empty() ? m_behind : m_open) + " ms";
            o.tail += ")";
        }
    }
    for (Candidate* c : to_probe) c->record = CandidateRecord{};
    measure(ctx, op, values, to_probe, run, true);
    for (Candidate* c : to_probe) {
        CandidateRecord& r = c->record;
        if (r.source == IPT_COST_DECLINED) ctx->tuning->record_decline(o.key, c->impl->identity);
        if (r.source != IPT_COST_STATIC) continue;
        ctx->tuning->observe(o.key, c->impl->identity,
                             Measurement{r.run_ms, r.output_bytes, r.output_count, o.family, o.input_bytes});
        r.note = "probed: " + ms_text(r.run_ms) + " ms";
        const Device& dev = ctx->devices[c->impl->device_id];
        if (!copies_priced(dev)) {
            r.note += "; transfers not priced yet";
            continue;
        }
        price(r, dev);
        // The probe's range as the tuning cache gives it for one run of the key.
        if (auto p = ctx->tuning->prior(o.key, o.family, o.input_bytes, c->impl->identity))
            range[c] = {p->low_ms, p->high_ms};
    }
    if (!to_probe.empty()) o.tail += "; " + std::to_string(to_probe.size()) + " probed (a warm-up and one timed run each)";
    for (Candidate* c : to_measure) {
        c->expected_ms = c->record.run_ms >= 0 ? c->record.run_ms : proxy_ms;
        c->record = CandidateRecord{};
        range.erase(c);
    }
    measure(ctx, op, values, to_measure, run);
    for (Candidate* c : to_measure) {
        const std::string& id = c->impl->identity;
        if (c->record.source == IPT_COST_MEASURED)
            ctx->tuning->record(o.key, id,
                                Measurement{c->record.run_ms, c->record.output_bytes, c->record.output_count, o.family,
                                            o.input_bytes});
        else if (c->record.source == IPT_COST_DECLINED)
            ctx->tuning->record_decline(o.key, id);
    }
    for (Candidate& c : cands) {
        const Device& dev = ctx->devices[c.impl->device_id];
        if ((c.record.source == IPT_COST_MEASURED || c.record.source == IPT_COST_CACHED) && c.record.cost_ms < 0)
            price(c.record, dev);
        if (c.record.source == IPT_COST_STATIC && !range.count(&c)) c.record.cost_ms = -1;  // no price: no rank
        if (c.record.source == IPT_COST_STATIC) o.observe = true;
    }
    std::stable_sort(cands.begin(), cands.end(), [](const Candidate& a, const Candidate& b) {
        const bool ka = a.record.cost_ms >= 0, kb = b.record.cost_ms >= 0;
        if (ka != kb) return ka;  // priced first; then unpriced in the static order, declined and failed last
        if (ka && a.record.cost_ms != b.record.cost_ms) return a.record.cost_ms < b.record.cost_ms;
        if (!ka) {
            const bool ua = a.record.source == IPT_COST_STATIC, ub = b.record.source == IPT_COST_STATIC;
            if (ua != ub) return ua;
            return false;
        }
        return a.impl->priority > b.impl->priority;
    });
    return o;
}

}  // namespace

Ordering order_candidates(ipt_context* ctx, const ipt_op_schema& op, const std::vector<ParamValue>& values,
                          std::vector<Candidate>& cands, bool pinned, const Device* input_device, const RunTrial& run) {
    // Static order first: it breaks ties and is the whole rule under IPT_SELECT_STATIC.
    std::stable_sort(cands.begin(), cands.end(), [&](const Candidate& a, const Candidate& b) {
        if (!pinned && a.on_input_device != b.on_input_device) return a.on_input_device;
        if (a.impl->priority != b.impl->priority) return a.impl->priority > b.impl->priority;
        return a.impl->device_id < b.impl->device_id;
    });
    if (ctx->selection.load() != IPT_SELECT_AUTO || cands.size() <= 1) return {};
    return rank_by_cost(ctx, op, values, cands, input_device ? input_device : &ctx->devices[IPT_DEVICE_HOST], run);
}

void observe_run(ipt_context* ctx, const Ordering& ordering, const Candidate& ran, double run_ms, double transfer_ms,
                 uint64_t output_bytes, uint32_t output_count) {
    if (!ordering.observe) return;
    if (ran.record.source == IPT_COST_STATIC)
        ctx->tuning->observe(ordering.key, ran.impl->identity,
                             Measurement{run_ms, output_bytes, output_count, ordering.family, ordering.input_bytes});
    ctx->tuning->add_spent(ordering.key, run_ms + transfer_ms);
}

}  // namespace ipt::reg
