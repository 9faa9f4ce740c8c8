/*
 * json.c — implementation of json.h: the JSON writer (escaping, automatic
 * separators, pretty printing) and the non-recursive JSON reader.
 *
 * Both sides keep their nesting on an explicit heap stack: the writer so
 * that reporters need no recursion bookkeeping, the reader so that a hostile
 * baseline file nested a million deep fails with a message instead of a
 * stack overflow.
 */
#include "util/json.h"
#include "model/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- UTF-8 ----------------------------------------------------------- */

int32_t ca_json_utf8_next(const char *s, size_t n, size_t *adv)
{
    const unsigned char *p = (const unsigned char *)s;
    unsigned c = p[0];
    unsigned lo = 0x80, hi = 0xBF;
    size_t need;
    uint32_t cp;

    if (c < 0x80) {
        *adv = 1;
        return (int32_t)c;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        need = 1; cp = c & 0x1F;
    } else if (c == 0xE0) {
        need = 2; cp = c & 0x0F; lo = 0xA0;           /* no overlongs */
    } else if (c == 0xED) {
        need = 2; cp = c & 0x0F; hi = 0x9F;           /* no surrogates */
    } else if (c >= 0xE1 && c <= 0xEF) {
        need = 2; cp = c & 0x0F;
    } else if (c == 0xF0) {
        need = 3; cp = c & 0x07; lo = 0x90;           /* no overlongs */
    } else if (c >= 0xF1 && c <= 0xF3) {
        need = 3; cp = c & 0x07;
    } else if (c == 0xF4) {
        need = 3; cp = c & 0x07; hi = 0x8F;           /* <= U+10FFFF */
    } else {
        *adv = 1;
        return -1;
    }
    for (size_t i = 1; i <= need; i++) {
        if (i >= n) {
            *adv = i;
            return -1;
        }
        unsigned b = p[i];
        if (b < lo || b > hi) {
            *adv = i;
            return -1;
        }
        lo = 0x80;
        hi = 0xBF;
        cp = (cp << 6) | (b & 0x3F);
    }
    *adv = need + 1;
    return (int32_t)cp;
}

void ca_json_utf8_put(ca_sb *sb, uint32_t cp)
{
    char b[4];
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
    if (cp < 0x80) {
        b[0] = (char)cp;
        ca_sb_add(sb, b, 1);
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3F));
        ca_sb_add(sb, b, 2);
    } else if (cp < 0x10000) {
        b[0] = (char)(0xE0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        ca_sb_add(sb, b, 3);
    } else {
        b[0] = (char)(0xF0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (char)(0x80 | (cp & 0x3F));
        ca_sb_add(sb, b, 4);
    }
}

/* ---- writer ---------------------------------------------------------- */

static int plain_byte(unsigned char c, int html_safe)
{
    if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') return 0;
    if (html_safe && (c == '<' || c == '>' || c == '&')) return 0;
    return 1;
}

void ca_json_escape(ca_sb *sb, const char *s, size_t n, int html_safe)
{
    size_t i = 0;
    ca_sb_addc(sb, '"');
    while (i < n) {
        size_t run = i;
        while (run < n && plain_byte((unsigned char)s[run], html_safe)) run++;
        if (run > i) {
            ca_sb_add(sb, s + i, run - i);
            i = run;
            continue;
        }
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80) {
            size_t adv;
            int32_t cp = ca_json_utf8_next(s + i, n - i, &adv);
            if (cp < 0) /* bytes that are not UTF-8 stay what they were (json.h) */
                for (size_t k = 0; k < adv; k++) ca_sb_addf(sb, "\\udc%02x", (unsigned char)s[i + k]);
            else if (cp == 0x2028 || cp == 0x2029) /* line separators break JavaScript string literals */
                ca_sb_addf(sb, "\\u%04x", (unsigned)cp);
            else
                ca_sb_add(sb, s + i, adv);
            i += adv;
            continue;
        }
        switch (c) {
        case '"': ca_sb_adds(sb, "\\\""); break;
        case '\\': ca_sb_adds(sb, "\\\\"); break;
        case '\b': ca_sb_adds(sb, "\\b"); break;
        case '\f': ca_sb_adds(sb, "\\f"); break;
        case '\n': ca_sb_adds(sb, "\\n"); break;
        case '\r': ca_sb_adds(sb, "\\r"); break;
        case '\t': ca_sb_adds(sb, "\\t"); break;
        default: ca_sb_addf(sb, "\\u%04x", (unsigned)c); break;
        }
        i++;
    }
    ca_sb_addc(sb, '"');
}

void ca_json_init(ca_json_writer *w, ca_sb *out, int pretty)
{
    memset(w, 0, sizeof(*w));
    w->out = out;
    w->pretty = pretty ? 1 : 0;
}

int ca_json_finish(ca_json_writer *w)
{
    int ok = !w->error && w->depth == 0 && w->done && !w->want_value;
    free(w->kind);
    free(w->count);
    w->kind = NULL;
    w->count = NULL;
    w->depth = w->cap = 0;
    return ok ? 0 : -1;
}

static void newline_indent(ca_json_writer *w, size_t depth)
{
    /* a newline and up to 32 levels of indentation in one copy */
    static const char lead[] = "\n                                                                ";
    if (!w->pretty) return;
    size_t n = 1 + 2 * depth;
    if (n <= sizeof(lead) - 1) {
        ca_sb_add(w->out, lead, n);
        return;
    }
    ca_sb_addc(w->out, '\n');
    for (size_t i = 0; i < depth; i++) ca_sb_add(w->out, "  ", 2);
}

/* Separator and indentation before a value; 0 when a value is not allowed here. */
static int before_value(ca_json_writer *w)
{
    if (w->depth == 0) {
        if (w->done) {
            w->error = 1;
            return 0;
        }
        return 1;
    }
    size_t top = w->depth - 1;
    if (w->kind[top] == '{') {
        if (!w->want_value) {
            w->error = 1;
            return 0;
        }
        w->want_value = 0;
        return 1;
    }
    if (w->count[top]++) ca_sb_addc(w->out, ',');
    newline_indent(w, w->depth);
    return 1;
}

static void after_value(ca_json_writer *w)
{
    if (w->depth == 0) w->done = 1;
}

void ca_json_key(ca_json_writer *w, const char *key)
{
    if (w->depth == 0 || w->kind[w->depth - 1] != '{' || w->want_value) {
        w->error = 1;
        return;
    }
    if (w->count[w->depth - 1]++) ca_sb_addc(w->out, ',');
    newline_indent(w, w->depth);
    key = key ? key : "";
    ca_json_escape(w->out, key, strlen(key), w->html_safe);
    ca_sb_add(w->out, w->pretty ? ": " : ":", w->pretty ? 2 : 1);
    w->want_value = 1;
}

static void begin(ca_json_writer *w, unsigned char kind)
{
    if (!before_value(w)) return;
    if (w->depth == w->cap) {
        w->cap = w->cap ? w->cap * 2 : 16;
        w->kind = ca_xrealloc(w->kind, w->cap);
        w->count = ca_xrealloc(w->count, w->cap * sizeof(size_t));
    }
    w->kind[w->depth] = kind;
    w->count[w->depth] = 0;
    w->depth++;
    ca_sb_addc(w->out, (char)kind);
}

static void end(ca_json_writer *w, unsigned char kind)
{
    if (w->depth == 0 || w->kind[w->depth - 1] != kind || w->want_value) {
        w->error = 1;
        return;
    }
    w->depth--;
    if (w->count[w->depth]) newline_indent(w, w->depth);
    ca_sb_addc(w->out, kind == '{' ? '}' : ']');
    after_value(w);
}

void ca_json_begin_object(ca_json_writer *w) { begin(w, '{'); }
void ca_json_end_object(ca_json_writer *w) { end(w, '{'); }
void ca_json_begin_array(ca_json_writer *w) { begin(w, '['); }
void ca_json_end_array(ca_json_writer *w) { end(w, '['); }

static void raw_value(ca_json_writer *w, const char *text)
{
    if (!before_value(w)) return;
    ca_sb_adds(w->out, text);
    after_value(w);
}

void ca_json_string_n(ca_json_writer *w, const char *s, size_t n)
{
    if (!before_value(w)) return;
    ca_json_escape(w->out, s ? s : "", s ? n : 0, w->html_safe);
    after_value(w);
}

void ca_json_string(ca_json_writer *w, const char *s)
{
    if (!s) {
        ca_json_null(w);
        return;
    }
    ca_json_string_n(w, s, strlen(s));
}

void ca_json_int(ca_json_writer *w, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    raw_value(w, buf);
}

/* printf follows LC_NUMERIC; JSON wants '.' whatever the locale. */
static void fix_decimal_point(char *buf)
{
    for (char *p = buf; *p; p++)
        if (*p == ',') *p = '.';
}

void ca_json_double(ca_json_writer *w, double v)
{
    char buf[64];
    if (v != v || v > 1.7976931348623157e308 || v < -1.7976931348623157e308) {
        ca_json_null(w);
        return;
    }
    snprintf(buf, sizeof buf, "%.15g", v);
    if (strtod(buf, NULL) != v) snprintf(buf, sizeof buf, "%.17g", v);
    fix_decimal_point(buf);
    raw_value(w, buf);
}

void ca_json_bool(ca_json_writer *w, int v) { raw_value(w, v ? "true" : "false"); }
void ca_json_null(ca_json_writer *w) { raw_value(w, "null"); }

void ca_json_kv_string(ca_json_writer *w, const char *key, const char *s)
{
    ca_json_key(w, key);
    ca_json_string(w, s);
}

void ca_json_kv_int(ca_json_writer *w, const char *key, int64_t v)
{
    ca_json_key(w, key);
    ca_json_int(w, v);
}

void ca_json_kv_bool(ca_json_writer *w, const char *key, int v)
{
    ca_json_key(w, key);
    ca_json_bool(w, v);
}

void ca_json_kv_null(ca_json_writer *w, const char *key)
{
    ca_json_key(w, key);
    ca_json_null(w);
}

/* ---- reader ---------------------------------------------------------- */

typedef struct frame {
    int is_obj;
    CA_VEC(ca_json_value) items;
    CA_VEC(const char *) keys;
} frame;

typedef struct parser {
    const char *s;
    size_t n, i;
    ca_arena *arena;
    ca_sb tmp;           /* string being decoded */
    char *err;           /* what went wrong (heap), without position */
    size_t err_at;       /* byte offset of the problem */
} parser;

static int fail_at(parser *p, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail_at(parser *p, size_t at, const char *fmt, ...)
{
    if (p->err) return 0;
    ca_sb sb = {0};
    va_list ap;
    va_start(ap, fmt);
    ca_sb_vaddf(&sb, fmt, ap);
    va_end(ap);
    p->err = ca_sb_detach(&sb);
    p->err_at = at;
    return 0;
}

/* A readable name for the byte at i, for "unexpected ..." messages. */
static void describe_at(parser *p, size_t i, char *buf, size_t bufn)
{
    if (i >= p->n) {
        snprintf(buf, bufn, "end of input");
        return;
    }
    unsigned char c = (unsigned char)p->s[i];
    if (c > 0x20 && c < 0x7F) {
        snprintf(buf, bufn, "'%c'", c);
        return;
    }
    size_t adv;
    int32_t cp = ca_json_utf8_next(p->s + i, p->n - i, &adv);
    if (cp < 0)
        snprintf(buf, bufn, "byte 0x%02X", c);
    else
        snprintf(buf, bufn, "U+%04X", (unsigned)cp);
}

static int unexpected(parser *p, const char *expected)
{
    char what[32];
    describe_at(p, p->i, what, sizeof what);
    return fail_at(p, p->i, "unexpected %s, expected %s", what, expected);
}

static void skip_ws(parser *p)
{
    while (p->i < p->n) {
        char c = p->s[p->i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        p->i++;
    }
}

static int hex4(parser *p, size_t at, uint32_t *out)
{
    uint32_t v = 0;
    if (at + 4 > p->n) return 0;
    for (size_t k = 0; k < 4; k++) {
        char c = p->s[at + k];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (uint32_t)(c - 'A' + 10);
        else return 0;
    }
    *out = v;
    return 1;
}

/* At '"': decode a string into the arena. */
static int parse_string(parser *p, const char **out, size_t *outlen)
{
    size_t start = p->i;
    ca_sb_reset(&p->tmp);
    p->i++;
    for (;;) {
        if (p->i >= p->n) return fail_at(p, start, "unterminated string");
        unsigned char c = (unsigned char)p->s[p->i];
        if (c == '"') {
            p->i++;
            break;
        }
        if (c < 0x20) return fail_at(p, p->i, "control character U+%04X in string (escape it)", c);
        if (c >= 0x80) {
            size_t adv;
            if (ca_json_utf8_next(p->s + p->i, p->n - p->i, &adv) < 0)
                return fail_at(p, p->i, "invalid UTF-8 in string");
            ca_sb_add(&p->tmp, p->s + p->i, adv);
            p->i += adv;
            continue;
        }
        if (c != '\\') {
            size_t run = p->i;
            while (run < p->n && (unsigned char)p->s[run] >= 0x20 && (unsigned char)p->s[run] < 0x80 &&
                   p->s[run] != '"' && p->s[run] != '\\')
                run++;
            ca_sb_add(&p->tmp, p->s + p->i, run - p->i);
            p->i = run;
            continue;
        }
        size_t esc = p->i;
        if (p->i + 1 >= p->n) return fail_at(p, start, "unterminated string");
        char e = p->s[p->i + 1];
        p->i += 2;
        switch (e) {
        case '"': ca_sb_addc(&p->tmp, '"'); break;
        case '\\': ca_sb_addc(&p->tmp, '\\'); break;
        case '/': ca_sb_addc(&p->tmp, '/'); break;
        case 'b': ca_sb_addc(&p->tmp, '\b'); break;
        case 'f': ca_sb_addc(&p->tmp, '\f'); break;
        case 'n': ca_sb_addc(&p->tmp, '\n'); break;
        case 'r': ca_sb_addc(&p->tmp, '\r'); break;
        case 't': ca_sb_addc(&p->tmp, '\t'); break;
        case 'u': {
            uint32_t u, lo;
            if (!hex4(p, p->i, &u)) return fail_at(p, esc, "invalid \\u escape (need 4 hex digits)");
            p->i += 4;
            if (u >= 0xD800 && u <= 0xDBFF && p->i + 6 <= p->n && p->s[p->i] == '\\' &&
                p->s[p->i + 1] == 'u' && hex4(p, p->i + 2, &lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                p->i += 6;
            }
            if (u >= 0xDC80 && u <= 0xDCFF)
                ca_sb_addc(&p->tmp, (char)(u & 0xFF)); /* a byte that was not UTF-8 (the writer's escape) */
            else
                ca_json_utf8_put(&p->tmp, u); /* another lone surrogate becomes U+FFFD */
            break;
        }
        default:
            return fail_at(p, esc, "invalid escape in string");
        }
    }
    *out = ca_arena_strndup(p->arena, ca_sb_str(&p->tmp), p->tmp.len);
    *outlen = p->tmp.len;
    return 1;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int parse_number(parser *p, ca_json_value *v)
{
    size_t start = p->i, i = p->i;
    int integral = 1;
    if (i < p->n && p->s[i] == '-') i++;
    if (i < p->n && p->s[i] == '0') {
        i++;
    } else if (i < p->n && is_digit(p->s[i])) {
        while (i < p->n && is_digit(p->s[i])) i++;
    } else {
        p->i = i;
        return unexpected(p, "a digit");
    }
    if (i < p->n && p->s[i] == '.') {
        integral = 0;
        i++;
        if (i >= p->n || !is_digit(p->s[i])) {
            p->i = i;
            return unexpected(p, "a digit after '.'");
        }
        while (i < p->n && is_digit(p->s[i])) i++;
    }
    if (i < p->n && (p->s[i] == 'e' || p->s[i] == 'E')) {
        integral = 0;
        i++;
        if (i < p->n && (p->s[i] == '+' || p->s[i] == '-')) i++;
        if (i >= p->n || !is_digit(p->s[i])) {
            p->i = i;
            return unexpected(p, "a digit in the exponent");
        }
        while (i < p->n && is_digit(p->s[i])) i++;
    }
    char *tok = ca_xstrndup(p->s + start, i - start);
    v->type = CA_JSON_NUMBER;
    v->number = strtod(tok, NULL);
    if (integral) {
        /* exact int64 when it fits, independent of double precision */
        int neg = tok[0] == '-';
        uint64_t acc = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
        int fits = 1;
        for (const char *d = tok + neg; *d; d++) {
            uint64_t digit = (uint64_t)(*d - '0');
            if (acc > (limit - digit) / 10) {
                fits = 0;
                break;
            }
            acc = acc * 10 + digit;
        }
        if (fits) {
            v->is_int = 1;
            v->integer = neg ? (acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)acc) : (int64_t)acc;
        }
    }
    free(tok);
    p->i = i;
    return 1;
}

static int literal(parser *p, const char *word)
{
    size_t k = strlen(word);
    if (p->n - p->i < k || memcmp(p->s + p->i, word, k) != 0) return unexpected(p, "a value");
    p->i += k;
    return 1;
}

static int parse_scalar(parser *p, ca_json_value *v)
{
    memset(v, 0, sizeof(*v));
    switch (p->s[p->i]) {
    case '"':
        v->type = CA_JSON_STRING;
        return parse_string(p, &v->str, &v->len);
    case 't':
        v->type = CA_JSON_BOOL;
        v->boolean = 1;
        return literal(p, "true");
    case 'f':
        v->type = CA_JSON_BOOL;
        return literal(p, "false");
    case 'n':
        v->type = CA_JSON_NULL;
        return literal(p, "null");
    default:
        if (p->s[p->i] == '-' || is_digit(p->s[p->i])) return parse_number(p, v);
        return unexpected(p, "a value");
    }
}

/* After '{' or ',' in an object: a key string and ':'. */
static int parse_key(parser *p, frame *f)
{
    const char *key;
    size_t len;
    skip_ws(p);
    if (p->i >= p->n || p->s[p->i] != '"') return unexpected(p, "a string key");
    if (!parse_string(p, &key, &len)) return 0;
    skip_ws(p);
    if (p->i >= p->n || p->s[p->i] != ':') return unexpected(p, "':' after the key");
    p->i++;
    CA_VEC_PUSH(f->keys, key);
    return 1;
}

static void close_frame(parser *p, frame *f, ca_json_value *v)
{
    memset(v, 0, sizeof(*v));
    v->type = f->is_obj ? CA_JSON_OBJECT : CA_JSON_ARRAY;
    v->len = f->items.n;
    if (f->items.n) {
        v->items = ca_arena_alloc(p->arena, f->items.n * sizeof(ca_json_value));
        memcpy(v->items, f->items.v, f->items.n * sizeof(ca_json_value));
        if (f->is_obj) {
            v->keys = ca_arena_alloc(p->arena, f->keys.n * sizeof(const char *));
            memcpy(v->keys, f->keys.v, f->keys.n * sizeof(const char *));
        }
    }
    CA_VEC_FREE(f->items);
    CA_VEC_FREE(f->keys);
}

static char *position_message(const parser *p)
{
    int line = 1, col = 1;
    size_t i = 0;
    while (i < p->err_at && i < p->n) {
        size_t adv = 1;
        if (p->s[i] == '\n') {
            line++;
            col = 1;
        } else {
            ca_json_utf8_next(p->s + i, p->n - i, &adv);
            if (i + adv > p->err_at) adv = p->err_at - i;
            col++;
        }
        i += adv;
    }
    return ca_xasprintf("line %d, column %d: %s", line, col, p->err ? p->err : "invalid JSON");
}

int ca_json_parse(const char *text, size_t len, int max_depth, ca_json_doc *doc, char **err)
{
    parser p = {0};
    CA_VEC(frame) st = {0};
    ca_json_value v;
    int ok = 0;

    memset(doc, 0, sizeof(*doc));
    if (err) *err = NULL;
    if (max_depth <= 0) max_depth = CA_JSON_DEFAULT_DEPTH;
    p.s = text ? text : "";
    p.n = text ? len : 0;
    p.arena = &doc->arena;
    if (p.n >= 3 && memcmp(p.s, "\xEF\xBB\xBF", 3) == 0) p.i = 3;

    for (;;) {
        /* a value is due */
        skip_ws(&p);
        if (p.i >= p.n) {
            unexpected(&p, "a value");
            goto out;
        }
        char c = p.s[p.i];
        if (c == '{' || c == '[') {
            if (st.n >= (size_t)max_depth) {
                fail_at(&p, p.i, "nesting deeper than %d levels", max_depth);
                goto out;
            }
            frame fr = {0};
            fr.is_obj = c == '{';
            CA_VEC_PUSH(st, fr);
            p.i++;
            skip_ws(&p);
            if (p.i < p.n && p.s[p.i] == (fr.is_obj ? '}' : ']')) {
                p.i++;
                st.n--;
                close_frame(&p, &st.v[st.n], &v);
            } else {
                if (fr.is_obj && !parse_key(&p, &st.v[st.n - 1])) goto out;
                continue;
            }
        } else if (!parse_scalar(&p, &v)) {
            goto out;
        }
        /* v is complete: hand it to its container, closing containers as they end */
        for (;;) {
            if (st.n == 0) {
                skip_ws(&p);
                if (p.i < p.n) {
                    unexpected(&p, "end of input after the document");
                    goto out;
                }
                doc->root = ca_arena_alloc(&doc->arena, sizeof(ca_json_value));
                *doc->root = v;
                ok = 1;
                goto out;
            }
            frame *f = &st.v[st.n - 1];
            CA_VEC_PUSH(f->items, v);
            skip_ws(&p);
            char close = f->is_obj ? '}' : ']';
            if (p.i < p.n && p.s[p.i] == ',') {
                p.i++;
                if (f->is_obj && !parse_key(&p, f)) goto out;
                break;
            }
            if (p.i < p.n && p.s[p.i] == close) {
                p.i++;
                close_frame(&p, f, &v);
                st.n--;
                continue;
            }
            unexpected(&p, f->is_obj ? "',' or '}'" : "',' or ']'");
            goto out;
        }
    }

out:
    for (size_t k = 0; k < st.n; k++) {
        CA_VEC_FREE(st.v[k].items);
        CA_VEC_FREE(st.v[k].keys);
    }
    CA_VEC_FREE(st);
    ca_sb_release(&p.tmp);
    if (!ok) {
        if (err) *err = position_message(&p);
        ca_arena_free(&doc->arena);
        memset(doc, 0, sizeof(*doc));
    }
    free(p.err);
    return ok ? 0 : -1;
}

void ca_json_doc_free(ca_json_doc *doc)
{
    ca_arena_free(&doc->arena);
    memset(doc, 0, sizeof(*doc));
}

const ca_json_value *ca_json_get(const ca_json_value *v, const char *key)
{
    if (!v || v->type != CA_JSON_OBJECT || !key) return NULL;
    for (size_t i = v->len; i-- > 0;)
        if (strcmp(v->keys[i], key) == 0) return &v->items[i];
    return NULL;
}

const ca_json_value *ca_json_at(const ca_json_value *v, size_t i)
{
    if (!v || v->type != CA_JSON_ARRAY || i >= v->len) return NULL;
    return &v->items[i];
}

const char *ca_json_type_name(ca_json_type t)
{
    switch (t) {
    case CA_JSON_NULL: return "null";
    case CA_JSON_BOOL: return "bool";
    case CA_JSON_NUMBER: return "number";
    case CA_JSON_STRING: return "string";
    case CA_JSON_ARRAY: return "array";
    default: return "object";
    }
}

void ca_json_tool(ca_json_writer *w)
{
    ca_json_key(w, "tool");
    ca_json_begin_object(w);
    ca_json_kv_string(w, "name", "cancelaudit");
    ca_json_kv_string(w, "version", ca_version);
    ca_json_end_object(w);
}
