/*
 * merge.c — the stores of sharded scans made one (`cancelaudit merge`,
 * store.h's store_merge).
 *
 * An organisation scans its repositories as CI matrix jobs, one store per
 * job; the merge adds to one store a single scan holding every shard's
 * latest complete scan, so that `matrix`, `report` and `diff` read the
 * whole organisation as one scan (and two merges compare as two scans).
 *
 * The rows are copied table by table through merge_tables: every column
 * the destination table has is copied as it is, except the scan id (the
 * new scan's), the table's own INTEGER PRIMARY KEY (renumbered: shifted
 * past the destination's largest), an ordinal within the scan that is part
 * of the key (families.ord: shifted past the new scan's largest, so that
 * the merged scan's ordinals stay 0..n-1, as the store reads them) and a
 * reference to a renumbered parent (shifted with it). A per-scan table
 * added to the schema is one more entry there. Three parts of a scan are
 * not plain rows:
 *   - finding_flags: a shard scan that shares an earlier scan's rows keeps
 *     its own baselined flags there; the merged scan owns its rows, so the
 *     flags are folded into findings.baselined, as scan_findings reads them;
 *   - dir_index: one blob per scan; the shards' listings are decoded and
 *     written as one;
 *   - families: each shard's families are its own (found in its own class
 *     graph); once all are copied, they are put in the order a scan keeps
 *     (the largest grid first), and a name two shards both use (`*Provider`,
 *     `directories`) is made unique the way a scan does it, in the family
 *     row and in that shard's cells (order_families).
 * The scan row itself is made of the shards' (merged_scan). Everything is
 * written in one transaction of the destination: a failed merge leaves it
 * as it was. Inputs are read in a read transaction each, one at a time, so
 * any number of them can be merged.
 */
#include "store/store.h"
#include "store/store_internal.h"
#include "model/cache.h"
#include "util/util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A table whose rows belong to a scan. */
typedef struct merge_table {
    const char *name;
    const char *id;         /* its INTEGER PRIMARY KEY, renumbered; NULL: it has none */
    const char *ord;        /* an ordinal within the scan, renumbered; NULL: it has none */
    const char *parent;     /* rows selected through this table's rows (parent_col = its id); NULL: by scan_id */
    const char *parent_col;
    const char *ref;        /* a column holding ref_table's id or ordinal, shifted with it; NULL: none */
    const char *ref_table;
} merge_table;

/* Parents before the tables that refer to them. */
static const merge_table merge_tables[] = {
    {"files", NULL, NULL, NULL, NULL, NULL, NULL},
    {"functions", NULL, NULL, NULL, NULL, NULL, NULL},
    {"findings", "id", NULL, NULL, NULL, NULL, NULL},
    {"finding_handlers", NULL, NULL, "findings", "finding_id", NULL, NULL},
    {"coverage", "id", NULL, NULL, NULL, NULL, NULL},
    {"families", NULL, "ord", NULL, NULL, NULL, NULL},
    {"family_members", NULL, NULL, NULL, NULL, "family", "families"},
};
#define NTABLES (sizeof(merge_tables) / sizeof(merge_tables[0]))

static int fail(char **err, char *msg)
{
    if (err) *err = msg;
    else free(msg);
    return -1;
}

static int sql_fail(sqlite3 *db, const char *path, const char *what, char **err)
{
    return fail(err, ca_xasprintf("database %s: %s: %s", path, what, sqlite3_errmsg(db)));
}

static int exec(sqlite3 *db, const char *path, const char *sql, char **err)
{
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK) return 0;
    return sql_fail(db, path, sql, err);
}

/* One integer from a query with up to one bound integer; 0 when NULL. */
static int query_i64(sqlite3 *db, const char *path, const char *sql, int64_t arg, int64_t *out, char **err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) return sql_fail(db, path, "cannot prepare", err);
    if (sqlite3_bind_parameter_count(s) >= 1) sqlite3_bind_int64(s, 1, arg);
    int rc = sqlite3_step(s);
    *out = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    int ret = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sql_fail(db, path, "cannot read", err);
    sqlite3_finalize(s);
    return ret;
}

typedef CA_VEC(char *) str_list;

/* The columns of table in db, in order. */
static int table_columns(sqlite3 *db, const char *path, const char *table, str_list *cols, char **err)
{
    char *sql = ca_xasprintf("PRAGMA table_info(\"%s\")", table);
    sqlite3_stmt *s;
    int rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL);
    free(sql);
    if (rc != SQLITE_OK) return sql_fail(db, path, "cannot read the schema", err);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) CA_VEC_PUSH(*cols, ca_xstrdup((const char *)sqlite3_column_text(s, 1)));
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE) return sql_fail(db, path, "cannot read the schema", err);
    if (!cols->n) return fail(err, ca_xasprintf("database %s: no table %s", path, table));
    return 0;
}

typedef struct merge_run {
    sqlite3 *out;
    const char *out_path;
    int64_t scan_id;         /* the new scan */
    int64_t off[NTABLES];    /* this input's id (or ordinal) shift per table */
    int64_t lo[NTABLES], hi[NTABLES]; /* the new ids (or ordinals) this input's rows got */
} merge_run;

static size_t table_index(const char *name)
{
    for (size_t i = 0; i < NTABLES; i++)
        if (strcmp(merge_tables[i].name, name) == 0) return i;
    return NTABLES;
}

/* Copy table t's rows of scan `rows` from in into the new scan. Returns
 * 0, 2 (a primary key already taken: the same file in two shards; *err
 * says which), or -1. *copied counts the rows. */
static int copy_table(merge_run *m, sqlite3 *in, const char *in_path, size_t t, int64_t rows, int64_t *copied,
                      char **err)
{
    const merge_table *mt = &merge_tables[t];
    str_list cols = {0};
    int ret = table_columns(m->out, m->out_path, mt->name, &cols, err);
    char *where = mt->parent ? ca_xasprintf("\"%s\" IN (SELECT id FROM \"%s\" WHERE scan_id = ?1)", mt->parent_col,
                                            mt->parent)
                             : ca_xstrdup("scan_id = ?1");
    ca_sb sel = {0}, ins = {0};
    sqlite3_stmt *rs = NULL, *ws = NULL;
    size_t parent = mt->parent ? table_index(mt->parent) : NTABLES;
    size_t ref = mt->ref_table ? table_index(mt->ref_table) : NTABLES;
    *copied = 0;
    if (ret) goto done;
    if (mt->ord) {
        /* ordinals of one scan: this input's follow those already in the new scan */
        int64_t next = 0, min_in = 0, max_in = 0;
        char *q = ca_xasprintf("SELECT coalesce(max(\"%s\") + 1, 0) FROM \"%s\" WHERE scan_id = ?1", mt->ord,
                               mt->name);
        ret = query_i64(m->out, m->out_path, q, m->scan_id, &next, err);
        free(q);
        q = ca_xasprintf("SELECT coalesce(min(\"%s\"), 0) FROM \"%s\" WHERE %s", mt->ord, mt->name, where);
        if (!ret) ret = query_i64(in, in_path, q, rows, &min_in, err);
        free(q);
        q = ca_xasprintf("SELECT coalesce(max(\"%s\"), -1) FROM \"%s\" WHERE %s", mt->ord, mt->name, where);
        if (!ret) ret = query_i64(in, in_path, q, rows, &max_in, err);
        free(q);
        if (ret) goto done;
        m->off[t] = next - min_in;
        m->lo[t] = min_in + m->off[t];
        m->hi[t] = max_in + m->off[t]; /* below lo when the input has none */
    }
    if (mt->id) {
        int64_t max_out = 0, min_in = 0, max_in = 0;
        char *q = ca_xasprintf("SELECT max(\"%s\") FROM \"%s\"", mt->id, mt->name);
        ret = query_i64(m->out, m->out_path, q, 0, &max_out, err);
        free(q);
        q = ca_xasprintf("SELECT min(\"%s\") FROM \"%s\" WHERE %s", mt->id, mt->name, where);
        if (!ret) ret = query_i64(in, in_path, q, rows, &min_in, err);
        free(q);
        q = ca_xasprintf("SELECT max(\"%s\") FROM \"%s\" WHERE %s", mt->id, mt->name, where);
        if (!ret) ret = query_i64(in, in_path, q, rows, &max_in, err);
        free(q);
        if (ret) goto done;
        m->off[t] = max_out + 1 - min_in;
        m->lo[t] = min_in + m->off[t];
        m->hi[t] = max_in + m->off[t];
    }
    ca_sb_adds(&sel, "SELECT ");
    ca_sb_addf(&ins, "INSERT INTO \"%s\"(", mt->name);
    for (size_t k = 0; k < cols.n; k++) {
        ca_sb_addf(&sel, "%s\"%s\"", k ? ", " : "", cols.v[k]);
        ca_sb_addf(&ins, "%s\"%s\"", k ? ", " : "", cols.v[k]);
    }
    ca_sb_addf(&sel, " FROM \"%s\" WHERE %s", mt->name, where);
    ca_sb_adds(&ins, ") VALUES (");
    for (size_t k = 0; k < cols.n; k++) ca_sb_adds(&ins, k ? ", ?" : "?");
    ca_sb_addc(&ins, ')');
    if (sqlite3_prepare_v2(in, ca_sb_str(&sel), -1, &rs, NULL) != SQLITE_OK) {
        ret = sql_fail(in, in_path, "cannot read its rows (is it a store of this version?)", err);
        goto done;
    }
    if (sqlite3_prepare_v2(m->out, ca_sb_str(&ins), -1, &ws, NULL) != SQLITE_OK) {
        ret = sql_fail(m->out, m->out_path, "cannot prepare the copy", err);
        goto done;
    }
    sqlite3_bind_int64(rs, 1, rows);
    int rc;
    while ((rc = sqlite3_step(rs)) == SQLITE_ROW) {
        for (size_t k = 0; k < cols.n; k++) {
            const char *c = cols.v[k];
            int b = (int)k + 1;
            if ((mt->id && strcmp(c, mt->id) == 0) || (mt->ord && strcmp(c, mt->ord) == 0))
                sqlite3_bind_int64(ws, b, sqlite3_column_int64(rs, (int)k) + m->off[t]);
            else if (mt->ref && strcmp(c, mt->ref) == 0 && ref < NTABLES)
                sqlite3_bind_int64(ws, b, sqlite3_column_int64(rs, (int)k) + m->off[ref]);
            else if (strcmp(c, "scan_id") == 0)
                sqlite3_bind_int64(ws, b, m->scan_id);
            else if (mt->parent_col && strcmp(c, mt->parent_col) == 0 && parent < NTABLES)
                sqlite3_bind_int64(ws, b, sqlite3_column_int64(rs, (int)k) + m->off[parent]);
            else
                sqlite3_bind_value(ws, b, sqlite3_column_value(rs, (int)k));
        }
        int wrc = sqlite3_step(ws);
        if (wrc != SQLITE_DONE) {
            if ((wrc & 0xff) == SQLITE_CONSTRAINT && strcmp(mt->name, "files") == 0) {
                ret = 2;
                fail(err, ca_xasprintf("%s: %s is in an earlier input too: the shards must scan disjoint paths",
                                       in_path, (const char *)sqlite3_column_text(rs, 1)));
            } else {
                ret = sql_fail(m->out, m->out_path, "cannot copy a row", err);
            }
            goto done;
        }
        sqlite3_reset(ws);
        sqlite3_clear_bindings(ws);
        (*copied)++;
    }
    if (rc != SQLITE_DONE) ret = sql_fail(in, in_path, "cannot read its rows", err);
done:
    sqlite3_finalize(rs);
    sqlite3_finalize(ws);
    ca_sb_release(&sel);
    ca_sb_release(&ins);
    free(where);
    for (size_t k = 0; k < cols.n; k++) free(cols.v[k]);
    CA_VEC_FREE(cols);
    return ret;
}

/* A shard scan that shares an earlier scan's rows: its own baselined flags. */
static int fold_flags(merge_run *m, sqlite3 *in, const char *in_path, int64_t shard_scan, char **err)
{
    size_t t = table_index("findings");
    sqlite3_stmt *zero = NULL, *rs = NULL, *ws = NULL;
    int ret = 0;
    if (sqlite3_prepare_v2(m->out, "UPDATE findings SET baselined = 0 WHERE scan_id = ?1 AND id BETWEEN ?2 AND ?3", -1,
                           &zero, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(m->out, "UPDATE findings SET baselined = ?1 WHERE id = ?2 AND scan_id = ?3", -1, &ws,
                           NULL) != SQLITE_OK) {
        ret = sql_fail(m->out, m->out_path, "cannot prepare the flags", err);
        goto done;
    }
    if (sqlite3_prepare_v2(in, "SELECT finding_id, baselined FROM finding_flags WHERE scan_id = ?1", -1, &rs, NULL) !=
        SQLITE_OK) {
        ret = sql_fail(in, in_path, "cannot read the finding flags", err);
        goto done;
    }
    sqlite3_bind_int64(zero, 1, m->scan_id);
    sqlite3_bind_int64(zero, 2, m->lo[t]);
    sqlite3_bind_int64(zero, 3, m->hi[t]);
    if (sqlite3_step(zero) != SQLITE_DONE) {
        ret = sql_fail(m->out, m->out_path, "cannot write the flags", err);
        goto done;
    }
    sqlite3_bind_int64(rs, 1, shard_scan);
    int rc;
    while ((rc = sqlite3_step(rs)) == SQLITE_ROW) {
        sqlite3_bind_int64(ws, 1, sqlite3_column_int64(rs, 1));
        sqlite3_bind_int64(ws, 2, sqlite3_column_int64(rs, 0) + m->off[t]);
        sqlite3_bind_int64(ws, 3, m->scan_id);
        if (sqlite3_step(ws) != SQLITE_DONE) {
            ret = sql_fail(m->out, m->out_path, "cannot write the flags", err);
            goto done;
        }
        sqlite3_reset(ws);
    }
    if (rc != SQLITE_DONE) ret = sql_fail(in, in_path, "cannot read the finding flags", err);
done:
    sqlite3_finalize(zero);
    sqlite3_finalize(rs);
    sqlite3_finalize(ws);
    return ret;
}

/* The scan row of a shard, as the merge combines it. */
typedef struct shard_scan {
    int64_t id, rows_of, started_ns, counts[5]; /* files_scanned, files_skipped, errors, baselined, findings_count */
    char *started, *finished, *root, *git_rev, *version, *cache_key;
} shard_scan;

static void shard_scan_free(shard_scan *s)
{
    free(s->started);
    free(s->finished);
    free(s->root);
    free(s->git_rev);
    free(s->version);
    free(s->cache_key);
}

static char *col_dup(sqlite3_stmt *s, int i)
{
    const unsigned char *t = sqlite3_column_text(s, i);
    return t ? ca_xstrdup((const char *)t) : NULL;
}

/* The latest complete scan of in: 0, 1 when there is none, -1. */
static int latest_scan(sqlite3 *in, const char *path, shard_scan *out, char **err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(in,
                           "SELECT id, rows_of, started_ns, files_scanned, files_skipped, errors, baselined,"
                           " findings_count, started, finished, root, git_rev, version, cache_key"
                           " FROM scans WHERE status = 'complete' ORDER BY id DESC LIMIT 1",
                           -1, &s, NULL) != SQLITE_OK)
        return sql_fail(in, path, "cannot read its scans", err);
    int rc = sqlite3_step(s), ret = 1;
    if (rc == SQLITE_ROW) {
        out->id = sqlite3_column_int64(s, 0);
        out->rows_of = sqlite3_column_int64(s, 1);
        out->started_ns = sqlite3_column_int64(s, 2);
        for (int k = 0; k < 5; k++) out->counts[k] = sqlite3_column_int64(s, 3 + k);
        out->started = col_dup(s, 8);
        out->finished = col_dup(s, 9);
        out->root = col_dup(s, 10);
        out->git_rev = col_dup(s, 11);
        out->version = col_dup(s, 12);
        out->cache_key = col_dup(s, 13);
        ret = 0;
    } else if (rc != SQLITE_DONE) {
        ret = sql_fail(in, path, "cannot read its scans", err);
    } else {
        fail(err, ca_xasprintf("%s holds no complete scan", path));
    }
    sqlite3_finalize(s);
    return ret;
}

/* ---- the directory index ---------------------------------------------- */

typedef CA_VEC(ca_dir_rec) dir_vec;

static int add_listings(dir_vec *dirs, const char *blob, size_t len)
{
    size_t at = 0;
    const char *path, *entries;
    int64_t mtime;
    size_t elen;
    int rc;
    while ((rc = ca_dirs_next(blob, len, &at, &path, &mtime, &entries, &elen)) == 1) {
        ca_dir_rec d = {ca_xstrdup(path), mtime, ca_xmalloc(elen + 1), elen};
        memcpy(d.entries, entries, elen);
        CA_VEC_PUSH(*dirs, d);
    }
    return rc;
}

static int cmp_dir(const void *a, const void *b)
{
    return strcmp(((const ca_dir_rec *)a)->path, ((const ca_dir_rec *)b)->path);
}

static int write_listings(merge_run *m, dir_vec *dirs, char **err)
{
    if (!dirs->n) return 0;
    qsort(dirs->v, dirs->n, sizeof(ca_dir_rec), cmp_dir);
    size_t k = 0; /* a directory two shards listed: the first listing serves */
    for (size_t i = 0; i < dirs->n; i++) {
        if (k && strcmp(dirs->v[k - 1].path, dirs->v[i].path) == 0) {
            free(dirs->v[i].path);
            free(dirs->v[i].entries);
            continue;
        }
        dirs->v[k++] = dirs->v[i];
    }
    dirs->n = k;
    size_t len = 0;
    char *blob = ca_dirs_encode(dirs->v, dirs->n, &len);
    sqlite3_stmt *s;
    int ret = 0;
    if (len >= (size_t)sqlite3_limit(m->out, SQLITE_LIMIT_LENGTH, -1)) goto out; /* only a cache */
    if (sqlite3_prepare_v2(m->out, "INSERT INTO dir_index(scan_id, listings) VALUES (?, ?)", -1, &s, NULL) !=
        SQLITE_OK) {
        ret = sql_fail(m->out, m->out_path, "cannot write the directory index", err);
        goto out;
    }
    sqlite3_bind_int64(s, 1, m->scan_id);
    sqlite3_bind_blob(s, 2, blob, (int)len, SQLITE_STATIC);
    if (sqlite3_step(s) != SQLITE_DONE) ret = sql_fail(m->out, m->out_path, "cannot write the directory index", err);
    sqlite3_finalize(s);
out:
    free(blob);
    return ret;
}

/* ---- one input ---------------------------------------------------------- */

static int merge_one(merge_run *m, store_merge_part *part, shard_scan *sc, dir_vec *dirs, char **err)
{
    ca_store *st = NULL;
    if (store_open(part->path, &st, err) != 0) return -1;
    sqlite3 *in = store_sqlite(st);
    int ret = exec(in, part->path, "BEGIN", err);
    if (!ret) ret = latest_scan(in, part->path, sc, err);
    int64_t rows = sc->rows_of ? sc->rows_of : sc->id;
    for (size_t t = 0; !ret && t < NTABLES; t++) {
        int64_t n = 0;
        ret = copy_table(m, in, part->path, t, rows, &n, err);
        if (strcmp(merge_tables[t].name, "files") == 0) part->files = n;
        if (strcmp(merge_tables[t].name, "findings") == 0) part->findings = n;
        if (strcmp(merge_tables[t].name, "coverage") == 0) part->cells = n;
        if (strcmp(merge_tables[t].name, "families") == 0) part->families = n;
    }
    if (!ret && sc->rows_of) ret = fold_flags(m, in, part->path, sc->id, err);
    if (!ret) {
        char *blob = NULL;
        size_t len = 0;
        int lr = store_load_dir_index(st, sc->id, &blob, &len, err);
        if (lr < 0) ret = -1;
        else if (lr == 0 && add_listings(dirs, blob, len) < 0)
            ret = fail(err, ca_xasprintf("database %s: its directory index does not decode", part->path));
        free(blob);
    }
    part->scan_id = sc->id;
    sqlite3_exec(in, "ROLLBACK", NULL, NULL, NULL);
    store_close(st);
    return ret;
}

/* ---- the families' order and names -------------------------------------- */

/* Where one input's rows went in the new scan. */
typedef struct shard_range {
    int64_t fam_lo, fam_hi; /* its families' ordinals (fam_hi < fam_lo: none) */
    int64_t cov_lo, cov_hi; /* its cells' ids */
    int64_t cells;          /* how many cells it has (0: the id range means nothing) */
} shard_range;

/* Run sql once with ?1, ?2, ... bound as fmt says ('i' an int64_t, 's' a
 * string or NULL); *out (when not NULL) gets the first column of its first
 * row, 0 when there is none. */
static int run_sql(sqlite3 *db, const char *path, const char *sql, int64_t *out, char **err, const char *fmt, ...)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) return sql_fail(db, path, "cannot prepare", err);
    va_list ap;
    va_start(ap, fmt);
    for (int k = 0; fmt[k]; k++) {
        if (fmt[k] == 'i') sqlite3_bind_int64(s, k + 1, va_arg(ap, int64_t));
        else sqlite3_bind_text(s, k + 1, va_arg(ap, const char *), -1, SQLITE_TRANSIENT);
    }
    va_end(ap);
    int rc = sqlite3_step(s);
    if (out) *out = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    int ret = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sql_fail(db, path, "cannot update the families", err);
    sqlite3_finalize(s);
    return ret;
}

/* A family of the new scan as order_families sees it. */
typedef struct fam_row {
    int64_t ord;              /* as copied */
    char *name, *base, *path; /* as copied */
    int64_t line;
    size_t shard;             /* the input it came from (nshards: none known) */
    int64_t cells, backends;  /* its grid: backends x boundaries, and its backends */
    char *renamed;            /* its name when the copied one is taken by an earlier family; NULL: kept */
} fam_row;

static const char *fam_name(const fam_row *f) { return f->renamed ? f->renamed : f->name; }

/* The families of the new scan in a scan's order: the largest grid first,
 * then the one with more backends, else as the inputs came (family.c's
 * ca_families_find). A name an earlier family has is made unique as a scan
 * makes it: "Base (path:line)" for a family with a base class, else "name
 * (N)" with N its place; the rename reaches that input's cells, which name
 * their family. Ordinals are rewritten through negative ones, so that no
 * two rows hold the same key at any point. */
static int order_families(merge_run *m, const shard_range *sh, size_t nsh, char **err)
{
    CA_VEC(fam_row) fs = {0};
    sqlite3_stmt *s;
    int ret = 0;
    if (sqlite3_prepare_v2(m->out, "SELECT ord, name, base, path, line FROM families WHERE scan_id = ?1 ORDER BY ord",
                           -1, &s, NULL) != SQLITE_OK)
        return sql_fail(m->out, m->out_path, "cannot read the families", err);
    sqlite3_bind_int64(s, 1, m->scan_id);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        fam_row f = {.ord = sqlite3_column_int64(s, 0), .name = col_dup(s, 1), .base = col_dup(s, 2),
                     .path = col_dup(s, 3), .line = sqlite3_column_int64(s, 4), .shard = nsh};
        if (!f.name) f.name = ca_xstrdup("");
        for (size_t k = 0; k < nsh && f.shard == nsh; k++)
            if (f.ord >= sh[k].fam_lo && f.ord <= sh[k].fam_hi) f.shard = k;
        CA_VEC_PUSH(fs, f);
    }
    if (rc != SQLITE_DONE) ret = sql_fail(m->out, m->out_path, "cannot read the families", err);
    sqlite3_finalize(s);

    for (size_t i = 0; !ret && i < fs.n; i++) {
        fam_row *f = &fs.v[i];
        int64_t bounds = 0;
        ret = run_sql(m->out, m->out_path,
                      "SELECT count(*) FROM family_members WHERE scan_id = ?1 AND family = ?2 AND backend IS NOT NULL",
                      &f->backends, err, "ii", m->scan_id, f->ord);
        if (!ret && f->shard < nsh && sh[f->shard].cells)
            ret = run_sql(m->out, m->out_path,
                          "SELECT count(DISTINCT boundary) FROM coverage WHERE scan_id = ?1 AND family = ?2"
                          " AND id BETWEEN ?3 AND ?4",
                          &bounds, err, "isii", m->scan_id, f->name, sh[f->shard].cov_lo, sh[f->shard].cov_hi);
        f->cells = f->backends * bounds;
    }
    /* stable: an insertion sort, as the scan's */
    int moved = 0;
    for (size_t i = 1; !ret && i < fs.n; i++)
        for (size_t j = i; j > 0; j--) {
            const fam_row *a = &fs.v[j - 1], *b = &fs.v[j];
            if (!(a->cells < b->cells || (a->cells == b->cells && a->backends < b->backends))) break;
            fam_row t = fs.v[j - 1];
            fs.v[j - 1] = fs.v[j];
            fs.v[j] = t;
            moved = 1;
        }
    int renamed = 0;
    for (size_t i = 0; !ret && i < fs.n; i++) {
        fam_row *f = &fs.v[i];
        size_t tries = 0;
        for (size_t j = 0; j < i; j++) {
            if (strcmp(fam_name(&fs.v[j]), fam_name(f)) != 0) continue;
            char *n = tries == 0 && f->base && f->path
                          ? ca_xasprintf("%s (%s:%lld)", f->base, f->path, (long long)f->line)
                          : ca_xasprintf("%s (%zu)", f->name, i + 1 + tries);
            free(f->renamed);
            f->renamed = n;
            renamed = 1;
            tries++;
            j = (size_t)-1; /* again from the start */
        }
    }

    if (!ret && (moved || renamed)) {
        ret = run_sql(m->out, m->out_path, "UPDATE families SET ord = -1 - ord WHERE scan_id = ?1", NULL, err, "i",
                      m->scan_id);
        if (!ret)
            ret = run_sql(m->out, m->out_path,
                          "UPDATE family_members SET family = -1 - family WHERE scan_id = ?1 AND family >= 0", NULL,
                          err, "i", m->scan_id);
        for (size_t i = 0; !ret && i < fs.n; i++) {
            const fam_row *f = &fs.v[i];
            int64_t at = (int64_t)i, was = -1 - f->ord;
            ret = run_sql(m->out, m->out_path,
                          "UPDATE families SET ord = ?1, name = ?2 WHERE scan_id = ?3 AND ord = ?4", NULL, err,
                          "isii", at, fam_name(f), m->scan_id, was);
            if (!ret)
                ret = run_sql(m->out, m->out_path,
                              "UPDATE family_members SET family = ?1 WHERE scan_id = ?2 AND family = ?3", NULL, err,
                              "iii", at, m->scan_id, was);
            if (!ret && f->renamed && f->shard < nsh && sh[f->shard].cells)
                ret = run_sql(m->out, m->out_path,
                              "UPDATE coverage SET family = ?1 WHERE scan_id = ?2 AND family = ?3"
                              " AND id BETWEEN ?4 AND ?5",
                              NULL, err, "sisii", f->renamed, m->scan_id, f->name, sh[f->shard].cov_lo,
                              sh[f->shard].cov_hi);
        }
    }
    for (size_t i = 0; i < fs.n; i++) {
        free(fs.v[i].name);
        free(fs.v[i].base);
        free(fs.v[i].path);
        free(fs.v[i].renamed);
    }
    CA_VEC_FREE(fs);
    return ret;
}

/* ---- the merged scan row ------------------------------------------------ */

/* *acc becomes the longest directory that holds both *acc and b (absolute
 * paths); NULL when either is unknown. */
static void common_dir(char **acc, const char *b)
{
    char *a = *acc;
    if (!a) return;
    if (!b) {
        free(a);
        *acc = NULL;
        return;
    }
    size_t i = 0;
    while (a[i] && a[i] == b[i]) i++;
    if (!a[i] && (!b[i] || b[i] == '/')) return; /* a is b or holds it */
    if (!b[i] && a[i] == '/') {
        a[i] = 0;
        return;
    }
    while (i > 0 && a[i - 1] != '/') i--;
    if (i <= 1) a[1] = 0; /* only the root in common */
    else a[i - 1] = 0;
}

static int same_str(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

int store_merge(ca_store *out, store_merge_part *parts, size_t n, const char *args, int64_t *scan_id, char **err)
{
    merge_run m;
    memset(&m, 0, sizeof(m));
    m.out = store_sqlite(out);
    m.out_path = store_path(out);
    *scan_id = 0;
    if (exec(m.out, m.out_path, "BEGIN IMMEDIATE", err)) return -1;
    int ret = 0;
    char now[32];
    ca_iso_now(now, sizeof now);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(m.out,
                           "INSERT INTO scans(started, version, args, status, pid, host, boot_id)"
                           " VALUES (?, ?, ?, 'running', ?, ?, ?)",
                           -1, &s, NULL) != SQLITE_OK) {
        ret = sql_fail(m.out, m.out_path, "cannot record the scan", err);
        goto done;
    }
    sqlite3_bind_text(s, 1, now, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 2, ca_version, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, args, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 4, (int64_t)getpid());
    sqlite3_bind_text(s, 5, store_host(out), -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 6, store_boot_id(out), -1, SQLITE_STATIC);
    if (sqlite3_step(s) != SQLITE_DONE) ret = sql_fail(m.out, m.out_path, "cannot record the scan", err);
    sqlite3_finalize(s);
    if (ret) goto done;
    m.scan_id = sqlite3_last_insert_rowid(m.out);

    /* what the shards' scan rows combine into */
    shard_scan acc;
    memset(&acc, 0, sizeof(acc));
    int first = 1, same_rev = 1, same_key = 1;
    ca_sb versions = {0};
    dir_vec dirs = {0};
    shard_range *ranges = ca_xcalloc(n + 1, sizeof(shard_range));
    size_t fam_t = table_index("families"), cov_t = table_index("coverage");
    for (size_t i = 0; i < n && !ret; i++) {
        shard_scan sc;
        memset(&sc, 0, sizeof(sc));
        ret = merge_one(&m, &parts[i], &sc, &dirs, err);
        if (!ret) {
            ranges[i] = (shard_range){m.lo[fam_t], m.hi[fam_t], m.lo[cov_t], m.hi[cov_t], parts[i].cells};
            if (first) {
                acc.started = ca_xstrdup(sc.started ? sc.started : now);
                acc.started_ns = sc.started_ns;
                acc.finished = sc.finished ? ca_xstrdup(sc.finished) : NULL;
                acc.root = sc.root ? ca_xstrdup(sc.root) : NULL;
                acc.git_rev = sc.git_rev ? ca_xstrdup(sc.git_rev) : NULL;
                acc.cache_key = sc.cache_key ? ca_xstrdup(sc.cache_key) : NULL;
            } else {
                if (sc.started && strcmp(sc.started, acc.started) < 0) {
                    free(acc.started);
                    acc.started = ca_xstrdup(sc.started);
                }
                if (sc.started_ns && (!acc.started_ns || sc.started_ns < acc.started_ns)) acc.started_ns = sc.started_ns;
                if (sc.finished && (!acc.finished || strcmp(sc.finished, acc.finished) > 0)) {
                    free(acc.finished);
                    acc.finished = ca_xstrdup(sc.finished);
                }
                common_dir(&acc.root, sc.root);
                same_rev = same_rev && same_str(acc.git_rev, sc.git_rev);
                same_key = same_key && same_str(acc.cache_key, sc.cache_key);
            }
            for (int k = 0; k < 4; k++) acc.counts[k] += sc.counts[k];
            acc.counts[4] += parts[i].findings;
            const char *v = sc.version ? sc.version : "?";
            if (!strstr(ca_sb_str(&versions), v)) {
                if (versions.len) ca_sb_adds(&versions, ", ");
                ca_sb_adds(&versions, v);
            }
            first = 0;
        }
        shard_scan_free(&sc);
    }
    if (!ret) ret = order_families(&m, ranges, n, err);
    free(ranges);
    if (!ret) ret = write_listings(&m, &dirs, err);
    for (size_t i = 0; i < dirs.n; i++) {
        free(dirs.v[i].path);
        free(dirs.v[i].entries);
    }
    CA_VEC_FREE(dirs);
    if (!ret) {
        /* the same revision and cache key in every shard carry over: a later
         * scan of the union from here may reuse the merged results file by
         * file; a tree digest never does (no walk saw the union), nor a class
         * digest (no scan found families in the union's class graph: a diff
         * against the merged scan compares the families by name) */
        if (sqlite3_prepare_v2(m.out,
                               "UPDATE scans SET started = ?, started_ns = ?, finished = ?, root = ?, git_rev = ?,"
                               " version = ?, files_scanned = ?, files_skipped = ?, errors = ?, baselined = ?,"
                               " findings_count = ?, cache_key = ?, status = 'complete' WHERE id = ?",
                               -1, &s, NULL) != SQLITE_OK) {
            ret = sql_fail(m.out, m.out_path, "cannot complete the scan", err);
        } else {
            sqlite3_bind_text(s, 1, acc.started ? acc.started : now, -1, SQLITE_STATIC);
            if (acc.started_ns) sqlite3_bind_int64(s, 2, acc.started_ns);
            sqlite3_bind_text(s, 3, acc.finished ? acc.finished : now, -1, SQLITE_STATIC);
            sqlite3_bind_text(s, 4, acc.root, -1, SQLITE_STATIC);
            sqlite3_bind_text(s, 5, same_rev ? acc.git_rev : NULL, -1, SQLITE_STATIC);
            sqlite3_bind_text(s, 6, versions.len ? ca_sb_str(&versions) : ca_version, -1, SQLITE_STATIC);
            for (int k = 0; k < 5; k++) sqlite3_bind_int64(s, 7 + k, acc.counts[k]);
            sqlite3_bind_text(s, 12, same_key ? acc.cache_key : NULL, -1, SQLITE_STATIC);
            sqlite3_bind_int64(s, 13, m.scan_id);
            if (sqlite3_step(s) != SQLITE_DONE) ret = sql_fail(m.out, m.out_path, "cannot complete the scan", err);
            sqlite3_finalize(s);
        }
    }
    shard_scan_free(&acc);
    ca_sb_release(&versions);
    if (!ret) ret = exec(m.out, m.out_path, "COMMIT", err);
done:
    if (ret) sqlite3_exec(m.out, "ROLLBACK", NULL, NULL, NULL);
    else *scan_id = m.scan_id;
    return ret;
}
