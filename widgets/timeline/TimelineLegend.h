// The legend under the timeline: a swatch and a name for every span kind, and the hatched bubble, in the
// order of TimelinePalette::kinds, then (while part of the step is still to play) the pending look; rows wrap to
// the width (height for width), so nothing is clipped.
#pragma once

#include <QWidget>

namespace planscope {

class TimelineLegend : public QWidget {
    Q_OBJECT
public:
    explicit TimelineLegend(QWidget* parent = nullptr);

    // The names shown, in order: the kinds, the bubble, and the pending entry when shown.
    QStringList entries() const;
    // Whether the "not yet played" entry is shown (the page shows it while the playhead is inside the step).
    void setShowPending(bool show);
    bool showsPending() const { return m_showPending; }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // Top-left of each entry for a width; returns the height used.
    int place(int width, QList<QPoint>* positions) const;
    int entryWidth(const QString& name) const;

    bool m_showPending = false;
};

} // namespace planscope
