/*
 * parse_floor.c — the floor of tests/bench/run: what any tree-sitter based
 * analyzer of this tree must spend at least. It walks the tree, reads every
 * .py file, applies cancelaudit's own byte prefilter (linked from
 * analyzer/frontend/python/py_precheck.c) and parses the async-bearing files with the same
 * grammar and library, freeing each tree at once; nothing is lowered,
 * analysed or stored. Workers: one parser each, files handed out largest
 * first, as cancelaudit's phase 1 does.
 *
 * Usage: parse_floor [-j N] DIR     (N: 0 or absent = number of cores)
 * Prints one line: files, parsed, bytes, seconds.
 * Built by tests/bench/run; not part of the product or of ctest.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <tree_sitter/api.h>
#include <unistd.h>

#include "frontend/python/py_precheck.h"
#include "util/util.h"

const TSLanguage *tree_sitter_python(void);

typedef struct floor_file {
    char *path;
    off_t size;
} floor_file;

typedef struct floor_state {
    floor_file *files;
    size_t nfiles;
    atomic_size_t next;
    atomic_size_t parsed;
    atomic_ullong bytes;
} floor_state;

static int ends_with_py(const char *s)
{
    size_t n = strlen(s);
    return n >= 3 && strcmp(s + n - 3, ".py") == 0;
}

/* Every .py file under root (symlinks not followed), with an explicit stack. */
static void walk(const char *root, floor_state *F)
{
    CA_VEC(char *) stack = {0};
    CA_VEC(floor_file) files = {0};
    CA_VEC_PUSH(stack, ca_xstrdup(root));
    while (stack.n) {
        char *dir = stack.v[--stack.n];
        DIR *d = opendir(dir);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
                char *p = ca_xasprintf("%s/%s", dir, e->d_name);
                struct stat st;
                int ok = lstat(p, &st) == 0;
                if (ok && S_ISDIR(st.st_mode)) {
                    CA_VEC_PUSH(stack, p);
                } else if (ok && S_ISREG(st.st_mode) && ends_with_py(e->d_name)) {
                    floor_file f = {p, st.st_size};
                    CA_VEC_PUSH(files, f);
                } else {
                    free(p);
                }
            }
            closedir(d);
        }
        free(dir);
    }
    CA_VEC_FREE(stack);
    F->files = files.v;
    F->nfiles = files.n;
}

static int larger_first(const void *a, const void *b)
{
    const floor_file *x = a, *y = b;
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    return strcmp(x->path, y->path);
}

static void *worker(void *arg)
{
    floor_state *F = arg;
    TSParser *parser = ts_parser_new();
    ts_parser_set_language(parser, tree_sitter_python());
    for (;;) {
        size_t i = atomic_fetch_add(&F->next, 1);
        if (i >= F->nfiles) break;
        char *src = NULL;
        size_t len = 0;
        if (ca_read_file(F->files[i].path, &src, &len) != 0) continue;
        atomic_fetch_add(&F->bytes, (unsigned long long)len);
        if (py_prefilter_async(src, len)) {
            TSTree *t = ts_parser_parse_string(parser, NULL, src, (uint32_t)len);
            ts_tree_delete(t);
            atomic_fetch_add(&F->parsed, 1);
        }
        free(src);
    }
    ts_parser_delete(parser);
    return NULL;
}

int main(int argc, char **argv)
{
    int jobs = 0;
    int a = 1;
    if (a + 1 < argc && strcmp(argv[a], "-j") == 0) {
        jobs = atoi(argv[a + 1]);
        a += 2;
    }
    if (a + 1 != argc) {
        fprintf(stderr, "usage: parse_floor [-j N] DIR\n");
        return 2;
    }
    if (jobs <= 0) jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (jobs < 1) jobs = 1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    floor_state F;
    memset(&F, 0, sizeof(F));
    walk(argv[a], &F);
    qsort(F.files, F.nfiles, sizeof(floor_file), larger_first);
    pthread_t *th = ca_xmalloc(sizeof(pthread_t) * (size_t)jobs);
    for (int i = 0; i < jobs; i++) pthread_create(&th[i], NULL, worker, &F);
    for (int i = 0; i < jobs; i++) pthread_join(th[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("parse floor: files=%zu parsed=%zu bytes=%llu jobs=%d seconds=%.3f\n", F.nfiles,
           (size_t)atomic_load(&F.parsed), (unsigned long long)atomic_load(&F.bytes), jobs,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    for (size_t i = 0; i < F.nfiles; i++) free(F.files[i].path);
    free(F.files);
    free(th);
    return 0;
}
