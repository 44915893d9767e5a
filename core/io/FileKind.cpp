#include "FileKind.h"

#include <filesystem>
#include <fstream>

namespace planscope {

std::string_view toString(FileKind kind)
{
    switch (kind) {
    case FileKind::Plan: return "plan";
    case FileKind::Profile: return "profile";
    case FileKind::NcclTests: return "nccl-tests";
    case FileKind::Trace: return "trace";
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
    if (has("planscope/plan/")) return FileKind::Plan;
    if (has("planscope/profile/")) return FileKind::Profile;
    if (has("# nThread") || (has("\"nccl_version\"") && has("\"config\""))) return FileKind::NcclTests;
    if (has("\"traceEvents\"")) return FileKind::Trace;
    return FileKind::Plan;
}

FileKind fileKindOf(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return FileKind::Trace;
    std::ifstream in(path, std::ios::binary);
    if (!in) return FileKind::Unreadable;
    std::string head(64 * 1024, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(std::size_t(in.gcount()));
    return fileKindOfHead(head);
}

} // namespace planscope
