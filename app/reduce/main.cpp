// planscope-reduce: the reduce of a measured run (core/io/RunFile.h) under the job's own MPI, where the traces are.
//   srun planscope-reduce TRACE_DIR --out run.planscope-run            (or mpirun -n P ...)
//   srun planscope-reduce search PLAN [search options] [--json] [--csv OUT] [--out RESULT]
// The second form is `planscope-cli search` split over the MPI processes: process p searches shard p/P of the plan
// index (core/search/SearchShard.h), process 0 gathers the shards and merges them into what one process prints.
// Each process reduces the files of its shard (shardRange: the same split as `planscope-cli reduce --shard I/P`), the
// collective records are sent to the process that owns their group (MPI_Alltoallv), each owner matches its groups,
// and process 0 gathers the rank summaries and the matched groups and writes the run file: the same bytes as one
// process (`planscope-cli reduce`) or the merge of shards. Progress is printed on process 0's terminal; a file that
// cannot be read is reported and the others go on. docs/TRACES.md, "Large runs".
#include "SearchCommands.h"
#include "io/RunFile.h"
#include "util/AtomicFile.h"

// The C interface only (Open MPI and MPICH otherwise pull in their deprecated C++ bindings).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

using namespace planscope;

namespace {

constexpr int kProgressTag = 17;
// Bytes one process sends another in one round of the exchange (MPI counts are int).
constexpr std::size_t kRoundBytes = std::size_t(1) << 28;

const char* kUsage = "usage: planscope-reduce TRACE_OR_FOLDER... --out RUN.planscope-run [--gpus-per-node G]\n"
                     "       planscope-reduce search PLAN [planscope-cli search options] [--json] [--csv OUT] [--out RESULT]\n"
                     "  run under the job's launcher: srun planscope-reduce ... or mpirun -n P planscope-reduce ...\n";

struct Options {
    std::vector<std::string> paths;
    std::string out;
    int gpusPerNode = 0;
    std::string error;
};

Options parse(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if ((a == "--out" || a == "--gpus-per-node") && i + 1 < argc) {
            const std::string_view v = argv[++i];
            if (a == "--out") {
                o.out = v;
            } else {
                auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), o.gpusPerNode);
                if (ec != std::errc() || p != v.data() + v.size() || o.gpusPerNode < 0)
                    o.error = "--gpus-per-node must be a whole number from 0, found \"" + std::string(v) + "\"";
            }
        } else if (a == "--help" || a == "-h") {
            o.error = " ";
        } else if (a.starts_with("--")) {
            o.error = "unknown option " + std::string(a);
        } else {
            o.paths.emplace_back(a);
        }
    }
    if (o.error.empty() && (o.paths.empty() || o.out.empty())) o.error = " ";
    return o;
}

void bcastString(std::string& s, int root)
{
    std::uint64_t n = s.size();
    MPI_Bcast(&n, 1, MPI_UINT64_T, root, MPI_COMM_WORLD);
    s.resize(n);
    for (std::uint64_t at = 0; at < n; at += kRoundBytes) {
        const int part = int(std::min<std::uint64_t>(kRoundBytes, n - at));
        MPI_Bcast(s.data() + at, part, MPI_CHAR, root, MPI_COMM_WORLD);
    }
}

std::vector<std::string_view> lines(std::string_view text)
{
    std::vector<std::string_view> out;
    for (std::size_t pos = 0; pos < text.size();) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        if (end > pos) out.push_back(text.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}

// Every process sends send[p] to process p; returns what each process sent this one, in rounds of kRoundBytes.
std::vector<std::string> exchangeBytes(const std::vector<std::string>& send, int procs)
{
    std::vector<std::string> recv(static_cast<std::size_t>(procs));
    std::vector<std::size_t> sent(static_cast<std::size_t>(procs), 0);
    for (;;) {
        const std::size_t n = static_cast<std::size_t>(procs);
        std::vector<int> sendCounts(n), recvCounts(n), sdispls(n), rdispls(n);
        std::string sendBuffer;
        int more = 0;
        for (int p = 0; p < procs; ++p) {
            const std::string& s = send[std::size_t(p)];
            const std::size_t part = std::min(kRoundBytes, s.size() - sent[std::size_t(p)]);
            sdispls[std::size_t(p)] = int(sendBuffer.size());
            sendCounts[std::size_t(p)] = int(part);
            sendBuffer.append(s, sent[std::size_t(p)], part);
            sent[std::size_t(p)] += part;
            if (sent[std::size_t(p)] < s.size()) more = 1;
        }
        MPI_Alltoall(sendCounts.data(), 1, MPI_INT, recvCounts.data(), 1, MPI_INT, MPI_COMM_WORLD);
        long long total = 0;
        for (int p = 0; p < procs; ++p) {
            rdispls[std::size_t(p)] = int(total);
            total += recvCounts[std::size_t(p)];
        }
        if (total > INT_MAX) {
            std::fprintf(stderr, "planscope-reduce: one round would receive %lld bytes; run with more processes\n", total);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        std::string recvBuffer(std::size_t(total), '\0');
        MPI_Alltoallv(sendBuffer.data(), sendCounts.data(), sdispls.data(), MPI_CHAR, recvBuffer.data(), recvCounts.data(), rdispls.data(),
            MPI_CHAR, MPI_COMM_WORLD);
        for (int p = 0; p < procs; ++p)
            recv[std::size_t(p)].append(recvBuffer, std::size_t(rdispls[std::size_t(p)]), std::size_t(recvCounts[std::size_t(p)]));
        int anyMore = 0;
        MPI_Allreduce(&more, &anyMore, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (!anyMore) break;
    }
    return recv;
}

// The text of every process, on process 0 (in process order); empty elsewhere.
std::vector<std::string> gather(const std::string& mine, int me, int procs)
{
    // In rounds, like exchangeBytes: every process sends its next kRoundBytes to process 0 until all is sent.
    std::vector<std::string> out(me == 0 ? static_cast<std::size_t>(procs) : 0);
    std::size_t sent = 0;
    for (;;) {
        const int n = int(std::min(kRoundBytes, mine.size() - sent));
        std::vector<int> counts(static_cast<std::size_t>(procs)), displs(static_cast<std::size_t>(procs));
        MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
        long long total = 0;
        for (int p = 0; p < procs; ++p) {
            displs[std::size_t(p)] = int(total);
            total += counts[std::size_t(p)];
        }
        if (me == 0 && total > INT_MAX) {
            std::fprintf(stderr, "planscope-reduce: one gather round would receive %lld bytes\n", total);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        std::string buffer(me == 0 ? std::size_t(total) : 0, '\0');
        MPI_Gatherv(mine.data() + sent, n, MPI_CHAR, buffer.data(), counts.data(), displs.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
        if (me == 0)
            for (int p = 0; p < procs; ++p) out[std::size_t(p)].append(buffer, std::size_t(displs[std::size_t(p)]), std::size_t(counts[std::size_t(p)]));
        sent += std::size_t(n);
        int more = sent < mine.size(), anyMore = 0;
        MPI_Allreduce(&more, &anyMore, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (!anyMore) break;
    }
    return out;
}

// FNV-1a (Fowler, Noll, Vo): the owner of a group is the same on every process.
std::uint64_t fnv1a(std::string_view s)
{
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

// One line "<index> <json>": a file's place in the reduce and its payload.
std::string indexed(std::size_t index, const std::string& line) { return std::to_string(index) + " " + line + "\n"; }
bool splitIndexed(std::string_view l, std::size_t& index, std::string_view& rest)
{
    const std::size_t space = l.find(' ');
    if (space == std::string_view::npos) return false;
    auto [p, ec] = std::from_chars(l.data(), l.data() + space, index);
    rest = l.substr(space + 1);
    return ec == std::errc() && p == l.data() + space;
}

void fail(const char* what, const Issues& errors)
{
    std::fprintf(stderr, "planscope-reduce: %s: %s\n", what, errors.empty() ? "?" : issueLine(errors.front()).c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
}

// `planscope-reduce search ...`: each process searches its shard, process 0 merges and prints (or writes --out).
int searchMain(int argc, char** argv, int me, int procs)
{
    std::vector<std::string> args { "search" };
    std::string outPath, csv;
    bool asJson = false;
    for (int i = 2; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--out" && i + 1 < argc) outPath = argv[++i];
        else if (a == "--shard" || a == "--merge") {
            if (me == 0) std::fprintf(stderr, "planscope-reduce search: the processes are the shards; %s is not taken\n", argv[i]);
            return 1;
        } else {
            if (a == "--json") asJson = true;
            if (a == "--csv" && i + 1 < argc) csv = argv[i + 1];
            args.emplace_back(a);
        }
    }
    std::ostringstream quiet, err;
    std::string text;
    int code = planscope::cli::searchShardFile(args, me, procs, text, quiet, err);
    int worst = 0;
    MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst != 0) {
        if (me == 0) std::fputs(err.str().c_str(), stderr);
        return worst;
    }
    // Each process's shard, one line of JSON, gathered on process 0 in process order.
    const std::vector<std::string> all = gather(text, me, procs);
    if (me != 0) return 0;
    std::fprintf(stderr, "planscope-reduce search: %d shards searched\n", procs);
    std::vector<std::string> texts, labels;
    for (int p = 0; p < procs; ++p) {
        texts.push_back(all[std::size_t(p)]);
        labels.push_back("process " + std::to_string(p));
    }
    std::ostringstream out;
    code = planscope::cli::mergeSearchShardTexts(texts, labels, asJson, csv, out, std::cerr);
    if (outPath.empty()) {
        std::cout << out.str() << std::flush;
    } else {
        std::string error;
        if (!writeFileAtomically(outPath, out.str(), error)) {
            std::fprintf(stderr, "planscope-reduce search: cannot write %s: %s\n", outPath.c_str(), error.c_str());
            return 1;
        }
    }
    return code;
}

} // namespace

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int me = 0, procs = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &procs);
    if (argc > 1 && std::string_view(argv[1]) == "search") {
        int code = searchMain(argc, argv, me, procs);
        MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Finalize();
        return code;
    }
    const Options options = parse(argc, argv);
    if (!options.error.empty()) {
        if (me == 0) {
            if (options.error != " ") std::fprintf(stderr, "planscope-reduce: %s\n", options.error.c_str());
            std::fputs(kUsage, stderr);
        }
        MPI_Finalize();
        return 1;
    }

    // 1. The files, as process 0 finds them (one listing of the folder for the whole job).
    std::vector<std::string> files;
    std::vector<RunIssue> inputIssues;
    std::string listing;
    if (me == 0) {
        files = reduceInputs(options.paths, inputIssues);
        for (const std::string& f : files) listing += f + '\0';
    }
    bcastString(listing, 0);
    if (me != 0)
        for (std::size_t pos = 0; pos < listing.size();) {
            const std::size_t end = listing.find('\0', pos);
            files.push_back(listing.substr(pos, end - pos));
            pos = end + 1;
        }
    if (me == 0)
        std::fprintf(stderr, "planscope-reduce: %zu trace files on %d processes\n", files.size(), procs);

    // 2. This process's shard, file by file; each file done is announced to process 0, which prints the progress.
    const auto [shardFirst, shardLast] = shardRange(std::int64_t(files.size()), me, procs);
    const std::size_t first = std::size_t(shardFirst), last = std::size_t(shardLast);
    std::vector<ReducedFile> mine;
    std::vector<MPI_Request> requests;
    std::vector<long long> announced;
    announced.reserve(last - first);
    std::size_t done = 0, shownAt = 0;
    long long bytesDone = 0;
    auto show = [&](bool force) {
        if (!force && (done - shownAt) * 50 < files.size()) return;
        shownAt = done;
        std::fprintf(stderr, "planscope-reduce: %zu/%zu files, %.2f GB read\n", done, files.size(), double(bytesDone) * 1e-9);
    };
    auto drain = [&](bool wait) {
        for (;;) {
            int flag = 1;
            MPI_Status status;
            if (!wait) MPI_Iprobe(MPI_ANY_SOURCE, kProgressTag, MPI_COMM_WORLD, &flag, &status);
            if (!flag || (wait && done >= files.size())) return;
            long long bytes = 0;
            MPI_Recv(&bytes, 1, MPI_LONG_LONG, MPI_ANY_SOURCE, kProgressTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            ++done;
            bytesDone += bytes;
            show(done == files.size());
        }
    };
    for (std::size_t i = first; i < last; ++i) {
        mine.push_back(reduceFile(files[i]));
        const ReducedFile& f = mine.back();
        if (!f.summary) std::fprintf(stderr, "planscope-reduce: %s not read: %s\n", f.file.c_str(), f.error.c_str());
        if (me == 0) {
            ++done;
            bytesDone += f.bytes;
            show(done == files.size());
            drain(false);
        } else {
            announced.push_back(f.bytes);
            requests.emplace_back();
            MPI_Isend(&announced.back(), 1, MPI_LONG_LONG, 0, kProgressTag, MPI_COMM_WORLD, &requests.back());
        }
    }
    if (me == 0) drain(true);
    else MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);

    // 3. Which summaries are the run: every process decides alike from everyone's (file, rank, world size).
    std::vector<long long> ids;
    for (std::size_t i = 0; i < mine.size(); ++i)
        if (mine[i].summary) ids.insert(ids.end(), { (long long)(first + i), mine[i].summary->rank, mine[i].summary->worldSize });
    const int idCount = int(ids.size());
    std::vector<int> idCounts(static_cast<std::size_t>(procs)), idDispls(static_cast<std::size_t>(procs));
    MPI_Allgather(&idCount, 1, MPI_INT, idCounts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int idTotal = 0;
    for (int p = 0; p < procs; ++p) idDispls[std::size_t(p)] = idTotal, idTotal += idCounts[std::size_t(p)];
    std::vector<long long> allIds(static_cast<std::size_t>(idTotal));
    MPI_Allgatherv(ids.data(), idCount, MPI_LONG_LONG, allIds.data(), idCounts.data(), idDispls.data(), MPI_LONG_LONG, MPI_COMM_WORLD);
    std::vector<RankIdentity> identities;
    std::vector<std::size_t> idFile;
    for (std::size_t i = 0; i + 2 < allIds.size(); i += 3) {
        idFile.push_back(std::size_t(allIds[i]));
        identities.push_back({ int(allIds[i + 1]), int(allIds[i + 2]) });
    }
    std::vector<std::string> reasons;
    const std::vector<bool> keep = keptRanks(identities, reasons);
    std::map<std::size_t, std::size_t> identityOfFile;
    for (std::size_t i = 0; i < idFile.size(); ++i) identityOfFile[idFile[i]] = i;

    // 4. GPUs per node: given, or the largest device index of a kept rank plus one.
    int localMax = -1;
    for (std::size_t i = 0; i < mine.size(); ++i)
        if (mine[i].summary && keep[identityOfFile[first + i]]) localMax = std::max(localMax, mine[i].summary->localDevice);
    int globalMax = -1;
    MPI_Allreduce(&localMax, &globalMax, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    const int gpusPerNode = options.gpusPerNode > 0 ? options.gpusPerNode : globalMax + 1;

    // 5. Each kept rank's records of a group go to the group's owner, which matches the group.
    std::vector<std::string> chunks(static_cast<std::size_t>(procs));
    for (std::size_t i = 0; i < mine.size(); ++i) {
        if (!mine[i].summary || !keep[identityOfFile[first + i]]) continue;
        for (const RankGroup& g : mine[i].summary->groups)
            chunks[std::size_t(fnv1a(g.key) % std::uint64_t(procs))] += groupChunkLine(mine[i].summary->rank, g) + "\n";
    }
    const std::vector<std::string> received = exchangeBytes(chunks, procs);
    chunks.clear();
    std::map<std::string, std::vector<std::pair<int, RankGroup>>> byKey;
    for (const std::string& text : received)
        for (std::string_view l : lines(text)) {
            Result<std::pair<int, RankGroup>> c = parseGroupChunkLine(l);
            if (!c.ok()) fail("a group's records did not arrive whole", c.errors());
            std::pair<int, RankGroup> chunk = std::move(c).value();
            byKey[chunk.second.key].push_back(std::move(chunk));
        }
    std::string payload;
    for (auto& [key, members] : byKey) {
        std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<GroupMember> list;
        for (const auto& [rank, group] : members) list.push_back({ rank, &group });
        payload += "G " + groupResultLine(matchGroup(list)) + "\n";
    }
    byKey.clear();

    // 6. Everything else process 0 needs, each line tagged with its file's place: kept summaries (R), excluded (E) and
    // unread files (F); and this process's bytes read.
    long long bytes = 0;
    for (std::size_t i = 0; i < mine.size(); ++i) {
        const ReducedFile& f = mine[i];
        bytes += f.bytes;
        if (!f.summary) {
            payload += "F " + indexed(first + i, runIssueLine({ f.file, -1, f.error }));
            continue;
        }
        const std::size_t id = identityOfFile[first + i];
        if (keep[id]) payload += "R " + indexed(first + i, rankSummaryLine(*f.summary, false));
        else payload += "E " + indexed(first + i, runIssueLine({ f.file, f.summary->rank, reasons[id] }));
    }
    mine.clear();
    long long bytesRead = 0;
    MPI_Reduce(&bytes, &bytesRead, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    const std::vector<std::string> all = gather(payload, me, procs);
    payload.clear();

    int code = 0;
    if (me == 0) {
        std::vector<RankSummary> ranks;
        std::vector<GroupResult> groups;
        std::map<std::size_t, RunIssue> failed, excluded;
        for (const std::string& text : all)
            for (std::string_view l : lines(text)) {
                const char tag = l.front();
                std::string_view rest = l.substr(2);
                if (tag == 'G') {
                    Result<GroupResult> g = parseGroupResultLine(rest);
                    if (!g.ok()) fail("a matched group did not arrive whole", g.errors());
                    groups.push_back(std::move(g).value());
                    continue;
                }
                std::size_t index = 0;
                std::string_view json;
                if (!splitIndexed(rest, index, json)) fail("a line did not arrive whole", {});
                if (tag == 'R') {
                    Result<RankSummary> s = parseRankSummaryLine(json);
                    if (!s.ok()) fail("a rank summary did not arrive whole", s.errors());
                    ranks.push_back(std::move(s).value());
                } else {
                    Result<RunIssue> i = parseRunIssueLine(json);
                    if (!i.ok()) fail("a file's issue did not arrive whole", i.errors());
                    (tag == 'F' ? failed : excluded)[index] = std::move(i).value();
                }
            }
        std::vector<RunIssue> failedList = inputIssues, excludedList;
        for (auto& [index, issue] : failed) failedList.push_back(std::move(issue));
        for (auto& [index, issue] : excluded) excludedList.push_back(std::move(issue));
        const MeasuredRun run = runFromParts(std::move(ranks), std::move(groups), std::move(failedList), std::move(excludedList),
            std::int64_t(files.size()), bytesRead, gpusPerNode, options.gpusPerNode <= 0);
        std::string error;
        if (!writeFileAtomically(options.out, runText(run), error)) {
            std::fprintf(stderr, "planscope-reduce: cannot write %s: %s\n", options.out.c_str(), error.c_str());
            code = 1;
        } else {
            std::fprintf(stderr, "planscope-reduce: %zu ranks, %zu process groups, %zu files not read, %zu left out: %s\n", run.ranks.size(),
                run.groups.size(), run.failed.size(), run.excluded.size(), options.out.c_str());
            if (run.ranks.empty()) code = 2;
        }
    }
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return code;
}
