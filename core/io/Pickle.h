// Python pickle data as JSON, read without running anything (docs/FORMATS.md section 12). The opcodes are
// those of Python's pickle module documentation and Lib/pickletools.py (its `opcodes` table gives each one's
// byte, argument and protocol); only those that build plain data are read, protocols 2 to 5 as pickle.dump()
// writes dicts, lists, tuples, numbers, strings and bytes:
//   PROTO, FRAME, STOP, MARK, EMPTY_DICT, EMPTY_LIST, EMPTY_TUPLE, TUPLE, TUPLE1, TUPLE2, TUPLE3, APPEND,
//   APPENDS, SETITEM, SETITEMS, BININT, BININT1, BININT2, LONG1, LONG4, BINFLOAT, NONE, NEWTRUE, NEWFALSE,
//   SHORT_BINUNICODE, BINUNICODE, BINUNICODE8, SHORT_BINBYTES, BINBYTES, BINBYTES8, BYTEARRAY8, MEMOIZE,
//   BINPUT, LONG_BINPUT, BINGET, LONG_BINGET.
// Every other opcode is refused with its name and byte offset: GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST,
// OBJ, NEWOBJ and the rest that import or call Python code (the pickle documentation's warning: "it is
// possible to construct malicious pickle data which will execute arbitrary code during unpickling"), and the
// text forms of protocol 0.
//
// Bounded: every argument and every length prefix is checked against the bytes left, containers nest at most
// maxDepth deep, the values built are counted against maxValues and the values of the result against the
// smaller of maxValues and a million plus maxValuesPerByte per byte of the pickle (an object the memo shares
// is counted each time it appears in the result, so a few hundred bytes of nested references, 2^40 values
// expanded, are refused after a million). A truncated or hostile file is an error naming the opcode and its
// byte offset, never a crash.
#pragma once

#include "util/Result.h"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace planscope {

struct PickleLimits {
    int maxDepth = 256; // containers inside containers (and MARKs open at once)
    std::size_t maxValues = 20'000'000; // values built from the opcodes, and values of the resulting JSON
    // A memory snapshot's result holds a few values per byte of its pickle (a stack frame shared by reference
    // is two bytes and seven values); 32 leaves room.
    std::size_t maxValuesPerByte = 32;
    // Lists that are the value of a dict entry with one of these keys keep only their first `shortenedKeep`
    // items in the result (a memory snapshot's stack frames, which a long trace repeats by reference
    // thousands of times).
    std::vector<std::string> shortenedKeys;
    std::size_t shortenedKeep = 0;
};

// The value the pickle's STOP returns, as JSON: a dict is an object (a key that is not a string is written as
// its compact JSON text, 7 -> "7"; a later equal key replaces the earlier, as in Python), a list or tuple an
// array, an int an integer (a LONG1/LONG4 beyond 64 bits is an error), a float a number, None null, a str a
// string (bytes that are not UTF-8, such as the lone surrogates Python writes with "surrogatepass", become
// U+FFFD), bytes and bytearray a binary value. Bytes after STOP are not read, as pickle.load() leaves them.
// Errors carry the byte offset of the opcode at fault.
Result<nlohmann::json> readPickle(std::string_view bytes, const PickleLimits& limits = {});

// The name Lib/pickletools.py gives the opcode byte ("GLOBAL" for 'c'), or an empty view for a byte that is
// none.
std::string_view pickleOpcodeName(unsigned char opcode);

} // namespace planscope
