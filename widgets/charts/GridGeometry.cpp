#include "charts/GridGeometry.h"

#include <algorithm>
#include <cmath>

namespace planscope {

void GridGeometry::setGrid(long long nodes, int gpusPerNode)
{
    m_nodes = std::max(0LL, nodes);
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

QRectF GridGeometry::nodeRect(long long node) const
{
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
