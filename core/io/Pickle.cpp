#include "Pickle.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <unordered_map>

namespace planscope {

using nlohmann::json;

namespace {

// The opcode bytes, as Lib/pickletools.py's `opcodes` table lists them.
enum Op : unsigned char {
    MARK = '(',
    STOP = '.',
    POP = '0',
    POP_MARK = '1',
    DUP = '2',
    FLOAT = 'F',
    INT = 'I',
    BININT = 'J',
    BININT1 = 'K',
    LONG = 'L',
    BININT2 = 'M',
    NONE = 'N',
    PERSID = 'P',
    BINPERSID = 'Q',
    REDUCE = 'R',
    STRING = 'S',
    BINSTRING = 'T',
    SHORT_BINSTRING = 'U',
    UNICODE = 'V',
    BINUNICODE = 'X',
    APPEND = 'a',
    BUILD = 'b',
    GLOBAL = 'c',
    DICT = 'd',
    EMPTY_DICT = '}',
    APPENDS = 'e',
    GET = 'g',
    BINGET = 'h',
    INST = 'i',
    LONG_BINGET = 'j',
    LIST = 'l',
    EMPTY_LIST = ']',
    OBJ = 'o',
    PUT = 'p',
    BINPUT = 'q',
    LONG_BINPUT = 'r',
    SETITEM = 's',
    TUPLE = 't',
    EMPTY_TUPLE = ')',
    SETITEMS = 'u',
    BINFLOAT = 'G',
    PROTO = 0x80,
    NEWOBJ = 0x81,
    EXT1 = 0x82,
    EXT2 = 0x83,
    EXT4 = 0x84,
    TUPLE1 = 0x85,
    TUPLE2 = 0x86,
    TUPLE3 = 0x87,
    NEWTRUE = 0x88,
    NEWFALSE = 0x89,
    LONG1 = 0x8a,
    LONG4 = 0x8b,
    BINBYTES = 'B',
    SHORT_BINBYTES = 'C',
    SHORT_BINUNICODE = 0x8c,
    BINUNICODE8 = 0x8d,
    BINBYTES8 = 0x8e,
    EMPTY_SET = 0x8f,
    ADDITEMS = 0x90,
    FROZENSET = 0x91,
    NEWOBJ_EX = 0x92,
    STACK_GLOBAL = 0x93,
    MEMOIZE = 0x94,
    FRAME = 0x95,
    BYTEARRAY8 = 0x96,
    NEXT_BUFFER = 0x97,
    READONLY_BUFFER = 0x98,
};

struct OpcodeName {
    unsigned char code;
    std::string_view name;
};
constexpr OpcodeName kOpcodeTable[] = { { MARK, "MARK" }, { STOP, "STOP" }, { POP, "POP" },
    { POP_MARK, "POP_MARK" }, { DUP, "DUP" }, { FLOAT, "FLOAT" }, { INT, "INT" }, { BININT, "BININT" },
    { BININT1, "BININT1" }, { LONG, "LONG" }, { BININT2, "BININT2" }, { NONE, "NONE" }, { PERSID, "PERSID" },
    { BINPERSID, "BINPERSID" }, { REDUCE, "REDUCE" }, { STRING, "STRING" }, { BINSTRING, "BINSTRING" },
    { SHORT_BINSTRING, "SHORT_BINSTRING" }, { UNICODE, "UNICODE" }, { BINUNICODE, "BINUNICODE" },
    { APPEND, "APPEND" }, { BUILD, "BUILD" }, { GLOBAL, "GLOBAL" }, { DICT, "DICT" },
    { EMPTY_DICT, "EMPTY_DICT" }, { APPENDS, "APPENDS" }, { GET, "GET" }, { BINGET, "BINGET" },
    { INST, "INST" }, { LONG_BINGET, "LONG_BINGET" }, { LIST, "LIST" }, { EMPTY_LIST, "EMPTY_LIST" },
    { OBJ, "OBJ" }, { PUT, "PUT" }, { BINPUT, "BINPUT" }, { LONG_BINPUT, "LONG_BINPUT" },
    { SETITEM, "SETITEM" }, { TUPLE, "TUPLE" }, { EMPTY_TUPLE, "EMPTY_TUPLE" }, { SETITEMS, "SETITEMS" },
    { BINFLOAT, "BINFLOAT" }, { PROTO, "PROTO" }, { NEWOBJ, "NEWOBJ" }, { EXT1, "EXT1" }, { EXT2, "EXT2" },
    { EXT4, "EXT4" }, { TUPLE1, "TUPLE1" }, { TUPLE2, "TUPLE2" }, { TUPLE3, "TUPLE3" },
    { NEWTRUE, "NEWTRUE" }, { NEWFALSE, "NEWFALSE" }, { LONG1, "LONG1" }, { LONG4, "LONG4" },
    { BINBYTES, "BINBYTES" }, { SHORT_BINBYTES, "SHORT_BINBYTES" }, { SHORT_BINUNICODE, "SHORT_BINUNICODE" },
    { BINUNICODE8, "BINUNICODE8" }, { BINBYTES8, "BINBYTES8" }, { EMPTY_SET, "EMPTY_SET" },
    { ADDITEMS, "ADDITEMS" }, { FROZENSET, "FROZENSET" }, { NEWOBJ_EX, "NEWOBJ_EX" },
    { STACK_GLOBAL, "STACK_GLOBAL" }, { MEMOIZE, "MEMOIZE" }, { FRAME, "FRAME" },
    { BYTEARRAY8, "BYTEARRAY8" }, { NEXT_BUFFER, "NEXT_BUFFER" }, { READONLY_BUFFER, "READONLY_BUFFER" } };

constexpr std::array<std::string_view, 256> opcodeNames()
{
    std::array<std::string_view, 256> n {};
    for (const OpcodeName& o : kOpcodeTable)
        n[o.code] = o.name;
    return n;
}
constexpr std::array<std::string_view, 256> kOpcodeNames = opcodeNames();

// Opcodes that find a Python callable or class and call it or set its state (pickletools: GLOBAL and
// STACK_GLOBAL import, REDUCE, INST, OBJ, NEWOBJ, NEWOBJ_EX call, BUILD calls __setstate__, EXT1/2/4 look up
// the copyreg extension registry, PERSID/BINPERSID call persistent_load).
bool runsCode(unsigned char op)
{
    switch (op) {
    case GLOBAL:
    case STACK_GLOBAL:
    case REDUCE:
    case BUILD:
    case INST:
    case OBJ:
    case NEWOBJ:
    case NEWOBJ_EX:
    case EXT1:
    case EXT2:
    case EXT4:
    case PERSID:
    case BINPERSID:
        return true;
    default:
        return false;
    }
}

enum class Kind : std::uint8_t { None, Bool, Int, UInt, Float, Str, Bytes, List, Tuple, Dict };

const char* kindName(Kind k)
{
    switch (k) {
    case Kind::None:
        return "None";
    case Kind::Bool:
        return "bool";
    case Kind::Int:
    case Kind::UInt:
        return "int";
    case Kind::Float:
        return "float";
    case Kind::Str:
        return "str";
    case Kind::Bytes:
        return "bytes";
    case Kind::List:
        return "list";
    case Kind::Tuple:
        return "tuple";
    case Kind::Dict:
        return "dict";
    }
    return "value";
}

// One Python object the opcodes built. Containers hold their items by index (a dict: key, value, key, value
// ...), so an object the memo shares is one node however often it is referenced, and a list filled after it
// was memoised (pickle.dump() writes EMPTY_LIST, MEMOIZE, then APPENDS) is seen filled by every later BINGET,
// as in Python.
struct Node {
    Kind kind = Kind::None;
    std::uint64_t offset = 0; // of the opcode that made it
    union {
        std::int64_t i;
        std::uint64_t u;
        double d;
        bool b;
    } v { 0 };
    std::uint64_t pos = 0, len = 0; // Str, Bytes: the bytes in the input; containers: pos indexes `items`
};

// Replaces what is not UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF) with
// U+FFFD.
std::string validUtf8(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t n = 0;
        std::uint32_t cp = 0, min = 0;
        if (c < 0x80) {
            out += char(c);
            ++i;
            continue;
        }
        if ((c & 0xE0) == 0xC0)
            n = 2, cp = c & 0x1F, min = 0x80;
        else if ((c & 0xF0) == 0xE0)
            n = 3, cp = c & 0x0F, min = 0x800;
        else if ((c & 0xF8) == 0xF0)
            n = 4, cp = c & 0x07, min = 0x10000;
        bool ok = n > 0 && i + n <= s.size();
        for (std::size_t k = 1; ok && k < n; ++k) {
            const auto cc = static_cast<unsigned char>(s[i + k]);
            ok = (cc & 0xC0) == 0x80;
            cp = (cp << 6) | (cc & 0x3F);
        }
        ok = ok && cp >= min && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
        if (ok) {
            out.append(s.substr(i, n));
            i += n;
        } else {
            out += "\xEF\xBF\xBD";
            ++i;
        }
    }
    return out;
}

class Reader {
public:
    Reader(std::string_view bytes, const PickleLimits& limits)
        : m_in(bytes)
        , m_limits(limits)
        , m_budget(std::min(limits.maxValues,
              std::size_t(1'000'000)
                  + std::min(bytes.size(), std::size_t(1) << 40) * limits.maxValuesPerByte))
    {
    }

    Result<json> run()
    {
        if (!parse()) return Result<json>(Issues { m_error });
        json out;
        if (!convert(m_stack.back(), 0, out)) return Result<json>(Issues { m_error });
        return out;
    }

private:
    std::string_view m_in;
    const PickleLimits& m_limits;
    std::size_t m_pos = 0;
    std::uint64_t m_op = 0; // offset of the opcode being read
    unsigned char m_code = 0;
    std::vector<Node> m_nodes;
    std::vector<std::vector<std::uint32_t>> m_items;
    std::vector<std::uint32_t> m_stack;
    std::vector<std::size_t> m_marks; // stack sizes at each open MARK
    std::unordered_map<std::uint64_t, std::uint32_t> m_memo;
    std::size_t m_budget; // values the result may have
    std::size_t m_converted = 0;
    Issue m_error;

    std::string_view name() const { return kOpcodeNames[m_code]; }

    bool fail(Text text, std::uint64_t offset)
    {
        m_error = issue(Severity::Error, "", std::move(text), std::int64_t(offset));
        return false;
    }

    // n bytes of the current opcode's argument, or an error naming the opcode when fewer are left.
    bool take(std::uint64_t n, std::string_view& out)
    {
        const std::uint64_t left = m_in.size() - m_pos;
        if (n > left)
            return fail(
                Text(PS_TEXT("CoreText", "%1 at byte %2 needs %3 more bytes; the data ends at byte %4"),
                    name(), m_op, n, m_in.size()),
                m_op);
        out = m_in.substr(m_pos, std::size_t(n));
        m_pos += std::size_t(n);
        return true;
    }

    template <typename T> bool little(int width, T& out)
    {
        std::string_view b;
        if (!take(std::uint64_t(width), b)) return false;
        std::uint64_t u = 0;
        for (int k = width - 1; k >= 0; --k)
            u = (u << 8) | static_cast<unsigned char>(b[std::size_t(k)]);
        out = T(u);
        return true;
    }

    std::optional<std::uint32_t> add(Node n)
    {
        if (m_nodes.size() >= m_limits.maxValues
            || m_nodes.size() >= std::numeric_limits<std::uint32_t>::max()) {
            fail(Text(PS_TEXT("CoreText", "the pickle holds more than %1 values (at byte %2)"),
                     m_limits.maxValues, m_op),
                m_op);
            return std::nullopt;
        }
        n.offset = m_op;
        if (n.kind == Kind::List || n.kind == Kind::Tuple || n.kind == Kind::Dict) {
            n.pos = m_items.size();
            m_items.emplace_back();
        }
        m_nodes.push_back(n);
        return std::uint32_t(m_nodes.size() - 1);
    }

    bool push(Node n)
    {
        const auto id = add(n);
        if (!id) return false;
        m_stack.push_back(*id);
        return true;
    }

    // The values above the innermost MARK (Python's Unpickler starts a new stack at each MARK).
    std::size_t available() const { return m_stack.size() - (m_marks.empty() ? 0 : m_marks.back()); }

    bool need(std::size_t n)
    {
        if (available() >= n) return true;
        return fail(Text(PS_TEXT("CoreText", "%1 at byte %2 needs %3 values on the stack and finds %4"),
                        name(), m_op, n, available()),
            m_op);
    }

    // The values pushed since the innermost MARK, which is closed.
    bool popMark(std::vector<std::uint32_t>& out)
    {
        if (m_marks.empty())
            return fail(Text(PS_TEXT("CoreText", "%1 at byte %2 has no MARK before it"), name(), m_op), m_op);
        const std::size_t at = m_marks.back();
        m_marks.pop_back();
        out.assign(m_stack.begin() + std::ptrdiff_t(at), m_stack.end());
        m_stack.resize(at);
        return true;
    }

    bool target(Kind kind, std::uint32_t& id)
    {
        if (!need(1)) return false;
        id = m_stack.back();
        if (m_nodes[id].kind == kind) return true;
        return fail(Text(PS_TEXT("CoreText", "%1 at byte %2 needs a %3 below its items and finds a %4"),
                        name(), m_op, kindName(kind), kindName(m_nodes[id].kind)),
            m_op);
    }

    bool tuple(std::size_t n)
    {
        if (!need(n)) return false;
        const auto id = add(Node { Kind::Tuple });
        if (!id) return false;
        auto& items = m_items[m_nodes[*id].pos];
        items.assign(m_stack.end() - std::ptrdiff_t(n), m_stack.end());
        m_stack.resize(m_stack.size() - n);
        m_stack.push_back(*id);
        return true;
    }

    bool text(Kind kind, int width)
    {
        std::uint64_t n = 0;
        if (!little(width, n)) return false;
        const std::size_t at = m_pos;
        std::string_view b;
        if (!take(n, b)) return false;
        Node node { kind };
        node.pos = at;
        node.len = n;
        return push(node);
    }

    // LONG1/LONG4: n bytes, little-endian two's complement (pickletools: decode_long).
    bool longInt(std::uint64_t n)
    {
        std::string_view b;
        if (!take(n, b)) return false;
        Node node { Kind::Int };
        if (n == 0) return push(node);
        const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(b[k]); };
        const bool negative = byte(std::size_t(n) - 1) & 0x80;
        const unsigned char extend = negative ? 0xFF : 0x00;
        for (std::size_t k = 8; k < n; ++k)
            if (byte(k) != extend)
                return fail(Text(PS_TEXT("CoreText",
                                     "%1 at byte %2 holds an integer of %3 bytes, wider than 64 bits"),
                                name(), m_op, n),
                    m_op);
        std::uint64_t u = 0;
        const std::size_t low = std::min<std::size_t>(std::size_t(n), 8);
        for (std::size_t k = low; k-- > 0;)
            u = (u << 8) | byte(k);
        if (n < 8 && negative) u |= ~std::uint64_t(0) << (8 * n); // sign-extend
        const bool top = u >> 63;
        if (n > 8 && negative != top) {
            // 2^63..2^64-1 (Python writes 9 bytes, the last 0): unsigned; below -2^63 does not fit.
            if (negative)
                return fail(Text(PS_TEXT("CoreText",
                                     "%1 at byte %2 holds an integer of %3 bytes, wider than 64 bits"),
                                name(), m_op, n),
                    m_op);
            node.kind = Kind::UInt;
            node.v.u = u;
            return push(node);
        }
        node.v.i = std::int64_t(u);
        return push(node);
    }

    bool parse()
    {
        while (m_pos < m_in.size()) {
            m_op = m_pos;
            m_code = static_cast<unsigned char>(m_in[m_pos++]);
            switch (m_code) {
            case PROTO: {
                std::uint64_t p = 0;
                if (!little(1, p)) return false;
                if (p < 2 || p > 5)
                    return fail(Text(PS_TEXT("CoreText",
                                         "PROTO at byte %1 asks for protocol %2; protocols 2 to 5 are read"),
                                    m_op, p),
                        m_op);
                break;
            }
            case FRAME: {
                // A frame only groups the opcodes that follow (PEP 3154); its length must fit the bytes left.
                std::uint64_t n = 0;
                if (!little(8, n)) return false;
                if (n > m_in.size() - m_pos)
                    return fail(Text(PS_TEXT("CoreText",
                                         "%1 at byte %2 needs %3 more bytes; the data ends at byte %4"),
                                    name(), m_op, n, m_in.size()),
                        m_op);
                break;
            }
            case STOP:
                if (!m_marks.empty() || m_stack.size() != 1)
                    return fail(
                        Text(PS_TEXT("CoreText",
                                 "STOP at byte %1 leaves %2 values on the stack where a pickle leaves one"),
                            m_op, m_stack.size() + m_marks.size()),
                        m_op);
                return true;
            case MARK:
                if (m_marks.size() >= std::size_t(m_limits.maxDepth))
                    return fail(Text(PS_TEXT("CoreText", "containers nest deeper than %1 at byte %2"),
                                    m_limits.maxDepth, m_op),
                        m_op);
                m_marks.push_back(m_stack.size());
                break;
            case EMPTY_DICT:
                if (!push(Node { Kind::Dict })) return false;
                break;
            case EMPTY_LIST:
                if (!push(Node { Kind::List })) return false;
                break;
            case EMPTY_TUPLE:
                if (!push(Node { Kind::Tuple })) return false;
                break;
            case TUPLE: {
                std::vector<std::uint32_t> items;
                if (!popMark(items)) return false;
                const auto id = add(Node { Kind::Tuple });
                if (!id) return false;
                m_items[m_nodes[*id].pos] = std::move(items);
                m_stack.push_back(*id);
                break;
            }
            case TUPLE1:
            case TUPLE2:
            case TUPLE3:
                if (!tuple(std::size_t(m_code - TUPLE1 + 1))) return false;
                break;
            case APPEND: {
                if (!need(2)) return false;
                const std::uint32_t item = m_stack.back();
                m_stack.pop_back();
                std::uint32_t list = 0;
                if (!target(Kind::List, list)) return false;
                m_items[m_nodes[list].pos].push_back(item);
                break;
            }
            case APPENDS: {
                std::vector<std::uint32_t> items;
                if (!popMark(items)) return false;
                std::uint32_t list = 0;
                if (!target(Kind::List, list)) return false;
                auto& to = m_items[m_nodes[list].pos];
                to.insert(to.end(), items.begin(), items.end());
                break;
            }
            case SETITEM: {
                if (!need(3)) return false;
                const std::uint32_t value = m_stack.back();
                m_stack.pop_back();
                const std::uint32_t key = m_stack.back();
                m_stack.pop_back();
                std::uint32_t dict = 0;
                if (!target(Kind::Dict, dict)) return false;
                m_items[m_nodes[dict].pos].insert(m_items[m_nodes[dict].pos].end(), { key, value });
                break;
            }
            case SETITEMS: {
                std::vector<std::uint32_t> items;
                if (!popMark(items)) return false;
                if (items.size() % 2 != 0)
                    return fail(Text(PS_TEXT("CoreText",
                                         "SETITEMS at byte %1 has an odd number of items (%2): keys and "
                                         "values come in pairs"),
                                    m_op, items.size()),
                        m_op);
                std::uint32_t dict = 0;
                if (!target(Kind::Dict, dict)) return false;
                auto& to = m_items[m_nodes[dict].pos];
                to.insert(to.end(), items.begin(), items.end());
                break;
            }
            case BININT: {
                std::uint32_t u = 0;
                if (!little(4, u)) return false;
                Node n { Kind::Int };
                n.v.i = std::int32_t(u);
                if (!push(n)) return false;
                break;
            }
            case BININT1:
            case BININT2: {
                std::uint64_t u = 0;
                if (!little(m_code == BININT1 ? 1 : 2, u)) return false;
                Node n { Kind::Int };
                n.v.i = std::int64_t(u);
                if (!push(n)) return false;
                break;
            }
            case LONG1: {
                std::uint64_t n = 0;
                if (!little(1, n) || !longInt(n)) return false;
                break;
            }
            case LONG4: {
                std::uint32_t u = 0;
                if (!little(4, u)) return false;
                const std::int32_t n = std::int32_t(u);
                if (n < 0)
                    return fail(Text(PS_TEXT("CoreText", "%1 at byte %2 gives a negative length (%3)"),
                                    name(), m_op, n),
                        m_op);
                if (!longInt(std::uint64_t(n))) return false;
                break;
            }
            case BINFLOAT: {
                // Eight bytes, big-endian IEEE 754 (pickletools: float8).
                std::string_view b;
                if (!take(8, b)) return false;
                std::uint64_t u = 0;
                for (char c : b)
                    u = (u << 8) | static_cast<unsigned char>(c);
                Node n { Kind::Float };
                n.v.d = std::bit_cast<double>(u);
                if (!push(n)) return false;
                break;
            }
            case NONE:
                if (!push(Node { Kind::None })) return false;
                break;
            case NEWTRUE:
            case NEWFALSE: {
                Node n { Kind::Bool };
                n.v.b = m_code == NEWTRUE;
                if (!push(n)) return false;
                break;
            }
            case SHORT_BINUNICODE:
                if (!text(Kind::Str, 1)) return false;
                break;
            case BINUNICODE:
                if (!text(Kind::Str, 4)) return false;
                break;
            case BINUNICODE8:
                if (!text(Kind::Str, 8)) return false;
                break;
            case SHORT_BINBYTES:
                if (!text(Kind::Bytes, 1)) return false;
                break;
            case BINBYTES:
                if (!text(Kind::Bytes, 4)) return false;
                break;
            case BINBYTES8:
            case BYTEARRAY8:
                if (!text(Kind::Bytes, 8)) return false;
                break;
            case MEMOIZE:
                if (!need(1)) return false;
                m_memo[m_memo.size()] = m_stack.back();
                break;
            case BINPUT:
            case LONG_BINPUT: {
                std::uint64_t k = 0;
                if (!little(m_code == BINPUT ? 1 : 4, k) || !need(1)) return false;
                m_memo[k] = m_stack.back();
                break;
            }
            case BINGET:
            case LONG_BINGET: {
                std::uint64_t k = 0;
                if (!little(m_code == BINGET ? 1 : 4, k)) return false;
                const auto it = m_memo.find(k);
                if (it == m_memo.end())
                    return fail(
                        Text(PS_TEXT("CoreText", "%1 at byte %2 reads memo entry %3, which no opcode stored"),
                            name(), m_op, k),
                        m_op);
                m_stack.push_back(it->second);
                break;
            }
            default:
                if (runsCode(m_code))
                    return fail(Text(PS_TEXT("CoreText",
                                         "%1 at byte %2 is refused: it imports or calls Python code, and "
                                         "only plain data "
                                         "(dicts, lists, numbers, strings) is read"),
                                    name(), m_op),
                        m_op);
                if (!name().empty())
                    return fail(Text(PS_TEXT("CoreText",
                                         "%1 at byte %2 is not read: only the opcodes that pickle protocols "
                                         "2 to 5 write "
                                         "for plain data are"),
                                    name(), m_op),
                        m_op);
                char hex[8];
                std::snprintf(hex, sizeof hex, "%02x", unsigned(m_code));
                return fail(Text(PS_TEXT("CoreText", "0x%1 at byte %2 is not a pickle opcode"),
                                std::string(hex), m_op),
                    m_op);
            }
        }
        return fail(
            Text(PS_TEXT("CoreText", "the data ends at byte %1 without the STOP opcode that ends a pickle"),
                m_in.size()),
            m_in.size());
    }

    bool shortened(std::uint32_t key) const
    {
        const Node& k = m_nodes[key];
        if (k.kind != Kind::Str || m_limits.shortenedKeys.empty()) return false;
        const std::string_view s = m_in.substr(std::size_t(k.pos), std::size_t(k.len));
        return std::find(m_limits.shortenedKeys.begin(), m_limits.shortenedKeys.end(), s)
            != m_limits.shortenedKeys.end();
    }

    // The node as JSON; depth counts the containers around it (a container that holds itself ends here).
    bool convert(
        std::uint32_t id, int depth, json& out, std::size_t keep = std::numeric_limits<std::size_t>::max())
    {
        const Node& n = m_nodes[id];
        if (++m_converted > m_budget)
            return fail(Text(PS_TEXT("CoreText", "the pickle holds more than %1 values (at byte %2)"),
                            m_budget, n.offset),
                n.offset);
        switch (n.kind) {
        case Kind::None:
            out = nullptr;
            return true;
        case Kind::Bool:
            out = n.v.b;
            return true;
        case Kind::Int:
            out = n.v.i;
            return true;
        case Kind::UInt:
            out = n.v.u;
            return true;
        case Kind::Float:
            out = n.v.d;
            return true;
        case Kind::Str:
            out = validUtf8(m_in.substr(std::size_t(n.pos), std::size_t(n.len)));
            return true;
        case Kind::Bytes: {
            const std::string_view b = m_in.substr(std::size_t(n.pos), std::size_t(n.len));
            out = json::binary(json::binary_t::container_type(b.begin(), b.end()));
            return true;
        }
        case Kind::List:
        case Kind::Tuple:
        case Kind::Dict:
            break;
        }
        if (depth >= m_limits.maxDepth)
            return fail(Text(PS_TEXT("CoreText", "containers nest deeper than %1 at byte %2"),
                            m_limits.maxDepth, n.offset),
                n.offset);
        const std::vector<std::uint32_t>& items = m_items[n.pos];
        if (n.kind != Kind::Dict) {
            out = json::array();
            const std::size_t count = std::min(items.size(), keep);
            for (std::size_t k = 0; k < count; ++k) {
                json v;
                if (!convert(items[k], depth + 1, v)) return false;
                out.push_back(std::move(v));
            }
            return true;
        }
        out = json::object();
        for (std::size_t k = 0; k + 1 < items.size(); k += 2) {
            std::string key;
            if (m_nodes[items[k]].kind == Kind::Str) {
                const Node& s = m_nodes[items[k]];
                key = validUtf8(m_in.substr(std::size_t(s.pos), std::size_t(s.len)));
                ++m_converted;
            } else {
                json kj;
                if (!convert(items[k], depth + 1, kj)) return false;
                key = kj.dump();
            }
            json v;
            const bool shorten = shortened(items[k])
                && (m_nodes[items[k + 1]].kind == Kind::List || m_nodes[items[k + 1]].kind == Kind::Tuple);
            if (!convert(items[k + 1], depth + 1, v,
                    shorten ? m_limits.shortenedKeep : std::numeric_limits<std::size_t>::max()))
                return false;
            out[key] = std::move(v);
        }
        return true;
    }
};

} // namespace

std::string_view pickleOpcodeName(unsigned char opcode)
{
    return kOpcodeNames[opcode];
}

Result<json> readPickle(std::string_view bytes, const PickleLimits& limits)
{
    Reader reader(bytes, limits);
    return reader.run();
}

} // namespace planscope
