/*
 * cache.c — formats for incremental rescans (cache.h).
 *
 * Encodings are plain text so a person can read them in the database:
 * numbers in decimal or hex separated by single spaces, strings as
 * `<length>:<bytes>` so paths and names may hold any byte but NUL. Each
 * format starts with a tag and a version; a change of meaning changes the
 * tag, and old rows then fail to decode and are simply not reused.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dl_iterate_phdr */
#endif
#include "model/cache.h"

#include <elf.h>
#include <inttypes.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- hashing -------------------------------------------------------- */

#define MIX_A 0x9fb21c651e98df25ULL
#define MIX_B 0xd6e8feb86659fd93ULL
#define LANE_0 0xa0761d6478bd642fULL
#define LANE_1 0xe7037ed1a0b428dbULL
#define LANE_2 0x8ebc6af09c88c6e3ULL
#define LANE_3 0x589965cc75374cc3ULL

static uint64_t load64(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static uint64_t lane(uint64_t acc, uint64_t w, uint64_t k)
{
    acc = (acc ^ w) * k;
    return acc ^ (acc >> 29);
}

static uint64_t finish(uint64_t x)
{
    x ^= x >> 32;
    x *= MIX_A;
    x ^= x >> 29;
    x *= MIX_B;
    return x ^ (x >> 32);
}

uint64_t ca_content_hash(const void *data, size_t n)
{
    const unsigned char *p = data;
    /* four independent lanes keep the multiplier busy */
    uint64_t a = LANE_0, b = LANE_1, c = LANE_2, d = LANE_3;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        a = lane(a, load64(p + i), LANE_1);
        b = lane(b, load64(p + i + 8), LANE_2);
        c = lane(c, load64(p + i + 16), LANE_3);
        d = lane(d, load64(p + i + 24), LANE_0);
    }
    uint64_t h = finish(a) ^ finish(b + MIX_A) ^ finish(c + MIX_B) ^ finish(d ^ (uint64_t)n);
    for (; i + 8 <= n; i += 8) h = lane(h, load64(p + i), MIX_A);
    if (i < n) {
        unsigned char tail[8] = {0};
        memcpy(tail, p + i, n - i);
        h = lane(h, load64(tail) ^ ((uint64_t)(n - i) << 56), MIX_B);
    }
    return finish(h ^ (uint64_t)n);
}

static uint64_t build_id;
static pthread_once_t build_once = PTHREAD_ONCE_INIT;

/* The linker's build ID (the NT_GNU_BUILD_ID note of the executable): it
 * changes with every byte of the linked program, and reading it costs no
 * I/O. dl_iterate_phdr's first object is the executable itself. */
static int note_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    uint64_t *out = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE) continue;
        const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
        const unsigned char *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            ElfW(Nhdr) nh;
            memcpy(&nh, p, sizeof(nh));
            const unsigned char *name = p + sizeof(nh);
            const unsigned char *desc = name + ((nh.n_namesz + 3u) & ~3u);
            const unsigned char *next = desc + ((nh.n_descsz + 3u) & ~3u);
            if (next > end) break;
            if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && memcmp(name, "GNU", 4) == 0 && nh.n_descsz >= 8) {
                *out = ca_content_hash(desc, nh.n_descsz);
                return 1;
            }
            p = next;
        }
    }
    return 1; /* only the executable is of interest */
}

static void read_build_id(void)
{
    dl_iterate_phdr(note_build_id, &build_id);
    if (build_id) return;
    /* no build ID note: the executable's bytes */
    char *buf = NULL;
    size_t len = 0;
    if (ca_read_file("/proc/self/exe", &buf, &len) == 0) {
        build_id = ca_content_hash(buf, len);
        free(buf);
    }
}

uint64_t ca_build_id(void)
{
    pthread_once(&build_once, read_build_id);
    return build_id;
}

/* ---- writing ---------------------------------------------------------- */

static void put_str(ca_sb *sb, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    ca_sb_addf(sb, " %zu:", n);
    if (n) ca_sb_add(sb, s, n);
}

char *ca_facts_encode(const ca_facts *f)
{
    ca_sb sb = {0};
    ca_sb_addf(&sb, "f2 %" PRIx64 " %" PRIx64 " %" PRIx64 " %d %d %x %d %d", f->sum.releases, f->sum.takes_early,
               f->sum.takes_late, f->sum.has_checkpoint != 0, f->is_method != 0, f->protections, f->had_window != 0,
               f->nparams);
    for (int i = 0; i < f->nparams; i++) put_str(&sb, f->params[i]);
    ca_sb_addf(&sb, " %d", f->ncallees);
    for (int i = 0; i < f->ncallees; i++) {
        ca_sb_addf(&sb, " %d", f->callee_ordinal[i]);
        put_str(&sb, f->callee_path[i]);
    }
    ca_sb_addf(&sb, " %d %d %d %d %" PRIx64 " %" PRIx64 " %" PRIu64, f->varargs + 1, f->sum.suspends != 0,
               f->sum.noreturn != 0, f->sum.returns, f->sum.uses, f->sum.passes, f->fflags);
    put_str(&sb, f->ret_type);
    ca_sb_addf(&sb, " %d", f->sum.remote != 0);
    ca_sb_addf(&sb, " %d", f->sum.returns_param);
    return ca_sb_detach(&sb);
}

char *ca_deps_encode(uint64_t digest, const char *const *names, size_t n, const ir_module *m)
{
    ca_sb sb = {0};
    ca_sb_addf(&sb, "d2 %016" PRIx64 " %zu", digest, n);
    for (size_t i = 0; i < n; i++) put_str(&sb, names[i]);
    int nc = m ? m->nclasses : 0;
    ca_sb_addf(&sb, " %d", nc);
    for (int k = 0; k < nc; k++) {
        const ir_class *c = m->classes[k];
        put_str(&sb, c->name);
        put_str(&sb, c->qualname);
        ca_sb_addf(&sb, " %d %u %d", c->site.line, c->flags, c->nbases);
        for (int i = 0; i < c->nbases; i++) put_str(&sb, c->bases[i]);
    }
    /* the tasks it starts on functions by name (ir_spawn), which the scan
     * resolves for every module, reused ones too; and the calls of its
     * coroutines the scan resolved (SPAWN_EDGE, SPAWN_SELF_CALL), which
     * decide flags of functions in other files */
    int ns = m ? m->nspawns : 0;
    ca_sb_addf(&sb, " %d", ns);
    for (int k = 0; k < ns; k++) {
        ca_sb_addf(&sb, " %d %u", m->spawns[k].func, m->spawns[k].flags);
        put_str(&sb, m->spawns[k].text);
        /* (a spawn through a wrapper: what the call hands the coroutine to) */
        if (m->spawns[k].flags & (SPAWN_VIA | SPAWN_EXPORT | SPAWN_DECORATION)) put_str(&sb, m->spawns[k].via);
    }
    return ca_sb_detach(&sb);
}

#define DIRS_TAG "ca-dirs 1\n"

char *ca_dirs_encode(const ca_dir_rec *dirs, size_t n, size_t *len)
{
    ca_sb sb = {0};
    ca_sb_adds(&sb, DIRS_TAG);
    for (size_t i = 0; i < n; i++) {
        const ca_dir_rec *d = &dirs[i];
        unsigned char num[12];
        uint64_t m = (uint64_t)d->mtime_ns;
        for (int k = 0; k < 8; k++) num[k] = (unsigned char)(m >> (8 * k));
        uint32_t l = (uint32_t)d->len;
        for (int k = 0; k < 4; k++) num[8 + k] = (unsigned char)(l >> (8 * k));
        ca_sb_add(&sb, d->path, strlen(d->path) + 1);
        ca_sb_add(&sb, (const char *)num, sizeof(num));
        if (d->len) ca_sb_add(&sb, d->entries, d->len);
    }
    *len = sb.len;
    return ca_sb_detach(&sb);
}

int ca_dirs_next(const char *blob, size_t len, size_t *at, const char **path, int64_t *mtime_ns,
                 const char **entries, size_t *elen)
{
    size_t tag = sizeof(DIRS_TAG) - 1;
    if (*at == 0) {
        if (len < tag || memcmp(blob, DIRS_TAG, tag) != 0) return -1;
        *at = tag;
    }
    if (*at == len) return 0;
    const char *p = blob + *at;
    const char *nul = memchr(p, 0, len - *at);
    if (!nul || nul == p) return -1;
    size_t off = (size_t)(nul - blob) + 1;
    if (len - off < 12) return -1;
    const unsigned char *num = (const unsigned char *)blob + off;
    uint64_t m = 0;
    uint32_t l = 0;
    for (int k = 0; k < 8; k++) m |= (uint64_t)num[k] << (8 * k);
    for (int k = 0; k < 4; k++) l |= (uint32_t)num[8 + k] << (8 * k);
    off += 12;
    if (len - off < l) return -1;
    *path = p;
    *mtime_ns = (int64_t)m;
    *entries = blob + off;
    *elen = l;
    *at = off + l;
    return 1;
}

/* ---- reading ---------------------------------------------------------- */

typedef struct cursor {
    const char *p;
    int bad;
} cursor;

/* One space, then what follows it. */
static int sep(cursor *c)
{
    if (c->bad || *c->p != ' ') return c->bad = 1, 0;
    c->p++;
    return 1;
}

static uint64_t get_num(cursor *c, int base)
{
    if (!sep(c)) return 0;
    const char *s = c->p;
    uint64_t v = 0;
    int digits = 0;
    for (;; s++, digits++) {
        int d;
        if (*s >= '0' && *s <= '9') d = *s - '0';
        else if (base == 16 && *s >= 'a' && *s <= 'f') d = *s - 'a' + 10;
        else break;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) return c->bad = 1, 0;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    if (!digits) return c->bad = 1, 0;
    c->p = s;
    return v;
}

static int get_int(cursor *c, int max)
{
    uint64_t v = get_num(c, 10);
    if (v > (uint64_t)max) c->bad = 1;
    return c->bad ? 0 : (int)v;
}

#define MAX_STR (64u << 20)

/* A `<len>:<bytes>` string, copied into a; NULL for the empty string. */
static const char *get_str(cursor *c, ca_arena *a)
{
    uint64_t n = get_num(c, 10);
    if (c->bad || *c->p != ':') return c->bad = 1, NULL;
    c->p++;
    if (n > MAX_STR || strnlen(c->p, (size_t)n) < n) return c->bad = 1, NULL;
    const char *s = n ? ca_arena_strndup(a, c->p, n) : NULL;
    c->p += n;
    return s;
}

static int tag(cursor *c, const char *t)
{
    size_t n = strlen(t);
    if (strncmp(c->p, t, n) != 0) return 0;
    c->p += n;
    return 1;
}

#define MAX_ITEMS 1000000

int ca_facts_decode(const char *s, ca_facts *out, ca_arena *a)
{
    memset(out, 0, sizeof *out);
    if (!s) return -1;
    cursor c = {s, 0};
    int v2 = 0;
    if (tag(&c, "f2")) v2 = 1;
    else if (!tag(&c, "f1")) return -1;
    out->sum.releases = get_num(&c, 16);
    out->sum.takes_early = get_num(&c, 16);
    out->sum.takes_late = get_num(&c, 16);
    out->sum.has_checkpoint = get_int(&c, 1);
    out->is_method = get_int(&c, 1);
    out->protections = (unsigned)get_num(&c, 16);
    out->had_window = get_int(&c, 1);
    out->nparams = get_int(&c, MAX_ITEMS);
    if (c.bad) return -1;
    out->params = ca_arena_alloc(a, sizeof(char *) * ((size_t)out->nparams + 1));
    for (int i = 0; i < out->nparams && !c.bad; i++) {
        out->params[i] = get_str(&c, a);
        if (!out->params[i]) c.bad = 1; /* a parameter always has a name */
    }
    out->ncallees = get_int(&c, MAX_ITEMS);
    if (c.bad) return -1;
    out->callee_ordinal = ca_arena_alloc(a, sizeof(int) * ((size_t)out->ncallees + 1));
    out->callee_path = ca_arena_alloc(a, sizeof(char *) * ((size_t)out->ncallees + 1));
    for (int i = 0; i < out->ncallees && !c.bad; i++) {
        out->callee_ordinal[i] = get_int(&c, INT32_MAX);
        out->callee_path[i] = get_str(&c, a);
    }
    if (v2) {
        out->varargs = get_int(&c, MAX_ITEMS) - 1;
        out->sum.suspends = get_int(&c, 1);
        out->sum.noreturn = get_int(&c, 1);
        out->sum.returns = get_int(&c, ENG_RET_MAX);
        out->sum.uses = get_num(&c, 16);
        out->sum.passes = get_num(&c, 16);
        /* (all 64 bits of ir_fflags) */
        uint64_t ff = get_num(&c, 10);
        out->fflags = c.bad ? 0 : ff;
        out->ret_type = get_str(&c, a);
        /* (facts written before `remote` was known end here) */
        if (!c.bad && *c.p) out->sum.remote = get_int(&c, 1);
        /* (and before returns_param) */
        if (!c.bad && *c.p) out->sum.returns_param = get_int(&c, MAX_ITEMS);
    } else { /* f1: written before these were known */
        out->varargs = -1;
        out->sum.suspends = out->sum.has_checkpoint;
        out->sum.uses = ~0ull;
    }
    return c.bad || *c.p ? -1 : 0;
}

int ca_deps_decode(const char *s, uint64_t *digest, const char ***names, size_t *n, ir_module *m)
{
    *names = NULL;
    *n = 0;
    if (!s) return -1;
    ca_arena *a = &m->arena;
    cursor c = {s, 0};
    int v2 = tag(&c, "d2");
    if (!v2 && !tag(&c, "d1")) return -1;
    *digest = get_num(&c, 16);
    size_t count = (size_t)get_int(&c, MAX_ITEMS);
    if (c.bad) return -1;
    const char **v = ca_arena_alloc(a, sizeof(char *) * (count + 1));
    for (size_t i = 0; i < count && !c.bad; i++) {
        v[i] = get_str(&c, a);
        if (!v[i]) c.bad = 1;
    }
    int nc = v2 ? get_int(&c, MAX_ITEMS) : 0;
    for (int k = 0; k < nc && !c.bad; k++) {
        ir_class *cl = ir_class_new(m);
        cl->name = get_str(&c, a);
        cl->qualname = get_str(&c, a);
        cl->site.line = get_int(&c, INT32_MAX);
        cl->flags = (unsigned)get_int(&c, INT32_MAX);
        int nb = get_int(&c, MAX_ITEMS);
        cl->bases = ca_arena_alloc(a, sizeof(char *) * ((size_t)nb + 1));
        for (int i = 0; i < nb && !c.bad; i++) {
            cl->bases[cl->nbases] = get_str(&c, a);
            if (!cl->bases[cl->nbases++]) c.bad = 1;
        }
        if (!cl->name || !cl->qualname) c.bad = 1;
    }
    /* (a record written before spawns were kept ends here) */
    int ns = v2 && !c.bad && *c.p ? get_int(&c, MAX_ITEMS) : 0;
    for (int k = 0; k < ns && !c.bad; k++) {
        int fi = get_int(&c, INT32_MAX);
        uint64_t fl64 = get_num(&c, 10);
        if (fl64 > UINT32_MAX) c.bad = 1;
        unsigned fl = (unsigned)fl64;
        const char *t = get_str(&c, a);
        const char *via = (fl & (SPAWN_VIA | SPAWN_EXPORT | SPAWN_DECORATION)) && t ? get_str(&c, a) : NULL;
        if (!t || (!via) != !(fl & (SPAWN_VIA | SPAWN_EXPORT | SPAWN_DECORATION))) c.bad = 1;
        else ir_spawn_add_via(m, fi, t, fl, via);
    }
    if (c.bad || *c.p) return -1;
    *names = v;
    *n = count;
    return 0;
}
