/*
 * catalog.c — loading and querying the catalogs (catalog.h).
 *
 * The folder: catalog/ holds the library knowledge the frontends and the
 * rules ask about (which calls acquire, release, register, shield, time
 * out, which exceptions mean cancellation): the .cat files under rules/catalog/,
 * embedded at build time, plus configuration extras. It sits beside the
 * pipeline, read-only once loaded, shared by every worker.
 */
#include "catalog/catalog.h"
#include "util/embed.h"
#include "util/util.h"

#include <ctype.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* What a pattern's literal ends demand of a string, so that most strings
 * are turned away without fnmatch (lowering asks millions of times). */
typedef struct cat_quick {
    size_t prefix;  /* bytes before the first special character (* ? [ \\) */
    size_t suffix;  /* bytes after the last '*' (no '?' among them, no [ or \\ anywhere), else 0 */
    size_t len;     /* of the whole pattern */
    int literal;    /* no special character at all: fnmatch is strcmp */
} cat_quick;

struct ca_catalog {
    CA_VEC(ca_cat_entry) cat[CAT__COUNT];
    CA_VEC(cat_quick) quick[CAT__COUNT]; /* parallel to cat */
};

static cat_quick quick_of(const char *pat)
{
    cat_quick q;
    q.prefix = strcspn(pat, "*?[\\");
    q.literal = pat[q.prefix] == 0;
    q.suffix = 0;
    q.len = strlen(pat);
    const char *star = strrchr(pat, '*');
    /* brackets and escapes can hide a '*' or make the tail less than literal */
    if (!q.literal && star && !strpbrk(pat, "[\\") && !strchr(star + 1, '?')) q.suffix = strlen(star + 1);
    return q;
}

static const char *const cat_names[CAT__COUNT] = {
    "acquire", "acquire-prefix", "release-method", "release-word", "release-func",
    "register-method", "register-word", "take-method", "read-method", "clear-method",
    "cancel-exc", "catchall-exc", "shield-call", "shield-scope", "timeout-call",
    "timeout-scope", "pass-cancel", "settle-call", "nonsuspending-cm", "group-ctor",
    "group-spawn", "exit-stack", "exit-stack-adopt", "exit-stack-commit",
    "remote-prefix", "remote-create", "not-remote", "local-receiver", "executor", "call-suffix",
    "done-test", "finished-attr", "wait-done", "consumes", "nonsuspending-await",
    "nonsuspending-enter", "generator-step", "plain-call", "plain-type", "data-base",
    "data-decorator", "protocol-base", "abstract-base", "setup-method", "store-call",
    "not-cancel-exc", "cancelling-test", "suppress-cm", "exc-sink", "task-entry", "keeps-task", "lock-fastpath", "nonraising-call", "fresh-send", "identity-attr", "exit-wait", "slot-acquire", "interrupt-exc", "report-call", "child-tasks", "request-receiver", "task-sweep", "main-runner", "view-call", "wrapping-decorator", "deferred-call", "spawn-keyword", "cancel-helper", "element-call", "noreturn-call", "scope-own-test", "nonempty-get", "lookup-verb", "closing-flag", "cancel-only-await", "scope-runner", "route-entry", "endpoint-base", "endpoint-method", "current-task", "root-runner", "message-verb", "cast-call", "status-verb", "live-test", "cancel-closes", "hook-setup", "site-start", "child-maker", "verb-qualifier", "root-context", "keyed-release", "unheld-server", "service-base", "service-method", "test-function", "test-class", "test-base", "test-method", "event-handler", "event-subcommand", "event-base", "event-method", "callback-registrar",
    "c-acquire", "c-lock", "c-lock-paired", "c-release", "c-cancel-point", "c-register",
    "c-cleanup-push", "c-cleanup-pop", "c-cancel-state", "c-cancel-type", "c-cancel-disable",
    "c-cancel-async", "c-async-cancel-safe", "c-thread-cancel", "c-noreturn",
};

int ca_catalog_category(const char *name)
{
    for (int i = 0; i < CAT__COUNT; i++)
        if (strcmp(cat_names[i], name) == 0) return i;
    return -1;
}

static void push_entry(ca_catalog *c, int k, const char *pat, const char *kind, const char *arg, int tuple)
{
    ca_cat_entry e = {ca_xstrdup(pat), kind ? ca_xstrdup(kind) : NULL, arg ? ca_xstrdup(arg) : NULL, tuple};
    CA_VEC_PUSH(c->cat[k], e);
    cat_quick q = quick_of(pat);
    CA_VEC_PUSH(c->quick[k], q);
}

int ca_catalog_add(ca_catalog *c, const char *category, const char *pattern, const char *kind)
{
    int k = ca_catalog_category(category);
    if (k < 0) return -1;
    push_entry(c, k, pattern, kind, NULL, -1);
    return 0;
}

int ca_catalog_parse(ca_catalog *c, const char *text, const char *origin, char **err)
{
    int lineno = 0;
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        lineno++;
        char *line = ca_xstrndup(p, n);
        p += n + (eol ? 1 : 0);
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *words[8];
        int nw = 0;
        for (char *tok = strtok(line, " \t\r"); tok && nw < 8; tok = strtok(NULL, " \t\r"))
            words[nw++] = tok;
        if (nw == 0) { free(line); continue; }
        int k = ca_catalog_category(words[0]);
        if (k < 0 || nw < 2) {
            *err = ca_xasprintf("%s:%d: %s", origin, lineno,
                                k < 0 ? "unknown catalog category" : "missing pattern");
            free(line);
            return -1;
        }
        const char *kind = NULL, *arg = NULL;
        int tuple = -1;
        for (int i = 2; i < nw; i++) {
            if (strncmp(words[i], "kind=", 5) == 0) kind = words[i] + 5;
            else if (strncmp(words[i], "arg=", 4) == 0) arg = words[i] + 4;
            else if (strncmp(words[i], "tuple=", 6) == 0) tuple = atoi(words[i] + 6);
            else {
                *err = ca_xasprintf("%s:%d: unknown option '%s'", origin, lineno, words[i]);
                free(line);
                return -1;
            }
        }
        push_entry(c, k, words[1], kind, arg, tuple);
        free(line);
    }
    return 0;
}

static ca_catalog *builtin;
static char *builtin_err;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void load_builtin(void)
{
    ca_catalog *c = ca_xcalloc(1, sizeof(*c));
    for (size_t i = 0; i < ca_embedded_count; i++) {
        const ca_embedded *e = &ca_embedded_files[i];
        size_t nl = strlen(e->name);
        if (strncmp(e->name, "rules/catalog/", 14) != 0 || nl < 4 || strcmp(e->name + nl - 4, ".cat") != 0)
            continue;
        if (ca_catalog_parse(c, e->data, e->name, &builtin_err) != 0) {
            ca_catalog_free(c);
            return;
        }
    }
    builtin = c;
}

ca_catalog *ca_catalog_builtin(char **err)
{
    pthread_once(&builtin_once, load_builtin);
    if (!builtin && err) *err = ca_xstrdup(builtin_err ? builtin_err : "catalog failed to load");
    return builtin;
}

ca_catalog *ca_catalog_clone(const ca_catalog *c)
{
    ca_catalog *d = ca_xcalloc(1, sizeof(*d));
    for (int k = 0; k < CAT__COUNT; k++)
        for (size_t i = 0; i < c->cat[k].n; i++) {
            const ca_cat_entry *e = &c->cat[k].v[i];
            push_entry(d, k, e->pattern, e->kind, e->arg, e->tuple_index);
        }
    return d;
}

void ca_catalog_free(ca_catalog *c)
{
    if (!c) return;
    for (int k = 0; k < CAT__COUNT; k++) {
        for (size_t i = 0; i < c->cat[k].n; i++) {
            free(c->cat[k].v[i].pattern);
            free(c->cat[k].v[i].kind);
            free(c->cat[k].v[i].arg);
        }
        CA_VEC_FREE(c->cat[k]);
        CA_VEC_FREE(c->quick[k]);
    }
    free(c);
}

const ca_cat_entry *ca_catalog_match(const ca_catalog *c, ca_cat_kind k, const char *s)
{
    if (!s || !*s) return NULL;
    size_t n = strlen(s);
    for (size_t i = 0; i < c->cat[k].n; i++) {
        const char *pat = c->cat[k].v[i].pattern;
        const cat_quick *q = &c->quick[k].v[i];
        /* the literal head and tail must be there for fnmatch to match */
        if (q->prefix > n || memcmp(pat, s, q->prefix) != 0) continue;
        if (q->literal) {
            if (n == q->prefix) return &c->cat[k].v[i];
            continue;
        }
        if (q->suffix && (q->suffix > n - q->prefix || memcmp(pat + q->len - q->suffix, s + n - q->suffix, q->suffix) != 0))
            continue;
        if (fnmatch(pat, s, 0) != 0) continue;
        /* name prefixes end where a word does: `open*` is open_stream or
         * openStream, not openai_inputs */
        if ((k == CAT_ACQUIRE_PREFIX || k == CAT_REMOTE_PREFIX) && !q->literal && q->prefix < n) {
            unsigned char next = (unsigned char)s[q->prefix];
            if (next != '_' && !isupper(next) && !isdigit(next)) continue;
        }
        return &c->cat[k].v[i];
    }
    return NULL;
}

/* s as lower-case words between underscores, with '_' at both ends:
 * "closeSession" -> "_close_session_", "_TaskCancelled" -> "_task_cancelled_".
 * A capital after a lower-case letter or digit starts a word. */
static void words_of(const char *s, char *out, size_t cap)
{
    size_t o = 0;
    out[o++] = '_';
    for (size_t i = 0; s[i] && o + 3 < cap; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (isupper(ch) && i > 0 && (islower((unsigned char)s[i - 1]) || isdigit((unsigned char)s[i - 1])) &&
            out[o - 1] != '_')
            out[o++] = '_';
        /* (the last capital of a run starts the next word: `HTTPServer`,
         * `hRCloseServiceHandle`) */
        else if (isupper(ch) && i > 0 && isupper((unsigned char)s[i - 1]) && islower((unsigned char)s[i + 1]) &&
                 out[o - 1] != '_')
            out[o++] = '_';
        if (ch == '_') {
            if (out[o - 1] != '_') out[o++] = '_';
            continue;
        }
        out[o++] = (char)tolower(ch);
    }
    if (out[o - 1] != '_') out[o++] = '_';
    out[o] = 0;
}

/* Is pat (words joined by '_') whole words of w, a words_of() result:
 * "clean_up" in "_clean_up_all_", not "close" in "_enclose_"? */
static int has_words(const char *w, const char *pat)
{
    size_t pl = strlen(pat);
    for (const char *h = strstr(w, pat); h; h = strstr(h + 1, pat))
        if (h > w && h[-1] == '_' && h[pl] == '_') return 1;
    return 0;
}

int ca_name_has_word(const char *s, const char *word)
{
    if (!s || !word || !*word) return 0;
    char w[300];
    words_of(s, w, sizeof(w));
    return has_words(w, word);
}

/* `create_tools_from_connectors`, `create_messages`: is the noun a create
 * names (its last word before a preposition, after the verb) plural? */
int ca_name_class_method(const char *d)
{
    const char *dot = d ? strrchr(d, '.') : NULL;
    if (!dot || dot == d) return 0;
    const char *c = dot;
    while (c > d && c[-1] != '.') c--;
    if (!isupper((unsigned char)*c)) return 0;
    /* (a name, not a call: `Path(p).open` opens what the call made) */
    int lower = 0;
    for (const char *q = c; q < dot; q++) {
        if (!isalnum((unsigned char)*q) && *q != '_') return 0;
        lower |= islower((unsigned char)*q) != 0;
    }
    return lower;
}

int ca_name_plural_create(const char *name)
{
    static const char *const preps[] = {"from", "for", "in", "of", "with", "by", "on", "to", "at", "into", "per"};
    while (*name == '_') name++;
    const char *w = strchr(name, '_'); /* (past the verb) */
    if (!w) return 0;
    const char *head = NULL;
    size_t hl = 0;
    for (w++; *w;) {
        size_t l = strcspn(w, "_");
        int prep = 0;
        for (size_t i = 0; i < sizeof(preps) / sizeof(preps[0]); i++)
            prep |= strlen(preps[i]) == l && strncmp(w, preps[i], l) == 0;
        if (prep) break;
        if (l) head = w, hl = l;
        w += l;
        while (*w == '_') w++;
    }
    if (!head || hl < 4 || head[hl - 1] != 's') return 0;
    char a = head[hl - 2];
    return a != 's' && a != 'u' && a != 'i';
}

int ca_catalog_contains_word(const ca_catalog *c, ca_cat_kind k, const char *s)
{
    if (!s) return 0;
    char w[300];
    words_of(s, w, sizeof(w));
    for (size_t i = 0; i < c->cat[k].n; i++)
        if (*c->cat[k].v[i].pattern && has_words(w, c->cat[k].v[i].pattern)) return 1;
    return 0;
}

const ca_cat_entry *ca_catalog_entries(const ca_catalog *c, ca_cat_kind k, size_t *n)
{
    *n = c->cat[k].n;
    return c->cat[k].v;
}

unsigned long long ca_catalog_digest(const ca_catalog *c)
{
    uint64_t h = CA_HASH_SEED;
    for (int k = 0; k < CAT__COUNT; k++)
        for (size_t i = 0; i < c->cat[k].n; i++) {
            const ca_cat_entry *e = &c->cat[k].v[i];
            h = ca_hash64(&k, sizeof(k), h);
            h = ca_hash64(e->pattern, strlen(e->pattern) + 1, h);
            if (e->kind) h = ca_hash64(e->kind, strlen(e->kind) + 1, h);
            if (e->arg) h = ca_hash64(e->arg, strlen(e->arg) + 1, h);
            h = ca_hash64(&e->tuple_index, sizeof(int), h);
        }
    return h;
}
