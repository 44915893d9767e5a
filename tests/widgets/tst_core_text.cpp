// Core's text under zh_CN (widgets/CoreText): every warning, issue message, explanation note and source that the
// sample plans and a set of broken plans produce is a template of core (util/Text.h) and comes out in Chinese, with
// its numbers, paths and formulas kept; every template lupdate extracts from core/ has a translation; and the
// metrics page shows a translated derivation.
#include "GuiTestMain.h"
#include "TestUtil.h"

#include "CoreText.h"
#include "LanguageManager.h"
#include "analysis/Analysis.h"
#include "cost/RealityCheck.h"
#include "document/PlanDocument.h"
#include "io/PlanJson.h"
#include "pages/SummaryPage.h"
#include "spec/Validate.h"
#include "util/Units.h"
#include "calib/Profile.h"

#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QHash>
#include <QListWidget>
#include <QRegularExpression>
#include <QSet>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>
#include <QTextBrowser>
#include <QTranslator>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QXmlStreamReader>
#include <nlohmann/json.hpp>
#include <optional>

using namespace planscope;

namespace {

bool hasCjk(const QString& s)
{
    for (QChar c : s)
        if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF) return true;
    return false;
}

std::string readFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll().toStdString();
}

nlohmann::json defaultPlan()
{
    return nlohmann::json::parse(readFile(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/default.plan.json")));
}

// What one plan text makes core say: every text the GUI shows, by kind.
struct Said {
    QHash<QString, Issue> issues; // issues and warnings, by their English line
    QHash<QString, Text> texts; // explanation notes and sources, group collectives and algorithms, by their English
    QSet<QString> names; // one-word names core gives verbatim (AllReduce, p2p): shown as they are
    QSet<QString> verbatim; // anything else core gave without a template: must stay empty
    int notes = 0, sources = 0;
};

void collect(const std::string& text, Said& said)
{
    static const QRegularExpression name(QStringLiteral("^[A-Za-z0-9+_-]+$"));
    const auto add = [&](const Text& t) {
        const QString english = QString::fromStdString(t.english());
        if (english.isEmpty()) return;
        if (t.isTemplate())
            said.texts.insert(english, t);
        else
            (name.match(english).hasMatch() ? said.names : said.verbatim).insert(english);
    };
    const auto addIssue = [&](const Issue& i) {
        if (i.text.isTemplate())
            said.issues.insert(QString::fromStdString(issueLine(i)), i);
        else
            said.verbatim.insert(QString::fromStdString(issueLine(i)));
    };
    auto loaded = parsePlan(text);
    if (!loaded) {
        for (const Issue& i : loaded.errors())
            addIssue(i);
        return;
    }
    for (const Issue& i : loaded->warnings)
        addIssue(i);
    for (const Issue& i : validate(loaded->plan))
        addIssue(i);
    AnalysisOptions options;
    options.explain = true;
    options.inputWarnings = loaded->warnings;
    const auto a = analyse(loaded->plan, options);
    for (const Prediction* p : { &a->prediction, &a->analytic }) {
        for (const Issue& i : p->errors)
            addIssue(i);
        for (const Issue& w : p->warnings)
            addIssue(w);
        for (const CommGroup& g : p->comm) {
            add(g.collective);
            add(g.algorithm);
        }
    }
    for (const Issue& i : a->timelineErrors)
        addIssue(i);
    if (a->valid()) {
        for (const RealityCheck& rc : { realityCheck(a->plan, a->prediction, 30, 1e12, 0.4),
                 realityCheck(a->plan, a->prediction, 1, 1e15, 0.4), realityCheck(a->plan, a->prediction, 0, 0, 0.4) })
            addIssue(issue(Severity::Warning, "", rc.message));
    }
    for (const auto& [field, e] : a->explainer->entries()) {
        if (!e.note.empty()) ++said.notes;
        if (!e.source.empty()) ++said.sources;
        add(e.note);
        add(e.source);
    }
}

// The default plan with one change at a JSON pointer (null removes the key).
std::string variant(const char* pointer, const nlohmann::json& value)
{
    nlohmann::json j = defaultPlan();
    const nlohmann::json::json_pointer p(pointer);
    if (value.is_null())
        j[p.parent_pointer()].erase(p.back());
    else
        j[p] = value;
    return j.dump();
}

std::string variant(std::initializer_list<std::pair<const char*, nlohmann::json>> changes)
{
    nlohmann::json j = defaultPlan();
    for (const auto& [pointer, value] : changes)
        j[nlohmann::json::json_pointer(pointer)] = value;
    return j.dump();
}

} // namespace

class TestCoreText : public QObject {
    Q_OBJECT

    QTranslator m_translator;

    void installChinese() { QCoreApplication::installTranslator(&m_translator); }
    void removeChinese() { QCoreApplication::removeTranslator(&m_translator); }

    static Said everything()
    {
        Said said;
        const QDir dir(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans"));
        const QStringList plans = dir.entryList({ QStringLiteral("*.plan.json") }, QDir::Files, QDir::Name);
        for (const QString& name : plans)
            collect(readFile(dir.filePath(name)), said);
        // Broken plans: bad values, wrong types, missing fields, unknown keys and presets, bad JSON.
        for (const std::string& text : {
                 std::string(),
                 std::string("  \n"),
                 std::string("{ \"schema\": "),
                 std::string("[1, 2]"),
                 variant("/training/globalBatch", -64),
                 variant("/parallel/tp", "two"),
                 variant("/parallel/pp", 2.5),
                 variant("/parallel/sp", 1),
                 variant("/training/schedule", "2f2b"),
                 variant("/cluster/gpu", "z100"),
                 variant("/model/preset", "gpt-5"),
                 variant("/model", nullptr),
                 variant("/cluster", nullptr),
                 variant("/cluster/nodes", nullptr),
                 variant("/schema", nullptr),
                 variant("/training/globalBatch", nullptr),
                 variant("/parallel/tpp", 2),
                 variant("/colour", "blue"),
                 variant("/schema", "planscope/plan/v9"),
                 variant("/memoryOverheads", nlohmann::json { { "fragmentation", 1.5 } }),
                 variant("/model", nlohmann::json { { "layers", 32 } }),
                 variant("/parallel/dp", 3),
                 variant("/parallel/tp", 3),
                 variant("/parallel/pp", 3),
                 variant("/training/globalBatch", 65),
                 variant("/parallel/order", "tp-tp-dp-pp"),
                 variant("/parallel/order", "tp-xx-dp-pp-cp-ep"),
                 variant("/parallel/ep", 2),
                 variant("/parallel/zero", 3),
                 variant("/parallel/fsdp", "full"),
                 variant("/training/tokens", 0),
                 variant("/training/precision", "fp8"),
                 variant("/training/gradDtype", "bf16"),
                 variant("/training/tpCommOverlap", true),
                 variant("/training/overlapP2pComm", true),
                 // Does not fit in memory.
                 variant({ { "/training/recompute", "none" }, { "/training/microBatch", 8 },
                     { "/training/globalBatch", 128 } }),
                 variant({ { "/training/recompute", "full" }, { "/training/schedule", "gpipe" } }),
                 variant({ { "/training/schedule", "interleaved-1f1b" }, { "/parallel/vpp", 2 } }),
                 variant({ { "/training/schedule", "interleaved-1f1b" }, { "/parallel/vpp", 1 } }),
                 variant({ { "/training/schedule", "zb-h1" } }),
                 variant({ { "/training/schedule", "zb-v" }, { "/parallel/vpp", 2 } }),
                 variant({ { "/training/schedule", "dualpipe" } }),
                 variant({ { "/training/schedule", "dualpipe-v" }, { "/parallel/vpp", 2 } }),
                 variant({ { "/training/schedule", "gpipe" }, { "/parallel/vpp", 2 } }),
                 variant({ { "/parallel/tp", 1 }, { "/parallel/dp", 4 } }),
                 variant({ { "/parallel/cp", 2 }, { "/parallel/dp", 1 } }),
                 variant({ { "/parallel/tp", 16 }, { "/parallel/dp", 1 }, { "/parallel/pp", 1 },
                     { "/model/preset", "llama2-70b" } }),
                 variant({ { "/model/preset", "mixtral-8x7b" }, { "/parallel/ep", 2 }, { "/parallel/pp", 4 },
                     { "/parallel/tp", 2 }, { "/parallel/dp", 2 } }),
                 // The host and the MoE layer as Megatron-Core runs it: the all-to-all overlap without experts and
                 // with pp > 1 but no interleaving, a full-iteration graph over a dispatcher that syncs, an
                 // imbalance under 1.
                 variant("/training/overlapMoeComm", true),
                 variant({ { "/model/preset", "mixtral-8x7b" }, { "/parallel/ep", 2 }, { "/parallel/pp", 4 },
                     { "/parallel/tp", 2 }, { "/parallel/dp", 2 }, { "/training/overlapMoeComm", true } }),
                 variant({ { "/model/preset", "mixtral-8x7b" }, { "/parallel/ep", 2 }, { "/parallel/pp", 4 },
                     { "/parallel/tp", 2 }, { "/parallel/dp", 2 }, { "/training/host/cudaGraphs", "full-iteration" } }),
                 variant({ { "/model/preset", "mixtral-8x7b" }, { "/model/moe/imbalance", 0.5 } }),
                 // A pipeline layout (Megatron-Core's pipeline_model_parallel_layout): unparsable, or not
                 // this shape.
                 variant("/parallel/layout", "(Et|t"),
                 variant("/parallel/layout", std::string("E\x07t")),
                 variant("/parallel/layout", "Et*8|t*8|t*8|t*7L"),
                 variant("/parallel/layout", "Et*8|t*8|t*8|t*8L"),
                 variant("/parallel/layout", "tE*8|t*8|t*8|t*8"),
                 variant({ { "/parallel/embeddingInSplit", true }, { "/parallel/lossInSplit", true } }),
                 variant({ { "/training/optimizer", "sgd" }, { "/training/precision", "fp16" },
                     { "/parallel/zero", 2 } }),
             })
            collect(text, said);
        // A calibration from a real nccl-tests run (2 nodes of 8 H100, tests/data/nccl-tests/README.md) on a plan of
        // H100s: its terms open the prediction's warnings.
        const auto profile = importNcclTests(
            readFile(QStringLiteral(PLANSCOPE_SOURCE_DIR "/tests/data/nccl-tests/h100-2x8-all_reduce_perf-oci.txt")));
        if (profile) {
            const Plan plan = test::loadSample("llama3-70b-fp8-64xh100.plan.json");
            AnalysisOptions options;
            options.calibration = calibrationFromProfile(profile.value(), plan);
            const auto calibrated = analyse(plan, options);
            for (const Issue& w : calibrated->prediction.warnings)
                said.issues.insert(QString::fromStdString(issueLine(w)), w);
        }
        return said;
    }
    // everything(), computed once: it does not depend on the language.
    const Said& said()
    {
        if (!m_said) m_said = everything();
        return *m_said;
    }
    std::optional<Said> m_said;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_translator.load(LanguageManager::translationResource(QStringLiteral("zh_CN"))));
    }

    // Under English every text comes back exactly as core wrote it.
    void englishIsUnchanged()
    {
        removeChinese();
        const Said& said = this->said();
        QVERIFY(said.issues.size() > 50);
        for (auto it = said.texts.cbegin(); it != said.texts.cend(); ++it)
            QCOMPARE(CoreText::text(it.value()), it.key());
        for (auto it = said.issues.cbegin(); it != said.issues.cend(); ++it) {
            QCOMPARE(CoreText::line(it.value()), it.key());
            QCOMPARE(CoreText::text(it.value()), QString::fromStdString(it.value().message));
        }
        // The derivation reads as planscope-cli explain prints it.
        AnalysisOptions options;
        options.explain = true;
        const auto a = analyse(test::loadSample("default.plan.json"), options);
        for (const auto& [field, e] : a->explainer->entries())
            QCOMPARE(CoreText::explanation(*a->explainer, field),
                QString::fromStdString(formatExplanation(*a->explainer, field)));
    }

    // Under zh_CN every text the samples and the broken plans produce is a template of core and comes out in
    // Chinese.
    void everyCoreTextIsTranslated()
    {
        installChinese();
        const Said& said = this->said();
        QVERIFY2(said.notes > 100, qPrintable(QString::number(said.notes)));
        QVERIFY2(said.sources > 100, qPrintable(QString::number(said.sources)));
        QVERIFY2(said.texts.size() > 100, qPrintable(QString::number(said.texts.size())));
        QVERIFY2(said.verbatim.isEmpty(), qPrintable(QStringList(said.verbatim.values()).join(QLatin1Char('\n'))));
        QStringList failures;
        for (auto it = said.texts.cbegin(); it != said.texts.cend(); ++it) {
            const QString zh = CoreText::text(it.value());
            if (!hasCjk(zh)) failures << QStringLiteral("%1\n    -> %2").arg(it.key(), zh);
        }
        for (auto it = said.issues.cbegin(); it != said.issues.cend(); ++it) {
            const QString zh = CoreText::line(it.value());
            if (!hasCjk(zh)) failures << QStringLiteral("%1\n    -> %2").arg(it.key(), zh);
        }
        failures.sort();
        QVERIFY2(failures.isEmpty(),
            qPrintable(QStringLiteral("%1 not translated:\n").arg(failures.size())
                + failures.join(QLatin1Char('\n'))));
        QVERIFY(said.names.contains(QStringLiteral("AllReduce")));
        for (const QString& s : said.names)
            QCOMPARE(CoreText::text(Text::verbatim(s.toStdString())), s);
        removeChinese();
    }

    // Every template core writes (PS_TEXT, util/Text.h), extracted from core/ by lupdate as the .ts update does
    // (resources/CMakeLists.txt), has a Chinese translation that keeps its placeholders: a new sentence in core is
    // translated or fails here.
    void everyCoreTemplateIsTranslated()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QStringList arguments { QStringLiteral("-silent"), QStringLiteral("-locations"), QStringLiteral("none"),
            QStringLiteral("-tr-function-alias"), QStringLiteral(PLANSCOPE_LUPDATE_ALIAS) };
        QDirIterator files(QStringLiteral(PLANSCOPE_SOURCE_DIR "/core"), { QStringLiteral("*.cpp"), QStringLiteral("*.h") },
            QDir::Files, QDirIterator::Subdirectories);
        int sources = 0;
        while (files.hasNext()) {
            arguments << files.next();
            ++sources;
        }
        QVERIFY(sources > 50);
        const QString ts = dir.filePath(QStringLiteral("core.ts"));
        arguments << QStringLiteral("-ts") << ts;
        QProcess lupdate;
        lupdate.start(QStringLiteral(PLANSCOPE_LUPDATE), arguments);
        QVERIFY(lupdate.waitForFinished(300000));
        QVERIFY2(lupdate.exitStatus() == QProcess::NormalExit && lupdate.exitCode() == 0,
            lupdate.readAllStandardError().constData());

        QFile file(ts);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&file);
        QString context;
        QList<QPair<QString, QString>> templates;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement) continue;
            if (xml.name() == QLatin1String("name"))
                context = xml.readElementText();
            else if (xml.name() == QLatin1String("source"))
                templates.append({ context, xml.readElementText() });
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        // The sentences of the files written as templates are among them (spec/Validate.cpp, io/JsonReader.h,
        // calib/NcclTestsImport.cpp, cost/Evaluate.cpp), each found once whatever the number of its call sites.
        for (const char* known : { "tp %1 does not divide the %2 attention heads", "must be between %1 and %2, found %3",
                 "no result rows under the nccl-tests table header", "not set; trainingDays is 0" })
            QVERIFY2(templates.contains({ QStringLiteral("CoreText"), QString::fromUtf8(known) }), known);

        static const QRegularExpression placeholder(QStringLiteral("%(\\d+)"));
        const auto placeholders = [](const QString& text) {
            QList<int> numbers;
            for (auto it = placeholder.globalMatch(text); it.hasNext();)
                numbers << it.next().captured(1).toInt();
            std::sort(numbers.begin(), numbers.end());
            numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
            return numbers;
        };
        QStringList missing, mismatched;
        for (const auto& [ctx, source] : templates) {
            const QString zh = m_translator.translate(ctx.toUtf8().constData(), source.toUtf8().constData());
            if (zh.isEmpty())
                missing << QStringLiteral("%1: %2").arg(ctx, source);
            else if (placeholders(zh) != placeholders(source))
                mismatched << QStringLiteral("%1\n    -> %2").arg(source, zh);
        }
        QVERIFY2(missing.isEmpty(),
            qPrintable(QStringLiteral("%1 of %2 templates without a translation:\n").arg(missing.size()).arg(templates.size())
                + missing.join(QLatin1Char('\n'))));
        QVERIFY2(mismatched.isEmpty(), qPrintable(mismatched.join(QLatin1Char('\n'))));
    }

    // Sentences core writes as templates, taken from the call that writes them (the reader, validate(), the
    // prediction, the calibration, the reality check): the line the GUI shows under zh_CN, and the English the
    // CLI prints.
    void exactTemplateTranslations_data()
    {
        QTest::addColumn<QString>("english");
        QTest::addColumn<QString>("chinese");
        const auto row = [](const char* name, const char* english, const char* chinese) {
            QTest::newRow(name) << QString::fromUtf8(english) << QString::fromUtf8(chinese);
        };
        row("range", "training.globalBatch: must be between 1 and 1e+12, found -64",
            "training.globalBatch：必须在 1 到 1e+12 之间，实际为 -64");
        row("did you mean", "parallel.tpp: unknown field, ignored; did you mean \"tp\"?",
            "parallel.tpp：未知字段，已忽略；是否想写 \"tp\"？");
        row("gpus", "parallel: dp*tp*pp*cp = 3*2*4*1 = 24 but the cluster has 2*8 = 16 GPUs",
            "parallel：dp*tp*pp*cp = 3*2*4*1 = 24，但集群共有 2*8 = 16 块 GPU");
        row("message inside a message",
            "parallel.order: \"tp-xx-dp-pp-cp-ep\": unknown name \"xx\"; use tp, cp, ep, dp and pp joined by '-'",
            "parallel.order：\"tp-xx-dp-pp-cp-ep\"：未知名称 \"xx\"；请用 '-' 连接 tp、cp、ep、dp 和 pp");
        row("layout byte", "parallel.layout: unexpected byte 7 at character 2",
            "parallel.layout：第 2 个字符处出现意外的 字节 7");
        row("reality check",
            "not possible: 1e+12 tokens need 46.08 ZFLOP (6*N*T = 40.43 ZFLOP) but 16 GPUs x 312.00 TFLOP/s x 40% MFU x 30 "
            "days = 5.18 ZFLOP; short by 8.9x (it would take 267.1 days)",
            "不可行：1e+12 个 token 需要 46.08 ZFLOP（6*N*T = 40.43 ZFLOP），但 16 块 GPU x 312.00 TFLOP/s x 40% MFU x 30 "
            "天 = 5.18 ZFLOP；差 8.9 倍（需要 267.1 天）");
        // Three templates deep: the note, the path and its term, the fit the term describes.
        row("calibration",
            "calibrated: cluster.interNode: AllReduce on 16 GPUs (2 nodes), alpha 6.45 us, busBw 466.4 GB/s -> latency "
            "6.45 us, efficiency 1.166 of 50.0 GB/s per GPU (busBw / (8 GPUs per node x the NIC bandwidth per GPU))",
            "已校准：cluster.interNode：AllReduce，16 块 GPU（2 个节点），alpha 6.45 us，busBw 466.4 GB/s -> 延迟 6.45 "
            "us，效率为每块 GPU 50.0 GB/s 的 1.166（busBw / (每节点 8 块 GPU x 每块 GPU 的网卡带宽)）");
    }
    void exactTemplateTranslations()
    {
        QFETCH(QString, english);
        QFETCH(QString, chinese);
        const auto& issues = said().issues;
        const auto it = issues.constFind(english);
        QVERIFY2(it != issues.cend(), qPrintable(QStringList(issues.keys()).join(QLatin1Char('\n'))));
        installChinese();
        const QString zh = CoreText::line(it.value());
        removeChinese();
        QCOMPARE(zh, chinese);
        QCOMPARE(CoreText::line(it.value()), english);
    }

    // Explanations of the default plan as the metrics page shows them under zh_CN, each a join of templates: its
    // sentences put together without a blank, a list's items with "；", a value inside its own sentence.
    void exactTranslations_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<bool>("source"); // the source, else the note
        QTest::addColumn<QStringList>("chinese"); // what the Chinese holds, in order
        QTest::newRow("note, two sentences")
            << QStringLiteral("time.stepSeconds") << false
            << QStringList { QStringLiteral("pipeline：仿真步中最后一个算子的结束时刻；tail：未被最后一次反向隐藏的梯度归约、"
                                            "优化器步骤和参数 all-gather。解析估计为 ") };
        QTest::newRow("note with a list")
            << QStringLiteral("comm.groups.0.seconds") << false
            << QStringList { QStringLiteral("算法：环形（节点内）；位于单个节点内。layers：最慢 rank（3）上每个微批次经过的"
                                            "层数。每层：tp.allgather.qkv AllGather：32.0 MiB "),
                   QStringLiteral(" us；tp.reducescatter.proj ReduceScatter：32.0 MiB "),
                   QStringLiteral(" us（已重叠，暴露 0.00 us）；") };
        QTest::newRow("sources joined")
            << QStringLiteral("comm.groups.0.bytesPerStep") << true
            << QStringList { QStringLiteral("NVIDIA/nccl-tests doc/PERFORMANCE.md（algBw、busBw 系数）；Narayanan 等（SC21），式 3 及附录") };
        QTest::newRow("saved tensors")
            << QStringLiteral("memory.stages.0.activationsPerLayerBytes") << false
            << QStringList { QStringLiteral("每层、每个微批次、每块 GPU（s = seqLength/cp）。Korthikanti 论文的表 2 在 f = 4h "
                                            "且有 dropout 时给出 c1 = 10、c2 = 24、k = 5；这里由模块推导出每个保存的张量："
                                            "input_norm.input 16.0 MiB；qkv.input 16.0 MiB；q.k.v 48.0 MiB；"
                                            "attention.scores 512.0 MiB（重计算：core_attn）；") };
    }

    void exactTranslations()
    {
        QFETCH(QString, field);
        QFETCH(bool, source);
        QFETCH(QStringList, chinese);
        AnalysisOptions options;
        options.explain = true;
        const auto a = analyse(test::loadSample("default.plan.json"), options);
        const Explanation* e = a->explainer->find(field.toStdString());
        QVERIFY(e);
        const Text& text = source ? e->source : e->note;
        QVERIFY(text.isTemplate());
        installChinese();
        const QString zh = CoreText::text(text);
        removeChinese();
        qsizetype at = 0;
        for (const QString& part : chinese) {
            const qsizetype found = zh.indexOf(part, at);
            QVERIFY2(found >= 0, qPrintable(part + QStringLiteral("\n  not in\n") + zh));
            at = found + part.size();
        }
        if (field == QLatin1String("time.stepSeconds")) // the analytic step, inside its sentence
            QVERIFY(zh.endsWith(QStringLiteral("解析估计为 %1。").arg(QString::fromStdString(units::formatSeconds(a->analytic.stepSeconds)))));
        QCOMPARE(CoreText::text(text), QString::fromStdString(text.english())); // back in English
    }

    // Text core gives verbatim (a name, a number, a path) is shown as it is, in any language; an empty text is
    // empty.
    void verbatimTextStays()
    {
        installChinese();
        const QString name = CoreText::text(Text::verbatim("tp.allgather.qkv"));
        const QString empty = CoreText::text(Text());
        const QString joined = CoreText::text(Text::join({ Text::verbatim("a"), Text(), Text::verbatim("b") }, Text::Joint::List));
        removeChinese();
        QCOMPARE(name, QStringLiteral("tp.allgather.qkv"));
        QCOMPARE(empty, QString());
        QCOMPARE(joined, QStringLiteral("a；b")); // the empty part left out, the Chinese list separator between
        QCOMPARE(CoreText::text(Text::join({ Text::verbatim("a"), Text::verbatim("b") }, Text::Joint::List)),
            QStringLiteral("a; b"));
    }

    // The metrics page under zh_CN: the derivation of time.stepSeconds, its warnings and a broken plan's
    // errors.
    void summaryPageShowsChinese()
    {
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        PlanDocument doc;
        SummaryPage page;
        page.setDocument(&doc);
        QSignalSpy ready(&doc, &PlanDocument::predictionChanged);
        QVERIFY(doc.load(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/default.plan.json")));
        QVERIFY(ready.count() > 0 || ready.wait(20000));
        QCoreApplication::processEvents();
        page.selectField(QStringLiteral("time.stepSeconds"));
        QCoreApplication::processEvents();
        const QString derivation = page.explanationView()->toPlainText();
        QVERIFY2(derivation.contains(QStringLiteral("公式：pipeline + tail")), qPrintable(derivation));
        QVERIFY2(derivation.contains(QStringLiteral("pipeline：仿真步中最后一个算子的结束时刻")),
            qPrintable(derivation));
        QVERIFY2(derivation.contains(QStringLiteral("来源：按调度的算子顺序进行列表调度仿真")),
            qPrintable(derivation));
        QVERIFY2(!derivation.contains(QStringLiteral("the last op's end")), qPrintable(derivation));
        QListWidget* issues = page.issueList();
        bool notModelled = false;
        for (int i = 0; i < issues->count(); ++i)
            notModelled = notModelled || issues->item(i)->text().contains(QStringLiteral("未建模："));
        QVERIFY(notModelled);
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestCoreText)

#include "tst_core_text.moc"
