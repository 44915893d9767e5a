// What a measured profile changes in a plan (docs/MODEL.md section 7: measured efficiencies replace the presets'
// defaults).
//
// Links: the fit of the largest all-reduce (else the largest group of any op) per link class. Inside a node the
// plan's ring cost is ringSeconds(op, n, S, link) = steps*latency + factor*S/(bandwidth*efficiency), so
// latency = alpha and efficiency = busBw / bandwidth reproduce the measured times exactly. Across nodes a group
// of g GPUs per node runs its rings over all g NICs of a node at once (NCCL spreads its channels over them), so its bus
// bandwidth is g times one NIC's: efficiency = busBw / (g * bandwidth), the share of the per-GPU NIC speed the
// plan's inter-node link carries (with g = 1, busBw / bandwidth as inside a node). That keeps a plan's DP ring
// with one GPU per node from running at the 8-NIC speed of the measured group. The plan's two-level collective
// (hierarchicalSeconds) pipelines the NVLink and NIC phases as NCCL's ring does, and a measured fit is flat: it
// replaces the link's size curve and its all-reduce and all-to-all shares.
#include "Profile.h"
#include "ProfileRows.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>

namespace planscope {

namespace {

std::string fmt(const char* format, double a)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, a);
    return buf;
}

std::string gbps(double bytesPerSecond) { return fmt("%.1f GB/s", bytesPerSecond / 1e9); }
std::string micros(double seconds) { return fmt("%.2f us", seconds * 1e6); }

const LinkFit* pickFit(const std::vector<LinkFit>& fits, std::string_view linkClass, std::string_view onlyOp = {})
{
    const LinkFit* best = nullptr;
    auto better = [](const LinkFit& a, const LinkFit& b) {
        const bool ar = a.op == "AllReduce", br = b.op == "AllReduce";
        if (ar != br) return ar;
        if (a.ranks != b.ranks) return a.ranks > b.ranks;
        return a.points > b.points;
    };
    for (const LinkFit& f : fits) {
        Collective c;
        // Only a fit a machine can have (the reader's bounds, ProfileRows.h): a profile built in code is held to them too.
        if (f.linkClass != linkClass || !fromString(f.op, c) || !(f.busBandwidth > 0) || !(f.busBandwidth <= detail::kMaxBandwidth)
            || !(f.alpha >= 0) || !(f.alpha <= detail::kMaxAlpha))
            continue;
        if (!onlyOp.empty() && f.op != onlyOp) continue;
        if (!best || better(f, *best)) best = &f;
    }
    return best;
}

Text describe(const LinkFit& f)
{
    if (f.nodes > 1)
        return Text(PS_TEXT("CoreText", "%1 on %2 GPUs (%3 nodes), alpha %4, busBw %5"), f.op, f.ranks, f.nodes,
            micros(f.alpha), gbps(f.busBandwidth));
    return Text(PS_TEXT("CoreText", "%1 on %2 GPUs, alpha %3, busBw %4"), f.op, f.ranks, micros(f.alpha), gbps(f.busBandwidth));
}

// One line of Calibration::terms: the field it sets, and how.
Issue term(std::string path, Text text) { return issue(Severity::Warning, std::move(path), std::move(text)); }

LinkSpec flatLink(const LinkSpec& plan, const LinkFit& f)
{
    LinkSpec l = plan;
    // The fit is a flat alpha-beta model of the measured sizes: it replaces the preset's size curve and NVLS share.
    l.busBandwidthCurve.clear();
    l.allReduceEfficiency = 0;
    l.allToAllEfficiency = 0;
    l.latency = f.alpha;
    if (l.bandwidth > 0) {
        l.efficiency = f.busBandwidth / l.bandwidth;
    } else {
        l.bandwidth = f.busBandwidth;
        l.efficiency = 1.0;
    }
    return l;
}

std::string lower(std::string s)
{
    for (char& ch : s) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

// A model token: one or two letters, two or three digits, at most one letter after ("A100", "GB200", "MI300X",
// "L40S"); not "SXM4", "HBM3" (three letters) or "80GB" (a digit first).
bool isModelToken(const std::string& t)
{
    std::size_t i = 0;
    while (i < t.size() && std::isupper(static_cast<unsigned char>(t[i]))) ++i;
    if (i < 1 || i > 2) return false;
    const std::size_t digits = i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    if (i - digits < 2 || i - digits > 3) return false;
    if (i < t.size() && std::isupper(static_cast<unsigned char>(t[i]))) ++i;
    return i == t.size();
}

// The link's bound on a measured bus bandwidth, as a multiple of its wire speed (Profile.h).
double linkBound(const LinkSpec& link, const LinkFit& f)
{
    return f.op == "AllReduce" && link.allReduceEfficiency > 0 ? kInSwitchAllReduce : kLinkMargin;
}

Issue refusedTerm(std::string path, const LinkFit& f, double ratio, double bandwidth, double bound)
{
    return term(std::move(path),
        Text(PS_TEXT("CoreText", "not applied: %1 is %2 x the plan's link bandwidth %3, more than such a link carries (at "
                                 "most %4 x)"),
            describe(f), fmt("%.2f", ratio), gbps(bandwidth), fmt("%.2f", bound)));
}

} // namespace

std::string gpuModelToken(std::string_view name)
{
    std::string token;
    for (std::size_t i = 0; i <= name.size(); ++i) {
        const bool word = i < name.size() && std::isalnum(static_cast<unsigned char>(name[i]));
        if (word) {
            token += char(std::toupper(static_cast<unsigned char>(name[i])));
            continue;
        }
        if (isModelToken(token)) return token;
        token.clear();
    }
    return {};
}

GpuIdentity compareProfileGpu(const Profile& profile, const GpuSpec& gpu)
{
    GpuIdentity id;
    id.planned = gpu.name.empty() ? gpu.id : gpu.name;
    std::string planned = gpuModelToken(gpu.id);
    if (planned.empty()) planned = gpuModelToken(gpu.name);
    bool same = false;
    for (const ProfileGpu& g : profile.gpus) {
        if (id.measured.empty()) id.measured = g.name; // named even where it has no model token ("NVIDIA Graphics Device")
        const std::string measured = gpuModelToken(g.name);
        if (measured.empty()) continue;
        if (planned.empty()) continue;
        // The same model with another memory (A100 40 GB and 80 GB) is another GPU too; NVML reports a little less
        // than the datasheet's size (an "80GB" H100: 79.6 GiB), so a quarter apart is another size.
        const bool otherMemory = g.memory > 0 && gpu.memoryBytes > 0
            && std::max(g.memory, gpu.memoryBytes) > 1.25 * double(std::min(g.memory, gpu.memoryBytes));
        if (measured != planned || otherMemory) {
            id.match = GpuIdentity::Match::Different;
            id.measured = g.name;
            return id;
        }
        same = true;
    }
    id.match = same ? GpuIdentity::Match::Same : GpuIdentity::Match::Unknown;
    return id;
}

Calibration calibrationFromProfile(const Profile& profile, const Plan& plan, OtherGpu otherGpu)
{
    Calibration cal;
    cal.source = profile.source;
    if (!profile.host.empty()) cal.source += (cal.source.empty() ? "" : " on ") + profile.host;
    cal.warnings = profile.warnings;
    // A measurement describes the GPU it ran on: on a plan of another GPU it is refused, or applied only when asked
    // and then said in every prediction.
    cal.gpu = compareProfileGpu(profile, plan.cluster.gpu);
    if (cal.gpu.match == GpuIdentity::Match::Different) {
        const Text why(PS_TEXT("CoreText", "the profile was measured on %1 and the plan's GPU is %2"), cal.gpu.measured,
            cal.gpu.planned);
        if (otherGpu == OtherGpu::Refuse) {
            cal.refused.push_back(issue(Severity::Error, "calibration", Text(PS_TEXT("CoreText", "not applied: %1"), why)));
            return cal;
        }
        cal.warnings.push_back(issue(Severity::Warning, "calibration",
            Text(PS_TEXT("CoreText", "applied to another GPU than it measured: %1"), why)));
    } else if (cal.gpu.match == GpuIdentity::Match::Unknown) {
        cal.warnings.push_back(issue(Severity::Warning, "calibration",
            cal.gpu.measured.empty()
                ? Text(PS_TEXT("CoreText", "the profile names no GPU it was measured on; applied as measured on the plan's "
                                           "%1"),
                      cal.gpu.planned)
                : Text(PS_TEXT("CoreText", "the profile's GPU %1 cannot be compared with the plan's %2; applied as "
                                           "measured on the plan's"),
                      cal.gpu.measured, cal.gpu.planned)));
    }
    const std::vector<LinkFit> fits = profile.fits.empty() ? fitCollectives(profile.collectives) : profile.fits;

    // Inside a node.
    const LinkSpec& planIntra = plan.cluster.intraNode;
    const LinkFit* f = pickFit(fits, "intra");
    if (f && planIntra.bandwidth > 0 && f->busBandwidth > linkBound(planIntra, *f) * planIntra.bandwidth) {
        cal.terms.push_back(refusedTerm("cluster.intraNode", *f, f->busBandwidth / planIntra.bandwidth,
            planIntra.bandwidth, linkBound(planIntra, *f)));
        f = nullptr;
    }
    if (f) {
        LinkSpec l = flatLink(planIntra, *f);
        cal.terms.push_back(term("cluster.intraNode",
            l.efficiency > 1 && linkBound(planIntra, *f) > kLinkMargin
                ? Text(PS_TEXT("CoreText", "%1 -> latency %2, efficiency %3 of %4 (above the wire speed: "
                                                        "NVLS/in-switch reduction)"),
                                   describe(*f), micros(l.latency), fmt("%.3f", l.efficiency), gbps(l.bandwidth))
                             : Text(PS_TEXT("CoreText", "%1 -> latency %2, efficiency %3 of %4"), describe(*f),
                                   micros(l.latency), fmt("%.3f", l.efficiency), gbps(l.bandwidth))));
        // Measured all-gathers or reduce-scatters set the other collectives' share; the all-reduce keeps its own
        // (NVLink SHARP reduces in the switch, docs/HARDWARE.md).
        const LinkFit* g = pickFit(fits, "intra", "AllGather");
        if (!g) g = pickFit(fits, "intra", "ReduceScatter");
        if (g && l.bandwidth > 0 && g->busBandwidth > kLinkMargin * l.bandwidth) {
            cal.terms.push_back(refusedTerm("cluster.intraNode", *g, g->busBandwidth / l.bandwidth, l.bandwidth, kLinkMargin));
            g = nullptr;
        }
        if (g && f->op == "AllReduce" && l.bandwidth > 0) {
            l.allReduceEfficiency = l.efficiency;
            l.efficiency = g->busBandwidth / l.bandwidth;
            cal.terms.push_back(term("cluster.intraNode",
                Text(PS_TEXT("CoreText", "%1 -> efficiency %2 for the other collectives; all-reduce keeps %3"),
                    describe(*g), fmt("%.3f", l.efficiency), fmt("%.3f", l.allReduceEfficiency))));
        } else if (!g && f->op == "AllReduce" && plan.cluster.intraNode.allReduceEfficiency > 0) {
            // Only the all-reduce was measured on a link whose all-reduce has its own share (NVLink SHARP): the
            // measurement replaces that share, and the other collectives keep the preset's.
            l.allReduceEfficiency = l.efficiency;
            l.efficiency = plan.cluster.intraNode.efficiency;
            cal.terms.push_back(term("cluster.intraNode",
                Text(PS_TEXT("CoreText", "only all-reduce measured; the other collectives keep efficiency %1"),
                    fmt("%.3f", l.efficiency))));
        }
        cal.intraNode = l;
    }
    // Across nodes.
    if (const LinkFit* net = pickFit(fits, "inter")) {
        // The group's rings cross each node boundary on all of its GPUs' NICs at once (NCCL runs one channel per
        // NIC), so its bus bandwidth is perNode x one NIC's; inter-node efficiency is the share of that.
        const int perNode = std::max(1, net->ranks / std::max(1, net->nodes));
        LinkSpec l = plan.cluster.interNode;
        l.busBandwidthCurve.clear();
        l.allReduceEfficiency = 0;
        l.allToAllEfficiency = 0;
        l.latency = net->alpha;
        if (l.bandwidth > 0) {
            l.efficiency = net->busBandwidth / (perNode * l.bandwidth);
        } else {
            l.bandwidth = net->busBandwidth / perNode;
            l.efficiency = 1.0;
        }
        const double bound = net->op == "AllReduce" ? kInSwitchAllReduce : kLinkMargin;
        if (l.efficiency > bound) {
            // Faster than the plan's NICs can carry: the measured group did not cross such a network (an NVLink domain
            // over several hosts, as a GB200 NVL72 rack's 18 trays), or the plan names another machine. Refused.
            cal.terms.push_back(term("cluster.interNode",
                Text(PS_TEXT("CoreText", "not applied: the measured busBw is %1 x what the plan's network carries (at most "
                                         "%2 x): the measured ranks did not talk over such a network (an NVLink domain "
                                         "spanning hosts?) or the plan names another machine"),
                    fmt("%.1f", l.efficiency), fmt("%.2f", bound))));
        } else {
            cal.interNode = l;
            cal.terms.push_back(term("cluster.interNode",
                perNode > 1 ? Text(PS_TEXT("CoreText", "%1 -> latency %2, efficiency %3 of %4 per GPU (busBw / (%5 GPUs "
                                                       "per node x the NIC bandwidth per GPU))"),
                                  describe(*net), micros(l.latency), fmt("%.3f", l.efficiency), gbps(l.bandwidth), perNode)
                            : Text(PS_TEXT("CoreText", "%1 -> latency %2, efficiency %3 of %4 per GPU"), describe(*net),
                                  micros(l.latency), fmt("%.3f", l.efficiency), gbps(l.bandwidth))));
        }
    }

    const Precision prec = plan.training.precision;
    const double peak = plan.cluster.gpu.peakFlops.forPrecision(prec);
    std::vector<double> tflops;
    std::size_t overPeak = 0;
    const std::string dtype(toString(prec));
    for (const GemmSample& g : profile.gemm) {
        if (lower(g.dtype) != lower(dtype)) continue;
        double tf = g.tflops;
        if (!(tf > 0) && g.seconds > 0) tf = 2.0 * double(g.m) * double(g.n) * double(g.k) / g.seconds / 1e12;
        if (!(tf > 0) || !(tf <= detail::kMaxTflops)) continue;
        const double seconds = g.seconds > 0 ? g.seconds : 2.0 * double(g.m) * double(g.n) * double(g.k) / (tf * 1e12);
        if (!(seconds > 0) || !(seconds <= detail::kMaxSeconds)) continue;
        if (peak > 0 && tf * 1e12 > peak) {
            ++overPeak; // no GEMM runs faster than the dense peak: a mislabelled dtype or another GPU
            continue;
        }
        cal.gemms.push_back({ g.m, g.n, g.k, prec, seconds });
        if (g.m >= 1024 && g.n >= 1024 && g.k >= 1024) tflops.push_back(tf);
    }
    if (overPeak > 0)
        cal.terms.push_back(term("cluster.gpu.measuredGemms",
            Text(PS_TEXT("CoreText", "not applied: %1 %2 GEMM shapes faster than the dense peak %3 TFLOP/s of the plan's GPU"),
                overPeak, dtype, fmt("%.1f", peak / 1e12))));
    if (!tflops.empty() && peak > 0) {
        // The best large shape: the same quantity as the presets' maximum achievable matmul, which the op model
        // scales down by tile waves and operand traffic (docs/MODEL.md section 7.2).
        const double best = *std::max_element(tflops.begin(), tflops.end());
        const double eff = best * 1e12 / peak;
        if (eff <= 1.0) {
            cal.gemmEfficiency = eff;
            cal.terms.push_back(term("cluster.gpu.gemmEfficiency",
                Text(PS_TEXT("CoreText", "%1 = best %2 TFLOP/s over %3 %4 GEMMs with m, n, k >= 1024, of the dense peak %5 "
                                         "TFLOP/s"),
                    fmt("%.3f", eff), fmt("%.1f", best), tflops.size(), dtype, fmt("%.1f", peak / 1e12))));
        } else {
            cal.terms.push_back(term("cluster.gpu.gemmEfficiency",
                Text(PS_TEXT("CoreText", "not applied: best %1 TFLOP/s over %2 %3 GEMMs with m, n, k >= 1024, of the "
                                         "dense peak %4 TFLOP/s exceeds the peak (wrong GPU in the plan, or a sparse "
                                         "peak?)"),
                    fmt("%.1f", best), tflops.size(), dtype, fmt("%.1f", peak / 1e12))));
        }
    }
    if (!cal.gemms.empty())
        cal.terms.push_back(term("cluster.gpu.measuredGemms",
            Text(PS_TEXT("CoreText", "%1 %2 GEMM shapes timed; operators of exactly these shapes take the measured time"),
                cal.gemms.size(), dtype)));
    const double datasheet = plan.cluster.gpu.hbmBandwidth;
    if (profile.hbmBandwidth > 0 && profile.hbmBandwidth <= detail::kMaxBandwidth) {
        if (datasheet > 0 && profile.hbmBandwidth > kHbmMargin * datasheet) {
            cal.terms.push_back(term("cluster.gpu.hbmBandwidth",
                Text(PS_TEXT("CoreText", "not applied: %1 measured by a device copy is more than the plan's GPU's %2 "
                                         "datasheet bandwidth x %3"),
                    gbps(profile.hbmBandwidth), gbps(datasheet), fmt("%.2f", kHbmMargin))));
        } else {
            cal.hbmBandwidth = profile.hbmBandwidth;
            cal.terms.push_back(term("cluster.gpu.hbmBandwidth",
                Text(PS_TEXT("CoreText", "%1 measured by a device copy"), gbps(profile.hbmBandwidth))));
        }
    }
    return cal;
}

Plan applyCalibration(const Plan& plan, const Calibration& calibration)
{
    Plan p = plan;
    if (!calibration.refused.empty()) return p;
    if (calibration.intraNode) p.cluster.intraNode = *calibration.intraNode;
    if (calibration.interNode) p.cluster.interNode = *calibration.interNode;
    if (calibration.gemmEfficiency) {
        // Measured in the plan's dtype: for an fp8 plan that is the fp8 maximum.
        if (p.training.precision == Precision::FP8)
            p.cluster.gpu.gemmEfficiencyFp8 = *calibration.gemmEfficiency;
        else
            p.cluster.gpu.gemmEfficiency = *calibration.gemmEfficiency;
    }
    if (calibration.hbmBandwidth) {
        p.cluster.gpu.hbmBandwidth = *calibration.hbmBandwidth;
        p.cluster.gpu.hbmEfficiency = 1.0; // a measured copy bandwidth is what streaming ops reach
    }
    if (!calibration.gemms.empty()) p.cluster.gpu.measuredGemms = calibration.gemms;
    return p;
}

} // namespace planscope
