// SPDX-License-Identifier: Apache-2.0
// Text helpers shared by the subcommands: NAME=VALUE arguments, aligned
// tables, JSON printing, and catalogue terms (classes, kinds, flags) in words.
// Nothing here calls into libipt, so the pieces can be tested on their own.
#ifndef IPT_TOOLS_TEXT_HPP
#define IPT_TOOLS_TEXT_HPP

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ipt/ipt_ops.h>

namespace ipt::cli {

struct Assignment {
    std::string name;
    std::string value;
};

// Splits "NAME=VALUE" at the first '='. `option` names the flag in the error
// ("--in expects NAME=FILE, got 'x'"); throws UsageError.
Assignment parse_assignment(std::string_view text, std::string_view option,
                            std::string_view value_word = "VALUE");

std::string join(const std::vector<std::string>& parts, std::string_view separator);

// Columns padded to their widest cell; the last column is not padded.
class Table {
public:
    explicit Table(std::vector<std::string> headers);
    void add_row(std::vector<std::string> cells); // shorter rows are filled with ""
    bool empty() const { return rows_.empty(); }
    void print(std::ostream& out, std::string_view indent = "") const;

private:
    std::vector<std::string> headers_;
    std::vector<std::vector<std::string>> rows_;
};

// Pretty-printed JSON followed by a newline.
void print_json(std::ostream& out, const nlohmann::json& value);

// MATLAB class names ("uint8", "logical", ...). These mirror ipt_dtype_name
// so that the file readers work without a library instance.
std::string_view dtype_name(ipt_dtype dtype); // "?" for an unknown value
std::optional<ipt_dtype> dtype_from_name(std::string_view name);
std::size_t dtype_size(ipt_dtype dtype);      // 0 for an unknown value

std::string dtypes_in_words(uint32_t mask);   // "uint8|uint16|single"
std::string_view param_kind_name(int32_t kind); // "input", "output", "int", ...
std::vector<std::string> flag_words(const ipt_param_schema& param); // {"optional", "same size as A"}
std::string format_bytes(uint64_t bytes);       // "15.6 GiB"
std::string format_number(double value);        // shortest round-trip form

} // namespace ipt::cli

#endif // IPT_TOOLS_TEXT_HPP
