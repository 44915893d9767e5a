// Ticks for QCustomPlot's logarithmic axes that read as numbers people use, not as powers written out.
#pragma once

#include <qcustomplot.h>

namespace planscope {

// Whole multiples of each decade: 1, 2 and 5 where they fit the axis's tick count (set from its width), every
// multiple where a range of less than a decade needs them, only the decades where even 1, 2, 5 would crowd the labels.
// Labels as plain numbers in the locale ("1,000", "200", "0.5").
class DecadeTicker : public QCPAxisTicker {
protected:
    int getSubTickCount(double) override { return 0; }
    QString getTickLabel(double tick, const QLocale& locale, QChar, int) override;
    QVector<double> createTickVector(double, const QCPRange& range) override;
};

// Message and buffer sizes: powers of two (every second, fourth, ... as the axis's tick count allows), labelled in
// binary units ("8 B", "64 KiB", "1 GiB"), as nccl-tests steps its sizes.
class BytesTicker : public QCPAxisTicker {
protected:
    int getSubTickCount(double) override { return 0; }
    QString getTickLabel(double tick, const QLocale& locale, QChar, int) override;
    QVector<double> createTickVector(double, const QCPRange& range) override;
};

} // namespace planscope
