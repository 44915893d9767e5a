#include "ElidedLabel.h"

#include <QEvent>
#include <QFontMetrics>

namespace planscope {

void ElidedLabel::setFullText(const QString& text)
{
    m_full = text;
    setToolTip(text);
    updateGeometry();
    elide();
}

QSize ElidedLabel::minimumSizeHint() const
{
    const QFontMetrics fm(font());
    return { fm.horizontalAdvance(QStringLiteral("Mm…mM")), fm.height() };
}

QSize ElidedLabel::sizeHint() const
{
    const QFontMetrics fm(font());
    return { fm.horizontalAdvance(m_full) + 2, fm.height() };
}

void ElidedLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::changeEvent(QEvent* event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange) elide();
}

QString ElidedLabel::shownText() const
{
    const QFontMetrics fm(font());
    return fm.horizontalAdvance(m_full) <= width() ? m_full : fm.elidedText(m_full, Qt::ElideMiddle, width());
}

void ElidedLabel::elide()
{
    setText(shownText());
}

} // namespace planscope
