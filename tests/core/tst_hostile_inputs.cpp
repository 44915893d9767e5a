// Big and hostile inputs (issue 16, item 4): each either works or is refused with a message naming the field or the
// size, never a hang or an allocation sized by the input. The heavy cases (a 2 GB trace, a 100 MB plan through the
// binaries) are scripts/hostile-inputs.sh; docs/RELIABILITY.md records both.
#include "TestUtil.h"

#include "analysis/Analysis.h"
#include "calib/Profile.h"
#include "io/FileKind.h"
#include "io/ReadControl.h"
#include "schedule/Schedule.h"
#include "trace/TraceFiles.h"
#include "util/InputFile.h"

#include <QObject>
#include <QTemporaryDir>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fstream>
#include <functional>
#include <linux/capability.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace planscope;
using nlohmann::json;

namespace {
json defaultPlan()
{
    auto text = readTextFile(test::samplePath("default.plan.json"));
    return text ? json::parse(text.value()) : json();
}

// The default sample plan with other parallel degrees and global batch.
Plan defaultPlanWith(int pp, int tp, int dp, std::int64_t globalBatch)
{
    json plan = defaultPlan();
    plan["parallel"]["pp"] = pp;
    plan["parallel"]["tp"] = tp;
    plan["parallel"]["dp"] = dp;
    plan["training"]["globalBatch"] = globalBatch;
    return test::planFromText(plan.dump());
}

// The first issue of a failed load, as "path: message".
std::string firstError(const Result<LoadedPlan>& r)
{
    return r ? std::string() : r.errors().front().path + ": " + r.errors().front().message;
}

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// Runs `read` in a child process and returns what it answered, or "timed out" when it has not answered in 10 s (the
// child is then killed): a read that blocked would hang the child, never the test. The child writes its answer to a
// pipe and exits without running the parent's destructors (_exit(2)).
std::string inChild(const std::function<std::string()>& read)
{
    int fds[2];
    if (::pipe(fds) != 0) return "pipe: " + errorText(errno);
    const pid_t pid = ::fork();
    if (pid < 0) return "fork: " + errorText(errno);
    if (pid == 0) {
        ::close(fds[0]);
        const std::string answer = read();
        std::size_t sent = 0;
        while (sent < answer.size()) {
            const ssize_t n = ::write(fds[1], answer.data() + sent, answer.size() - sent);
            if (n <= 0) break;
            sent += std::size_t(n);
        }
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string answer;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        pollfd p { fds[0], POLLIN, 0 };
        if (left <= 0 || ::poll(&p, 1, int(left)) == 0) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
            ::close(fds[0]);
            return "timed out";
        }
        char buf[4096];
        const ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n <= 0) break;
        answer.append(buf, std::size_t(n));
    }
    ::close(fds[0]);
    ::waitpid(pid, nullptr, 0);
    return answer;
}

// As a user the permission bits bind: root drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from its effective set
// (capabilities(7)), which lets it read any file; the call applies to this thread only (capset(2)), so use it in a
// child of inChild(). False when the capabilities could not be dropped.
bool dropFileOverride()
{
    if (::geteuid() != 0) return true;
    __user_cap_header_struct header { _LINUX_CAPABILITY_VERSION_3, 0 };
    __user_cap_data_struct data[2] {};
    if (::syscall(SYS_capget, &header, data) != 0) return false;
    data[0].effective &= ~((1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH));
    return ::syscall(SYS_capset, &header, data) == 0;
}

// "path: message" of a failed result; "loaded" when it did not fail.
template<typename T>
std::string why(const Result<T>& r)
{
    return r ? std::string("loaded") : r.errors().front().path + ": " + r.errors().front().message;
}

// What each reader says of `path`, one line each: the plan, profile, text and trace readers, the file kind, and
// the trace set (the trace reader's reason, as planscope-cli import and the Measured Run page show it).
std::string whatReadersSay(const std::string& path)
{
    std::string s = "readTextFile " + why(readTextFile(path)) + "\n";
    s += "loadPlanFile " + why(loadPlanFile(path)) + "\n";
    s += "loadMeasurements " + why(loadMeasurements(path)) + "\n";
    s += "importKinetoTrace " + why(importKinetoTrace(path)) + "\n";
    s += "fileKindOf " + std::string(toString(fileKindOf(path))) + "\n";
    const TraceImport set = importTraces({ path });
    s += "importTraces " + (set.skipped.size() == 1 ? set.skipped[0].file + ": " + set.skipped[0].reason.english() : std::string("?")) + "\n";
    return s;
}

// The lines whatReadersSay() gives when every reader refuses `path` with `message`.
std::string allRefuse(const std::string& path, const std::string& message)
{
    std::string s;
    for (const char* reader : { "readTextFile", "loadPlanFile", "loadMeasurements", "importKinetoTrace" })
        s += std::string(reader) + " " + path + ": " + message + "\n";
    return s + "fileKindOf unreadable\nimportTraces " + path + ": " + message + "\n";
}

std::int64_t countCompute(const Timeline& t)
{
    std::int64_t n = 0;
    for (const Span& s : t.spans) n += s.stream == Stream::Compute ? 1 : 0;
    return n;
}
} // namespace

class TestHostileInputs : public QObject {
    Q_OBJECT
private slots:
    void aPlanFileOverTheLimitIsRefusedBeforeItIsRead()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("huge.plan.json")).toStdString();
        json plan = defaultPlan();
        plan["description"] = std::string(std::size_t(kMaxPlanFileBytes), 'x'); // the text alone is the limit
        std::ofstream(path) << plan.dump();
        const auto size = std::filesystem::file_size(path);
        QVERIFY(std::int64_t(size) > kMaxPlanFileBytes);
        auto r = loadPlanFile(path);
        QVERIFY(!r);
        QCOMPARE(r.errors().front().path, path);
        // 16 MiB of description and the rest of the plan: a little over 16.0 MiB.
        QCOMPARE(r.errors().front().message,
            "is " + std::to_string(size) + " bytes (16.0 MiB), more than the 16.0 MiB this kind of file may have; not read");

        // Just under the limit it loads (a long description is no reason to refuse a plan).
        plan["description"] = std::string(std::size_t(kMaxPlanFileBytes) - 4096, 'x');
        std::ofstream(path, std::ios::trunc) << plan.dump();
        auto fits = loadPlanFile(path);
        QVERIFY2(fits.ok(), firstError(fits).c_str());
        QCOMPARE(fits->plan.description.size(), std::size_t(kMaxPlanFileBytes) - 4096);
    }

    // A read on another thread (io/ReadControl.h): it reports the file's size and every byte read, says when it
    // parses, and a cancel set before it starts stops it before the first piece, naming the file.
    void aReadReportsItsProgressAndStopsWhenCancelled()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("long.plan.json")).toStdString();
        json plan = defaultPlan();
        plan["description"] = std::string(std::size_t(1) << 20, 'x'); // 16 pieces of 64 KiB and more
        std::ofstream(path) << plan.dump();
        const auto size = std::int64_t(std::filesystem::file_size(path));
        ReadControl control;
        auto r = loadPlanFile(path, control);
        QVERIFY2(r.ok(), firstError(r).c_str());
        QCOMPARE(control.bytesTotal.load(), size);
        QCOMPARE(control.bytesRead.load(), size);
        QVERIFY(control.parsing.load());
        QCOMPARE(r->plan.description.size(), std::size_t(1) << 20);

        ReadControl cancelled;
        cancelled.cancel = true;
        auto c = loadPlanFile(path, cancelled);
        QVERIFY(!c);
        QCOMPARE(c.errors().front().path, path);
        QCOMPARE(c.errors().front().message, std::string("cancelled"));
        QCOMPARE(cancelled.bytesRead.load(), std::int64_t(0));
        QVERIFY(!cancelled.parsing.load());
    }

    void aStreamWithoutASizeIsCutAtTheLimit()
    {
        // A regular file whose size the system does not know (procfs reports 0, proc(5)) has no size to check first:
        // the read stops one piece past the limit. /proc/self/maps lists this test's mappings, the Qt and C++ libraries
        // among them: far more than 1,000 bytes. (A device such as /dev/zero is no longer read at all; below.)
        struct stat st {};
        QCOMPARE(::stat("/proc/self/maps", &st), 0);
        QVERIFY(S_ISREG(st.st_mode));
        QCOMPARE(std::int64_t(st.st_size), std::int64_t(0));
        auto r = readTextFile("/proc/self/maps", 1000);
        QVERIFY(!r);
        QCOMPARE(r.errors().front().message,
            std::string("has more than 1000 bytes (1000 B), the most this kind of file may have; not read"));
    }

    void whatIsNoRegularFileIsRefusedByItsType()
    {
        // Issue 28, item 4: a FIFO nobody writes once hung every reader in open(2) (fifo(7)); a device was read
        // forever (/dev/zero) or as an empty file (/dev/null); a folder gave "read error". Each reader now refuses
        // them by type before reading a byte. The readers run in a child that is killed after 10 s, so that a
        // reader that blocked would fail this test rather than hang it.
        QTemporaryDir dir;
        const std::string fifo = dir.filePath(QStringLiteral("rank0.json")).toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const auto started = std::chrono::steady_clock::now();
        QCOMPARE(inChild([&] { return whatReadersSay(fifo); }), allRefuse(fifo, "is a FIFO, not a regular file; not read"));
        // Refused at once: far below the 10 s the child is given.
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
        // A folder of ranks holding the FIFO under a trace's name: the FIFO is named with its reason, not passed over.
        const TraceImport set = importTraces({ dir.path().toStdString() });
        QCOMPARE(set.skipped.size(), std::size_t(1));
        QCOMPARE(set.skipped[0].file, fifo);
        QCOMPARE(set.skipped[0].reason.english(), std::string("is a FIFO, not a regular file; not read"));
        QCOMPARE(set.tally.refused, std::size_t(1));

        for (const std::string device : { "/dev/zero", "/dev/null" })
            QCOMPARE(inChild([&] { return whatReadersSay(device); }),
                allRefuse(device, "is a character device, not a regular file; not read"));
        // A folder given where a file is read; the trace set reads a folder as its ranks (none here).
        QTemporaryDir folder;
        const std::string f = folder.path().toStdString();
        QCOMPARE(why(readTextFile(f)), f + ": is a folder, not a file; not read");
        QCOMPARE(why(loadPlanFile(f)), f + ": is a folder, not a file; not read");
        QCOMPARE(why(loadMeasurements(f)), f + ": is a folder, not a file; not read");
        QCOMPARE(why(importKinetoTrace(f)), f + ": is a folder, not a file; not read");
    }

    void aLinkLoopAndAFileWithoutReadPermissionSayWhy()
    {
        // ln -s a b; ln -s b a: open(2) fails with ELOOP, worded as strerror(3) words it in glibc.
        QTemporaryDir dir;
        const std::string a = dir.filePath(QStringLiteral("a.json")).toStdString();
        const std::string b = dir.filePath(QStringLiteral("b.json")).toStdString();
        QCOMPARE(::symlink(b.c_str(), a.c_str()), 0);
        QCOMPARE(::symlink(a.c_str(), b.c_str()), 0);
        QCOMPARE(errorText(ELOOP), std::string("too many levels of symbolic links"));
        QCOMPARE(whatReadersSay(a), allRefuse(a, "cannot open file: too many levels of symbolic links"));
        // A link loop inside a folder of ranks is named too (both links have trace names).
        const TraceImport set = importTraces({ dir.path().toStdString() });
        QCOMPARE(set.skipped.size(), std::size_t(2));
        QCOMPARE(set.skipped[0].reason.english(), std::string("cannot open file: too many levels of symbolic links"));
        QCOMPARE(set.tally.refused, std::size_t(2));

        // A file its user may not read (mode 000). Root reads it anyway, so the child drops the capabilities that
        // let it (dropFileOverride), as a user's process has none of them.
        const std::string locked = dir.filePath(QStringLiteral("locked.plan.json")).toStdString();
        {
            auto plan = readTextFile(test::samplePath("default.plan.json"));
            QVERIFY(plan.ok());
            std::ofstream(locked) << plan.value();
        }
        QCOMPARE(::chmod(locked.c_str(), 0), 0);
        QCOMPARE(inChild([&] { return dropFileOverride() ? whatReadersSay(locked) : std::string("could not drop the override"); }),
            allRefuse(locked, "cannot open file: permission denied"));
        QCOMPARE(errorText(EACCES), std::string("permission denied"));
        // A path that names nothing keeps its message: planscope-cli tells it apart as an I/O error by it
        // (app/cli/PlanInput.cpp).
        const std::string missing = dir.filePath(QStringLiteral("missing.json")).toStdString();
        QCOMPARE(why(readTextFile(missing)), missing + ": cannot open file");
    }

    void absurdNumbersNameTheirField()
    {
        json plan = defaultPlan();
        plan["model"]["layers"] = 1000000000;
        QCOMPARE(firstError(parsePlan(plan.dump())), std::string("model.layers: must be between 1 and 1000000, found 1000000000"));
        plan = defaultPlan();
        plan["training"]["globalBatch"] = 1e30;
        QCOMPARE(firstError(parsePlan(plan.dump())), std::string("training.globalBatch: must be between 1 and 1e+12, found 1e+30"));
        plan = defaultPlan();
        plan["training"]["tokens"] = 1e300; // once printed as 291 digits of training days
        QCOMPARE(firstError(parsePlan(plan.dump())), std::string("training.tokens: must be between 0 and 1e+18, found 1e+300"));
        plan = defaultPlan();
        plan["cluster"]["nodes"] = 1e9;
        QCOMPARE(firstError(parsePlan(plan.dump())), std::string("cluster.nodes: must be between 1 and 1000000, found 1000000000.0"));
    }

    void deeplyNestedJsonIsReadWithoutRecursion()
    {
        // A million levels: nlohmann::json parses and frees them without recursion; the reader names the field.
        const std::size_t depth = 1000000;
        std::string text = defaultPlan().dump();
        const std::string batch = "\"globalBatch\":64";
        QVERIFY(text.find(batch) != std::string::npos);
        std::string asBatch = text;
        asBatch.replace(asBatch.find(batch), batch.size(), "\"globalBatch\":" + nested(depth));
        QCOMPARE(firstError(parsePlan(asBatch)), std::string("training.globalBatch: must be an integer, found array"));
        QCOMPARE(firstError(parsePlan(nested(depth))), std::string(": must be an object, found array"));

        // An unknown field, however deep, is a warning and the plan loads.
        std::string extra = text;
        extra.insert(extra.size() - 1, ",\"extra\":" + nested(depth));
        auto r = parsePlan(extra);
        QVERIFY2(r.ok(), firstError(r).c_str());
        bool warned = false;
        for (const Issue& w : r->warnings) warned = warned || w.path == "extra";
        QVERIFY(warned);
    }

    void aHundredThousandMicrobatchesAreSimulated()
    {
        // pp 2 x 100,000 microbatches x (forward, backward) = 400,000 compute ops, under the simulation's limit.
        const auto a = analyse(defaultPlanWith(2, 8, 1, 100000));
        QVERIFY(a->valid());
        QCOMPARE(a->prediction.microbatches, std::int64_t(100000));
        QVERIFY(a->timeline);
        QCOMPARE(countCompute(*a->timeline), std::int64_t(2 * 100000 * 2));
        // 1F1B's step is (m + p - 1) microbatch slots: the simulation agrees with the closed form to a percent.
        QVERIFY(std::abs(a->prediction.stepSeconds / a->analytic.stepSeconds - 1) < 0.01);
    }

    void pastTheSimulationLimitTheClosedFormStands()
    {
        // pp 16 x 100,000 microbatches x 2 = 3,200,000 ops: no timeline, the closed form, and the reason named.
        const Plan p = defaultPlanWith(16, 1, 1, 100000);
        QCOMPARE(simulatedOpCount(p, 100000), 3200000.0);
        const auto a = analyse(p);
        QVERIFY(a->valid());
        QVERIFY(!a->timeline);
        QCOMPARE(a->timelineErrors.size(), std::size_t(1));
        QCOMPARE(a->timelineErrors.front().path, std::string("training.globalBatch"));
        QVERIFY(a->timelineErrors.front().message.find("3200000 ops") != std::string::npos);
        QCOMPARE(a->prediction.stepSeconds, a->analytic.stepSeconds);
    }

    void aScheduleTooLargeToLayOutIsRefusedByItsCount()
    {
        // 1,000 ranks x 100,000 microbatches of 1F1B: 200,000,000 ops (planscope-cli schedule aborted on bad_alloc
        // before the limit). The count is computed, nothing is allocated.
        ScheduleRequest r;
        r.kind = ScheduleKind::OneFOneB;
        r.ranks = 1000;
        r.microbatches = 100000;
        QCOMPARE(scheduleOpCount(r), 2e8);
        auto s = generateSchedule(r);
        QVERIFY(!s);
        QCOMPARE(s.errors().front().path, std::string("microbatches"));
        QCOMPARE(s.errors().front().message,
            std::string("the schedule would have 200000000 compute ops (ranks x chunks x microbatches x passes), more than "
                        "the 4194304 laid out"));
        // ZB-V: 2 chunks x 3 passes. 32 x 2 x 21,846 x 3 = 4,194,432 > 2^22; one microbatch fewer fits.
        r.kind = ScheduleKind::ZBV;
        r.chunks = 2; // as torch requires of ZB-V (planscope-cli schedule sets it)
        r.ranks = 32;
        r.microbatches = 21846;
        QCOMPARE(scheduleOpCount(r), 4194432.0);
        QVERIFY(!generateSchedule(r));
        r.microbatches = 21845;
        QCOMPARE(scheduleOpCount(r), 4194240.0);
        auto fits = generateSchedule(r);
        QVERIFY2(fits.ok(), fits ? "" : fits.errors().front().message.c_str());
    }

    void aCsvWithMoreActionsThanTheLimitStopsAtTheAction()
    {
        // One rank, 2^22 + 1 compute actions: refused at the action past the limit, by row and column.
        std::string csv;
        csv.reserve(std::size_t(kMaxScheduleOps + 1) * 4);
        for (std::int64_t i = 0; i <= kMaxScheduleOps; ++i) csv += i % 2 == 0 ? "0F0," : "0B0,";
        auto s = scheduleFromCsv(csv);
        QVERIFY(!s);
        QCOMPARE(s.errors().front().path, "row 1, column " + std::to_string(kMaxScheduleOps + 1));
        QCOMPARE(s.errors().front().message, std::string("more than 4194304 compute actions, the most laid out"));
    }
};

QTEST_GUILESS_MAIN(TestHostileInputs)
#include "tst_hostile_inputs.moc"
