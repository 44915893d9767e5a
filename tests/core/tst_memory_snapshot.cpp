// PyTorch CUDA memory snapshots (core/trace/MemorySnapshot.h) and the pickle reader under them
// (core/io/Pickle.h): values Python's pickle module wrote at protocols 2 to 5 read back equal to what Python
// holds (the sidecar tests/data/memory-snapshots/expected.json, written by make_snapshot.py from the same
// objects); the opcodes Python writes only for huge data, built byte by byte from Lib/pickletools.py's
// descriptions; every truncation of a file and every opcode that would run code refused with its byte offset;
// the peaks of a snapshot counted by hand from its events, and those of longer traces against the script's
// forward count; and the check against a plan's stage.
#include "TestUtil.h"

#include "analysis/Analysis.h"
#include "io/Pickle.h"
#include "trace/MemorySnapshot.h"

#include <QObject>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace planscope;
using nlohmann::json;
using namespace std::string_literals;

namespace {

constexpr std::int64_t MiB = 1 << 20;

std::string readData(const std::string& name)
{
    std::ifstream in(
        std::string(PLANSCOPE_SOURCE_DIR) + "/tests/data/memory-snapshots/" + name, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

const json& expected()
{
    static const json e = json::parse(readData("expected.json"));
    return e;
}

// The reader's binary values as the sidecar writes bytes: {"__bytes__": hex}.
json comparable(const json& v)
{
    if (v.is_binary()) {
        std::string hex;
        char two[3];
        for (std::uint8_t b : v.get_binary()) {
            std::snprintf(two, sizeof two, "%02x", unsigned(b));
            hex += two;
        }
        return { { "__bytes__", hex } };
    }
    if (v.is_object()) {
        json o = json::object();
        for (const auto& [k, x] : v.items())
            o[k] = comparable(x);
        return o;
    }
    if (v.is_array()) {
        json a = json::array();
        for (const json& x : v)
            a.push_back(comparable(x));
        return a;
    }
    return v;
}

// The pickle as written by the default protocol without its FRAME (PROTO 4 at 0, FRAME and its 8-byte length
// at 2): the same opcodes, so a truncation stops inside them rather than at the frame's length.
std::string withoutFrame(const std::string& p)
{
    if (p.size() < 11 || static_cast<unsigned char>(p[2]) != 0x95) return p;
    return p.substr(0, 2) + p.substr(11);
}

Issue firstError(const Result<json>& r)
{
    return r ? Issue {} : r.errors().front();
}

bool mentions(const Issue& i, const std::string& words)
{
    return i.message.find(words) != std::string::npos;
}

} // namespace

class TestMemorySnapshot : public QObject {
    Q_OBJECT
private slots:
    // Every kind of value, at protocols 2 to 5, equal to the objects Python pickled.
    void valuesReadBackAsPythonWroteThem()
    {
        for (const char* name :
            { "values-p2.pickle", "values-p3.pickle", "values-p4.pickle", "values-p5.pickle" }) {
            const auto r = readPickle(readData(name));
            QVERIFY2(r.ok(), (name + ": "s + firstError(r).message).c_str());
            const json got = comparable(r.value());
            const json& want = expected()["values"][name];
            for (const auto& [key, value] : want.items())
                QVERIFY2(
                    got[key] == value, (name + " "s + key + ": " + got[key].dump().substr(0, 400)).c_str());
            QCOMPARE(got.size(), want.size());
        }
        // Spot values written out here, as Python spells them.
        const json v = readPickle(readData("values-p4.pickle")).value();
        QCOMPARE(v["ints"][14].get<std::int64_t>(), std::numeric_limits<std::int64_t>::max()); // 2**63 - 1
        QCOMPARE(v["ints"][15].get<std::int64_t>(), std::numeric_limits<std::int64_t>::min()); // -2**63
        QVERIFY(v["ints"][16].is_number_unsigned());
        QCOMPARE(v["ints"][16].get<std::uint64_t>(), std::uint64_t(1) << 63); // 2**63
        QCOMPARE(v["ints"][17].get<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max()); // 2**64 - 1
        QCOMPARE(v["floats"][4].get<double>(), 1e300);
        QCOMPARE(v["strings"][4].get<std::string>(), std::string("\xe6\x98\xbe\xe5\xad\x98 memory"));
        // A lone surrogate, written with "surrogatepass" as three bytes that are not UTF-8: three U+FFFD.
        QCOMPARE(v["strings"][6].get<std::string>(),
            std::string("lone \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd surrogate"));
        QCOMPARE(v["intKeys"]["-7"].get<std::string>(), std::string("minus seven"));
        QCOMPARE(v["otherKeys"]["[1,\"two\"]"].get<std::string>(), std::string("tuple"));
        QCOMPARE(v["otherKeys"]["null"].get<std::string>(), std::string("none"));
        QCOMPARE(v["manyItems"].size(), std::size_t(2500)); // APPENDS in batches of 1000
        QCOMPARE(v["manyKeys"]["k1199"].get<int>(), 1199); // SETITEMS likewise
        QVERIFY(v["sharedTwice"][1] == (json { "shared", 1 }));
        QCOMPARE(readPickle(readData("values-p5.pickle")).value()["bytearray"].get_binary().size(),
            std::size_t(3));
    }

    // The opcodes Python writes only for data over 4 GB or for huge integers, and the memo by reference,
    // built from their descriptions in Lib/pickletools.py.
    void opcodesByHand()
    {
        const auto read = [](const std::string& bytes) { return readPickle(bytes); };
        // LONG4 (length 2): 300 = 0x012c; LONG1 of 0 bytes: 0; LONG1 2 bytes 0x7fff... -129 = 0xff7f.
        QCOMPARE(read("\x80\x04\x8b\x02\x00\x00\x00\x2c\x01."s).value().get<int>(), 300);
        QCOMPARE(read("\x80\x02\x8a\x00."s).value().get<int>(), 0);
        QCOMPARE(read("\x80\x02\x8a\x02\x7f\xff."s).value().get<int>(), -129);
        // 2**64 (nine bytes, the last 1) is wider than 64 bits.
        const auto wide = read("\x80\x02\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01."s);
        QVERIFY(!wide.ok());
        QVERIFY(
            mentions(firstError(wide), "LONG1 at byte 2 holds an integer of 9 bytes, wider than 64 bits"));
        QCOMPARE(firstError(wide).offset, std::int64_t(2));
        // -2**63 - 1 (nine bytes ff..ff 7f ff) does not fit either.
        QVERIFY(!read("\x80\x02\x8a\x09\xff\xff\xff\xff\xff\xff\xff\x7f\xff."s).ok());
        // BINUNICODE8, BINBYTES8, SHORT_BINBYTES, BINBYTES.
        QCOMPARE(read("\x80\x04\x8d\x02\x00\x00\x00\x00\x00\x00\x00hi."s).value().get<std::string>(),
            std::string("hi"));
        QCOMPARE(read("\x80\x04\x8e\x01\x00\x00\x00\x00\x00\x00\x00\xfe."s).value().get_binary().at(0),
            std::uint8_t(0xfe));
        QCOMPARE(read("\x80\x03\x43\x00."s).value().get_binary().size(), std::size_t(0));
        QCOMPARE(read("\x80\x03\x42\x01\x00\x00\x00z."s).value().get_binary().at(0), std::uint8_t('z'));
        // BINFLOAT, big-endian: 1.5 = 3f f8 00 ...; NEWTRUE, NONE.
        QCOMPARE(read("\x80\x02G\x3f\xf8\x00\x00\x00\x00\x00\x00."s).value().get<double>(), 1.5);
        QVERIFY(read("\x80\x02\x88."s).value() == json(true));
        QVERIFY(read("\x80\x02N."s).value() == json(nullptr));
        // BININT is signed: ff ff ff ff is -1; BININT2 unsigned: ff ff is 65535.
        QCOMPARE(read("\x80\x02J\xff\xff\xff\xff."s).value().get<int>(), -1);
        QCOMPARE(read("\x80\x02M\xff\xff."s).value().get<int>(), 65535);
        // TUPLE from a MARK, SETITEM, APPEND.
        QVERIFY(read("\x80\x02(K\x01K\x02K\x03K\x04t."s).value() == (json { 1, 2, 3, 4 }));
        QVERIFY(read("\x80\x02}X\x01\x00\x00\x00kK\x07s."s).value() == (json { { "k", 7 } }));
        QVERIFY(read("\x80\x02]K\x05"
                     "a."s)
                    .value()
            == (json { 5 }));
        // The memo holds the object, not a copy: the inner list memoised empty (MEMOIZE 1) and filled
        // afterwards is read back filled by BINGET 1. outer=[] MARK inner=[] MARK 1 2 APPENDS BINGET 1
        // APPENDS -> [[1,2],[1,2]].
        QVERIFY(read("\x80\x04]\x94(]\x94(K\x01K\x02"
                     "eh\x01"
                     "e."s)
                    .value()
            == (json { { 1, 2 }, { 1, 2 } }));
        // BINPUT/LONG_BINPUT at any index, read by BINGET/LONG_BINGET.
        // [] BINPUT 9, MARK, 1 LONG_BINPUT 256, LONG_BINGET 256, () BINPUT 3, BINGET 3, TUPLE2, APPENDS.
        QVERIFY(read("\x80\x02]q\x09(K\x01r\x00\x01\x00\x00j\x00\x01\x00\x00)q\x03h\x03\x86"
                     "e."s)
                    .value()
            == (json { 1, 1, json::array({ json::array(), json::array() }) }));
        // Bytes after STOP are left, as pickle.load() leaves them.
        QCOMPARE(read("\x80\x02K\x2a.garbage"s).value().get<int>(), 42);
        // A protocol 2 pickle without its PROTO is read as well (the opcodes decide, not the header).
        QCOMPARE(read("K\x01."s).value().get<int>(), 1);
    }

    // Opcodes that import or call Python code are refused by name and offset; so is what is not plain data.
    void codeIsRefused()
    {
        for (const auto& [name, where] : expected()["refused"].items()) {
            const auto r = readPickle(readData(name));
            QVERIFY(!r.ok());
            const Issue e = firstError(r);
            QCOMPARE(e.offset, where["offset"].get<std::int64_t>());
            const std::string words = where["opcode"].get<std::string>() + " at byte "
                + std::to_string(where["offset"].get<int>()) + " is refused: it imports or calls Python code";
            QVERIFY2(mentions(e, words), e.message.c_str());
        }
        struct Case {
            std::string bytes;
            std::string words;
            std::int64_t offset;
        };
        const Case cases[] = {
            { "\x80\x02\x63os\nsystem\n."s, "GLOBAL at byte 2 is refused", 2 },
            { "\x80\x02))R."s, "REDUCE at byte 4 is refused", 4 },
            { "\x80\x02}}b."s, "BUILD at byte 4 is refused", 4 },
            { "\x80\x02(i__main__\nX\n."s, "INST at byte 3 is refused", 3 },
            { "\x80\x02)\x29\x81."s, "NEWOBJ at byte 4 is refused", 4 },
            { "\x80\x04)}\x92."s, "NEWOBJ_EX at byte 4 is refused", 4 },
            { "\x80\x02\x82\x01."s, "EXT1 at byte 2 is refused", 2 },
            { "\x80\x02K\x01Q."s, "BINPERSID at byte 4 is refused", 4 },
            { "\x80\x02P1\n."s, "PERSID at byte 2 is refused", 2 },
            { "\x80\x02I42\n."s, "INT at byte 2 is not read", 2 },
            { "\x80\x04\x8f."s, "EMPTY_SET at byte 2 is not read", 2 },
            { "\x80\x05\x97."s, "NEXT_BUFFER at byte 2 is not read", 2 },
            { "\x80\x02\xff."s, "0xff at byte 2 is not a pickle opcode", 2 },
            { "\x80\x06N."s, "PROTO at byte 0 asks for protocol 6", 0 },
        };
        for (const Case& c : cases) {
            const auto r = readPickle(c.bytes);
            QVERIFY2(!r.ok(), c.words.c_str());
            QVERIFY2(mentions(firstError(r), c.words), (c.words + " / " + firstError(r).message).c_str());
            QCOMPARE(firstError(r).offset, c.offset);
        }
        // Every opcode of Lib/pickletools.py has its name; a byte that is none has none.
        QCOMPARE(pickleOpcodeName(0x93), std::string_view("STACK_GLOBAL"));
        QCOMPARE(pickleOpcodeName('c'), std::string_view("GLOBAL"));
        QVERIFY(pickleOpcodeName(0xff).empty());
    }

    // Every prefix of a file is an error at an offset within it, never a crash or a value: every prefix of
    // the small snapshot, and of the larger files (tens of kilobytes, a parse per prefix) the first and last
    // 512 and every 61st (the sanitized suite runs each parse about 30 times slower).
    void everyTruncationIsAnError()
    {
        const std::string files[] = { withoutFrame(readData("simple.pickle")), readData("values-p3.pickle"),
            readData("random.pickle"), withoutFrame(readData("random-tail.pickle")) };
        for (const std::string& full : files) {
            QVERIFY(readPickle(full).ok());
            for (std::size_t n = 0; n < full.size(); ++n) {
                if (n > 512 && n + 512 < full.size() && n % 61 != 0) continue;
                const auto r = readPickle(std::string_view(full).substr(0, n));
                QVERIFY(!r.ok());
                const Issue e = firstError(r);
                QVERIFY2(e.offset >= 0 && e.offset <= std::int64_t(n),
                    (std::to_string(n) + ": " + e.message).c_str());
                QVERIFY(!e.message.empty());
            }
        }
        // The frame's length is checked against what is left: a file cut anywhere after it fails at the
        // FRAME.
        const std::string framed = readData("random.pickle");
        const auto cut = readPickle(std::string_view(framed).substr(0, framed.size() / 2));
        QVERIFY(mentions(firstError(cut), "FRAME at byte 2 needs"));
        // Without its frame the pickle reads to the same value.
        QVERIFY(readPickle(withoutFrame(framed)).value() == readPickle(framed).value());
        // Truncated snapshots: errors with offsets too.
        const std::string simple = withoutFrame(readData("simple.pickle"));
        for (std::size_t n = 0; n < simple.size(); ++n) {
            const auto r = readMemorySnapshot(std::string_view(simple).substr(0, n));
            QVERIFY(!r.ok());
            QVERIFY(r.errors().front().offset >= 0);
        }
        QVERIFY(mentions(firstError(readPickle("")), "the data ends at byte 0 without the STOP opcode"));
    }

    // Bytes changed anywhere in a snapshot: read or refused, never a crash. Every position takes four of the
    // twelve values (a zero, 0xff, a MARK, MEMOIZE, BINPUT, BINGET, APPENDS, SETITEMS, LONG1, FRAME, PROTO, STOP),
    // in turn, so that each value lands on a third of the positions.
    void mutatedBytesNeverCrash()
    {
        const std::string simple = readData("simple.pickle");
        const int values[] = { 0x00, 0xff, 0x80, int('('), int('.'), 0x94, int('q'), int('h'), int('e'), int('u'), 0x8a, 0x95 };
        int refused = 0, read = 0;
        for (std::size_t i = 0; i < simple.size(); ++i)
            for (int k = 0; k < 4; ++k) {
                const int b = values[(i + std::size_t(k) * 3) % 12];
                std::string m = simple;
                m[i] = char(b);
                const auto r = readMemorySnapshot(m);
                (r.ok() ? read : refused) += 1;
                if (!r.ok()) QVERIFY(!r.errors().front().message.empty());
            }
        QVERIFY(refused > 0 && read > 0);
    }

    // Hostile structure: nesting, self-reference, expansion through the memo, a stack that does not add up.
    void hostilePicklesAreBounded()
    {
        // 300 MARKs: deeper than the 256 allowed.
        const auto marks = readPickle("\x80\x02" + std::string(300, '(') + ".");
        QVERIFY(mentions(firstError(marks), "containers nest deeper than 256 at byte 258"));
        // 300 lists, each appended into the one below: nested 300 deep when converted.
        std::string nested = "\x80\x02" + std::string(300, ']') + std::string(299, 'a') + ".";
        QVERIFY(mentions(firstError(readPickle(nested)), "containers nest deeper than 256"));
        // A list that holds itself (APPEND of its own memo entry).
        QVERIFY(mentions(firstError(readPickle("\x80\x04]\x94h\x00"
                                               "a."s)),
            "containers nest deeper than 256"));
        // Each level a list of the level below twice, 40 levels: 2^40 values if expanded.
        // MARK [] MEMOIZE, then per level [] MEMOIZE MARK BINGET n BINGET n APPENDS, and TUPLE of all the
        // levels.
        std::string laughs = "\x80\x04(]\x94";
        for (int level = 0; level < 40; ++level) {
            const char memo = char(level);
            laughs += "]\x94("s + "h" + memo + "h" + memo + "e";
        }
        laughs += "t.";
        PickleLimits small;
        small.maxValues = 100000;
        const auto bomb = readPickle(laughs, small);
        QVERIFY2(mentions(firstError(bomb), "the pickle holds more than 100000 values"),
            firstError(bomb).message.c_str());
        // With the default limits: refused after a million and 32 per byte of it.
        const auto defaults = readPickle(laughs);
        QVERIFY2(
            mentions(firstError(defaults),
                "the pickle holds more than " + std::to_string(1000000 + 32 * laughs.size()) + " values"),
            firstError(defaults).message.c_str());
        // Lengths larger than the file: refused before anything is allocated for them.
        QVERIFY(mentions(firstError(readPickle("\x80\x04\x8d\xff\xff\xff\xff\xff\xff\xff\x7fx."s)),
            "BINUNICODE8 at byte 2 needs 9223372036854775807 more bytes; the data ends at byte 13"));
        QVERIFY(mentions(firstError(readPickle("\x80\x02\x8b\xff\xff\xff\x7f."s)),
            "LONG4 at byte 2 needs 2147483647 more bytes"));
        QVERIFY(mentions(firstError(readPickle("\x80\x02\x8b\xff\xff\xff\xff."s)),
            "LONG4 at byte 2 gives a negative length (-1)"));
        QVERIFY(mentions(firstError(readPickle("\x80\x04\x95\x00\x00\x00\x00\x00\x00\x00\x01N."s)),
            "FRAME at byte 2 needs"));
        // Stacks that do not add up.
        QVERIFY(mentions(firstError(readPickle("\x80\x02K\x01\x87."s)),
            "TUPLE3 at byte 4 needs 3 values on the stack and finds 1"));
        QVERIFY(
            mentions(firstError(readPickle("\x80\x02K\x01t."s)), "TUPLE at byte 4 has no MARK before it"));
        QVERIFY(mentions(firstError(readPickle("\x80\x02}(K\x01u."s)),
            "SETITEMS at byte 6 has an odd number of items (1)"));
        QVERIFY(mentions(firstError(readPickle("\x80\x02}K\x01"
                                               "a."s)),
            "APPEND at byte 5 needs a list below its items and finds a dict"));
        QVERIFY(mentions(firstError(readPickle("\x80\x02(K\x01K\x02s."s)),
            "SETITEM at byte 7 needs 3 values on the stack and finds 2"));
        QVERIFY(mentions(firstError(readPickle("\x80\x02h\x05."s)),
            "BINGET at byte 2 reads memo entry 5, which no opcode stored"));
        QVERIFY(
            mentions(firstError(readPickle("\x80\x02NN."s)), "STOP at byte 4 leaves 2 values on the stack"));
        QVERIFY(mentions(firstError(readPickle("\x80\x02."s)), "STOP at byte 2 leaves 0 values"));
        QVERIFY(mentions(firstError(readPickle("\x80\x02\x94."s)),
            "MEMOIZE at byte 2 needs 1 values on the stack and finds 0"));
    }

    // simple.pickle, counted by hand from its eleven events (make_snapshot.py's simple_run):
    //   0 segment_alloc A 8 MiB   reserved 8 MiB
    //   1 alloc A 8 MiB           allocated 8 MiB, active 8 MiB
    //   2 segment_alloc B 4 MiB   reserved 12 MiB
    //   3 alloc B 4 MiB           allocated 12 MiB, active 12 MiB          <- allocated and active peak
    //   4 free_requested A        allocated 4 MiB
    //   5 free_completed A        active 4 MiB
    //   6 alloc A 1000000         allocated = active = 4 MiB + 1000000 = 5194304
    //   7 segment_alloc C 6 MiB   reserved 18 MiB                          <- reserved peak
    //   8 alloc C 6 MiB           allocated = active = 10 MiB + 1000000 = 11485760
    //   9 free_requested B        allocated 7291456; B awaits free_completed (active stays 11485760)
    //  10 oom                     no change
    // At the snapshot: A holds a 1000448-byte block (1000000 rounded up to 512) and 7388160 inactive, B a 4
    // MiB block pending free, C a 6 MiB block: allocated_size 1000448 + 6291456 = 7291904, active_size
    // 7291904 + 4 MiB = 11486208, requested 1000000 + 6 MiB = 7291456.
    void peaksCountedByHand()
    {
        const auto r = readMemorySnapshot(readData("simple.pickle"));
        QVERIFY2(r.ok(), r.ok() ? "" : r.errors().front().message.c_str());
        const MemorySnapshot& s = r.value();
        QVERIFY(s.hasTrace);
        QCOMPARE(s.devices.size(), std::size_t(1));
        const DeviceMemory& d = s.devices[0];
        QCOMPARE(d.device, 0);
        QCOMPARE(d.segments, 3);
        QCOMPARE(d.blocks, 4);
        QCOMPARE(d.reservedBytes, 18 * MiB);
        QCOMPARE(d.allocatedBytes, std::int64_t(7291904));
        QCOMPARE(d.activeBytes, std::int64_t(11486208));
        QCOMPARE(d.requestedBytes, std::int64_t(7291456));
        QCOMPARE(d.events, std::int64_t(11));
        QCOMPARE(d.allocs, std::int64_t(4));
        QCOMPARE(d.freeRequests, std::int64_t(2));
        QCOMPARE(d.freeCompletions, std::int64_t(1));
        QCOMPARE(d.segmentAllocs, std::int64_t(3));
        QCOMPARE(d.ooms, std::int64_t(1));
        QCOMPARE(d.allocatedAtStartBytes, std::int64_t(0));
        QCOMPARE(d.reservedAtStartBytes, std::int64_t(0));
        QCOMPARE(d.allocatedPeakBytes, 12 * MiB);
        QCOMPARE(d.activePeakBytes, 12 * MiB);
        QCOMPARE(d.reservedPeakBytes, 18 * MiB);
        QCOMPARE(d.allocatedPeakEvent, std::int64_t(3));
        QCOMPARE(d.reservedPeakEvent, std::int64_t(7));
        QCOMPARE(d.allocatedPeakTimeUs,
            std::int64_t(1000 + 4 * 7)); // make_snapshot.py: time_us 1000 + 7 per event
        QCOMPARE(d.allocationsBeforeTrace, std::int64_t(0));
        QVERIFY(!d.peakIsLowerBound);
        // The largest block in use first: C's 6 MiB, then B's 4 MiB pending free, with their innermost
        // frames.
        QCOMPARE(d.largestBlocks.at(0).size, 6 * MiB);
        QCOMPARE(d.largestBlocks.at(1).state, std::string("active_pending_free"));
        QCOMPARE(d.largestBlocks.at(1).frames.size(), kSnapshotFramesKept); // six frames written, four kept
        QCOMPARE(d.largestBlocks.at(1).frames.front(),
            std::string("/workspace/megatron/core/transformer/attention.py:311:forward"));
        QCOMPARE(d.largestSegments.at(0).totalSize, 8 * MiB);

        // The ring buffer's tail (events 4 to 10): the trace starts with A and B alive, 12 MiB allocated and
        // reserved; the allocated peak is that start, a lower bound; the reserved peak is still event 7, the
        // tail's fourth.
        const auto t = readMemorySnapshot(readData("simple-tail.pickle"));
        QVERIFY(t.ok());
        const DeviceMemory& tail = t.value().devices.at(0);
        QCOMPARE(tail.events, std::int64_t(7));
        QCOMPARE(tail.allocatedAtStartBytes, 12 * MiB);
        QCOMPARE(tail.activeAtStartBytes, 12 * MiB);
        QCOMPARE(tail.reservedAtStartBytes, 12 * MiB);
        QCOMPARE(tail.allocatedPeakBytes, 12 * MiB);
        QCOMPARE(tail.allocatedPeakEvent, std::int64_t(-1));
        QCOMPARE(tail.reservedPeakBytes, 18 * MiB);
        QCOMPARE(tail.reservedPeakEvent, std::int64_t(3));
        QCOMPARE(
            tail.allocationsBeforeTrace, std::int64_t(2)); // A (freed in the tail) and B (pending at the end)
        QVERIFY(tail.peakIsLowerBound);
        QVERIFY(tail.peakNote.english().find("ring buffer") != std::string::npos);
    }

    // Longer traces against make_snapshot.py's forward count from an empty allocator.
    void peaksAgreeWithTheForwardCount()
    {
        for (const auto& [name, devices] : expected()["snapshots"].items()) {
            const auto r = readMemorySnapshot(readData(name));
            QVERIFY2(r.ok(), (name + ": " + (r.ok() ? "" : r.errors().front().message)).c_str());
            const MemorySnapshot& s = r.value();
            QCOMPARE(s.devices.size(), devices.size());
            QVERIFY(s.warnings.empty());
            QCOMPARE(s.hasTrace, name != "segments-only.pickle");
            for (const json& e : devices) {
                const DeviceMemory* d = s.device(e["device"].get<int>());
                QVERIFY(d);
                const std::string what = name + " device " + std::to_string(d->device);
                QVERIFY2(d->events == e["events"].get<std::int64_t>(), what.c_str());
                QVERIFY2(d->allocs == e["counts"].value("alloc", 0), what.c_str());
                QVERIFY2(d->freeCompletions == e["counts"].value("free_completed", 0), what.c_str());
                QVERIFY2(d->segmentMaps + d->segmentAllocs
                        == e["counts"].value("segment_map", 0) + e["counts"].value("segment_alloc", 0),
                    what.c_str());
                QVERIFY2(d->ooms == e["counts"].value("oom", 0), what.c_str());
                QVERIFY2(d->allocatedAtStartBytes == e["atStart"]["allocatedBytes"].get<std::int64_t>(),
                    what.c_str());
                QVERIFY2(
                    d->activeAtStartBytes == e["atStart"]["activeBytes"].get<std::int64_t>(), what.c_str());
                QVERIFY2(d->reservedAtStartBytes == e["atStart"]["reservedBytes"].get<std::int64_t>(),
                    what.c_str());
                QVERIFY2(
                    d->allocatedPeakBytes == e["peak"]["allocatedBytes"].get<std::int64_t>(), what.c_str());
                QVERIFY2(d->activePeakBytes == e["peak"]["activeBytes"].get<std::int64_t>(), what.c_str());
                QVERIFY2(
                    d->reservedPeakBytes == e["peak"]["reservedBytes"].get<std::int64_t>(), what.c_str());
                QVERIFY2(
                    d->allocatedPeakEvent == e["peakEvent"]["allocated"].get<std::int64_t>(), what.c_str());
                QVERIFY2(
                    d->reservedPeakEvent == e["peakEvent"]["reserved"].get<std::int64_t>(), what.c_str());
                QVERIFY2(d->allocationsBeforeTrace == e["allocationsBeforeTrace"].get<std::int64_t>(),
                    what.c_str());
                QVERIFY2(d->peakIsLowerBound == e["peakIsLowerBound"].get<bool>(), what.c_str());
                QVERIFY2(d->reservedBytes == e["now"]["reservedBytes"].get<std::int64_t>(), what.c_str());
                QVERIFY2(d->allocatedBytes == e["now"]["allocatedBytes"].get<std::int64_t>(), what.c_str());
                QVERIFY2(d->activeBytes == e["now"]["activeBytes"].get<std::int64_t>(), what.c_str());
                QVERIFY2(d->requestedBytes == e["now"]["requestedBytes"].get<std::int64_t>(), what.c_str());
                QVERIFY2(d->segments == e["segments"].get<int>(), what.c_str());
                QVERIFY2(d->blocks == e["blocks"].get<int>(), what.c_str());
                QVERIFY2((d->largestBlocks.empty() ? 0 : d->largestBlocks.front().size)
                        == e["largestBlock"].get<std::int64_t>(),
                    what.c_str());
            }
        }
    }

    // Plain data that is no snapshot, or fields not as documented: errors naming the field.
    void structureErrorsNameTheField()
    {
        const auto error = [](const char* name) {
            const auto r = readMemorySnapshot(readData(name));
            return r.ok() ? Issue {} : r.errors().front();
        };
        QVERIFY(mentions(error("bad-not-a-dict.pickle"), "a memory snapshot is a dict with \"segments\""));
        const Issue notList = error("bad-segments-not-a-list.pickle");
        QCOMPARE(notList.path, std::string("segments"));
        QCOMPARE(notList.message, std::string("must be an array, found number"));
        const Issue missing = error("bad-missing-total-size.pickle");
        QCOMPARE(missing.path, std::string("segments[1].total_size"));
        QCOMPARE(missing.message, std::string("missing"));
        const Issue negative = error("bad-negative-size.pickle");
        QCOMPARE(negative.path, std::string("device_traces[0][0].size"));
        QVERIFY(mentions(negative, "must be between 0 and"));
        // Readable, with the disagreement said: the trace allocates what the segments do not hold.
        const auto disagree = readMemorySnapshot(readData("bad-disagree.pickle"));
        QVERIFY(disagree.ok());
        QCOMPARE(disagree.value().warnings.size(), std::size_t(1));
        QCOMPARE(disagree.value().warnings[0].path, std::string("device_traces[0]"));
        QCOMPARE(disagree.value().devices.at(0).allocatedAtStartBytes, -MiB);
        QCOMPARE(disagree.value().devices.at(0).reservedAtStartBytes, -2 * MiB);
        QVERIFY(disagree.value().devices.at(0).peakIsLowerBound);
        QVERIFY(disagree.value().devices.at(0).peakNote.english().find("disagree") != std::string::npos);
    }

    // The check of a plan's stage: the prediction's own figures beside the snapshot's peaks.
    void checkAgainstAPlan()
    {
        const Plan plan = test::loadSample("default.plan.json");
        const auto analysis = analyse(plan);
        QVERIFY(analysis->valid());
        const MemorySnapshot snapshot = readMemorySnapshot(readData("simple.pickle")).value();
        const auto r = checkMemory(*analysis, snapshot);
        QVERIFY(r.ok());
        const MemoryCheck& c = r.value();
        QCOMPARE(c.stage, 0); // rank 0 holds the first pipeline stage in Megatron's order
        QCOMPARE(c.device, 0);
        const StageMemory& s = analysis->prediction.stages.at(0);
        QCOMPARE(c.predictedAllocatedBytes, s.allocatedBytes);
        QCOMPARE(c.predictedReservedBytes, s.reservedBytes);
        QCOMPARE(c.predictedTotalBytes, s.totalBytes);
        // The predicted total is reserved plus what lies outside the allocator.
        QCOMPARE(c.predictedTotalBytes, c.predictedReservedBytes + c.outsideAllocatorBytes);
        QCOMPARE(c.allocatedPeakBytes, 12 * MiB);
        QCOMPARE(c.reservedPeakBytes, 18 * MiB);
        QCOMPARE(c.fragmentationBytes, 6 * MiB);
        QCOMPARE(c.rows.size(), std::size_t(4));
        QCOMPARE(c.rows[0].figure, std::string("allocated"));
        QCOMPARE(c.rows[0].differenceBytes, s.allocatedBytes - 12 * MiB);
        QVERIFY(test::near(
            c.rows[0].differencePercent, double(s.allocatedBytes - 12 * MiB) / double(12 * MiB) * 100));
        QCOMPARE(c.rows[1].differenceBytes, s.reservedBytes - 18 * MiB);
        QCOMPARE(c.rows[2].figure, std::string("fragmentation"));
        QCOMPARE(c.rows[2].predictedBytes, s.buffers.fragmentationBytes);
        QCOMPARE(c.rows[2].measuredBytes, 6 * MiB);
        QCOMPARE(c.rows[3].figure, std::string("total"));
        QCOMPARE(c.rows[3].differenceBytes, s.totalBytes - 18 * MiB);
        // A stage the plan has not, a device the snapshot has not.
        const int stages = int(analysis->prediction.stages.size());
        const auto badStage = checkMemory(*analysis, snapshot, stages);
        QVERIFY(!badStage.ok());
        QCOMPARE(badStage.errors().front().message,
            "stage " + std::to_string(stages) + " is not a pipeline stage of the plan (0 to "
                + std::to_string(stages - 1) + ")");
        const auto badDevice = checkMemory(*analysis, snapshot, 0, 3);
        QVERIFY(!badDevice.ok());
        QCOMPARE(badDevice.errors().front().message,
            std::string("device 3 is not in the snapshot, which has device 0"));
        // The last stage of a pipelined plan, against device 1 of a two-device snapshot.
        const Plan piped = test::loadSample("llama31-405b-pp8-vp8-h100.plan.json");
        const auto pa = analyse(piped);
        const MemorySnapshot two = readMemorySnapshot(readData("random.pickle")).value();
        const auto last = checkMemory(*pa, two, piped.parallel.pp - 1, 1);
        QVERIFY(last.ok());
        QCOMPARE(last.value().predictedAllocatedBytes,
            pa->prediction.stages.at(std::size_t(piped.parallel.pp - 1)).allocatedBytes);
        QCOMPARE(last.value().allocatedPeakBytes,
            expected()["snapshots"]["random.pickle"][1]["peak"]["allocatedBytes"].get<std::int64_t>());
    }
};

QTEST_GUILESS_MAIN(TestMemorySnapshot)
#include "tst_memory_snapshot.moc"
