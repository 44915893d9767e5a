#include "charts/FieldScientificSpinBox.h"

#include <QRegularExpression>
#include <cmath>

namespace planscope {

FieldScientificSpinBox::FieldScientificSpinBox(QWidget* parent)
    : QDoubleSpinBox(parent)
{
    // QDoubleSpinBox rounds every value to decimals(); integers up to 1e18 survive that unchanged.
    setDecimals(0);
    setRange(0, 1e18);
    setAccelerated(true);
}

QString FieldScientificSpinBox::textFromValue(double value) const
{
    if (value == 0) return QStringLiteral("0");
    // "2e+12" reads worse than "2e12"; both parse.
    QString text = QString::number(value, 'g', 6);
    text.replace(QStringLiteral("e+"), QStringLiteral("e"));
    return text;
}

double FieldScientificSpinBox::valueFromText(const QString& text) const
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    return ok ? v : value();
}

QValidator::State FieldScientificSpinBox::validate(QString& text, int& /*pos*/) const
{
    static const QRegularExpression partial(QStringLiteral("^\\s*\\+?\\d*\\.?\\d*([eE][+-]?\\d*)?\\s*$"));
    if (!partial.match(text).hasMatch()) return QValidator::Invalid;
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (!ok) return QValidator::Intermediate;
    return v >= minimum() && v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
}

void FieldScientificSpinBox::stepBy(int steps)
{
    // 2e12 -> 3e12 -> ... -> 9e12 -> 1e13 up; 1e12 -> 9e11 down: a step is one unit of the leading digit.
    double v = value();
    for (int i = 0; i < std::abs(steps); ++i) {
        const double probe = steps > 0 ? v : v * (1 - 1e-9);
        const double unit = probe > 0 ? std::pow(10.0, std::floor(std::log10(probe))) : 1.0;
        v = steps > 0 ? v + unit : std::max(minimum(), v - unit);
    }
    setValue(v);
}

} // namespace planscope
