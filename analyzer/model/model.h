/*
 * model.h — the results of a scan as every later stage sees them: files,
 * functions, findings, coverage cells and the scan's own metadata.
 *
 * This is the contract between the analysis (which fills a ca_results), the
 * store (which writes one and reads one back: store_load_scan) and the
 * reporters (which print one). Reporters never re-run analysis; they take a
 * ca_results that came either from the scan in memory or from the store.
 *
 * Ownership: every char* in these structs is a heap string owned by the
 * struct (NULL allowed where noted); ca_results_free() frees everything.
 * Lines and columns are 1-based; columns count Unicode code points.
 */
#ifndef CA_MODEL_H
#define CA_MODEL_H

#include <stddef.h>
#include <stdint.h>

typedef enum ca_severity { CA_SEV_ERROR = 0, CA_SEV_WARNING = 1, CA_SEV_NOTE = 2 } ca_severity;
const char *ca_severity_name(ca_severity s); /* "error" / "warning" / "note" */

/* How sure a finding is, from its evidence (rules/README.md says what each
 * rule's levels mean): high = catalogued resource or class, a checkpoint
 * that suspends; medium = a resource known by name or use, a catch-all
 * handler; low = a window that is latent today (an idle lock's acquire). */
typedef enum ca_confidence { CA_CONF_HIGH = 0, CA_CONF_MEDIUM = 1, CA_CONF_LOW = 2 } ca_confidence;
const char *ca_confidence_name(ca_confidence c); /* "high" / "medium" / "low" */
int ca_confidence_parse(const char *s, ca_confidence *out); /* 0, or -1 for an unknown word */

/* A handler (or finally) that is related evidence for a finding. */
typedef struct ca_handler_ref {
    int line;
    int column;
    char *catches; /* the exception expression as written: "Exception", "(TimeoutError, OSError)", "finally" */
} ca_handler_ref;

typedef struct ca_finding {
    char *rule;          /* "CAN101" */
    ca_severity severity;
    char *path;          /* relative to the current directory, as given to the scan */
    int line, column, end_line, end_column; /* primary location: first unprotected checkpoint */
    char *function;      /* __qualname__: "Class.method", "outer.<locals>.inner" */
    char *backend;       /* backend name (DESIGN §4) */
    char *resource;      /* source text of v */
    char *resource_kind; /* "session", "task", "process", "fd", "socket", "remote", "registry-entry", ... */
    int acquired_line, acquired_column;
    ca_handler_ref *handlers;
    size_t nhandlers;
    char *message;       /* one line */
    char *checkpoint;    /* normalized checkpoint source text (whitespace collapsed) */
    char *fingerprint;   /* 16 hex digits; stable across line shifts */
    ca_confidence confidence;
    int suppressed;      /* inline suppression on the flagged line */
    int baselined;       /* hidden: 1 = in the --baseline file, 2 = outside the lines changed since --changed-since */
    int64_t row_id;      /* the stored row it was read from (findings.id); 0 when not read from the store */
} ca_finding;

typedef enum ca_file_status {
    CA_FILE_ANALYZED = 0,  /* parsed (possibly with recovered syntax errors) and analysed */
    CA_FILE_SKIPPED = 1,   /* prefilter: no `async def`, cannot hold a finding */
    CA_FILE_ERROR = 2,     /* not analysed: unreadable, too large, not regular, too deep... */
    CA_FILE_CACHED = 3     /* unchanged since the last complete scan; results reused */
} ca_file_status;
const char *ca_file_status_name(ca_file_status s);

typedef struct ca_file_rec {
    char *path;
    int64_t size;
    int64_t mtime_ns;
    char *hash;          /* content hash, 16 hex digits; NULL when not read */
    int parse_errors;    /* number of ERROR/MISSING nodes */
    double parse_ms;
    ca_file_status status;
    char *diagnostic;    /* NULL, or a one-line message for stderr and the store */
    char *backend;
    char *language;      /* "python" or "c" */
    char *deps;          /* incremental cache: what the file's analysis read from other files
                          * (scan.c's format); NULL when not recorded */
} ca_file_rec;

typedef struct ca_function_rec {
    char *path;
    char *qualname;
    char *name;          /* last component */
    char *class_name;    /* NULL for module-level functions */
    int line, end_line;
    int is_async;
    char *backend;
    int ordinal;         /* position among its file's functions, in lowering order */
    char *facts;         /* incremental cache: summary and matrix facts (scan.c's format); NULL when
                          * not recorded */
} ca_function_rec;

/* One matrix cell (DESIGN §4). */
typedef struct ca_coverage {
    char *family;        /* the family's name (ca_family.name); NULL in scans stored before families */
    char *backend;
    char *boundary;
    char *status;        /* "gap" | "covered" | "no-window" | "inherited" | "absent" */
    char *rules;         /* "CAN101,CAN102" for gaps (and inherited code with gaps), "" otherwise */
    char *protection;    /* "except BaseException + shield", ..., "" when not covered */
    char *path;          /* file holding the method (for inherited: the other class's); NULL when absent */
    char *function;      /* qualname; NULL when absent */
    int line;            /* the method's line, or the first gap line; 0 when absent */
    char *lines;         /* gap lines "14,17" ; "" otherwise */
} ca_coverage;

/* A class of a family (DESIGN §4): a backend, or a member that is none. */
typedef struct ca_family_member {
    char *backend;       /* the backend's name; NULL when the class is no backend */
    char *class_name;    /* its qualname; NULL for backends by directory or configuration */
    char *path;          /* its file; NULL as class_name */
    int line;
    char *role;          /* "backend" | "abstract" | "proxy" | "private" */
} ca_family_member;

/* A family of backends: the implementations of one base class or protocol,
 * duck-typed siblings, or (a tree without either) backends by directory or
 * configuration. Its cells are the coverage cells that name it. */
typedef struct ca_family {
    char *name;          /* "BaseSandboxSession", "*Provider", "directories", "configured" */
    char *kind;          /* "subclasses" | "protocol" | "duck-typed" | "directory" | "configured" */
    char *base;          /* the base's qualname; NULL for the other kinds */
    char *path;          /* the base's file; NULL as base */
    int line;
    ca_family_member *members; /* backends first, by name */
    size_t nmembers;
} ca_family;

/* A directory as the scan's walk listed it: what lets the next scan take
 * an unchanged directory's entries without reading it (scan.c). */
typedef struct ca_dir_rec {
    char *path;
    int64_t mtime_ns;    /* of the directory when it was listed */
    char *entries;       /* per entry: its d_type byte, its name, a NUL */
    size_t len;          /* bytes in entries */
} ca_dir_rec;

typedef struct ca_scan_meta {
    int64_t id;          /* 0 when not stored (--no-db) */
    char *started;       /* ISO-8601 UTC */
    char *finished;
    char *root;          /* absolute path of the first scanned path's directory */
    char *git_rev;       /* NULL outside a git checkout */
    char *version;
    char *args;          /* the command line, space-joined */
    char *status;        /* "running" | "complete" | "partial" */
    char *cache_key;     /* digest of everything besides the files that results depend on (tool
                          * build, catalog, options); a rescan reuses only a scan with the same key */
    int files_scanned;   /* analysed + cached */
    int files_skipped;   /* prefilter */
    int errors;          /* files with a diagnostic that kept them from analysis */
    int baselined;       /* findings hidden by --baseline */
    int64_t rows_of;     /* the scan whose stored rows are these results (store.h): set by a rescan
                          * in which nothing changed; 0 = the scan's own rows */
    char *tree_digest;   /* the tree as the scan found it: every file's path, size, mtime, language and
                          * backend; NULL when its results cannot be reused whole (scan.c) */
    char *class_digest;  /* the class graph the families were found in (family.h); NULL: not recorded */
} ca_scan_meta;

typedef struct ca_results {
    ca_scan_meta scan;
    /* every file of the scan; only those with a diagnostic when the results
     * are a rescan's in which nothing changed (scan.rows_of: the store holds
     * all of them) */
    ca_file_rec *files;       size_t nfiles;
    ca_function_rec *functions; size_t nfunctions;
    ca_finding *findings;     size_t nfindings;
    ca_coverage *coverage;    size_t ncoverage;
    ca_family *families;      size_t nfamilies; /* in the order the matrix draws them: largest first */
    ca_dir_rec *dirs;         size_t ndirs;    /* the directories walked, by path */
    int stored_parts;         /* the scan wrote files and dirs into an open transaction (scan.h's sink) */
} ca_results;

void ca_results_free(ca_results *r);
void ca_finding_free(ca_finding *f);
/* Deep copies, for moving a finding or cell between result sets. */
void ca_finding_copy(ca_finding *dst, const ca_finding *src);
void ca_coverage_copy(ca_coverage *dst, const ca_coverage *src);
void ca_family_free(ca_family *f);

/* Stable output order: findings by path, line, column, rule (then function,
 * resource); cells by family, boundary, backend. Families keep theirs. */
void ca_results_sort(ca_results *r);

/* Tool version string, e.g. "0.1.0". */
extern const char ca_version[];
/* What this build parses Python with: the tree-sitter-python grammar's
 * version and ABI and the tree-sitter library's version, e.g.
 * "tree-sitter-python 0.23.6 (ABI 14), tree-sitter 0.20.7". */
extern const char ca_parser_version[];

#endif
