/*
 * cli_debug.c — `cancelaudit debug-ir FILE [FUNCTION]`: the ownership IR
 * the Python frontend lowers a file to, as text (ir_dump). For people who
 * work on the analysis or report a wrong finding: it shows what the rules
 * saw. Not part of the stable interface.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "cli/cli.h"
#include "frontend/python/py_frontend.h"
#include "ir/ir.h"
#include "util/util.h"

int cli_debug_ir(int argc, char **argv)
{
    if (argc < 1 || argc > 2) {
        fprintf(stderr, "usage: cancelaudit debug-ir FILE.py [QUALNAME]\n");
        return 2;
    }
    char *err = NULL;
    const ca_catalog *cat = ca_catalog_builtin(&err);
    if (!cat) {
        fprintf(stderr, "cancelaudit: catalog: %s\n", err ? err : "?");
        free(err);
        return 3;
    }
    char *src = NULL;
    size_t len = 0;
    int e = ca_read_file(argv[0], &src, &len);
    if (e) {
        fprintf(stderr, "cancelaudit: %s: cannot read: %s\n", argv[0], strerror(e));
        return 2;
    }
    py_frontend *fe = py_frontend_new(cat);
    ir_module m;
    memset(&m, 0, sizeof(m));
    int rc = py_lower(fe, argv[0], src, len, &m);
    if (m.diagnostic) fprintf(stderr, "cancelaudit: %s: %s\n", argv[0], m.diagnostic);
    ca_sb out = {0};
    for (int i = 0; rc == 0 && i < m.nfuncs; i++)
        if (argc < 2 || strcmp(m.funcs[i]->qualname, argv[1]) == 0) ir_dump(&m, m.funcs[i], &out);
    fputs(ca_sb_str(&out), stdout);
    ca_sb_release(&out);
    ir_module_free(&m);
    py_frontend_free(fe);
    free(src);
    return rc == 0 ? 0 : 3;
}
