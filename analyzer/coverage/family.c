/*
 * family.c — backend families (family.h): declared families from the class
 * graph, duck-typed siblings, the roles of members, backend names, and
 * which method each backend runs for each boundary.
 *
 * Method lookup follows the bases depth first, left to right (Python's MRO
 * for single inheritance, and close to it for the mixins real code uses);
 * the walk marks the classes it visited, so a cycle of names cannot make
 * it loop. Protocol bodies are declarations, never implementations: their
 * methods are skipped by lookups.
 *
 * Cost: a few passes over classes × declared methods; the structural
 * check of a protocol is classes × its methods lookups.
 */
#include "coverage/family.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

const char *ca_fam_kind_name(ca_fam_kind k)
{
    switch (k) {
    case CA_FAM_SUBCLASS: return "subclasses";
    case CA_FAM_PROTOCOL: return "protocol";
    default: return "duck-typed";
    }
}

const char *ca_fam_role_name(ca_fam_role r)
{
    switch (r) {
    case CA_ROLE_BACKEND: return "backend";
    case CA_ROLE_ABSTRACT: return "abstract";
    case CA_ROLE_PROXY: return "proxy";
    default: return "private";
    }
}

static int is_public(const char *n) { return n && n[0] != '_'; }

/* ---- the graph ---------------------------------------------------------- */

typedef struct graph {
    const ca_fam_class *c;
    size_t nc;
    const ca_fam_method *m;
    size_t nm;
    size_t *by_cls;          /* method indices by (class, name, index) */
    size_t *first;           /* [class]: start of its run in by_cls; first[nc] = nm */
    int *kids;               /* subclasses, CSR: kids[kid_at[c] .. kid_at[c + 1]) */
    size_t *kid_at;
    unsigned *seen;          /* walk marks: seen[c] == stamp */
    unsigned stamp;
    int *stack;
    signed char *lib;        /* [class]: a library base somewhere up its bases (-1 not known yet) */
    int *depth;              /* [class]: the longest chain of bases above it in the tree */
} graph;

static const graph *sort_g; /* qsort has no context argument; the build runs on one thread */

static int cmp_by_cls(const void *a, const void *b)
{
    const ca_fam_method *x = &sort_g->m[*(const size_t *)a], *y = &sort_g->m[*(const size_t *)b];
    if (x->cls != y->cls) return x->cls < y->cls ? -1 : 1;
    int c = strcmp(x->name, y->name);
    if (c) return c;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    return i < j ? -1 : i > j;
}

static void graph_init(graph *g, const ca_fam_class *c, size_t nc, const ca_fam_method *m, size_t nm)
{
    memset(g, 0, sizeof(*g));
    g->c = c;
    g->nc = nc;
    g->m = m;
    g->nm = nm;
    g->by_cls = ca_xmalloc(sizeof(size_t) * (nm + 1));
    size_t k = 0;
    for (size_t i = 0; i < nm; i++)
        if (m[i].cls >= 0 && (size_t)m[i].cls < nc && m[i].name) g->by_cls[k++] = i;
    g->nm = k;
    sort_g = g;
    qsort(g->by_cls, k, sizeof(size_t), cmp_by_cls);
    g->first = ca_xcalloc(nc + 1, sizeof(size_t));
    for (size_t i = 0, at = 0; i <= nc; i++) {
        while (at < k && (size_t)m[g->by_cls[at]].cls < i) at++;
        g->first[i] = at;
    }
    size_t *deg = ca_xcalloc(nc + 1, sizeof(size_t));
    for (size_t i = 0; i < nc; i++)
        for (int b = 0; b < c[i].nbases; b++)
            if (c[i].bases[b] >= 0 && (size_t)c[i].bases[b] < nc && (size_t)c[i].bases[b] != i) deg[c[i].bases[b]]++;
    g->kid_at = ca_xcalloc(nc + 2, sizeof(size_t));
    for (size_t i = 0; i < nc; i++) g->kid_at[i + 1] = g->kid_at[i] + deg[i];
    g->kids = ca_xmalloc(sizeof(int) * (g->kid_at[nc] + 1));
    memset(deg, 0, sizeof(size_t) * (nc + 1));
    for (size_t i = 0; i < nc; i++)
        for (int b = 0; b < c[i].nbases; b++) {
            int p = c[i].bases[b];
            if (p >= 0 && (size_t)p < nc && (size_t)p != i) g->kids[g->kid_at[p] + deg[p]++] = (int)i;
        }
    free(deg);
    g->seen = ca_xcalloc(nc + 1, sizeof(unsigned));
    size_t ne = 0;
    for (size_t i = 0; i < nc; i++) ne += (size_t)(c[i].nbases > 0 ? c[i].nbases : 0);
    g->stack = ca_xmalloc(sizeof(int) * (nc + ne + g->kid_at[nc] + 1));
    g->lib = ca_xmalloc(nc + 1);
    memset(g->lib, -1, nc + 1);
    /* depths settle in as many rounds as the longest chain; a cycle of
     * names stops at the bound */
    g->depth = ca_xcalloc(nc + 1, sizeof(int));
    int changed = 1;
    for (int round = 0; changed && round < 64; round++) {
        changed = 0;
        for (size_t i = 0; i < nc; i++)
            for (int b = 0; b < c[i].nbases; b++) {
                int p = c[i].bases[b];
                if (p < 0 || (size_t)p >= nc || (size_t)p == i || g->depth[p] + 1 <= g->depth[i]) continue;
                g->depth[i] = g->depth[p] + 1;
                changed = 1;
            }
    }
}

static void graph_free(graph *g)
{
    free(g->by_cls);
    free(g->first);
    free(g->kids);
    free(g->kid_at);
    free(g->seen);
    free(g->stack);
    free(g->lib);
    free(g->depth);
}

static void new_walk(graph *g)
{
    if (++g->stamp == 0) {
        memset(g->seen, 0, sizeof(unsigned) * (g->nc + 1));
        g->stamp = 1;
    }
}

/* The method `name` defined in class c's own body (the last definition, as
 * Python keeps), or -1. */
static int own_method(const graph *g, int c, const char *name)
{
    size_t lo = g->first[c], hi = g->first[c + 1];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(g->m[g->by_cls[mid]].name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    int hit = -1;
    for (; lo < g->first[c + 1] && strcmp(g->m[g->by_cls[lo]].name, name) == 0; lo++) hit = (int)g->by_cls[lo];
    return hit;
}

/* The method a call of `name` on an instance of c runs: c's own, else its
 * bases' depth first, left to right; protocols declare, never implement.
 * *owner gets the class that defines it. -1 when no class of the tree does. */
static int find_impl(graph *g, int c, const char *name, int *owner)
{
    new_walk(g);
    size_t sp = 0;
    g->stack[sp++] = c;
    g->seen[c] = g->stamp;
    while (sp) {
        int x = g->stack[--sp];
        if (!(g->c[x].flags & CLASS_PROTOCOL)) {
            int m = own_method(g, x, name);
            if (m >= 0) {
                if (owner) *owner = x;
                return m;
            }
        }
        /* push in reverse, so the first base is searched first */
        for (int b = g->c[x].nbases - 1; b >= 0; b--) {
            int p = g->c[x].bases[b];
            if (p < 0 || (size_t)p >= g->nc || g->seen[p] == g->stamp) continue;
            g->seen[p] = g->stamp;
            g->stack[sp++] = p;
        }
    }
    return -1;
}

/* Whether a library base sits anywhere above c (memoised). */
static int has_library_base(graph *g, int c)
{
    if (g->lib[c] >= 0) return g->lib[c];
    new_walk(g);
    size_t sp = 0;
    int found = 0;
    g->stack[sp++] = c;
    g->seen[c] = g->stamp;
    while (sp && !found) {
        int x = g->stack[--sp];
        if (g->c[x].library_base || g->lib[x] == 1) found = 1;
        for (int b = 0; b < g->c[x].nbases && !found; b++) {
            int p = g->c[x].bases[b];
            if (p < 0 || (size_t)p >= g->nc || g->seen[p] == g->stamp) continue;
            g->seen[p] = g->stamp;
            g->stack[sp++] = p;
        }
    }
    g->lib[c] = (signed char)found;
    return found;
}

/* Abstract: a Protocol or ABC itself, an @abstractmethod of its own, or an
 * abstract method of its bases that it leaves unimplemented (unless a
 * library base could implement it). */
static int is_abstract(graph *g, int c)
{
    if (g->c[c].flags & (CLASS_PROTOCOL | CLASS_ABSTRACT)) return 1;
    for (size_t k = g->first[c]; k < g->first[c + 1]; k++)
        if (g->m[g->by_cls[k]].fflags & FN_ABSTRACT) return 1;
    if (has_library_base(g, c)) return 0;
    /* the abstract methods up the bases; the walk's marks are reused by
     * find_impl, so collect the classes first */
    CA_VEC(int) up = {0};
    new_walk(g);
    size_t sp = 0;
    g->stack[sp++] = c;
    g->seen[c] = g->stamp;
    while (sp) {
        int x = g->stack[--sp];
        if (x != c) CA_VEC_PUSH(up, x);
        for (int b = 0; b < g->c[x].nbases; b++) {
            int p = g->c[x].bases[b];
            if (p < 0 || (size_t)p >= g->nc || g->seen[p] == g->stamp) continue;
            g->seen[p] = g->stamp;
            g->stack[sp++] = p;
        }
    }
    int abstract = 0;
    for (size_t i = 0; i < up.n && !abstract; i++)
        for (size_t k = g->first[up.v[i]]; k < g->first[up.v[i] + 1] && !abstract; k++) {
            const ca_fam_method *am = &g->m[g->by_cls[k]];
            if (!(am->fflags & FN_ABSTRACT)) continue;
            int impl = find_impl(g, c, am->name, NULL);
            abstract = impl < 0 || (g->m[impl].fflags & FN_ABSTRACT);
        }
    CA_VEC_FREE(up);
    return abstract;
}

/* ---- names -------------------------------------------------------------- */

size_t ca_family_words(const char *s, size_t *start, size_t *len, size_t max)
{
    size_t n = 0, i = 0, L = strlen(s);
    while (i < L) {
        while (i < L && s[i] == '_') i++;
        if (i >= L) break;
        size_t b = i++;
        while (i < L && s[i] != '_') {
            unsigned char p = (unsigned char)s[i - 1], c = (unsigned char)s[i];
            unsigned char nx = i + 1 < L ? (unsigned char)s[i + 1] : 0;
            /* a capital after a small letter starts a word; so do the last
             * capital of a run and a capital after a digit when a small
             * letter follows (HTTPServer, R2Mount; but E2BSandbox) */
            if (isupper(c) && (islower(p) || ((isupper(p) || isdigit(p)) && islower(nx)))) break;
            i++;
        }
        if (n < max) {
            start[n] = b;
            len[n] = i - b;
        }
        n++;
    }
    return n;
}

#define MAX_WORDS 32

typedef struct words {
    const char *s;
    size_t start[MAX_WORDS], len[MAX_WORDS];
    size_t n;
} words;

static void words_of(words *w, const char *s)
{
    w->s = s;
    w->n = ca_family_words(s, w->start, w->len, MAX_WORDS);
    if (w->n > MAX_WORDS) w->n = MAX_WORDS;
}

static int word_eq(const words *a, size_t i, const words *b, size_t j)
{
    return a->len[i] == b->len[j] && memcmp(a->s + a->start[i], b->s + b->start[j], a->len[i]) == 0;
}

/* A two-letter acronym (AI, DB, SQ of SQLite): too short to stand as a
 * word of its own in a name. */
static int short_acronym(const words *w, size_t i)
{
    const char *s = w->s + w->start[i];
    return w->len[i] == 2 && isupper((unsigned char)s[0]) && isupper((unsigned char)s[1]);
}

/* Words [from, to) of w in snake case; NULL when there are none. A
 * two-letter acronym that ends the name joins the word before it (OpenAI →
 * openai, MongoDB → mongodb), one that starts it the word after it (SQLite
 * → sqlite); in the middle it cannot be told which it belongs to
 * (AdvancedSQLite, OpenAIChat) and stays a word. */
static char *snake(const words *w, size_t from, size_t to)
{
    if (from >= to) return NULL;
    ca_sb sb = {0};
    for (size_t i = from; i < to; i++) {
        int glued = i > from && ((i + 1 == to && short_acronym(w, i)) || (i - 1 == from && short_acronym(w, i - 1)));
        if (i > from && !glued) ca_sb_addc(&sb, '_');
        for (size_t k = 0; k < w->len[i]; k++) ca_sb_addc(&sb, (char)tolower((unsigned char)w->s[w->start[i] + k]));
    }
    return ca_sb_detach(&sb);
}

/* ---- building families -------------------------------------------------- */

typedef CA_VEC(int) int_vec;
typedef CA_VEC(char *) str_vec;

static int cmp_cstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Add name to a sorted, unique list (a copy). */
static void add_name(str_vec *v, const char *name)
{
    size_t lo = 0, hi = v->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(v->v[mid], name);
        if (c == 0) return;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    CA_VEC_PUSH(*v, NULL);
    memmove(v->v + lo + 1, v->v + lo, sizeof(char *) * (v->n - 1 - lo));
    v->v[lo] = ca_xstrdup(name);
}

/* A family while it is being built. */
typedef struct draft {
    ca_fam_kind kind;
    int base;
    const char *word;        /* duck-typed: the shared last word */
    int_vec cand;            /* member classes */
    unsigned char *role;     /* per candidate */
    str_vec bounds;
    int dropped;
} draft;

typedef CA_VEC(draft) draft_vec;

static void draft_free(draft *d)
{
    CA_VEC_FREE(d->cand);
    free(d->role);
    for (size_t i = 0; i < d->bounds.n; i++) free(d->bounds.v[i]);
    CA_VEC_FREE(d->bounds);
}

static size_t draft_backends(const draft *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->cand.n; i++) n += d->role[i] == CA_ROLE_BACKEND;
    return n;
}

/* Does a candidate of this role count when wanted (-1: any that is not
 * abstract or private)? */
static int role_counts(unsigned char role, int wanted)
{
    return wanted >= 0 ? role == wanted : role != CA_ROLE_ABSTRACT && role != CA_ROLE_PRIVATE;
}

/* Public async methods defined in the candidates' own bodies by two or
 * more of the given role (role_counts). */
static void add_shared_bounds(graph *g, draft *d, int role_wanted)
{
    str_vec names = {0};
    for (size_t i = 0; i < d->cand.n; i++) {
        if (!role_counts(d->role[i], role_wanted)) continue;
        int c = d->cand.v[i];
        for (size_t k = g->first[c]; k < g->first[c + 1]; k++) {
            const ca_fam_method *m = &g->m[g->by_cls[k]];
            if (m->is_async && is_public(m->name)) CA_VEC_PUSH(names, (char *)m->name);
        }
    }
    if (names.n) qsort(names.v, names.n, sizeof(char *), cmp_cstr);
    for (size_t i = 0; i < names.n;) {
        size_t j = i;
        while (j < names.n && strcmp(names.v[j], names.v[i]) == 0) j++;
        /* each class lists a name once (own_method keeps one per name), but a
         * body may define it twice: count classes, not definitions */
        size_t classes = 0;
        for (size_t i2 = 0; i2 < d->cand.n; i2++) {
            if (!role_counts(d->role[i2], role_wanted)) continue;
            int m = own_method(g, d->cand.v[i2], names.v[i]);
            classes += m >= 0 && g->m[m].is_async;
        }
        if (classes >= 2) add_name(&d->bounds, names.v[i]);
        i = j;
    }
    CA_VEC_FREE(names);
}

/* Roles that do not depend on the boundaries. */
static void first_roles(graph *g, draft *d)
{
    d->role = ca_xcalloc(d->cand.n + 1, 1);
    for (size_t i = 0; i < d->cand.n; i++) {
        int c = d->cand.v[i];
        if (is_abstract(g, c)) d->role[i] = CA_ROLE_ABSTRACT;
        else if (!is_public(g->c[c].name)) d->role[i] = CA_ROLE_PRIVATE;
        else d->role[i] = CA_ROLE_BACKEND;
    }
}

/* A proxy: of the boundaries it runs code of its own for (defined in it or
 * a class between it and the base), more than half, and two at least, only
 * await a wrapped object's method of the same name (a tracing wrapper). A
 * provider that wraps a generic helper for a method or two and does work
 * of its own in the others stays a backend. */
static void proxy_roles(graph *g, draft *d)
{
    size_t nb = d->bounds.n;
    if (!nb) return;
    for (size_t i = 0; i < d->cand.n; i++) {
        if (d->role[i] != CA_ROLE_BACKEND) continue;
        size_t delegating = 0, own = 0;
        for (size_t k = 0; k < nb; k++) {
            int owner = -1;
            int m = find_impl(g, d->cand.v[i], d->bounds.v[k], &owner);
            if (m < 0 || owner == d->base) continue;
            own++;
            if (g->m[m].fflags & FN_DELEGATES) delegating++;
        }
        if (delegating >= 2 && delegating * 2 > own) d->role[i] = CA_ROLE_PROXY;
    }
}

/* The declared family of base b, or 0 when b has none. */
static int declared(graph *g, int b, draft *d)
{
    memset(d, 0, sizeof(*d));
    const ca_fam_class *bc = &g->c[b];
    d->base = b;
    d->kind = (bc->flags & CLASS_PROTOCOL) ? CA_FAM_PROTOCOL : CA_FAM_SUBCLASS;
    /* subclasses at any depth */
    new_walk(g);
    size_t sp = 0;
    g->stack[sp++] = b;
    g->seen[b] = g->stamp;
    while (sp) {
        int x = g->stack[--sp];
        for (size_t k = g->kid_at[x]; k < g->kid_at[x + 1]; k++) {
            int y = g->kids[k];
            if (g->seen[y] == g->stamp) continue;
            g->seen[y] = g->stamp;
            g->stack[sp++] = y;
            CA_VEC_PUSH(d->cand, y);
        }
    }
    if (d->kind == CA_FAM_PROTOCOL) {
        /* and the classes that define all it declares */
        int_vec want = {0};
        for (size_t k = g->first[b]; k < g->first[b + 1]; k++)
            if (is_public(g->m[g->by_cls[k]].name)) CA_VEC_PUSH(want, (int)g->by_cls[k]);
        unsigned char *in = ca_xcalloc(g->nc + 1, 1);
        for (size_t i = 0; i < d->cand.n; i++) in[d->cand.v[i]] = 1;
        for (size_t c = 0; c < g->nc && want.n; c++) {
            if ((int)c == b || in[c]) continue;
            int all = 1;
            for (size_t k = 0; k < want.n && all; k++) all = find_impl(g, (int)c, g->m[want.v[k]].name, NULL) >= 0;
            if (all) CA_VEC_PUSH(d->cand, (int)c);
        }
        free(in);
        CA_VEC_FREE(want);
    }
    if (d->cand.n < 2) return 0;
    first_roles(g, d);
    /* the boundaries twice: a proxy is told by what it does for them, and
     * then is not among the members whose shared methods are boundaries */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k < d->bounds.n; k++) free(d->bounds.v[k]);
        d->bounds.n = 0;
        for (size_t k = g->first[b]; k < g->first[b + 1]; k++) {
            const ca_fam_method *m = &g->m[g->by_cls[k]];
            if (m->is_async && is_public(m->name)) add_name(&d->bounds, m->name);
        }
        add_shared_bounds(g, d, pass ? CA_ROLE_BACKEND : -1);
        if (!pass) proxy_roles(g, d);
    }
    return draft_backends(d) >= 2 && d->bounds.n > 0;
}

/* Are most of a's backend classes (more than half) among b's? Then a
 * describes b's backends (a capability protocol, an intermediate base) and
 * is folded into b; its few others are classes of another kind (the
 * library's own API class that happens to have the same method). */
static int backends_within(const draft *a, const draft *b)
{
    size_t n = 0, in = 0;
    for (size_t i = 0; i < a->cand.n; i++) {
        if (a->role[i] != CA_ROLE_BACKEND) continue;
        n++;
        int found = 0;
        for (size_t j = 0; j < b->cand.n && !found; j++)
            found = b->cand.v[j] == a->cand.v[i] && b->role[j] == CA_ROLE_BACKEND;
        in += found;
    }
    return 2 * in > n;
}

static const graph *order_g;

static const char *draft_name(const draft *d)
{
    return d->base >= 0 ? order_g->c[d->base].name : d->word;
}

/* Most backends first. Of two families with the same backends the one
 * kept is the first: subclasses before a protocol (inheritance is said in
 * the code, a matching protocol only inferred), a public base before a
 * private one, the root of a hierarchy before a class below it. */
static int cmp_draft(const void *pa, const void *pb)
{
    const draft *a = pa, *b = pb;
    size_t na = draft_backends(a), nb = draft_backends(b);
    if (na != nb) return na > nb ? -1 : 1;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->base >= 0 && b->base >= 0) {
        int xa = is_public(order_g->c[a->base].name), xb = is_public(order_g->c[b->base].name);
        if (xa != xb) return xa ? -1 : 1;
        int da = order_g->depth[a->base], db = order_g->depth[b->base];
        if (da != db) return da < db ? -1 : 1;
    }
    if (a->bounds.n != b->bounds.n) return a->bounds.n > b->bounds.n ? -1 : 1;
    int c = strcmp(draft_name(a), draft_name(b));
    if (c) return c;
    return a->base < b->base ? -1 : a->base > b->base;
}

/* Duck-typed siblings, grouped by the last word of their names. */
static void implicit(graph *g, draft_vec *out)
{
    typedef struct keyed {
        const char *word;
        size_t wlen;
        int cls;
    } keyed;
    CA_VEC(keyed) ks = {0};
    for (size_t c = 0; c < g->nc; c++) {
        const ca_fam_class *cl = &g->c[c];
        if (!is_public(cl->name) || (cl->flags & (CLASS_PROTOCOL | CLASS_ABSTRACT))) continue;
        int any = 0;
        for (size_t k = g->first[c]; k < g->first[c + 1] && !any; k++)
            any = g->m[g->by_cls[k]].is_async && is_public(g->m[g->by_cls[k]].name);
        if (!any) continue;
        words w;
        words_of(&w, cl->name);
        if (w.n < 2) continue;
        keyed k = {cl->name + w.start[w.n - 1], w.len[w.n - 1], (int)c};
        CA_VEC_PUSH(ks, k);
    }
    for (size_t i = 0; i < ks.n; i++) {
        if (ks.v[i].cls < 0) continue;
        draft d;
        memset(&d, 0, sizeof(d));
        d.kind = CA_FAM_IMPLICIT;
        d.base = -1;
        for (size_t j = i; j < ks.n; j++)
            if (ks.v[j].cls >= 0 && ks.v[j].wlen == ks.v[i].wlen &&
                memcmp(ks.v[j].word, ks.v[i].word, ks.v[i].wlen) == 0 && strlen(ks.v[j].word) == ks.v[j].wlen) {
                CA_VEC_PUSH(d.cand, ks.v[j].cls);
                if (j != i) ks.v[j].cls = -1;
            }
        ks.v[i].cls = -1;
        if (d.cand.n < 2) {
            draft_free(&d);
            continue;
        }
        first_roles(g, &d);
        add_shared_bounds(g, &d, CA_ROLE_BACKEND);
        /* members: those that define a boundary, from two files or more */
        int_vec keep = {0};
        for (size_t k = 0; k < d.cand.n; k++) {
            int c = d.cand.v[k], defines = 0;
            for (size_t b = 0; b < d.bounds.n && !defines; b++) defines = own_method(g, c, d.bounds.v[b]) >= 0;
            if (defines) CA_VEC_PUSH(keep, c);
        }
        int files = 0;
        for (size_t k = 1; k < keep.n && !files; k++)
            files = strcmp(g->c[keep.v[k]].path, g->c[keep.v[0]].path) != 0;
        CA_VEC_FREE(d.cand);
        d.cand = keep;
        free(d.role);
        d.role = NULL;
        if (!files || d.cand.n < 2) {
            draft_free(&d);
            continue;
        }
        first_roles(g, &d);
        proxy_roles(g, &d);
        if (draft_backends(&d) < 2) {
            draft_free(&d);
            continue;
        }
        /* the word, owned by the class name it points into */
        d.word = ks.v[i].word;
        CA_VEC_PUSH(*out, d);
    }
    CA_VEC_FREE(ks);
}

/* The names of the backends of d: the class names without the words every
 * backend shares at the start and the end, else the directory name. */
static char **backend_names(const graph *g, const draft *d, int configured)
{
    size_t nb = d->cand.n;
    char **names = ca_xcalloc(nb + 1, sizeof(char *));
    words *w = ca_xcalloc(nb + 1, sizeof(words));
    size_t pre = SIZE_MAX, suf = SIZE_MAX, first = SIZE_MAX;
    for (size_t i = 0; i < nb; i++) {
        if (d->role[i] != CA_ROLE_BACKEND) continue;
        words_of(&w[i], g->c[d->cand.v[i]].name);
        if (first == SIZE_MAX) {
            first = i;
            pre = suf = w[i].n;
            continue;
        }
        size_t p = 0;
        while (p < pre && p < w[i].n && word_eq(&w[i], p, &w[first], p)) p++;
        pre = p;
        size_t s = 0;
        while (s < suf && s < w[i].n && word_eq(&w[i], w[i].n - 1 - s, &w[first], w[first].n - 1 - s)) s++;
        suf = s;
    }
    for (size_t i = 0; i < nb; i++) {
        if (d->role[i] != CA_ROLE_BACKEND) continue;
        const ca_fam_class *c = &g->c[d->cand.v[i]];
        if (configured) {
            names[i] = c->config_name ? ca_xstrdup(c->config_name) : NULL;
            continue;
        }
        size_t to = w[i].n >= suf ? w[i].n - suf : 0;
        names[i] = snake(&w[i], pre, to);
    }
    /* empty, or the same as another's: the directory rule, then the class */
    for (int pass = 0; pass < 2 && !configured; pass++)
        for (size_t i = 0; i < nb; i++) {
            if (d->role[i] != CA_ROLE_BACKEND) continue;
            int clash = !names[i];
            for (size_t j = 0; j < nb && !clash; j++)
                clash = j != i && d->role[j] == CA_ROLE_BACKEND && names[j] && strcmp(names[i], names[j]) == 0;
            if (!clash) continue;
            for (size_t j = i + 1; j < nb; j++)
                if (d->role[j] == CA_ROLE_BACKEND && names[j] && names[i] && strcmp(names[i], names[j]) == 0) {
                    free(names[j]);
                    names[j] = NULL;
                }
            free(names[i]);
            const ca_fam_class *c = &g->c[d->cand.v[i]];
            names[i] = pass == 0 && c->dir_name && *c->dir_name ? ca_xstrdup(c->dir_name) : snake(&w[i], 0, w[i].n);
            if (!names[i]) names[i] = ca_xstrdup(c->name);
        }
    free(w);
    return names;
}

static const graph *mem_g;

static int cmp_member(const void *pa, const void *pb)
{
    const ca_fam_member *a = pa, *b = pb;
    int ab = a->role == CA_ROLE_BACKEND, bb = b->role == CA_ROLE_BACKEND;
    if (ab != bb) return ab ? -1 : 1;
    int c = ab ? strcmp(a->backend, b->backend) : strcmp(mem_g->c[a->cls].qualname, mem_g->c[b->cls].qualname);
    if (c) return c;
    return a->cls < b->cls ? -1 : a->cls > b->cls;
}

static void fam_free(ca_fam *f)
{
    free(f->name);
    for (size_t k = 0; k < f->nmembers; k++) free(f->members[k].backend);
    free(f->members);
    for (size_t k = 0; k < f->nboundaries; k++) free(f->boundaries[k]);
    free(f->boundaries);
    free(f->impl);
    free(f->inherited);
}

/* The finished family of d (d's vectors move into it). */
static void finish(graph *g, draft *d, int configured, ca_fam *f)
{
    memset(f, 0, sizeof(*f));
    f->kind = d->kind;
    f->base = d->base;
    char **names = backend_names(g, d, configured);
    f->members = ca_xcalloc(d->cand.n + 1, sizeof(ca_fam_member));
    for (size_t i = 0; i < d->cand.n; i++) {
        if (d->role[i] == CA_ROLE_BACKEND && !names[i]) continue; /* configuration maps it to nothing */
        ca_fam_member *m = &f->members[f->nmembers++];
        m->cls = d->cand.v[i];
        m->role = (ca_fam_role)d->role[i];
        m->backend = names[i];
        names[i] = NULL;
        if (m->role == CA_ROLE_BACKEND) f->nbackends++;
    }
    for (size_t i = 0; i < d->cand.n; i++) free(names[i]);
    free(names);
    mem_g = g;
    qsort(f->members, f->nmembers, sizeof(ca_fam_member), cmp_member);
    /* one row per configured name: a second class mapped to the same name adds nothing */
    size_t k = 0;
    for (size_t i = 0; i < f->nmembers; i++) {
        ca_fam_member *m = &f->members[i];
        if (m->role == CA_ROLE_BACKEND && k && f->members[k - 1].role == CA_ROLE_BACKEND &&
            strcmp(f->members[k - 1].backend, m->backend) == 0) {
            free(m->backend);
            f->nbackends--;
            continue;
        }
        f->members[k++] = *m;
    }
    f->nmembers = k;
    f->boundaries = d->bounds.v;
    f->nboundaries = d->bounds.n;
    memset(&d->bounds, 0, sizeof(d->bounds));
    f->impl = ca_xmalloc(sizeof(int) * (f->nbackends * f->nboundaries + 1));
    f->inherited = ca_xcalloc(f->nbackends * f->nboundaries + 1, 1);
    for (size_t b = 0; b < f->nbackends; b++)
        for (size_t x = 0; x < f->nboundaries; x++) {
            int owner = -1;
            int m = find_impl(g, f->members[b].cls, f->boundaries[x], &owner);
            int ok = m >= 0 && !(g->m[m].fflags & FN_ABSTRACT);
            f->impl[b * f->nboundaries + x] = ok ? g->m[m].id : -1;
            f->inherited[b * f->nboundaries + x] = ok && owner != f->members[b].cls;
        }
    const char *nm = d->base >= 0 ? g->c[d->base].name : NULL;
    if (nm) f->name = ca_xstrdup(nm);
    else f->name = ca_xasprintf("*%s", d->word);
}

void ca_families_find(const ca_fam_class *classes, size_t nclasses, const ca_fam_method *methods, size_t nmethods,
                      int configured, ca_fam_set *out)
{
    memset(out, 0, sizeof(*out));
    if (!nclasses) return;
    graph g;
    graph_init(&g, classes, nclasses, methods, nmethods);
    draft_vec ds = {0};
    for (size_t b = 0; b < nclasses; b++) {
        draft d;
        if (declared(&g, (int)b, &d)) CA_VEC_PUSH(ds, d);
        else draft_free(&d);
    }
    /* largest first; a family within a larger one is folded into it */
    order_g = &g;
    if (ds.n) qsort(ds.v, ds.n, sizeof(draft), cmp_draft);
    for (size_t i = 0; i < ds.n; i++)
        for (size_t j = 0; j < i && !ds.v[i].dropped; j++) {
            if (ds.v[j].dropped || !backends_within(&ds.v[i], &ds.v[j])) continue;
            for (size_t k = 0; k < ds.v[i].bounds.n; k++) add_name(&ds.v[j].bounds, ds.v[i].bounds.v[k]);
            ds.v[i].dropped = 1;
        }
    /* duck typing is how a tree without a declared interface has one */
    size_t declared_kept = 0;
    for (size_t i = 0; i < ds.n; i++) declared_kept += !ds.v[i].dropped;
    if (!declared_kept) implicit(&g, &ds);
    for (size_t i = 0; i < ds.n; i++) {
        if (ds.v[i].dropped) continue;
        ca_fam f;
        finish(&g, &ds.v[i], configured, &f);
        if (f.nbackends < 2) { /* configuration left it fewer than two */
            fam_free(&f);
            continue;
        }
        out->v = ca_xrealloc(out->v, sizeof(ca_fam) * (out->n + 1));
        out->v[out->n++] = f;
    }
    for (size_t i = 0; i < ds.n; i++) draft_free(&ds.v[i]);
    CA_VEC_FREE(ds);
    /* the largest grid first, after configuration and folding; names made unique */
    for (size_t i = 1; i < out->n; i++) {
        size_t j = i;
        while (j > 0) {
            const ca_fam *a = &out->v[j - 1], *b = &out->v[j];
            size_t ca = a->nbackends * a->nboundaries, cb = b->nbackends * b->nboundaries;
            int later = ca < cb || (ca == cb && a->nbackends < b->nbackends);
            if (!later) break;
            ca_fam t = out->v[j - 1];
            out->v[j - 1] = out->v[j];
            out->v[j] = t;
            j--;
        }
    }
    for (size_t i = 0; i < out->n; i++)
        for (size_t j = 0; j < i; j++) {
            if (strcmp(out->v[i].name, out->v[j].name) != 0) continue;
            const ca_fam_class *c = out->v[i].base >= 0 ? &classes[out->v[i].base] : NULL;
            char *n = c ? ca_xasprintf("%s (%s:%d)", c->qualname, c->path, c->line)
                        : ca_xasprintf("%s (%zu)", out->v[i].name, i + 1);
            free(out->v[i].name);
            out->v[i].name = n;
            j = (size_t)-1; /* again from the start */
        }
    graph_free(&g);
}

void ca_fam_set_free(ca_fam_set *s)
{
    for (size_t i = 0; i < s->n; i++) fam_free(&s->v[i]);
    free(s->v);
    memset(s, 0, sizeof(*s));
}

/* ---- whose code --------------------------------------------------------- */

static size_t dir_len(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? (size_t)(s - p) : 0;
}

/* Is directory a[0..an) b[0..bn) or below it, or b below a? */
static int nested(const char *a, size_t an, const char *b, size_t bn)
{
    size_t n = an < bn ? an : bn;
    if (strncmp(a, b, n) != 0) return 0;
    const char *longer = an > bn ? a : b;
    return an == bn || n == 0 || longer[n] == '/';
}

const char *ca_families_owner(const ca_fam_set *s, const ca_fam_class *classes, size_t nclasses, int cls,
                              const char *path, const char *dir_name)
{
    if (cls >= 0 && (size_t)cls < nclasses)
        for (size_t i = 0; i < s->n; i++)
            for (size_t k = 0; k < s->v[i].nbackends; k++)
                if (s->v[i].members[k].cls == cls) return s->v[i].members[k].backend;
    if (!path) return NULL;
    size_t dl = dir_len(path);
    /* pass 0: the same file; pass 1: the same backend directory by the
     * directory rule (lumen/mounts.py beside lumen/provider.py), not merely
     * the same directory: a package's other modules are no backend's */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && (!dir_name || !*dir_name)) break;
        const char *one = NULL;
        int clash = 0;
        for (size_t i = 0; i < s->n && !clash; i++)
            for (size_t k = 0; k < s->v[i].nbackends && !clash; k++) {
                const ca_fam_class *c = &classes[s->v[i].members[k].cls];
                int here = pass == 0 ? strcmp(c->path, path) == 0
                                     : c->dir_name && strcmp(c->dir_name, dir_name) == 0 &&
                                           nested(c->path, dir_len(c->path), path, dl);
                if (!here) continue;
                const char *b = s->v[i].members[k].backend;
                if (one && strcmp(one, b) != 0) clash = 1;
                one = b;
            }
        if (clash) return NULL;
        if (one) return one;
    }
    return NULL;
}

typedef struct owner_entry {
    const char *path, *dir_name, *backend;
} owner_entry;

struct ca_fam_owner_index {
    owner_entry *by_path, *by_dir;
    size_t n;
};

static int cmp_entry_path(const void *a, const void *b)
{
    return strcmp(((const owner_entry *)a)->path, ((const owner_entry *)b)->path);
}

static int cmp_entry_dir(const void *a, const void *b)
{
    return strcmp(((const owner_entry *)a)->dir_name, ((const owner_entry *)b)->dir_name);
}

ca_fam_owner_index *ca_families_owner_index(const ca_fam_set *s, const ca_fam_class *classes, size_t nclasses)
{
    ca_fam_owner_index *ix = ca_xcalloc(1, sizeof(*ix));
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) n += s->v[i].nbackends;
    ix->by_path = ca_xcalloc(n + 1, sizeof(owner_entry));
    ix->by_dir = ca_xcalloc(n + 1, sizeof(owner_entry));
    for (size_t i = 0; i < s->n; i++)
        for (size_t k = 0; k < s->v[i].nbackends; k++) {
            int c = s->v[i].members[k].cls;
            if (c < 0 || (size_t)c >= nclasses) continue;
            owner_entry e = {classes[c].path, classes[c].dir_name ? classes[c].dir_name : "",
                             s->v[i].members[k].backend};
            ix->by_path[ix->n] = e;
            ix->by_dir[ix->n++] = e;
        }
    qsort(ix->by_path, ix->n, sizeof(owner_entry), cmp_entry_path);
    qsort(ix->by_dir, ix->n, sizeof(owner_entry), cmp_entry_dir);
    return ix;
}

/* The first entry of v (sorted by key) whose key is at least k. */
static size_t lower_bound(const owner_entry *v, size_t n, const char *k, int by_dir)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(by_dir ? v[mid].dir_name : v[mid].path, k) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

const char *ca_families_owner_of_file(const ca_fam_owner_index *ix, const char *path, const char *dir_name)
{
    if (!path) return NULL;
    size_t dl = dir_len(path);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && (!dir_name || !*dir_name)) break;
        const owner_entry *v = pass == 0 ? ix->by_path : ix->by_dir;
        const char *key = pass == 0 ? path : dir_name;
        const char *one = NULL;
        for (size_t i = lower_bound(v, ix->n, key, pass); i < ix->n; i++) {
            if (strcmp(pass == 0 ? v[i].path : v[i].dir_name, key) != 0) break;
            if (pass == 1 && !nested(v[i].path, dir_len(v[i].path), path, dl)) continue;
            if (one && strcmp(one, v[i].backend) != 0) return NULL; /* two backends claim it */
            one = v[i].backend;
        }
        if (one) return one;
    }
    return NULL;
}

void ca_families_owner_index_free(ca_fam_owner_index *ix)
{
    if (!ix) return;
    free(ix->by_path);
    free(ix->by_dir);
    free(ix);
}

/* ---- the digest --------------------------------------------------------- */

static uint64_t h_str(uint64_t h, const char *s) { return s ? ca_hash64(s, strlen(s) + 1, h) : ca_hash64("\001", 1, h); }
static uint64_t h_u64(uint64_t h, uint64_t v) { return ca_hash64(&v, sizeof(v), h); }

uint64_t ca_families_digest(const ca_fam_class *classes, size_t nclasses, const ca_fam_method *methods,
                            size_t nmethods, int configured)
{
    uint64_t h = h_str(CA_HASH_SEED, "cancelaudit families 1");
    h = h_u64(h, (uint64_t)(configured != 0));
    h = h_u64(h, nclasses);
    for (size_t i = 0; i < nclasses; i++) {
        const ca_fam_class *c = &classes[i];
        h = h_str(h_str(h_str(h, c->name), c->qualname), c->path);
        h = h_u64(h_u64(h_u64(h, (uint64_t)c->line), c->flags), (uint64_t)c->library_base);
        h = h_str(h_str(h, c->dir_name), c->config_name);
        h = h_u64(h, (uint64_t)c->nbases);
        for (int b = 0; b < c->nbases; b++) h = h_u64(h, (uint64_t)(int64_t)c->bases[b]);
    }
    h = h_u64(h, nmethods);
    for (size_t i = 0; i < nmethods; i++) {
        const ca_fam_method *m = &methods[i];
        h = h_str(h_u64(h, (uint64_t)(int64_t)m->cls), m->name);
        h = h_u64(h_u64(h, (uint64_t)(m->is_async != 0)), m->fflags & (FN_ABSTRACT | FN_DELEGATES));
    }
    return h;
}

/* ---- proxies ------------------------------------------------------------ */

typedef struct deleg {
    const ir_func *f;
    int same_name;           /* awaits self.<attr>.<f's name>(...) */
    int awaits;              /* awaits of any kind */
    int acquires;            /* acquires something of its own */
} deleg;

static int deleg_visit(void *ctx, const ir_node *n)
{
    deleg *d = ctx;
    if (n->kind == IR_AWAIT_CALL && n->cname && n->recv && strcmp(n->cname, d->f->name) == 0 &&
        (strncmp(n->recv, "self.", 5) == 0 || strncmp(n->recv, "cls.", 4) == 0))
        d->same_name = 1;
    if (n->kind == IR_CHECKPOINT && (n->flags & CP_AWAIT)) d->awaits++;
    if (n->kind == IR_ACQUIRE && (n->flags & ACQ_STRONG) && !(n->flags & ACQ_HEURISTIC)) d->acquires = 1;
    return 0;
}

/* The await of the wrapped object's method is the only one: a method that
 * does work of its own around it (provisioning first, a second call) is
 * the class's own code, whatever it calls at the end. */
int ca_family_delegates(const ir_func *f)
{
    if (!f->is_async || !f->class_name || !f->name) return 0;
    deleg d = {f, 0, 0, 0};
    ir_visit(&f->body, deleg_visit, &d);
    return d.same_name && d.awaits == 1 && !d.acquires;
}
