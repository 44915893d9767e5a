// Light and dark chrome that follows the system (issue "Look and feel: light and dark palettes that
// follow the system"). The data colours stay Okabe & Ito's (Palette.h) in both themes; only the chrome
// changes here: backgrounds, lane fills, text, grid lines, axes, the bubble hatch, the capacity line and
// the playhead.
//
// Qt 6.4 has no QStyleHints::colorScheme, so "the system's scheme" is the application palette's window
// colour: darker than mid-grey means dark. Theme watches QEvent::ApplicationPaletteChange to follow the
// system while its mode is System. Dark (on a light system) applies a dark QPalette with the Fusion style,
// which honours it everywhere; Light (on a dark system) the Fusion style's light palette. Going back to
// System restores the original style and palette.
//
// Views take their chrome from the static getters and re-style on Theme::changed(). Exports are painted
// by the same code, so they use the current theme; light is the default for slides (--screenshot stays
// light unless --theme dark is given).
#pragma once

#include <QColor>
#include <QObject>
#include <QPalette>
#include <QString>
#include <QStringList>

class QCustomPlot;

namespace planscope {

enum class ThemeMode { System, Light, Dark };

class Theme : public QObject {
    Q_OBJECT
public:
    // The one instance, created on first use as a child of the QApplication.
    static Theme* instance();

    // "system", "light", "dark": for --theme and the QSettings key "theme".
    static QStringList modeNames();
    static QString modeName(ThemeMode mode);
    // False (and *mode untouched) for anything but one of modeNames().
    static bool parseMode(const QString& name, ThemeMode* mode);

    ThemeMode mode() const { return m_mode; }
    // Applies the palette (and the Fusion style where one must be forced), then emits changed() if the
    // chrome went from light to dark or back.
    void setMode(ThemeMode mode);
    static bool isDark();
    // What the system (the platform palette, before any palette of ours) looks like.
    bool systemIsDark() const { return m_systemDark; }

    // Chrome colours for the current theme.
    static QColor background(); // plots, the timeline's canvas, exported pictures
    static QColor surface(); // lanes, panes, boxes on the background
    static QColor text();
    static QColor mutedText(); // captions, stream names, secondary labels
    static QColor gridLine();
    static QColor separator(); // a line between groups (ranks, nodes), stronger than the grid
    static QColor axis(); // axis lines and ticks
    static QColor hatch(); // bubbles: hatch lines on the background
    static QColor capacityLine();
    static QColor playhead();
    static QColor outline(); // the selection outline, boxes' borders
    // Text on a background that is halfway between surface and data (pending / dimmed spans, idle GPUs).
    static QColor pendingText();
    static QColor dimmedText();
    // A half-transparent background behind labels that sit on top of lines.
    static QColor labelBackdrop();
    // palette::alarm() as text: the same red in the light theme, a lighter one that reads on dark.
    static QColor alarmText();
    // Ink for secondary notes in forms: palette::capacityLine() on light, the text colour on dark.
    static QColor ink();
    // Text colour that reads on `fill`: near black or near white.
    static QColor textOn(const QColor& fill);
    // One of two colours by the theme, for chrome a view tunes itself.
    static QColor pick(const QColor& light, const QColor& dark) { return isDark() ? dark : light; }
    // a + (b - a) * t, channel-wise (opaque).
    static QColor mix(const QColor& a, const QColor& b, double t);

    // Palettes applied to the application.
    static QPalette darkPalette();
    static QPalette lightPalette();

Q_SIGNALS:
    void changed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit Theme(QObject* parent);
    void apply();

    ThemeMode m_mode = ThemeMode::System;
    bool m_dark = false;
    bool m_systemDark = false;
    bool m_overridden = false; // a palette of ours is on the application
    bool m_applying = false;
    QString m_originalStyle;
};

// Background, axis pens, tick and label colours, grid pens and the legend's brush and text, from the theme.
// Leaves data (graphs, bars) and the plot's own items alone; call replot() after.
void styleCustomPlot(QCustomPlot* plot);
// Replots only a plot that has a size: a hidden page's plot (0 x 0) would paint into null buffers and warn;
// QCustomPlot replots by itself when it is resized into view.
void replotIfSized(QCustomPlot* plot, bool queued = false);

} // namespace planscope
