/*
 * source.c — the scanned source files as they are now under the scan's
 * root (source.h): read once per report, compared with the content hash
 * the scan stored, and split into lines for excerpts.
 *
 * Pipeline position: the end; the only thing the store reporters read
 * besides the store.
 */
#include "report/source.h"
#include "model/cache.h"

#include <stdlib.h>
#include <string.h>

static int str_eq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

void src_cache_free(src_cache *c)
{
    for (size_t i = 0; i < c->files.n; i++) {
        free(c->files.v[i].path);
        free(c->files.v[i].full);
        free(c->files.v[i].text);
        free(c->files.v[i].off);
    }
    CA_VEC_FREE(c->files);
}

src_file *src_get(src_cache *c, const char *path)
{
    if (!path) return NULL;
    for (size_t i = 0; i < c->files.n; i++)
        if (strcmp(c->files.v[i].path, path) == 0) return &c->files.v[i];
    src_file f;
    memset(&f, 0, sizeof(f));
    f.path = ca_xstrdup(path);
    const char *root = c->r->scan.root;
    f.full = path[0] == '/' || !root || !*root ? ca_xstrdup(path) : ca_xasprintf("%s/%s", root, path);
    f.err = ca_read_file(f.full, &f.text, &f.len);
    if (f.err == 0) {
        for (size_t i = 0; i < c->r->nfiles; i++) {
            const ca_file_rec *fr = &c->r->files[i];
            if (!str_eq(fr->path, path) || !fr->hash) continue;
            char hex[17];
            ca_hash_hex(ca_content_hash(f.text, f.len), hex);
            f.changed = strcmp(hex, fr->hash) != 0;
        }
        CA_VEC(size_t) off = {0};
        CA_VEC_PUSH(off, (size_t)0);
        for (size_t i = 0; i < f.len; i++)
            if (f.text[i] == '\n' && i + 1 < f.len) CA_VEC_PUSH(off, i + 1);
        f.off = off.v;
        f.nlines = f.len ? off.n : 0;
    }
    CA_VEC_PUSH(c->files, f);
    return &c->files.v[c->files.n - 1];
}

/* Line lineno (1-based) without its newline; 0 when out of range. */
int src_line(const src_file *f, int lineno, const char **s, size_t *n)
{
    if (!f || !f->text || lineno < 1 || (size_t)lineno > f->nlines) return 0;
    size_t a = f->off[lineno - 1];
    size_t b = (size_t)lineno < f->nlines ? f->off[lineno] - 1 : f->len;
    if (b > a && f->text[b - 1] == '\n') b--;
    if (b > a && f->text[b - 1] == '\r') b--;
    *s = f->text + a;
    *n = b - a;
    return 1;
}
