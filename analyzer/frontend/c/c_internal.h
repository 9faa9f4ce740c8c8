/*
 * c_internal.h — what the files of the C frontend share, and nothing else
 * includes: c_compdb.c (compile settings), c_libclang.c (loading libclang),
 * c_lower.c (lowering) and c_lang.c (the frontend behind ca_lang).
 * The public header is c_frontend.h.
 */
#ifndef CA_C_INTERNAL_H
#define CA_C_INTERNAL_H

#include <stdlib.h>
#include <string.h>

#include "frontend/c/c_frontend.h"
#include "util/util.h"

/* A growable list of heap strings. */
typedef CA_VEC(char *) str_vec;

static inline void sv_push(str_vec *v, const char *s) { CA_VEC_PUSH(*v, ca_xstrdup(s)); }

static inline void sv_free(str_vec *v)
{
    for (size_t i = 0; i < v->n; i++) free(v->v[i]);
    CA_VEC_FREE(*v);
}

/* A header by its name: parsed as C (-x c), and prefiltered (c_prefilter). */
static inline int c_is_header(const char *path)
{
    size_t n = strlen(path);
    return n >= 2 && strcmp(path + n - 2, ".h") == 0;
}

/* realpath(p) as a heap string, or a copy of p when it does not resolve. */
char *c_canonical(const char *p);

/* The compile flags for one file of the project, *first then *rest: its
 * database entry's (and nothing); else the -I of its directory and those
 * above it, then the defaults. Empty lists when p is NULL. Owned by p. */
void c_project_flags(const c_project *p, const char *path, const str_vec **first, const str_vec **rest);
/* Where those flags came from, said after a file's compile errors (owned
 * by p; NULL when p is NULL). */
const char *c_project_origin(const c_project *p, const char *path);

#ifdef CA_HAVE_LIBCLANG_H
#include <clang-c/Index.h>

/* The libclang functions the frontend calls, through one table filled by
 * dlsym (c_libclang.c): libclang is not linked (DESIGN §9). */
#define CX_FUNCS(X)                                                                                   \
    X(clang_createIndex) X(clang_disposeIndex) X(clang_parseTranslationUnit2)                         \
    X(clang_disposeTranslationUnit) X(clang_getTranslationUnitCursor) X(clang_visitChildren)          \
    X(clang_getCursorKind) X(clang_getCursorSpelling) X(clang_getCString) X(clang_disposeString)      \
    X(clang_getCursorExtent) X(clang_getRangeStart) X(clang_getRangeEnd) X(clang_getExpansionLocation) \
    X(clang_getCursorLocation) X(clang_isCursorDefinition) X(clang_getCursorReferenced)               \
    X(clang_getCursorType) X(clang_getCanonicalType) X(clang_getPointeeType) X(clang_equalTypes)      \
    X(clang_Cursor_getNumArguments) X(clang_Cursor_getArgument) X(clang_tokenize)                     \
    X(clang_disposeTokens) X(clang_getTokenKind) X(clang_getTokenSpelling) X(clang_getTokenExtent)    \
    X(clang_getRange) X(clang_getLocationForOffset) X(clang_getFile) X(clang_getNumDiagnostics)       \
    X(clang_getDiagnostic) X(clang_disposeDiagnostic) X(clang_getDiagnosticSeverity)                  \
    X(clang_getDiagnosticSpelling) X(clang_getDiagnosticLocation) X(clang_getCursorSemanticParent)    \
    X(clang_Cursor_getStorageClass) X(clang_equalCursors) X(clang_isExpression) X(clang_isStatement)  \
    X(clang_File_isEqual) X(clang_Cursor_isNull)

typedef struct c_cx_api {
#define X(name) __typeof__(&name) name;
    CX_FUNCS(X)
#undef X
} c_cx_api;

/* Filled once c_libclang_load() has returned NULL; read-only after. */
extern c_cx_api c_cx;

/* Load libclang the first time it is asked for (any thread; once per
 * process). NULL when it is loaded; otherwise why not (a static string:
 * "libclang could not be loaded (...); install libclang-dev"). */
const char *c_libclang_load(void);
#endif

#endif
