// Where the GPU grid puts nodes and GPUs: nodes are boxes in rows, the GPUs of a node are cells inside its
// box (two rows of four for an 8-GPU node). Everything is laid out in world units (a cell is 1 wide) and
// mapped to pixels by one scale and an origin, so zooming and panning are a change of two numbers and
// hit-testing is arithmetic. fit() picks the nodes per row that make cells largest in the given area.
// With NVLink domains of several nodes (setGrid's domainNodes > 1, e.g. the 18 trays of a GB200 NVL72) the
// nodes ("trays") are laid out inside framed domain blocks, and fit() picks both the domains per row and the
// trays per row of a domain.
#pragma once

#include <QPointF>
#include <QRectF>

namespace planscope {

class GridGeometry {
public:
    // World units: a cell is 1 x kCellHeight; boxes have a margin; gaps leave room for labels and links.
    static constexpr double kCellHeight = 0.62;
    static constexpr double kNodePadding = 0.12;
    static constexpr double kGapX = 0.45;
    static constexpr double kGapY = 0.8;
    // Cells smaller than this (pixels, either side) are not drawn one by one: each node becomes one cell.
    static constexpr double kMinCellPixels = 6.0;

    // Domain blocks: padding inside the frame, the label strip at its top, gaps between trays and domains.
    static constexpr double kDomainPadding = 0.3;
    static constexpr double kDomainLabel = 0.75;
    static constexpr double kTrayGap = 0.22;
    static constexpr double kDomainGapX = 0.6;
    static constexpr double kDomainGapY = 0.7;

    void setGrid(long long nodes, int gpusPerNode, int domainNodes = 1);
    // Lays the whole grid out in `area` (zoom 1): the nodes per row that give the largest cells.
    void fit(const QRectF& area);
    // Scales by `factor` keeping the world point under `anchor` in place; clamped to [fit/2, cells of 400
    // px].
    void zoomAt(const QPointF& anchor, double factor);
    void pan(const QPointF& delta) { m_origin += delta; }

    long long nodes() const { return m_nodes; }
    // Nodes per NVLink domain; 1: no domain tier (nodes in plain rows).
    int domainNodes() const { return m_domainNodes; }
    bool hasDomains() const { return m_domainNodes > 1; }
    long long domains() const { return hasDomains() ? (m_nodes + m_domainNodes - 1) / m_domainNodes : 0; }
    int domainsPerRow() const { return m_domainsPerRow; }
    int traysPerRow() const { return m_traysPerRow; } // nodes per row inside a domain
    long long domainRows() const
    {
        return m_domainsPerRow > 0 ? (domains() + m_domainsPerRow - 1) / m_domainsPerRow : 0;
    }
    // A domain's frame, its label strip on top (inside the frame).
    QRectF domainRect(long long domain) const;
    QRectF domainLabelRect(long long domain) const;
    long long domainAt(const QPointF& p) const;
    // Domain rows that intersect `rect`.
    void visibleDomainRows(const QRectF& rect, long long& first, long long& last) const;
    int gpusPerNode() const { return m_gpusPerNode; }
    int nodesPerRow() const { return m_nodesPerRow; }
    long long nodeRows() const
    {
        return m_nodesPerRow > 0 ? (m_nodes + m_nodesPerRow - 1) / m_nodesPerRow : 0;
    }
    int cellColumns() const { return m_cellCols; }
    int cellRows() const { return m_cellRows; }
    double scale() const { return m_scale; } // pixels per world unit (= a cell's width)
    double zoom() const { return m_fitScale > 0 ? m_scale / m_fitScale : 1.0; }
    QRectF area() const { return m_area; }
    QSizeF cellSize() const { return { m_scale, m_scale * kCellHeight }; }
    bool aggregated() const { return m_scale * kCellHeight < kMinCellPixels; }

    QRectF nodeRect(long long node) const;
    QRectF cellRect(long long rank) const;
    // The node or rank under a point; -1 outside every box / cell.
    long long nodeAt(const QPointF& p) const;
    long long rankAt(const QPointF& p) const;
    // Node rows that intersect `rect` (for culling): [first, last], empty when first > last.
    void visibleRows(const QRectF& rect, long long& first, long long& last) const;

private:
    double nodeWidth() const { return m_cellCols + 2 * kNodePadding; }
    double nodeHeight() const { return m_cellRows * kCellHeight + 2 * kNodePadding; }
    int trayRows() const { return (m_domainNodes + m_traysPerRow - 1) / m_traysPerRow; }
    double domainWidth() const { return m_traysPerRow * (nodeWidth() + kTrayGap) - kTrayGap + 2 * kDomainPadding; }
    double domainHeight() const
    {
        return trayRows() * (nodeHeight() + kTrayGap) - kTrayGap + 2 * kDomainPadding + kDomainLabel;
    }
    QPointF domainOrigin(long long domain) const; // world units

    long long m_nodes = 0;
    int m_gpusPerNode = 8;
    int m_cellCols = 4, m_cellRows = 2;
    int m_nodesPerRow = 1;
    int m_domainNodes = 1, m_domainsPerRow = 1, m_traysPerRow = 1;
    double m_scale = 1, m_fitScale = 1;
    QPointF m_origin;
    QRectF m_area;
};

} // namespace planscope
