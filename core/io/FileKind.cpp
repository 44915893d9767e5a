#include "FileKind.h"

#include "util/InputFile.h"

#include <cstdint>
#include <filesystem>

namespace planscope {

std::string_view toString(FileKind kind)
{
    switch (kind) {
    case FileKind::Plan: return "plan";
    case FileKind::Profile: return "profile";
    case FileKind::NcclTests: return "nccl-tests";
    case FileKind::Trace: return "trace";
    case FileKind::LaunchConfig: return "launch-config";
    case FileKind::Run: return "run";
    case FileKind::Unreadable: return "unreadable";
    }
    return "unreadable";
}

FileKind fileKindOfHead(std::string_view head)
{
    auto has = [&](std::string_view s) { return head.find(s) != std::string_view::npos; };
    // gzip's magic bytes (RFC 1952 section 2.3.1): only traces are read compressed.
    if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b)
        return FileKind::Trace;
    // A run summary or reduce shard: io/RunFile.h writes "format" first on its header line.
    if (head.starts_with("{\"format\":\"planscope/run/v1\"") || head.starts_with("{\"format\":\"planscope/run-shard/v1\""))
        return FileKind::Run;
    if (has("planscope/plan/")) return FileKind::Plan;
    if (has("planscope/profile/")) return FileKind::Profile;
    if (has("# nThread") || (has("\"nccl_version\"") && has("\"config\""))) return FileKind::NcclTests;
    if (has("\"traceEvents\"")) return FileKind::Trace;
    // Text that is no JSON object and names Megatron-LM's layout or shape arguments, torchtitan's [parallelism] table
    // or Megatron-Core's field names (a Megatron-Bridge or NeMo YAML); a JSON object with DeepSpeed's batch or ZeRO
    // keys (docs/FORMATS.md section 11).
    const std::size_t first = head.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && head[first] != '{'
        && (has("--tensor-model-parallel-size") || has("--pipeline-model-parallel-size") || has("--num-layers") || has("[parallelism]")
            || has("tensor_model_parallel_size:") || has("num_layers:") || (has("\nmodel:") && has("\ntrain:"))))
        return FileKind::LaunchConfig;
    if (first != std::string_view::npos && head[first] == '{'
        && (has("\"train_micro_batch_size_per_gpu\"") || has("\"zero_optimization\"")))
        return FileKind::LaunchConfig;
    return FileKind::Plan;
}

FileKind fileKindOf(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return FileKind::Trace;
    // A FIFO, a device or a socket is no file of any kind, and is not waited on (util/InputFile.h).
    auto file = openInputFile(path);
    if (!file) return FileKind::Unreadable;
    std::string head(64 * 1024, '\0');
    std::size_t got = 0;
    while (got < head.size()) {
        const std::int64_t n = file.value().read(head.data() + got, head.size() - got);
        if (n < 0) return FileKind::Unreadable;
        if (n == 0) break;
        got += std::size_t(n);
    }
    head.resize(got);
    return fileKindOfHead(head);
}

} // namespace planscope
