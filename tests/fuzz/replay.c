/*
 * replay.c — runs saved inputs through the fuzz target without libFuzzer,
 * so every build (plain and ASan+UBSan, gcc or clang) replays the crash
 * regressions under tests/fuzz/regressions/ and the seed corpus.
 *
 * usage: fuzz_replay PATH...   (files, or directories walked recursively;
 * in a directory only regular files, hidden ones skipped). Exits 0 when
 * every input ran (a crash ends the process, which is the failure), 2 when
 * a path cannot be read or no input was found at all: a replay that
 * silently ran nothing must not pass.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int ninputs;

static int run_file(const char *path)
{
    char *buf;
    size_t len;
    int e = ca_read_file(path, &buf, &len);
    if (e) {
        fprintf(stderr, "fuzz_replay: %s: %s\n", path, strerror(e));
        return -1;
    }
    LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
    free(buf);
    ninputs++;
    return 0;
}

/* Directories nest only as deep as the repository's few levels; the limit
 * keeps a symlink loop from recursing without end. */
static int run_path(const char *path, int depth)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "fuzz_replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) return S_ISREG(st.st_mode) ? run_file(path) : 0;
    if (depth > 16) return 0;
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "fuzz_replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    CA_VEC(char *) names = {0};
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        if (de->d_name[0] != '.') CA_VEC_PUSH(names, ca_xasprintf("%s/%s", path, de->d_name));
    closedir(d);
    int rc = 0;
    for (size_t i = 0; i < names.n; i++) {
        if (run_path(names.v[i], depth + 1) != 0) rc = -1;
        free(names.v[i]);
    }
    CA_VEC_FREE(names);
    return rc;
}

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    int rc = 0;
    for (int i = 1; i < argc; i++)
        if (run_path(argv[i], 0) != 0) rc = 2;
    if (ninputs == 0) {
        fprintf(stderr, "fuzz_replay: no input found\n");
        rc = 2;
    }
    printf("fuzz_replay: %d inputs replayed\n", ninputs);
    return rc;
}
