// The plan editor and the reality check against core: what they show under a field is what
// planscope::validate says about that field, and the verdict is planscope::realityCheck's.
#include "GuiTestMain.h"
#include "DocumentTestUtil.h"
#include "TestUtil.h"

#include "document/PlanDocument.h"
#include "cost/RealityCheck.h"
#include "spec/Presets.h"
#include "spec/Validate.h"
#include "pages/PlanEditorPage.h"
#include "spec/FieldLimits.h"
#include "charts/RealityCheckBox.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <limits>
#include <QTest>
#include <QUndoStack>

using namespace planscope;
using namespace planscope::test;

namespace {

// What validate() says about one path, one issue a line: the text the editor must show under that field.
QString issuesAt(const Plan& plan, const std::string& path)
{
    QStringList lines;
    for (const Issue& i : validate(plan))
        if (i.path == path) lines << QString::fromStdString(i.message);
    return lines.join(QLatin1Char('\n'));
}

// The value of one plan field the editor shows, as text, read straight from the plan (docs/PLAN-FILE.md names).
QString planValue(const Plan& p, const QString& path)
{
    auto b = [](bool v) { return v ? QStringLiteral("true") : QStringLiteral("false"); };
    auto n = [](double v) { return QString::number(v); };
    auto e = [](auto v) { return QString::fromUtf8(toString(v).data(), qsizetype(toString(v).size())); };
    const ModelSpec& m = p.model;
    const TrainingSpec& t = p.training;
    if (path == QLatin1String("model.headDim")) return n(double(m.headDim));
    if (path == QLatin1String("model.qkNorm")) return b(m.qkNorm);
    if (path == QLatin1String("model.attentionSinks")) return b(m.attentionSinks);
    if (path == QLatin1String("model.mtpLayers")) return n(m.mtpLayers);
    if (path == QLatin1String("model.mla.qLoraRank")) return n(m.mla.qLoraRank);
    if (path == QLatin1String("model.mla.kvLoraRank")) return n(m.mla.kvLoraRank);
    if (path == QLatin1String("model.mla.qkNopeHeadDim")) return n(m.mla.qkNopeHeadDim);
    if (path == QLatin1String("model.mla.qkRopeHeadDim")) return n(m.mla.qkRopeHeadDim);
    if (path == QLatin1String("model.mla.vHeadDim")) return n(m.mla.vHeadDim);
    if (path == QLatin1String("model.moe.sharedExperts")) return n(m.moe.sharedExperts);
    if (path == QLatin1String("model.moe.sharedExpertFfnHidden")) return n(double(m.moe.sharedExpertFfnHidden));
    if (path == QLatin1String("model.moe.denseLayers")) return n(m.moe.denseLayers);
    if (path == QLatin1String("model.moe.routerBias")) return b(m.moe.routerBias);
    if (path == QLatin1String("model.moe.capacityFactor")) return n(m.moe.capacityFactor);
    if (path == QLatin1String("model.moe.dispatcher")) return e(m.moe.dispatcher);
    if (path == QLatin1String("model.moe.groupedGemm")) return b(m.moe.groupedGemm);
    if (path == QLatin1String("model.moe.syncFree")) return b(m.moe.syncFree);
    if (path == QLatin1String("model.moe.imbalance")) return n(m.moe.imbalance);
    if (path == QLatin1String("parallel.etp")) return n(p.parallel.etp);
    if (path == QLatin1String("training.precision")) return e(t.precision);
    if (path == QLatin1String("training.recompute")) return e(t.recompute);
    if (path == QLatin1String("training.fp8Recipe")) return e(t.fp8Recipe);
    if (path == QLatin1String("training.fp8ParamGather")) return b(t.fp8ParamGather);
    if (path == QLatin1String("training.optimizerStateDtype")) return e(t.optimizerStateDtype);
    if (path == QLatin1String("training.offload.optimizerFraction")) return n(t.offload.optimizerFraction);
    if (path == QLatin1String("training.offload.activationLayers")) return n(t.offload.activationLayers);
    if (path == QLatin1String("training.offload.pcieBandwidth")) return n(t.offload.pcieBandwidth);
    if (path == QLatin1String("training.offload.hostBandwidth")) return n(t.offload.hostBandwidth);
    if (path == QLatin1String("training.recomputeLayers")) return n(t.recomputeLayers);
    if (path == QLatin1String("training.recomputeMethod")) return t.recomputeBlock ? QStringLiteral("block") : QStringLiteral("uniform");
    if (path == QLatin1String("training.overlapMoeComm")) return b(t.overlapMoeComm);
    if (path == QLatin1String("training.host.cudaGraphs")) return e(t.host.cudaGraphs);
    // The host's times in microseconds, as the editor shows them (the plan keeps seconds).
    if (path == QLatin1String("training.host.kernelSeconds")) return n(t.host.kernelSeconds * 1e6);
    if (path == QLatin1String("training.host.syncSeconds")) return n(t.host.syncSeconds * 1e6);
    if (path == QLatin1String("training.host.graphLaunchSeconds")) return n(t.host.graphLaunchSeconds * 1e6);
    if (path == QLatin1String("training.host.launchQueue")) return n(t.host.launchQueue);
    return QStringLiteral("(no such field: %1)").arg(path);
}

// What a field's widget shows, in planValue()'s words.
QString shownValue(QWidget* w)
{
    if (auto* spin = qobject_cast<QSpinBox*>(w)) return QString::number(spin->value());
    if (auto* spin = qobject_cast<QDoubleSpinBox*>(w)) return QString::number(spin->value());
    if (auto* check = qobject_cast<QCheckBox*>(w)) return check->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
    if (auto* combo = qobject_cast<QComboBox*>(w)) return combo->currentData().toString();
    return {};
}

// Sets a field the way a user does: the spin box's value, the box's tick, the choice.
bool setField(PlanEditorPage& editor, const QString& path, const QString& value)
{
    QWidget* w = editor.fieldWidget(path);
    if (auto* spin = qobject_cast<QSpinBox*>(w)) spin->setValue(value.toInt());
    else if (auto* spin = qobject_cast<QDoubleSpinBox*>(w)) spin->setValue(value.toDouble());
    else if (auto* check = qobject_cast<QCheckBox*>(w)) check->setChecked(value == QLatin1String("true"));
    else if (auto* combo = qobject_cast<QComboBox*>(w)) {
        const int i = combo->findData(value);
        if (i < 0) return false;
        combo->setCurrentIndex(i);
    } else
        return false;
    return true;
}

QString groupTitle(QWidget* w)
{
    for (QWidget* p = w; p; p = p->parentWidget())
        if (auto* box = qobject_cast<QGroupBox*>(p)) return box->title();
    return {};
}

// The label beside a field (a check box carries its own text).
QString fieldLabel(const PlanEditorPage& editor, QWidget* w)
{
    if (auto* check = qobject_cast<QCheckBox*>(w)) return check->text();
    for (QLabel* label : editor.findChildren<QLabel*>())
        if (label->buddy() == w) return label->text();
    return {};
}

std::vector<std::string> modules(std::initializer_list<const char*> names)
{
    return std::vector<std::string>(names.begin(), names.end());
}

int countErrors(const Issues& issues)
{
    return int(std::count_if(
        issues.begin(), issues.end(), [](const Issue& i) { return i.severity == Severity::Error; }));
}

} // namespace

class TestEditor : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("planscope-editor-tests"));
    }

    void fieldsShowThePlan_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("expected");
        QTest::newRow("tp") << QStringLiteral("parallel.tp") << 2;
        QTest::newRow("pp") << QStringLiteral("parallel.pp") << 4;
        QTest::newRow("dp") << QStringLiteral("parallel.dp") << 2;
        QTest::newRow("cp") << QStringLiteral("parallel.cp") << 1;
        QTest::newRow("layers") << QStringLiteral("model.layers") << 32;
        QTest::newRow("hidden") << QStringLiteral("model.hidden") << 4096;
        QTest::newRow("heads") << QStringLiteral("model.heads") << 32;
        QTest::newRow("ffnHidden") << QStringLiteral("model.ffnHidden") << 11008;
        QTest::newRow("seqLength") << QStringLiteral("model.seqLength") << 4096;
        QTest::newRow("nodes") << QStringLiteral("cluster.nodes") << 2;
        QTest::newRow("gpusPerNode") << QStringLiteral("cluster.gpusPerNode") << 8;
        QTest::newRow("globalBatch") << QStringLiteral("training.globalBatch") << 64;
        QTest::newRow("microBatch") << QStringLiteral("training.microBatch") << 1;
    }
    void fieldsShowThePlan()
    {
        QFETCH(QString, path);
        QFETCH(int, expected);
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        QSpinBox* spin = editor.spinBox(path);
        QVERIFY2(spin, qPrintable(path));
        QCOMPARE(spin->value(), expected);
    }

    // The editor's integer fields take their ranges from core's table (core/spec/FieldLimits.cpp), the plan reader's:
    // what the editor lets a user type, a saved file reads back.
    void integerFieldsTakeTheReadersRanges()
    {
        PlanEditorPage editor;
        int shown = 0;
        for (const FieldLimit& f : fieldLimits()) {
            const QString path = QString::fromUtf8(f.path.data(), qsizetype(f.path.size()));
            QSpinBox* spin = editor.spinBox(path);
            if (!spin) continue;
            ++shown;
            QCOMPARE(spin->minimum(), int(f.min));
            QCOMPARE(spin->maximum(), int(std::min(f.max, double(std::numeric_limits<int>::max()))));
        }
        // The model's shape, MoE and MLA, the cluster's size, every degree, the batch and the layer counts.
        QVERIFY2(shown >= 31, qPrintable(QString::number(shown)));
    }

    void fieldsShowUnitsAndChoices()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        const Plan plan = test::loadSample("default.plan.json");
        QCOMPARE(editor.plan(), plan);

        QCOMPARE(editor.comboBox(QStringLiteral("model.preset"))->currentData().toString(),
            QStringLiteral("llama2-7b"));
        QCOMPARE(editor.comboBox(QStringLiteral("cluster.gpu"))->currentData().toString(),
            QStringLiteral("a100-sxm4-80gb"));
        // NVLink 3 is 300 GB/s per direction (3.0e11 bytes/s), not "600 GB/s".
        QCOMPARE(editor.doubleSpinBox(QStringLiteral("cluster.intraNode.bandwidth"))->value(), 300.0);
        QCOMPARE(editor.doubleSpinBox(QStringLiteral("cluster.intraNode.bandwidth"))->value(),
            plan.cluster.intraNode.bandwidth / 1e9);
        QCOMPARE(editor.doubleSpinBox(QStringLiteral("cluster.interNode.bandwidth"))->value(),
            plan.cluster.interNode.bandwidth / 1e9);
        QCOMPARE(editor.doubleSpinBox(QStringLiteral("cluster.intraNode.latency"))->value(),
            plan.cluster.intraNode.latency * 1e6);
        QCOMPARE(editor.doubleSpinBox(QStringLiteral("training.tokens"))->value(), 2.0e12);
        QCOMPARE(editor.doubleSpinBox(QStringLiteral("training.tokens"))->text(), QStringLiteral("2e12"));
        QCOMPARE(editor.comboBox(QStringLiteral("training.precision"))->currentData().toString(),
            QStringLiteral("bf16"));
        QCOMPARE(editor.comboBox(QStringLiteral("training.gradDtype"))->currentData().toString(),
            QStringLiteral("fp32"));
        QCOMPARE(editor.comboBox(QStringLiteral("training.recompute"))->currentData().toString(),
            QStringLiteral("selective"));
        QCOMPARE(editor.comboBox(QStringLiteral("training.schedule"))->currentData().toString(),
            QStringLiteral("1f1b"));
        QCOMPARE(editor.comboBox(QStringLiteral("parallel.zero"))->currentData().toInt(), 1);
        QVERIFY(editor.checkBox(QStringLiteral("parallel.sp"))->isChecked());
        QVERIFY(editor.checkBox(QStringLiteral("model.gatedMlp"))->isChecked());
        QCOMPARE(editor.lineEdit(QStringLiteral("parallel.order"))->text(), QStringLiteral("tp-cp-ep-dp-pp"));
        QVERIFY(editor.autoDpCheck()->isChecked());
        QVERIFY(!editor.degreeSpin(QStringLiteral("dp"))->isEnabled());

        QVERIFY(validate(plan).empty());
        QCOMPARE(editor.summaryLabel()->text(), QStringLiteral("valid"));
        QVERIFY(editor.fieldError(QStringLiteral("parallel.pp")).isEmpty());
        QVERIFY(editor.fieldError(QStringLiteral("parallel")).isEmpty());
        QVERIFY(editor.predictionLabel()->text().contains(QStringLiteral("GiB")));
        QCOMPARE(editor.undoStack()->count(), 0);
        QVERIFY(!doc.isModified());
    }

    void invalidEditShowsValidateMessages()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));

        QSignalSpy predictions(&doc, &PlanDocument::predictionChanged);
        editor.degreeSpin(QStringLiteral("pp"))->setValue(3);

        // dp stays automatic: 16 GPUs / (tp 2 * pp 3) is not whole, so dp = 2 and dp*tp*pp*cp = 12.
        Plan expected = test::loadSample("default.plan.json");
        expected.parallel.pp = 3;
        expected.parallel.dp = 2;
        QCOMPARE(doc.plan(), expected);
        QCOMPARE(editor.plan(), expected);
        QVERIFY(doc.isModified());

        const QString ppError = issuesAt(expected, "parallel.pp");
        const QString groupError = issuesAt(expected, "parallel");
        QVERIFY(ppError.contains(QStringLiteral("layers 32 are not divisible by pp*1 = 3")));
        QVERIFY(groupError.contains(QStringLiteral("= 12 but the cluster has 2*8 = 16 GPUs")));
        QCOMPARE(editor.fieldError(QStringLiteral("parallel.pp")), ppError);
        QCOMPARE(editor.fieldError(QStringLiteral("parallel")), groupError);
        QVERIFY(editor.fieldError(QStringLiteral("parallel.tp")).isEmpty());
        const int errors = countErrors(validate(expected));
        QCOMPARE(errors, 2);
        QVERIFY2(editor.summaryLabel()->text().startsWith(QStringLiteral("2 errors")),
            qPrintable(editor.summaryLabel()->text()));

        // The label under the field shows it, in red.
        auto* ppLabel = editor.findChild<QLabel*>(QStringLiteral("error:parallel.pp"));
        QVERIFY(ppLabel);
        QVERIFY(!ppLabel->isHidden());
        QVERIFY(ppLabel->text().contains(ppError.toHtmlEscaped()));

        QVERIFY(waitForPrediction(predictions));
        QVERIFY(waitForCurrentPrediction(doc));
        QVERIFY(!doc.prediction()->valid);
        QVERIFY(editor.predictionLabel()->text().contains(QStringLiteral("invalid")));
    }

    void undoRedoRestoresPlanAndPrediction()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        const Plan original = doc.plan();
        QSpinBox* pp = editor.degreeSpin(QStringLiteral("pp"));

        pp->setValue(3);
        QCOMPARE(editor.undoStack()->count(), 1);
        const Plan edited = doc.plan();
        QCOMPARE(edited.parallel.pp, 3);
        QVERIFY(waitForCurrentPrediction(doc));
        QVERIFY(!doc.prediction()->valid);

        editor.undoStack()->undo();
        QCOMPARE(pp->value(), 4);
        QCOMPARE(doc.plan(), original);
        QVERIFY(editor.fieldError(QStringLiteral("parallel.pp")).isEmpty());
        QCOMPARE(editor.summaryLabel()->text(), QStringLiteral("valid"));
        QVERIFY(waitForCurrentPrediction(doc));
        QVERIFY(doc.prediction()->valid);

        editor.undoStack()->redo();
        QCOMPARE(pp->value(), 3);
        QCOMPARE(doc.plan(), edited);
        QCOMPARE(editor.fieldError(QStringLiteral("parallel.pp")), issuesAt(edited, "parallel.pp"));
        QVERIFY(waitForCurrentPrediction(doc));
        QVERIFY(!doc.prediction()->valid);

        // Consecutive edits of one field are one step; another field is the next.
        pp->setValue(8);
        QCOMPARE(editor.undoStack()->count(), 1);
        QCOMPARE(doc.plan().parallel.pp, 8);
        QCOMPARE(doc.plan().parallel.dp, 1); // auto: 16 / (2 * 8)
        editor.degreeSpin(QStringLiteral("tp"))->setValue(1);
        QCOMPARE(editor.undoStack()->count(), 2);
        QCOMPARE(doc.plan().parallel.dp, 2);
        QCOMPARE(editor.undoStack()->undoText(), QStringLiteral("Set Tensor parallel (tp) to 1"));
        editor.undoStack()->undo();
        editor.undoStack()->undo();
        QCOMPARE(doc.plan(), original);
        QCOMPARE(pp->value(), 4);
        // Typing a field back to its value leaves no step behind.
        pp->setValue(2);
        pp->setValue(4);
        QCOMPARE(editor.undoStack()->count(), 0);
        QCOMPARE(doc.plan(), original);
    }

    // A choice is one undo step per pick, named by what was picked: 1f1b -> gpipe -> interleaved is two steps.
    void choicesAreOneStepEach()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        QComboBox* schedule = editor.comboBox(QStringLiteral("training.schedule"));
        QVERIFY(schedule);
        QVERIFY(doc.plan().training.schedule == ScheduleKind::OneFOneB);
        schedule->setCurrentIndex(schedule->findText(QStringLiteral("gpipe")));
        QVERIFY(doc.plan().training.schedule == ScheduleKind::GPipe);
        schedule->setCurrentIndex(schedule->findText(QStringLiteral("interleaved-1f1b")));
        QVERIFY(doc.plan().training.schedule == ScheduleKind::Interleaved1F1B);
        QCOMPARE(editor.undoStack()->count(), 2);
        QCOMPARE(editor.undoStack()->undoText(), QStringLiteral("Set Pipeline schedule to interleaved-1f1b"));
        editor.undoStack()->undo();
        QVERIFY(doc.plan().training.schedule == ScheduleKind::GPipe);
        QCOMPARE(editor.undoStack()->undoText(), QStringLiteral("Set Pipeline schedule to gpipe"));
        editor.undoStack()->undo();
        QVERIFY(doc.plan().training.schedule == ScheduleKind::OneFOneB);
    }

    // The pipeline split as Megatron writes it: the two accounting flags and the layout string, each an edit of
    // its own field; a bad layout is shown under its field with the character named.
    void pipelineSplitFields()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "llama31-405b-pp8-vp8-h100.plan.json"));
        QVERIFY(editor.checkBox(QStringLiteral("parallel.embeddingInSplit"))->isChecked());
        QVERIFY(editor.checkBox(QStringLiteral("parallel.lossInSplit"))->isChecked());
        QLineEdit* layout = editor.lineEdit(QStringLiteral("parallel.layout"));
        QVERIFY(layout);
        QVERIFY(layout->text().isEmpty());
        // Under the field, each rank's layers: the recipe's 126 + 2 = 128 = 64 x 2 puts the embedding and one layer,
        // then 7 chunks of 2, on rank 0, and 7 chunks of 2 and one layer with the loss on rank 7.
        QVERIFY(editor.splitNote());
        const QString split = editor.splitNote()->text();
        QVERIFY2(split.contains(QStringLiteral("0: E1|2|2|2|2|2|2|2")), qPrintable(split));
        QVERIFY2(split.contains(QStringLiteral("3: 2|2|2|2|2|2|2|2")), qPrintable(split));
        QVERIFY2(split.contains(QStringLiteral("7: 2|2|2|2|2|2|2|1L")), qPrintable(split));

        // A layout replaces the flags (Megatron refuses both): clear them, then type one whose ')' is stray.
        editor.checkBox(QStringLiteral("parallel.embeddingInSplit"))->setChecked(false);
        editor.checkBox(QStringLiteral("parallel.lossInSplit"))->setChecked(false);
        QVERIFY(!doc.plan().parallel.embeddingInSplit && !doc.plan().parallel.lossInSplit);
        layout->setText(QStringLiteral("Et|tt)"));
        QCOMPARE(doc.plan().parallel.layout, std::string("Et|tt)"));
        QCOMPARE(editor.fieldError(QStringLiteral("parallel.layout")), issuesAt(doc.plan(), "parallel.layout"));
        QVERIFY2(editor.fieldError(QStringLiteral("parallel.layout")).contains(QLatin1String("')'")),
            qPrintable(editor.fieldError(QStringLiteral("parallel.layout"))));
        QCOMPARE(editor.undoStack()->undoText(), QStringLiteral("Set Pipeline layout to Et|tt)"));
        layout->clear();
        QVERIFY(doc.plan().parallel.layout.empty());
    }

    // Scrolling the form with the wheel passes over fields without editing them; a field the user clicked into takes
    // the wheel.
    void wheelScrollsPastFields()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        editor.resize(500, 700);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QSpinBox* layers = editor.spinBox(QStringLiteral("model.layers"));
        QVERIFY(layers);
        const int before = doc.plan().model.layers;
        auto wheel = [&] {
            const QPointF at(layers->width() / 2.0, layers->height() / 2.0);
            QWheelEvent event(at, layers->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                Qt::NoScrollPhase, false);
            QCoreApplication::sendEvent(layers, &event);
        };
        wheel();
        QCOMPARE(doc.plan().model.layers, before);
        QCOMPARE(editor.undoStack()->count(), 0);
        layers->setFocus();
        QVERIFY(QTest::qWaitFor([&] { return layers->hasFocus(); }));
        wheel();
        QCOMPARE(doc.plan().model.layers, before + 1);
    }

    // Starting on a file that cannot be read: the editor has no plan and shows no field errors of a plan nobody
    // typed (the load error is said once, elsewhere).
    void noPlanNoFieldErrors()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("truncated.plan.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{ \"schema\": \"planscope/plan/v1\", \"model\": { \"layers\": ");
        f.close();
        QVERIFY(!doc.load(bad));
        QVERIFY(!doc.hasPlan());
        int shown = 0;
        for (const QString& path : { QStringLiteral("parallel.pp"), QStringLiteral("parallel.tp"),
                 QStringLiteral("training.microBatch"), QStringLiteral("training.globalBatch"), QStringLiteral("model.layers") })
            if (!editor.fieldError(path).isEmpty()) ++shown;
        QCOMPARE(shown, 0);
    }

    void trainingChecksEditAndUndo_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("flashAttention") << QStringLiteral("training.flashAttention");
        QTest::newRow("overlapGradReduce") << QStringLiteral("training.overlapGradReduce");
        QTest::newRow("tpCommOverlap") << QStringLiteral("training.tpCommOverlap");
        QTest::newRow("overlapP2pComm") << QStringLiteral("training.overlapP2pComm");
    }
    void trainingChecksEditAndUndo()
    {
        QFETCH(QString, path);
        auto field = [&](Plan& p) -> bool& {
            if (path.endsWith(QLatin1String("flashAttention"))) return p.training.flashAttention;
            if (path.endsWith(QLatin1String("overlapGradReduce"))) return p.training.overlapGradReduce;
            if (path.endsWith(QLatin1String("overlapP2pComm"))) return p.training.overlapP2pComm;
            return p.training.tpCommOverlap;
        };
        auto value = [&](Plan p) { return field(p); };
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        const Plan original = doc.plan();
        QCheckBox* check = editor.checkBox(path);
        QVERIFY2(check, qPrintable(path));
        QVERIFY(!check->text().isEmpty());
        QVERIFY(!check->toolTip().isEmpty());
        // Shown in the training group.
        auto* box = qobject_cast<QGroupBox*>(check->parentWidget());
        QVERIFY(box);
        QCOMPARE(box->title(), QStringLiteral("Training"));

        // The box shows the sample's value; flipping it changes that field of the document's plan only, in one step.
        const bool before = value(original);
        QCOMPARE(check->isChecked(), before);
        check->setChecked(!before);
        QCOMPARE(value(doc.plan()), !before);
        QCOMPARE(value(editor.plan()), !before);
        Plan expected = original;
        field(expected) = !before;
        QCOMPARE(doc.plan(), expected);
        QCOMPARE(editor.undoStack()->count(), 1);
        QCOMPARE(editor.undoStack()->undoText(),
            QStringLiteral("Set %1 to %2").arg(check->text(), value(doc.plan()) ? QStringLiteral("on") : QStringLiteral("off")));
        QVERIFY(waitForCurrentPrediction(doc));
        QVERIFY(doc.prediction()->valid);

        editor.undoStack()->undo();
        QCOMPARE(value(doc.plan()), before);
        QCOMPARE(check->isChecked(), before);
        QCOMPARE(doc.plan(), original);

        editor.undoStack()->redo();
        QCOMPARE(value(doc.plan()), !before);
        QCOMPARE(check->isChecked(), !before);
    }

    // The fields the plan file gained with MoE as Megatron-Core runs it, MLA, fp8 recipes, offload and the host
    // (docs/PLAN-FILE.md):
    // each shows the sample's value, sits in its group with a label and a tooltip, and setting it changes that field of
    // the document's plan in one undo step that gives the plan back.
    void newFieldsEditAndUndo_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("group");
        // A field that only applies in some settings gets them first (one step of its own).
        QTest::addColumn<QString>("setupPath");
        QTest::addColumn<QString>("setupValue");
        const QString dense = QStringLiteral("default.plan.json");
        const QString deepseek = QStringLiteral("deepseek-v3-1024xh100-fp8.plan.json");
        const QString model = QStringLiteral("Model"), mla = QStringLiteral("Multi-head latent attention (MLA)"),
                      moe = QStringLiteral("Mixture of experts (MoE)"), training = QStringLiteral("Training"),
                      offload = QStringLiteral("Host offload"), host = QStringLiteral("Host (kernel issue)");
        struct Row {
            const QString& sample;
            const char* path;
            const char* value;
            const QString& group;
            const char* setupPath = "";
            const char* setupValue = "";
        };
        const Row rows[] = {
            { dense, "model.headDim", "96", model },
            { dense, "model.qkNorm", "true", model },
            { dense, "model.attentionSinks", "true", model },
            { deepseek, "model.mtpLayers", "2", model },
            { deepseek, "model.mla.kvLoraRank", "256", mla },
            { deepseek, "model.mla.qLoraRank", "1024", mla },
            { deepseek, "model.mla.qkNopeHeadDim", "96", mla },
            { deepseek, "model.mla.qkRopeHeadDim", "32", mla },
            { deepseek, "model.mla.vHeadDim", "96", mla },
            { deepseek, "model.moe.sharedExperts", "2", moe },
            { deepseek, "model.moe.sharedExpertFfnHidden", "4096", moe },
            { deepseek, "model.moe.denseLayers", "1", moe },
            { deepseek, "model.moe.routerBias", "false", moe },
            { deepseek, "model.moe.capacityFactor", "1.25", moe },
            { deepseek, "model.moe.dispatcher", "allgather", moe },
            { deepseek, "model.moe.groupedGemm", "false", moe },
            { deepseek, "model.moe.syncFree", "true", moe },
            { deepseek, "model.moe.imbalance", "1.5", moe },
            { deepseek, "parallel.etp", "2", QStringLiteral("Parallelism") },
            { deepseek, "training.fp8Recipe", "delayed", training },
            { deepseek, "training.fp8ParamGather", "false", training },
            { deepseek, "training.optimizerStateDtype", "fp16", training },
            { deepseek, "training.recomputeLayers", "4", training, "training.recompute", "full" },
            { deepseek, "training.recomputeMethod", "block", training, "training.recompute", "full" },
            { deepseek, "training.overlapMoeComm", "true", training },
            { deepseek, "training.host.cudaGraphs", "per-layer", host },
            { deepseek, "training.host.kernelSeconds", "20", host },
            { deepseek, "training.host.syncSeconds", "100", host },
            { deepseek, "training.host.graphLaunchSeconds", "10", host, "training.host.cudaGraphs", "per-layer" },
            { deepseek, "training.host.launchQueue", "256", host },
            { deepseek, "training.offload.optimizerFraction", "0.5", offload },
            { deepseek, "training.offload.activationLayers", "2", offload },
            { deepseek, "training.offload.pcieBandwidth", "5e+10", offload, "training.offload.optimizerFraction", "0.25" },
            { deepseek, "training.offload.hostBandwidth", "1e+11", offload, "training.offload.optimizerFraction", "0.25" },
        };
        for (const Row& r : rows)
            QTest::newRow(r.path) << r.sample << QString::fromLatin1(r.path) << QString::fromLatin1(r.value) << r.group
                                  << QString::fromLatin1(r.setupPath) << QString::fromLatin1(r.setupValue);
    }
    void newFieldsEditAndUndo()
    {
        QFETCH(QString, sample);
        QFETCH(QString, path);
        QFETCH(QString, value);
        QFETCH(QString, group);
        QFETCH(QString, setupPath);
        QFETCH(QString, setupValue);
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, sample.toLatin1().constData()));
        QWidget* w = editor.fieldWidget(path);
        QVERIFY2(w, qPrintable(path));
        QCOMPARE(groupTitle(w), group);
        QVERIFY(!fieldLabel(editor, w).isEmpty());
        QVERIFY(!w->toolTip().isEmpty());
        // The sample's value, as the file gives it.
        QCOMPARE(shownValue(w), planValue(test::loadSample(sample.toLatin1().constData()), path));

        if (!setupPath.isEmpty()) {
            QVERIFY(setField(editor, setupPath, setupValue));
            QCOMPARE(planValue(doc.plan(), setupPath), setupValue);
        }
        const Plan before = doc.plan();
        const int steps = editor.undoStack()->count();
        QVERIFY(w->isEnabled());
        QVERIFY(planValue(before, path) != value);

        QVERIFY(setField(editor, path, value));
        QCOMPARE(planValue(doc.plan(), path), value);
        QCOMPARE(planValue(editor.plan(), path), value);
        QCOMPARE(shownValue(w), value);
        QCOMPARE(editor.undoStack()->count(), steps + 1);
        // What validate() says about the field is what the editor shows under it.
        QCOMPARE(editor.fieldError(path), issuesAt(doc.plan(), path.toStdString()));

        editor.undoStack()->undo();
        QCOMPARE(doc.plan(), before);
        QCOMPARE(editor.plan(), before);
        QCOMPARE(shownValue(w), planValue(before, path));
        editor.undoStack()->redo();
        QCOMPARE(planValue(doc.plan(), path), value);
    }

    // The host's times are typed in microseconds and kept in seconds; a 0 shows the default it stands for, and a sync or
    // a graph launch left at 0 follows the kernel's time. A full-iteration graph over a dropless dispatcher that syncs
    // with the host is validate's error under the choice, until sync-free dispatch takes the sync away.
    void hostFieldsInMicroseconds()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "deepseek-v3-1024xh100-fp8.plan.json"));
        const Plan original = doc.plan();
        QVERIFY(original.training.host == HostSpec {});
        QDoubleSpinBox* kernel = editor.doubleSpinBox(QStringLiteral("training.host.kernelSeconds"));
        QDoubleSpinBox* sync = editor.doubleSpinBox(QStringLiteral("training.host.syncSeconds"));
        QDoubleSpinBox* launch = editor.doubleSpinBox(QStringLiteral("training.host.graphLaunchSeconds"));
        QSpinBox* queue = editor.spinBox(QStringLiteral("training.host.launchQueue"));
        QVERIFY(kernel && sync && launch && queue);
        QCOMPARE(kernel->text(), QString::fromUtf8("default (41 µs)"));
        QCOMPARE(sync->text(), QString::fromUtf8("= one kernel's issue (41 µs)"));
        QCOMPARE(launch->text(), QString::fromUtf8("= one kernel's issue (41 µs)"));
        QCOMPARE(queue->text(), QStringLiteral("default (1000)"));

        kernel->setValue(25.5);
        QVERIFY(qFuzzyCompare(doc.plan().training.host.kernelSeconds, 25.5e-6));
        QCOMPARE(sync->text(), QString::fromUtf8("= one kernel's issue (25.5 µs)"));
        sync->setValue(120);
        QVERIFY(qFuzzyCompare(doc.plan().training.host.syncSeconds, 120e-6));
        queue->setValue(64);
        QCOMPARE(doc.plan().training.host.launchQueue, 64);
        QCOMPARE(editor.undoStack()->count(), 3);

        // Graph launches only with graphs; the sync only while the dispatcher syncs.
        QVERIFY(!launch->isEnabled());
        QVERIFY(sync->isEnabled());
        QVERIFY(setField(editor, QStringLiteral("training.host.cudaGraphs"), QStringLiteral("full-iteration")));
        QVERIFY(doc.plan().training.host.cudaGraphs == CudaGraphs::FullIteration);
        QVERIFY(launch->isEnabled());
        launch->setValue(8);
        QVERIFY(qFuzzyCompare(doc.plan().training.host.graphLaunchSeconds, 8e-6));
        const QString graphError = editor.fieldError(QStringLiteral("training.host.cudaGraphs"));
        QVERIFY2(graphError.contains(QStringLiteral("model.moe.syncFree")), qPrintable(graphError));
        QCOMPARE(graphError, issuesAt(doc.plan(), "training.host.cudaGraphs"));
        QVERIFY(setField(editor, QStringLiteral("model.moe.syncFree"), QStringLiteral("true")));
        QVERIFY(editor.fieldError(QStringLiteral("training.host.cudaGraphs")).isEmpty());
        QVERIFY(!sync->isEnabled());

        // The imbalance stops at 1 (balanced): below it there is nothing to type.
        QDoubleSpinBox* imbalance = editor.doubleSpinBox(QStringLiteral("model.moe.imbalance"));
        QVERIFY(imbalance);
        QCOMPARE(imbalance->minimum(), 1.0);
        const int steps = editor.undoStack()->count();
        imbalance->setValue(0.5);
        QCOMPARE(doc.plan().model.moe.imbalance, 1.0);
        QCOMPARE(editor.undoStack()->count(), steps);

        while (editor.undoStack()->canUndo())
            editor.undoStack()->undo();
        QCOMPARE(doc.plan(), original);
        QCOMPARE(kernel->text(), QString::fromUtf8("default (41 µs)"));
        QVERIFY(!launch->isEnabled() && sync->isEnabled());
    }

    // The bandwidths take scientific notation typed over the "default" that 0 shows.
    void offloadRatesAreTyped()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "deepseek-v3-1024xh100-fp8.plan.json"));
        editor.doubleSpinBox(QStringLiteral("training.offload.optimizerFraction"))->setValue(0.5);
        QDoubleSpinBox* pcie = editor.doubleSpinBox(QStringLiteral("training.offload.pcieBandwidth"));
        QVERIFY(pcie && pcie->isEnabled());
        QCOMPARE(pcie->text(), QStringLiteral("default"));
        pcie->selectAll();
        QTest::keyClicks(pcie, QStringLiteral("4.5e10"));
        QTest::keyClick(pcie, Qt::Key_Return);
        QCOMPARE(doc.plan().training.offload.pcieBandwidth, 4.5e10);
        QCOMPARE(pcie->text(), QStringLiteral("4.5e10"));
        // Typed character by character, the field is one undo step besides the fraction's.
        QCOMPARE(editor.undoStack()->count(), 2);
        editor.undoStack()->undo();
        QCOMPARE(doc.plan().training.offload.pcieBandwidth, 0.0);
        QCOMPARE(pcie->text(), QStringLiteral("default"));
    }

    // Megatron-Core's --recompute-modules as boxes: each toggle is one undo step, the list keeps their order, and no
    // module chosen shows (and means) core_attn.
    void recomputeModulesToggle()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "deepseek-v3-1024xh100-fp8.plan.json"));
        const Plan original = doc.plan();
        QCOMPARE(original.training.recomputeModules, modules({ "mla_up_proj", "mlp" }));
        QCheckBox* coreAttn = editor.recomputeModuleCheck(QStringLiteral("core_attn"));
        QCheckBox* mlp = editor.recomputeModuleCheck(QStringLiteral("mlp"));
        QCheckBox* moeAct = editor.recomputeModuleCheck(QStringLiteral("moe_act"));
        QCheckBox* layernorm = editor.recomputeModuleCheck(QStringLiteral("layernorm"));
        QCheckBox* upProj = editor.recomputeModuleCheck(QStringLiteral("mla_up_proj"));
        QVERIFY(coreAttn && mlp && moeAct && layernorm && upProj);
        QVERIFY(!editor.recomputeModuleCheck(QStringLiteral("attention")));
        for (const char* name : { "core_attn", "mlp", "moe", "moe_act", "layernorm", "mla_up_proj", "shared_experts" }) {
            QCheckBox* box = editor.recomputeModuleCheck(QLatin1String(name));
            QVERIFY2(box && box->text() == QLatin1String(name), name);
            QVERIFY(!box->toolTip().isEmpty());
            QVERIFY(editor.fieldWidget(QStringLiteral("training.recomputeModules"))->isAncestorOf(box));
        }
        QVERIFY(mlp->isChecked() && upProj->isChecked() && !coreAttn->isChecked() && !moeAct->isChecked());

        moeAct->setChecked(true);
        QCOMPARE(doc.plan().training.recomputeModules, modules({ "mlp", "moe_act", "mla_up_proj" }));
        QCOMPARE(editor.undoStack()->count(), 1);
        QCOMPARE(editor.undoStack()->undoText(), QStringLiteral("Set Recomputed modules to mlp, moe_act, mla_up_proj"));
        layernorm->setChecked(true);
        QCOMPARE(doc.plan().training.recomputeModules, modules({ "mlp", "moe_act", "layernorm", "mla_up_proj" }));
        QCOMPARE(editor.undoStack()->count(), 2); // a toggle never merges with the one before
        editor.undoStack()->undo();
        QCOMPARE(doc.plan().training.recomputeModules, modules({ "mlp", "moe_act", "mla_up_proj" }));
        QVERIFY(!layernorm->isChecked());
        editor.undoStack()->undo();
        QCOMPARE(doc.plan(), original);
        QVERIFY(!moeAct->isChecked() && mlp->isChecked() && upProj->isChecked());

        // The default plan recomputes selectively with no module named: core_attn, shown ticked.
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        const Plan dense = doc.plan();
        QVERIFY(dense.training.recompute == Recompute::Selective);
        QVERIFY(dense.training.recomputeModules.empty());
        QVERIFY(coreAttn->isChecked() && !mlp->isChecked());
        mlp->setChecked(true);
        QCOMPARE(doc.plan().training.recomputeModules, modules({ "core_attn", "mlp" }));
        coreAttn->setChecked(false);
        QCOMPARE(doc.plan().training.recomputeModules, modules({ "mlp" }));
        QVERIFY(!coreAttn->isChecked());
        mlp->setChecked(false); // nothing chosen is core_attn again
        QVERIFY(doc.plan().training.recomputeModules.empty());
        QVERIFY(coreAttn->isChecked());
        QCOMPARE(editor.undoStack()->count(), 3);
        coreAttn->setChecked(false); // the default cannot be unticked into nothing: no step, the box comes back
        QCOMPARE(editor.undoStack()->count(), 3);
        QVERIFY(coreAttn->isChecked());
        QCOMPARE(doc.plan(), dense);
        editor.undoStack()->undo();
        QCOMPARE(doc.plan().training.recomputeModules, modules({ "mlp" }));
        editor.undoStack()->undo();
        editor.undoStack()->undo();
        QCOMPARE(doc.plan(), dense);
    }

    // A field that does not apply to the plan is disabled: the fp8 recipe outside fp8, the modules outside selective
    // recompute, the layer count and method outside full recompute, the MoE settings of a dense model, the MLA sizes
    // without a latent, the host rates with nothing offloaded, the all-to-all overlap without ep > 1, the host sync
    // without a dispatcher that syncs and the graph launch without graphs.
    void fieldsThatDoNotApplyAreDisabled()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        auto enabled = [&](const char* path) {
            QWidget* w = editor.fieldWidget(QLatin1String(path));
            return w && w->isEnabled();
        };
        QVERIFY(doc.plan().training.precision == Precision::BF16);
        QVERIFY(!enabled("training.fp8Recipe"));
        QVERIFY(!enabled("training.fp8ParamGather"));
        QVERIFY(enabled("training.recomputeModules"));
        QVERIFY(!enabled("training.recomputeLayers") && !enabled("training.recomputeMethod"));
        for (const char* path : { "model.moe.topK", "model.moe.sharedExperts", "model.moe.sharedExpertFfnHidden",
                 "model.moe.denseLayers", "model.moe.routerBias", "model.moe.capacityFactor", "model.moe.dispatcher",
                 "model.moe.groupedGemm", "model.moe.syncFree", "model.moe.imbalance", "parallel.etp",
                 "model.mla.qLoraRank", "model.mla.vHeadDim", "training.offload.pcieBandwidth",
                 "training.offload.hostBandwidth", "training.overlapMoeComm", "training.host.syncSeconds",
                 "training.host.graphLaunchSeconds" })
            QVERIFY2(!enabled(path), path);
        QVERIFY(enabled("model.moe.experts") && enabled("model.mla.kvLoraRank") && enabled("model.headDim"));
        // 0 names what it stands for: llama2-7b's 4096 / 32.
        QCOMPARE(editor.spinBox(QStringLiteral("model.headDim"))->text(), QStringLiteral("= hidden / heads (128)"));
        QCOMPARE(editor.spinBox(QStringLiteral("parallel.etp"))->text(), QStringLiteral("= tp (2)"));

        QVERIFY(setField(editor, QStringLiteral("training.precision"), QStringLiteral("fp8")));
        QVERIFY(enabled("training.fp8Recipe") && enabled("training.fp8ParamGather"));
        QVERIFY(setField(editor, QStringLiteral("training.recompute"), QStringLiteral("full")));
        QVERIFY(!enabled("training.recomputeModules"));
        QVERIFY(!editor.recomputeModuleCheck(QStringLiteral("mlp"))->isEnabled());
        QVERIFY(enabled("training.recomputeLayers") && enabled("training.recomputeMethod"));
        QVERIFY(setField(editor, QStringLiteral("training.recompute"), QStringLiteral("none")));
        QVERIFY(!enabled("training.recomputeModules") && !enabled("training.recomputeLayers"));
        QVERIFY(setField(editor, QStringLiteral("training.offload.activationLayers"), QStringLiteral("2")));
        QVERIFY(enabled("training.offload.pcieBandwidth") && !enabled("training.offload.hostBandwidth"));
        // Undone, the fields follow the plan back.
        while (editor.undoStack()->canUndo())
            editor.undoStack()->undo();
        QVERIFY(!enabled("training.fp8Recipe") && enabled("training.recomputeModules"));
        QVERIFY(!enabled("training.offload.pcieBandwidth"));

        // DeepSeek-V3: MoE, MLA (its own head sizes) and fp8.
        QVERIFY(loadSampleAndWait(doc, "deepseek-v3-1024xh100-fp8.plan.json"));
        QVERIFY(enabled("training.fp8Recipe") && enabled("model.moe.denseLayers") && enabled("parallel.etp"));
        QVERIFY(enabled("model.mla.qLoraRank") && enabled("model.moe.sharedExpertFfnHidden"));
        QVERIFY(!enabled("model.headDim"));
        QVERIFY(enabled("model.moe.syncFree") && enabled("model.moe.imbalance") && enabled("training.overlapMoeComm"));
        QVERIFY(enabled("training.host.cudaGraphs") && enabled("training.host.kernelSeconds"));
        QVERIFY(enabled("training.host.syncSeconds") && !enabled("training.host.graphLaunchSeconds"));
        QVERIFY(setField(editor, QStringLiteral("model.moe.syncFree"), QStringLiteral("true")));
        QVERIFY(!enabled("training.host.syncSeconds"));
        QVERIFY(setField(editor, QStringLiteral("training.host.cudaGraphs"), QStringLiteral("per-layer")));
        QVERIFY(enabled("training.host.graphLaunchSeconds"));
        QVERIFY(setField(editor, QStringLiteral("parallel.ep"), QStringLiteral("1")));
        QVERIFY(!enabled("training.overlapMoeComm"));
        editor.undoStack()->undo();
        editor.undoStack()->undo();
        editor.undoStack()->undo();
        QVERIFY(enabled("training.host.syncSeconds") && !enabled("training.host.graphLaunchSeconds"));
        QVERIFY(enabled("training.overlapMoeComm"));
        QCOMPARE(editor.comboBox(QStringLiteral("training.fp8Recipe"))->currentData().toString(), QStringLiteral("blockwise"));
        QVERIFY(setField(editor, QStringLiteral("training.precision"), QStringLiteral("bf16")));
        QVERIFY(!enabled("training.fp8Recipe") && !enabled("training.fp8ParamGather"));
        // fp8 weights left on under bf16: validate's warning sits under the box.
        QVERIFY(!editor.fieldError(QStringLiteral("training.fp8ParamGather")).isEmpty());
        QCOMPARE(editor.fieldError(QStringLiteral("training.fp8ParamGather")), issuesAt(doc.plan(), "training.fp8ParamGather"));
        // Modules named under full recompute: disabled, and validate's warning under them.
        QVERIFY(setField(editor, QStringLiteral("training.recompute"), QStringLiteral("full")));
        QVERIFY(!enabled("training.recomputeModules"));
        QVERIFY(!editor.fieldError(QStringLiteral("training.recomputeModules")).isEmpty());
        QCOMPARE(editor.fieldError(QStringLiteral("training.recomputeModules")),
            issuesAt(doc.plan(), "training.recomputeModules"));
    }

    void autoDpFollowsTheDegrees()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        QSpinBox* dp = editor.degreeSpin(QStringLiteral("dp"));

        editor.degreeSpin(QStringLiteral("tp"))->setValue(4);
        QCOMPARE(dp->value(), 1); // 16 / (4 * 4)
        QCOMPARE(doc.plan().parallel.dp, 1);
        QVERIFY(editor.fieldError(QStringLiteral("parallel")).isEmpty());
        editor.spinBox(QStringLiteral("cluster.nodes"))->setValue(4);
        QCOMPARE(doc.plan().parallel.dp, 2); // 32 / (4 * 4)

        editor.autoDpCheck()->setChecked(false);
        QVERIFY(dp->isEnabled());
        dp->setValue(3);
        QCOMPARE(doc.plan().parallel.dp, 3);
        QCOMPARE(editor.fieldError(QStringLiteral("parallel")), issuesAt(doc.plan(), "parallel"));
        QVERIFY(!editor.fieldError(QStringLiteral("parallel")).isEmpty());
        QCOMPARE(editor.fieldError(QStringLiteral("training.globalBatch")),
            issuesAt(doc.plan(), "training.globalBatch"));

        editor.autoDpCheck()->setChecked(true);
        QCOMPARE(doc.plan().parallel.dp, 2);
        QVERIFY(editor.fieldError(QStringLiteral("parallel")).isEmpty());
    }

    void presetFillsTheShape()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        QComboBox* preset = editor.comboBox(QStringLiteral("model.preset"));

        preset->setCurrentIndex(preset->findData(QStringLiteral("llama2-13b")));
        const ModelPreset* llama13 = PresetCatalog::builtin().model("llama2-13b");
        QVERIFY(llama13);
        QCOMPARE(editor.spinBox(QStringLiteral("model.hidden"))->value(), 5120);
        QCOMPARE(editor.spinBox(QStringLiteral("model.layers"))->value(), 40);
        QCOMPARE(editor.spinBox(QStringLiteral("model.heads"))->value(), 40);
        QCOMPARE(doc.plan().model, llama13->spec);
        QCOMPARE(doc.plan().model.hidden, 5120);

        // A shape edit makes the model custom; editing it back finds the preset again.
        QSpinBox* hidden = editor.spinBox(QStringLiteral("model.hidden"));
        hidden->setValue(5100);
        QCOMPARE(preset->currentData().toString(), QString());
        QVERIFY(doc.plan().model.preset.empty());
        QCOMPARE(editor.fieldError(QStringLiteral("model.hidden")), issuesAt(doc.plan(), "model.hidden"));
        QVERIFY(editor.fieldError(QStringLiteral("model.hidden"))
                    .contains(QStringLiteral("not divisible by heads 40")));
        hidden->setValue(5120);
        QCOMPARE(preset->currentData().toString(), QStringLiteral("llama2-13b"));
        QCOMPARE(doc.plan().model, llama13->spec);

        editor.undoStack()->undo(); // the hidden edits (one merged step)
        editor.undoStack()->undo(); // the preset
        QCOMPARE(preset->currentData().toString(), QStringLiteral("llama2-7b"));
        QCOMPARE(editor.spinBox(QStringLiteral("model.hidden"))->value(), 4096);
    }

    void gpuPresetBringsItsNode()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        QComboBox* gpu = editor.comboBox(QStringLiteral("cluster.gpu"));
        gpu->setCurrentIndex(gpu->findData(QStringLiteral("h100-sxm5-80gb")));
        const GpuPreset* h100 = PresetCatalog::builtin().gpu("h100-sxm5-80gb");
        QVERIFY(h100);
        const NodePreset* node = PresetCatalog::builtin().node(h100->spec.defaultNode);
        QVERIFY(node);
        QCOMPARE(doc.plan().cluster.gpu, h100->spec);
        QCOMPARE(doc.plan().cluster.intraNode, node->intraNode);
        QCOMPARE(editor.doubleSpinBox(QStringLiteral("cluster.intraNode.bandwidth"))->value(),
            node->intraNode.bandwidth / 1e9);
    }

    void loadingAFileRefreshesAndClearsTheStack()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        editor.degreeSpin(QStringLiteral("pp"))->setValue(3);
        QCOMPARE(editor.undoStack()->count(), 1);

        QVERIFY(loadSampleAndWait(doc, "interview-175b-256xa100.plan.json"));
        const Plan plan = test::loadSample("interview-175b-256xa100.plan.json");
        QCOMPARE(editor.undoStack()->count(), 0);
        QCOMPARE(editor.plan(), plan);
        QCOMPARE(editor.degreeSpin(QStringLiteral("tp"))->value(), plan.parallel.tp);
        QCOMPARE(editor.degreeSpin(QStringLiteral("pp"))->value(), plan.parallel.pp);
        QCOMPARE(editor.degreeSpin(QStringLiteral("dp"))->value(), plan.parallel.dp);
        QCOMPARE(editor.spinBox(QStringLiteral("model.hidden"))->value(), int(plan.model.hidden));
        QCOMPARE(editor.fieldError(QStringLiteral("parallel.pp")), issuesAt(plan, "parallel.pp"));
    }

    void realityCheckMatchesCore()
    {
        PlanDocument doc;
        RealityCheckBox box;
        box.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "interview-130b-256xa100-zero3.plan.json"));
        const Plan plan = doc.predictedPlan();
        QVERIFY(doc.prediction()->valid);

        // Untouched inputs follow the plan's claim: 1T tokens in 14 days at 45% MFU.
        QCOMPARE(box.daysSpin()->value(), 14.0);
        QCOMPARE(box.tokensSpin()->value(), 1e12);
        QCOMPARE(box.mfuSpin()->value(), 0.45);
        const RealityCheck claimed = realityCheck(plan, *doc.prediction(), 0, 0, 0);
        QCOMPARE(box.result().shortBy, claimed.shortBy);

        box.daysSpin()->setValue(14);
        box.tokensSpin()->setValue(1e12);
        box.mfuSpin()->setValue(0.45);
        const RealityCheck expected = realityCheck(plan, *doc.prediction(), 14, 1e12, 0.45);
        QVERIFY(!expected.possible);
        QVERIFY2(std::abs(expected.shortBy - 18.2) < 0.05, qPrintable(test::num(expected.shortBy)));
        QCOMPARE(box.result().shortBy, expected.shortBy);
        QCOMPARE(box.result().possible, false);
        QCOMPARE(box.verdictLabel()->text(), QStringLiteral("short by %1x").arg(expected.shortBy, 0, 'f', 1));
        QCOMPARE(box.verdictLabel()->text(), QStringLiteral("short by 18.2x"));
        QCOMPARE(box.messageLabel()->text(), QString::fromStdString(expected.message.english()));

        // Enough days make it possible.
        box.daysSpin()->setValue(300);
        const RealityCheck relaxed = realityCheck(plan, *doc.prediction(), 300, 1e12, 0.45);
        QVERIFY(relaxed.possible);
        QCOMPARE(box.result().possible, true);
        QCOMPARE(box.verdictLabel()->text(), QStringLiteral("possible"));
    }

    void realityCheckFollowsEdits()
    {
        // Inside the editor: the verdict follows the plan as the interviewer types the candidate's answer.
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "interview-130b-256xa100-zero3.plan.json"));
        RealityCheckBox* box = editor.realityCheckBox();
        QVERIFY(box->verdictLabel()->text().startsWith(QStringLiteral("short by")));

        editor.spinBox(QStringLiteral("cluster.nodes"))->setValue(64);
        QVERIFY(waitForCurrentPrediction(doc));
        const RealityCheck expected = realityCheck(doc.predictedPlan(), *doc.prediction(), 0, 0, 0);
        QCOMPARE(box->result().shortBy, expected.shortBy);
        // The file's dp = 2 is 256 / (tp 8 * pp 16), so dp is automatic: 512 / 128 now.
        QCOMPARE(doc.plan().parallel.dp, 4);
        QVERIFY(box->result().shortBy < 18.0);

        // What the interviewer typed stays through edits; a file loaded brings its own claim.
        box->daysSpin()->setValue(30);
        editor.spinBox(QStringLiteral("cluster.nodes"))->setValue(32);
        QVERIFY(waitForCurrentPrediction(doc));
        QCOMPARE(box->daysSpin()->value(), 30.0);
        QCOMPARE(
            box->result().shortBy, realityCheck(doc.predictedPlan(), *doc.prediction(), 30, 0, 0).shortBy);
        QVERIFY(loadSampleAndWait(doc, "interview-130b-256xa100-zero3.plan.json"));
        QVERIFY(waitForCurrentPrediction(doc));
        QCOMPARE(box->daysSpin()->value(), 14.0);
        QCOMPARE(box->verdictLabel()->text(), QStringLiteral("short by 18.2x"));
    }

    void languageChangeKeepsState()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        editor.degreeSpin(QStringLiteral("pp"))->setValue(3);
        const QString before = editor.fieldError(QStringLiteral("parallel.pp"));
        QEvent change(QEvent::LanguageChange);
        QCoreApplication::sendEvent(&editor, &change);
        QCOMPARE(editor.fieldError(QStringLiteral("parallel.pp")), before);
        QCOMPARE(editor.degreeSpin(QStringLiteral("pp"))->value(), 3);
        QCOMPARE(editor.undoStack()->count(), 1);
        QCOMPARE(editor.comboBox(QStringLiteral("parallel.zero"))->currentText(),
            QStringLiteral("1: optimizer states"));
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestEditor)

#include "tst_editor.moc"
