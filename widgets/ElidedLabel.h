// A one-line label that shows its whole text where it fits and otherwise elides it in the middle, keeping both ends
// (a plan's model and its GPUs, "A: DeepSeek-V3 on 1,0…H100, FP8, PP 8 x VP 4"), with the whole text in its tool tip.
// Its minimum width is small, so a layout can give it what room there is instead of widening the window.
#pragma once

#include <QLabel>

namespace planscope {

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr) : QLabel(parent) { }
    void setFullText(const QString& text);
    QString fullText() const { return m_full; }
    // The text as shown at the label's width (elided in the middle, or whole).
    QString shownText() const;
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void elide();
    QString m_full;
};

} // namespace planscope
