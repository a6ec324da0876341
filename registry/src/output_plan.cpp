// SPDX-License-Identifier: Apache-2.0
// The outputs a call must produce. For the built-in operators the front-ends
// (backends/common/ops) decide them, as they do for every backend; this file
// only reads their plans. Front-ends whose full plan builds tables or filters
// offer a plan of the sizes alone (plan_<op>_output), so the check stays
// host arithmetic of a few microseconds per call.
#include "output_plan.hpp"

#include <cstring>
#include <map>
#include <string_view>

#include "common/ops/bwdist.hpp"
#include "common/ops/conv2.hpp"
#include "common/ops/dither.hpp"
#include "common/ops/edge.hpp"
#include "common/ops/fspecial.hpp"
#include "common/ops/imadjust.hpp"
#include "common/ops/imdilate.hpp"
#include "common/ops/imerode.hpp"
#include "common/ops/imfilter.hpp"
#include "common/ops/imlincomb.hpp"
#include "common/ops/imregionalmax.hpp"
#include "common/ops/intlut.hpp"
#include "common/ops/mean2.hpp"
#include "common/ops/medfilt2.hpp"
#include "common/ops/ordfilt2.hpp"
#include "common/ops/radon.hpp"
#include "common/ops/strel.hpp"
#include "common/ops/stretchlim.hpp"
// Class conversions and intensity.
#include "common/ops/im2double.hpp"
#include "common/ops/im2int16.hpp"
#include "common/ops/im2single.hpp"
#include "common/ops/im2uint16.hpp"
#include "common/ops/im2uint8.hpp"
#include "common/ops/imcomplement.hpp"
#include "common/ops/mat2gray.hpp"
#include "common/ops/rgb2gray.hpp"
// Colour spaces.
#include "common/ops/hsv2rgb.hpp"
#include "common/ops/rgb2hsv.hpp"
#include "common/ops/rgb2ycbcr.hpp"
#include "common/ops/ycbcr2rgb.hpp"
// Geometric transformations.
#include "common/ops/imresize.hpp"
// Rotation, translation and geometric warps.
#include "common/ops/imrotate.hpp"
#include "common/ops/imtranslate.hpp"
#include "common/ops/imwarp.hpp"
// Gradients.
#include "common/ops/imgradient.hpp"
#include "common/ops/imgradientxy.hpp"
// Padding and cropping.
#include "common/ops/imcrop.hpp"
#include "common/ops/padarray.hpp"
// Smoothing filters.
#include "common/ops/imboxfilt.hpp"
#include "common/ops/imgaussfilt.hpp"
#include "common/ops/integralimage.hpp"
// Histograms and thresholds.
#include "common/ops/graythresh.hpp"
#include "common/ops/histeq.hpp"
#include "common/ops/imhist.hpp"
#include "common/ops/otsuthresh.hpp"
// Correlation and adaptive noise removal (normxcorr2, wiener2).
#include "common/ops/normxcorr2.hpp"
#include "common/ops/wiener2.hpp"
// Thresholds (multithresh, imbinarize, adaptthresh).
#include "common/ops/adaptthresh.hpp"
#include "common/ops/imbinarize.hpp"
#include "common/ops/multithresh.hpp"
// Contrast-limited adaptive histogram equalisation (adapthisteq).
#include "common/ops/adapthisteq.hpp"
// Neighbourhood statistics.
#include "common/ops/entropyfilt.hpp"
#include "common/ops/rangefilt.hpp"
#include "common/ops/stdfilt.hpp"
#include "internal.hpp"

namespace ipt::reg {

namespace {

using ipt::plugin::KernelArgs;
namespace fe = ipt::frontend;

// Records the expected outputs of one call by name.
class Expect {
public:
    Expect(const KernelArgs& args, OutputPlan& plan) : args_(args), plan_(plan) {}
    void operator()(const char* name, int32_t dtype, int64_t rows, int64_t cols, int64_t channels = 1) {
        plan_.outputs[args_.index(name)] = ExpectedOutput{dtype, rows, cols, channels};
    }

private:
    const KernelArgs& args_;
    OutputPlan& plan_;
};

using Planner = void (*)(const KernelArgs&, Expect&);

void morphology(const fe::MorphologyPlan& p, Expect& out) { out("B", p.dtype, p.rows, p.cols); }
void im2class(const fe::Im2ClassPlan& p, Expect& out) { out("J", p.out_dtype, p.rows, p.cols, p.channels); }

const std::map<std::string, Planner, std::less<>>& planners() {
    static const std::map<std::string, Planner, std::less<>> table = {
        // Neighbourhood statistics.
        {"ipt.stdfilt",
         [](const KernelArgs& a, Expect& out) {
             const fe::StdfiltPlan p = fe::plan_stdfilt(a);
             out("J", p.out_dtype, p.rows, p.cols, p.channels);
         }},
        {"ipt.rangefilt",
         [](const KernelArgs& a, Expect& out) {
             const fe::RangefiltPlan p = fe::plan_rangefilt(a);
             out("J", p.out_dtype, p.rows, p.cols, p.channels);
         }},
        {"ipt.entropyfilt",
         [](const KernelArgs& a, Expect& out) {
             const fe::EntropyfiltPlan p = fe::plan_entropyfilt(a);
             out("J", IPT_DOUBLE, p.rows, p.cols, p.channels);
         }},
        {"ipt.bwdist",
         [](const KernelArgs& a, Expect& out) {
             const fe::BwdistPlan p = fe::plan_bwdist(a);
             out("D", p.d_dtype, p.rows, p.cols);
             out("IDX", p.idx_dtype, p.rows, p.cols);
         }},
        {"ipt.conv2",
         [](const KernelArgs& a, Expect& out) {
             const fe::Conv2Plan p = fe::plan_conv2(a);
             out("C", p.out_class, p.out_rows, p.out_cols);
         }},
        {"ipt.dither",
         [](const KernelArgs& a, Expect& out) {
             const fe::DitherPlan p = fe::plan_dither_output(a);
             out("X", p.out_dtype, p.rows, p.cols);
         }},
        {"ipt.edge",
         [](const KernelArgs& a, Expect& out) {
             const fe::EdgePlan p = fe::plan_edge_output(a);
             out("BW", IPT_LOGICAL, p.rows, p.cols);
             out("thresh", IPT_DOUBLE, 1, p.thresh_count);
         }},
        {"ipt.fspecial",
         [](const KernelArgs& a, Expect& out) {
             const fe::FspecialPlan p = fe::plan_fspecial(a);
             out("h", IPT_DOUBLE, p.h.rows, p.h.cols);
         }},
        {"ipt.imadjust",
         [](const KernelArgs& a, Expect& out) {
             const fe::ImadjustPlan p = fe::plan_imadjust_output(a);
             out("J", p.dtype, p.rows, p.cols, p.channels);
         }},
        {"ipt.imdilate", [](const KernelArgs& a, Expect& out) { morphology(fe::plan_imdilate(a), out); }},
        {"ipt.imerode", [](const KernelArgs& a, Expect& out) { morphology(fe::plan_imerode(a), out); }},
        {"ipt.imfilter",
         [](const KernelArgs& a, Expect& out) {
             const fe::ImfilterPlan p = fe::plan_imfilter(a);
             out("B", p.out_class, p.out_rows, p.out_cols, p.channels);
         }},
        {"ipt.imlincomb",
         [](const KernelArgs& a, Expect& out) {
             const fe::ImlincombPlan p = fe::plan_imlincomb(a);
             out("Z", p.out_dtype, p.rows, p.cols, p.channels);
         }},
        {"ipt.imregionalmax",
         [](const KernelArgs& a, Expect& out) {
             const fe::ImregionalmaxPlan p = fe::plan_imregionalmax(a);
             out("BW", IPT_LOGICAL, p.rows, p.cols);
         }},
        {"ipt.intlut",
         [](const KernelArgs& a, Expect& out) {
             const fe::IntlutPlan p = fe::plan_intlut(a);
             out("B", p.dtype, p.rows, p.cols, p.channels);
         }},
        {"ipt.mean2",
         [](const KernelArgs& a, Expect& out) {
             const fe::Mean2Plan p = fe::plan_mean2(a);
             out("m", p.out_dtype, 1, 1);
         }},
        {"ipt.medfilt2",
         [](const KernelArgs& a, Expect& out) {
             const fe::Medfilt2Plan p = fe::plan_medfilt2(a);
             out("B", p.a_class, p.rows, p.cols);
         }},
        {"ipt.ordfilt2",
         [](const KernelArgs& a, Expect& out) {
             const fe::Ordfilt2Plan p = fe::plan_ordfilt2(a);
             out("B", p.b_class, p.rows, p.cols);
         }},
        {"ipt.radon",
         [](const KernelArgs& a, Expect& out) {
             const fe::RadonPlan p = fe::plan_radon(a);
             out("R", IPT_DOUBLE, p.bins, p.angles);
             out("xp", IPT_DOUBLE, p.bins, 1);
         }},
        {"ipt.strel",
         [](const KernelArgs& a, Expect& out) {
             const fe::StrelPlan p = fe::plan_strel(a);
             out("nhood", IPT_LOGICAL, p.strel.nhood.rows, p.strel.nhood.cols);
             if (p.factor_count)
                 out("decomposition", IPT_LOGICAL, p.strel.nhood.rows, p.strel.nhood.cols, p.factor_count);
         }},
        {"ipt.stretchlim",
         [](const KernelArgs& a, Expect& out) {
             const fe::StretchlimPlan p = fe::plan_stretchlim(a);
             out("LOWHIGH", p.out_dtype, p.out_rows, p.out_cols);
         }},
        // Class conversions and intensity.
        {"ipt.im2double", [](const KernelArgs& a, Expect& out) { im2class(fe::plan_im2double(a), out); }},
        {"ipt.im2single", [](const KernelArgs& a, Expect& out) { im2class(fe::plan_im2single(a), out); }},
        {"ipt.im2uint8", [](const KernelArgs& a, Expect& out) { im2class(fe::plan_im2uint8(a), out); }},
        {"ipt.im2uint16", [](const KernelArgs& a, Expect& out) { im2class(fe::plan_im2uint16(a), out); }},
        {"ipt.im2int16", [](const KernelArgs& a, Expect& out) { im2class(fe::plan_im2int16(a), out); }},
        {"ipt.imcomplement",
         [](const KernelArgs& a, Expect& out) {
             const fe::ImcomplementPlan p = fe::plan_imcomplement(a);
             out("J", p.dtype, p.rows, p.cols, p.channels);
         }},
        {"ipt.mat2gray",
         [](const KernelArgs& a, Expect& out) {
             const fe::Mat2grayPlan p = fe::plan_mat2gray(a);
             out("I", IPT_DOUBLE, p.rows, p.cols, p.channels);
         }},
        {"ipt.rgb2gray",
         [](const KernelArgs& a, Expect& out) {
             const fe::Rgb2grayPlan p = fe::plan_rgb2gray(a);
             out("I", p.dtype, p.rows, p.cols);
         }},
        // Colour spaces.
        {"ipt.rgb2hsv",
         [](const KernelArgs& a, Expect& out) {
             const fe::Rgb2hsvPlan p = fe::plan_rgb2hsv(a);
             out("HSV", p.out_dtype, p.rows, p.cols, p.channels);
         }},
        {"ipt.hsv2rgb",
         [](const KernelArgs& a, Expect& out) {
             const fe::Hsv2rgbPlan p = fe::plan_hsv2rgb(a);
             out("RGB", p.out_dtype, p.rows, p.cols, p.channels);
         }},
        {"ipt.rgb2ycbcr",
         [](const KernelArgs& a, Expect& out) {
             const fe::Rgb2ycbcrPlan p = fe::plan_rgb2ycbcr(a);
             out("YCBCR", p.layout.out_dtype, p.layout.rows, p.layout.cols, p.layout.channels);
         }},
        {"ipt.ycbcr2rgb",
         [](const KernelArgs& a, Expect& out) {
             const fe::Ycbcr2rgbPlan p = fe::plan_ycbcr2rgb(a);
             out("RGB", p.layout.out_dtype, p.layout.rows, p.layout.cols, p.layout.channels);
         }},
        // Geometric transformations.
        {"ipt.imresize",
         [](const KernelArgs& a, Expect& out) {
             const fe::ImresizePlan p = fe::plan_imresize_output(a);
             out("B", p.dtype, p.out_rows, p.out_cols, p.channels);
         }},
        // Rotation, translation and geometric warps (the shared resampler's plan).
        {"ipt.imrotate",
         [](const KernelArgs& a, Expect& out) {
             const fe::WarpPlan p = fe::plan_imrotate(a);
             out("J", p.dtype, p.out_rows, p.out_cols, p.channels);
         }},
        {"ipt.imtranslate",
         [](const KernelArgs& a, Expect& out) {
             const fe::WarpPlan p = fe::plan_imtranslate(a);
             out("B", p.dtype, p.out_rows, p.out_cols, p.channels);
         }},
        {"ipt.imwarp",
         [](const KernelArgs& a, Expect& out) {
             const fe::WarpPlan p = fe::plan_imwarp(a);
             out("B", p.dtype, p.out_rows, p.out_cols, p.channels);
             out("RB", IPT_DOUBLE, 1, 6);
         }},
        // Gradients.
        {"ipt.imgradientxy",
         [](const KernelArgs& a, Expect& out) {
             const fe::ImgradientxyPlan p = fe::plan_imgradientxy(a);
             out("Gx", p.out_dtype, p.rows, p.cols);
             out("Gy", p.out_dtype, p.rows, p.cols);
         }},
        {"ipt.imgradient",
         [](const KernelArgs& a, Expect& out) {
             const fe::ImgradientPlan p = fe::plan_imgradient(a);
             out("Gmag", p.mag_dtype, p.xy.rows, p.xy.cols);
             out("Gdir", p.dir_dtype, p.xy.rows, p.xy.cols);
         }},
        // Padding and cropping.
        {"ipt.padarray",
         [](const KernelArgs& a, Expect& out) {
             const fe::PadarrayPlan p = fe::plan_padarray(a);
             out("B", p.dtype, p.out_rows, p.out_cols, p.channels);
         }},
        {"ipt.imcrop",
         [](const KernelArgs& a, Expect& out) {
             const fe::ImcropPlan p = fe::plan_imcrop(a);
             out("J", p.out_dtype, p.out_rows, p.out_cols, p.channels);
         }},
        // Smoothing filters.
        {"ipt.imgaussfilt",
         [](const KernelArgs& a, Expect& out) {
             const fe::ImgaussfiltPlan p = fe::plan_imgaussfilt_output(a);
             out("B", p.out_class, p.rows, p.cols, p.channels);
         }},
        {"ipt.imboxfilt",
         [](const KernelArgs& a, Expect& out) {
             const fe::ImboxfiltPlan p = fe::plan_imboxfilt(a);
             out("B", p.out_class, p.rows, p.cols, p.channels);
         }},
        {"ipt.integralimage",
         [](const KernelArgs& a, Expect& out) {
             const fe::IntegralImagePlan p = fe::plan_integralimage(a);
             out("J", IPT_DOUBLE, p.out_rows, p.out_cols, p.channels);
         }},
        // Histograms and thresholds.
        {"ipt.imhist",
         [](const KernelArgs& a, Expect& out) {
             const fe::ImhistPlan p = fe::plan_imhist_output(a);
             out("counts", p.out_dtype, p.out_rows, p.out_cols);
             out("binLocations", p.out_dtype, p.out_rows, p.out_cols);
         }},
        {"ipt.otsuthresh",
         [](const KernelArgs&, Expect& out) {
             // T and EM are scalars whatever counts holds; the values are
             // checked when the plan is computed.
             out("T", IPT_DOUBLE, 1, 1);
             out("EM", IPT_DOUBLE, 1, 1);
         }},
        {"ipt.graythresh",
         [](const KernelArgs& a, Expect& out) {
             const fe::GraythreshPlan p = fe::plan_graythresh(a);
             out("T", p.out_dtype, 1, 1);
             out("EM", p.out_dtype, 1, 1);
         }},
        {"ipt.histeq",
         [](const KernelArgs& a, Expect& out) {
             const fe::HisteqPlan p = fe::plan_histeq_output(a);
             out("J", p.out_dtype, p.I->rows, p.I->cols, p.channels);
             out("T", IPT_DOUBLE, p.t_rows, p.t_cols);
         }},
        // Correlation and adaptive noise removal (normxcorr2, wiener2).
        {"ipt.normxcorr2",
         [](const KernelArgs& a, Expect& out) {
             const fe::Normxcorr2Plan p = fe::plan_normxcorr2(a);
             out("C", IPT_DOUBLE, p.out_rows, p.out_cols);
         }},
        {"ipt.wiener2",
         [](const KernelArgs& a, Expect& out) {
             const fe::Wiener2Plan p = fe::plan_wiener2(a);
             out("J", p.dtype, p.rows, p.cols);
             out("noise_out", IPT_DOUBLE, 1, 1);
         }},
        // Thresholds (multithresh, imbinarize, adaptthresh).
        {"ipt.imbinarize",
         [](const KernelArgs& a, Expect& out) {
             const fe::ImbinarizePlan p = fe::plan_imbinarize(a);
             out("BW", IPT_LOGICAL, p.rows, p.cols);
         }},
        {"ipt.multithresh",
         [](const KernelArgs& a, Expect& out) {
             const fe::MultithreshPlan p = fe::plan_multithresh(a);
             out("thresh", p.dtype, 1, p.N);
             out("metric", IPT_DOUBLE, 1, 1);
         }},
        {"ipt.adaptthresh",
         [](const KernelArgs& a, Expect& out) {
             const fe::AdaptthreshPlan p = fe::plan_adaptthresh(a);
             out("T", IPT_DOUBLE, p.rows, p.cols);
         }},
        // Contrast-limited adaptive histogram equalisation (adapthisteq).
        {"ipt.adapthisteq",
         [](const KernelArgs& a, Expect& out) {
             const fe::AdapthisteqPlan p = fe::plan_adapthisteq_output(a);
             out("J", p.out_dtype, p.rows, p.cols);
         }},
    };
    return table;
}

void make_plan(const ipt_kernel_call& call, OutputPlan& plan) {
    plan.made = true;
    plan.outputs.assign(call.value_count, std::nullopt);
    // Built-in names only: a plugin's schema never takes one (the loader
    // refuses an operator that exists).
    const auto it = planners().find(std::string_view(call.schema->name));
    if (it == planners().end()) return;
    try {
        const KernelArgs args(&call);
        Expect expect(args, plan);
        it->second(args, expect);
        plan.by_front_end = true;
    } catch (...) {
        // The front-end refuses the call (a rule the schema cannot express):
        // it cannot say what the outputs are; the schema's rules still hold.
        plan.outputs.assign(call.value_count, std::nullopt);
    }
}

std::string shape(int32_t dtype, int64_t rows, int64_t cols, int64_t channels) {
    return std::to_string(rows) + "x" + std::to_string(cols) + "x" + std::to_string(channels) + " " + dtype_name(dtype);
}

const ipt_tensor* input_named(const ipt_kernel_call& call, const char* name) {
    for (uint32_t i = 0; i < call.value_count; ++i) {
        const ipt_value* v = ipt_kernel_value(&call, i);
        if (v->kind == IPT_PARAM_INPUT && v->present && std::strcmp(ipt_op_param(call.schema, i)->name, name) == 0)
            return v->image;
    }
    return nullptr;
}

}  // namespace

std::string check_output(const ipt_kernel_call& call, OutputPlan& plan, uint32_t index, int32_t dtype, int64_t rows,
                         int64_t cols, int64_t channels) {
    if (!plan.made) make_plan(call, plan);
    auto got = [&] { return shape(dtype, rows, cols, channels); };
    if (index < plan.outputs.size() && plan.outputs[index]) {
        const ExpectedOutput& e = *plan.outputs[index];
        if (e.dtype == dtype && e.rows == rows && e.cols == cols && e.channels == channels) return "";
        return got() + ", but the operator's plan says " + shape(e.dtype, e.rows, e.cols, e.channels);
    }
    // No plan: the schema's rules on the output.
    const ipt_param_schema& p = *ipt_op_param(call.schema, index);
    if (!(p.flags & (IPT_P_SAME_SIZE | IPT_P_SAME_DTYPE)) || !p.ref) return "";
    const ipt_tensor* ref = input_named(call, p.ref);
    if (!ref) return "";
    if ((p.flags & IPT_P_SAME_SIZE) && (rows != ref->rows || cols != ref->cols || channels != ref->channels))
        return got() + ", but the schema says the size of '" + p.ref + "' (" + std::to_string(ref->rows) + "x" +
               std::to_string(ref->cols) + "x" + std::to_string(ref->channels) + ")";
    if ((p.flags & IPT_P_SAME_DTYPE) && dtype != ref->dtype)
        return got() + ", but the schema says the class of '" + p.ref + "' (" + dtype_name(ref->dtype) + ")";
    return "";
}

}  // namespace ipt::reg
