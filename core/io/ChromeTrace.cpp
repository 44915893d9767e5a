#include "ChromeTrace.h"

#include "schedule/Schedule.h"
#include "util/Units.h"

#include <nlohmann/json.hpp>

namespace planscope {

std::string chromeTrace(const Timeline& tl, const std::string& title)
{
    using nlohmann::json;
    json events = json::array();
    const int p = tl.schedule.ranks;
    for (int r = 0; r < p; ++r) {
        events.push_back({ { "ph", "M" }, { "name", "process_name" }, { "pid", r },
            { "args", { { "name", "pipeline rank " + std::to_string(r) } } } });
        events.push_back({ { "ph", "M" }, { "name", "process_sort_index" }, { "pid", r }, { "args", { { "sort_index", r } } } });
        for (Stream st : { Stream::Compute, Stream::P2P, Stream::DataParallel, Stream::ZeroGather, Stream::Optimizer }) {
            events.push_back({ { "ph", "M" }, { "name", "thread_name" }, { "pid", r }, { "tid", int(st) },
                { "args", { { "name", std::string(toString(st)) } } } });
            events.push_back({ { "ph", "M" }, { "name", "thread_sort_index" }, { "pid", r }, { "tid", int(st) },
                { "args", { { "sort_index", int(st) } } } });
        }
    }
    for (const Span& sp : tl.spans) {
        std::string name;
        switch (sp.kind) {
        case SpanKind::Forward: name = opText(Op::f(sp.stage, sp.microbatch)); break;
        case SpanKind::Backward: name = opText(Op::b(sp.stage, sp.microbatch)); break;
        case SpanKind::InputGrad: name = opText(Op::i(sp.stage, sp.microbatch)); break;
        case SpanKind::WeightGrad: name = opText(Op::w(sp.stage, sp.microbatch)); break;
        case SpanKind::OverlapFB: name = opText(Op::overlap(sp.stage, sp.microbatch, sp.stage2, sp.microbatch2)); break;
        case SpanKind::SendActivation: name = std::to_string(sp.stage) + "SEND_F" + std::to_string(sp.microbatch); break;
        case SpanKind::SendGradient: name = std::to_string(sp.stage) + "SEND_B" + std::to_string(sp.microbatch); break;
        default: name = std::string(toString(sp.kind)); break;
        }
        json args = { { "kind", std::string(toString(sp.kind)) } };
        if (sp.stage >= 0) args["stage"] = sp.stage;
        if (sp.chunk >= 0) args["chunk"] = sp.chunk;
        if (sp.microbatch >= 0) args["microbatch"] = sp.microbatch;
        events.push_back({ { "ph", "X" }, { "name", name }, { "cat", std::string(toString(sp.kind)) }, { "pid", sp.rank },
            { "tid", int(sp.stream) }, { "ts", sp.start * 1e6 }, { "dur", (sp.end - sp.start) * 1e6 }, { "args", args } });
    }
    for (int r = 0; r < int(tl.memory.size()); ++r)
        for (const MemoryPoint& mp : tl.memory[std::size_t(r)])
            events.push_back({ { "ph", "C" }, { "name", "memory (GiB)" }, { "pid", r }, { "ts", mp.time * 1e6 },
                { "args", { { "GiB", double(mp.bytes) / units::kGiB } } } });
    json doc = { { "traceEvents", events }, { "displayTimeUnit", "ms" },
        { "otherData", { { "title", title }, { "source", "PlanScope prediction" }, { "stepSeconds", tl.stepSeconds } } } };
    return doc.dump();
}

} // namespace planscope
