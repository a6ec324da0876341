// SPDX-License-Identifier: Apache-2.0
// The `ipt` program: subcommands register themselves (command.hpp); main only
// builds the parser, runs the chosen action and turns errors into exit codes
// (command.hpp lists them).
#include <exception>
#include <iostream>
#include <new>

#include "command.hpp"

#ifndef IPT_CLI_VERSION
#define IPT_CLI_VERSION "unknown"
#endif

int main(int argc, char** argv) {
    using namespace ipt::cli;
    CLI::App app{"OpenIPT: MATLAB Image Processing Toolbox functions on the devices of this machine", "ipt"};
    app.set_version_flag("--version", "ipt " IPT_CLI_VERSION " (ABI " + std::to_string(ipt_version_abi()) +
                                          ", API " + std::to_string(ipt_version_api()) + ")");
    app.require_subcommand(1);
    app.footer(kExitCodesHelp);

    std::vector<std::pair<CLI::App*, Action>> actions;
    try {
        for (const CommandSpec& spec : registered_commands()) {
            CLI::App* sub = app.add_subcommand(spec.name, spec.summary);
            actions.emplace_back(sub, spec.setup(*sub));
        }
    } catch (const std::exception& e) {
        std::cerr << "ipt: internal error while declaring the commands: " << e.what() << '\n';
        return kExitInternal;
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e); // prints help, version or the parse error
        return code == 0 ? kExitOk : kExitUsage;
    } catch (...) {
        std::cerr << "ipt: internal error while reading the command line\n";
        return kExitInternal;
    }

    for (auto& [sub, action] : actions) {
        if (!sub->parsed()) continue;
        const std::string prefix = "ipt " + sub->get_name() + ": ";
        try {
            return action();
        } catch (const FileError& e) {
            std::cerr << prefix << e.what() << '\n';
            return kExitFile;
        } catch (const UsageError& e) {
            std::cerr << prefix << e.what() << '\n';
            return kExitUsage;
        } catch (const ipt::Error& e) {
            // Every library status, known or not, is a failure of the operation.
            const std::string message = *e.what() ? e.what() : "(no message)";
            const char* status = ipt_status_name(e.status());
            std::cerr << prefix << message << " [" << (status ? status : "?") << "]\n";
            return kExitFailure;
        } catch (const std::bad_alloc&) {
            std::cerr << prefix << "out of memory\n";
            return kExitFailure;
        } catch (const std::exception& e) {
            std::cerr << prefix << "internal error: " << e.what() << '\n';
            return kExitInternal;
        } catch (...) {
            std::cerr << prefix << "internal error: unknown exception\n";
            return kExitInternal;
        }
    }
    return kExitInternal; // unreachable: require_subcommand(1)
}
