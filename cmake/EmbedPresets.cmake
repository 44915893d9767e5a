# Writes a C++ source that holds each data file (the presets, the published MFU ceilings) as a string (run at build time with -P).
# Inputs: OUTPUT, INPUTS (files separated by "|").
string(REPLACE "|" ";" INPUTS "${INPUTS}")
set(body "// Generated from resources/presets and samples/published by cmake/EmbedPresets.cmake. Do not edit.\n#include <string_view>\n\nnamespace planscope {\n\nstd::string_view embeddedPresetFile(std::string_view fileName)\n{\n")
foreach(file IN LISTS INPUTS)
  get_filename_component(name "${file}" NAME)
  file(READ "${file}" content HEX)
  string(LENGTH "${content}" hexlen)
  # Hex bytes avoid any raw-string delimiter clash and keep the text byte-exact.
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${content}")
  string(APPEND body "    if (fileName == \"${name}\") {\n        static const char data[] = { ${bytes} 0 };\n        return std::string_view(data, sizeof(data) - 1);\n    }\n")
endforeach()
string(APPEND body "    return {};\n}\n\n} // namespace planscope\n")
file(WRITE "${OUTPUT}.tmp" "${body}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
