// The search split into shards (core/search/SearchShard.h): the shards of a space, searched apart, written to JSON
// and read back, merge into exactly what one search() gives (the K best, the Pareto front, the sampled points, the
// counts, the per-GPU-count rows, the template's rank), for shards on different numbers of threads merged out of order; the ranges cover the
// index once; a shard's JSON that names a plan outside the space is refused by field.
#include "TestUtil.h"

#include "io/SearchJson.h"
#include "io/SearchShardJson.h"
#include "search/SearchShard.h"

#include <QObject>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

namespace planscope::test {

// The search document without what depends on the machine (time, threads, the evaluation cache's counters).
json comparable(const SearchSpace& space, const SearchResult& r, Objective o)
{
    json d = searchDocument(space, r, o, std::nullopt, std::nullopt);
    for (const char* k : { "seconds", "threads", "cacheHits", "cacheMisses" }) d["space"].erase(k);
    return d;
}

SearchSpace sampleSpace(const char* sample, std::vector<int> gpus)
{
    auto s = buildSpace(loadSample(sample), defaultKnobs(), gpus);
    if (!s) QTest::qFail(("buildSpace: " + s.errors().front().message).c_str(), __FILE__, __LINE__);
    return s.value();
}

} // namespace planscope::test

using namespace planscope::test;

class TestSearchShards : public QObject {
    Q_OBJECT
private slots:
    void rangesCoverTheIndexOnce()
    {
        for (std::int64_t total : { std::int64_t(1), std::int64_t(7), std::int64_t(12644352), std::int64_t(1) << 40 })
            for (int shards : { 1, 2, 3, 16, 1000 }) {
                std::int64_t next = 0;
                for (int i = 0; i < shards; ++i) {
                    const auto [first, last] = shardRange(total, i, shards);
                    QCOMPARE(first, std::min(next, total));
                    QVERIFY(last >= first && last - first <= total / shards + 1);
                    next = std::max(next, last);
                }
                QCOMPARE(next, total);
            }
    }

    void shardsMergeIntoOneSearch()
    {
        // The default plan (Llama 2 7B) on 16 or 32 GPUs: 4.6 million plans over two GPU counts, the objective cost, 500
        // sampled points, the best two re-ranked by simulation.
        const SearchSpace space = sampleSpace("default.plan.json", { 16, 32 });
        SearchOptions options;
        options.objective = Objective::Cost;
        options.top = 7;
        options.samplePoints = 500;
        options.simulateTop = 2;
        options.threads = 2;
        const SearchResult one = search(space, options);
        QVERIFY(one.fit > 0);
        QCOMPARE(one.points.size(), std::size_t(500));
        const json expected = comparable(space, one, options.objective);
        std::int64_t total = 1;
        for (std::int64_t r : space.radices()) total *= r;
        QCOMPARE(double(total), one.plans);
        for (int shards : { 3 }) {
            std::vector<SearchShard> parts;
            for (int i = shards - 1; i >= 0; --i) { // in any order
                const auto [first, last] = shardRange(total, i, shards);
                SearchOptions o = options;
                o.threads = 1 + i % 2;
                const SearchShard part = searchShard(space, o, first, last);
                // Through the shard file's JSON and back.
                auto back = searchShardFromJson(json::parse(searchShardToJson(part).dump()), space);
                QVERIFY(back.ok());
                QCOMPARE(searchShardToJson(back.value()).dump(), searchShardToJson(part).dump());
                parts.push_back(std::move(back).value());
            }
            const SearchResult merged = mergeSearchShards(space, options, std::move(parts));
            QVERIFY2(comparable(space, merged, options.objective) == expected, ("shards: " + std::to_string(shards)).c_str());
            QVERIFY(merged.points.size() == one.points.size());
            for (std::size_t i = 0; i < one.points.size(); ++i) QCOMPARE(merged.points[i].index, one.points[i].index);
        }
    }

    void aShardNamingAPlanOutsideTheSpaceIsRefused()
    {
        const SearchSpace space = sampleSpace("gpt3-175b-64xa100-search.plan.json", {});
        SearchOptions options;
        options.threads = 1;
        const SearchShard part = searchShard(space, options, 0, 100000);
        json j = searchShardToJson(part);
        QVERIFY(!j["top"].empty());
        j["top"][0]["index"] = std::int64_t(1) << 50;
        auto bad = searchShardFromJson(j, space);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.errors().front().path, std::string("top.0.index"));
        j = searchShardToJson(part);
        j["top"][0]["stepSeconds"] = "fast";
        bad = searchShardFromJson(j, space);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.errors().front().path, std::string("top.0.stepSeconds"));
    }
};

QTEST_GUILESS_MAIN(TestSearchShards)
#include "tst_search_shards.moc"
