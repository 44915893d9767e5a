#include "charts/RealityCheckBox.h"
#include "CoreText.h"

#include "charts/FieldScientificSpinBox.h"
#include "Palette.h"
#include "Theme.h"
#include "document/PlanDocument.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>

namespace planscope {

namespace {

// A green dark enough to read as text on a light background (Okabe & Ito's bluish green, darkened).
QColor possibleColor()
{
    return Theme::pick(QColor(0x00, 0x7A, 0x58), QColor(0x3F, 0xC7, 0x9A));
}

void setColoredText(QLabel* label, const QString& text, const QColor& color)
{
    label->setText(text);
    QPalette p = label->palette();
    p.setColor(QPalette::WindowText, color);
    label->setPalette(p);
}

} // namespace

RealityCheckBox::RealityCheckBox(QWidget* parent)
    : QWidget(parent)
{
    m_daysLabel = new QLabel(this);
    m_tokensLabel = new QLabel(this);
    m_mfuLabel = new QLabel(this);

    m_days = new QDoubleSpinBox(this);
    m_days->setRange(0, 100000);
    m_days->setDecimals(1);
    m_days->setAccelerated(true);

    m_tokens = new FieldScientificSpinBox(this);

    m_mfu = new QDoubleSpinBox(this);
    m_mfu->setRange(0, 1);
    m_mfu->setDecimals(3);
    m_mfu->setSingleStep(0.01);

    m_verdict = new QLabel(this);
    QFont bold = m_verdict->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.25);
    m_verdict->setFont(bold);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    for (QLabel* l : { m_daysLabel, m_tokensLabel, m_mfuLabel })
        l->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_daysLabel->setBuddy(m_days);
    m_tokensLabel->setBuddy(m_tokens);
    m_mfuLabel->setBuddy(m_mfu);

    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_daysLabel, 0, 0);
    layout->addWidget(m_days, 0, 1);
    layout->addWidget(m_tokensLabel, 1, 0);
    layout->addWidget(m_tokens, 1, 1);
    layout->addWidget(m_mfuLabel, 2, 0);
    layout->addWidget(m_mfu, 2, 1);
    layout->addWidget(m_verdict, 3, 0, 1, 2);
    layout->addWidget(m_message, 4, 0, 1, 2);
    layout->setColumnStretch(1, 1);
    layout->setRowStretch(5, 1);

    auto edited = [this](bool& touched) {
        if (m_updating) return;
        touched = true;
        recompute();
    };
    connect(m_days, &QDoubleSpinBox::valueChanged, this, [this, edited] { edited(m_daysTouched); });
    connect(m_tokens, &QDoubleSpinBox::valueChanged, this, [this, edited] { edited(m_tokensTouched); });
    connect(m_mfu, &QDoubleSpinBox::valueChanged, this, [this, edited] { edited(m_mfuTouched); });
    connect(Theme::instance(), &Theme::changed, this, &RealityCheckBox::recompute);

    retranslate();
}

QDoubleSpinBox* RealityCheckBox::tokensSpin() const
{
    return m_tokens;
}

void RealityCheckBox::setDocument(PlanDocument* document)
{
    if (m_document) disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    m_daysTouched = m_tokensTouched = m_mfuTouched = false;
    if (document) {
        connect(document, &PlanDocument::predictionChanged, this, &RealityCheckBox::followPlan);
        // Another plan brings its own claim; edits keep what was typed.
        connect(document, &PlanDocument::planReplaced, this, [this] { m_daysTouched = m_tokensTouched = m_mfuTouched = false; });
    }
    followPlan();
}

void RealityCheckBox::followPlan()
{
    const auto prediction = m_document ? m_document->prediction() : nullptr;
    if (prediction && prediction->valid) {
        const Plan& plan = m_document->predictedPlan();
        // The defaults realityCheck() itself takes for inputs <= 0, shown in the untouched fields.
        const RealityCheck defaults = realityCheck(plan, *prediction, 0, 0, 0);
        m_updating = true;
        if (!m_daysTouched) m_days->setValue(defaults.days);
        if (!m_tokensTouched) m_tokens->setValue(defaults.tokens);
        if (!m_mfuTouched) m_mfu->setValue(defaults.mfu);
        m_updating = false;
    }
    recompute();
}

void RealityCheckBox::recompute()
{
    const auto prediction = m_document ? m_document->prediction() : nullptr;
    m_hasResult = prediction && prediction->valid;
    if (!m_hasResult) {
        m_result = RealityCheck {};
        setColoredText(m_verdict, tr("no verdict"), palette::grey());
        m_message->setText(prediction ? tr("The plan is invalid; fix its errors to check a claim.")
                                      : tr("Open a plan to check a claim."));
        return;
    }
    // Untouched inputs pass 0, so the verdict uses realityCheck()'s exact defaults, as `planscope-cli check`
    // does, not the values rounded for display.
    m_result = realityCheck(m_document->predictedPlan(), *prediction, m_daysTouched ? m_days->value() : 0,
        m_tokensTouched ? m_tokens->value() : 0, m_mfuTouched ? m_mfu->value() : 0);
    if (m_result.days <= 0 || m_result.tokens <= 0 || m_result.mfu <= 0) {
        setColoredText(m_verdict, tr("no verdict"), palette::grey());
        m_message->setText(tr("Enter the claimed days, tokens and MFU to check the claim."));
    } else if (m_result.possible) {
        setColoredText(m_verdict, tr("possible"), possibleColor());
        m_message->setText(CoreText::text(m_result.message));
    } else {
        setColoredText(m_verdict, tr("short by %1x").arg(m_result.shortBy, 0, 'f', 1), Theme::alarmText());
        m_message->setText(CoreText::text(m_result.message));
    }
    m_verdict->setToolTip(
        tr("required %1 FLOP, available %2 FLOP, ratio %3")
            .arg(QString::number(m_result.requiredFlops, 'g', 6),
                QString::number(m_result.availableFlops, 'g', 6), QString::number(m_result.shortBy, 'g', 8)));
}

void RealityCheckBox::retranslate()
{
    m_daysLabel->setText(tr("&Days claimed"));
    m_tokensLabel->setText(tr("&Tokens"));
    m_mfuLabel->setText(tr("&MFU (0 to 1)"));
    m_days->setSpecialValueText(tr("none"));
    m_days->setToolTip(tr("Wall-clock days the claim allows for training"));
    m_tokens->setToolTip(tr("Tokens to train on; scientific notation works (1e12)"));
    m_mfu->setToolTip(tr("Model FLOPs utilisation assumed: achieved model FLOP/s over the GPUs' dense peak"));
    recompute();
}

void RealityCheckBox::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

} // namespace planscope
