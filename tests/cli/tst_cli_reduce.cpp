// planscope-cli reduce / run-summary / compare-runs over a generated run of 200 ranks (scripts/make-rank-set.py, from
// the sample traces): one process, four shards merged, and planscope-reduce under `mpiexec -n 2` (where MPI is built)
// write the same bytes; the straggler the script makes is the slowest rank, the damaged file's head is summarized, the
// broken one is named; TP groups of 4 on nodes of 8 are intra-node, DP groups inter-node; the all-to-all imbalance is
// the script's own sizes (a2a_elements) worked out here. And `planscope-reduce search` under mpiexec: the plan search
// of one process.
#include "CliRunner.h"

#include "io/RunFile.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace planscope;
using namespace planscope::test;
using nlohmann::json;

namespace {

constexpr int kRanks = 200, kTp = 4, kStraggler = 37, kDamaged = 100, kBroken = 151;

std::string slurp(const QString& path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// make-rank-set.py's a2a_elements: the tokens an MoE rank sends.
std::int64_t a2aElements(int rank, int step, int index, std::int64_t base) { return base * (4 + (rank * 7 + step * 3 + index) % 5) / 6; }

#ifdef PLANSCOPE_REDUCE
// mpiexec's environment: two processes on CI's two cores; Open MPI refuses root and more processes than cores unless
// told (its mpirun(1) man page: OMPI_ALLOW_RUN_AS_ROOT, rmaps_base_oversubscribe), and containers lack the ptrace that
// its single-copy transport uses (btl_vader_single_copy_mechanism). MPICH ignores these variables.
QProcessEnvironment mpiEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_MCA_rmaps_base_oversubscribe"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_MCA_btl_vader_single_copy_mechanism"), QStringLiteral("none"));
    // PMIx's shared-memory store takes locks some containers refuse ("gds_ds12_lock_pthread.c"); its hash store does not.
    env.insert(QStringLiteral("PMIX_MCA_gds"), QStringLiteral("hash"));
    // Under the sanitizers (scripts/test.sh --sanitize): Open MPI keeps allocations past MPI_Finalize, which
    // tests/sanitizers/lsan.supp suppresses by library; its plugins stay loaded and the leaks' stacks are unwound
    // in full so that those frames are named (the fast unwinder stops in libraries built without frame pointers).
    env.insert(QStringLiteral("OMPI_MCA_mca_base_component_disable_dlclose"), QStringLiteral("1"));
    env.insert(QStringLiteral("PMIX_MCA_mca_base_component_disable_dlclose"), QStringLiteral("1"));
    if (env.contains(QStringLiteral("ASAN_OPTIONS")))
        env.insert(QStringLiteral("ASAN_OPTIONS"), env.value(QStringLiteral("ASAN_OPTIONS")) + QStringLiteral(":fast_unwind_on_malloc=0"));
    return env;
}
#endif

} // namespace

class TestCliReduce : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_traces;

    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_traces = m_dir.filePath(QStringLiteral("traces"));
        QProcess p;
        p.start(QStringLiteral("python3"),
            { QStringLiteral(PLANSCOPE_SOURCE_DIR "/scripts/make-rank-set.py"), m_traces, QStringLiteral("--ranks"), QString::number(kRanks),
                QStringLiteral("--tp"), QString::number(kTp), QStringLiteral("--straggler"), QString::number(kStraggler),
                QStringLiteral("--damaged"), QString::number(kDamaged), QStringLiteral("--broken"), QString::number(kBroken) });
        QVERIFY(p.waitForFinished(300000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    }

    void oneProcessAndShardsWriteTheSameBytes()
    {
        const CliRun whole = runCli({ QStringLiteral("reduce"), m_traces, QStringLiteral("--out"), path("whole.planscope-run"), QStringLiteral("--threads"), QStringLiteral("2") });
        QVERIFY2(whole.code == 0, whole.err.c_str());
        QVERIFY2(whole.out.find("199 ranks (world size 200) from 200 files") != std::string::npos, whole.out.c_str());
        QStringList merge { QStringLiteral("reduce"), QStringLiteral("--merge") };
        for (int i = 0; i < 4; ++i) {
            const QString shard = m_dir.filePath(QStringLiteral("shard%1.jsonl").arg(i));
            const CliRun r = runCli({ QStringLiteral("reduce"), m_traces, QStringLiteral("--shard"), QStringLiteral("%1/4").arg(i), QStringLiteral("--out"), shard });
            QVERIFY2(r.code == 0, r.err.c_str());
            QVERIFY2(r.out.find(QStringLiteral("files %1 to %2 of 200").arg(50 * i).arg(50 * i + 50).toStdString()) != std::string::npos, r.out.c_str());
            merge << shard;
        }
        // The shards in any order.
        merge.move(2, 5);
        merge << QStringLiteral("--out") << path("merged.planscope-run");
        const CliRun merged = runCli(merge);
        QVERIFY2(merged.code == 0, merged.err.c_str());
        const std::string a = slurp(path("whole.planscope-run")), b = slurp(path("merged.planscope-run"));
        QVERIFY(!a.empty());
        QVERIFY(a == b);
        // A shard missing: named.
        merge.removeAt(3);
        const CliRun partial = runCli(merge);
        QCOMPARE(partial.code, 2);
        QVERIFY2(partial.err.find("are missing") != std::string::npos, partial.err.c_str());
    }

    void theRunSaysWhoIsSlowAndWhy()
    {
        auto run = readRunFile(path("whole.planscope-run").toStdString());
        QVERIFY(run.ok());
        QCOMPARE(run->ranks.size(), std::size_t(kRanks - 1));
        QCOMPARE(run->gpusPerNode, 8); // devices 0..7 in the traces
        QVERIFY(run->gpusPerNodeInferred);
        QCOMPARE(run->failed.size(), std::size_t(1));
        QVERIFY(run->failed[0].file.ends_with("rank-00151.json.gz"));
        for (const RankSummary& r : run->ranks) {
            QCOMPARE(r.damaged.empty(), r.rank != kDamaged);
            QVERIFY(r.rank != kBroken);
        }
        // Groups: the default group's op:SendRecv of the sample traces, 64 TP groups and 4 DP groups (names 1..64, 65..68).
        int tp = 0, dp = 0;
        for (const GroupResult& g : run->groups) {
            if (g.desc == "TENSOR_MODEL_PARALLEL_GROUP") {
                ++tp;
                QCOMPARE(groupScope(g, run->gpusPerNode), std::string("intra-node"));
            } else if (g.desc == "DATA_PARALLEL_GROUP") {
                ++dp;
                QCOMPARE(groupScope(g, run->gpusPerNode), std::string("inter-node"));
                // The straggler's DP group waits for it.
                if (std::find(g.ranks.begin(), g.ranks.end(), kStraggler) != g.ranks.end()) QCOMPARE(g.straggler, kStraggler);
            }
        }
        QCOMPARE(tp, kRanks / kTp);
        QCOMPARE(dp, kTp);

        const CliRun summary = runCli({ QStringLiteral("run-summary"), path("whole.planscope-run"), QStringLiteral("--json") });
        QVERIFY2(summary.code == 0, summary.err.c_str());
        const json j = json::parse(summary.out);
        QCOMPARE(j["schema"].get<std::string>(), std::string("planscope/run-summary/v1"));
        QCOMPARE(j["slowest"][0]["rank"].get<int>(), kStraggler);
        // 2 ms late at each collective, plus its own random arrival of at most 0.3 ms (make-rank-set.py arrival()).
        const std::int64_t lag = j["slowest"][0]["lagNs"].get<std::int64_t>();
        QVERIFY2(lag >= 1'700'000 && lag <= 2'300'000, std::to_string(lag).c_str());
        QVERIFY(j["slowest"][0]["why"].get<std::string>().find("last to arrive") != std::string::npos);

        // The all-to-all imbalance of DP group 2 (ranks 2, 6, ..., 198): the group with every member's records (the
        // damaged rank 100 lost its collectives with the second half of its file, the broken 151 has none).
        const int g = 2;
        std::vector<int> members;
        for (int r = g; r < kRanks; r += kTp) members.push_back(r);
        std::vector<std::int64_t> permille;
        for (int step : { 551, 552 }) {
            std::int64_t max = 0, sum = 0;
            for (int r : members) {
                const std::int64_t e = a2aElements(r, step, 1, 2 << 20) * 2; // bf16
                max = std::max(max, e);
                sum += e;
            }
            permille.push_back(max * 1000 * std::int64_t(members.size()) / sum);
        }
        std::sort(permille.begin(), permille.end());
        bool found = false;
        for (const GroupResult& gr : run->groups)
            if (gr.desc == "DATA_PARALLEL_GROUP" && gr.ranks.front() == g) {
                QVERIFY(!gr.allToAll.empty());
                QCOMPARE(gr.allToAll[0].position, 0);
                QCOMPARE(gr.allToAll[0].instances, std::int64_t(2));
                QCOMPARE(gr.allToAll[0].medianPermille, permille[0]);
                QCOMPARE(gr.allToAll[0].worstPermille, permille[1]);
                found = true;
            }
        QVERIFY(found);

        const CliRun text = runCli({ QStringLiteral("run-summary"), path("whole.planscope-run") });
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.find("rank " + std::to_string(kStraggler)) != std::string::npos);
        QVERIFY(text.out.find("intra-node") != std::string::npos);
    }

    void twoRunsCompared()
    {
        // The run against itself: nothing moved.
        const CliRun same = runCli({ QStringLiteral("compare-runs"), path("whole.planscope-run"), path("merged.planscope-run"), QStringLiteral("--json") });
        QVERIFY2(same.code == 0, same.err.c_str());
        const json j = json::parse(same.out);
        QCOMPARE(j["schema"].get<std::string>(), std::string("planscope/run-compare/v1"));
        for (const json& d : j["phases"]) QCOMPARE(d["delta"].get<std::int64_t>(), std::int64_t(0));
        QVERIFY(j["onlyInA"].empty());
        // Against a run without the straggler: its lag is gone from the collectives' spread and the median rank's wait.
        const QString even = m_dir.filePath(QStringLiteral("even"));
        QProcess p;
        p.start(QStringLiteral("python3"), { QStringLiteral(PLANSCOPE_SOURCE_DIR "/scripts/make-rank-set.py"), even, QStringLiteral("--ranks"),
                                                QStringLiteral("32"), QStringLiteral("--tp"), QString::number(kTp) });
        QVERIFY(p.waitForFinished(120000));
        const CliRun diff = runCli({ QStringLiteral("compare-runs"), path("whole.planscope-run"), even, QStringLiteral("--json") });
        QVERIFY2(diff.code == 0, diff.err.c_str());
        const json k = json::parse(diff.out);
        QCOMPARE(k["phases"].size(), std::size_t(6));
        QVERIFY(!k["biggest"].get<std::string>().empty());
        // 32 ranks have DP groups of 8 and TP groups of 4 with the same descriptions: both runs have them.
        bool dpAllReduce = false;
        for (const json& c : k["collectives"]) dpAllReduce |= c["what"] == "DATA_PARALLEL_GROUP AllReduce";
        QVERIFY(dpAllReduce);
    }

#ifdef PLANSCOPE_REDUCE
    void mpiSearchIsOneSearch()
    {
        // planscope-reduce search: the plan search split over two MPI processes (issue 34), the same document as one
        // planscope-cli search but for time, threads and the cache's counters.
        // 64,512 plans (seven knobs, two GPU counts): a space the sanitized build searches in seconds.
        const QStringList options { QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/default.plan.json"), QStringLiteral("--json"),
            QStringLiteral("--top"), QStringLiteral("4"), QStringLiteral("--vary"), QStringLiteral("tp,pp,dp,microBatch,recompute,schedule,zero"),
            QStringLiteral("--gpus"), QStringLiteral("16,32") };
        const CliRun one = runCli(QStringList { QStringLiteral("search") } + options);
        QVERIFY2(one.code == 0, one.err.c_str());
        QProcess p;
        p.setProcessEnvironment(mpiEnvironment());
        p.start(QStringLiteral(PLANSCOPE_MPIEXEC),
            QStringList { QStringLiteral("-n"), QStringLiteral("2"), QStringLiteral(PLANSCOPE_REDUCE), QStringLiteral("search") } + options
                + QStringList { QStringLiteral("--out"), path("mpi-search.json") });
        QVERIFY(p.waitForFinished(600000));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
        json a = json::parse(one.out), b = json::parse(slurp(path("mpi-search.json")));
        for (json* d : { &a, &b })
            for (const char* k : { "seconds", "threads", "cacheHits", "cacheMisses" }) (*d)["space"].erase(k);
        QVERIFY(a == b);
    }

    void mpiReduceWritesTheSameBytes()
    {
        QProcess p;
        p.setProcessEnvironment(mpiEnvironment());
        p.start(QStringLiteral(PLANSCOPE_MPIEXEC), { QStringLiteral("-n"), QStringLiteral("2"), QStringLiteral(PLANSCOPE_REDUCE), m_traces,
                                                       QStringLiteral("--out"), path("mpi.planscope-run") });
        QVERIFY(p.waitForFinished(600000));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, err.constData());
        QVERIFY2(err.contains("200 trace files on 2 processes"), err.constData());
        QVERIFY2(err.contains("rank-00151.json.gz not read"), err.constData());
        QVERIFY(slurp(path("mpi.planscope-run")) == slurp(path("whole.planscope-run")));
    }
#endif
};

QTEST_GUILESS_MAIN(TestCliReduce)
#include "tst_cli_reduce.moc"
