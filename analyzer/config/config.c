/*
 * config.c — finding, reading and validating the project configuration
 * (config.h). The TOML syntax is toml.c's business; this file knows the
 * keys, their types and which catalog category each extra feeds.
 *
 * The folder: config/ reads `[tool.cancelaudit]` (pyproject.toml or
 * cancelaudit.toml) into the options a scan runs with: toml.c parses TOML
 * 1.0, config.c validates keys. The CLI calls it before the scan starts.
 */
#include "config/config.h"
#include "rules/ruledoc.h"
#include "config/toml.h"
#include "model/model.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const known_keys[] = {
    "select", "ignore", "strict", "exclude", "max-size", "jobs", "file-timeout", "file-memory",
    "acquirers", "releasers", "registries", "register", "remote-creates",
    "cancellation", "shields", "timeouts", "backends", "c-cancel-scope", "compile-commands", "per-file-ignores",
    "output-format", "min-confidence", NULL,
};

typedef struct loader {
    const char *file;       /* as shown in messages */
    const char *table;      /* "[tool.cancelaudit]" or "the top-level table" */
    const char *backends;   /* "[tool.cancelaudit.backends]" or "[backends]" */
    char *cfgdir, *cwd;     /* absolute */
    ca_config *c;
    char *err;
} loader;

static int bad(loader *L, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int bad(loader *L, int line, const char *fmt, ...)
{
    if (L->err) return -1;
    ca_sb sb = {0};
    ca_sb_addf(&sb, "%s:%d: ", L->file, line);
    va_list ap;
    va_start(ap, fmt);
    ca_sb_vaddf(&sb, fmt, ap);
    va_end(ap);
    L->err = ca_sb_detach(&sb);
    return -1;
}

static const char *a_type(const ca_toml_value *v)
{
    switch (v->type) {
    case CA_TOML_STRING: return "a string";
    case CA_TOML_INTEGER: return "an integer";
    case CA_TOML_FLOAT: return "a float";
    case CA_TOML_BOOL: return "a boolean";
    case CA_TOML_DATETIME: return "a date";
    case CA_TOML_ARRAY: return "an array";
    case CA_TOML_TABLE: return "a table";
    }
    return "a value";
}

/* ---- small helpers -------------------------------------------------------- */

void ca_config_init(ca_config *c)
{
    memset(c, 0, sizeof(*c));
    c->strict = -1;
    c->jobs = -1;
    c->file_timeout = -1;
    c->file_memory = -1;
}

/* A plain non-negative decimal at the start of s (digits and '.': no
 * sign, hex, inf or nan, which strtod would take), its end in *end; -1
 * when s does not start with one. */
static int plain_number(const char *s, double *v, char **end)
{
    if (!s || !*s || isspace((unsigned char)*s)) return -1;
    errno = 0;
    *v = strtod(s, end);
    for (const char *p = s; p < *end; p++)
        if (!isdigit((unsigned char)*p) && *p != '.') return -1;
    if (errno || *end == s || !(*v >= 0)) return -1;
    return 0;
}

int ca_config_parse_seconds(const char *s, double *out)
{
    char *end;
    double v;
    if (plain_number(s, &v, &end) != 0 || *end || v > 1e6) return -1;
    *out = v;
    return 0;
}

int ca_config_parse_memory(const char *s, int64_t *out)
{
    char *end;
    double v;
    if (plain_number(s, &v, &end) != 0) return -1;
    static const struct { const char *unit; double scale; } units[] = {
        {"", 1 << 20}, {"K", 1 << 10}, {"KiB", 1 << 10}, {"M", 1 << 20}, {"MiB", 1 << 20},
        {"G", 1 << 30}, {"GiB", 1 << 30}, {"T", 1099511627776.0}, {"TiB", 1099511627776.0},
    };
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcmp(end, units[i].unit) != 0) continue;
        double b = v * units[i].scale;
        if (b > 9.0e18) return -1;
        *out = (int64_t)b;
        return 0;
    }
    return -1;
}

void ca_config_free(ca_config *c)
{
    if (!c) return;
    free(c->path);
    free(c->abs_path);
    free(c->compile_commands);
    free(c->select);
    free(c->ignore);
    for (size_t i = 0; i < c->nexcludes; i++) free(c->excludes[i]);
    free(c->excludes);
    for (size_t i = 0; i < c->nmaps; i++) {
        free((char *)c->maps[i].name);
        free((char *)c->maps[i].glob);
    }
    free(c->maps);
    for (size_t i = 0; i < c->nextras; i++) {
        free(c->extras[i].category);
        free(c->extras[i].pattern);
        free(c->extras[i].kind);
    }
    free(c->extras);
    for (size_t i = 0; i < c->nfile_ignores; i++) {
        free(c->file_ignores[i].glob);
        free(c->file_ignores[i].rules);
    }
    free(c->file_ignores);
    free(c->output_format);
    free(c->min_confidence);
    ca_config_init(c);
}

/* v (n items of size bytes) with room for one more. The capacity is the
 * next power of two, implied by n: growing one slot per item was
 * quadratic (500,000 exclude globs took minutes under ASan). */
static void *room_for_one(void *v, size_t n, size_t size)
{
    if (n & (n - 1)) return v; /* not a power of two (nor 0): there is room */
    return ca_xrealloc(v, (n ? 2 * n : 1) * size);
}

static void add_extra(ca_config *c, const char *category, const char *pattern, const char *kind)
{
    c->extras = room_for_one(c->extras, c->nextras, sizeof(*c->extras));
    ca_config_extra *e = &c->extras[c->nextras++];
    e->category = ca_xstrdup(category);
    e->pattern = ca_xstrdup(pattern);
    e->kind = kind ? ca_xstrdup(kind) : NULL;
}

static char *lowercase(const char *s)
{
    char *d = ca_xstrdup(s);
    for (char *p = d; *p; p++) *p = (char)tolower((unsigned char)*p);
    return d;
}

/* " (did you mean 'max-size'?)" or "". */
static const char *suggest(const char *key, const char *const *known, char *buf, size_t n)
{
    char *norm = ca_xstrdup(key);
    for (char *p = norm; *p; p++) *p = *p == '_' ? '-' : (char)tolower((unsigned char)*p);
    const char *best = NULL;
    size_t bd = 3;
    for (size_t i = 0; known[i]; i++) {
        size_t d = strcmp(norm, known[i]) == 0 ? 0 : ca_edit_distance(norm, known[i]);
        if (d < bd) {
            bd = d;
            best = known[i];
        }
    }
    free(norm);
    buf[0] = 0;
    if (best) snprintf(buf, n, " (did you mean '%s'?)", best);
    return buf;
}

/* A key for messages: cut, and without control characters. */
static char *shown_key(const ca_toml_entry *e)
{
    ca_sb sb = {0};
    for (size_t i = 0; i < e->key_len && i < 60; i++) {
        unsigned char ch = (unsigned char)e->key[i];
        if (ch < 0x20 || ch == 0x7f) ca_sb_addf(&sb, "\\x%02x", ch);
        else ca_sb_addc(&sb, (char)ch);
    }
    if (e->key_len > 60) ca_sb_adds(&sb, "...");
    return ca_sb_detach(&sb);
}

/* ---- glob rebasing ---------------------------------------------------------- */

/* rest of `path` when it lies strictly under directory `dir`, else NULL */
static const char *under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/') return path[0] == '/' && path[1] ? path + 1 : NULL;
    if (strncmp(path, dir, n) != 0 || path[n] != '/' || !path[n + 1]) return NULL;
    return path + n + 1;
}

char *ca_config_rebase_glob(const char *glob, const char *cfgdir, const char *cwd)
{
    while (glob[0] == '.' && glob[1] == '/') glob += 2;
    if (!strchr(glob, '/') || glob[0] == '/' || strcmp(cfgdir, cwd) == 0) return ca_xstrdup(glob);
    const char *down = under(cfgdir, cwd);
    if (down) return ca_xasprintf("%s/%s", down, glob);
    const char *up = under(cwd, cfgdir);
    if (!up) return ca_xstrdup(glob);
    size_t un = strlen(up);
    if (strncmp(glob, up, un) == 0 && glob[un] == '/' && glob[un + 1]) return ca_xstrdup(glob + un + 1);
    /* A leading '*' spans any directories, including the ones up to cwd. */
    if (glob[0] == '*') return ca_xstrdup(glob);
    ca_sb sb = {0};
    ca_sb_adds(&sb, "..");
    for (const char *p = up; *p; p++)
        if (*p == '/') ca_sb_adds(&sb, "/..");
    ca_sb_addf(&sb, "/%s", glob);
    return ca_sb_detach(&sb);
}

/* ---- value readers -------------------------------------------------------------- */

typedef struct item {
    const char *s;
    int line;
} item;

typedef CA_VEC(item) item_vec;

/* A string (one item; with csv, split at commas) or an array of strings. */
static int string_items(loader *L, const ca_toml_entry *e, const char *key, int csv, item_vec *out, char **scratch)
{
    const ca_toml_value *v = e->value;
    const char *need = csv ? "an array of strings or a comma-separated string" : "a string or an array of strings";
    if (v->type == CA_TOML_STRING) {
        if (strlen(v->str) != v->len) return bad(L, e->line, "'%s' holds a NUL character", key);
        if (!csv) {
            item it = {v->str, v->line};
            CA_VEC_PUSH(*out, it);
            return 0;
        }
        *scratch = ca_xstrdup(v->str);
        for (char *tok = strtok(*scratch, ","); tok; tok = strtok(NULL, ",")) {
            item it = {tok, v->line};
            CA_VEC_PUSH(*out, it);
        }
        return 0;
    }
    if (v->type != CA_TOML_ARRAY) return bad(L, e->line, "'%s' must be %s, not %s", key, need, a_type(v));
    for (size_t i = 0; i < v->nitems; i++) {
        const ca_toml_value *x = v->items[i];
        if (x->type != CA_TOML_STRING)
            return bad(L, x->line, "'%s' must be %s: item %zu is %s", key, need, i + 1, a_type(x));
        if (strlen(x->str) != x->len) return bad(L, x->line, "'%s' item %zu holds a NUL character", key, i + 1);
        item it = {x->str, x->line};
        CA_VEC_PUSH(*out, it);
    }
    return 0;
}

/* An item without surrounding whitespace; empty is an error. */
static char *trimmed(loader *L, const item *it, const char *key)
{
    const char *s = it->s;
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) n--;
    if (!n) {
        bad(L, it->line, "'%s' holds an empty entry", key);
        return NULL;
    }
    return ca_xstrndup(s, n);
}

static int rule_list(loader *L, const ca_toml_entry *e, const char *key, char **dst)
{
    item_vec items = {0};
    char *scratch = NULL;
    int r = string_items(L, e, key, 1, &items, &scratch);
    ca_sb sb = {0};
    for (size_t i = 0; r == 0 && i < items.n; i++) {
        char *id = trimmed(L, &items.v[i], key);
        if (!id) {
            r = -1;
            break;
        }
        char *badid = NULL;
        if (strchr(id, ',') || ca_rule_check_list(id, &badid) != 0) {
            const char *hint = ca_rule_suggest(badid ? badid : id);
            r = bad(L, items.v[i].line, "unknown rule '%s' in '%s'%s%s%s (see `cancelaudit rules`)", badid ? badid : id,
                    key, hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
        } else {
            if (sb.len) ca_sb_addc(&sb, ',');
            ca_sb_adds(&sb, id);
        }
        free(badid);
        free(id);
    }
    free(scratch);
    CA_VEC_FREE(items);
    if (r < 0) {
        ca_sb_release(&sb);
        return -1;
    }
    free(*dst);
    *dst = sb.len ? ca_sb_detach(&sb) : NULL;
    ca_sb_release(&sb);
    return 0;
}

/* Catalog names: every item goes to `category` (and `category2`). Names
 * for *-word categories are call-name words: no dots, lower case. */
static int catalog_names(loader *L, const ca_toml_entry *e, const char *key, const char *category,
                         const char *category2)
{
    item_vec items = {0};
    char *scratch = NULL;
    int r = string_items(L, e, key, 0, &items, &scratch);
    for (size_t i = 0; r == 0 && i < items.n; i++) {
        char *name = trimmed(L, &items.v[i], key);
        if (!name) {
            r = -1;
            break;
        }
        const char *cats[2] = {category, category2};
        for (int k = 0; k < 2 && r == 0; k++) {
            if (!cats[k]) continue;
            int word = strstr(cats[k], "-word") != NULL;
            if (word && strchr(name, '.')) {
                r = bad(L, items.v[i].line, "'%s' entries are call names without dots: '%s'", key, name);
                break;
            }
            char *pat = word ? lowercase(name) : ca_xstrdup(name);
            add_extra(L->c, cats[k], pat, NULL);
            free(pat);
        }
        free(name);
    }
    free(scratch);
    CA_VEC_FREE(items);
    return r;
}

static int releasers(loader *L, const ca_toml_entry *e)
{
    item_vec items = {0};
    char *scratch = NULL;
    int r = string_items(L, e, "releasers", 0, &items, &scratch);
    for (size_t i = 0; r == 0 && i < items.n; i++) {
        char *name = trimmed(L, &items.v[i], "releasers");
        if (!name) {
            r = -1;
            break;
        }
        if (strchr(name, '.')) {
            add_extra(L->c, "release-func", name, NULL);
        } else {
            add_extra(L->c, "release-method", name, NULL);
            char *low = lowercase(name);
            add_extra(L->c, "release-word", low, NULL);
            free(low);
        }
        free(name);
    }
    free(scratch);
    CA_VEC_FREE(items);
    return r;
}

static int acquirer_table(loader *L, const ca_toml_value *t, size_t idx)
{
    static const char *const keys[] = {"pattern", "kind", NULL};
    const char *pattern = NULL, *kind = NULL;
    for (size_t i = 0; i < t->nentries; i++) {
        const ca_toml_entry *e = &t->entries[i];
        int is_pattern = strcmp(e->key, "pattern") == 0, is_kind = strcmp(e->key, "kind") == 0;
        if (!is_pattern && !is_kind) {
            char buf[80], *k = shown_key(e);
            int r = bad(L, e->line, "unknown key '%s' in 'acquirers' item %zu (pattern, kind)%s", k, idx + 1,
                        suggest(k, keys, buf, sizeof(buf)));
            free(k);
            return r;
        }
        if (e->value->type != CA_TOML_STRING || strlen(e->value->str) != e->value->len || !e->value->len)
            return bad(L, e->line, "'acquirers' item %zu: '%s' must be a non-empty string", idx + 1, e->key);
        if (is_pattern) pattern = e->value->str;
        else kind = e->value->str;
    }
    if (!pattern) return bad(L, t->line, "'acquirers' item %zu needs a 'pattern'", idx + 1);
    add_extra(L->c, "acquire", pattern, kind ? kind : "resource");
    return 0;
}

static int acquirers(loader *L, const ca_toml_entry *e)
{
    const ca_toml_value *v = e->value;
    const char *need = "an array of strings or of {pattern = \"...\", kind = \"...\"} tables";
    if (v->type == CA_TOML_STRING) {
        item it = {v->str, v->line};
        char *p = trimmed(L, &it, "acquirers");
        if (!p) return -1;
        add_extra(L->c, "acquire", p, "resource");
        free(p);
        return 0;
    }
    if (v->type != CA_TOML_ARRAY) return bad(L, e->line, "'acquirers' must be %s, not %s", need, a_type(v));
    for (size_t i = 0; i < v->nitems; i++) {
        const ca_toml_value *x = v->items[i];
        if (x->type == CA_TOML_TABLE) {
            if (acquirer_table(L, x, i) < 0) return -1;
        } else if (x->type == CA_TOML_STRING && strlen(x->str) == x->len) {
            item it = {x->str, x->line};
            char *p = trimmed(L, &it, "acquirers");
            if (!p) return -1;
            add_extra(L->c, "acquire", p, "resource");
            free(p);
        } else {
            return bad(L, x->line, "'acquirers' must be %s: item %zu is %s", need, i + 1, a_type(x));
        }
    }
    return 0;
}

static int excludes(loader *L, const ca_toml_entry *e)
{
    item_vec items = {0};
    char *scratch = NULL;
    int r = string_items(L, e, "exclude", 0, &items, &scratch);
    for (size_t i = 0; r == 0 && i < items.n; i++) {
        char *g = trimmed(L, &items.v[i], "exclude");
        if (!g) {
            r = -1;
            break;
        }
        L->c->excludes = room_for_one(L->c->excludes, L->c->nexcludes, sizeof(char *));
        L->c->excludes[L->c->nexcludes++] = ca_config_rebase_glob(g, L->cfgdir, L->cwd);
        free(g);
    }
    free(scratch);
    CA_VEC_FREE(items);
    return r;
}

static int backends(loader *L, const ca_toml_entry *be)
{
    const ca_toml_value *t = be->value;
    if (t->type != CA_TOML_TABLE)
        return bad(L, be->line, "'backends' must be a table of backend name = glob or [globs], not %s", a_type(t));
    for (size_t i = 0; i < t->nentries; i++) {
        const ca_toml_entry *e = &t->entries[i];
        if (!e->key_len || strlen(e->key) != e->key_len)
            return bad(L, e->line, "a backend name in %s must be a non-empty name", L->backends);
        item_vec items = {0};
        char *scratch = NULL;
        char *what = ca_xasprintf("backends.%s", e->key);
        int r = string_items(L, e, what, 0, &items, &scratch);
        for (size_t k = 0; r == 0 && k < items.n; k++) {
            char *g = trimmed(L, &items.v[k], what);
            if (!g) {
                r = -1;
                break;
            }
            L->c->maps = room_for_one(L->c->maps, L->c->nmaps, sizeof(*L->c->maps));
            ca_backend_map *m = &L->c->maps[L->c->nmaps++];
            m->name = ca_xstrdup(e->key);
            m->glob = ca_config_rebase_glob(g, L->cfgdir, L->cwd);
            free(g);
        }
        free(what);
        free(scratch);
        CA_VEC_FREE(items);
        if (r < 0) return -1;
    }
    return 0;
}

/* per-file-ignores = { "tests" = ["CAN101"], "test_*.py" = "CAN1" } */
static int file_ignores(loader *L, const ca_toml_entry *pe)
{
    const ca_toml_value *t = pe->value;
    if (t->type != CA_TOML_TABLE)
        return bad(L, pe->line, "'per-file-ignores' must be a table of glob = [rules], not %s", a_type(t));
    for (size_t i = 0; i < t->nentries; i++) {
        const ca_toml_entry *e = &t->entries[i];
        if (!e->key_len || strlen(e->key) != e->key_len)
            return bad(L, e->line, "a glob in 'per-file-ignores' must be a non-empty string");
        char *what = ca_xasprintf("per-file-ignores.\"%s\"", e->key);
        char *rules = NULL;
        int r = rule_list(L, e, what, &rules);
        free(what);
        if (r < 0) return -1;
        if (!rules) continue; /* an empty list ignores nothing */
        char *g = ca_xstrdup(e->key);
        size_t n = strlen(g);
        while (n > 1 && g[n - 1] == '/') g[--n] = 0;
        L->c->file_ignores = ca_xrealloc(L->c->file_ignores, (L->c->nfile_ignores + 1) * sizeof(ca_file_ignore));
        ca_file_ignore *fi = &L->c->file_ignores[L->c->nfile_ignores++];
        fi->glob = ca_config_rebase_glob(g, L->cfgdir, L->cwd);
        fi->rules = rules;
        free(g);
    }
    return 0;
}

static int integer(loader *L, const ca_toml_entry *e, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    const ca_toml_value *v = e->value;
    if (v->type != CA_TOML_INTEGER) return bad(L, e->line, "'%s' must be an integer, not %s", key, a_type(v));
    if (v->integer < lo || v->integer > hi)
        return bad(L, e->line, "'%s' must be between %lld and %lld", key, (long long)lo, (long long)hi);
    *out = v->integer;
    return 0;
}

/* ---- the table ----------------------------------------------------------------- */

static int read_table(loader *L, const ca_toml_value *t)
{
    ca_config *c = L->c;
    for (size_t i = 0; i < t->nentries; i++) {
        const ca_toml_entry *e = &t->entries[i];
        const char *k = e->key;
        int r = 0;
        if (strlen(k) != e->key_len) {
            char *sk = shown_key(e);
            r = bad(L, e->line, "unknown key '%s' in %s", sk, L->table);
            free(sk);
        } else if (strcmp(k, "select") == 0) {
            r = rule_list(L, e, k, &c->select);
        } else if (strcmp(k, "ignore") == 0) {
            r = rule_list(L, e, k, &c->ignore);
        } else if (strcmp(k, "strict") == 0) {
            if (e->value->type != CA_TOML_BOOL)
                r = bad(L, e->line, "'strict' must be a boolean (true or false), not %s", a_type(e->value));
            else c->strict = e->value->boolean;
        } else if (strcmp(k, "exclude") == 0) {
            r = excludes(L, e);
        } else if (strcmp(k, "max-size") == 0) {
            r = integer(L, e, k, 1, INT64_MAX, &c->max_size);
        } else if (strcmp(k, "jobs") == 0) {
            int64_t j = 0;
            r = integer(L, e, k, 0, 1024, &j);
            if (r == 0) c->jobs = (int)j;
        } else if (strcmp(k, "file-timeout") == 0) {
            const ca_toml_value *v = e->value;
            double d = v->type == CA_TOML_INTEGER ? (double)v->integer : v->type == CA_TOML_FLOAT ? v->real : -1;
            if (v->type != CA_TOML_INTEGER && v->type != CA_TOML_FLOAT)
                r = bad(L, e->line, "'file-timeout' must be a number of seconds, not %s", a_type(v));
            else if (!(d >= 0) || d > 1e6)
                r = bad(L, e->line, "'file-timeout' must be between 0 (no limit) and 1000000 seconds");
            else c->file_timeout = d;
        } else if (strcmp(k, "file-memory") == 0) {
            const ca_toml_value *v = e->value;
            int64_t b = 0;
            if (v->type == CA_TOML_INTEGER) {
                if (v->integer < 0 || v->integer > ((int64_t)1 << 43))
                    r = bad(L, e->line, "'file-memory' must be between 0 (no limit) and 8388608 MiB");
                else c->file_memory = v->integer << 20;
            } else if (v->type == CA_TOML_STRING && strlen(v->str) == v->len && ca_config_parse_memory(v->str, &b) == 0) {
                c->file_memory = b;
            } else {
                r = bad(L, e->line, "'file-memory' must be a number of MiB or a size such as \"2G\" or \"512M\", not %s",
                        v->type == CA_TOML_STRING ? "that string" : a_type(v));
            }
        } else if (strcmp(k, "c-cancel-scope") == 0) {
            const char *v = e->value->type == CA_TOML_STRING ? e->value->str : NULL;
            if (v && strcmp(v, "auto") == 0) c->c_cancel_scope = 0;
            else if (v && strcmp(v, "always") == 0) c->c_cancel_scope = 1;
            else if (v && strcmp(v, "never") == 0) c->c_cancel_scope = -1;
            else r = bad(L, e->line, "'c-cancel-scope' must be \"auto\", \"always\" or \"never\"");
        } else if (strcmp(k, "compile-commands") == 0) {
            if (e->value->type != CA_TOML_STRING) {
                r = bad(L, e->line, "'compile-commands' must be a string (a directory), not %s", a_type(e->value));
            } else {
                /* relative to the configuration file's directory */
                const char *v = e->value->str;
                char *dir = ca_xstrdup(L->file);
                char *slash = strrchr(dir, '/');
                if (v[0] == '/' || !slash) c->compile_commands = ca_xstrdup(v);
                else {
                    *slash = 0;
                    c->compile_commands = ca_xasprintf("%s/%s", dir, v);
                }
                free(dir);
            }
        } else if (strcmp(k, "acquirers") == 0) {
            r = acquirers(L, e);
        } else if (strcmp(k, "releasers") == 0) {
            r = releasers(L, e);
        } else if (strcmp(k, "registries") == 0 || strcmp(k, "register") == 0) {
            r = catalog_names(L, e, k, "register-word", NULL);
        } else if (strcmp(k, "remote-creates") == 0) {
            r = catalog_names(L, e, k, "remote-create", NULL);
        } else if (strcmp(k, "cancellation") == 0) {
            r = catalog_names(L, e, k, "cancel-exc", NULL);
        } else if (strcmp(k, "shields") == 0) {
            r = catalog_names(L, e, k, "shield-call", NULL);
        } else if (strcmp(k, "timeouts") == 0) {
            /* a timeout is one whether it wraps an awaitable or opens a scope */
            r = catalog_names(L, e, k, "timeout-call", "timeout-scope");
        } else if (strcmp(k, "backends") == 0) {
            r = backends(L, e);
        } else if (strcmp(k, "per-file-ignores") == 0) {
            r = file_ignores(L, e);
        } else if (strcmp(k, "output-format") == 0) {
            static const char *const formats[] = {"full", "concise", "text", "json", "sarif", "github", "markdown", NULL};
            const char *v = e->value->type == CA_TOML_STRING ? e->value->str : NULL;
            int ok = 0;
            for (size_t f = 0; v && formats[f] && !ok; f++) ok = strcmp(v, formats[f]) == 0;
            if (!ok)
                r = bad(L, e->line, "'output-format' must be one of \"full\", \"concise\", \"json\", \"sarif\", "
                                    "\"github\", \"markdown\"");
            else {
                free(c->output_format);
                c->output_format = ca_xstrdup(v);
            }
        } else if (strcmp(k, "min-confidence") == 0) {
            const char *v = e->value->type == CA_TOML_STRING ? e->value->str : NULL;
            ca_confidence level;
            if (!v || ca_confidence_parse(v, &level) != 0)
                r = bad(L, e->line, "'min-confidence' must be \"high\", \"medium\" or \"low\"");
            else {
                free(c->min_confidence);
                c->min_confidence = ca_xstrdup(v);
            }
        } else {
            char buf[80], *sk = shown_key(e);
            r = bad(L, e->line, "unknown key '%s' in %s%s", sk, L->table, suggest(sk, known_keys, buf, sizeof(buf)));
            free(sk);
        }
        if (r < 0) return -1;
    }
    return 0;
}

static char *abs_dir_of(const char *path)
{
    char *rp = realpath(path, NULL);
    if (!rp) return NULL;
    char *slash = strrchr(rp, '/');
    if (slash == rp) slash[1] = 0;
    else if (slash) *slash = 0;
    return rp;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Returns 0 loaded, 1 skipped (a pyproject.toml without the table, when
 * not explicit), -1 error. `shown` is the path for messages. */
static int load_file(const char *path, const char *shown, int explicit_file, ca_config *c, char **err)
{
    char *buf = NULL;
    size_t len = 0;
    int e = ca_read_file(path, &buf, &len);
    if (e) {
        *err = ca_xasprintf("%s: %s", shown, strerror(e));
        return -1;
    }
    ca_toml_doc doc;
    int pr = ca_toml_parse(buf, len, shown, &doc, err);
    free(buf);
    if (pr != 0) return -1;
    loader L;
    memset(&L, 0, sizeof(L));
    L.file = shown;
    L.c = c;
    const ca_toml_entry *tool = ca_toml_find(doc.root, "tool");
    const ca_toml_entry *ours = tool && tool->value->type == CA_TOML_TABLE ? ca_toml_find(tool->value, "cancelaudit") : NULL;
    const ca_toml_value *table = NULL;
    int pyproject = strcmp(base_name(path), "pyproject.toml") == 0;
    int r = 0;
    if (ours) {
        if (ours->value->type != CA_TOML_TABLE) {
            r = bad(&L, ours->line, "'tool.cancelaudit' must be a table, not %s", a_type(ours->value));
        } else {
            table = ours->value;
            L.table = "[tool.cancelaudit]";
            L.backends = "[tool.cancelaudit.backends]";
        }
    } else if (pyproject) {
        if (!explicit_file) {
            ca_toml_doc_free(&doc);
            return 1;
        }
        r = bad(&L, 1, "no [tool.cancelaudit] table");
    } else {
        table = doc.root;
        L.table = "the top-level table";
        L.backends = "[backends]";
    }
    char cwdbuf[PATH_MAX];
    if (r == 0) {
        L.cfgdir = abs_dir_of(path);
        L.cwd = getcwd(cwdbuf, sizeof(cwdbuf)) ? realpath(cwdbuf, NULL) : NULL;
        if (!L.cfgdir || !L.cwd) r = bad(&L, 1, "cannot resolve the file's directory: %s", strerror(errno));
    }
    if (r == 0) r = read_table(&L, table);
    if (r == 0) {
        c->path = ca_xstrdup(shown);
        c->abs_path = realpath(path, NULL);
        if (!c->abs_path) c->abs_path = ca_xstrdup(path);
    } else {
        *err = L.err;
        ca_config_free(c);
    }
    free(L.cfgdir);
    free(L.cwd);
    ca_toml_doc_free(&doc);
    return r;
}

int ca_config_load(const char *path, ca_config *c, char **err)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        *err = ca_xasprintf("%s: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        *err = ca_xasprintf("%s: not a regular file", path);
        return -1;
    }
    return load_file(path, path, 1, c, err) < 0 ? -1 : 0;
}

/* A discovered file's name for messages: relative when under the cwd. */
static char *shown_path(const char *abs, const char *cwd)
{
    const char *rel = cwd ? under(abs, cwd) : NULL;
    return ca_xstrdup(rel ? rel : abs);
}

int ca_config_discover(const char *start, ca_config *c, char **err)
{
    char cwdbuf[PATH_MAX];
    char *cwd = getcwd(cwdbuf, sizeof(cwdbuf)) ? realpath(cwdbuf, NULL) : NULL;
    char *dir = start ? realpath(start, NULL) : NULL;
    struct stat st;
    if (dir && stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        char *slash = strrchr(dir, '/');
        if (slash == dir) slash[1] = 0;
        else if (slash) *slash = 0;
    }
    if (!dir) dir = cwd ? ca_xstrdup(cwd) : NULL;
    int r = 0;
    for (int guard = 0; dir && guard < 4096; guard++) {
        static const char *const names[] = {"cancelaudit.toml", "pyproject.toml"};
        for (int k = 0; k < 2; k++) {
            char *p = ca_xasprintf("%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", names[k]);
            if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
                char *shown = shown_path(p, cwd);
                r = load_file(p, shown, 0, c, err);
                free(shown);
            } else {
                r = 1;
            }
            free(p);
            if (r <= 0) goto out;
        }
        char *git = ca_xasprintf("%s/.git", strcmp(dir, "/") == 0 ? "" : dir);
        int at_repo_root = lstat(git, &st) == 0;
        free(git);
        if (at_repo_root || strcmp(dir, "/") == 0) break;
        char *slash = strrchr(dir, '/');
        if (!slash) break;
        if (slash == dir) slash[1] = 0;
        else *slash = 0;
    }
    r = 0;
out:
    free(dir);
    free(cwd);
    return r < 0 ? -1 : 0;
}

/* fnmatch against the whole path, then each of its components. */
static int glob_hits(const char *glob, const char *path)
{
    if (fnmatch(glob, path, 0) == 0) return 1;
    if (path[0] == '/') return 0;
    for (const char *s = path; *s;) {
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n) {
            char *part = ca_xstrndup(s, n);
            int hit = fnmatch(glob, part, 0) == 0;
            free(part);
            if (hit) return 1;
        }
        if (!e) break;
        s = e + 1;
    }
    return 0;
}

int ca_config_file_ignored(const ca_config *c, const char *path, const char *rule)
{
    if (!c || !path || !rule) return 0;
    while (path[0] == '.' && path[1] == '/') path += 2;
    for (size_t i = 0; i < c->nfile_ignores; i++) {
        const ca_file_ignore *fi = &c->file_ignores[i];
        /* a selection that names the rule: the same id-or-prefix test as --select */
        if (ca_rule_selected(rule, fi->rules, NULL, 1) && glob_hits(fi->glob, path)) return 1;
    }
    return 0;
}

/* 1 when path is a configuration discovery would load: a cancelaudit.toml,
 * or a pyproject.toml with a [tool.cancelaudit] table (one that does not
 * parse counts: discovery stops there too, with its error). */
static int is_our_config(const char *path, int pyproject)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
    if (!pyproject) return 1;
    char *buf = NULL;
    size_t len = 0;
    if (ca_read_file(path, &buf, &len) != 0) return 1;
    ca_toml_doc doc;
    char *err = NULL;
    int pr = ca_toml_parse(buf, len, path, &doc, &err);
    free(buf);
    free(err);
    if (pr != 0) return 1;
    const ca_toml_entry *tool = ca_toml_find(doc.root, "tool");
    int ours = tool && tool->value->type == CA_TOML_TABLE && ca_toml_find(tool->value, "cancelaudit");
    ca_toml_doc_free(&doc);
    return ours;
}

char *ca_config_project_root(const char *start, const char **why)
{
    char cwdbuf[PATH_MAX];
    char *dir = start ? realpath(start, NULL) : NULL;
    struct stat st;
    if (dir && stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        char *slash = strrchr(dir, '/');
        if (slash == dir) slash[1] = 0;
        else if (slash) *slash = 0;
    }
    if (!dir) dir = getcwd(cwdbuf, sizeof(cwdbuf)) ? realpath(cwdbuf, NULL) : NULL;
    for (int guard = 0; dir && guard < 4096; guard++) {
        const char *sep = strcmp(dir, "/") == 0 ? "" : "/";
        static const char *const names[] = {"cancelaudit.toml", "pyproject.toml", ".git"};
        static const char *const whys[] = {"cancelaudit.toml", "pyproject.toml with [tool.cancelaudit]", ".git"};
        for (int k = 0; k < 3; k++) {
            char *p = ca_xasprintf("%s%s%s", dir, sep, names[k]);
            int hit = k == 2 ? lstat(p, &st) == 0 : is_our_config(p, k == 1);
            free(p);
            if (hit) {
                if (why) *why = whys[k];
                return dir;
            }
        }
        if (strcmp(dir, "/") == 0) break;
        char *slash = strrchr(dir, '/');
        if (!slash) break;
        if (slash == dir) slash[1] = 0;
        else *slash = 0;
    }
    free(dir);
    if (why) *why = NULL;
    return NULL;
}

ca_catalog *ca_config_catalog(const ca_config *c, const ca_catalog *base)
{
    if (!c || !c->nextras || !base) return NULL;
    ca_catalog *cat = ca_catalog_clone(base);
    for (size_t i = 0; i < c->nextras; i++)
        ca_catalog_add(cat, c->extras[i].category, c->extras[i].pattern, c->extras[i].kind);
    return cat;
}
