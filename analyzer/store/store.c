/*
 * store.c — the SQLite system of record (store.h, DESIGN §5).
 *
 * The folder: store/ is where scans are kept and read back: store.c the
 * schema, migrations and rows; diff.c two scans compared by fingerprint;
 * merge.c the stores of sharded scans made one.
 *
 * One connection per ca_store. Schema changes are numbered migrations keyed
 * by PRAGMA user_version; PRAGMA application_id marks the file as ours so a
 * stray --db never writes tables into another program's database. Every
 * value travels as a bound parameter; the only SQL text built at run time is
 * the user_version pragma, from a compile-time constant.
 *
 * Status on disk is `running` or `complete`. `partial` is never stored: it is
 * what a `running` row reads as once its process cannot be alive any more
 * (gone, another host, another boot), computed each time a row is read.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "store/store.h"
#include "store/store_internal.h"
#include "model/cache.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define STORE_APPLICATION_ID 0x43417564 /* "CAud" */
#define STORE_BUSY_MS 10000

struct ca_store {
    sqlite3 *db;
    pthread_t checkpointer; /* store_checkpoint_start's thread, joined by store_close */
    int checkpointing;
    char *path;
    char *host;    /* this machine's name, to tell whether a running scan's pid means anything here */
    char *boot_id; /* this boot's id (Linux); pids do not survive a reboot */
};

/* migrations[i] takes a database from user_version i to i + 1. */
static const char *const migrations[STORE_SCHEMA_VERSION] = {
    "CREATE TABLE scans ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " started TEXT NOT NULL,"
    " started_ns INTEGER,"
    " finished TEXT,"
    " root TEXT,"
    " git_rev TEXT,"
    " version TEXT NOT NULL,"
    " args TEXT,"
    " status TEXT NOT NULL CHECK (status IN ('running', 'complete')),"
    " pid INTEGER,"
    " host TEXT,"
    " boot_id TEXT,"
    " files_scanned INTEGER NOT NULL DEFAULT 0,"
    " files_skipped INTEGER NOT NULL DEFAULT 0,"
    " errors INTEGER NOT NULL DEFAULT 0,"
    " baselined INTEGER NOT NULL DEFAULT 0,"
    " findings_count INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE files ("
    " id INTEGER PRIMARY KEY,"
    " scan_id INTEGER NOT NULL REFERENCES scans(id) ON DELETE CASCADE,"
    " path TEXT NOT NULL, size INTEGER, mtime_ns INTEGER, hash TEXT,"
    " parse_errors INTEGER, parse_ms REAL, status TEXT NOT NULL, diagnostic TEXT,"
    " backend TEXT, language TEXT);"
    "CREATE INDEX files_scan_path ON files(scan_id, path);"
    "CREATE TABLE functions ("
    " id INTEGER PRIMARY KEY,"
    " scan_id INTEGER NOT NULL REFERENCES scans(id) ON DELETE CASCADE,"
    " path TEXT NOT NULL, qualname TEXT NOT NULL, name TEXT, class_name TEXT,"
    " line INTEGER, end_line INTEGER, is_async INTEGER NOT NULL DEFAULT 0, backend TEXT);"
    "CREATE INDEX functions_scan_path ON functions(scan_id, path);"
    "CREATE TABLE findings ("
    " id INTEGER PRIMARY KEY,"
    " scan_id INTEGER NOT NULL REFERENCES scans(id) ON DELETE CASCADE,"
    " rule TEXT NOT NULL,"
    " severity TEXT NOT NULL CHECK (severity IN ('error', 'warning', 'note')),"
    " path TEXT NOT NULL, line INTEGER, \"column\" INTEGER, end_line INTEGER, end_column INTEGER,"
    " function TEXT, backend TEXT, resource TEXT, resource_kind TEXT,"
    " acquired_line INTEGER, acquired_column INTEGER, message TEXT, checkpoint TEXT,"
    " fingerprint TEXT, suppressed INTEGER NOT NULL DEFAULT 0, baselined INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX findings_scan_path ON findings(scan_id, path);"
    "CREATE INDEX findings_scan_fingerprint ON findings(scan_id, fingerprint);"
    "CREATE INDEX findings_scan_rule ON findings(scan_id, rule);"
    "CREATE TABLE finding_handlers ("
    " finding_id INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,"
    " ord INTEGER NOT NULL, line INTEGER, \"column\" INTEGER, catches TEXT,"
    " PRIMARY KEY (finding_id, ord));"
    "CREATE TABLE coverage ("
    " id INTEGER PRIMARY KEY,"
    " scan_id INTEGER NOT NULL REFERENCES scans(id) ON DELETE CASCADE,"
    " backend TEXT NOT NULL, boundary TEXT NOT NULL, status TEXT NOT NULL,"
    " rules TEXT, protection TEXT, path TEXT, function TEXT, line INTEGER, lines TEXT);"
    "CREATE INDEX coverage_scan ON coverage(scan_id, boundary, backend);"
    "CREATE VIEW latest_scan AS"
    " SELECT * FROM scans WHERE status = 'complete' ORDER BY id DESC LIMIT 1;"
    "CREATE VIEW latest_files AS"
    " SELECT * FROM files WHERE scan_id = (SELECT id FROM latest_scan);"
    "CREATE VIEW latest_functions AS"
    " SELECT * FROM functions WHERE scan_id = (SELECT id FROM latest_scan);"
    "CREATE VIEW latest_findings AS"
    " SELECT * FROM findings WHERE scan_id = (SELECT id FROM latest_scan);"
    "CREATE VIEW latest_coverage AS"
    " SELECT * FROM coverage WHERE scan_id = (SELECT id FROM latest_scan);",
    /* 2: what incremental rescans need (DESIGN §9): the scan's cache key,
     * per file what its analysis read from other files, per function its
     * order in the file and its summary and matrix facts. */
    "ALTER TABLE scans ADD COLUMN cache_key TEXT;"
    "ALTER TABLE files ADD COLUMN deps TEXT;"
    "ALTER TABLE functions ADD COLUMN ordinal INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE functions ADD COLUMN facts TEXT;",
    /* 3: a rescan in which nothing changed shares the rows of the scan it
     * reused (scans.rows_of) instead of writing a copy of them; what differs
     * per scan among shared rows, a finding's baselined flag, is kept in
     * finding_flags. The scan_* views read any scan through rows_of, and
     * the latest_* views are the scan_* views of the latest complete scan. */
    "ALTER TABLE scans ADD COLUMN rows_of INTEGER REFERENCES scans(id);"
    "ALTER TABLE scans ADD COLUMN tree_digest TEXT;"
    /* the directory listings a scan's walk made, one blob per scan
     * (cache.h's ca_dirs_encode): what lets the next scan skip reading the
     * directories that did not change */
    "CREATE TABLE dir_index ("
    " scan_id INTEGER PRIMARY KEY REFERENCES scans(id) ON DELETE CASCADE,"
    " listings BLOB NOT NULL);"
    "CREATE TABLE finding_flags ("
    " scan_id INTEGER NOT NULL REFERENCES scans(id) ON DELETE CASCADE,"
    " finding_id INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,"
    " baselined INTEGER NOT NULL,"
    " PRIMARY KEY (scan_id, finding_id)) WITHOUT ROWID;"
    "DROP VIEW latest_files; DROP VIEW latest_functions; DROP VIEW latest_findings; DROP VIEW latest_coverage;"
    /* files and functions are keyed by what they are looked up by: one
     * b-tree per table instead of a table and an index (a scan writes a row
     * per file of the tree); rows of schema 1 get the ordinals they lacked */
    "CREATE TABLE files3 ("
    " scan_id INTEGER NOT NULL REFERENCES scans(id) ON DELETE CASCADE,"
    " path TEXT NOT NULL, size INTEGER, mtime_ns INTEGER, hash TEXT,"
    " parse_errors INTEGER, parse_ms REAL, status TEXT NOT NULL, diagnostic TEXT,"
    " backend TEXT, language TEXT, deps TEXT,"
    " PRIMARY KEY (scan_id, path)) WITHOUT ROWID;"
    "INSERT OR IGNORE INTO files3 SELECT scan_id, path, size, mtime_ns, hash, parse_errors, parse_ms, status,"
    " diagnostic, backend, language, deps FROM files ORDER BY id;"
    "DROP TABLE files; ALTER TABLE files3 RENAME TO files;"
    /* the few files a rescan in which nothing changed reports again */
    "CREATE INDEX files_diagnosed ON files(scan_id) WHERE diagnostic IS NOT NULL;"
    "CREATE TABLE functions3 ("
    " scan_id INTEGER NOT NULL REFERENCES scans(id) ON DELETE CASCADE,"
    " path TEXT NOT NULL, ordinal INTEGER NOT NULL, qualname TEXT NOT NULL, name TEXT, class_name TEXT,"
    " line INTEGER, end_line INTEGER, is_async INTEGER NOT NULL DEFAULT 0, backend TEXT, facts TEXT,"
    " PRIMARY KEY (scan_id, path, ordinal)) WITHOUT ROWID;"
    "INSERT OR IGNORE INTO functions3 SELECT scan_id, path,"
    " CASE WHEN facts IS NULL THEN row_number() OVER (PARTITION BY scan_id, path ORDER BY id) - 1 ELSE ordinal END,"
    " qualname, name, class_name, line, end_line, is_async, backend, facts FROM functions ORDER BY id;"
    "DROP TABLE functions; ALTER TABLE functions3 RENAME TO functions;"
    /* in a scan that shares rows, every file analysed for them was reused */
    "CREATE VIEW scan_files AS"
    " SELECT s.id AS scan_id, f.path, f.size, f.mtime_ns, f.hash, f.parse_errors,"
    " CASE WHEN s.rows_of IS NULL THEN f.parse_ms ELSE 0 END AS parse_ms,"
    " CASE WHEN s.rows_of IS NOT NULL AND f.status = 'analyzed' THEN 'cached' ELSE f.status END AS status,"
    " f.diagnostic, f.backend, f.language, f.deps"
    " FROM scans s JOIN files f ON f.scan_id = coalesce(s.rows_of, s.id);"
    "CREATE VIEW scan_functions AS"
    " SELECT s.id AS scan_id, f.path, f.ordinal, f.qualname, f.name, f.class_name, f.line, f.end_line,"
    " f.is_async, f.backend, f.facts"
    " FROM scans s JOIN functions f ON f.scan_id = coalesce(s.rows_of, s.id);"
    "CREATE VIEW scan_findings AS"
    " SELECT s.id AS scan_id, f.id AS finding_id, f.rule, f.severity, f.path, f.line, f.\"column\", f.end_line,"
    " f.end_column, f.function, f.backend, f.resource, f.resource_kind, f.acquired_line, f.acquired_column,"
    " f.message, f.checkpoint, f.fingerprint, f.suppressed,"
    " CASE WHEN s.rows_of IS NULL THEN f.baselined ELSE coalesce(g.baselined, 0) END AS baselined"
    " FROM scans s JOIN findings f ON f.scan_id = coalesce(s.rows_of, s.id)"
    " LEFT JOIN finding_flags g ON g.scan_id = s.id AND g.finding_id = f.id;"
    "CREATE VIEW scan_coverage AS"
    " SELECT s.id AS scan_id, c.id AS cell_id, c.backend, c.boundary, c.status, c.rules, c.protection, c.path,"
    " c.function, c.line, c.lines"
    " FROM scans s JOIN coverage c ON c.scan_id = coalesce(s.rows_of, s.id);"
    "CREATE VIEW latest_files AS SELECT * FROM scan_files WHERE scan_id = (SELECT id FROM latest_scan);"
    "CREATE VIEW latest_functions AS SELECT * FROM scan_functions WHERE scan_id = (SELECT id FROM latest_scan);"
    "CREATE VIEW latest_findings AS SELECT * FROM scan_findings WHERE scan_id = (SELECT id FROM latest_scan);"
    "CREATE VIEW latest_coverage AS SELECT * FROM scan_coverage WHERE scan_id = (SELECT id FROM latest_scan);",
    /* 4: backend families (DESIGN §4). A cell names its family; a family
     * row says what it is (the base class, a protocol, duck-typed siblings,
     * or the directory rule), and its members which classes are backends
     * and which are not (abstract, proxy, private). The scan records the
     * digest of the class graph the families were found in. Cells of older
     * scans name no family: they read as one matrix, as they were drawn. */
    "ALTER TABLE scans ADD COLUMN class_digest TEXT;"
    "ALTER TABLE coverage ADD COLUMN family TEXT;"
    "CREATE TABLE families ("
    " scan_id INTEGER NOT NULL REFERENCES scans(id) ON DELETE CASCADE,"
    " ord INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, base TEXT, path TEXT, line INTEGER,"
    " PRIMARY KEY (scan_id, ord)) WITHOUT ROWID;"
    "CREATE TABLE family_members ("
    " scan_id INTEGER NOT NULL REFERENCES scans(id) ON DELETE CASCADE,"
    " family INTEGER NOT NULL, ord INTEGER NOT NULL, backend TEXT, class TEXT, path TEXT, line INTEGER,"
    " role TEXT NOT NULL,"
    " PRIMARY KEY (scan_id, family, ord)) WITHOUT ROWID;"
    "DROP VIEW latest_coverage; DROP VIEW scan_coverage;"
    "CREATE VIEW scan_coverage AS"
    " SELECT s.id AS scan_id, c.id AS cell_id, c.family, c.backend, c.boundary, c.status, c.rules, c.protection,"
    " c.path, c.function, c.line, c.lines"
    " FROM scans s JOIN coverage c ON c.scan_id = coalesce(s.rows_of, s.id);"
    "CREATE VIEW scan_families AS"
    " SELECT s.id AS scan_id, f.ord, f.name, f.kind, f.base, f.path, f.line"
    " FROM scans s JOIN families f ON f.scan_id = coalesce(s.rows_of, s.id);"
    "CREATE VIEW scan_family_members AS"
    " SELECT s.id AS scan_id, f.name AS family, m.ord, m.backend, m.class, m.path, m.line, m.role"
    " FROM scans s JOIN families f ON f.scan_id = coalesce(s.rows_of, s.id)"
    " JOIN family_members m ON m.scan_id = f.scan_id AND m.family = f.ord;"
    "CREATE VIEW latest_coverage AS SELECT * FROM scan_coverage WHERE scan_id = (SELECT id FROM latest_scan);"
    "CREATE VIEW latest_families AS SELECT * FROM scan_families WHERE scan_id = (SELECT id FROM latest_scan);"
    "CREATE VIEW latest_family_members AS"
    " SELECT * FROM scan_family_members WHERE scan_id = (SELECT id FROM latest_scan);",
    /* 5: what a finding is (issues 13 and 18). A finding carries its
     * confidence (NULL in older rows: read as high). The resources whose
     * windows open at one checkpoint are one finding: finding_resources
     * lists them, each with the fingerprint a finding of it alone had
     * (rule + path + function + resource + checkpoint, the fingerprint of
     * schema 4 and before), its alias, which baselines, diffs and reports
     * made before still match; scan_fingerprint_aliases reads them by scan.
     * Findings of older scans have no rows here: each is its own resource,
     * and its fingerprint is that resource's. */
    "ALTER TABLE findings ADD COLUMN confidence TEXT CHECK (confidence IN ('high', 'medium', 'low'));"
    "CREATE TABLE finding_resources ("
    " finding_id INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,"
    " ord INTEGER NOT NULL, resource TEXT NOT NULL, resource_kind TEXT, acquired_line INTEGER,"
    " acquired_column INTEGER, alias TEXT,"
    " PRIMARY KEY (finding_id, ord)) WITHOUT ROWID;"
    "CREATE INDEX finding_resources_alias ON finding_resources(alias) WHERE alias IS NOT NULL;"
    "DROP VIEW latest_findings; DROP VIEW scan_findings;"
    "CREATE VIEW scan_findings AS"
    " SELECT s.id AS scan_id, f.id AS finding_id, f.rule, f.severity, f.path, f.line, f.\"column\", f.end_line,"
    " f.end_column, f.function, f.backend, f.resource, f.resource_kind, f.acquired_line, f.acquired_column,"
    " f.message, f.checkpoint, f.fingerprint, f.suppressed,"
    " CASE WHEN s.rows_of IS NULL THEN f.baselined ELSE coalesce(g.baselined, 0) END AS baselined,"
    " coalesce(f.confidence, 'high') AS confidence"
    " FROM scans s JOIN findings f ON f.scan_id = coalesce(s.rows_of, s.id)"
    " LEFT JOIN finding_flags g ON g.scan_id = s.id AND g.finding_id = f.id;"
    "CREATE VIEW latest_findings AS SELECT * FROM scan_findings WHERE scan_id = (SELECT id FROM latest_scan);"
    "CREATE VIEW scan_fingerprint_aliases AS"
    " SELECT s.id AS scan_id, f.id AS finding_id, f.fingerprint, r.ord, r.resource, r.alias"
    " FROM scans s JOIN findings f ON f.scan_id = coalesce(s.rows_of, s.id)"
    " JOIN finding_resources r ON r.finding_id = f.id WHERE r.alias IS NOT NULL;"
    "CREATE VIEW latest_fingerprint_aliases AS"
    " SELECT * FROM scan_fingerprint_aliases WHERE scan_id = (SELECT id FROM latest_scan);",
};

/* ---- errors ----------------------------------------------------------- */

static int set_err(char **err, char *msg)
{
    if (err) *err = msg;
    else free(msg);
    return -1;
}

/* "database PATH: WHAT: sqlite's reason". Call before anything resets the
 * connection's error state (sqlite3_reset, another statement). */
static int db_err(const ca_store *st, char **err, const char *what)
{
    return set_err(err, ca_xasprintf("database %s: %s: %s", st->path, what, sqlite3_errmsg(st->db)));
}

static int exec_sql(ca_store *st, const char *sql, const char *what, char **err)
{
    if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK) return db_err(st, err, what);
    return 0;
}

static void rollback_open_transaction(ca_store *st)
{
    if (!sqlite3_get_autocommit(st->db)) sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

static int prepare(ca_store *st, const char *sql, sqlite3_stmt **out, char **err)
{
    if (sqlite3_prepare_v2(st->db, sql, -1, out, NULL) != SQLITE_OK) {
        *out = NULL;
        return db_err(st, err, "cannot prepare a statement");
    }
    return 0;
}

/* ---- binding and reading ---------------------------------------------- */

/* Binds parameters 1, 2, 3... in order and remembers the first failure, so
 * an INSERT reads as its column list and is checked once, at the step. */
typedef struct binder {
    sqlite3_stmt *stmt;
    int next;
    int rc;
} binder;

static binder bind_start(sqlite3_stmt *stmt)
{
    binder b = { stmt, 1, SQLITE_OK };
    return b;
}

static void bind_note(binder *b, int rc)
{
    if (b->rc == SQLITE_OK) b->rc = rc;
    b->next++;
}

/* Strings are bound SQLITE_STATIC: they outlive the step, and run_bound
 * clears the bindings before the caller can free them. */
static void bind_str(binder *b, const char *v)
{
    bind_note(b, v ? sqlite3_bind_text(b->stmt, b->next, v, -1, SQLITE_STATIC)
                   : sqlite3_bind_null(b->stmt, b->next));
}

static void bind_i64(binder *b, int64_t v) { bind_note(b, sqlite3_bind_int64(b->stmt, b->next, v)); }

static void bind_dbl(binder *b, double v) { bind_note(b, sqlite3_bind_double(b->stmt, b->next, v)); }

/* Step a bound write statement to completion and ready it for the next row. */
static int run_bound(ca_store *st, binder *b, const char *what, char **err)
{
    int rc = b->rc == SQLITE_OK ? sqlite3_step(b->stmt) : b->rc;
    int ret = rc == SQLITE_DONE ? 0 : db_err(st, err, what);
    sqlite3_reset(b->stmt);
    sqlite3_clear_bindings(b->stmt);
    return ret;
}

static char *col_str(sqlite3_stmt *s, int i)
{
    const unsigned char *t = sqlite3_column_text(s, i);
    if (!t) return NULL;
    return ca_xstrndup((const char *)t, (size_t)sqlite3_column_bytes(s, i));
}

static int col_int(sqlite3_stmt *s, int i) { return sqlite3_column_int(s, i); }

static ca_severity parse_severity(const char *name)
{
    for (int i = CA_SEV_ERROR; i <= CA_SEV_NOTE; i++)
        if (name && strcmp(name, ca_severity_name((ca_severity)i)) == 0) return (ca_severity)i;
    return CA_SEV_WARNING;
}

static ca_file_status parse_file_status(const char *name)
{
    for (int i = CA_FILE_ANALYZED; i <= CA_FILE_CACHED; i++)
        if (name && strcmp(name, ca_file_status_name((ca_file_status)i)) == 0) return (ca_file_status)i;
    return CA_FILE_ERROR;
}

/* ---- the scan row's liveness ----------------------------------------- */

static char *current_host(void)
{
    char buf[256];
    if (gethostname(buf, sizeof buf) != 0) return NULL;
    buf[sizeof buf - 1] = 0;
    return buf[0] ? ca_xstrdup(buf) : NULL;
}

static char *current_boot_id(void)
{
    char *text;
    size_t len;
    if (ca_read_file("/proc/sys/kernel/random/boot_id", &text, &len) != 0) return NULL;
    while (len && (text[len - 1] == '\n' || text[len - 1] == ' ')) text[--len] = 0;
    if (!len) {
        free(text);
        return NULL;
    }
    return text;
}

static int64_t realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* What a stored row's status means now: a `running` row whose writer cannot
 * be alive any more is `partial`. */
static const char *effective_status(const ca_store *st, const char *status, int64_t pid,
                                    const char *host, const char *boot_id)
{
    if (!status || strcmp(status, "running") != 0) return status ? status : "partial";
    if (host && st->host && strcmp(host, st->host) != 0) return "partial";
    if (boot_id && st->boot_id && strcmp(boot_id, st->boot_id) != 0) return "partial";
    if (pid <= 0 || pid > INT_MAX) return "partial";
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) return "partial";
    return "running";
}

/* ---- opening ---------------------------------------------------------- */

static int mkdir_p(char *dir, char **err)
{
    for (char *p = dir + 1;; p++) {
        if (*p != '/' && *p != 0) continue;
        char saved = *p;
        *p = 0;
        struct stat sb;
        int bad = p[-1] != '/' && mkdir(dir, 0777) != 0 && errno != EEXIST;
        int e = errno;
        if (bad && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode)) bad = 0; /* e.g. EACCES on a parent we may not write */
        if (bad) {
            set_err(err, ca_xasprintf("cannot create directory %s: %s", dir, strerror(e)));
            *p = saved;
            return -1;
        }
        *p = saved;
        if (!saved) break;
    }
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return set_err(err, ca_xasprintf("cannot use %s as the database directory: not a directory", dir));
    return 0;
}

/* Scanning must never dirty the user's repository: our own folder ignores
 * itself. */
static int write_gitignore(const char *dir, char **err)
{
    const char *base = strrchr(dir, '/');
    base = base ? base + 1 : dir;
    if (strcmp(base, ".cancelaudit") != 0) return 0;
    char *gi = ca_xasprintf("%s/.gitignore", dir);
    int ret = 0;
    int fd = open(gi, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        if (errno != EEXIST) ret = set_err(err, ca_xasprintf("cannot create %s: %s", gi, strerror(errno)));
    } else {
        static const char body[] = "*\n";
        ssize_t w = write(fd, body, sizeof body - 1);
        int e = errno;
        if (close(fd) != 0 && w >= 0) {
            w = -1;
            e = errno;
        }
        if (w != (ssize_t)(sizeof body - 1))
            ret = set_err(err, ca_xasprintf("cannot write %s: %s", gi, w < 0 ? strerror(e) : "short write"));
    }
    free(gi);
    return ret;
}

static int prepare_parent(const char *path, char **err)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return 0;
    size_t n = (size_t)(slash - path);
    while (n > 0 && path[n - 1] == '/') n--;
    if (n == 0) return 0; /* the root directory */
    char *dir = ca_xstrndup(path, n);
    int ret = mkdir_p(dir, err);
    if (ret == 0) ret = write_gitignore(dir, err);
    free(dir);
    if (ret != 0 && err && *err) { /* every error of the store names the database first */
        char *msg = ca_xasprintf("database %s: %s", path, *err);
        free(*err);
        *err = msg;
    }
    return ret;
}

static int pragma_int(ca_store *st, const char *sql, int *out, char **err)
{
    sqlite3_stmt *s;
    if (prepare(st, sql, &s, err)) return -1;
    int rc = sqlite3_step(s);
    int ret = 0;
    if (rc == SQLITE_ROW) *out = sqlite3_column_int(s, 0);
    else ret = db_err(st, err, "cannot read the database header");
    sqlite3_finalize(s);
    return ret;
}

static int refuse_foreign(ca_store *st, char **err)
{
    return set_err(err, ca_xasprintf("database %s is not a cancelaudit database; choose another --db", st->path));
}

/* Refuse what is not ours or too new; otherwise bring the schema up to date. */
static int check_and_migrate(ca_store *st, char **err)
{
    int version, app_id, objects;
    if (pragma_int(st, "PRAGMA user_version", &version, err) ||
        pragma_int(st, "PRAGMA application_id", &app_id, err))
        return -1;
    if (app_id != 0 && app_id != STORE_APPLICATION_ID) return refuse_foreign(st, err);
    if (version > STORE_SCHEMA_VERSION)
        return set_err(err, ca_xasprintf("database %s: database schema version %d is newer than this cancelaudit "
                                         "supports (%d); upgrade cancelaudit or use another --db",
                                         st->path, version, STORE_SCHEMA_VERSION));
    if (pragma_int(st, "SELECT count(*) FROM sqlite_master", &objects, err)) return -1;
    if (app_id == 0 && (version != 0 || objects != 0)) return refuse_foreign(st, err);

    /* WAL fails on some file systems and for read-only files; the rollback
     * journal still works there, so its failure is not fatal. */
    sqlite3_exec(st->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
    /* Checkpoints are the writer's business (store_checkpoint_start), not a
     * side effect of whichever commit crosses the threshold. */
    if (exec_sql(st, "PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=0",
                 "cannot set up the connection", err))
        return -1;
    if (version == STORE_SCHEMA_VERSION) return 0;

    if (exec_sql(st, "BEGIN IMMEDIATE", "cannot lock the database to create its schema", err)) return -1;
    /* Another process may have created the schema while we waited. */
    if (pragma_int(st, "PRAGMA user_version", &version, err)) goto fail;
    for (; version < STORE_SCHEMA_VERSION; version++)
        if (exec_sql(st, migrations[version], "cannot create the schema", err)) goto fail;
    char *stamp = ca_xasprintf("PRAGMA user_version=%d; PRAGMA application_id=%d",
                               STORE_SCHEMA_VERSION, STORE_APPLICATION_ID);
    int rc = exec_sql(st, stamp, "cannot record the schema version", err);
    free(stamp);
    if (rc || exec_sql(st, "COMMIT", "cannot commit the schema", err)) goto fail;
    return 0;
fail:
    rollback_open_transaction(st);
    return -1;
}

int store_open(const char *path, ca_store **out, char **err)
{
    *out = NULL;
    int in_memory = path[0] == 0 || strcmp(path, ":memory:") == 0;
    if (!in_memory && prepare_parent(path, err) != 0) return -1;

    ca_store *st = ca_xcalloc(1, sizeof *st);
    st->path = ca_xstrdup(path);
    st->host = current_host();
    st->boot_id = current_boot_id();
    if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        if (st->db) db_err(st, err, "cannot open");
        else set_err(err, ca_xasprintf("database %s: cannot open: out of memory", path));
        store_close(st);
        return -1;
    }
    sqlite3_busy_timeout(st->db, STORE_BUSY_MS);
    if (check_and_migrate(st, err) != 0) {
        store_close(st);
        return -1;
    }
    *out = st;
    return 0;
}

static void *checkpoint_main(void *arg)
{
    ca_store *st = arg;
    /* PASSIVE: never waits for readers or writers of other processes; what
     * it cannot copy now the next checkpoint (or the last close) copies */
    sqlite3_wal_checkpoint_v2(st->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    return NULL;
}

void store_checkpoint_start(ca_store *st)
{
    if (!st || st->checkpointing) return;
    st->checkpointing = pthread_create(&st->checkpointer, NULL, checkpoint_main, st) == 0;
    if (!st->checkpointing) checkpoint_main(st);
}

void store_close(ca_store *st)
{
    if (!st) return;
    if (st->checkpointing) pthread_join(st->checkpointer, NULL);
    sqlite3_close_v2(st->db);
    free(st->path);
    free(st->host);
    free(st->boot_id);
    free(st);
}

sqlite3 *store_sqlite(ca_store *st) { return st->db; }
const char *store_path(const ca_store *st) { return st->path; }
const char *store_host(const ca_store *st) { return st->host; }
const char *store_boot_id(const ca_store *st) { return st->boot_id; }

/* ---- writing ---------------------------------------------------------- */

int store_begin_scan(ca_store *st, ca_scan_meta *meta, char **err)
{
    if (!meta->started) {
        char now[32];
        ca_iso_now(now, sizeof now);
        meta->started = ca_xstrdup(now);
    }
    if (!meta->version) meta->version = ca_xstrdup(ca_version);

    sqlite3_stmt *s;
    if (prepare(st, "INSERT INTO scans(started, started_ns, root, git_rev, version, args, status, pid, host, boot_id)"
                    " VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?)", &s, err))
        return -1;
    binder b = bind_start(s);
    bind_str(&b, meta->started);
    bind_i64(&b, realtime_ns());
    bind_str(&b, meta->root);
    bind_str(&b, meta->git_rev);
    bind_str(&b, meta->version);
    bind_str(&b, meta->args);
    bind_i64(&b, (int64_t)getpid());
    bind_str(&b, st->host);
    bind_str(&b, st->boot_id);
    int ret = run_bound(st, &b, "cannot record the scan", err);
    sqlite3_finalize(s);
    if (ret) return -1;
    meta->id = sqlite3_last_insert_rowid(st->db);
    free(meta->status);
    meta->status = ca_xstrdup("running");
    return 0;
}

enum {
    W_CHECK, W_FILE, W_FUNCTION, W_FINDING, W_HANDLER, W_RESOURCE, W_COVERAGE, W_FAMILY, W_MEMBER, W_FINISH,
    W_SHARE_CHECK, W_FLAG, W_DIR, W_COUNT
};

static const char *const write_sql[W_COUNT] = {
    [W_CHECK] = "SELECT status FROM scans WHERE id = ?",
    [W_FILE] = "INSERT INTO files(scan_id, path, size, mtime_ns, hash, parse_errors, parse_ms, status,"
               " diagnostic, backend, language, deps) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [W_FUNCTION] = "INSERT INTO functions(scan_id, path, qualname, name, class_name, line, end_line, is_async,"
                   " backend, ordinal, facts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [W_FINDING] = "INSERT INTO findings(scan_id, rule, severity, path, line, \"column\", end_line, end_column,"
                  " function, backend, resource, resource_kind, acquired_line, acquired_column, message,"
                  " checkpoint, fingerprint, suppressed, baselined, confidence)"
                  " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [W_HANDLER] = "INSERT INTO finding_handlers(finding_id, ord, line, \"column\", catches) VALUES (?, ?, ?, ?, ?)",
    [W_RESOURCE] = "INSERT INTO finding_resources(finding_id, ord, resource, resource_kind, acquired_line,"
                   " acquired_column, alias) VALUES (?, ?, ?, ?, ?, ?, ?)",
    [W_COVERAGE] = "INSERT INTO coverage(scan_id, family, backend, boundary, status, rules, protection, path,"
                   " function, line, lines) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [W_FAMILY] = "INSERT INTO families(scan_id, ord, name, kind, base, path, line) VALUES (?, ?, ?, ?, ?, ?, ?)",
    [W_MEMBER] = "INSERT INTO family_members(scan_id, family, ord, backend, class, path, line, role)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    [W_FINISH] = "UPDATE scans SET finished = ?, files_scanned = ?, files_skipped = ?, errors = ?, baselined = ?,"
                 " findings_count = ?, cache_key = ?, rows_of = ?, tree_digest = ?, class_digest = ?,"
                 " status = 'complete' WHERE id = ? AND status = 'running'",
    /* the scan row's counts were written with its rows, in one transaction:
     * they stand for the files (counting those would read every one) */
    [W_SHARE_CHECK] = "SELECT (SELECT count(*) FROM scans WHERE id = ?1 AND status = 'complete' AND rows_of IS NULL"
                      " AND files_scanned = ?2 AND files_skipped = ?3 AND errors = ?4),"
                      " (SELECT count(*) FROM findings WHERE scan_id = ?1),"
                      " (SELECT count(*) FROM coverage WHERE scan_id = ?1)",
    [W_DIR] = "INSERT INTO dir_index(scan_id, listings) VALUES (?, ?)",
    [W_FLAG] = "INSERT INTO finding_flags(scan_id, finding_id, baselined)"
               " SELECT ?1, ?2, ?3 FROM findings WHERE id = ?2 AND scan_id = ?4",
};

/* The scan must exist and still be open for results. */
static int check_running(ca_store *st, sqlite3_stmt *s, int64_t scan_id, char **err)
{
    sqlite3_bind_int64(s, 1, scan_id);
    int rc = sqlite3_step(s);
    int ret = 0;
    if (rc == SQLITE_DONE)
        ret = set_err(err, ca_xasprintf("database %s: no scan %lld to write results into", st->path, (long long)scan_id));
    else if (rc != SQLITE_ROW)
        ret = db_err(st, err, "cannot read the scan row");
    else if (strcmp((const char *)sqlite3_column_text(s, 0), "running") != 0)
        ret = set_err(err, ca_xasprintf("database %s: scan %lld already has its results", st->path, (long long)scan_id));
    sqlite3_reset(s);
    return ret;
}

static int write_file(ca_store *st, sqlite3_stmt *s, int64_t scan_id, const ca_file_rec *f, char **err)
{
    binder b = bind_start(s);
    bind_i64(&b, scan_id);
    bind_str(&b, f->path);
    bind_i64(&b, f->size);
    bind_i64(&b, f->mtime_ns);
    bind_str(&b, f->hash);
    bind_i64(&b, f->parse_errors);
    bind_dbl(&b, f->parse_ms);
    bind_str(&b, ca_file_status_name(f->status));
    bind_str(&b, f->diagnostic);
    bind_str(&b, f->backend);
    bind_str(&b, f->language);
    bind_str(&b, f->deps);
    return run_bound(st, &b, "cannot write a file record", err);
}

static int write_function(ca_store *st, sqlite3_stmt *s, int64_t scan_id, const ca_function_rec *f, char **err)
{
    binder b = bind_start(s);
    bind_i64(&b, scan_id);
    bind_str(&b, f->path);
    bind_str(&b, f->qualname);
    bind_str(&b, f->name);
    bind_str(&b, f->class_name);
    bind_i64(&b, f->line);
    bind_i64(&b, f->end_line);
    bind_i64(&b, f->is_async != 0);
    bind_str(&b, f->backend);
    bind_i64(&b, f->ordinal);
    bind_str(&b, f->facts);
    return run_bound(st, &b, "cannot write a function record", err);
}

static int write_finding(ca_store *st, sqlite3_stmt *fs, sqlite3_stmt *hs, sqlite3_stmt *rs, int64_t scan_id,
                         const ca_finding *f, char **err)
{
    binder b = bind_start(fs);
    bind_i64(&b, scan_id);
    bind_str(&b, f->rule);
    bind_str(&b, ca_severity_name(f->severity));
    bind_str(&b, f->path);
    bind_i64(&b, f->line);
    bind_i64(&b, f->column);
    bind_i64(&b, f->end_line);
    bind_i64(&b, f->end_column);
    bind_str(&b, f->function);
    bind_str(&b, f->backend);
    bind_str(&b, f->resource);
    bind_str(&b, f->resource_kind);
    bind_i64(&b, f->acquired_line);
    bind_i64(&b, f->acquired_column);
    bind_str(&b, f->message);
    bind_str(&b, f->checkpoint);
    bind_str(&b, f->fingerprint);
    bind_i64(&b, f->suppressed != 0);
    bind_i64(&b, f->baselined != 0);
    bind_str(&b, ca_confidence_name(f->confidence));
    if (run_bound(st, &b, "cannot write a finding", err)) return -1;

    int64_t finding_id = sqlite3_last_insert_rowid(st->db);
    for (size_t i = 0; i < f->nhandlers; i++) {
        binder h = bind_start(hs);
        bind_i64(&h, finding_id);
        bind_i64(&h, (int64_t)i);
        bind_i64(&h, f->handlers[i].line);
        bind_i64(&h, f->handlers[i].column);
        bind_str(&h, f->handlers[i].catches);
        if (run_bound(st, &h, "cannot write a finding's handler", err)) return -1;
    }
    for (size_t i = 0; i < f->nresources; i++) {
        const ca_resource_ref *r = &f->resources[i];
        binder h = bind_start(rs);
        bind_i64(&h, finding_id);
        bind_i64(&h, (int64_t)i);
        bind_str(&h, r->name ? r->name : "");
        bind_str(&h, r->kind);
        bind_i64(&h, r->acquired_line);
        bind_i64(&h, r->acquired_column);
        bind_str(&h, r->alias);
        if (run_bound(st, &h, "cannot write a finding's resource", err)) return -1;
    }
    return 0;
}

static int write_coverage(ca_store *st, sqlite3_stmt *s, int64_t scan_id, const ca_coverage *c, char **err)
{
    binder b = bind_start(s);
    bind_i64(&b, scan_id);
    bind_str(&b, c->family);
    bind_str(&b, c->backend);
    bind_str(&b, c->boundary);
    bind_str(&b, c->status);
    bind_str(&b, c->rules);
    bind_str(&b, c->protection);
    bind_str(&b, c->path);
    bind_str(&b, c->function);
    bind_i64(&b, c->line);
    bind_str(&b, c->lines);
    return run_bound(st, &b, "cannot write a coverage cell", err);
}

static int write_family(ca_store *st, sqlite3_stmt *fs, sqlite3_stmt *ms, int64_t scan_id, size_t ord,
                        const ca_family *f, char **err)
{
    binder b = bind_start(fs);
    bind_i64(&b, scan_id);
    bind_i64(&b, (int64_t)ord);
    bind_str(&b, f->name);
    bind_str(&b, f->kind);
    bind_str(&b, f->base);
    bind_str(&b, f->path);
    bind_i64(&b, f->line);
    if (run_bound(st, &b, "cannot write a family", err)) return -1;
    for (size_t i = 0; i < f->nmembers; i++) {
        const ca_family_member *m = &f->members[i];
        binder c = bind_start(ms);
        bind_i64(&c, scan_id);
        bind_i64(&c, (int64_t)ord);
        bind_i64(&c, (int64_t)i);
        bind_str(&c, m->backend);
        bind_str(&c, m->class_name);
        bind_str(&c, m->path);
        bind_i64(&c, m->line);
        bind_str(&c, m->role ? m->role : "backend");
        if (run_bound(st, &c, "cannot write a family member", err)) return -1;
    }
    return 0;
}

static int finish_scan(ca_store *st, sqlite3_stmt *s, int64_t scan_id, const ca_results *r, int64_t rows_of,
                       char **err)
{
    char now[32];
    ca_iso_now(now, sizeof now);
    binder b = bind_start(s);
    bind_str(&b, r->scan.finished ? r->scan.finished : now);
    bind_i64(&b, r->scan.files_scanned);
    bind_i64(&b, r->scan.files_skipped);
    bind_i64(&b, r->scan.errors);
    bind_i64(&b, r->scan.baselined);
    bind_i64(&b, (int64_t)r->nfindings);
    bind_str(&b, r->scan.cache_key);
    if (rows_of) bind_i64(&b, rows_of);
    else bind_note(&b, sqlite3_bind_null(s, b.next));
    bind_str(&b, r->scan.tree_digest);
    bind_str(&b, r->scan.class_digest);
    bind_i64(&b, scan_id);
    if (run_bound(st, &b, "cannot mark the scan complete", err)) return -1;
    if (sqlite3_changes(st->db) != 1)
        return set_err(err, ca_xasprintf("database %s: scan %lld changed while its results were written",
                                         st->path, (long long)scan_id));
    return 0;
}

/* Whether r can be recorded as the rows of scan rows_of: that scan is
 * complete, holds its own rows, and as many of them as r has; every finding
 * r hides carries the row it came from. 1 yes, 0 no, -1 error. */
static int can_share(ca_store *st, sqlite3_stmt *s, int64_t rows_of, const ca_results *r, char **err)
{
    for (size_t i = 0; i < r->nfindings; i++)
        if (r->findings[i].baselined && r->findings[i].row_id <= 0) return 0;
    sqlite3_bind_int64(s, 1, rows_of);
    sqlite3_bind_int64(s, 2, r->scan.files_scanned);
    sqlite3_bind_int64(s, 3, r->scan.files_skipped);
    sqlite3_bind_int64(s, 4, r->scan.errors);
    int rc = sqlite3_step(s);
    int ret = 0;
    if (rc != SQLITE_ROW)
        ret = db_err(st, err, "cannot read the rows of the scan reused");
    else
        ret = sqlite3_column_int64(s, 0) == 1 && sqlite3_column_int64(s, 1) == (int64_t)r->nfindings &&
              sqlite3_column_int64(s, 2) == (int64_t)r->ncoverage;
    sqlite3_reset(s);
    return ret;
}

/* The per-scan part of shared rows: which findings this scan hides. */
static int write_flags(ca_store *st, sqlite3_stmt *s, int64_t scan_id, int64_t rows_of, const ca_results *r,
                       char **err)
{
    for (size_t i = 0; i < r->nfindings; i++) {
        const ca_finding *f = &r->findings[i];
        if (!f->baselined) continue;
        binder b = bind_start(s);
        bind_i64(&b, scan_id);
        bind_i64(&b, f->row_id);
        bind_i64(&b, f->baselined);
        bind_i64(&b, rows_of);
        if (run_bound(st, &b, "cannot write a finding's flags", err)) return -1;
        if (sqlite3_changes(st->db) != 1)
            return set_err(err, ca_xasprintf("database %s: finding %lld of scan %lld is gone", st->path,
                                             (long long)f->row_id, (long long)rows_of));
    }
    return 0;
}

/* The parts of a scan's rows; all, or those store_write_parts wrote not. */
static int write_dirs(ca_store *st, sqlite3_stmt *s, int64_t scan_id, const ca_dir_rec *dirs, size_t n, char **err)
{
    if (!n) return 0;
    size_t len = 0;
    char *blob = ca_dirs_encode(dirs, n, &len);
    /* only a cache: a tree too large for one blob is simply read afresh
     * next time, rather than failing the scan's write */
    if (len >= (size_t)sqlite3_limit(st->db, SQLITE_LIMIT_LENGTH, -1)) {
        free(blob);
        return 0;
    }
    binder b = bind_start(s);
    bind_i64(&b, scan_id);
    bind_note(&b, sqlite3_bind_blob(s, b.next, blob, (int)len, SQLITE_STATIC));
    int ret = run_bound(st, &b, "cannot write the directory index", err);
    free(blob);
    return ret;
}

static int write_rest(ca_store *st, sqlite3_stmt **s, int64_t scan_id, const ca_results *r, char **err)
{
    for (size_t i = 0; i < r->nfunctions; i++)
        if (write_function(st, s[W_FUNCTION], scan_id, &r->functions[i], err)) return -1;
    for (size_t i = 0; i < r->nfindings; i++)
        if (write_finding(st, s[W_FINDING], s[W_HANDLER], s[W_RESOURCE], scan_id, &r->findings[i], err)) return -1;
    for (size_t i = 0; i < r->ncoverage; i++)
        if (write_coverage(st, s[W_COVERAGE], scan_id, &r->coverage[i], err)) return -1;
    for (size_t i = 0; i < r->nfamilies; i++)
        if (write_family(st, s[W_FAMILY], s[W_MEMBER], scan_id, i, &r->families[i], err)) return -1;
    if (finish_scan(st, s[W_FINISH], scan_id, r, 0, err)) return -1;
    return exec_sql(st, "COMMIT", "cannot commit the scan's results", err);
}

static int prepare_all(ca_store *st, sqlite3_stmt **s, char **err)
{
    for (int i = 0; i < W_COUNT; i++)
        if (prepare(st, write_sql[i], &s[i], err)) return -1;
    return 0;
}

static void finalize_all(sqlite3_stmt **s)
{
    for (int i = 0; i < W_COUNT; i++) sqlite3_finalize(s[i]);
}

int store_write_results(ca_store *st, int64_t scan_id, const ca_results *r, char **err)
{
    sqlite3_stmt *s[W_COUNT] = {0};
    int ret = -1;
    if (prepare_all(st, s, err)) goto done;
    if (exec_sql(st, "BEGIN IMMEDIATE", "cannot start writing the scan's results", err)) goto done;
    if (check_running(st, s[W_CHECK], scan_id, err)) goto done;
    int64_t rows_of = r->scan.rows_of;
    if (rows_of) {
        int ok = can_share(st, s[W_SHARE_CHECK], rows_of, r, err);
        if (ok < 0) goto done;
        if (ok) {
            if (write_flags(st, s[W_FLAG], scan_id, rows_of, r, err) ||
                finish_scan(st, s[W_FINISH], scan_id, r, rows_of, err) ||
                exec_sql(st, "COMMIT", "cannot commit the scan's results", err))
                goto done;
            ret = 0;
            goto done;
        }
        rows_of = 0; /* the rows are not there as expected: write a copy */
    }
    for (size_t i = 0; i < r->nfiles; i++)
        if (write_file(st, s[W_FILE], scan_id, &r->files[i], err)) goto done;
    if (write_dirs(st, s[W_DIR], scan_id, r->dirs, r->ndirs, err)) goto done;
    if (write_rest(st, s, scan_id, r, err)) goto done;
    ret = 0;
done:
    finalize_all(s);
    if (ret) rollback_open_transaction(st);
    return ret;
}

int store_write_parts(ca_store *st, int64_t scan_id, const ca_file_rec *files, size_t nfiles, const ca_dir_rec *dirs,
                      size_t ndirs, char **err)
{
    sqlite3_stmt *s[W_COUNT] = {0};
    int ret = -1;
    if (prepare_all(st, s, err)) goto done;
    if (exec_sql(st, "BEGIN IMMEDIATE", "cannot start writing the scan's results", err)) goto done;
    if (check_running(st, s[W_CHECK], scan_id, err)) goto done;
    for (size_t i = 0; i < nfiles; i++)
        if (write_file(st, s[W_FILE], scan_id, &files[i], err)) goto done;
    if (write_dirs(st, s[W_DIR], scan_id, dirs, ndirs, err)) goto done;
    ret = 0;
done:
    finalize_all(s);
    if (ret) rollback_open_transaction(st);
    return ret;
}

int store_write_rest(ca_store *st, int64_t scan_id, const ca_results *r, char **err)
{
    sqlite3_stmt *s[W_COUNT] = {0};
    int ret = -1;
    if (sqlite3_get_autocommit(st->db)) {
        set_err(err, ca_xasprintf("database %s: no scan results being written", st->path));
        goto done;
    }
    if (prepare_all(st, s, err)) goto done;
    if (write_rest(st, s, scan_id, r, err)) goto done;
    ret = 0;
done:
    finalize_all(s);
    if (ret) rollback_open_transaction(st);
    return ret;
}

void store_write_abort(ca_store *st)
{
    if (st) rollback_open_transaction(st);
}

/* ---- reading ---------------------------------------------------------- */

/* Fills one zeroed element from the current row; on failure leaves nothing
 * allocated in it. */
typedef int (*row_reader)(ca_store *st, sqlite3_stmt *row, void *elem, void *ctx, char **err);

/* Run sql (binding ?1 = scan_id and ?2 = path when the statement has them)
 * and append one element of elsize bytes per row to *arr / *n. */
static int load_rows(ca_store *st, const char *sql, int64_t scan_id, const char *path, void **arr, size_t *n,
                     size_t elsize, row_reader read, void *ctx, char **err)
{
    sqlite3_stmt *s;
    if (prepare(st, sql, &s, err)) return -1;
    int params = sqlite3_bind_parameter_count(s);
    if (params >= 1) sqlite3_bind_int64(s, 1, scan_id);
    if (params >= 2) sqlite3_bind_text(s, 2, path, -1, SQLITE_STATIC);
    size_t cap = *n;
    int rc, ret = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            *arr = ca_xrealloc(*arr, cap * elsize);
        }
        void *elem = (char *)*arr + *n * elsize;
        memset(elem, 0, elsize);
        if (read(st, s, elem, ctx, err)) {
            ret = -1;
            break;
        }
        (*n)++;
    }
    if (!ret && rc != SQLITE_DONE) ret = db_err(st, err, "cannot read the stored results");
    sqlite3_finalize(s);
    return ret;
}

#define SCAN_COLS "id, started, finished, root, git_rev, version, args, status, pid, host, boot_id," \
                  " files_scanned, files_skipped, errors, baselined, cache_key, rows_of, tree_digest, started_ns," \
                  " class_digest"

static int read_scan(ca_store *st, sqlite3_stmt *s, void *elem, void *ctx, char **err)
{
    (void)ctx;
    (void)err;
    ca_scan_meta *m = elem;
    m->id = sqlite3_column_int64(s, 0);
    m->started = col_str(s, 1);
    m->finished = col_str(s, 2);
    m->root = col_str(s, 3);
    m->git_rev = col_str(s, 4);
    m->version = col_str(s, 5);
    m->args = col_str(s, 6);
    m->status = ca_xstrdup(effective_status(st, (const char *)sqlite3_column_text(s, 7), sqlite3_column_int64(s, 8),
                                            (const char *)sqlite3_column_text(s, 9),
                                            (const char *)sqlite3_column_text(s, 10)));
    m->files_scanned = col_int(s, 11);
    m->files_skipped = col_int(s, 12);
    m->errors = col_int(s, 13);
    m->baselined = col_int(s, 14);
    m->cache_key = col_str(s, 15);
    m->rows_of = sqlite3_column_int64(s, 16);
    m->tree_digest = col_str(s, 17);
    if (ctx) *(int64_t *)ctx = sqlite3_column_int64(s, 18);
    m->class_digest = col_str(s, 19);
    return 0;
}

#define FILE_COLS "path, size, mtime_ns, hash, parse_errors, parse_ms, status, diagnostic, backend, language, deps"

static int read_file_rec(ca_store *st, sqlite3_stmt *s, void *elem, void *ctx, char **err)
{
    (void)st;
    (void)ctx;
    (void)err;
    ca_file_rec *f = elem;
    f->path = col_str(s, 0);
    f->size = sqlite3_column_int64(s, 1);
    f->mtime_ns = sqlite3_column_int64(s, 2);
    f->hash = col_str(s, 3);
    f->parse_errors = col_int(s, 4);
    f->parse_ms = sqlite3_column_double(s, 5);
    f->status = parse_file_status((const char *)sqlite3_column_text(s, 6));
    f->diagnostic = col_str(s, 7);
    f->backend = col_str(s, 8);
    f->language = col_str(s, 9);
    f->deps = col_str(s, 10);
    return 0;
}

#define FUNCTION_COLS "path, qualname, name, class_name, line, end_line, is_async, backend, ordinal, facts"

static int read_function(ca_store *st, sqlite3_stmt *s, void *elem, void *ctx, char **err)
{
    (void)st;
    (void)ctx;
    (void)err;
    ca_function_rec *f = elem;
    f->path = col_str(s, 0);
    f->qualname = col_str(s, 1);
    f->name = col_str(s, 2);
    f->class_name = col_str(s, 3);
    f->line = col_int(s, 4);
    f->end_line = col_int(s, 5);
    f->is_async = col_int(s, 6);
    f->backend = col_str(s, 7);
    f->ordinal = col_int(s, 8);
    f->facts = col_str(s, 9);
    return 0;
}

#define COVERAGE_COLS "backend, boundary, status, rules, protection, path, function, line, lines, family"

static int read_coverage(ca_store *st, sqlite3_stmt *s, void *elem, void *ctx, char **err)
{
    (void)st;
    (void)ctx;
    (void)err;
    ca_coverage *c = elem;
    c->backend = col_str(s, 0);
    c->boundary = col_str(s, 1);
    c->status = col_str(s, 2);
    c->rules = col_str(s, 3);
    c->protection = col_str(s, 4);
    c->path = col_str(s, 5);
    c->function = col_str(s, 6);
    c->line = col_int(s, 7);
    c->lines = col_str(s, 8);
    c->family = col_str(s, 9);
    return 0;
}

static int read_family(ca_store *st, sqlite3_stmt *s, void *elem, void *ctx, char **err)
{
    (void)st;
    (void)ctx;
    (void)err;
    ca_family *f = elem;
    f->name = col_str(s, 0);
    f->kind = col_str(s, 1);
    f->base = col_str(s, 2);
    f->path = col_str(s, 3);
    f->line = col_int(s, 4);
    if (!f->name) f->name = ca_xstrdup("");
    if (!f->kind) f->kind = ca_xstrdup("");
    return 0;
}

/* Families of rows scan `rows`, in their order, each with its members. */
static int load_families(ca_store *st, int64_t rows, ca_results *out, char **err)
{
    size_t before = out->nfamilies;
    void *arr = out->families;
    int ret = load_rows(st, "SELECT name, kind, base, path, line FROM families WHERE scan_id = ?1 ORDER BY ord", rows,
                        NULL, &arr, &out->nfamilies, sizeof(ca_family), read_family, NULL, err);
    out->families = arr;
    if (ret) return ret;
    sqlite3_stmt *s;
    if (prepare(st, "SELECT family, backend, class, path, line, role FROM family_members WHERE scan_id = ?"
                    " ORDER BY family, ord", &s, err))
        return -1;
    sqlite3_bind_int64(s, 1, rows);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int64_t ord = sqlite3_column_int64(s, 0);
        if (ord < 0 || (size_t)ord >= out->nfamilies - before) continue; /* a member of no family: not shown */
        ca_family *f = &out->families[before + (size_t)ord];
        f->members = ca_xrealloc(f->members, sizeof(ca_family_member) * (f->nmembers + 1));
        ca_family_member *m = &f->members[f->nmembers++];
        memset(m, 0, sizeof(*m));
        m->backend = col_str(s, 1);
        m->class_name = col_str(s, 2);
        m->path = col_str(s, 3);
        m->line = col_int(s, 4);
        m->role = col_str(s, 5);
        if (!m->role) m->role = ca_xstrdup("backend");
    }
    ret = rc == SQLITE_DONE ? 0 : db_err(st, err, "cannot read a family's members");
    sqlite3_finalize(s);
    return ret;
}

#define FINDING_COLS "id, rule, severity, path, line, \"column\", end_line, end_column, function, backend," \
                     " resource, resource_kind, acquired_line, acquired_column, message, checkpoint," \
                     " fingerprint, suppressed, baselined, confidence"

/* What read_finding reads a finding's parts with: prepared "handlers of
 * finding ?1, in order" and "resources of finding ?1, in order". */
typedef struct finding_parts {
    sqlite3_stmt *handlers, *resources;
} finding_parts;

static ca_confidence parse_confidence(const char *name)
{
    ca_confidence c = CA_CONF_HIGH; /* rows from before confidences were stored */
    if (name) ca_confidence_parse(name, &c);
    return c;
}

static int read_finding(ca_store *st, sqlite3_stmt *s, void *elem, void *ctx, char **err)
{
    finding_parts *parts = ctx;
    sqlite3_stmt *hs = parts->handlers;
    ca_finding *f = elem;
    int64_t id = sqlite3_column_int64(s, 0);
    f->row_id = id;
    f->rule = col_str(s, 1);
    f->severity = parse_severity((const char *)sqlite3_column_text(s, 2));
    f->path = col_str(s, 3);
    f->line = col_int(s, 4);
    f->column = col_int(s, 5);
    f->end_line = col_int(s, 6);
    f->end_column = col_int(s, 7);
    f->function = col_str(s, 8);
    f->backend = col_str(s, 9);
    f->resource = col_str(s, 10);
    f->resource_kind = col_str(s, 11);
    f->acquired_line = col_int(s, 12);
    f->acquired_column = col_int(s, 13);
    f->message = col_str(s, 14);
    f->checkpoint = col_str(s, 15);
    f->fingerprint = col_str(s, 16);
    f->suppressed = col_int(s, 17);
    f->baselined = col_int(s, 18);
    f->confidence = parse_confidence((const char *)sqlite3_column_text(s, 19));

    sqlite3_bind_int64(hs, 1, id);
    int rc;
    while ((rc = sqlite3_step(hs)) == SQLITE_ROW) {
        f->handlers = ca_xrealloc(f->handlers, (f->nhandlers + 1) * sizeof(ca_handler_ref));
        ca_handler_ref *h = &f->handlers[f->nhandlers++];
        h->line = col_int(hs, 0);
        h->column = col_int(hs, 1);
        h->catches = col_str(hs, 2);
    }
    int ret = rc == SQLITE_DONE ? 0 : db_err(st, err, "cannot read a finding's handlers");
    sqlite3_reset(hs);
    sqlite3_stmt *rs = parts->resources;
    sqlite3_bind_int64(rs, 1, id);
    while (ret == 0 && (rc = sqlite3_step(rs)) == SQLITE_ROW)
        ca_finding_add_resource(f, (const char *)sqlite3_column_text(rs, 0), (const char *)sqlite3_column_text(rs, 1),
                                col_int(rs, 2), col_int(rs, 3), (const char *)sqlite3_column_text(rs, 4));
    if (ret == 0 && rc != SQLITE_DONE) ret = db_err(st, err, "cannot read a finding's resources");
    sqlite3_reset(rs);
    if (ret) ca_finding_free(f);
    return ret;
}

/* Findings of a scan (path NULL) or of one file, appended to out. */
static int load_findings(ca_store *st, int64_t scan_id, const char *path, ca_results *out, char **err)
{
    finding_parts parts = {NULL, NULL};
    if (prepare(st, "SELECT line, \"column\", catches FROM finding_handlers WHERE finding_id = ? ORDER BY ord",
                &parts.handlers, err))
        return -1;
    if (prepare(st, "SELECT resource, resource_kind, acquired_line, acquired_column, alias FROM finding_resources"
                    " WHERE finding_id = ? ORDER BY ord", &parts.resources, err)) {
        sqlite3_finalize(parts.handlers);
        return -1;
    }
    void *arr = out->findings;
    int ret = load_rows(st,
                        path ? "SELECT " FINDING_COLS " FROM findings WHERE scan_id = ?1 AND path = ?2 ORDER BY id"
                             : "SELECT " FINDING_COLS " FROM findings WHERE scan_id = ?1 ORDER BY id",
                        scan_id, path, &arr, &out->nfindings, sizeof(ca_finding), read_finding, &parts, err);
    out->findings = arr;
    sqlite3_finalize(parts.handlers);
    sqlite3_finalize(parts.resources);
    return ret;
}

static int load_functions(ca_store *st, int64_t scan_id, const char *path, ca_results *out, char **err)
{
    void *arr = out->functions;
    int ret = load_rows(st,
                        path ? "SELECT " FUNCTION_COLS " FROM functions WHERE scan_id = ?1 AND path = ?2 ORDER BY ordinal"
                             : "SELECT " FUNCTION_COLS " FROM functions WHERE scan_id = ?1 ORDER BY path, ordinal",
                        scan_id, path, &arr, &out->nfunctions, sizeof(ca_function_rec), read_function, NULL, err);
    out->functions = arr;
    return ret;
}

/* Scan scan_id's rows are those of this scan (itself, or the scan whose
 * rows it shares). 1 when there is no such scan. */
static int rows_id(ca_store *st, int64_t scan_id, int64_t *out, char **err)
{
    sqlite3_stmt *s;
    if (prepare(st, "SELECT coalesce(rows_of, id) FROM scans WHERE id = ?", &s, err)) return -1;
    sqlite3_bind_int64(s, 1, scan_id);
    int rc = sqlite3_step(s);
    int ret = 1;
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(s, 0);
        ret = 0;
    } else if (rc != SQLITE_DONE) {
        ret = db_err(st, err, "cannot read a scan row");
    }
    sqlite3_finalize(s);
    return ret;
}

static int cmp_row_id(const void *a, const void *b)
{
    int64_t x = ((const ca_finding *)a)->row_id, y = ((const ca_finding *)b)->row_id;
    return x < y ? -1 : x > y;
}

/* Findings read from rows shared with another scan carry that scan's
 * baselined flags: replace them with scan_id's own (finding_flags). */
static int apply_flags(ca_store *st, int64_t scan_id, ca_results *out, char **err)
{
    sqlite3_stmt *s;
    if (prepare(st, "SELECT finding_id, baselined FROM finding_flags WHERE scan_id = ?", &s, err)) return -1;
    sqlite3_bind_int64(s, 1, scan_id);
    for (size_t i = 0; i < out->nfindings; i++) out->findings[i].baselined = 0;
    /* rows are loaded in id order: findings are sorted by row_id */
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        ca_finding key;
        key.row_id = sqlite3_column_int64(s, 0);
        ca_finding *f = bsearch(&key, out->findings, out->nfindings, sizeof(ca_finding), cmp_row_id);
        if (f) f->baselined = sqlite3_column_int(s, 1);
    }
    int ret = rc == SQLITE_DONE ? 0 : db_err(st, err, "cannot read the scan's finding flags");
    sqlite3_finalize(s);
    return ret;
}

static int load_scan_parts(ca_store *st, int64_t scan_id, int64_t rows_of, ca_results *out, char **err)
{
    int64_t rows = rows_of ? rows_of : scan_id;
    void *files = out->files, *cov = out->coverage;
    int ret = load_rows(st, "SELECT " FILE_COLS " FROM files WHERE scan_id = ?1 ORDER BY path", rows, NULL, &files,
                        &out->nfiles, sizeof(ca_file_rec), read_file_rec, NULL, err);
    out->files = files;
    if (ret == 0)
        ret = load_rows(st, "SELECT " COVERAGE_COLS " FROM coverage WHERE scan_id = ?1 ORDER BY id", rows, NULL,
                        &cov, &out->ncoverage, sizeof(ca_coverage), read_coverage, NULL, err);
    out->coverage = cov;
    if (ret == 0) ret = load_families(st, rows, out, err);
    if (ret == 0) ret = load_functions(st, rows, NULL, out, err);
    if (ret == 0) ret = load_findings(st, rows, NULL, out, err);
    if (ret == 0 && rows_of) {
        /* as the scan_files view reads them */
        for (size_t i = 0; i < out->nfiles; i++) {
            if (out->files[i].status == CA_FILE_ANALYZED) out->files[i].status = CA_FILE_CACHED;
            out->files[i].parse_ms = 0;
        }
        ret = apply_flags(st, scan_id, out, err);
    }
    return ret;
}

int store_load_scan(ca_store *st, int64_t scan_id, ca_results *out, char **err)
{
    /* One read transaction: a snapshot, even while another process writes. */
    if (exec_sql(st, "BEGIN", "cannot start reading", err)) return -1;
    void *metas = NULL;
    size_t nmeta = 0;
    int ret = load_rows(st,
                        scan_id ? "SELECT " SCAN_COLS " FROM scans WHERE id = ?1"
                                : "SELECT " SCAN_COLS " FROM scans WHERE status = 'complete' ORDER BY id DESC LIMIT 1",
                        scan_id, NULL, &metas, &nmeta, sizeof(ca_scan_meta), read_scan, NULL, err);
    if (ret == 0 && nmeta == 0) {
        ret = 1;
        set_err(err, scan_id ? ca_xasprintf("database %s: no scan %lld", st->path, (long long)scan_id)
                             : ca_xasprintf("database %s: no complete scan yet", st->path));
    }
    if (ret == 0) {
        out->scan = ((ca_scan_meta *)metas)[0];
        ret = load_scan_parts(st, out->scan.id, out->scan.rows_of, out, err);
    } else {
        store_scans_free(metas, nmeta);
        metas = NULL;
    }
    free(metas);
    if (ret == 0 && exec_sql(st, "COMMIT", "cannot finish reading", err)) ret = -1;
    rollback_open_transaction(st);
    if (ret < 0) ca_results_free(out);
    if (ret == 0) ca_results_sort(out);
    return ret;
}

int store_list_scans(ca_store *st, ca_scan_meta **out, size_t *n, char **err)
{
    void *arr = NULL;
    size_t count = 0;
    *out = NULL;
    *n = 0;
    if (load_rows(st, "SELECT " SCAN_COLS " FROM scans ORDER BY id DESC", 0, NULL, &arr, &count,
                  sizeof(ca_scan_meta), read_scan, NULL, err)) {
        store_scans_free(arr, count);
        return -1;
    }
    *out = arr;
    *n = count;
    return 0;
}

void store_scans_free(ca_scan_meta *scans, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ca_results holder = { .scan = scans[i] };
        ca_results_free(&holder);
    }
    free(scans);
}

#define LATEST_COMPLETE_ID "(SELECT id FROM scans WHERE status = 'complete' ORDER BY id DESC LIMIT 1)"
#define LATEST_COMPLETE_ROWS \
    "(SELECT coalesce(rows_of, id) FROM scans WHERE status = 'complete' ORDER BY id DESC LIMIT 1)"

int store_latest_complete(ca_store *st, int64_t *scan_id, int64_t *started_ns, char **err)
{
    sqlite3_stmt *s;
    if (prepare(st, "SELECT id, started_ns FROM scans WHERE id = " LATEST_COMPLETE_ID, &s, err)) return -1;
    int rc = sqlite3_step(s);
    int ret = 1;
    if (rc == SQLITE_ROW) {
        *scan_id = sqlite3_column_int64(s, 0);
        if (started_ns) *started_ns = sqlite3_column_int64(s, 1);
        ret = 0;
    } else if (rc != SQLITE_DONE) {
        ret = db_err(st, err, "cannot find the latest scan");
    }
    sqlite3_finalize(s);
    return ret;
}

int store_cached_file(ca_store *st, const char *path, ca_file_rec *out, int64_t *scan_id, char **err)
{
    sqlite3_stmt *s;
    if (prepare(st, "SELECT " FILE_COLS ", " LATEST_COMPLETE_ID " FROM files WHERE scan_id = " LATEST_COMPLETE_ROWS
                    " AND path = ?", &s, err))
        return -1;
    sqlite3_bind_text(s, 1, path, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    int ret = 1;
    if (rc == SQLITE_ROW) {
        memset(out, 0, sizeof *out);
        read_file_rec(st, s, out, NULL, err);
        if (scan_id) *scan_id = sqlite3_column_int64(s, 11);
        ret = 0;
    } else if (rc != SQLITE_DONE) {
        ret = db_err(st, err, "cannot look up a file of the last scan");
    }
    sqlite3_finalize(s);
    return ret;
}

void store_file_rec_free(ca_file_rec *f)
{
    free(f->path);
    free(f->hash);
    free(f->diagnostic);
    free(f->backend);
    free(f->language);
    free(f->deps);
    memset(f, 0, sizeof *f);
}

int store_load_file_results(ca_store *st, int64_t scan_id, const char *path, ca_results *out, char **err)
{
    int64_t rows = scan_id;
    int rc = rows_id(st, scan_id, &rows, err);
    if (rc < 0) return -1;
    if (rc > 0) return 0;
    if (load_findings(st, rows, path, out, err)) return -1;
    return load_functions(st, rows, path, out, err);
}

int store_cache_base(ca_store *st, const char *cache_key, ca_scan_meta *meta, int64_t *started_ns, char **err)
{
    sqlite3_stmt *s;
    if (prepare(st, "SELECT " SCAN_COLS " FROM scans WHERE status = 'complete' AND cache_key = ?"
                    " ORDER BY id DESC LIMIT 1", &s, err))
        return -1;
    sqlite3_bind_text(s, 1, cache_key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    int ret = 1;
    if (rc == SQLITE_ROW) {
        memset(meta, 0, sizeof(*meta));
        read_scan(st, s, meta, started_ns, err);
        ret = 0;
    } else if (rc != SQLITE_DONE) {
        ret = db_err(st, err, "cannot look for a scan to reuse");
    }
    sqlite3_finalize(s);
    return ret;
}

int store_load_reusable(ca_store *st, int64_t scan_id, unsigned parts, ca_results *out, char **err)
{
    /* One read transaction: a snapshot, even while another process writes. */
    if (exec_sql(st, "BEGIN", "cannot start reading", err)) return -1;
    int64_t rows = scan_id;
    int ret = rows_id(st, scan_id, &rows, err) < 0 ? -1 : 0;
    void *files = out->files, *cov = out->coverage;
    /* by path: the order of the (scan_id, path) index, and the order a
     * rescan looks files up in */
    if (ret == 0 && (parts & STORE_FILES))
        ret = load_rows(st, "SELECT " FILE_COLS " FROM files WHERE scan_id = ?1 ORDER BY path", rows, NULL, &files,
                        &out->nfiles, sizeof(ca_file_rec), read_file_rec, NULL, err);
    out->files = files;
    if (ret == 0 && (parts & STORE_DIAGNOSED))
        ret = load_rows(st, "SELECT " FILE_COLS " FROM files INDEXED BY files_diagnosed WHERE scan_id = ?1 AND diagnostic IS NOT NULL",
                        rows, NULL, &files, &out->nfiles, sizeof(ca_file_rec), read_file_rec, NULL, err);
    out->files = files;
    if (ret == 0 && (parts & STORE_FUNCTIONS)) ret = load_functions(st, rows, NULL, out, err);
    if (ret == 0 && (parts & STORE_FINDINGS)) ret = load_findings(st, rows, NULL, out, err);
    if (ret == 0 && (parts & STORE_COVERAGE))
        ret = load_rows(st, "SELECT " COVERAGE_COLS " FROM coverage WHERE scan_id = ?1 ORDER BY id", rows, NULL,
                        &cov, &out->ncoverage, sizeof(ca_coverage), read_coverage, NULL, err);
    out->coverage = cov;
    if (ret == 0 && (parts & STORE_FAMILIES)) ret = load_families(st, rows, out, err);

    if (ret == 0 && (parts & STORE_ROWS_ID)) out->scan.rows_of = rows;
    if (ret == 0 && exec_sql(st, "COMMIT", "cannot finish reading", err)) ret = -1;
    rollback_open_transaction(st);
    return ret;
}

int store_load_dir_index(ca_store *st, int64_t scan_id, char **blob, size_t *len, char **err)
{
    *blob = NULL;
    *len = 0;
    sqlite3_stmt *s;
    if (prepare(st, "SELECT listings FROM dir_index WHERE scan_id = (SELECT coalesce(rows_of, id) FROM scans WHERE id = ?)",
                &s, err))
        return -1;
    sqlite3_bind_int64(s, 1, scan_id);
    int rc = sqlite3_step(s);
    int ret = 1;
    if (rc == SQLITE_ROW) {
        size_t n = (size_t)sqlite3_column_bytes(s, 0);
        const void *b = sqlite3_column_blob(s, 0);
        *blob = ca_xmalloc(n + 1);
        if (n) memcpy(*blob, b, n);
        (*blob)[n] = 0;
        *len = n;
        ret = 0;
    } else if (rc != SQLITE_DONE) {
        ret = db_err(st, err, "cannot read the directory index");
    }
    sqlite3_finalize(s);
    return ret;
}
