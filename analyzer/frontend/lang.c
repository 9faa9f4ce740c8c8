/*
 * lang.c — the registry of languages (lang.h).
 *
 * The folder: frontend/ turns source bytes into the ownership IR (ir.h),
 * one subfolder per language — python/ (tree-sitter) and c/ (libclang) —
 * each behind a ca_lang (python/py_lang.c, c/c_lang.c). Frontends know
 * syntax and the catalog, nothing of rules; the scan driver knows them
 * only through this interface. A new language is a subfolder, a ca_lang
 * and one line below.
 */
#include "frontend/lang.h"

#include <string.h>

#include "frontend/c/c_frontend.h"
#include "frontend/python/py_frontend.h"

/* The first is the default language (ca_lang_default). */
static const ca_lang *const all[] = {&py_lang, &c_lang};

const ca_lang *const *ca_lang_all(size_t *n)
{
    *n = sizeof(all) / sizeof(all[0]);
    return all;
}

const ca_lang *ca_lang_named(const char *name)
{
    for (size_t i = 0; name && i < sizeof(all) / sizeof(all[0]); i++)
        if (strcmp(all[i]->name, name) == 0) return all[i];
    return NULL;
}

const ca_lang *ca_lang_by_suffix(const char *name, const ca_lang *const *langs, size_t n)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < n; i++)
        for (const char *const *e = langs[i]->exts; e && *e; e++) {
            size_t k = strlen(*e);
            if (len >= k && memcmp(name + len - k, *e, k) == 0) return langs[i];
        }
    return NULL;
}

const ca_lang *ca_lang_default(void) { return all[0]; }
