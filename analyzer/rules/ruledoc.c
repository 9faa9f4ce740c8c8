/*
 * ruledoc.c — implementation of ruledoc.h: parsing the embedded rules/CAN*.md
 * files (front matter + Markdown), section lookup, the `rules` and
 * `explain` printers, and --select/--ignore matching.
 *
 * The embedded docs are parsed once under pthread_once into a process-wide
 * sorted array; nothing here writes to it afterwards, so readers need no
 * lock.
 */
#include "rules/ruledoc.h"
#include "util/embed.h"
#include "util/util.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- small text helpers ---------------------------------------------- */

typedef struct span {
    const char *p;
    size_t n;
} span;

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static span trim(span s)
{
    while (s.n && is_space(s.p[0])) {
        s.p++;
        s.n--;
    }
    while (s.n && is_space(s.p[s.n - 1])) s.n--;
    return s;
}

/* Next line of text[*pos..len) without its '\n'; 0 at the end. */
static int next_line(const char *text, size_t len, size_t *pos, span *line)
{
    if (*pos >= len) return 0;
    const char *start = text + *pos;
    const char *nl = memchr(start, '\n', len - *pos);
    size_t n = nl ? (size_t)(nl - start) : len - *pos;
    line->p = start;
    line->n = n;
    *pos += n + (nl ? 1 : 0);
    return 1;
}

static int span_is(span s, const char *word)
{
    return s.n == strlen(word) && strncasecmp(s.p, word, s.n) == 0;
}

/* The first whitespace-delimited token; stops at '#' (a trailing comment). */
static span first_token(span s)
{
    size_t k = 0;
    while (k < s.n && s.p[k] != ' ' && s.p[k] != '\t' && s.p[k] != '#') k++;
    s.n = k;
    return s;
}

static char *upper_dup(span s)
{
    char *r = ca_xstrndup(s.p, s.n);
    for (char *q = r; *q; q++) *q = (char)toupper((unsigned char)*q);
    return r;
}

/* ---- parsing ---------------------------------------------------------- */

void ca_ruledoc_free(ca_ruledoc *doc)
{
    free(doc->id);
    free(doc->name);
    free(doc->summary);
    free(doc->body);
    memset(doc, 0, sizeof(*doc));
}

static int parse_fail(ca_ruledoc *out, char **err, char *msg)
{
    ca_ruledoc_free(out);
    if (err)
        *err = msg;
    else
        free(msg);
    return -1;
}

static int valid_id(const char *id)
{
    size_t k = 0;
    while (isalpha((unsigned char)id[k])) k++;
    if (k == 0 || !isdigit((unsigned char)id[k])) return 0;
    while (isdigit((unsigned char)id[k])) k++;
    return id[k] == 0;
}

int ca_ruledoc_parse(const char *text, size_t len, ca_ruledoc *out, char **err)
{
    size_t pos = 0;
    int lineno = 0, opened = 0, closed = 0;
    int have_sev = 0, have_def = 0;
    span line;

    memset(out, 0, sizeof(*out));
    if (err) *err = NULL;
    if (!text) len = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) pos = 3;

    while (next_line(text, len, &pos, &line)) {
        lineno++;
        span t = trim(line);
        if (t.n == 0) continue;
        if (t.n == 3 && memcmp(t.p, "---", 3) == 0) {
            /* a leading "---" opens the block, YAML style; otherwise it closes it */
            if (!opened) {
                opened = 1;
                continue;
            }
            closed = 1;
            break;
        }
        opened = 1;
        if (t.p[0] == '#') continue; /* comment line */
        const char *colon = memchr(t.p, ':', t.n);
        if (!colon)
            return parse_fail(out, err, ca_xasprintf("line %d: expected 'key: value' in the front matter", lineno));
        span key = trim((span){t.p, (size_t)(colon - t.p)});
        span val = trim((span){colon + 1, t.n - (size_t)(colon - t.p) - 1});
        char **slot = NULL;
        span tok = first_token(val);
        if (span_is(key, "id")) {
            if (out->id) return parse_fail(out, err, ca_xasprintf("line %d: duplicate key 'id'", lineno));
            out->id = upper_dup(tok);
            if (!valid_id(out->id))
                return parse_fail(out, err, ca_xasprintf("line %d: invalid rule id '%.*s'", lineno, (int)tok.n, tok.p));
        } else if (span_is(key, "name")) {
            slot = &out->name;
            val = tok;
        } else if (span_is(key, "summary")) {
            slot = &out->summary;
        } else if (span_is(key, "severity")) {
            if (have_sev) return parse_fail(out, err, ca_xasprintf("line %d: duplicate key 'severity'", lineno));
            have_sev = 1;
            if (span_is(tok, "error")) out->severity = CA_SEV_ERROR;
            else if (span_is(tok, "warning")) out->severity = CA_SEV_WARNING;
            else if (span_is(tok, "note")) out->severity = CA_SEV_NOTE;
            else
                return parse_fail(out, err, ca_xasprintf("line %d: severity must be error, warning or note, not '%.*s'",
                                                         lineno, (int)tok.n, tok.p));
        } else if (span_is(key, "default")) {
            if (have_def) return parse_fail(out, err, ca_xasprintf("line %d: duplicate key 'default'", lineno));
            have_def = 1;
            if (span_is(tok, "on")) out->default_on = 1;
            else if (span_is(tok, "strict")) out->default_on = 0;
            else
                return parse_fail(out, err, ca_xasprintf("line %d: default must be on or strict, not '%.*s'",
                                                         lineno, (int)tok.n, tok.p));
        }
        /* other keys are for humans and future use: ignored */
        if (slot) {
            if (*slot)
                return parse_fail(out, err, ca_xasprintf("line %d: duplicate key '%.*s'", lineno, (int)key.n, key.p));
            *slot = ca_xstrndup(val.p, val.n);
        }
    }
    if (!closed) return parse_fail(out, err, ca_xstrdup("no '---' line after the front matter"));
    if (!out->id) return parse_fail(out, err, ca_xstrdup("missing 'id'"));
    if (!out->name || !*out->name) return parse_fail(out, err, ca_xstrdup("missing 'name'"));
    if (!out->summary || !*out->summary) return parse_fail(out, err, ca_xstrdup("missing 'summary'"));
    if (!have_sev) return parse_fail(out, err, ca_xstrdup("missing 'severity'"));
    if (!have_def) return parse_fail(out, err, ca_xstrdup("missing 'default'"));

    /* the body: everything after the "---" line, minus leading blank lines */
    size_t body = pos;
    for (;;) {
        size_t probe = body;
        if (!next_line(text, len, &probe, &line) || trim(line).n != 0) break;
        body = probe;
    }
    out->body = ca_xstrndup(text + body, len - body);
    return 0;
}

/* ---- sections --------------------------------------------------------- */

/* Heading level (1..6) of a Markdown ATX heading line, its title in *title;
 * 0 when the line is not a heading. */
static int heading(span line, span *title)
{
    size_t k = 0;
    while (k < line.n && k < 3 && line.p[k] == ' ') k++;
    size_t hashes = 0;
    while (k + hashes < line.n && line.p[k + hashes] == '#') hashes++;
    if (hashes == 0 || hashes > 6) return 0;
    size_t rest = k + hashes;
    if (rest < line.n && line.p[rest] != ' ' && line.p[rest] != '\t') return 0;
    *title = trim((span){line.p + rest, line.n - rest});
    while (title->n && title->p[title->n - 1] == '#') title->n--; /* closing hashes */
    *title = trim(*title);
    return (int)hashes;
}

static span normalize_title(span t)
{
    t = trim(t);
    while (t.n && (t.p[t.n - 1] == '?' || t.p[t.n - 1] == ':' || t.p[t.n - 1] == ' ')) t.n--;
    return t;
}

/* Fence bookkeeping: a ``` or ~~~ line opens a code block that only a fence
 * of the same character and at least the same length closes. */
static void track_fence(span line, char *fence_ch, size_t *fence_len)
{
    span t = trim(line);
    if (t.n < 3 || (t.p[0] != '`' && t.p[0] != '~')) return;
    size_t k = 0;
    while (k < t.n && t.p[k] == t.p[0]) k++;
    if (k < 3) return;
    if (!*fence_ch) {
        *fence_ch = t.p[0];
        *fence_len = k;
    } else if (t.p[0] == *fence_ch && k >= *fence_len && k == t.n) {
        *fence_ch = 0;
        *fence_len = 0;
    }
}

char *ca_ruledoc_section(const ca_ruledoc *doc, const char *title)
{
    if (!doc || !doc->body || !title) return NULL;
    span want = normalize_title((span){title, strlen(title)});
    const char *text = doc->body;
    size_t len = strlen(text), pos = 0;
    size_t start = 0, stop = 0;
    int inside = 0, found = 0;
    char fence = 0;
    size_t fence_len = 0;
    span line, t;

    for (;;) {
        size_t line_start = pos;
        if (!next_line(text, len, &pos, &line)) {
            if (inside) stop = len;
            break;
        }
        int was_code = fence != 0;
        track_fence(line, &fence, &fence_len);
        if (was_code || fence) continue;
        int level = heading(line, &t);
        if (level == 0 || level > 2) continue;
        if (inside) {
            stop = line_start;
            break;
        }
        t = normalize_title(t);
        if (t.n == want.n && strncasecmp(t.p, want.p, t.n) == 0) {
            inside = 1;
            found = 1;
            start = pos;
        }
    }
    if (!found) return NULL;

    /* drop leading and trailing blank lines */
    while (start < stop) {
        size_t probe = start;
        if (!next_line(text, stop, &probe, &line) || trim(line).n != 0) break;
        start = probe;
    }
    while (stop > start && (text[stop - 1] == '\n' || text[stop - 1] == '\r' || text[stop - 1] == ' ' ||
                            text[stop - 1] == '\t'))
        stop--;
    return ca_xstrndup(text + start, stop - start);
}

/* ---- the embedded set ------------------------------------------------- */

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static ca_ruledoc *docs;
static size_t ndocs;

static int cmp_doc(const void *a, const void *b)
{
    return strcmp(((const ca_ruledoc *)a)->id, ((const ca_ruledoc *)b)->id);
}

/* "rules/CAN101.md" → 1 with the stem "CAN101" in *stem. */
static int is_rule_file(const char *name, span *stem)
{
    static const char dir[] = "rules/";
    size_t n = strlen(name);
    if (strncmp(name, dir, sizeof dir - 1) != 0) return 0;
    const char *base = name + sizeof dir - 1;
    size_t bn = n - (sizeof dir - 1);
    if (strchr(base, '/') || bn < 4 + 3 || strncmp(base, "CAN", 3) != 0 || strcmp(base + bn - 3, ".md") != 0)
        return 0;
    stem->p = base;
    stem->n = bn - 3;
    return 1;
}

static void load_docs(void)
{
    CA_VEC(ca_ruledoc) v = {0};
    for (size_t i = 0; i < ca_embedded_count; i++) {
        const ca_embedded *e = &ca_embedded_files[i];
        span stem;
        if (!e->name || !is_rule_file(e->name, &stem)) continue;
        ca_ruledoc d;
        char *err = NULL;
        if (ca_ruledoc_parse(e->data, e->len, &d, &err) != 0) {
            fprintf(stderr, "cancelaudit: internal: %s: %s; rule left out\n", e->name, err);
            free(err);
            continue;
        }
        if (strlen(d.id) != stem.n || strncasecmp(d.id, stem.p, stem.n) != 0) {
            fprintf(stderr, "cancelaudit: internal: %s: id %s does not match the file name; rule left out\n",
                    e->name, d.id);
            ca_ruledoc_free(&d);
            continue;
        }
        CA_VEC_PUSH(v, d);
    }
    if (v.n) qsort(v.v, v.n, sizeof(ca_ruledoc), cmp_doc);
    docs = v.v;
    ndocs = v.n;
}

const ca_ruledoc *ca_ruledoc_all(size_t *n)
{
    pthread_once(&load_once, load_docs);
    if (n) *n = ndocs;
    return docs;
}

const ca_ruledoc *ca_ruledoc_get(const char *id)
{
    size_t n;
    const ca_ruledoc *all = ca_ruledoc_all(&n);
    if (!id) return NULL;
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(all[i].id, id) == 0) return &all[i];
    return NULL;
}

/* ---- printers --------------------------------------------------------- */

void ca_ruledoc_print_list(FILE *out)
{
    size_t n;
    const ca_ruledoc *all = ca_ruledoc_all(&n);
    if (n == 0) {
        fputs("no rules are built in\n", out);
        return;
    }
    int idw = (int)strlen("ID"), namew = (int)strlen("NAME");
    for (size_t i = 0; i < n; i++) {
        if ((int)strlen(all[i].id) > idw) idw = (int)strlen(all[i].id);
        if ((int)strlen(all[i].name) > namew) namew = (int)strlen(all[i].name);
    }
    fprintf(out, "%-*s  %-7s  %-*s  %s\n", idw, "ID", "DEFAULT", namew, "NAME", "SUMMARY");
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%-*s  %-7s  %-*s  %s\n", idw, all[i].id, all[i].default_on ? "on" : "strict", namew,
                all[i].name, all[i].summary);
}

/* argv text shown back to the user, without terminal control bytes. */
static void print_sanitized(FILE *f, const char *s)
{
    for (; *s; s++) fputc(((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7F) ? *s : '?', f);
}

int ca_ruledoc_explain(FILE *out, const char *id)
{
    size_t n;
    const ca_ruledoc *all = ca_ruledoc_all(&n);
    const ca_ruledoc *d = ca_ruledoc_get(id);
    if (!d) {
        fputs("cancelaudit: unknown rule '", stderr);
        print_sanitized(stderr, id ? id : "");
        fputc('\'', stderr);
        const char *hint = ca_rule_suggest(id);
        if (hint) fprintf(stderr, " (did you mean '%s'?)", hint);
        if (n == 0) {
            fputs("; no rules are built in\n", stderr);
        } else {
            fputs("; known rules:", stderr);
            for (size_t i = 0; i < n; i++) fprintf(stderr, "%s %s", i ? "," : "", all[i].id);
            fputc('\n', stderr);
        }
        return 2;
    }
    fprintf(out, "%s: %s\n", d->id, d->name);
    if (d->default_on)
        fprintf(out, "severity: %s; default: on\n", ca_severity_name(d->severity));
    else
        fprintf(out, "severity: %s; default: strict (enable with --strict or --select %s)\n",
                ca_severity_name(d->severity), d->id);
    fprintf(out, "\n%s\n", d->summary);
    size_t bl = strlen(d->body);
    if (bl) {
        fputc('\n', out);
        fputs(d->body, out);
        if (d->body[bl - 1] != '\n') fputc('\n', out);
    }
    if (fflush(out) != 0 || ferror(out)) return 3;
    return 0;
}

/* ---- selection -------------------------------------------------------- */

/* Call fn on every non-empty, trimmed item of csv; stops and returns 1 when
 * fn does. */
static int each_item(const char *csv, int (*fn)(span item, const void *ctx), const void *ctx)
{
    if (!csv) return 0;
    const char *p = csv;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        span item = trim((span){p, n});
        if (item.n && fn(item, ctx)) return 1;
        if (!comma) return 0;
        p = comma + 1;
    }
}

static int item_matches_id(span item, const void *ctx)
{
    const char *id = ctx;
    return item.n <= strlen(id) && strncasecmp(id, item.p, item.n) == 0;
}

static int item_any(span item, const void *ctx)
{
    (void)item;
    (void)ctx;
    return 1;
}

int ca_rule_selected(const char *id, const char *select_csv, const char *ignore_csv, int strict)
{
    if (!id || !*id) return 0;
    if (each_item(ignore_csv, item_matches_id, id)) return 0;
    if (each_item(select_csv, item_any, NULL)) return each_item(select_csv, item_matches_id, id);
    const ca_ruledoc *d = ca_ruledoc_get(id);
    if (!d) return 1;
    return d->default_on || strict;
}

static int item_unknown(span item, const void *ctx)
{
    char **bad = (char **)ctx;
    size_t n;
    const ca_ruledoc *all = ca_ruledoc_all(&n);
    for (size_t i = 0; i < n; i++)
        if (item_matches_id(item, all[i].id)) return 0;
    if (bad) *bad = ca_xstrndup(item.p, item.n);
    return 1;
}

int ca_rule_check_list(const char *csv, char **bad)
{
    if (bad) *bad = NULL;
    return each_item(csv, item_unknown, bad) ? -1 : 0;
}

const char *ca_rule_suggest(const char *item)
{
    size_t n;
    const ca_ruledoc *all = ca_ruledoc_all(&n);
    if (!item || !n) return NULL;
    const char **ids = ca_xmalloc(sizeof(char *) * n);
    for (size_t i = 0; i < n; i++) ids[i] = all[i].id;
    const char *best = ca_closest(item, ids, n);
    free(ids);
    return best;
}
