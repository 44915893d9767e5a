// Alpha-beta fits of measured collectives (docs/MODEL.md section 6): per (op, ranks, nodes),
//   t = steps(op, n) * alpha + factor(op, n) * S / busBw,
// the ring's latency steps and nccl-tests' bus-bandwidth factor, so that ringSeconds() with latency alpha and
// effective bandwidth busBw gives back the measured times.
//
// Sizes span 8 B to GiBs, so the residuals are relative ((t - model) / t, weights 1/t^2): a 10 us error on a
// 20 us point matters, on a 50 ms point it does not. Robustness (a noisy run, a size that hit another protocol):
// Huber iteratively reweighted least squares with a MAD scale, then the points beyond 3 scales are dropped
// (keeping at least half) and the rest refitted. alpha is clamped at 0.
#include "Profile.h"
#include "ProfileRows.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace planscope {

namespace {

struct Point {
    double x = 0; // factor * S
    double t = 0; // seconds
};

struct Line {
    double intercept = 0; // steps * alpha
    double slope = 0;     // 1 / busBw
};

// Weighted least squares of t = intercept + slope * x with intercept >= 0.
Line weightedFit(const std::vector<Point>& pts, const std::vector<double>& w)
{
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < pts.size(); ++i) {
        sw += w[i];
        sx += w[i] * pts[i].x;
        sy += w[i] * pts[i].t;
        sxx += w[i] * pts[i].x * pts[i].x;
        sxy += w[i] * pts[i].x * pts[i].t;
    }
    Line l;
    const double det = sw * sxx - sx * sx;
    if (sw > 0 && std::abs(det) > 1e-12 * sw * sxx) {
        l.intercept = (sy * sxx - sx * sxy) / det;
        l.slope = (sw * sxy - sx * sy) / det;
    }
    if (l.intercept < 0 || !(std::abs(det) > 1e-12 * sw * sxx)) {
        // Through the origin: no measurable latency (or a single size).
        l.intercept = 0;
        l.slope = sxx > 0 ? sxy / sxx : 0;
    }
    if (l.slope <= 0 && sw > 0) {
        // Times that do not grow with size: all latency.
        l.slope = 0;
        l.intercept = sy / sw;
    }
    return l;
}

double median(std::vector<double> v)
{
    if (v.empty()) return 0;
    const std::size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(mid), v.end());
    double m = v[mid];
    if (v.size() % 2 == 0) m = (m + *std::max_element(v.begin(), v.begin() + std::ptrdiff_t(mid))) / 2;
    return m;
}

std::vector<double> relativeResiduals(const std::vector<Point>& pts, const Line& l)
{
    std::vector<double> r(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i) r[i] = (pts[i].t - (l.intercept + l.slope * pts[i].x)) / pts[i].t;
    return r;
}

// Returns the line and how many points it rests on.
std::pair<Line, int> robustFit(const std::vector<Point>& pts)
{
    std::vector<double> base(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i) base[i] = 1.0 / (pts[i].t * pts[i].t);
    Line l = weightedFit(pts, base);
    if (pts.size() < 3) return { l, int(pts.size()) };

    constexpr double kHuber = 1.345;
    constexpr double kMinScale = 0.005; // 0.5%: measured times are never better than that
    double scale = kMinScale;
    for (int iter = 0; iter < 50; ++iter) {
        const auto r = relativeResiduals(pts, l);
        std::vector<double> absr(r.size());
        for (std::size_t i = 0; i < r.size(); ++i) absr[i] = std::abs(r[i]);
        scale = std::max(1.4826 * median(absr), kMinScale);
        std::vector<double> w(pts.size());
        for (std::size_t i = 0; i < pts.size(); ++i) {
            const double u = absr[i] / (kHuber * scale);
            w[i] = base[i] * (u <= 1 ? 1.0 : 1.0 / u);
        }
        const Line next = weightedFit(pts, w);
        const bool converged = std::abs(next.intercept - l.intercept) <= 1e-12 + 1e-9 * std::abs(l.intercept)
            && std::abs(next.slope - l.slope) <= 1e-9 * std::abs(l.slope);
        l = next;
        if (converged) break;
    }

    // Drop what lies beyond 3 scales, worst first, keeping at least half of the points.
    const auto r = relativeResiduals(pts, l);
    std::vector<std::size_t> order(pts.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return std::abs(r[a]) < std::abs(r[b]); });
    const std::size_t keepAtLeast = std::max<std::size_t>(2, (pts.size() + 1) / 2);
    std::vector<Point> kept;
    for (std::size_t k = 0; k < order.size(); ++k)
        if (k < keepAtLeast || std::abs(r[order[k]]) <= 3 * scale) kept.push_back(pts[order[k]]);
    std::vector<double> w(kept.size());
    for (std::size_t i = 0; i < kept.size(); ++i) w[i] = 1.0 / (kept[i].t * kept[i].t);
    return { weightedFit(kept, w), int(kept.size()) };
}

} // namespace

std::vector<LinkFit> fitCollectives(const std::vector<CollectiveSample>& samples)
{
    // (op, ranks, nodes) -> points; a map keeps the output in a stable order.
    std::map<std::tuple<std::string, int, int>, std::vector<Point>> groups;
    for (const CollectiveSample& s : samples) {
        Collective c;
        if (!fromString(s.op, c)) continue;
        // Only times and sizes a machine can have (ProfileRows.h): 0, negative, NaN, inf or 1e308 fit nothing.
        if (!(s.seconds > 0) || !(s.seconds <= detail::kMaxSeconds) || !(s.bytes >= 0) || !(s.bytes <= detail::kMaxBytes)) continue;
        if (s.ranks < 2 && c != Collective::SendRecv) continue;
        groups[{ s.op, s.ranks, std::max(0, s.nodes) }].push_back({ busBandwidthFactor(c, s.ranks) * s.bytes, s.seconds });
    }
    std::vector<LinkFit> fits;
    for (const auto& [key, pts] : groups) {
        const auto& [op, ranks, nodes] = key;
        Collective c;
        fromString(op, c);
        const auto [line, used] = robustFit(pts);
        LinkFit f;
        f.op = op;
        f.ranks = ranks;
        f.nodes = nodes;
        f.linkClass = detail::linkClassFor(nodes);
        const double steps = detail::latencySteps(c, ranks);
        f.alpha = steps > 0 ? line.intercept / steps : 0;
        if (line.slope > 0) {
            f.busBandwidth = 1.0 / line.slope;
        } else {
            // No bandwidth term could be told apart: the best the largest message showed.
            for (const Point& p : pts) f.busBandwidth = std::max(f.busBandwidth, p.x / p.t);
        }
        f.points = used;
        if (f.busBandwidth > 0 && std::isfinite(f.busBandwidth)) fits.push_back(f);
    }
    return fits;
}

} // namespace planscope
