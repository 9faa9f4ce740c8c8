/*
 * family.h — backend families (DESIGN §4): which classes of the scanned
 * tree are the backends of one interface, what the interface's boundaries
 * are, and which method each backend runs for each boundary. The coverage
 * matrix (matrix.h) draws one grid per family from this.
 *
 * Pipeline position: after the rules, inside the scan (phase 4). It reads
 * the class graph the scan built (every class of every module, lowered or
 * reused, with its bases resolved by name) and per method its name,
 * whether it is async, and two facts (FN_ABSTRACT, FN_DELEGATES); it never
 * reads syntax, and only ca_family_delegates() reads IR.
 *
 * What a family is, in the order they are found:
 *   1. declared: a class of the tree with its subclasses at any depth, or
 *      a typing.Protocol with the classes that define every public method
 *      it declares (subclasses or not). Its boundaries are the public async
 *      methods the base declares, and those that two or more of its
 *      backends define.
 *   2. implicit (duck-typed siblings), in a tree that declares no family:
 *      classes whose names end in the same word (`HarborProvider`,
 *      `LumenProvider`) and that define common public async methods, in two
 *      files or more; the boundaries are the methods two or more of them
 *      define. A tree that declares its interfaces has its families there;
 *      duck typing is how a tree without one has them.
 * A member is a backend unless it is abstract (a Protocol or ABC itself, an
 * @abstractmethod of its own, or an abstract method of its bases it leaves
 * unimplemented), a proxy (for most of the boundaries it has code of its
 * own for, two at least, that code only awaits a wrapped object's method
 * of the same name: a tracing wrapper), or private (its name starts with
 * `_`). A family needs two backends. A family most of whose backends (more
 * than half) belong to a larger one is folded into it (its boundaries join
 * the larger family's): a Protocol that an ABC's subclasses implement, an
 * abstract intermediate class, a capability protocol (`SupportsPty`) some
 * providers implement.
 *
 * Backend names: the class name without the words all the family's backends
 * share at its start and end (`DockerSandboxSession` → `docker`,
 * `UnixLocalSandboxSession` → `unix_local`), in snake case (a two-letter
 * acronym joins its neighbour: `SQLiteSession` → `sqlite`); a name that
 * comes out empty or taken twice falls back to the directory rule of
 * backend.h (dir_name). With configured backend globs (configured != 0),
 * a member whose file a glob maps takes that glob's name, and a member
 * whose file none maps is no backend: configuration defines the backends
 * wholly.
 *
 * Known problems: bases resolve by name (scan_find_class), so a base whose
 * name two classes of the tree share is not followed; the proxy rule is a
 * heuristic (a provider whose methods mostly hand the call to an SDK
 * object of the same method names reads as a proxy); a base method that
 * only raises NotImplementedError is no abstract method, so a subclass
 * without its own shows `inherited`, not `absent`; a two-letter acronym in
 * the middle of a name stays a word (`AdvancedSQLite` → `advanced_sq_lite`).
 *
 * Memory: everything in a ca_fam_set is heap-owned by it
 * (ca_fam_set_free); the input arrays are only read.
 */
#ifndef CA_FAMILY_H
#define CA_FAMILY_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* A class as the family builder sees it. */
typedef struct ca_fam_class {
    const char *name;        /* "DockerSandboxSession" */
    const char *qualname;    /* "Outer.Inner" for a nested class */
    const char *path;        /* its file, as discovery shows it */
    int line;
    unsigned flags;          /* CLASS_* (ir.h) */
    const int *bases;        /* its bases in the tree, as indices into the class array, in order */
    int nbases;
    int library_base;        /* a base outside the tree that is not a plain one: it may define
                                methods (and implement abstract ones) that the tree does not show */
    const char *dir_name;    /* the backend.h name of its file (marker directory or file stem) */
    const char *config_name; /* the configured backend its file maps to; NULL: none */
} ca_fam_class;

/* A method: a function defined directly in a class body. */
typedef struct ca_fam_method {
    int cls;                 /* index into the class array */
    const char *name;
    int is_async;
    uint64_t fflags;         /* FN_ABSTRACT, FN_DELEGATES (ir.h) */
    int id;                  /* the caller's id for it (a function index), handed back in impl */
} ca_fam_method;

typedef enum ca_fam_kind { CA_FAM_SUBCLASS = 0, CA_FAM_PROTOCOL, CA_FAM_IMPLICIT } ca_fam_kind;
/* "subclasses" / "protocol" / "duck-typed" */
const char *ca_fam_kind_name(ca_fam_kind k);

typedef enum ca_fam_role { CA_ROLE_BACKEND = 0, CA_ROLE_ABSTRACT, CA_ROLE_PROXY, CA_ROLE_PRIVATE } ca_fam_role;
/* "backend" / "abstract" / "proxy" / "private" */
const char *ca_fam_role_name(ca_fam_role r);

typedef struct ca_fam_member {
    int cls;                 /* class index */
    ca_fam_role role;
    char *backend;           /* the backend's name; NULL unless role is CA_ROLE_BACKEND */
} ca_fam_member;

typedef struct ca_fam {
    ca_fam_kind kind;
    char *name;              /* the base's name; "*Provider" for duck-typed siblings; unique in the set */
    int base;                /* class index of the base or protocol; -1 for duck-typed siblings */
    ca_fam_member *members;  /* the backends first, by name; then the other members, by class name */
    size_t nmembers, nbackends;
    char **boundaries;       /* by name */
    size_t nboundaries;
    /* [backend * nboundaries + boundary]: the id of the method the backend
     * runs for the boundary, or -1 (it has none: absent); inherited is 1
     * where that method is defined in another class than the backend's own */
    int *impl;
    unsigned char *inherited;
} ca_fam;

typedef struct ca_fam_set {
    ca_fam *v;               /* the largest grid first (backends × boundaries), then most backends */
    size_t n;
} ca_fam_set;

/* The families of a class graph, into *out (zeroed by the caller, or a set
 * freed before). configured: backend globs are configured (see above). */
void ca_families_find(const ca_fam_class *classes, size_t nclasses, const ca_fam_method *methods, size_t nmethods,
                      int configured, ca_fam_set *out);
void ca_fam_set_free(ca_fam_set *s);

/* Which backend the code of a function belongs to, given the class that
 * holds it (index, -1 for module-level code), its file and the file's
 * directory-rule name (backend.h): the backend a member class is (in the
 * first family that has it as a backend); else the one backend whose
 * member classes are defined in the same file; else the one whose classes'
 * files have the same directory-rule name in the same directory tree
 * (lumen/mounts.py beside lumen/provider.py); else none (NULL). The
 * string is the set's. */
const char *ca_families_owner(const ca_fam_set *s, const ca_fam_class *classes, size_t nclasses, int cls,
                              const char *path, const char *dir_name);

/* ca_families_owner for code outside any member class, asked for many
 * files: the members sorted by file and by directory-rule name once, so an
 * answer costs a binary search, not a walk over every member. Same answers
 * as ca_families_owner(s, classes, nclasses, -1, path, dir_name). */
typedef struct ca_fam_owner_index ca_fam_owner_index;
ca_fam_owner_index *ca_families_owner_index(const ca_fam_set *s, const ca_fam_class *classes, size_t nclasses);
const char *ca_families_owner_of_file(const ca_fam_owner_index *ix, const char *path, const char *dir_name);
void ca_families_owner_index_free(ca_fam_owner_index *ix);

/* A digest of everything ca_families_find reads: the class graph (names,
 * files, flags, resolved bases, the names it falls back to) and the
 * methods' names and facts. Equal digests give equal families. */
uint64_t ca_families_digest(const ca_fam_class *classes, size_t nclasses, const ca_fam_method *methods,
                            size_t nmethods, int configured);

/* FN_DELEGATES for f: f awaits a method of the same name on something held
 * by self (`await self._inner.exec(...)`) and acquires nothing itself. The
 * scan sets it on lowered functions; reused ones keep it in their facts. */
int ca_family_delegates(const ir_func *f);

/* The snake-case words of a class name: "E2BSandboxSession" → "e2b",
 * "sandbox", "session"; "HTTPServer" → "http", "server". Writes at most max
 * words as (start, length) pairs into the name; returns how many there are. */
size_t ca_family_words(const char *name, size_t *start, size_t *len, size_t max);

#endif
