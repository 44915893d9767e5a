#include "charts/GridGeometry.h"

#include <algorithm>
#include <cmath>

namespace planscope {

void GridGeometry::setGrid(long long nodes, int gpusPerNode, int domainNodes)
{
    m_nodes = std::max(0LL, nodes);
    m_domainNodes = std::max(1, domainNodes);
    if (m_domainNodes >= m_nodes) m_domainNodes = 1; // one domain holds everything: no frame needed
    m_traysPerRow = 1;
    m_domainsPerRow = 1;
    m_gpusPerNode = std::max(1, gpusPerNode);
    // Two rows for nodes of four or more GPUs keep a node box close to square.
    m_cellRows = m_gpusPerNode >= 4 ? 2 : 1;
    m_cellCols = (m_gpusPerNode + m_cellRows - 1) / m_cellRows;
}

void GridGeometry::fit(const QRectF& area)
{
    m_area = area;
    if (m_nodes <= 0 || area.width() <= 1 || area.height() <= 1) {
        m_scale = m_fitScale = 1;
        m_origin = area.topLeft();
        return;
    }
    if (hasDomains()) {
        // Both choices at once: the trays per row of a domain and the domains per row of the grid.
        double best = 0;
        int bestTrays = 1, bestDomains = 1;
        const long long count = domains();
        for (int t = 1; t <= m_domainNodes; ++t) {
            m_traysPerRow = t;
            const double pitchX = domainWidth() + kDomainGapX, pitchY = domainHeight() + kDomainGapY;
            const long long limit = std::min<long long>(count, 4096);
            for (long long k = 1; k <= limit; ++k) {
                const long long rows = (count + k - 1) / k;
                const double w = k * pitchX - kDomainGapX, h = rows * pitchY;
                const double s = std::min(area.width() / w, area.height() / h);
                if (s > best) {
                    best = s;
                    bestTrays = t;
                    bestDomains = int(k);
                }
            }
        }
        m_traysPerRow = bestTrays;
        m_domainsPerRow = bestDomains;
        m_nodesPerRow = bestTrays;
        m_scale = m_fitScale = best;
        const double w = (m_domainsPerRow * (domainWidth() + kDomainGapX) - kDomainGapX) * m_scale;
        const double h = domainRows() * (domainHeight() + kDomainGapY) * m_scale;
        m_origin = QPointF(area.left() + (area.width() - w) / 2, area.top() + (area.height() - h) / 2);
        return;
    }
    const double pitchX = nodeWidth() + kGapX, pitchY = nodeHeight() + kGapY;
    double best = 0;
    int bestPerRow = 1;
    const long long limit = std::min<long long>(m_nodes, 100000);
    for (long long k = 1; k <= limit; ++k) {
        const long long rows = (m_nodes + k - 1) / k;
        // Gaps: a label strip above the first row and a link strip below the last, none at the sides.
        const double w = k * pitchX - kGapX, h = rows * pitchY;
        const double s = std::min(area.width() / w, area.height() / h);
        if (s > best) {
            best = s;
            bestPerRow = int(k);
        }
    }
    m_nodesPerRow = bestPerRow;
    m_scale = m_fitScale = best;
    const long long rows = nodeRows();
    const double w = (m_nodesPerRow * pitchX - kGapX) * m_scale, h = rows * pitchY * m_scale;
    m_origin = QPointF(area.left() + (area.width() - w) / 2, area.top() + (area.height() - h) / 2);
}

void GridGeometry::zoomAt(const QPointF& anchor, double factor)
{
    const double target = std::clamp(m_scale * factor, m_fitScale * 0.5, std::max(m_fitScale, 400.0));
    const double f = target / m_scale;
    m_origin = anchor - (anchor - m_origin) * f;
    m_scale = target;
}

QPointF GridGeometry::domainOrigin(long long domain) const
{
    const long long row = domain / m_domainsPerRow, col = domain % m_domainsPerRow;
    return { col * (domainWidth() + kDomainGapX), row * (domainHeight() + kDomainGapY) + kDomainGapY * 0.5 };
}

QRectF GridGeometry::domainRect(long long domain) const
{
    if (!hasDomains()) return {};
    const QPointF o = domainOrigin(domain);
    return QRectF(m_origin.x() + o.x() * m_scale, m_origin.y() + o.y() * m_scale, domainWidth() * m_scale,
        domainHeight() * m_scale);
}

QRectF GridGeometry::domainLabelRect(long long domain) const
{
    const QRectF r = domainRect(domain);
    return QRectF(r.left() + kDomainPadding * m_scale, r.top(), r.width() - 2 * kDomainPadding * m_scale,
        (kDomainLabel + kDomainPadding * 0.5) * m_scale);
}

long long GridGeometry::domainAt(const QPointF& p) const
{
    if (!hasDomains() || m_scale <= 0) return -1;
    const double wx = (p.x() - m_origin.x()) / m_scale, wy = (p.y() - m_origin.y()) / m_scale - kDomainGapY * 0.5;
    if (wx < 0 || wy < 0) return -1;
    const long long col = (long long)(wx / (domainWidth() + kDomainGapX)),
                    row = (long long)(wy / (domainHeight() + kDomainGapY));
    if (col >= m_domainsPerRow) return -1;
    const long long d = row * m_domainsPerRow + col;
    if (d >= domains() || !domainRect(d).contains(p)) return -1;
    return d;
}

void GridGeometry::visibleDomainRows(const QRectF& rect, long long& first, long long& last) const
{
    const double pitch = (domainHeight() + kDomainGapY) * m_scale;
    first = 0;
    last = domainRows() - 1;
    if (pitch <= 0) return;
    first = std::max(0LL, (long long)std::floor((rect.top() - m_origin.y()) / pitch));
    last = std::min(last, (long long)std::floor((rect.bottom() - m_origin.y()) / pitch));
}

QRectF GridGeometry::nodeRect(long long node) const
{
    if (hasDomains()) {
        const long long domain = node / m_domainNodes, tray = node % m_domainNodes;
        const QPointF o = domainOrigin(domain);
        const double x = o.x() + kDomainPadding + (tray % m_traysPerRow) * (nodeWidth() + kTrayGap);
        const double y
            = o.y() + kDomainLabel + kDomainPadding + (tray / m_traysPerRow) * (nodeHeight() + kTrayGap);
        return QRectF(m_origin.x() + x * m_scale, m_origin.y() + y * m_scale, nodeWidth() * m_scale,
            nodeHeight() * m_scale);
    }
    const long long row = node / m_nodesPerRow, col = node % m_nodesPerRow;
    const double x = col * (nodeWidth() + kGapX);
    const double y = row * (nodeHeight() + kGapY) + kGapY * 0.5; // label strip above
    return QRectF(m_origin.x() + x * m_scale, m_origin.y() + y * m_scale, nodeWidth() * m_scale,
        nodeHeight() * m_scale);
}

QRectF GridGeometry::cellRect(long long rank) const
{
    const long long node = rank / m_gpusPerNode;
    const int local = int(rank % m_gpusPerNode);
    const QRectF box = nodeRect(node);
    const int r = local / m_cellCols, c = local % m_cellCols;
    const double x = box.left() + (kNodePadding + c) * m_scale;
    const double y = box.top() + (kNodePadding + r * kCellHeight) * m_scale;
    return QRectF(x, y, m_scale, kCellHeight * m_scale);
}

long long GridGeometry::nodeAt(const QPointF& p) const
{
    if (m_nodes <= 0 || m_scale <= 0) return -1;
    if (hasDomains()) {
        const long long d = domainAt(p);
        if (d < 0) return -1;
        const QRectF frame = domainRect(d);
        const double wx = (p.x() - frame.left()) / m_scale - kDomainPadding;
        const double wy = (p.y() - frame.top()) / m_scale - kDomainPadding - kDomainLabel;
        if (wx < 0 || wy < 0) return -1;
        const long long col = (long long)(wx / (nodeWidth() + kTrayGap)),
                        row = (long long)(wy / (nodeHeight() + kTrayGap));
        if (col >= m_traysPerRow) return -1;
        const long long node = d * m_domainNodes + row * m_traysPerRow + col;
        if (row * m_traysPerRow + col >= m_domainNodes || node >= m_nodes || !nodeRect(node).contains(p))
            return -1;
        return node;
    }
    const double wx = (p.x() - m_origin.x()) / m_scale, wy = (p.y() - m_origin.y()) / m_scale - kGapY * 0.5;
    if (wx < 0 || wy < 0) return -1;
    const long long col = (long long)(wx / (nodeWidth() + kGapX)),
                    row = (long long)(wy / (nodeHeight() + kGapY));
    if (col >= m_nodesPerRow) return -1;
    const long long node = row * m_nodesPerRow + col;
    if (node >= m_nodes || !nodeRect(node).contains(p)) return -1;
    return node;
}

long long GridGeometry::rankAt(const QPointF& p) const
{
    const long long node = nodeAt(p);
    if (node < 0) return -1;
    const QRectF box = nodeRect(node);
    const double cx = (p.x() - box.left()) / m_scale - kNodePadding;
    const double cy = ((p.y() - box.top()) / m_scale - kNodePadding) / kCellHeight;
    if (cx < 0 || cy < 0) return -1;
    const int c = int(cx), r = int(cy);
    if (c >= m_cellCols || r >= m_cellRows) return -1;
    const int local = r * m_cellCols + c;
    if (local >= m_gpusPerNode) return -1;
    return node * m_gpusPerNode + local;
}

void GridGeometry::visibleRows(const QRectF& rect, long long& first, long long& last) const
{
    const double pitch = (nodeHeight() + kGapY) * m_scale;
    first = 0;
    last = nodeRows() - 1;
    if (pitch <= 0) return;
    first = std::max(0LL, (long long)std::floor((rect.top() - m_origin.y()) / pitch));
    last = std::min(last, (long long)std::floor((rect.bottom() - m_origin.y()) / pitch));
}

} // namespace planscope
