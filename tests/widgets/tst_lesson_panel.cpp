// The lesson panel (widgets/pages/LessonPanel.h) as a student uses it: every step of every built-in lesson hands its own
// plan and view to the document (untitled, unmodified); the model's answer typed in is right, 10 % off is wrong, "27%"
// reads as 0.27; Check shows the worked solution; under zh_CN the titles and texts are the Chinese ones; the interview
// button's question is the core generator's for the seed it shows; and `planscope --lesson` renders the window with the
// lesson, refusing an unknown lesson with exit code 2.
#include "GuiTestMain.h"
#include "LanguageManager.h"
#include "document/PlanDocument.h"
#include "io/PlanJson.h"
#include "lessons/InterviewQuestions.h"
#include "lessons/Lessons.h"
#include "pages/LessonPanel.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QImage>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace planscope;

Q_DECLARE_METATYPE(planscope::Plan)

namespace {

Plan stepPlan(const LessonStep& s)
{
    auto r = parsePlan(s.plan.dump());
    if (!r) QTest::qFail("a step's plan does not parse", __FILE__, __LINE__);
    return r ? r->plan : Plan {};
}

QString number(double v) { return QString::number(v, 'g', 12); }

struct Run {
    int code = -1;
    QString err;
};

Run runGui(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(PLANSCOPE_GUI), args);
    Run r;
    if (!p.waitForFinished(120000)) return r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.err = QString::fromLocal8Bit(p.readAllStandardError());
    return r;
}

} // namespace

class TestLessonPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        qRegisterMetaType<planscope::Plan>();
        QStandardPaths::setTestModeEnabled(true);
    }

    // The main window's wiring (MainWindow::createLessonDock): each step's plan into the document, untitled.
    void everyStepShowsItsPlanAndView()
    {
        LanguageManager languages;
        LessonPanel panel(&languages);
        PlanDocument doc;
        QString shownView;
        connect(&panel, &LessonPanel::planShown, &doc, [&](const Plan& plan, const QString& view) {
            doc.showUntitledPlan(plan);
            shownView = view;
        });
        const auto lessons = builtinLessons();
        QVERIFY(lessons.ok());
        QCOMPARE(panel.lessons().size(), lessons->size());
        int steps = 0;
        for (const Lesson& l : lessons.value())
            for (int k = 0; k < int(l.steps.size()); ++k) {
                const LessonStep& s = l.steps[std::size_t(k)];
                QSignalSpy spy(&panel, &LessonPanel::planShown);
                QVERIFY(panel.showLesson(QString::fromStdString(l.id), k));
                QCOMPARE(spy.count(), 1);
                const Plan expected = stepPlan(s);
                QCOMPARE(doc.plan().parallel, expected.parallel);
                QCOMPARE(doc.plan().training, expected.training);
                QCOMPARE(doc.plan().model, expected.model);
                QCOMPARE(shownView, QString::fromStdString(s.view));
                QVERIFY(!doc.isModified());
                QVERIFY(doc.filePath().isEmpty());
                QCOMPARE(panel.step(), k);
                QCOMPARE(panel.stepCount(), int(l.steps.size()));
                QCOMPARE(panel.stepText(), QString::fromStdString(s.text.en));
                QCOMPARE(panel.findChild<QLabel*>(QStringLiteral("stepLabel"))->text(),
                    QStringLiteral("Step %1 of %2").arg(k + 1).arg(l.steps.size()));
                ++steps;
            }
        int total = 0;
        for (const Lesson& l : lessons.value()) total += int(l.steps.size());
        QCOMPARE(steps, total);
        QVERIFY(steps >= 19);
        // Next and Previous walk the steps of the lesson shown.
        QVERIFY(panel.showLesson(QStringLiteral("zero-memory"), 0));
        panel.findChild<QPushButton*>(QStringLiteral("nextButton"))->click();
        QCOMPARE(panel.step(), 1);
        QCOMPARE(doc.plan().parallel.zero, 1);
        panel.findChild<QPushButton*>(QStringLiteral("previousButton"))->click();
        QCOMPARE(panel.step(), 0);
        QCOMPARE(doc.plan().parallel.zero, 0);
        QVERIFY(!panel.previous());
        QVERIFY(!panel.showLesson(QStringLiteral("no-such-lesson")));
        QVERIFY(!panel.showLesson(QStringLiteral("zero-memory"), 99));
    }

    // Right within the tolerance of the model's answer, wrong 10 % off; typed into the box and checked with the button.
    void answersAreJudgedAgainstTheModel()
    {
        LanguageManager languages;
        LessonPanel panel(&languages);
        auto* edit = panel.findChild<QLineEdit*>(QStringLiteral("answerEdit"));
        auto* check = panel.findChild<QPushButton*>(QStringLiteral("checkButton"));
        QVERIFY(edit && check);
        int questions = 0;
        const auto lessons = builtinLessons();
        for (const Lesson& l : lessons.value())
            for (int k = 0; k < int(l.steps.size()); ++k) {
                const LessonStep& s = l.steps[std::size_t(k)];
                QVERIFY(panel.showLesson(QString::fromStdString(l.id), k));
                if (!s.question) continue;
                ++questions;
                const double answer = s.question->answer;
                QVERIFY(panel.question() && panel.question()->answer == answer);
                QCOMPARE(panel.questionText(), QString::fromStdString(s.question->text.en));
                QVERIFY(panel.solutionText().isEmpty()); // not before Check
                // A wrong answer says which way it is off and keeps the model's answer and the solution back.
                if (answer != 0) {
                    const bool positive = answer > 0;
                    QCOMPARE(panel.check(number(answer * 1.5)), LessonPanel::Verdict::Wrong);
                    QVERIFY(panel.verdictText().contains(positive ? QLatin1String("too high") : QLatin1String("too low")));
                    QCOMPARE(panel.check(number(answer * 0.5)), LessonPanel::Verdict::Wrong);
                    QVERIFY(panel.verdictText().contains(positive ? QLatin1String("too low") : QLatin1String("too high")));
                    QVERIFY(!panel.verdictText().contains(number(answer)));
                    QVERIFY(panel.solutionText().isEmpty());
                }
                edit->setText(number(answer));
                check->click();
                QVERIFY2(panel.verdict() == LessonPanel::Verdict::Right, qPrintable(QString::fromStdString(l.id)));
                QVERIFY(panel.solutionText().contains(QString::fromStdString(s.question->solution.en)));
                QVERIFY(panel.verdictText().startsWith(QLatin1String("Right")));
                QCOMPARE(panel.check(number(answer * 1.1)), LessonPanel::Verdict::Wrong);
                QVERIFY(panel.verdictText().startsWith(QLatin1String("Not quite")));
                QCOMPARE(panel.check(number(answer * (1 + s.question->tolerance / 2))), LessonPanel::Verdict::Right);
                if (s.question->unit.empty() && answer < 1) // a share, typed as a percentage
                    QCOMPARE(panel.check(number(answer * 100) + QLatin1Char('%')), LessonPanel::Verdict::Right);
                QCOMPARE(panel.check(QStringLiteral("about a third")), LessonPanel::Verdict::Unreadable);
            }
        QVERIFY(questions >= 19);
        // Show solution without answering.
        QVERIFY(panel.showLesson(QStringLiteral("ring-allreduce"), 0));
        QVERIFY(panel.solutionText().isEmpty());
        panel.findChild<QPushButton*>(QStringLiteral("solutionButton"))->click();
        QVERIFY(panel.solutionText().contains(QLatin1String("2 (N - 1) / N")));
    }

    void typedNumbers()
    {
        const auto near = [](std::optional<double> v, double x) { return v && std::abs(*v - x) <= 1e-12 * std::abs(x); };
        QVERIFY(near(LessonPanel::parseAnswer(QStringLiteral("0.2")), 0.2));
        QVERIFY(near(LessonPanel::parseAnswer(QStringLiteral("20%")), 0.2));
        QVERIFY(near(LessonPanel::parseAnswer(QStringLiteral(" 20 % ")), 0.2));
        QVERIFY(near(LessonPanel::parseAnswer(QString::fromUtf8("20\xef\xbc\x85")), 0.2)); // full-width ％
        QVERIFY(near(LessonPanel::parseAnswer(QStringLiteral("1.5e9")), 1.5e9));
        QVERIFY(near(LessonPanel::parseAnswer(QStringLiteral("1,500,000,000")), 1.5e9));
        QVERIFY(near(LessonPanel::parseAnswer(QStringLiteral("3.2 GB")), 3.2e9));
        QVERIFY(near(LessonPanel::parseAnswer(QStringLiteral("2 GiB")), 2.0 * 1024 * 1024 * 1024));
        QVERIFY(near(LessonPanel::parseAnswer(QStringLiteral("150 ms")), 0.15));
        QVERIFY(near(LessonPanel::parseAnswer(QStringLiteral("42")), 42));
        QVERIFY(!LessonPanel::parseAnswer(QStringLiteral("")));
        QVERIFY(!LessonPanel::parseAnswer(QStringLiteral("%")));
        QVERIFY(!LessonPanel::parseAnswer(QStringLiteral("three")));
    }

    void chinese()
    {
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        LessonPanel panel(&languages);
        const auto lessons = builtinLessons();
        const Lesson& l = lessons.value().front();
        QVERIFY(panel.showLesson(QString::fromStdString(l.id), 0));
        QCOMPARE(panel.titleText(), QString::fromStdString(l.title.zh_CN));
        QCOMPARE(panel.stepText(), QString::fromStdString(l.steps[0].text.zh_CN));
        QCOMPARE(panel.questionText(), QString::fromStdString(l.steps[0].question->text.zh_CN));
        QCOMPARE(panel.findChild<QComboBox*>(QStringLiteral("lessonList"))->itemText(0), QString::fromStdString(l.title.zh_CN));
        panel.showSolution();
        QVERIFY(panel.solutionText().contains(QString::fromStdString(l.steps[0].question->solution.zh_CN)));
        // Switching the language at run time switches the lesson's texts.
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        QCOMPARE(panel.titleText(), QString::fromStdString(l.title.en));
        QCOMPARE(panel.stepText(), QString::fromStdString(l.steps[0].text.en));
    }

    void interviewButtonUsesTheGenerator()
    {
        LanguageManager languages;
        LessonPanel panel(&languages);
        auto* topics = panel.findChild<QComboBox*>(QStringLiteral("topicCombo"));
        QVERIFY(topics);
        QCOMPARE(topics->count(), int(interviewTopics().size()));
        for (int i = 0; i < topics->count(); ++i) {
            topics->setCurrentIndex(i);
            QSignalSpy spy(&panel, &LessonPanel::planShown);
            panel.findChild<QPushButton*>(QStringLiteral("interviewButton"))->click();
            QCOMPARE(spy.count(), 1);
            QVERIFY(panel.isInterview());
            const GeneratedQuestion& shown = *panel.interviewQuestion();
            QCOMPARE(QString::fromStdString(shown.topic), topics->itemData(i).toString());
            const auto core = generateQuestion(shown.topic, shown.seed);
            QVERIFY(core.ok());
            QCOMPARE(panel.question()->answer, core->question.answer);
            QCOMPARE(panel.questionText(), QString::fromStdString(core->question.text.en));
            const Plan plan = spy.front().at(0).value<Plan>();
            QCOMPARE(plan.parallel, parsePlan(core->plan.dump())->plan.parallel);
            QCOMPARE(spy.front().at(1).toString(), QString::fromStdString(core->view));
            QCOMPARE(panel.check(number(core->question.answer)), LessonPanel::Verdict::Right);
        }
        // The same seed asked again: the same question.
        QVERIFY(panel.showInterviewQuestion(QStringLiteral("zero-memory"), 77));
        QCOMPARE(panel.question()->answer, generateQuestion("zero-memory", 77)->question.answer);
    }

    // A gate that says no (the user cancelled the save question) keeps the panel where it was.
    void gateCanRefuse()
    {
        LanguageManager languages;
        LessonPanel panel(&languages);
        QVERIFY(panel.showLesson(QStringLiteral("pipeline-bubble"), 0));
        bool allow = false;
        panel.setStepGate([&] { return allow; });
        QSignalSpy spy(&panel, &LessonPanel::planShown);
        QVERIFY(!panel.next());
        QVERIFY(!panel.showLesson(QStringLiteral("ring-allreduce")));
        QVERIFY(!panel.showInterviewQuestion(QStringLiteral("data-parallel"), 1));
        QCOMPARE(spy.count(), 0);
        QCOMPARE(panel.lessonId(), QStringLiteral("pipeline-bubble"));
        QCOMPARE(panel.step(), 0);
        allow = true;
        QVERIFY(panel.next());
        QCOMPARE(spy.count(), 1);
    }

    void commandLine()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("lesson.png"));
        const Run ok = runGui({ QStringLiteral("--lesson"), QStringLiteral("pipeline-bubble"), QStringLiteral("--screenshot"), png });
        QVERIFY2(ok.code == 0, qPrintable(ok.err));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(1400, 900)); // the whole window, at --size's default
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 50, qPrintable(QString::number(colours.size()))); // a picture, not a blank

        const Run unknown = runGui({ QStringLiteral("--lesson"), QStringLiteral("no-such-lesson"), QStringLiteral("--screenshot"),
            dir.filePath(QStringLiteral("x.png")) });
        QCOMPARE(unknown.code, 2);
        QVERIFY(unknown.err.contains(QLatin1String("pipeline-bubble")) && unknown.err.contains(QLatin1String("zero-bubble")));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("x.png"))));
        const Run badStep = runGui({ QStringLiteral("--lesson"), QStringLiteral("pipeline-bubble"), QStringLiteral("--lesson-step"),
            QStringLiteral("9"), QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("y.png")) });
        QCOMPARE(badStep.code, 2);
        QVERIFY(badStep.err.contains(QLatin1String("--lesson-step")));
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestLessonPanel)
#include "tst_lesson_panel.moc"
