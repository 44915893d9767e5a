// What a file a user opens or drops holds, told by content (never by name): a plan, a profile, nccl-tests output
// or a profiler trace. One rule for the app's File > Open and drag and drop, and the command line.
#pragma once

#include <string>
#include <string_view>

namespace planscope {

enum class FileKind {
    Plan,      // planscope/plan/v1 JSON, or JSON that is none of the others (the plan reader then says what is wrong)
    Profile,   // planscope/profile/v1 JSON
    NcclTests, // nccl-tests output: the text table ("# nThread" header) or -J JSON ("nccl_version" and "config")
    Trace,     // a PyTorch-profiler (Kineto) trace: gzip, or JSON with "traceEvents"; or a folder of traces
    Run,       // a measured run's summary (planscope/run/v1) or a reduce shard (planscope/run-shard/v1): io/RunFile.h
    LaunchConfig, // a Megatron-LM launch line or script (io/LaunchConfig.h): text, not JSON, naming Megatron-LM arguments
    Unreadable,
};

std::string_view toString(FileKind kind);

// From the first bytes of a file (64 KiB are enough for every kind's marker).
FileKind fileKindOfHead(std::string_view head);
// Reads the head of the file; a folder is a Trace folder (one file per rank); a file that cannot be read, and
// anything that is no regular file (a FIFO, a device: util/InputFile.h), is Unreadable.
FileKind fileKindOf(const std::string& path);

} // namespace planscope
