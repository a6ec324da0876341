// SPDX-License-Identifier: Apache-2.0
// `ipt demo`: first a colour photo (--photo, else a synthetic colour scene)
// through the steps a MATLAB script takes first: grey, resized, rotated,
// equalised, thresholded, each on the device the registry picks; then every
// available operator on a synthetic scene (step and roof edges, ramps, a
// disk, noise; nothing downloaded), on every device: a table of times and
// whether each result matches the CPU reference, and a contact sheet PNG of
// the results. The inputs of each operator come from the conformance recipes
// and the comparison is the conformance suite's.
#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "command.hpp"
#include "conformance_compare.hpp"
#include "conformance_recipes.hpp"
#include "conformance_run.hpp"
#include "image_io.hpp"
#include "text.hpp"

namespace {

namespace conf = ipt::conformance;

struct Options {
    int64_t size = 512;
    std::string out = "demo.png";
    std::string photo;  // empty: the synthetic scene in colour
    bool json = false;
};

constexpr uint64_t kDemoSeed = 1;  // the same scene every run

// ---- contact sheet ---------------------------------------------------------

// A 5x7 bitmap font (bit 4 = leftmost column) for labels: A-Z, 0-9, . _ - : ( ) space.
const std::array<uint8_t, 7>* glyph(char c) {
    static const std::array<uint8_t, 7> letters[26] = {
        {0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11}, {0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E},
        {0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E}, {0x1E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1E},
        {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F}, {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10},
        {0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F}, {0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11},
        {0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E}, {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C},
        {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11}, {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F},
        {0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11}, {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11},
        {0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}, {0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10},
        {0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D}, {0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11},
        {0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E}, {0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04},
        {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}, {0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04},
        {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A}, {0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11},
        {0x11, 0x11, 0x0A, 0x04, 0x04, 0x04, 0x04}, {0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F},
    };
    static const std::array<uint8_t, 7> digits[10] = {
        {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}, {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E},
        {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}, {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E},
        {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}, {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E},
        {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}, {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
        {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}, {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C},
    };
    static const std::array<uint8_t, 7> dot = {0, 0, 0, 0, 0, 0x0C, 0x0C}, underscore = {0, 0, 0, 0, 0, 0, 0x1F},
                                        dash = {0, 0, 0, 0x1F, 0, 0, 0}, colon = {0, 0x0C, 0x0C, 0, 0x0C, 0x0C, 0},
                                        open = {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02},
                                        close = {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08};
    if (c >= 'a' && c <= 'z') return &letters[c - 'a'];
    if (c >= 'A' && c <= 'Z') return &letters[c - 'A'];
    if (c >= '0' && c <= '9') return &digits[c - '0'];
    switch (c) {
    case '.': return &dot;
    case '_': return &underscore;
    case '-': return &dash;
    case ':': return &colon;
    case '(': return &open;
    case ')': return &close;
    default: return nullptr;  // space and anything else: blank
    }
}

class Sheet {
public:
    static constexpr int64_t kTile = 192, kLabel = 11, kGap = 4;

    Sheet(size_t tiles, int64_t columns)
        : cols_(columns), rows_((static_cast<int64_t>(tiles) + columns - 1) / columns),
          width_(cols_ * (kTile + kGap) + kGap), height_(rows_ * (kTile + kLabel + kGap) + kGap),
          pixels_(static_cast<size_t>(width_ * height_), 40) {}

    // Scales an image's first plane to 0..255 (finite min..max; logical 0/255)
    // and fits it, nearest neighbour, under a label.
    void put(size_t index, const conf::HostImage& im, const std::string& label) {
        const int64_t x0 = kGap + static_cast<int64_t>(index) % cols_ * (kTile + kGap);
        const int64_t y0 = kGap + static_cast<int64_t>(index) / cols_ * (kTile + kLabel + kGap);
        text(x0 + 1, y0 + 2, label);
        if (im.rows == 0 || im.cols == 0) return;
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < static_cast<size_t>(im.rows * im.cols); ++i) {
            const double v = im.get(i);
            if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
        }
        if (im.dtype == IPT_LOGICAL) lo = 0, hi = 1;
        const double scale = hi > lo ? 255.0 / (hi - lo) : 0.0;
        const double zoom = std::min(static_cast<double>(kTile) / static_cast<double>(im.rows),
                                     static_cast<double>(kTile) / static_cast<double>(im.cols));
        const int64_t h = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(im.rows) * zoom));
        const int64_t w = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(im.cols) * zoom));
        for (int64_t r = 0; r < h; ++r)
            for (int64_t c = 0; c < w; ++c) {
                const int64_t sr = std::min(im.rows - 1, static_cast<int64_t>(static_cast<double>(r) / zoom));
                const int64_t sc = std::min(im.cols - 1, static_cast<int64_t>(static_cast<double>(c) / zoom));
                const double v = im.get(static_cast<size_t>(sr * im.cols + sc));
                const double g = std::isfinite(v) ? (v - lo) * scale : (v > 0 ? 255.0 : 0.0);
                pixel(x0 + c, y0 + kLabel + r) = static_cast<uint8_t>(std::clamp(std::round(g), 0.0, 255.0));
            }
    }

    ipt::cli::HostImage image() const {
        return ipt::cli::HostImage::make(IPT_UINT8, height_, width_, 1, pixels_.data());
    }

private:
    uint8_t& pixel(int64_t x, int64_t y) { return pixels_[static_cast<size_t>(y * width_ + x)]; }

    void text(int64_t x, int64_t y, const std::string& s) {
        for (char ch : s) {
            if (x + 5 > width_) break;
            if (const auto* g = glyph(ch))
                for (int64_t r = 0; r < 7; ++r)
                    for (int64_t c = 0; c < 5; ++c)
                        if ((*g)[static_cast<size_t>(r)] & (0x10 >> c)) pixel(x + c, y + r) = 235;
            x += 6;
        }
    }

    int64_t cols_, rows_, width_, height_;
    std::vector<uint8_t> pixels_;
};

// ---- the run ----------------------------------------------------------------

struct DemoRow {
    std::string op, device, implementation, status, match;
    double ms = -1;
};

std::string short_name(const std::string& op) {
    const auto dot = op.find('.');
    return dot == std::string::npos ? op : op.substr(dot + 1);
}

// ---- the photo pipeline -------------------------------------------------------

// One step of the pipeline: `op` reads the previous step's image as `input`
// and gives `output`; the other parameters are set from text, as `ipt run
// --param` sets them.
struct PipelineStep {
    std::string label, op, input, output;
    std::vector<std::pair<std::string, std::string>> params;
};

const std::vector<PipelineStep>& pipeline_steps() {
    static const std::vector<PipelineStep> steps = {
        {"grey", "ipt.rgb2gray", "RGB", "I", {}},
        {"resized", "ipt.imresize", "A", "B", {{"Scale", "0.5"}}},
        {"rotated", "ipt.imrotate", "I", "J", {{"angle", "30"}, {"method", "bilinear"}}},
        {"equalised", "ipt.histeq", "I", "J", {}},
        {"thresholded", "ipt.imbinarize", "I", "BW", {}},
    };
    return steps;
}

struct PipelineRow {
    std::string step, op, dispatched, status;
    double ms = -1;
};

bool has_param(const ipt_op_schema& s, const std::string& name) {
    for (uint32_t i = 0; i < s.param_count; ++i)
        if (name == ipt_op_param(&s, i)->name) return true;
    return false;
}

// Runs the steps on `photo`, each on the device the registry chooses, the
// image staying where the previous step left it. A step whose operator is
// missing (or has other parameters) is listed and passed over; a step that
// fails ends the pipeline.
std::vector<PipelineRow> run_pipeline(ipt::Context& ctx, const ipt::cli::HostImage& photo,
                                      std::vector<std::pair<std::string, conf::HostImage>>& tiles) {
    auto to_tile = [](const ipt::cli::HostImage& h) {
        conf::HostImage t = conf::HostImage::make(h.dtype, h.rows, h.cols, h.channels);
        t.bytes = h.bytes;
        return t;
    };
    std::vector<PipelineRow> rows;
    tiles.emplace_back("photo " + std::to_string(photo.rows) + "x" + std::to_string(photo.cols), to_tile(photo));
    ipt::Image current = ipt::cli::upload(ctx, photo);
    int64_t channels = photo.channels;
    for (const PipelineStep& step : pipeline_steps()) {
        PipelineRow row{step.label, step.op, "-", "", -1};
        const ipt_op_schema* schema = ipt_op_find(ctx.get(), step.op.c_str());
        bool usable = schema && has_param(*schema, step.input) && has_param(*schema, step.output);
        for (const auto& p : step.params) usable = usable && schema && has_param(*schema, p.first);
        if (!usable) {
            row.status = schema ? "skipped (other parameters)" : "skipped (not in this build)";
            rows.push_back(row);
            continue;
        }
        if (step.op == "ipt.rgb2gray" && channels != 3) {
            row.status = "skipped (the photo is grey)";
            rows.push_back(row);
            continue;
        }
        try {
            ipt::Call call(ctx, step.op);
            call.image(step.input.c_str(), current);
            for (const auto& p : step.params) call.text(p.first.c_str(), p.second);
            call.run();
            const ipt_dispatch_info d = ctx.last_dispatch();
            row.ms = d.run_ms;
            row.dispatched = std::string(d.plugin ? d.plugin : "?");
            if (d.variant && *d.variant) row.dispatched.append(":").append(d.variant);
            row.dispatched.append(", device ").append(std::to_string(d.device_id));
            current = call.take(step.output.c_str());
            const ipt::cli::HostImage out = ipt::cli::download(current);
            channels = out.channels;
            row.status = "ok";
            tiles.emplace_back(step.label + " " + std::to_string(out.rows) + "x" + std::to_string(out.cols), to_tile(out));
        } catch (const ipt::Error& e) {
            row.status = std::string("failed: ") + e.what();
            rows.push_back(row);
            break;
        }
        rows.push_back(row);
    }
    return rows;
}

ipt::cli::Action setup(CLI::App& sub) {
    auto opt = std::make_shared<Options>();
    sub.add_option("--size", opt->size, "Side of the synthetic scene in pixels")->check(CLI::Range(int64_t{8}, int64_t{16384}));
    sub.add_option("--out", opt->out, "Contact sheet PNG to write");
    sub.add_option("--photo", opt->photo,
                   "Colour photo for the pipeline (grey, resized, rotated, equalised, thresholded); "
                   "default: the synthetic scene in colour");
    sub.add_flag("--json", opt->json, "Print the table as JSON");
    return [opt] {
        if (!ipt::cli::png_available()) throw ipt::cli::UsageError("this ipt was built without libpng: no contact sheet");
        // A destination that cannot be written fails now, not after every operator ran.
        ipt::cli::OutputFiles sheet_file;
        sheet_file.declare("--out", opt->out, false);
        ipt::Context ctx;
        std::string ref_error;
        std::unique_ptr<conf::Reference> reference = conf::open_reference("", ref_error);
        if (!reference) std::cerr << "ipt demo: " << ref_error << "; results are not checked\n";
        const auto devices = ctx.devices();

        std::vector<DemoRow> rows;
        std::vector<std::pair<std::string, conf::HostImage>> tiles;
        ipt::cli::HostImage photo;
        if (!opt->photo.empty()) {
            const ipt::cli::InputSpec in = ipt::cli::parse_input_spec(opt->photo);
            photo = ipt::cli::read_image(in.path, in.options);
        } else {
            conf::Rng rng(conf::mix_seed(kDemoSeed, "colour scene"));
            conf::ImageSpec colour = conf::spec(IPT_UINT8, opt->size, opt->size, conf::Fill::Synthetic);
            colour.channels = 3;
            const conf::HostImage scene = conf::generate(colour, rng);
            photo = ipt::cli::HostImage::make(IPT_UINT8, scene.rows, scene.cols, scene.channels, scene.bytes.data());
        }
        const std::vector<PipelineRow> pipeline = run_pipeline(ctx, photo, tiles);
        {
            // The scene itself comes first.
            conf::Rng rng(conf::mix_seed(kDemoSeed, "scene"));
            tiles.emplace_back("input", conf::generate(conf::spec(IPT_DOUBLE, opt->size, opt->size, conf::Fill::Synthetic), rng));
        }
        for (const ipt_op_schema* schema : ctx.ops()) {
            const std::string op = schema->name;
            const conf::CaseSpec c = conf::demo_case(*schema, opt->size, opt->size);
            const conf::NamedImages inputs = conf::generate_inputs(c, op, kDemoSeed);
            conf::RunResult ref;
            bool have_ref = false;
            conf::Target ref_target;
            std::string why;
            if (reference && reference->target_for(op, ref_target, why)) {
                ref = conf::run_case(ref_target, *schema, c, inputs);
                have_ref = ref.status == IPT_OK;
            }
            bool any = false;
            const conf::HostImage* tile = have_ref && !ref.outputs.items.empty() ? &ref.outputs.items.front().second : nullptr;
            std::string tile_label = tile ? short_name(op) + " " + ref.outputs.items.front().first : "";
            conf::RunResult first_ok;
            for (const ipt_device_info& d : devices) {
                for (const conf::Target& t : conf::targets_on(ctx, op, d.id)) {
                    any = true;
                    DemoRow row;
                    row.op = op;
                    row.device = std::to_string(d.id) + " " + (d.kind ? d.kind : "?");
                    row.implementation = t.variant.empty() ? t.plugin : t.plugin + ":" + t.variant;
                    conf::RunResult got = conf::run_case(t, *schema, c, inputs, 3);
                    if (got.status != IPT_OK) {
                        // A decline (an FFT variant below its crossover) is not an error.
                        row.status = got.status == IPT_ERR_UNSUPPORTED ? "declined" : ipt_status_name(got.status);
                        row.match = "- (" + (got.error.size() > 90 ? got.error.substr(got.error.size() - 90) : got.error) + ")";
                    } else {
                        row.status = "ok";
                        row.ms = got.ms;
                        if (!have_ref) {
                            row.match = "- (no reference)";
                        } else {
                            const conf::Verdict v = conf::compare_outputs(*schema, c, inputs, ref.outputs, got.outputs);
                            row.match = v.ok ? "yes" : "NO: " + v.message;
                        }
                        if (!tile && !got.outputs.items.empty()) {
                            first_ok = std::move(got);
                            tile = &first_ok.outputs.items.front().second;
                            tile_label = short_name(op) + " " + first_ok.outputs.items.front().first + " (" + std::string(d.kind ? d.kind : "?") + ")";
                        }
                    }
                    rows.push_back(row);
                }
            }
            if (!any) rows.push_back(DemoRow{op, "-", "-", "no implementation", "-", -1});
            if (tile) tiles.emplace_back(tile_label, *tile);
        }

        Sheet sheet(tiles.size(), 5);
        for (size_t i = 0; i < tiles.size(); ++i) sheet.put(i, tiles[i].second, tiles[i].first);
        sheet_file.write(opt->out, ipt::cli::FileFormat::png, sheet.image());
        sheet_file.commit();

        bool all_match = true;
        for (const DemoRow& r : rows)
            if (r.match.rfind("NO", 0) == 0) all_match = false;
        for (const PipelineRow& r : pipeline)
            if (r.status.rfind("failed", 0) == 0) all_match = false;
        if (opt->json) {
            nlohmann::json j = nlohmann::json::array();
            for (const DemoRow& r : rows)
                j.push_back({{"op", r.op}, {"device", r.device}, {"implementation", r.implementation}, {"status", r.status},
                             {"ms", r.ms < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.ms)}, {"matches_reference", r.match}});
            nlohmann::json steps = nlohmann::json::array();
            for (const PipelineRow& r : pipeline)
                steps.push_back({{"step", r.step}, {"op", r.op}, {"ran", r.dispatched}, {"status", r.status},
                                 {"ms", r.ms < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.ms)}});
            ipt::cli::print_json(std::cout, {{"size", opt->size},
                                             {"photo", opt->photo.empty() ? std::string("synthetic") : opt->photo},
                                             {"pipeline", steps},
                                             {"contact_sheet", opt->out},
                                             {"results", j}});
        } else {
            std::cout << "OpenIPT demo: " << (opt->photo.empty() ? std::string("synthetic colour scene") : opt->photo) << " "
                      << photo.rows << "x" << photo.cols << "x" << photo.channels << " through the first steps of a script\n";
            ipt::cli::Table steps({"step", "operator", "ran on", "time (ms)", "status"});
            for (const PipelineRow& r : pipeline)
                steps.add_row({r.step, r.op, r.dispatched, r.ms < 0 ? "-" : ipt::cli::format_number(std::round(r.ms * 1000) / 1000),
                               r.status});
            steps.print(std::cout);
            std::cout << "\n";
            ipt::cli::Table table({"operator", "device", "implementation", "time (ms)", "matches reference"});
            for (const DemoRow& r : rows)
                table.add_row({r.op, r.device, r.implementation, r.ms < 0 ? r.status : ipt::cli::format_number(std::round(r.ms * 1000) / 1000),
                               r.match});
            std::cout << "OpenIPT demo: synthetic scene " << opt->size << "x" << opt->size << "\n";
            table.print(std::cout);
            std::cout << "contact sheet: " << opt->out << " (" << tiles.size() << " tiles)\n";
        }
        return all_match ? ipt::cli::kExitOk : ipt::cli::kExitFailure;
    };
}

IPT_CLI_COMMAND("demo", "Run every operator on a synthetic scene on every device; table and contact sheet PNG", setup);

}  // namespace
