// Histograms on the host, and stretchlim's limits of one image plane, shared
// by ipt.stretchlim and ipt.imadjust (whose default low_high_in is
// stretchlim(I)). The binning and limit rules live in backends/common.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/parallel.hpp"
#include "intensity.hpp"

namespace ipt::cpu {

// nbins-bin histogram of n values, value v counted in bin bin_of(v). Each
// worker counts a contiguous block into its own partial histogram; the
// partials are summed in block order (integer counts, so the result does not
// depend on the thread count).
template <class T, class BinOf>
std::vector<uint64_t> histogram_by(const T* data, int64_t n, int64_t nbins, BinOf bin_of) {
    const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>(thread_count(), n / 65536));
    // Allocated before the parallel region: nothing may throw inside it.
    std::vector<std::vector<uint64_t>> partial(static_cast<size_t>(blocks),
                                               std::vector<uint64_t>(static_cast<size_t>(nbins), 0));
    parallel_for(0, blocks, [&](int64_t b) {
        uint64_t* counts = partial[static_cast<size_t>(b)].data();
        const int64_t begin = n * b / blocks, end = n * (b + 1) / blocks;
        for (int64_t i = begin; i < end; ++i) ++counts[bin_of(data[i])];
    });
    std::vector<uint64_t> total = std::move(partial[0]);
    for (int64_t b = 1; b < blocks; ++b)
        for (int64_t i = 0; i < nbins; ++i) total[i] += partial[static_cast<size_t>(b)][i];
    return total;
}

// imhist's nbins-bin histogram of n values (ipt::common::histogram_bin).
template <class T>
std::vector<uint64_t> histogram(const T* data, int64_t n, int64_t nbins) {
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
