// SPDX-License-Identifier: Apache-2.0
// Shared helpers for the GoogleTest suites: one context per process with the
// plugins found next to libipt, and short ways to make and read images.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "ipt/ipt.hpp"

namespace ipt_test {

// The process-wide context (plugins discovered next to libipt).
inline ipt::Context& context() {
    static ipt::Context ctx;
    return ctx;
}

// Image from row-major values written as in MATLAB source (rows listed in order).
template <class T>
ipt::Image image(int64_t rows, int64_t cols, const std::vector<T>& values, int64_t channels = 1) {
    return context().upload<T>(rows, cols, values, channels);
}

inline ipt::Image logical(int64_t rows, int64_t cols, const std::vector<int>& values) {
    std::vector<uint8_t> bytes(values.begin(), values.end());
    return context().upload(IPT_LOGICAL, rows, cols, bytes.data());
}

// Expects a status and a message that mentions `needle` from a C++ wrapper call.
#define IPT_EXPECT_ERROR(statement, status_value, needle)                               \
    do {                                                                               \
        try {                                                                          \
            statement;                                                                 \
            ADD_FAILURE() << "expected " #status_value " from " #statement;           \
        } catch (const ipt::Error& e) {                                                \
            EXPECT_EQ(e.status(), status_value) << e.what();                           \
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)           \
                << "message '" << e.what() << "' does not mention '" << needle << "'"; \
        }                                                                              \
    } while (0)

}  // namespace ipt_test
