// SPDX-License-Identifier: Apache-2.0
// imhist's 0-based bin of element i of an image of class dt at address a,
// nbins bins (backends/common/intensity.hpp, histogram_bin): logical in the
// first or last bin; uint8 with 256 bins and uint16 (int16 offset by 32768)
// with 65536 bins the value itself; other bin counts and 32-bit integers
// trunc(u * int_scale + 0.5), int_scale = (nbins-1)/top, at most nbins-1;
// floating values trunc(x*(nbins-1) + 0.5) in their own class, NaN and
// values below 0 in the first bin, above 1 in the last. dt and nbins are
// specialisation constants where it is used, so the switch folds.
int imhist_scaled_bin(double u, int nbins, double int_scale) {
    precise double idx = u * int_scale + 0.5;
    return int(min(int64_t(idx), int64_t(nbins - 1)));
}

int imhist_bin(uint64_t a, int i, int dt, int nbins, double int_scale) {
    switch (dt) {
    case DT_LOGICAL: return BufU8(a).v[i] != uint8_t(0) ? nbins - 1 : 0;
    case DT_UINT8: {
        const int v = int(uint(BufU8(a).v[i]));
        return nbins == 256 ? v : imhist_scaled_bin(double(v), nbins, int_scale);
    }
    case DT_UINT16: {
        const int v = int(uint(BufU16(a).v[i]));
        return nbins == 65536 ? v : imhist_scaled_bin(double(v), nbins, int_scale);
    }
    case DT_INT16: {
        const int v = int(BufI16(a).v[i]) + 32768;
        return nbins == 65536 ? v : imhist_scaled_bin(double(v), nbins, int_scale);
    }
    case DT_INT32: return imhist_scaled_bin(double(BufI32(a).v[i]) + 2147483648.0, nbins, int_scale);
    case DT_UINT32: return imhist_scaled_bin(double(BufU32(a).v[i]), nbins, int_scale);
    case DT_SINGLE: {
        const float v = BufF32(a).v[i];
        if (is_nan_f(v)) return 0;
        precise float idx = v * float(nbins - 1) + 0.5;
        if (idx < 0.0) return 0;
        if (idx > float(nbins - 1) || isinf(v)) return nbins - 1;
        return int(idx);
    }
    default: {
        const double v = BufF64(a).v[i];
        if (is_nan_d(v)) return 0;
        precise double idx = v * double(nbins - 1) + 0.5;
        if (idx < 0.0) return 0;
        if (idx > double(nbins - 1) || isinf(v)) return nbins - 1;
        return int(idx);
    }
    }
}
