/*
 * toml.c — the TOML 1.0 reader (toml.h).
 *
 * One pass over the bytes. Values are read by recursive descent whose depth
 * is bounded: every value is created through new_value(), which refuses a
 * depth beyond CA_TOML_MAX_DEPTH before the parser descends any further.
 * Every value is also threaded on the document's allocation list, so freeing
 * is a loop, not a tree walk.
 *
 * Tables carry a definition state that implements TOML's rules on where
 * keys may be added:
 *   IMPLICIT  made as a parent of a header ([a.b] makes a); a later [a]
 *             defines it, dotted keys may pass through it (it becomes DOTTED);
 *   HEADER    defined by [x] or [[x]]: never defined again, never reached
 *             into by dotted keys from another table;
 *   DOTTED    made by a dotted key (a.b = 1 makes a): further dotted keys of
 *             the same table may extend it, a header may add sub-tables to
 *             it but not define it;
 *   INLINE    an inline table: sealed once written.
 * `owner` tells which inline table (0: the document) made a dotted table, so
 * `{a.b = 1, a.c = 2}` is fine and a dotted key from outside is not.
 * Arrays are STATIC (a value) or AOT (made by [[x]]): only AOT grows.
 */
#include "config/toml.h"
#include "util/json.h"
#include "util/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { TS_IMPLICIT = 1, TS_HEADER, TS_DOTTED, TS_INLINE };
enum { AS_STATIC = 1, AS_AOT };

typedef struct parser {
    const char *s;
    size_t n, i;
    const char *origin;
    char *err;
    ca_toml_doc *doc;
    ca_toml_value *cur;     /* the table key/value lines go into */
    int inline_seq;         /* ids for inline tables (owner) */
    size_t base;            /* after the BOM */
    int vline, vcol;        /* where the scalar being read starts */
    /* line/column cache: positions asked for are nearly monotonic */
    size_t lc_pos;
    int lc_line, lc_col;
} parser;

/* Positions are taken when a thing is read: asking linecol() for an
 * earlier offset later would rescan from the start. */
typedef struct keypart {
    char *s;
    size_t n;
    size_t pos;
    int line, col;
} keypart;

typedef CA_VEC(keypart) keypath;

/* ---- positions and errors ------------------------------------------------ */

static void linecol(parser *p, size_t pos, int *line, int *col)
{
    if (pos > p->n) pos = p->n;
    if (pos < p->lc_pos) {
        p->lc_pos = p->base;
        p->lc_line = 1;
        p->lc_col = 1;
    }
    for (size_t k = p->lc_pos; k < pos; k++) {
        unsigned char c = (unsigned char)p->s[k];
        if (c == '\n') {
            if (p->lc_line < 0x7fffffff) p->lc_line++;
            p->lc_col = 1;
        } else if ((c & 0xC0) != 0x80 && p->lc_col < 0x7fffffff) {
            p->lc_col++;
        }
    }
    p->lc_pos = pos;
    *line = p->lc_line;
    *col = p->lc_col;
}

static int fail_at(parser *p, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail_at(parser *p, size_t pos, const char *fmt, ...)
{
    if (p->err) return -1;
    int line, col;
    linecol(p, pos, &line, &col);
    ca_sb sb = {0};
    ca_sb_addf(&sb, "%s:%d:%d: ", p->origin, line, col);
    va_list ap;
    va_start(ap, fmt);
    ca_sb_vaddf(&sb, fmt, ap);
    va_end(ap);
    p->err = ca_sb_detach(&sb);
    return -1;
}

/* A key for messages: as written when bare, quoted otherwise, cut at 60. */
static void show_key(ca_sb *sb, const char *k, size_t n)
{
    int bare = n > 0;
    for (size_t i = 0; i < n && bare; i++) {
        char c = k[i];
        bare = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    }
    if (bare) {
        ca_sb_add(sb, k, n > 60 ? 60 : n);
        if (n > 60) ca_sb_adds(sb, "...");
        return;
    }
    ca_json_escape(sb, k, n > 60 ? 60 : n, 0);
}

static char *path_text(const keypath *kp, size_t upto)
{
    ca_sb sb = {0};
    for (size_t i = 0; i < upto && i < kp->n; i++) {
        if (i) ca_sb_addc(&sb, '.');
        if (sb.len > 200) {
            ca_sb_adds(&sb, "...");
            break;
        }
        show_key(&sb, kp->v[i].s, kp->v[i].n);
    }
    return ca_sb_detach(&sb);
}

static void keypath_free(keypath *kp)
{
    for (size_t i = 0; i < kp->n; i++) free(kp->v[i].s);
    CA_VEC_FREE(*kp);
}

/* ---- values and tables --------------------------------------------------- */

/* A value written at line:col (pos for a depth error). */
static ca_toml_value *new_value_at(parser *p, ca_toml_type t, size_t pos, int line, int col, int depth)
{
    if (depth > CA_TOML_MAX_DEPTH) {
        fail_at(p, pos, "nesting deeper than %d levels", CA_TOML_MAX_DEPTH);
        return NULL;
    }
    ca_toml_value *v = ca_xcalloc(1, sizeof(*v));
    v->type = t;
    v->depth = depth;
    v->line = line;
    v->col = col;
    v->next_alloc = p->doc->all;
    p->doc->all = v;
    return v;
}

static ca_toml_value *new_value(parser *p, ca_toml_type t, size_t pos, int depth)
{
    int line, col;
    linecol(p, pos, &line, &col);
    return new_value_at(p, t, pos, line, col, depth);
}

static size_t key_hash(const char *k, size_t n) { return (size_t)ca_hash64(k, n, CA_HASH_SEED); }

static void index_put(ca_toml_value *t, size_t idx)
{
    const ca_toml_entry *e = &t->entries[idx];
    size_t mask = t->hcap - 1, h = key_hash(e->key, e->key_len) & mask;
    while (t->hash[h]) h = (h + 1) & mask;
    t->hash[h] = idx + 1;
}

static void index_rebuild(ca_toml_value *t)
{
    size_t cap = 64;
    while (cap < t->nentries * 2 + 2) cap *= 2;
    free(t->hash);
    t->hash = ca_xcalloc(cap, sizeof(size_t));
    t->hcap = cap;
    for (size_t i = 0; i < t->nentries; i++) index_put(t, i);
}

static ca_toml_entry *find_n(const ca_toml_value *t, const char *k, size_t n)
{
    if (!t || t->type != CA_TOML_TABLE) return NULL;
    if (t->hash) {
        size_t mask = t->hcap - 1, h = key_hash(k, n) & mask;
        for (size_t idx; (idx = t->hash[h]) != 0; h = (h + 1) & mask) {
            ca_toml_entry *e = &t->entries[idx - 1];
            if (e->key_len == n && memcmp(e->key, k, n) == 0) return e;
        }
        return NULL;
    }
    for (size_t i = 0; i < t->nentries; i++)
        if (t->entries[i].key_len == n && memcmp(t->entries[i].key, k, n) == 0) return &t->entries[i];
    return NULL;
}

static void add_entry(ca_toml_value *t, const keypart *k, ca_toml_value *v)
{
    if (t->nentries == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 4;
        t->entries = ca_xrealloc(t->entries, t->cap * sizeof(*t->entries));
    }
    ca_toml_entry *e = &t->entries[t->nentries++];
    char *key = ca_xmalloc(k->n + 1);
    memcpy(key, k->s, k->n);
    key[k->n] = 0;
    e->key = key;
    e->key_len = k->n;
    e->line = k->line;
    e->col = k->col;
    e->value = v;
    if (t->hash) {
        if (t->nentries * 2 > t->hcap) index_rebuild(t);
        else index_put(t, t->nentries - 1);
    } else if (t->nentries > 16) {
        index_rebuild(t);
    }
}

static void push_item(ca_toml_value *a, ca_toml_value *v)
{
    if (a->nitems == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 4;
        a->items = ca_xrealloc(a->items, a->cap * sizeof(*a->items));
    }
    a->items[a->nitems++] = v;
}

static const char *what_is(const ca_toml_value *v)
{
    if (v->type == CA_TOML_TABLE)
        return v->state == TS_INLINE ? "an inline table" : v->state == TS_DOTTED ? "a table made by dotted keys" : "a table";
    if (v->type == CA_TOML_ARRAY) return v->state == AS_AOT ? "an array of tables" : "an array";
    if (v->type == CA_TOML_INTEGER) return "an integer";
    return v->type == CA_TOML_STRING ? "a string" : v->type == CA_TOML_FLOAT ? "a float"
         : v->type == CA_TOML_BOOL ? "a boolean" : "a date-time";
}

/* ---- lexing helpers ------------------------------------------------------ */

static int at_end(const parser *p) { return p->i >= p->n; }
static int peek(const parser *p, size_t ahead) { return p->i + ahead < p->n ? (unsigned char)p->s[p->i + ahead] : -1; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_bare(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '-';
}

static void skip_ws(parser *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t')) p->i++;
}

/* 1 when at a newline ("\n" or "\r\n"), consuming it. */
static int eat_newline(parser *p)
{
    if (peek(p, 0) == '\n') {
        p->i++;
        return 1;
    }
    if (peek(p, 0) == '\r' && peek(p, 1) == '\n') {
        p->i += 2;
        return 1;
    }
    return 0;
}

/* Check one non-ASCII sequence at p->i, advancing past it. */
static int utf8_step(parser *p)
{
    size_t adv = 1;
    if (ca_json_utf8_next(p->s + p->i, p->n - p->i, &adv) < 0) return fail_at(p, p->i, "invalid UTF-8");
    p->i += adv;
    return 0;
}

/* A comment from '#' up to (not including) the end of the line. */
static int skip_comment(parser *p)
{
    p->i++;
    while (p->i < p->n) {
        unsigned char c = (unsigned char)p->s[p->i];
        if (c == '\n' || (c == '\r' && peek(p, 1) == '\n')) return 0;
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return fail_at(p, p->i, "control character U+%04X is not allowed in a comment", c);
        if (c >= 0x80) {
            if (utf8_step(p) < 0) return -1;
        } else {
            p->i++;
        }
    }
    return 0;
}

/* Whitespace, newlines and comments (inside arrays). */
static int skip_ws_nl(parser *p)
{
    for (;;) {
        skip_ws(p);
        if (peek(p, 0) == '#') {
            if (skip_comment(p) < 0) return -1;
            continue;
        }
        if (!eat_newline(p)) return 0;
    }
}

/* After a key/value or a header: optional comment, then newline or EOF. */
static int end_of_line(parser *p, const char *after)
{
    skip_ws(p);
    if (peek(p, 0) == '#' && skip_comment(p) < 0) return -1;
    if (at_end(p) || eat_newline(p)) return 0;
    return fail_at(p, p->i, "expected the end of the line after %s", after);
}

/* ---- strings ------------------------------------------------------------- */

static int hex_val(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* At the backslash of an escape in a basic string. */
static int read_escape(parser *p, ca_sb *out)
{
    size_t at = p->i;
    int c = peek(p, 1);
    p->i += 2;
    switch (c) {
    case 'b': ca_sb_addc(out, '\b'); return 0;
    case 't': ca_sb_addc(out, '\t'); return 0;
    case 'n': ca_sb_addc(out, '\n'); return 0;
    case 'f': ca_sb_addc(out, '\f'); return 0;
    case 'r': ca_sb_addc(out, '\r'); return 0;
    case '"': ca_sb_addc(out, '"'); return 0;
    case '\\': ca_sb_addc(out, '\\'); return 0;
    case 'u':
    case 'U': {
        int nd = c == 'u' ? 4 : 8;
        uint32_t cp = 0;
        for (int k = 0; k < nd; k++) {
            int h = hex_val(peek(p, 0));
            if (h < 0) return fail_at(p, at, "\\%c needs %d hex digits", c, nd);
            cp = cp * 16 + (uint32_t)h;
            p->i++;
        }
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return fail_at(p, at, "\\%c%0*X is not a Unicode scalar value", c, nd, (unsigned)cp);
        ca_json_utf8_put(out, cp);
        return 0;
    }
    case -1: return fail_at(p, at, "unterminated string");
    default:
        if (c > 0x20 && c < 0x7f) return fail_at(p, at, "unknown escape '\\%c'", c);
        return fail_at(p, at, "unknown escape (a backslash must be followed by b t n f r \" \\ u or U)");
    }
}

/* One content character of a string: checks controls and UTF-8. */
static int string_char(parser *p, ca_sb *out, int basic)
{
    unsigned char c = (unsigned char)p->s[p->i];
    if ((c < 0x20 && c != '\t') || c == 0x7f) {
        if (c == '\n' || (c == '\r' && peek(p, 1) == '\n'))
            return fail_at(p, p->i, "unterminated string (newline before the closing quote)");
        if (basic) return fail_at(p, p->i, "control character U+%04X must be escaped", c);
        return fail_at(p, p->i, "control character U+%04X is not allowed in a literal string", c);
    }
    if (c < 0x80) {
        ca_sb_addc(out, (char)c);
        p->i++;
        return 0;
    }
    size_t from = p->i;
    if (utf8_step(p) < 0) return -1;
    ca_sb_add(out, p->s + from, p->i - from);
    return 0;
}

/* "..." at p->i. */
static int read_basic(parser *p, ca_sb *out)
{
    size_t open = p->i++;
    for (;;) {
        if (at_end(p)) return fail_at(p, open, "unterminated string");
        int c = peek(p, 0);
        if (c == '"') {
            p->i++;
            return 0;
        }
        if (c == '\\') {
            if (read_escape(p, out) < 0) return -1;
            continue;
        }
        if (string_char(p, out, 1) < 0) return -1;
    }
}

/* '...' at p->i. */
static int read_literal(parser *p, ca_sb *out)
{
    size_t open = p->i++;
    for (;;) {
        if (at_end(p)) return fail_at(p, open, "unterminated string");
        if (peek(p, 0) == '\'') {
            p->i++;
            return 0;
        }
        if (string_char(p, out, 0) < 0) return -1;
    }
}

/* """...""" or '''...''' at p->i. */
static int read_multiline(parser *p, ca_sb *out, char q)
{
    size_t open = p->i;
    p->i += 3;
    eat_newline(p); /* a newline right after the delimiter is trimmed */
    for (;;) {
        if (at_end(p)) return fail_at(p, open, "unterminated multi-line string");
        int c = peek(p, 0);
        if (c == q) {
            size_t run = 0;
            while (peek(p, run) == q) run++;
            if (run >= 3) {
                if (run > 5) return fail_at(p, p->i + 5, "too many quotes at the end of a multi-line string");
                for (size_t k = 0; k < run - 3; k++) ca_sb_addc(out, q);
                p->i += run;
                return 0;
            }
            for (size_t k = 0; k < run; k++) ca_sb_addc(out, q);
            p->i += run;
            continue;
        }
        if (c == '\n' || (c == '\r' && peek(p, 1) == '\n')) {
            ca_sb_addc(out, '\n');
            eat_newline(p);
            continue;
        }
        if (q == '"' && c == '\\') {
            /* a line-ending backslash trims the newline and following whitespace */
            size_t k = 1;
            while (peek(p, k) == ' ' || peek(p, k) == '\t') k++;
            if (peek(p, k) == '\n' || (peek(p, k) == '\r' && peek(p, k + 1) == '\n')) {
                p->i += k;
                for (;;) {
                    skip_ws(p);
                    if (!eat_newline(p)) break;
                }
                continue;
            }
            if (read_escape(p, out) < 0) return -1;
            continue;
        }
        if (string_char(p, out, q == '"') < 0) return -1;
    }
}

/* ---- keys ---------------------------------------------------------------- */

static int read_key(parser *p, keypath *kp)
{
    for (;;) {
        skip_ws(p);
        size_t start = p->i;
        if (kp->n >= CA_TOML_MAX_DEPTH)
            return fail_at(p, start, "key has more than %d dotted parts", CA_TOML_MAX_DEPTH);
        ca_sb sb = {0};
        int c = peek(p, 0);
        if (c == '"' || c == '\'') {
            if (peek(p, 1) == c && peek(p, 2) == c) {
                ca_sb_release(&sb);
                return fail_at(p, start, "a multi-line string cannot be a key");
            }
            if ((c == '"' ? read_basic(p, &sb) : read_literal(p, &sb)) < 0) {
                ca_sb_release(&sb);
                return -1;
            }
        } else if (is_bare(c)) {
            while (is_bare(peek(p, 0))) p->i++;
            ca_sb_add(&sb, p->s + start, p->i - start);
        } else {
            ca_sb_release(&sb);
            if (c == -1 || c == '\n' || c == '\r') return fail_at(p, start, "expected a key");
            if (c == '=') return fail_at(p, start, "expected a key before '='");
            if (c < 0x20 || c >= 0x7f) return fail_at(p, start, "expected a key (bare keys are A-Z a-z 0-9 _ -)");
            return fail_at(p, start, "unexpected '%c' where a key was expected", c);
        }
        keypart kpart = {NULL, sb.len, start, 0, 0};
        linecol(p, start, &kpart.line, &kpart.col);
        kpart.s = ca_sb_detach(&sb);
        CA_VEC_PUSH(*kp, kpart);
        skip_ws(p);
        if (peek(p, 0) != '.') return 0;
        p->i++;
    }
}

/* ---- scalars ------------------------------------------------------------- */

/* digits[0..n) with single underscores between digits of the base. */
static int digits_ok(const char *d, size_t n, int base)
{
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)d[i];
        if (c == '_') {
            if (i == 0 || i + 1 == n || d[i + 1] == '_') return 0;
            continue;
        }
        int v = hex_val(c);
        if (v < 0 || v >= base) return 0;
    }
    return 1;
}

static int n_digits(const parser *p, size_t at, int count)
{
    for (int k = 0; k < count; k++)
        if (at + (size_t)k >= p->n || !is_digit((unsigned char)p->s[at + (size_t)k])) return 0;
    return 1;
}

static int num2(const parser *p, size_t at) { return (p->s[at] - '0') * 10 + (p->s[at + 1] - '0'); }

/* HH:MM:SS[.frac] at p->i. */
static int read_time(parser *p)
{
    size_t at = p->i;
    if (!n_digits(p, at, 2) || peek(p, 2) != ':' || !n_digits(p, at + 3, 2) || peek(p, 5) != ':' ||
        !n_digits(p, at + 6, 2))
        return fail_at(p, at, "invalid time (expected HH:MM:SS)");
    if (num2(p, at) > 23 || num2(p, at + 3) > 59 || num2(p, at + 6) > 60)
        return fail_at(p, at, "time out of range");
    p->i += 8;
    if (peek(p, 0) == '.') {
        if (!is_digit(peek(p, 1))) return fail_at(p, p->i, "expected digits after '.' in a time");
        p->i++;
        while (is_digit(peek(p, 0))) p->i++;
    }
    return 0;
}

static ca_toml_value *read_datetime(parser *p, int depth)
{
    size_t start = p->i;
    int date = n_digits(p, start, 4) && peek(p, 4) == '-';
    int need_time = !date;
    if (date) {
        if (peek(p, 4) != '-' || !n_digits(p, start + 5, 2) || peek(p, 7) != '-' || !n_digits(p, start + 8, 2)) {
            fail_at(p, start, "invalid date (expected YYYY-MM-DD)");
            return NULL;
        }
        int y = (p->s[start] - '0') * 1000 + (p->s[start + 1] - '0') * 100 + num2(p, start + 2);
        int m = num2(p, start + 5), d = num2(p, start + 8);
        static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1] || (m == 2 && d == 29 && !leap)) {
            fail_at(p, start, "date out of range");
            return NULL;
        }
        p->i += 10;
        int c = peek(p, 0);
        if (c == 'T' || c == 't') {
            p->i++;
            need_time = 1;
        } else if (c == ' ' && n_digits(p, p->i + 1, 2) && peek(p, 3) == ':') {
            p->i++;
            need_time = 1;
        }
    }
    if (need_time) {
        if (read_time(p) < 0) return NULL;
        if (date) {
            int c = peek(p, 0);
            if (c == 'Z' || c == 'z') {
                p->i++;
            } else if (c == '+' || c == '-') {
                size_t at = p->i + 1;
                if (!n_digits(p, at, 2) || peek(p, 3) != ':' || !n_digits(p, at + 3, 2) || num2(p, at) > 23 ||
                    num2(p, at + 3) > 59) {
                    fail_at(p, p->i, "invalid time offset (expected +HH:MM)");
                    return NULL;
                }
                p->i += 6;
            }
        }
    }
    ca_toml_value *v = new_value_at(p, CA_TOML_DATETIME, start, p->vline, p->vcol, depth);
    if (!v) return NULL;
    v->str = ca_xstrndup(p->s + start, p->i - start);
    v->len = p->i - start;
    return v;
}

static ca_toml_value *read_number(parser *p, int depth)
{
    size_t start = p->i, e = start;
    while (e < p->n) {
        int c = (unsigned char)p->s[e];
        if (!(is_bare(c) || c == '+' || c == '.')) break;
        /* '+'/'-' inside a number only follow an exponent mark */
        if ((c == '+' || c == '-') && e > start) {
            int prev = (unsigned char)p->s[e - 1];
            if (!(prev == 'e' || prev == 'E')) break;
        }
        e++;
    }
    const char *t = p->s + start;
    size_t n = e - start;
    int neg = 0, sign = 0;
    if (n && (t[0] == '+' || t[0] == '-')) {
        sign = 1;
        neg = t[0] == '-';
        t++;
        n--;
    }
    p->i = e;
    if ((n == 3 && memcmp(t, "inf", 3) == 0) || (n == 3 && memcmp(t, "nan", 3) == 0)) {
        ca_toml_value *v = new_value_at(p, CA_TOML_FLOAT, start, p->vline, p->vcol, depth);
        if (!v) return NULL;
        v->real = t[0] == 'i' ? (neg ? -INFINITY : INFINITY) : (neg ? -NAN : NAN);
        return v;
    }
    if (n >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'o' || t[1] == 'b')) {
        int base = t[1] == 'x' ? 16 : t[1] == 'o' ? 8 : 2;
        if (sign) {
            fail_at(p, start, "a sign is not allowed on a %s integer",
                    base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary");
            return NULL;
        }
        if (!digits_ok(t + 2, n - 2, base)) {
            fail_at(p, start, "invalid %s integer", base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary");
            return NULL;
        }
        uint64_t acc = 0;
        for (size_t i = 2; i < n; i++) {
            if (t[i] == '_') continue;
            uint64_t d = (uint64_t)hex_val((unsigned char)t[i]);
            if (acc > ((uint64_t)INT64_MAX - d) / (uint64_t)base) {
                fail_at(p, start, "integer does not fit in 64 bits");
                return NULL;
            }
            acc = acc * (uint64_t)base + d;
        }
        ca_toml_value *v = new_value_at(p, CA_TOML_INTEGER, start, p->vline, p->vcol, depth);
        if (v) v->integer = (int64_t)acc;
        return v;
    }
    size_t dot = n, ex = n;
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '.' && dot == n && ex == n) dot = i;
        else if ((t[i] == 'e' || t[i] == 'E') && ex == n) ex = i;
    }
    size_t int_end = dot < ex ? dot : ex;
    if (!digits_ok(t, int_end, 10)) {
        if (n && !is_digit((unsigned char)t[0]) && t[0] != '_')
            fail_at(p, start, "expected a value (strings need quotes)");
        else if (n == 0 || !is_digit((unsigned char)t[0]))
            fail_at(p, start, "expected a value (string, number, boolean, date, array or inline table)");
        else
            fail_at(p, start, "invalid number '%.*s'", (int)(n > 40 ? 40 : n), t);
        return NULL;
    }
    if (int_end > 1 && t[0] == '0') {
        fail_at(p, start, "leading zeros are not allowed in '%.*s'", (int)(n > 40 ? 40 : n), t);
        return NULL;
    }
    if (dot == n && ex == n) {
        uint64_t acc = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
        for (size_t i = 0; i < n; i++) {
            if (t[i] == '_') continue;
            uint64_t d = (uint64_t)(t[i] - '0');
            if (acc > (limit - d) / 10) {
                fail_at(p, start, "integer does not fit in 64 bits");
                return NULL;
            }
            acc = acc * 10 + d;
        }
        ca_toml_value *v = new_value_at(p, CA_TOML_INTEGER, start, p->vline, p->vcol, depth);
        if (v) v->integer = neg ? (acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)acc) : (int64_t)acc;
        return v;
    }
    if (dot < n && !(dot < ex && digits_ok(t + dot + 1, ex - dot - 1, 10))) {
        fail_at(p, start, "invalid float '%.*s' (a decimal point needs digits on both sides)", (int)(n > 40 ? 40 : n), t);
        return NULL;
    }
    if (ex < n) {
        size_t es = ex + 1;
        if (es < n && (t[es] == '+' || t[es] == '-')) es++;
        if (!digits_ok(t + es, n - es, 10)) {
            fail_at(p, start, "invalid exponent in '%.*s'", (int)(n > 40 ? 40 : n), t);
            return NULL;
        }
    }
    ca_sb sb = {0};
    if (neg) ca_sb_addc(&sb, '-');
    for (size_t i = 0; i < n; i++)
        if (t[i] != '_') ca_sb_addc(&sb, t[i]);
    char *end = NULL;
    double d = strtod(sb.buf, &end);
    int ok = end && *end == 0;
    ca_sb_release(&sb);
    if (!ok) {
        fail_at(p, start, "invalid float");
        return NULL;
    }
    ca_toml_value *v = new_value_at(p, CA_TOML_FLOAT, start, p->vline, p->vcol, depth);
    if (v) v->real = d;
    return v;
}

/* ---- compound values ----------------------------------------------------- */

static ca_toml_value *read_value(parser *p, int depth);
static int insert_kv(parser *p, ca_toml_value *table, keypath *kp, int owner);

static ca_toml_value *read_array(parser *p, int depth)
{
    size_t open = p->i;
    ca_toml_value *a = new_value(p, CA_TOML_ARRAY, open, depth);
    if (!a) return NULL;
    a->state = AS_STATIC;
    p->i++;
    for (;;) {
        if (skip_ws_nl(p) < 0) return NULL;
        if (at_end(p)) {
            fail_at(p, open, "unterminated array");
            return NULL;
        }
        if (peek(p, 0) == ']') {
            p->i++;
            return a;
        }
        ca_toml_value *v = read_value(p, depth + 1);
        if (!v) return NULL;
        push_item(a, v);
        if (skip_ws_nl(p) < 0) return NULL;
        if (peek(p, 0) == ',') {
            p->i++;
            continue;
        }
        if (peek(p, 0) == ']') {
            p->i++;
            return a;
        }
        if (at_end(p)) fail_at(p, open, "unterminated array");
        else fail_at(p, p->i, "expected ',' or ']' in an array");
        return NULL;
    }
}

static ca_toml_value *read_inline_table(parser *p, int depth)
{
    size_t open = p->i;
    ca_toml_value *t = new_value(p, CA_TOML_TABLE, open, depth);
    if (!t) return NULL;
    t->state = TS_INLINE;
    int id = ++p->inline_seq;
    t->owner = id;
    p->i++;
    skip_ws(p);
    if (peek(p, 0) == '}') {
        p->i++;
        return t;
    }
    for (;;) {
        skip_ws(p);
        if (peek(p, 0) == '\n' || peek(p, 0) == '\r') {
            fail_at(p, p->i, "newlines are not allowed inside an inline table (TOML 1.0)");
            return NULL;
        }
        keypath kp = {0};
        if (read_key(p, &kp) < 0) {
            keypath_free(&kp);
            return NULL;
        }
        int r = insert_kv(p, t, &kp, id);
        keypath_free(&kp);
        if (r < 0) return NULL;
        skip_ws(p);
        int c = peek(p, 0);
        if (c == ',') {
            p->i++;
            skip_ws(p);
            if (peek(p, 0) == '}') {
                fail_at(p, p->i, "a trailing comma is not allowed in an inline table");
                return NULL;
            }
            continue;
        }
        if (c == '}') {
            p->i++;
            return t;
        }
        if (c == '\n' || c == '\r') fail_at(p, p->i, "newlines are not allowed inside an inline table (TOML 1.0)");
        else if (c == -1) fail_at(p, open, "unterminated inline table");
        else fail_at(p, p->i, "expected ',' or '}' in an inline table");
        return NULL;
    }
}

static ca_toml_value *string_value(parser *p, size_t start, int depth, ca_sb *sb)
{
    ca_toml_value *v = new_value_at(p, CA_TOML_STRING, start, p->vline, p->vcol, depth);
    if (!v) {
        ca_sb_release(sb);
        return NULL;
    }
    v->len = sb->len;
    v->str = ca_sb_detach(sb);
    return v;
}

static ca_toml_value *read_value(parser *p, int depth)
{
    size_t start = p->i;
    int c = peek(p, 0);
    linecol(p, start, &p->vline, &p->vcol);
    if (depth > CA_TOML_MAX_DEPTH) {
        fail_at(p, start, "nesting deeper than %d levels", CA_TOML_MAX_DEPTH);
        return NULL;
    }
    if (c == '"' || c == '\'') {
        ca_sb sb = {0};
        int r;
        if (peek(p, 1) == c && peek(p, 2) == c) r = read_multiline(p, &sb, (char)c);
        else r = c == '"' ? read_basic(p, &sb) : read_literal(p, &sb);
        if (r < 0) {
            ca_sb_release(&sb);
            return NULL;
        }
        return string_value(p, start, depth, &sb);
    }
    if (c == '[') return read_array(p, depth);
    if (c == '{') return read_inline_table(p, depth);
    if (c == 't' || c == 'f') {
        const char *w = c == 't' ? "true" : "false";
        size_t wn = strlen(w);
        if (p->n - p->i >= wn && memcmp(p->s + p->i, w, wn) == 0 && !is_bare(peek(p, wn))) {
            p->i += wn;
            ca_toml_value *v = new_value_at(p, CA_TOML_BOOL, start, p->vline, p->vcol, depth);
            if (v) v->boolean = c == 't';
            return v;
        }
        fail_at(p, start, "expected a value (strings need quotes; booleans are true and false)");
        return NULL;
    }
    if (n_digits(p, start, 4) && peek(p, 4) == '-') return read_datetime(p, depth);
    if (n_digits(p, start, 2) && peek(p, 2) == ':') return read_datetime(p, depth);
    if (is_digit(c) || c == '+' || c == '-' || c == 'i' || c == 'n') return read_number(p, depth);
    if (c == -1 || c == '\n' || c == '\r' || c == '#') {
        fail_at(p, start, "expected a value");
        return NULL;
    }
    if (is_bare(c)) fail_at(p, start, "expected a value (strings need quotes)");
    else if (c >= 0x20 && c < 0x7f) fail_at(p, start, "unexpected '%c' where a value was expected", c);
    else fail_at(p, start, "expected a value");
    return NULL;
}

/* key = value into `table`; dotted keys make (or extend) DOTTED tables of
 * the same owner. The value is read here, after the key checks. */
static int insert_kv(parser *p, ca_toml_value *table, keypath *kp, int owner)
{
    ca_toml_value *t = table;
    for (size_t k = 0; k + 1 < kp->n; k++) {
        keypart *part = &kp->v[k];
        ca_toml_entry *e = find_n(t, part->s, part->n);
        if (!e) {
            ca_toml_value *nt = new_value_at(p, CA_TOML_TABLE, part->pos, part->line, part->col, t->depth + 1);
            if (!nt) return -1;
            nt->state = TS_DOTTED;
            nt->owner = owner;
            add_entry(t, part, nt);
            t = nt;
            continue;
        }
        ca_toml_value *v = e->value;
        char *name = path_text(kp, k + 1);
        int r = 0;
        if (v->type != CA_TOML_TABLE)
            r = fail_at(p, part->pos, "cannot add keys to '%s': it is %s (line %d)", name, what_is(v), e->line);
        else if (v->state == TS_INLINE || v->owner != owner)
            r = fail_at(p, part->pos, "cannot add keys to '%s': it is an inline table (line %d)", name, e->line);
        else if (v->state == TS_HEADER)
            r = fail_at(p, part->pos, "cannot add keys to '%s' with a dotted key: it is a table defined by a header at line %d",
                        name, v->line);
        free(name);
        if (r < 0) return -1;
        if (v->state == TS_IMPLICIT) v->state = TS_DOTTED;
        t = v;
    }
    keypart *last = &kp->v[kp->n - 1];
    ca_toml_entry *dup = find_n(t, last->s, last->n);
    if (dup) {
        char *name = path_text(kp, kp->n);
        fail_at(p, last->pos, "duplicate key '%s' (first defined at line %d)", name, dup->line);
        free(name);
        return -1;
    }
    skip_ws(p);
    if (peek(p, 0) != '=') {
        if (at_end(p) || peek(p, 0) == '\n' || peek(p, 0) == '\r')
            return fail_at(p, p->i, "expected '=' after the key (a key needs a value)");
        return fail_at(p, p->i, "expected '=' after the key");
    }
    p->i++;
    skip_ws(p);
    ca_toml_value *v = read_value(p, t->depth + 1);
    if (!v) return -1;
    add_entry(t, last, v);
    return 0;
}

/* [a.b.c] or [[a.b.c]] at p->i. */
static int read_header(parser *p)
{
    size_t open = p->i;
    int oline, ocol;
    linecol(p, open, &oline, &ocol);
    int aot = peek(p, 1) == '[';
    p->i += aot ? 2 : 1;
    keypath kp = {0};
    int r = read_key(p, &kp);
    if (r == 0) {
        skip_ws(p);
        if (peek(p, 0) != ']' || (aot && peek(p, 1) != ']')) {
            r = fail_at(p, p->i, aot ? "expected ']]' to close the array-of-tables header"
                                     : "expected ']' to close the table header");
        } else {
            p->i += aot ? 2 : 1;
        }
    }
    ca_toml_value *t = p->doc->root;
    for (size_t k = 0; r == 0 && k + 1 < kp.n; k++) {
        keypart *part = &kp.v[k];
        ca_toml_entry *e = find_n(t, part->s, part->n);
        if (!e) {
            ca_toml_value *nt = new_value_at(p, CA_TOML_TABLE, open, oline, ocol, t->depth + 1);
            if (!nt) {
                r = -1;
                break;
            }
            nt->state = TS_IMPLICIT;
            add_entry(t, part, nt);
            t = nt;
            continue;
        }
        ca_toml_value *v = e->value;
        char *name = path_text(&kp, k + 1);
        if (v->type == CA_TOML_ARRAY && v->state == AS_AOT && v->nitems) {
            t = v->items[v->nitems - 1];
        } else if (v->type == CA_TOML_TABLE && v->state != TS_INLINE && v->owner == 0) {
            t = v;
        } else {
            r = fail_at(p, part->pos, "cannot define a table inside '%s': it is %s (line %d)", name, what_is(v),
                        e->line);
        }
        free(name);
    }
    if (r == 0) {
        keypart *last = &kp.v[kp.n - 1];
        ca_toml_entry *e = find_n(t, last->s, last->n);
        char *name = path_text(&kp, kp.n);
        if (!aot) {
            if (!e) {
                ca_toml_value *nt = new_value_at(p, CA_TOML_TABLE, open, oline, ocol, t->depth + 1);
                if (!nt) r = -1;
                else {
                    nt->state = TS_HEADER;
                    add_entry(t, last, nt);
                    p->cur = nt;
                }
            } else if (e->value->type == CA_TOML_TABLE && e->value->state == TS_IMPLICIT) {
                e->value->state = TS_HEADER;
                e->value->line = oline;
                e->value->col = ocol;
                p->cur = e->value;
            } else if (e->value->type == CA_TOML_TABLE && e->value->state == TS_HEADER) {
                r = fail_at(p, open, "table [%s] is defined twice (first at line %d)", name, e->value->line);
            } else {
                r = fail_at(p, open, "cannot define table [%s]: the key is already %s (line %d)", name,
                            what_is(e->value), e->line);
            }
        } else {
            ca_toml_value *arr = e ? e->value : NULL;
            if (!arr) {
                arr = new_value_at(p, CA_TOML_ARRAY, open, oline, ocol, t->depth + 1);
                if (arr) {
                    arr->state = AS_AOT;
                    add_entry(t, last, arr);
                }
            } else if (arr->type != CA_TOML_ARRAY || arr->state != AS_AOT) {
                r = fail_at(p, open, "cannot define [[%s]]: the key is already %s (line %d)", name, what_is(arr),
                            e->line);
                arr = NULL;
            }
            if (!arr) {
                r = -1;
            } else {
                ca_toml_value *nt = new_value_at(p, CA_TOML_TABLE, open, oline, ocol, arr->depth + 1);
                if (!nt) r = -1;
                else {
                    nt->state = TS_HEADER;
                    push_item(arr, nt);
                    p->cur = nt;
                }
            }
        }
        free(name);
    }
    keypath_free(&kp);
    if (r < 0) return -1;
    return end_of_line(p, aot ? "an array-of-tables header" : "a table header");
}

/* ---- documents ------------------------------------------------------------ */

void ca_toml_doc_free(ca_toml_doc *doc)
{
    if (!doc) return;
    ca_toml_value *v = doc->all;
    while (v) {
        ca_toml_value *next = v->next_alloc;
        free((char *)v->str);
        free(v->items);
        for (size_t i = 0; i < v->nentries; i++) free((char *)v->entries[i].key);
        free(v->entries);
        free(v->hash);
        free(v);
        v = next;
    }
    doc->all = NULL;
    doc->root = NULL;
}

int ca_toml_parse(const char *text, size_t len, const char *origin, ca_toml_doc *doc, char **err)
{
    parser P;
    memset(&P, 0, sizeof(P));
    parser *p = &P;
    memset(doc, 0, sizeof(*doc));
    p->s = text ? text : "";
    p->n = text ? len : 0;
    p->origin = origin ? origin : "<string>";
    p->doc = doc;
    if (p->n >= 3 && memcmp(p->s, "\xEF\xBB\xBF", 3) == 0) p->i = 3;
    p->base = p->lc_pos = p->i;
    p->lc_line = p->lc_col = 1;
    doc->root = new_value(p, CA_TOML_TABLE, p->i, 0);
    doc->root->state = TS_HEADER;
    p->cur = doc->root;
    int r = 0;
    while (r == 0) {
        skip_ws(p);
        if (at_end(p)) break;
        int c = peek(p, 0);
        if (c == '#') {
            r = skip_comment(p);
            if (r == 0 && !at_end(p) && !eat_newline(p)) r = fail_at(p, p->i, "expected a newline");
        } else if (eat_newline(p)) {
            continue;
        } else if (c == '[') {
            r = read_header(p);
        } else {
            keypath kp = {0};
            r = read_key(p, &kp);
            if (r == 0) r = insert_kv(p, p->cur, &kp, 0);
            keypath_free(&kp);
            if (r == 0) r = end_of_line(p, "a value");
        }
    }
    if (r < 0) {
        if (err) *err = p->err ? p->err : ca_xstrdup("invalid TOML");
        else free(p->err);
        ca_toml_doc_free(doc);
        return -1;
    }
    return 0;
}

int ca_toml_parse_file(const char *path, ca_toml_doc *doc, char **err)
{
    char *buf = NULL;
    size_t len = 0;
    memset(doc, 0, sizeof(*doc));
    int e = ca_read_file(path, &buf, &len);
    if (e) {
        if (err) *err = ca_xasprintf("%s: %s", path, strerror(e));
        return -1;
    }
    int r = ca_toml_parse(buf, len, path, doc, err);
    free(buf);
    return r;
}

const ca_toml_entry *ca_toml_find(const ca_toml_value *t, const char *key)
{
    return key ? find_n(t, key, strlen(key)) : NULL;
}

const ca_toml_value *ca_toml_get(const ca_toml_value *t, const char *key)
{
    const ca_toml_entry *e = ca_toml_find(t, key);
    return e ? e->value : NULL;
}

const ca_toml_value *ca_toml_at(const ca_toml_value *a, size_t i)
{
    if (!a || a->type != CA_TOML_ARRAY || i >= a->nitems) return NULL;
    return a->items[i];
}

const char *ca_toml_type_name(ca_toml_type t)
{
    switch (t) {
    case CA_TOML_STRING: return "string";
    case CA_TOML_INTEGER: return "integer";
    case CA_TOML_FLOAT: return "float";
    case CA_TOML_BOOL: return "boolean";
    case CA_TOML_DATETIME: return "datetime";
    case CA_TOML_ARRAY: return "array";
    case CA_TOML_TABLE: return "table";
    }
    return "?";
}
