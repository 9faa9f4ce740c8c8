/*
 * toml.h — a TOML 1.0 reader for configuration files (pyproject.toml,
 * cancelaudit.toml). Sits below config.c: it knows the format and nothing
 * of cancelaudit's keys.
 *
 * ca_toml_parse() builds a DOM in which every value and every table entry
 * knows the line and column (1-based; columns in Unicode code points) where
 * it was written, so configuration errors can point at the offending line.
 * Supported: comments, bare/quoted/dotted keys, [table], [a.b],
 * [[array.of.tables]], basic/literal/multi-line strings with every 1.0
 * escape (\uXXXX, \UXXXXXXXX), integers (decimal, 0x, 0o, 0b, underscores;
 * int64 range), floats (incl. inf/nan), booleans, offset/local date-times,
 * dates and times (kept as their text, type CA_TOML_DATETIME), arrays
 * (mixed, nested, trailing commas, newlines and comments inside) and inline
 * tables. Redefinitions follow the 1.0 rules: duplicate keys, a table
 * defined twice, a dotted key reaching into a [header] table or an inline
 * table, [[x]] on a static array — each an error.
 *
 * Nesting (tables, arrays, inline tables, key parts together) is limited to
 * CA_TOML_MAX_DEPTH levels; deeper input is an error, never a deep C stack.
 * Errors are one heap string "ORIGIN:LINE:COL: what went wrong".
 */
#ifndef CA_TOML_H
#define CA_TOML_H

#include <stddef.h>
#include <stdint.h>

#define CA_TOML_MAX_DEPTH 128

typedef enum ca_toml_type {
    CA_TOML_STRING,
    CA_TOML_INTEGER,
    CA_TOML_FLOAT,
    CA_TOML_BOOL,
    CA_TOML_DATETIME, /* offset/local date-time, local date or time: `str` holds the text */
    CA_TOML_ARRAY,
    CA_TOML_TABLE
} ca_toml_type;

typedef struct ca_toml_value ca_toml_value;

/* One key of a table, in document order. */
typedef struct ca_toml_entry {
    const char *key;        /* NUL-terminated; may hold NULs (from \u0000): see key_len */
    size_t key_len;
    int line, col;          /* where the key (its last dotted part) was written */
    ca_toml_value *value;
} ca_toml_entry;

struct ca_toml_value {
    ca_toml_type type;
    int line, col;          /* where the value starts; a table: its header or first key */
    const char *str;        /* STRING, DATETIME: NUL-terminated UTF-8 */
    size_t len;             /* STRING, DATETIME: bytes (a string may hold NULs) */
    int64_t integer;        /* INTEGER */
    double real;            /* FLOAT */
    int boolean;            /* BOOL: 0 or 1 */
    ca_toml_value **items;  /* ARRAY */
    size_t nitems;
    ca_toml_entry *entries; /* TABLE */
    size_t nentries;
    /* Parser bookkeeping below: not part of the interface. */
    int depth, state, owner;
    size_t cap, hcap;
    size_t *hash;
    ca_toml_value *next_alloc;
};

/* A parsed document. Everything belongs to it; free with ca_toml_doc_free. */
typedef struct ca_toml_doc {
    ca_toml_value *root;    /* a TABLE */
    ca_toml_value *all;     /* every allocated value (for freeing) */
} ca_toml_doc;

/* Parse text[0..len) (need not be NUL-terminated; a leading UTF-8 BOM is
 * skipped). `origin` names the text in messages (NULL: "<string>").
 * Returns 0 with *doc filled; -1 with doc empty and, when err is not NULL,
 * *err set to "ORIGIN:LINE:COL: message" (heap; caller frees). */
int ca_toml_parse(const char *text, size_t len, const char *origin, ca_toml_doc *doc, char **err);
/* Read and parse a file; `path` is the origin. A read failure is
 * "PATH: strerror" in *err. Returns 0 or -1 like ca_toml_parse. */
int ca_toml_parse_file(const char *path, ca_toml_doc *doc, char **err);
/* Frees everything; the doc is left empty. NULL or an empty doc is fine. */
void ca_toml_doc_free(ca_toml_doc *doc);

/* The entry `key` of a table (exact bytes of a NUL-free key), or NULL when
 * absent or when t is not a table. */
const ca_toml_entry *ca_toml_find(const ca_toml_value *t, const char *key);
/* Shorthand: the entry's value, or NULL. */
const ca_toml_value *ca_toml_get(const ca_toml_value *t, const char *key);
/* Element i of an array; NULL when out of range or a is not an array. */
const ca_toml_value *ca_toml_at(const ca_toml_value *a, size_t i);
/* "string", "integer", "float", "boolean", "datetime", "array", "table". */
const char *ca_toml_type_name(ca_toml_type t);

#endif
