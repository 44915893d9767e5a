// Kineto (PyTorch profiler) trace -> importKinetoText, and the gzip reader of importKinetoTrace. The importer reads
// gzip from a path only, so the bytes go through one in-memory file (memfd_create), rewritten per input: no disk.
// Input that starts with the gzip magic bytes is handed over as a .json.gz as it is (damaged streams); any other is
// imported as text and, gzipped here, through the path: both imports must agree.
#include "FuzzCheck.h"

#include "trace/KinetoImport.h"
#include "trace/LayoutInference.h"

#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

using namespace planscope;

namespace {
// The in-memory file and the path the importer opens it by.
const std::string& memoryFile(std::string_view bytes)
{
    static const int fd = memfd_create("fuzz_kineto", 0);
    static const std::string path = "/proc/self/fd/" + std::to_string(fd);
    FUZZ_CHECK(fd >= 0);
    FUZZ_CHECK(ftruncate(fd, 0) == 0);
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = pwrite(fd, bytes.data() + done, bytes.size() - done, off_t(done));
        FUZZ_CHECK(n > 0);
        done += std::size_t(n);
    }
    return path;
}

std::string gzip(std::string_view text)
{
    z_stream z {};
    FUZZ_CHECK(deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK); // 16: gzip wrapper
    std::string out(deflateBound(&z, uLong(text.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = uInt(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    FUZZ_CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes = fuzz::text(data, size);
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
        fuzz::checkFailureHasReason(importKinetoTrace(memoryFile(bytes)));
        return 0;
    }
    auto plain = importKinetoText(bytes, "fuzz");
    fuzz::checkFailureHasReason(plain);
    auto zipped = importKinetoTrace(memoryFile(gzip(bytes)));
    FUZZ_CHECK(plain.ok() == zipped.ok());
    if (!plain.ok()) {
        FUZZ_CHECK(plain.errors().front().message == zipped.errors().front().message);
        FUZZ_CHECK(plain.errors().front().offset == zipped.errors().front().offset);
        return 0;
    }
    const MeasuredRank& a = plain.value();
    const MeasuredRank& b = zipped.value();
    FUZZ_CHECK(a.events == b.events && a.kernels == b.kernels && a.memoryEvents == b.memoryEvents);
    FUZZ_CHECK(a.eventList.size() == b.eventList.size() && a.names == b.names && a.steps == b.steps);
    FUZZ_CHECK(a.skipped.has_value() == b.skipped.has_value());
    if (a.skipped) FUZZ_CHECK(a.skipped->offset == b.skipped->offset && a.skipped->reason == b.skipped->reason);
    FUZZ_CHECK(a.processGroups == b.processGroups && a.processGroupIssues == b.processGroupIssues);
    // The plan its process groups imply: every field either inferred or said why not, whatever the records hold.
    const InferredLayout layout = inferLayout({ a });
    FUZZ_CHECK(layout.fields.size() + layout.notInferred.size() == kLayoutFields.size());
    return 0;
}
