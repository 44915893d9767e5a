#include "LessonPanel.h"

#include "LanguageManager.h"
#include "Theme.h"
#include "io/PlanJson.h"
#include "util/Units.h"

#include <QComboBox>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QScrollArea>
#include <QVBoxLayout>
#include <cmath>

namespace planscope {

namespace {

QLabel* wrapped(QWidget* parent, const char* name)
{
    auto* l = new QLabel(parent);
    l->setObjectName(QLatin1String(name));
    l->setWordWrap(true);
    l->setTextFormat(Qt::PlainText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

void setTextColor(QLabel* label, const QColor& color)
{
    QPalette p = label->palette();
    p.setColor(QPalette::WindowText, color);
    label->setPalette(p);
}

} // namespace

LessonPanel::LessonPanel(LanguageManager* languages, QWidget* parent)
    : QWidget(parent)
    , m_languages(languages)
{
    auto lessons = builtinLessons();
    if (lessons)
        m_lessons = std::move(lessons.value());
    else
        m_loadError = QString::fromStdString(lessons.errors().front().path + ": " + lessons.errors().front().message);

    // Everything in a scroll area: a narrow dock scrolls instead of clipping a long step.
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    outer->addWidget(scroll);
    auto* content = new QWidget(scroll);
    scroll->setWidget(content);
    auto* column = new QVBoxLayout(content);
    column->setContentsMargins(10, 8, 10, 8);
    column->setSpacing(8);

    auto* pickRow = new QHBoxLayout;
    m_lessonLabel = new QLabel(content);
    m_lessonList = new QComboBox(content);
    m_lessonList->setObjectName(QStringLiteral("lessonList"));
    m_lessonList->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_lessonList->setMinimumContentsLength(12);
    for (const Lesson& l : m_lessons) m_lessonList->addItem(QString(), QString::fromStdString(l.id));
    pickRow->addWidget(m_lessonLabel);
    pickRow->addWidget(m_lessonList, 1);
    column->addLayout(pickRow);

    m_title = wrapped(content, "lessonTitle");
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.15);
    m_title->setFont(bold);
    column->addWidget(m_title);
    m_text = wrapped(content, "stepText");
    column->addWidget(m_text);

    // The question: typed answer, unit, Check and Show solution, the verdict and the worked solution.
    auto* box = new QFrame(content);
    box->setObjectName(QStringLiteral("questionBox"));
    box->setFrameShape(QFrame::StyledPanel);
    m_questionBox = box;
    auto* q = new QVBoxLayout(box);
    q->setContentsMargins(8, 6, 8, 6);
    m_question = wrapped(box, "questionText");
    QFont questionFont = m_question->font();
    questionFont.setBold(true);
    m_question->setFont(questionFont);
    q->addWidget(m_question);
    auto* answerRow = new QHBoxLayout;
    m_answer = new QLineEdit(box);
    m_answer->setObjectName(QStringLiteral("answerEdit"));
    m_unit = new QLabel(box);
    m_unit->setObjectName(QStringLiteral("unitLabel"));
    answerRow->addWidget(m_answer, 1);
    answerRow->addWidget(m_unit);
    q->addLayout(answerRow);
    m_unit->setWordWrap(true);
    auto* buttons = new QHBoxLayout;
    m_check = new QPushButton(box);
    m_check->setObjectName(QStringLiteral("checkButton"));
    m_showSolution = new QPushButton(box);
    m_showSolution->setObjectName(QStringLiteral("solutionButton"));
    buttons->addWidget(m_check);
    buttons->addWidget(m_showSolution);
    buttons->addStretch(1);
    q->addLayout(buttons);
    m_verdictLabel = wrapped(box, "verdict");
    q->addWidget(m_verdictLabel);
    m_solution = wrapped(box, "solution");
    q->addWidget(m_solution);
    column->addWidget(box);

    auto* nav = new QHBoxLayout;
    m_previous = new QPushButton(content);
    m_previous->setObjectName(QStringLiteral("previousButton"));
    m_stepLabel = new QLabel(content);
    m_stepLabel->setObjectName(QStringLiteral("stepLabel"));
    m_stepLabel->setAlignment(Qt::AlignCenter);
    m_next = new QPushButton(content);
    m_next->setObjectName(QStringLiteral("nextButton"));
    nav->addWidget(m_previous);
    nav->addWidget(m_stepLabel, 1);
    nav->addWidget(m_next);
    column->addLayout(nav);

    auto* line = new QFrame(content);
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Sunken);
    column->addWidget(line);
    m_interviewLabel = wrapped(content, "interviewLabel");
    column->addWidget(m_interviewLabel);
    auto* interviewRow = new QHBoxLayout;
    m_topic = new QComboBox(content);
    m_topic->setObjectName(QStringLiteral("topicCombo"));
    for (const std::string& t : interviewTopics()) m_topic->addItem(QString(), QString::fromStdString(t));
    m_newQuestion = new QPushButton(content);
    m_newQuestion->setObjectName(QStringLiteral("interviewButton"));
    interviewRow->addWidget(m_topic, 1);
    interviewRow->addWidget(m_newQuestion);
    column->addLayout(interviewRow);
    column->addStretch(1);
    setMinimumWidth(300);

    connect(m_lessonList, &QComboBox::activated, this, [this](int index) {
        if (!showLesson(m_lessonList->itemData(index).toString(), 0)) refresh(); // refused: the list shows the lesson again
    });
    connect(m_previous, &QPushButton::clicked, this, [this] { previous(); });
    connect(m_next, &QPushButton::clicked, this, [this] { next(); });
    connect(m_check, &QPushButton::clicked, this, [this] { check(m_answer->text()); });
    connect(m_answer, &QLineEdit::returnPressed, this, [this] { check(m_answer->text()); });
    connect(m_showSolution, &QPushButton::clicked, this, &LessonPanel::showSolution);
    connect(m_newQuestion, &QPushButton::clicked, this, [this] { newInterviewQuestion(); });
    if (m_languages) connect(m_languages, &LanguageManager::languageChanged, this, &LessonPanel::retranslateUi);
    connect(Theme::instance(), &Theme::changed, this, &LessonPanel::refresh);
    retranslateUi();
}

bool LessonPanel::zh() const { return m_languages && m_languages->language() == QLatin1String("zh_CN"); }

QString LessonPanel::text(const Bilingual& b) const { return QString::fromStdString(zh() ? b.zh_CN : b.en); }

QString LessonPanel::lessonId() const
{
    return m_interview || m_lesson < 0 ? QString() : QString::fromStdString(m_lessons[std::size_t(m_lesson)].id);
}

int LessonPanel::stepCount() const
{
    return m_interview ? 1 : m_lesson < 0 ? 0 : int(m_lessons[std::size_t(m_lesson)].steps.size());
}

const LessonQuestion* LessonPanel::question() const
{
    if (m_interview) return &m_interview->question;
    if (m_lesson < 0) return nullptr;
    const LessonStep& s = m_lessons[std::size_t(m_lesson)].steps[std::size_t(m_step)];
    return s.question ? &*s.question : nullptr;
}

bool LessonPanel::showLesson(const QString& id, int step)
{
    for (std::size_t i = 0; i < m_lessons.size(); ++i) {
        if (QString::fromStdString(m_lessons[i].id) != id) continue;
        if (step < 0 || step >= int(m_lessons[i].steps.size())) return false;
        if (m_gate && !m_gate()) return false;
        m_interview.reset();
        m_lesson = int(i);
        m_step = step;
        m_verdict = Verdict::None;
        m_solutionShown = false;
        m_answer->clear();
        refresh();
        const Lesson& l = m_lessons[i];
        return emitPlan(l.steps[std::size_t(step)].plan,
            tr("Lesson: %1 (%2/%3)").arg(text(l.title)).arg(step + 1).arg(l.steps.size()), l.steps[std::size_t(step)].view);
    }
    return false;
}

bool LessonPanel::showStep(int step)
{
    if (m_interview || m_lesson < 0) return false;
    return showLesson(lessonId(), step);
}

bool LessonPanel::showInterviewQuestion(const QString& topic, quint64 seed)
{
    auto g = generateQuestion(topic.toStdString(), seed);
    if (!g) return false;
    if (m_gate && !m_gate()) return false;
    m_interview = std::move(g.value());
    m_verdict = Verdict::None;
    m_solutionShown = false;
    m_answer->clear();
    const int index = m_topic->findData(topic);
    if (index >= 0) m_topic->setCurrentIndex(index);
    refresh();
    return emitPlan(m_interview->plan, tr("Interview question: %1 (seed %2)").arg(topicTitle(topic)).arg(seed), m_interview->view);
}

bool LessonPanel::newInterviewQuestion()
{
    // A fresh seed each time; the seed is shown, so a question can be asked again (planscope-cli lessons --interview).
    return showInterviewQuestion(m_topic->currentData().toString(), QRandomGenerator::global()->bounded(1000000u));
}

bool LessonPanel::emitPlan(const nlohmann::json& plan, const QString& name, const std::string& view)
{
    auto parsed = planFromJson(plan);
    if (!parsed) return false;
    Plan p = std::move(parsed.value().plan);
    p.name = name.toStdString();
    Q_EMIT planShown(p, QString::fromStdString(view));
    return true;
}

std::optional<double> LessonPanel::parseAnswer(const QString& typed)
{
    QString t = typed.trimmed();
    t.remove(QLatin1Char(','));
    t.remove(QLatin1Char(' '));
    t.replace(QChar(0xFF05), QLatin1Char('%')); // a full-width percent sign, as Chinese input methods type it
    // Longest suffixes first, so that "ms" is not read as "s" and "GiB" not as "B".
    static const std::pair<const char*, double> suffixes[] = { { "%", 0.01 }, { "TiB", 1099511627776.0 },
        { "GiB", 1073741824.0 }, { "MiB", 1048576.0 }, { "KiB", 1024.0 }, { "TB", 1e12 }, { "GB", 1e9 }, { "MB", 1e6 },
        { "kB", 1e3 }, { "KB", 1e3 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "\u00b5s", 1e-6 }, { "B", 1.0 }, { "s", 1.0 } };
    double scale = 1;
    for (const auto& [suffix, factor] : suffixes) {
        const QString s = QString::fromUtf8(suffix);
        if (t.size() > s.size() && t.endsWith(s)) {
            t.chop(s.size());
            scale = factor;
            break;
        }
    }
    bool ok = false;
    const double v = t.toDouble(&ok); // C locale: "1.5e9"
    if (!ok || !std::isfinite(v)) return std::nullopt;
    return v * scale;
}

LessonPanel::Verdict LessonPanel::check(const QString& typed)
{
    const LessonQuestion* q = question();
    if (!q) return Verdict::None;
    const auto v = parseAnswer(typed);
    if (!v) {
        m_verdict = Verdict::Unreadable;
    } else {
        m_typed = *v;
        const double tolerance = q->answer == 0 ? 1e-12 : q->tolerance * std::abs(q->answer);
        m_verdict = std::abs(*v - q->answer) <= tolerance ? Verdict::Right : Verdict::Wrong;
        // A wrong answer says which way it is off and keeps the answer for another try; Show Solution reveals it.
        m_solutionShown = m_solutionShown || m_verdict == Verdict::Right;
    }
    refresh();
    return m_verdict;
}

void LessonPanel::showSolution()
{
    if (!question()) return;
    m_solutionShown = true;
    refresh();
}

QString LessonPanel::answerText(double v, const std::string& unit) const
{
    if (unit == "B")
        return tr("%1 bytes (%2)").arg(QString::fromStdString(units::formatNumber(v)), QString::fromStdString(units::formatBytes(v)));
    if (unit == "s") return QString::fromStdString(units::formatSeconds(v));
    if (unit == "days") return tr("%1 days").arg(QString::fromStdString(units::formatNumber(v)));
    const QString number = QString::fromStdString(units::formatNumber(v));
    // A share both ways: as typed either way ("0.25" or "25%").
    if (unit.empty() && std::abs(v) <= 1) return QStringLiteral("%1 (%2 %)").arg(number).arg(100.0 * v, 0, 'f', 1);
    return unit.empty() ? number : number + QLatin1Char(' ') + QString::fromStdString(unit);
}

QString LessonPanel::unitText(const std::string& unit) const
{
    if (unit.empty()) return tr("a share: 0.25 or 25%");
    if (unit == "B") return tr("bytes (1.5e9, 1.5 GB, 1.4 GiB)");
    if (unit == "s") return tr("seconds");
    if (unit == "days") return tr("days");
    return QString::fromStdString(unit);
}

QString LessonPanel::topicTitle(const QString& topic) const
{
    if (topic == QLatin1String("pipeline-bubble")) return tr("Pipeline bubble");
    if (topic == QLatin1String("zero-memory")) return tr("ZeRO memory");
    if (topic == QLatin1String("ring-allreduce")) return tr("Ring all-reduce");
    if (topic == QLatin1String("data-parallel")) return tr("Data parallelism");
    if (topic == QLatin1String("tensor-parallel")) return tr("Tensor parallelism");
    return topic;
}

QString LessonPanel::titleText() const { return m_title->text(); }
QString LessonPanel::stepText() const { return m_text->text(); }
QString LessonPanel::questionText() const { return m_question->text(); }
QString LessonPanel::solutionText() const { return m_solution->isHidden() ? QString() : m_solution->text(); }
QString LessonPanel::verdictText() const { return m_verdictLabel->isHidden() ? QString() : m_verdictLabel->text(); }

void LessonPanel::refresh()
{
    for (int i = 0; i < m_lessonList->count() && i < int(m_lessons.size()); ++i)
        m_lessonList->setItemText(i, text(m_lessons[std::size_t(i)].title));
    if (m_lesson >= 0) m_lessonList->setCurrentIndex(m_lesson);
    for (int i = 0; i < m_topic->count(); ++i) m_topic->setItemText(i, topicTitle(m_topic->itemData(i).toString()));

    if (m_interview) {
        m_title->setText(tr("Interview question: %1").arg(topicTitle(QString::fromStdString(m_interview->topic))));
        m_text->setText(tr("A plan drawn for this question (seed %1) is open in the views; the answer is the model's figure "
                           "for it (planscope-cli lessons --interview %2 --seed %1).")
                            .arg(m_interview->seed)
                            .arg(QString::fromStdString(m_interview->topic)));
        m_stepLabel->setText(tr("Seed %1").arg(m_interview->seed));
    } else if (m_lesson >= 0) {
        const Lesson& l = m_lessons[std::size_t(m_lesson)];
        m_title->setText(text(l.title));
        m_text->setText(text(l.steps[std::size_t(m_step)].text));
        m_stepLabel->setText(tr("Step %1 of %2").arg(m_step + 1).arg(l.steps.size()));
    } else {
        m_title->setText(m_loadError.isEmpty() ? tr("Lessons") : tr("The lessons could not be computed"));
        m_text->setText(m_loadError.isEmpty()
                ? tr("Pick a lesson above, or ask for an interview question below. Each step opens a plan in the views "
                     "and asks a question the model answers.")
                : m_loadError);
        m_stepLabel->clear();
    }
    m_previous->setEnabled(!m_interview && m_lesson >= 0 && m_step > 0);
    m_next->setEnabled(!m_interview && m_lesson >= 0 && m_step + 1 < stepCount());

    const LessonQuestion* q = question();
    m_questionBox->setVisible(q != nullptr);
    if (!q) return;
    m_question->setText(text(q->text));
    m_unit->setText(unitText(q->unit));
    const QString model = answerText(q->answer, q->unit);
    switch (m_verdict) {
    case Verdict::None: m_verdictLabel->clear(); break;
    case Verdict::Right: m_verdictLabel->setText(tr("Right. The model's answer: %1.").arg(model)); break;
    case Verdict::Wrong:
        m_verdictLabel->setText((m_typed > q->answer ? tr("Not quite: %1 is too high (within %2 % of the model's answer "
                                                          "counts as right). Try again, or Show Solution.")
                                                     : tr("Not quite: %1 is too low (within %2 % of the model's answer "
                                                          "counts as right). Try again, or Show Solution."))
                                    .arg(answerText(m_typed, q->unit))
                                    .arg(q->tolerance * 100, 0, 'g', 3));
        break;
    case Verdict::Unreadable:
        m_verdictLabel->setText(tr("That is not a number. Type for example 0.27, 27%, 1.5e9 or 3.2 GB."));
        break;
    }
    m_verdictLabel->setVisible(m_verdict != Verdict::None);
    setTextColor(m_verdictLabel, m_verdict == Verdict::Right ? Theme::pick(QColor(0x1b, 0x7a, 0x34), QColor(0x6f, 0xd0, 0x86))
            : m_verdict == Verdict::None                     ? Theme::text()
                                                             : Theme::alarmText());
    m_solution->setText(tr("Solution: %1").arg(text(q->solution)) + QLatin1Char('\n') + tr("Model's answer: %1").arg(model));
    m_solution->setVisible(m_solutionShown);
}

void LessonPanel::retranslateUi()
{
    m_lessonLabel->setText(tr("Lesson:"));
    m_check->setText(tr("&Check"));
    m_showSolution->setText(tr("Show &Solution"));
    m_answer->setPlaceholderText(tr("Your answer"));
    m_previous->setText(tr("← &Previous"));
    m_next->setText(tr("&Next →"));
    m_interviewLabel->setText(tr("Interview practice: a new question with numbers drawn at random, answered by the model."));
    m_newQuestion->setText(tr("New &Interview Question"));
    refresh();
}

void LessonPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace planscope
