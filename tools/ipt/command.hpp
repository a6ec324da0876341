// SPDX-License-Identifier: Apache-2.0
// Subcommand registry of the `ipt` program.
//
// A file tools/ipt/cmd_<name>.cpp adds a subcommand without touching main.cpp:
//
//   namespace {
//   struct Options { std::string op; bool json = false; ipt::cli::ContextOptions context; };
//
//   ipt::cli::Action setup(CLI::App& sub) {
//       auto opt = std::make_shared<Options>();          // outlives setup(): the action owns it
//       sub.add_option("--op", opt->op, "operator name");
//       sub.add_flag("--json", opt->json, "machine-readable output");
//       ipt::cli::add_context_options(sub, opt->context);
//       return [opt] {
//           ipt::Context ctx = ipt::cli::open_context(opt->context);
//           ...
//           return ipt::cli::kExitOk;
//       };
//   }
//   IPT_CLI_COMMAND("example", "One line shown by `ipt --help`", setup);
//   }  // namespace
//
// setup() runs for every registered command before parsing (it only declares
// options); the returned action runs only for the subcommand the user named.
// Errors: throw ipt::cli::UsageError (bad command line: exit 2), FileError (a
// file that cannot be read, represented or written: exit 3) or let ipt::Error
// escape (library failure: exit 1, the library's message printed); main()
// prints "ipt <command>: <message>" to stderr. kExitCodesHelp is the table shown by
// `ipt --help`.
#ifndef IPT_TOOLS_COMMAND_HPP
#define IPT_TOOLS_COMMAND_HPP

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <ipt/ipt.hpp>

namespace ipt::cli {

// Exit codes shared by all subcommands (`ipt --help` prints kExitCodesHelp).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // the library refused or failed a valid-looking request, or a check failed
inline constexpr int kExitUsage = 2;    // bad command line: option, operator, parameter, missing --in, --out
inline constexpr int kExitFile = 3;     // a file cannot be read, represented faithfully or written
inline constexpr int kExitInternal = 4; // a fault of ipt itself (an unexpected exception)

inline constexpr const char* kExitCodesHelp =
    "Exit codes:\n"
    "  0  success\n"
    "  1  the operation failed: the library refused or failed the call (its message and status are\n"
    "     printed), memory ran out, or a check failed (conformance: a case failed; demo: a result\n"
    "     differs from the reference; bench --check-auto: auto missed; tune: a case failed)\n"
    "  2  usage error: unknown command, option, operator, device, input, output or parameter, a\n"
    "     parameter value the operator refuses, a required --in missing, an --out given twice or\n"
    "     two outputs to one file, an unknown file extension, a plugin that does not load\n"
    "  3  file error: an input file missing, unreadable, malformed or not representable (a\n"
    "     multi-page TIFF, an image with alpha: see `ipt run --help`), or an output the file\n"
    "     system or the format refuses; no output file is changed\n"
    "  4  internal error in ipt (please report it)\n"
    "  conformance also exits 77 when it certified nothing (no device or plugin to test)\n";

// A mistake of the user's (argument, name). main() prints what() and exits kExitUsage.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A file that cannot be read or written, or that the CLI cannot represent
// faithfully; the message names the file. main() exits kExitFile. A kind of
// UsageError, so callers that only tell the user's mistakes from the
// library's may catch both as one.
class FileError : public UsageError {
public:
    using UsageError::UsageError;
};

using Action = std::function<int()>;
using Setup = Action (*)(CLI::App& sub);

struct CommandSpec {
    const char* name;
    const char* summary;
    Setup setup;
};

// Called from static initialisers via IPT_CLI_COMMAND; returns true so it can
// initialise a namespace-scope bool.
bool register_command(const CommandSpec& spec);
// Every registered command, sorted by name.
std::vector<CommandSpec> registered_commands();

#define IPT_CLI_CONCAT_INNER(a, b) a##b
#define IPT_CLI_CONCAT(a, b) IPT_CLI_CONCAT_INNER(a, b)
#define IPT_CLI_COMMAND(name, summary, setup_fn)                                          \
    [[maybe_unused]] static const bool IPT_CLI_CONCAT(ipt_cli_registered_, __LINE__) =   \
        ::ipt::cli::register_command(::ipt::cli::CommandSpec{name, summary, setup_fn})

// ---- context options shared by subcommands ----------------------------------

struct ContextOptions {
    std::vector<std::string> plugins; // loaded in order, after the discovered ones
    bool no_discovery = false;        // skip IPT_PLUGIN_PATH and the folder next to libipt
};

// Adds --plugin PATH (repeatable) and --no-discovery to a subcommand.
void add_context_options(CLI::App& sub, ContextOptions& options);

// Creates the context and loads the explicit plugins. A plugin that fails to
// load throws UsageError carrying its load-report entry (path, error, versions).
ipt::Context open_context(const ContextOptions& options);

// Resolves --device text: a numeric id, or a device kind ("cpu", "cuda",
// "vulkan": its first device), or a device name. Throws UsageError listing the
// devices when nothing matches.
uint32_t resolve_device(const ipt::Context& ctx, const std::string& text);

// "conv2" -> "ipt.conv2"; names that already carry a namespace are kept.
// Throws UsageError (with close names suggested) when the context does not know it.
std::string resolve_op(const ipt::Context& ctx, const std::string& name);

// "loaded", "failed" or "duplicate".
std::string load_outcome_name(int32_t outcome);
// One load-report entry as a readable line (used by info and by --plugin errors).
std::string describe_load_report(const ipt_plugin_report& report);

} // namespace ipt::cli

#endif // IPT_TOOLS_COMMAND_HPP
