// SPDX-License-Identifier: Apache-2.0
// Histograms on the host, and stretchlim's limits of one image plane, shared
// by ipt.stretchlim and ipt.imadjust (whose default low_high_in is
// stretchlim(I)). The binning and limit rules live in backends/common.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/parallel.hpp"
#include "intensity.hpp"

namespace ipt::cpu {

namespace detail {

// Counts [begin, end) of data into `lanes` interleaved sub-histograms of
// nbins 32-bit counts each (element i into sub-histogram i % lanes), so
// that runs of equal values do not wait on the store of the previous
// count; `sub` holds lanes * nbins zeros on entry.
template <int lanes, class T, class BinOf>
void count_into(const T* data, int64_t begin, int64_t end, int64_t nbins, BinOf& bin_of, uint32_t* sub) {
    int64_t i = begin;
    for (; i + lanes <= end; i += lanes)
        for (int l = 0; l < lanes; ++l) ++sub[l * nbins + bin_of(data[i + l])];
    for (int l = 0; i < end; ++i, ++l) ++sub[l * nbins + bin_of(data[i])];
}

}  // namespace detail

// nbins-bin histogram of n values, value v counted in bin bin_of(v). The
// values are cut into contiguous blocks, a few per thread; each block is
// counted into its own partial histogram and the partials are summed in
// block order (integer counts, so the result depends on neither the thread
// count nor the block count).
template <class T, class BinOf>
std::vector<uint64_t> histogram_by(const T* data, int64_t n, int64_t nbins, BinOf bin_of) {
    // Sub-histograms pay while they stay in the first-level cache; a block's
    // counts must fit in 32 bits.
    constexpr int kLanes = 4;
    constexpr int64_t kBlockMax = int64_t{1} << 30;
    const bool lanes = nbins <= 1024;
    const int64_t per_thread = lanes ? 4 : 1;
    const int64_t blocks = std::max<int64_t>(
        std::max<int64_t>(1, (n + kBlockMax - 1) / kBlockMax),
        std::min<int64_t>(int64_t{thread_count()} * per_thread, n / 65536));
    // Allocated before the parallel region: nothing may throw inside it.
    std::vector<std::vector<uint64_t>> partial(static_cast<size_t>(blocks),
                                               std::vector<uint64_t>(static_cast<size_t>(nbins), 0));
    std::vector<uint32_t> sub(lanes ? static_cast<size_t>(blocks * kLanes * nbins) : 0, 0);
    parallel_for(0, blocks, [&](int64_t b) {
        uint64_t* counts = partial[static_cast<size_t>(b)].data();
        const int64_t begin = n * b / blocks, end = n * (b + 1) / blocks;
        if (lanes) {
            uint32_t* s = sub.data() + b * kLanes * nbins;
            detail::count_into<kLanes>(data, begin, end, nbins, bin_of, s);
            for (int l = 0; l < kLanes; ++l)
                for (int64_t k = 0; k < nbins; ++k) counts[k] += s[l * nbins + k];
        } else {
            for (int64_t i = begin; i < end; ++i) ++counts[bin_of(data[i])];
        }
    });
    std::vector<uint64_t> total = std::move(partial[0]);
    for (int64_t b = 1; b < blocks; ++b)
        for (int64_t i = 0; i < nbins; ++i) total[i] += partial[static_cast<size_t>(b)][i];
    return total;
}

// imhist's nbins-bin histogram of n values (ipt::common::histogram_bin).
template <class T>
std::vector<uint64_t> histogram(const T* data, int64_t n, int64_t nbins) {
    // uint8 into 256 bins: the value is the bin (no per-element test of nbins).
    if constexpr (std::is_same_v<T, uint8_t>)
        if (nbins == 256) return histogram_by(data, n, nbins, [](uint8_t v) { return static_cast<int64_t>(v); });
    return histogram_by(data, n, nbins, [nbins](T v) { return common::histogram_bin(v, nbins); });
}

// stretchlim of one plane of n > 0 values into nbins bins (the front-end's
// plan): [low, high] on the [0,1] scale.
template <class T>
std::pair<double, double> stretchlim_plane(const T* data, int64_t n, int64_t nbins, double tol_low,
                                           double tol_high) {
    if (!(tol_low < tol_high)) return {0.0, 1.0};  // no histogram needed
    const std::vector<uint64_t> counts = histogram(data, n, nbins);
    return common::stretchlim_from_histogram(counts.data(), nbins, tol_low, tol_high);
}

}  // namespace ipt::cpu
