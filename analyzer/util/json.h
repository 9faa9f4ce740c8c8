/*
 * json.h — a small JSON writer into a ca_sb, and a small JSON reader into a
 * DOM, shared by the reporters (json, sarif), the baseline file and the
 * configuration tooling.
 *
 * Writer: call ca_json_init(), then begin/end objects and arrays, keys and
 * scalars in document order; commas, colons and (optionally) 2-space
 * indentation are inserted automatically from an explicit nesting stack.
 * Strings are data: `"` `\` and control characters are escaped, invalid
 * UTF-8 is replaced by U+FFFD, so the output is always valid UTF-8 JSON.
 * Misuse (a value where a key is due, unbalanced ends) does not crash: it is
 * remembered and reported by ca_json_finish().
 *
 * Reader: ca_json_parse() builds a DOM in an arena owned by a ca_json_doc,
 * with an explicit stack (no recursion) and a depth limit, so hostile input
 * cannot exhaust the C stack. Errors carry "line L, column C" (1-based,
 * columns in code points).
 */
#ifndef CA_JSON_H
#define CA_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

/* ---- writer ---------------------------------------------------------- */

typedef struct ca_json_writer {
    ca_sb *out;             /* borrowed; text is appended */
    int pretty;             /* 1: newlines and 2-space indentation */
    int html_safe;          /* 1: also escape < > & as \u003c \u003e \u0026 */
    int error;              /* set on misuse; see ca_json_finish */
    int want_value;         /* a key was written, its value is due */
    int done;               /* the top-level value is complete */
    size_t depth;
    size_t cap;
    unsigned char *kind;    /* per level: '{' or '[' */
    size_t *count;          /* per level: members written so far */
} ca_json_writer;

/* Start writing into out (not reset: text is appended). pretty: 0 or 1. */
void ca_json_init(ca_json_writer *w, ca_sb *out, int pretty);
/* Check balance and misuse and free the nesting stack (out is kept).
 * Returns 0 when the document is complete and well formed, -1 otherwise. */
int ca_json_finish(ca_json_writer *w);

void ca_json_begin_object(ca_json_writer *w);
void ca_json_end_object(ca_json_writer *w);
void ca_json_begin_array(ca_json_writer *w);
void ca_json_end_array(ca_json_writer *w);
/* An object member's key; the next call must write its value. */
void ca_json_key(ca_json_writer *w, const char *key);
/* s NULL writes null. */
void ca_json_string(ca_json_writer *w, const char *s);
/* n bytes of s (may contain NUL bytes, which are escaped). */
void ca_json_string_n(ca_json_writer *w, const char *s, size_t n);
void ca_json_int(ca_json_writer *w, int64_t v);
/* Shortest text that reads back to v; NaN and infinities write null. */
void ca_json_double(ca_json_writer *w, double v);
void ca_json_bool(ca_json_writer *w, int v);
void ca_json_null(ca_json_writer *w);

/* Key + value shorthands for object members. */
void ca_json_kv_string(ca_json_writer *w, const char *key, const char *s);
void ca_json_kv_int(ca_json_writer *w, const char *key, int64_t v);
void ca_json_kv_bool(ca_json_writer *w, const char *key, int v);
void ca_json_kv_null(ca_json_writer *w, const char *key);
/* The member every cancelaudit document opens with: "tool": {name, version}. */
void ca_json_tool(ca_json_writer *w);

/* Append s[0..n) to sb as a quoted, escaped JSON string (the writer's
 * escaping, usable on its own). html_safe as in the writer. Bytes that are
 * not UTF-8 (a file name on a POSIX file system can hold any) are written
 * one by one as the lone surrogates U+DC80..U+DCFF ("\udcff" for 0xFF),
 * Python's surrogateescape (PEP 383): no UTF-8 text can produce them, so
 * two different names never print the same, and os.fsencode() of the
 * decoded string gives the bytes back; the reader below maps them back
 * too (docs/reliability.md, "Paths that are not UTF-8"). */
void ca_json_escape(ca_sb *sb, const char *s, size_t n, int html_safe);

/* Decode one UTF-8 sequence at s[0..n) (n >= 1). Returns the code point and
 * sets *adv to its length; for invalid input returns -1 and sets *adv to the
 * length of the maximal ill-formed subpart (>= 1), which a caller replaces
 * by one U+FFFD (Unicode's recommended practice). Overlong forms,
 * surrogates and values above U+10FFFF are invalid. */
int32_t ca_json_utf8_next(const char *s, size_t n, size_t *adv);
/* Append code point cp (0..0x10FFFF, not a surrogate) as UTF-8. */
void ca_json_utf8_put(ca_sb *sb, uint32_t cp);

/* ---- reader ---------------------------------------------------------- */

typedef enum ca_json_type {
    CA_JSON_NULL = 0,
    CA_JSON_BOOL,
    CA_JSON_NUMBER,
    CA_JSON_STRING,
    CA_JSON_ARRAY,
    CA_JSON_OBJECT
} ca_json_type;

typedef struct ca_json_value ca_json_value;
struct ca_json_value {
    ca_json_type type;
    int boolean;            /* BOOL */
    double number;          /* NUMBER */
    int is_int;             /* NUMBER written as an integer that fits int64 */
    int64_t integer;        /* NUMBER when is_int */
    const char *str;        /* STRING: NUL-terminated UTF-8 (may hold NULs: see len) */
    size_t len;             /* STRING: bytes; ARRAY/OBJECT: number of items */
    ca_json_value *items;   /* ARRAY elements, OBJECT member values */
    const char **keys;      /* OBJECT member keys, parallel to items */
};

/* A parsed document; everything lives in its arena. */
typedef struct ca_json_doc {
    ca_arena arena;
    ca_json_value *root;
} ca_json_doc;

#define CA_JSON_DEFAULT_DEPTH 512

/* Parse text[0..len) (need not be NUL-terminated; a leading UTF-8 BOM is
 * skipped) into doc. max_depth bounds array/object nesting (0: default).
 * Returns 0 on success; on failure returns -1, leaves doc empty and, when
 * err is not NULL, sets *err to a heap message "line L, column C: what"
 * (caller frees). Strict RFC 8259: no comments, no trailing commas, no raw
 * control characters or invalid UTF-8 in strings. The lone surrogates
 * \udc80..\udcff decode to the bytes 0x80..0xFF (the writer's escape for
 * bytes that are not UTF-8), other lone \u surrogates to U+FFFD. Free with
 * ca_json_doc_free() in either case. */
int ca_json_parse(const char *text, size_t len, int max_depth, ca_json_doc *doc, char **err);
void ca_json_doc_free(ca_json_doc *doc);

/* Member key of an object (last one wins on duplicates); NULL when v is not
 * an object or has no such member. */
const ca_json_value *ca_json_get(const ca_json_value *v, const char *key);
/* Element i of an array; NULL when out of range or v is not an array. */
const ca_json_value *ca_json_at(const ca_json_value *v, size_t i);
/* "null", "bool", "number", "string", "array", "object". */
const char *ca_json_type_name(ca_json_type t);

#endif
