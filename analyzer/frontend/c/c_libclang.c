/*
 * c_libclang.c — loading libclang for the C frontend: dlopen() on first
 * use and one table of the functions it calls (c_cx, c_internal.h).
 *
 * Where it sits: under c_lower.c, which asks for it before it parses a
 * file. libclang is not linked (DESIGN §9): a scan that lowers no C file
 * never loads it, and a machine without it still runs Python scans (each C
 * file then gets the reason as its diagnostic). A build without libclang's
 * headers has no table at all; c_libclang_loaded() then says 0.
 */
#include "frontend/c/c_internal.h"

#ifndef CA_HAVE_LIBCLANG_H

int c_libclang_loaded(void) { return 0; }

#else

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#ifndef CA_LIBCLANG_SO
#define CA_LIBCLANG_SO "libclang.so.1"
#endif

c_cx_api c_cx;
static int cx_ok;
static char cx_err[256];
static pthread_once_t cx_once = PTHREAD_ONCE_INIT;

static void cx_load(void)
{
    static const char *const names[] = {CA_LIBCLANG_SO, "libclang.so.1", "libclang-14.so.1", "libclang.so"};
    void *h = NULL;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !h; i++) h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(cx_err, sizeof(cx_err), "libclang could not be loaded (%s); install libclang-dev",
                 e ? e : CA_LIBCLANG_SO);
        return;
    }
#define X(name)                                                                                   \
    {                                                                                             \
        void *sym = dlsym(h, #name);                                                              \
        if (!sym) {                                                                               \
            snprintf(cx_err, sizeof(cx_err), "libclang lacks %s (too old?)", #name);              \
            return;                                                                               \
        }                                                                                         \
        memcpy(&c_cx.name, &sym, sizeof(sym));                                                    \
    }
    CX_FUNCS(X)
#undef X
    /* never dlclose()d: cursors and strings may outlive a frontend */
    cx_ok = 1;
}

const char *c_libclang_load(void)
{
    pthread_once(&cx_once, cx_load);
    return cx_ok ? NULL : cx_err;
}

int c_libclang_loaded(void) { return cx_ok; }

#endif /* CA_HAVE_LIBCLANG_H */
