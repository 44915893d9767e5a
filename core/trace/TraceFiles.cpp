#include "TraceFiles.h"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <thread>

namespace planscope {

bool isTraceFileName(std::string_view name)
{
    auto ends = [&](std::string_view suffix) {
        return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return ends(".json") || ends(".json.gz");
}

std::vector<std::string> expandTracePaths(const std::vector<std::string>& paths, std::vector<SkippedRegion>& skipped)
{
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    for (const std::string& p : paths) {
        std::error_code ec;
        if (!fs::is_directory(p, ec)) {
            files.push_back(p);
            continue;
        }
        std::vector<std::string> found;
        for (const auto& e : fs::directory_iterator(p, ec))
            if (e.is_regular_file(ec) && isTraceFileName(e.path().filename().string())) found.push_back(e.path().string());
        std::sort(found.begin(), found.end());
        if (found.empty()) skipped.push_back(SkippedRegion { p, -1, "the folder holds no .json or .json.gz file" });
        files.insert(files.end(), found.begin(), found.end());
    }
    return files;
}

TraceImport importTraces(const std::vector<std::string>& paths, const TraceSetControl& control)
{
    TraceImport out;
    const std::vector<std::string> files = expandTracePaths(paths, out.skipped);

    // Progress over all files' bytes: each file reports its own share; the sum is taken when one changes.
    std::vector<std::int64_t> sizes(files.size(), 0);
    std::int64_t total = 0;
    for (std::size_t i = 0; i < files.size(); ++i) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(files[i], ec);
        sizes[i] = ec ? 0 : std::int64_t(size);
        total += sizes[i];
    }
    auto done = std::make_unique<std::atomic<std::int64_t>[]>(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) done[i] = 0;
    auto report = [&] {
        if (!control.progress) return;
        std::int64_t sum = 0;
        for (std::size_t i = 0; i < files.size(); ++i) sum += done[i].load();
        control.progress(total > 0 ? std::min(1.0, double(sum) / double(total)) : 1.0);
    };

    std::vector<std::optional<Result<MeasuredRank>>> results(files.size());
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t workers = std::min<std::size_t>(files.size(), control.threads > 0 ? control.threads : hardware);
    std::atomic<std::size_t> next { 0 };
    auto work = [&] {
        for (std::size_t i = next++; i < files.size(); i = next++) {
            if (control.cancel && control.cancel->load()) return;
            ImportControl c;
            c.cancel = control.cancel;
            c.progress = [&, i](std::int64_t d, std::int64_t) {
                done[i] = d;
                report();
            };
            results[i].emplace(importKinetoTrace(files[i], c));
            done[i] = sizes[i];
            report();
        }
    };
    if (workers <= 1) {
        work();
    } else {
        std::vector<std::future<void>> pool;
        for (std::size_t w = 0; w < workers; ++w) pool.push_back(std::async(std::launch::async, work));
        for (auto& f : pool) f.get();
    }
    out.cancelled = control.cancel && control.cancel->load();
    if (out.cancelled) return out;

    std::vector<MeasuredRank> ranks;
    for (std::size_t f = 0; f < files.size(); ++f) {
        if (!results[f]) continue;
        auto& r = *results[f];
        if (!r) {
            const Issue& i = r.errors().front();
            out.skipped.push_back(SkippedRegion { files[f], i.offset, i.message });
            continue;
        }
        if (r->skipped) out.skipped.push_back(*r->skipped);
        ranks.push_back(std::move(r).value());
    }
    // One job: ranks of another world size come from another run, and aligning them with this one's would put
    // days between "simultaneous" collectives. The world size most files have wins (ties: the first file's).
    std::map<int, int> worlds;
    int world = -1, most = 0;
    for (const MeasuredRank& r : ranks)
        if (r.worldSize >= 0 && ++worlds[r.worldSize] > most) most = worlds[r.worldSize];
    for (const MeasuredRank& r : ranks)
        if (r.worldSize >= 0 && worlds[r.worldSize] == most) {
            world = r.worldSize;
            break;
        }
    std::erase_if(ranks, [&](const MeasuredRank& r) {
        if (r.worldSize < 0 || r.worldSize == world) return false;
        out.skipped.push_back(SkippedRegion { r.file, -1,
            "from another job: world size " + std::to_string(r.worldSize) + ", the set's is " + std::to_string(world) });
        return true;
    });
    std::stable_sort(ranks.begin(), ranks.end(), [](const MeasuredRank& x, const MeasuredRank& y) {
        return (x.rank < 0 ? INT_MAX : x.rank) < (y.rank < 0 ? INT_MAX : y.rank);
    });
    for (auto& r : ranks) {
        const auto same = std::find_if(out.ranks.begin(), out.ranks.end(),
            [&](const MeasuredRank& u) { return r.rank >= 0 && u.rank == r.rank && u.worldSize == r.worldSize; });
        if (same != out.ranks.end()) {
            out.skipped.push_back(SkippedRegion { r.file, -1,
                "duplicate rank " + std::to_string(r.rank) + " (already imported from " + same->file + ")" });
            continue;
        }
        out.ranks.push_back(std::move(r));
    }
    return out;
}

} // namespace planscope
