// Is a claimed run possible? Days, tokens and MFU in, planscope::realityCheck's verdict out ("possible" or
// "short by 18.2x"), recomputed with every published prediction. Inputs the user has not touched follow
// the plan: its claim, then training.tokens, then the predicted MFU; loading a file resets them.
#pragma once

#include "cost/RealityCheck.h"

#include <QPointer>
#include <QWidget>

class QDoubleSpinBox;
class QLabel;

namespace planscope {

class FieldScientificSpinBox;
class PlanDocument;

class RealityCheckBox : public QWidget {
    Q_OBJECT
public:
    explicit RealityCheckBox(QWidget* parent = nullptr);

    void setDocument(PlanDocument* document);

    // The verdict shown; default-constructed until the document has a prediction.
    const RealityCheck& result() const { return m_result; }
    QDoubleSpinBox* daysSpin() const { return m_days; }
    QDoubleSpinBox* tokensSpin() const;
    QDoubleSpinBox* mfuSpin() const { return m_mfu; }
    QLabel* verdictLabel() const { return m_verdict; }
    QLabel* messageLabel() const { return m_message; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void followPlan();
    void recompute();

    QLabel* m_daysLabel = nullptr;
    QLabel* m_tokensLabel = nullptr;
    QLabel* m_mfuLabel = nullptr;
    QDoubleSpinBox* m_days = nullptr;
    FieldScientificSpinBox* m_tokens = nullptr;
    QDoubleSpinBox* m_mfu = nullptr;
    QLabel* m_verdict = nullptr;
    QLabel* m_message = nullptr;

    QPointer<PlanDocument> m_document;
    RealityCheck m_result;
    bool m_hasResult = false;
    bool m_updating = false;
    // Inputs the user typed stay; the others follow the plan and the prediction.
    bool m_daysTouched = false;
    bool m_tokensTouched = false;
    bool m_mfuTouched = false;
};

} // namespace planscope
