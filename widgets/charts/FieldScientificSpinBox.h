// A spin box for quantities spanning many orders of magnitude (tokens: 3e11, 2e12): it shows and accepts
// scientific notation ("2e12", "2.0e+12", "2000000000000") and the arrows step the leading digit.
#pragma once

#include <QDoubleSpinBox>

namespace planscope {

class FieldScientificSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit FieldScientificSpinBox(QWidget* parent = nullptr);

    QString textFromValue(double value) const override;
    double valueFromText(const QString& text) const override;
    QValidator::State validate(QString& text, int& pos) const override;
    void stepBy(int steps) override;
};

} // namespace planscope
