/*
 * py_precheck.h — byte checks on Python source before it is parsed: whether
 * a file can matter at all (the async prefilter) and whether it is safe to
 * hand to tree-sitter (bracket depth). Cheap scans of the bytes, not a
 * tokenizer; they need no parser, so a benchmark can link them alone
 * (tests/bench/parse_floor.c). The scan reaches them through the Python
 * frontend's ca_lang hooks (py_lang.c).
 */
#ifndef CA_PY_PRECHECK_H
#define CA_PY_PRECHECK_H

#include <stddef.h>

/* The bracket depth above which a file is refused before parsing: Debian's
 * tree-sitter 0.20.7 crashes on unclosed brackets nested deeper than about
 * 65,000 (DESIGN §10). */
#define PY_MAX_BRACKET_DEPTH 1000

/* 1 when the buffer may define a coroutine: it holds the word "async"
 * followed by "def" (bytes >= 0x80 count as identifier bytes; blanks and
 * backslash-newlines may stand between). 0 otherwise: every finding and
 * every matrix boundary lives in an `async def` (`await`, `async with` and
 * `async for` are only valid inside one), so such a file need not be
 * parsed. */
int py_prefilter_async(const char *buf, size_t len);

/* Maximum nesting depth of (, [ and { in Python source, ignoring brackets in
 * '#' comments and in string literals ('...', "...", '''...''', """...""",
 * backslash escapes honoured; brackets inside f-strings are counted, since
 * the parser nests on them too: a string counts as one when any run of
 * prefix letters before its quote holds an f, `uuf"` included). A cheap byte scan, not a tokenizer. Stops as
 * soon as the depth exceeds `limit` and returns limit + 1. */
int py_bracket_depth(const char *buf, size_t len, int limit);

#endif
