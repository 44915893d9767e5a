#include "Theme.h"

#include <QApplication>
#include <QEvent>
#include <QStyle>
#include <QStyleFactory>
#include <qcustomplot.h>

#include <algorithm>

namespace planscope {

namespace {
Theme* g_theme = nullptr;

bool paletteIsDark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QString styleName()
{
    return QApplication::style() ? QApplication::style()->name() : QString();
}
} // namespace

Theme::Theme(QObject* parent)
    : QObject(parent)
{
    m_systemDark = paletteIsDark(QApplication::palette());
    m_dark = m_systemDark;
    if (qApp) qApp->installEventFilter(this);
}

Theme* Theme::instance()
{
    if (!g_theme) {
        g_theme = new Theme(qApp);
        QObject::connect(g_theme, &QObject::destroyed, [] { g_theme = nullptr; });
    }
    return g_theme;
}

QStringList Theme::modeNames()
{
    return { QStringLiteral("system"), QStringLiteral("light"), QStringLiteral("dark") };
}

QString Theme::modeName(ThemeMode mode)
{
    return modeNames().at(int(mode));
}

bool Theme::parseMode(const QString& name, ThemeMode* mode)
{
    const int i = int(modeNames().indexOf(name.trimmed().toLower()));
    if (i < 0) return false;
    if (mode) *mode = ThemeMode(i);
    return true;
}

bool Theme::isDark()
{
    return instance()->m_dark;
}

void Theme::setMode(ThemeMode mode)
{
    const ThemeMode oldMode = m_mode;
    const bool wasDark = m_dark;
    m_mode = mode;
    apply();
    if (m_mode != oldMode || m_dark != wasDark) Q_EMIT changed();
}

void Theme::apply()
{
    if (!qApp) return;
    m_applying = true;
    const bool wantDark = m_mode == ThemeMode::Dark || (m_mode == ThemeMode::System && m_systemDark);
    // The colours switch first, so widgets that re-style on QEvent::PaletteChange already see them.
    m_dark = wantDark;
    if (m_mode != ThemeMode::System && wantDark != m_systemDark) {
        if (!m_overridden) m_originalStyle = styleName();
        // Native styles (Windows, macOS) ignore much of the palette; Fusion honours all of it.
        if (styleName().compare(QLatin1String("fusion"), Qt::CaseInsensitive) != 0)
            QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(wantDark ? darkPalette() : lightPalette());
        m_overridden = true;
    } else if (m_overridden) {
        if (!m_originalStyle.isEmpty() && styleName().compare(m_originalStyle, Qt::CaseInsensitive) != 0)
            QApplication::setStyle(m_originalStyle);
        // A palette without resolved roles: the application falls back to the style's and the system's.
        QApplication::setPalette(QPalette());
        m_overridden = false;
        m_systemDark = paletteIsDark(QApplication::palette());
        m_dark = m_mode == ThemeMode::Dark || (m_mode == ThemeMode::System && m_systemDark);
    }
    m_applying = false;
}

bool Theme::eventFilter(QObject* watched, QEvent* event)
{
    // The system's scheme changed (or someone set a palette): follow it while in System mode.
    if (event->type() == QEvent::ApplicationPaletteChange && watched == qApp && !m_applying && !m_overridden) {
        const bool systemDark = paletteIsDark(QApplication::palette());
        if (systemDark != m_systemDark) {
            m_systemDark = systemDark;
            const bool wasDark = m_dark;
            apply();
            if (m_dark != wasDark) Q_EMIT changed();
        }
    }
    return QObject::eventFilter(watched, event);
}

// ---- Colours -------------------------------------------------------------------------------------------

QColor Theme::background()
{
    return isDark() ? QColor(0x1E, 0x1E, 0x1E) : QColor(0xFF, 0xFF, 0xFF);
}
QColor Theme::surface()
{
    return isDark() ? QColor(0x2A, 0x2A, 0x2A) : QColor(0xF6, 0xF6, 0xF6);
}
QColor Theme::text()
{
    return isDark() ? QColor(0xE6, 0xE6, 0xE6) : QColor(0x00, 0x00, 0x00);
}
QColor Theme::mutedText()
{
    return isDark() ? QColor(0xA8, 0xA8, 0xA8) : QColor(0x60, 0x60, 0x60);
}
QColor Theme::gridLine()
{
    return isDark() ? QColor(0x3A, 0x3A, 0x3A) : QColor(0xE2, 0xE2, 0xE2);
}
QColor Theme::separator()
{
    return isDark() ? QColor(0x58, 0x58, 0x58) : QColor(0xC8, 0xC8, 0xC8);
}
QColor Theme::axis()
{
    return isDark() ? QColor(0x8C, 0x8C, 0x8C) : QColor(0x80, 0x80, 0x80);
}
QColor Theme::hatch()
{
    return isDark() ? QColor(0x8A, 0x8A, 0x8A) : QColor(0x80, 0x80, 0x80);
}
QColor Theme::capacityLine()
{
    return isDark() ? QColor(0xE0, 0xE0, 0xE0) : QColor(0x20, 0x20, 0x20);
}
QColor Theme::playhead()
{
    return isDark() ? QColor(0xF0, 0xF0, 0xF0) : QColor(0x20, 0x20, 0x20);
}
QColor Theme::outline()
{
    return isDark() ? QColor(0xFF, 0xFF, 0xFF) : QColor(0x00, 0x00, 0x00);
}
QColor Theme::pendingText()
{
    return isDark() ? QColor(0xDC, 0xDC, 0xDC) : QColor(0x30, 0x30, 0x30);
}
QColor Theme::dimmedText()
{
    return isDark() ? QColor(0x80, 0x80, 0x80) : QColor(0x90, 0x90, 0x90);
}
QColor Theme::labelBackdrop()
{
    return isDark() ? QColor(0x1E, 0x1E, 0x1E, 210) : QColor(255, 255, 255, 210);
}

QColor Theme::alarmText()
{
    return isDark() ? QColor(0xFF, 0x70, 0x50) : QColor(0xC0, 0x1C, 0x00);
}
QColor Theme::ink()
{
    return isDark() ? text() : QColor(0x20, 0x20, 0x20);
}

QColor Theme::textOn(const QColor& fill)
{
    const double luminance = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return luminance > 0.5 ? QColor(0x10, 0x10, 0x10) : QColor(0xF4, 0xF4, 0xF4);
}

QColor Theme::mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
        float(a.greenF() + (b.greenF() - a.greenF()) * t), float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

QPalette Theme::darkPalette()
{
    const QColor window(0x2D, 0x2D, 0x2D), base(0x1E, 0x1E, 0x1E), text(0xE6, 0xE6, 0xE6),
        disabled(0x80, 0x80, 0x80);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x2A, 0x2A, 0x2A));
    p.setColor(QPalette::ToolTipBase, QColor(0x3A, 0x3A, 0x3A));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9A, 0x9A, 0x9A));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x38, 0x38, 0x38));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xFF, 0x6B, 0x4A));
    p.setColor(QPalette::Light, QColor(0x50, 0x50, 0x50));
    p.setColor(QPalette::Midlight, QColor(0x42, 0x42, 0x42));
    p.setColor(QPalette::Mid, QColor(0x26, 0x26, 0x26));
    p.setColor(QPalette::Dark, QColor(0x1A, 0x1A, 0x1A));
    p.setColor(QPalette::Shadow, QColor(0x00, 0x00, 0x00));
    p.setColor(QPalette::Highlight, QColor(0x2F, 0x7F, 0xC1));
    p.setColor(QPalette::HighlightedText, QColor(0xFF, 0xFF, 0xFF));
    p.setColor(QPalette::Link, QColor(0x56, 0xB4, 0xE9));
    p.setColor(QPalette::LinkVisited, QColor(0xCC, 0x79, 0xA7));
    for (QPalette::ColorRole role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x50, 0x50));
    return p;
}

QPalette Theme::lightPalette()
{
    QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    QPalette p = fusion ? fusion->standardPalette() : QPalette(QColor(0xEF, 0xEF, 0xEF));
    delete fusion;
    return p;
}

// ---- QCustomPlot ---------------------------------------------------------------------------------------

namespace {
QPen recolour(QPen pen, const QColor& colour)
{
    if (pen.style() != Qt::NoPen) pen.setColor(colour);
    return pen;
}

void styleTextElements(QCPLayoutElement* element, const QColor& text)
{
    if (!element) return;
    if (auto* label = qobject_cast<QCPTextElement*>(element)) {
        label->setTextColor(text);
        label->setSelectedTextColor(text);
    }
    if (auto* layout = qobject_cast<QCPLayout*>(element))
        for (int i = 0; i < layout->elementCount(); ++i)
            styleTextElements(layout->elementAt(i), text);
}
} // namespace

void styleCustomPlot(QCustomPlot* plot)
{
    if (!plot) return;
    const bool dark = Theme::isDark();
    // Light keeps QCustomPlot's own look (black axes, grey dotted grid), as the pictures always had.
    const QColor axisColour = dark ? Theme::axis() : QColor(Qt::black);
    const QColor text = dark ? Theme::text() : QColor(Qt::black);
    const QColor grid = dark ? Theme::gridLine() : QColor(200, 200, 200);
    const QColor subGrid = dark ? QColor(0x30, 0x30, 0x30) : QColor(220, 220, 220);
    const QColor zero = dark ? QColor(0x55, 0x55, 0x55) : QColor(200, 200, 200);

    plot->setBackground(QBrush(Theme::background()));
    for (QCPAxisRect* rect : plot->axisRects()) {
        rect->setBackground(QBrush(Qt::NoBrush));
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(recolour(axis->basePen(), axisColour));
            axis->setTickPen(recolour(axis->tickPen(), axisColour));
            axis->setSubTickPen(recolour(axis->subTickPen(), axisColour));
            axis->setTickLabelColor(text);
            axis->setLabelColor(text);
            if (QCPGrid* g = axis->grid()) {
                g->setPen(recolour(g->pen(), grid));
                g->setSubGridPen(recolour(g->subGridPen(), subGrid));
                g->setZeroLinePen(recolour(g->zeroLinePen(), zero));
            }
        }
    }
    if (QCPLegend* legend = plot->legend) {
        legend->setBrush(QBrush(Theme::background()));
        legend->setTextColor(text);
        legend->setSelectedTextColor(text);
        legend->setBorderPen(recolour(legend->borderPen(), axisColour));
        for (int i = 0; i < legend->itemCount(); ++i)
            if (QCPAbstractLegendItem* item = legend->item(i)) item->setTextColor(text);
    }
    styleTextElements(plot->plotLayout(), text);
}

void replotIfSized(QCustomPlot* plot, bool queued)
{
    if (!plot || plot->width() <= 0 || plot->height() <= 0) return;
    plot->replot(queued ? QCustomPlot::rpQueuedReplot : QCustomPlot::rpRefreshHint);
}

} // namespace planscope
