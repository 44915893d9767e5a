// The lessons beside the views (a dock of the main window): the built-in lessons (core/lessons/Lessons.h) in the UI's
// language, step by step, each step's text and question; the answer typed in ("0.27", "27%", "1.5e9", "3.2 GB") is
// judged against the model's own figure within the question's tolerance and the worked solution is shown; and
// interview questions made up from a topic and a seed (core/lessons/InterviewQuestions.h). Each step shown hands its
// plan and view to whoever shows them (planShown); the panel itself never touches the document.
#pragma once

#include "lessons/InterviewQuestions.h"
#include "lessons/Lessons.h"
#include "spec/Plan.h"

#include <QWidget>
#include <functional>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace planscope {

class LanguageManager;

class LessonPanel : public QWidget {
    Q_OBJECT
public:
    // The language comes from `languages` (English without one).
    explicit LessonPanel(LanguageManager* languages, QWidget* parent = nullptr);

    const std::vector<Lesson>& lessons() const { return m_lessons; }
    // Shows a lesson at a step (0-based) and emits planShown(); false for an unknown lesson or step, or when the gate
    // said no (then nothing changes).
    bool showLesson(const QString& id, int step = 0);
    bool showStep(int step);
    bool next() { return showStep(m_step + 1); }
    bool previous() { return showStep(m_step - 1); }
    // A generated interview question of a topic (interviewTopics()); emits planShown() with its plan.
    bool showInterviewQuestion(const QString& topic, quint64 seed);
    // "New interview question": the topic chosen in the panel, a fresh seed (shown, so it can be asked again).
    bool newInterviewQuestion();

    QString lessonId() const;  // empty while an interview question is shown
    int step() const { return m_step; }
    int stepCount() const;
    bool isInterview() const { return m_interview.has_value(); }
    const std::optional<GeneratedQuestion>& interviewQuestion() const { return m_interview; }
    // The question on screen; null when the step asks none.
    const LessonQuestion* question() const;
    // The texts as shown, in the UI's language.
    QString titleText() const;
    QString stepText() const;
    QString questionText() const;
    QString solutionText() const;   // empty until Check or Show solution
    QString verdictText() const;

    // Judges a typed answer as Check does: right when within the question's tolerance of the model's answer; shows the
    // solution either way. Unreadable input changes nothing but the message.
    enum class Verdict { None, Right, Wrong, Unreadable };
    Verdict check(const QString& typed);
    Verdict verdict() const { return m_verdict; }
    void showSolution();
    // "0.2", "20%", "1.5e9", "1,500,000", "3.2 GB", "2 GiB", "150 ms": the number it means (percent as a fraction,
    // GB = 1e9 bytes, GiB = 2^30), or nothing.
    static std::optional<double> parseAnswer(const QString& text);

    // Asked before the panel moves to another step or question (the main window asks to save unsaved changes there);
    // false keeps everything as it is.
    void setStepGate(std::function<bool()> gate) { m_gate = std::move(gate); }

Q_SIGNALS:
    // A step or question was shown: its plan (named after the lesson) and the view that shows it.
    void planShown(const planscope::Plan& plan, const QString& view);

protected:
    void changeEvent(QEvent* event) override;

private:
    bool zh() const;
    QString text(const Bilingual& b) const;
    QString answerText(double value, const std::string& unit) const;
    QString unitText(const std::string& unit) const;
    QString topicTitle(const QString& topic) const;
    bool emitPlan(const nlohmann::json& plan, const QString& name, const std::string& view);
    void refresh();
    void retranslateUi();

    LanguageManager* m_languages;
    std::vector<Lesson> m_lessons;
    QString m_loadError;
    int m_lesson = -1;
    int m_step = 0;
    std::optional<GeneratedQuestion> m_interview;
    Verdict m_verdict = Verdict::None;
    double m_typed = 0;
    bool m_solutionShown = false;
    std::function<bool()> m_gate;

    QLabel* m_lessonLabel;
    QComboBox* m_lessonList;
    QLabel* m_title;
    QLabel* m_text;
    QWidget* m_questionBox;
    QLabel* m_question;
    QLineEdit* m_answer;
    QLabel* m_unit;
    QPushButton* m_check;
    QPushButton* m_showSolution;
    QLabel* m_verdictLabel;
    QLabel* m_solution;
    QPushButton* m_previous;
    QLabel* m_stepLabel;
    QPushButton* m_next;
    QLabel* m_interviewLabel;
    QComboBox* m_topic;
    QPushButton* m_newQuestion;
};

} // namespace planscope
