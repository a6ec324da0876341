// SPDX-License-Identifier: Apache-2.0
// `ipt tune`: fills the tuning cache ahead of time. For every operator and
// size of the matrix, and for data on each device, one call runs under the
// measured selection; a miss measures every candidate, which the cache keeps.
#include <cstdlib>
#include <iostream>
#include <memory>

#include "bench_matrix.hpp"
#include "command.hpp"

namespace {

struct Options {
    std::vector<std::string> ops;
    std::string sizes = "256,2048";
    std::string cache;
    ipt::cli::ContextOptions context;
};

ipt::cli::Action setup(CLI::App& sub) {
    auto opt = std::make_shared<Options>();
    sub.add_option("--ops", opt->ops, "operators (default: every operator with an image input)")->delimiter(',');
    sub.add_option("--sizes", opt->sizes, "image sides, comma-separated")->capture_default_str();
    sub.add_option("--cache", opt->cache, "tuning cache file (default: $IPT_TUNING_CACHE or ~/.cache/openipt/tuning.json)");
    ipt::cli::add_context_options(sub, opt->context);
    return [opt] {
        // Every candidate measured on a miss, not only those the priors cannot tell apart.
        ::setenv("IPT_SELECT", "measure", 1);
        ipt::Context ctx = ipt::cli::open_context(opt->context);
        if (!opt->cache.empty()) ctx.set_tuning_cache(opt->cache);
        ctx.set_selection(IPT_SELECT_AUTO);
        const auto ops = ipt::cli::bench_ops(ctx, opt->ops);
        const auto sizes = ipt::cli::parse_sizes(opt->sizes);
        std::vector<uint32_t> wheres;
        for (const auto& d : ctx.devices()) wheres.push_back(d.id);
        const size_t total = ops.size() * sizes.size() * wheres.size();
        size_t done = 0, failed = 0;
        for (const ipt_op_schema* op : ops)
            for (int64_t n : sizes) {
                ipt::cli::BenchCase bc(*op, n);
                for (uint32_t where : wheres) {
                    ipt::cli::progress_bar(done, total, std::string(op->name) + " " + std::to_string(n) + " @" + std::to_string(where));
                    try {
                        auto images = bc.upload(ctx, where);
                        ipt::Call call = bc.make_call(ctx, images);
                        call.run();
                    } catch (const ipt::Error& e) {
                        ++failed;
                        std::cerr << "\n" << op->name << " " << n << " on device " << where << ": " << e.what() << "\n";
                    }
                    ++done;
                }
            }
        ipt::cli::progress_bar(total, total, "done");
        ctx.save_tuning_cache();
        const char* path = ipt_tuning_cache_path(ctx.get());
        std::cout << "tuned " << done - failed << " of " << total << " cases; cache: " << (*path ? path : "(memory only)")
                  << "\n";
        return failed ? ipt::cli::kExitFailure : ipt::cli::kExitOk;
    };
}

IPT_CLI_COMMAND("tune", "Measure every implementation ahead of time and fill the tuning cache", setup);

}  // namespace
