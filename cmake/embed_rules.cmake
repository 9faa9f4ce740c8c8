# embed_rules.cmake — generate the C table behind analyzer/util/embed.h.
#
# Run at build time as
#   cmake -DCA_SOURCE_DIR=<repo root> -DCA_MANIFEST=<list file> -DCA_OUTPUT=<file.c> -P embed_rules.cmake
# CA_MANIFEST lists the files to embed, one repo-relative path a line (the
# configure step writes it from a glob of rules/). Names and contents are
# emitted as hex bytes, so no byte of a file can break the C; each array ends
# in a NUL that `len` does not count. Entries are sorted by byte order, the
# order strcmp() uses, for ca_embed_find's binary search.

foreach(v CA_SOURCE_DIR CA_MANIFEST CA_OUTPUT)
    if(NOT DEFINED ${v})
        message(FATAL_ERROR "embed_rules.cmake: ${v} is not set")
    endif()
endforeach()

file(STRINGS "${CA_MANIFEST}" names)
list(FILTER names EXCLUDE REGEX "^$")
list(SORT names COMPARE STRING)
list(REMOVE_DUPLICATES names)

# Hex digits "4142" -> "0x41,0x42," with a line break every 16 bytes.
function(ca_hex_bytes hex out)
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
    string(REPEAT "0x[0-9a-f][0-9a-f]," 16 line)
    string(REGEX REPLACE "(${line})" "\\1\n    " bytes "${bytes}")
    set(${out} "${bytes}" PARENT_SCOPE)
endfunction()

set(body "")
set(table "")
set(i 0)
foreach(name IN LISTS names)
    set(path "${CA_SOURCE_DIR}/${name}")
    if(NOT EXISTS "${path}")
        message(FATAL_ERROR "embed_rules.cmake: ${path} vanished; re-run the build")
    endif()
    file(SIZE "${path}" size)
    file(READ "${path}" data_hex HEX)
    ca_hex_bytes("${data_hex}" data_bytes)
    string(HEX "${name}" name_hex)
    string(TOLOWER "${name_hex}" name_hex)
    ca_hex_bytes("${name_hex}" name_bytes)
    string(APPEND body
        "/* ${i}: ${size} bytes */\n"
        "static const unsigned char ca_embed_name_${i}[] = {\n    ${name_bytes}0x00\n};\n"
        "static const unsigned char ca_embed_data_${i}[] = {\n    ${data_bytes}0x00\n};\n")
    string(APPEND table "    { (const char *)ca_embed_name_${i}, (const char *)ca_embed_data_${i}, ${size} },\n")
    math(EXPR i "${i} + 1")
endforeach()

set(out "/* Generated from rules/ by cmake/embed_rules.cmake at build time; do not edit. */\n")
string(APPEND out "#include <stddef.h>\n#include <string.h>\n\n#include \"util/embed.h\"\n\n")
string(APPEND out "${body}\n")
string(APPEND out "/* The trailing empty entry keeps the array non-empty when rules/ is. */\n")
string(APPEND out "const ca_embedded ca_embedded_files[] = {\n${table}    { NULL, NULL, 0 },\n};\n")
string(APPEND out "const size_t ca_embedded_count = ${i};\n\n")
string(APPEND out [=[
const ca_embedded *ca_embed_find(const char *name)
{
    size_t lo = 0, hi = ca_embedded_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(name, ca_embedded_files[mid].name);
        if (c == 0) return &ca_embedded_files[mid];
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return NULL;
}
]=])

file(WRITE "${CA_OUTPUT}.tmp" "${out}")
file(RENAME "${CA_OUTPUT}.tmp" "${CA_OUTPUT}")
