/*
 * cli_scan.c — `cancelaudit scan` and `cancelaudit baseline`: options,
 * the project configuration merged under them (config.h), the store's scan
 * lifecycle (running row first, results in one transaction), baseline and
 * changed-lines filtering, per-file-ignores, and the reporters. What each
 * option does is said once, in cli_help.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "cli/cli.h"
#include "config/config.h"
#include "discover/git.h"
#include "util/json.h"
#include "report/report.h"
#include "rules/ruledoc.h"
#include "scan/scan.h"
#include "store/store.h"

int cli_is_opt(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == 0 || arg[n] == '=');
}

const char *cli_opt_value(int argc, char **argv, int *i, const char *name)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (a[n] == '=') return a + n + 1;
    if (*i + 1 >= argc) {
        fprintf(stderr, "cancelaudit: option %s needs a value\n", name);
        return NULL;
    }
    return argv[++*i];
}

/* Baseline file: {"tool": ..., "fingerprints": ["..."]} or a findings list. */
static int load_baseline(const char *path, char ***fps, size_t *n)
{
    char *buf = NULL;
    size_t len = 0;
    int e = ca_read_file(path, &buf, &len);
    if (e) {
        fprintf(stderr, "cancelaudit: baseline %s: %s\n", path, strerror(e));
        return 2;
    }
    ca_json_doc doc;
    char *err = NULL;
    if (ca_json_parse(buf, len, CA_JSON_DEFAULT_DEPTH, &doc, &err) != 0) {
        fprintf(stderr, "cancelaudit: baseline %s: %s\n", path, err ? err : "invalid JSON");
        free(err);
        free(buf);
        return 2;
    }
    free(buf);
    const ca_json_value *arr = ca_json_get(doc.root, "fingerprints");
    const ca_json_value *finds = ca_json_get(doc.root, "findings");
    *fps = NULL;
    *n = 0;
    for (int pass = 0; pass < 2; pass++) {
        const ca_json_value *a = pass == 0 ? arr : finds;
        if (!a) continue;
        for (size_t i = 0;; i++) {
            const ca_json_value *v = ca_json_at(a, i);
            if (!v) break;
            const ca_json_value *s = pass == 0 ? v : ca_json_get(v, "fingerprint");
            if (!s || s->type != CA_JSON_STRING) continue;
            *fps = ca_xrealloc(*fps, sizeof(char *) * (*n + 1));
            (*fps)[(*n)++] = ca_xstrdup(s->str);
        }
    }
    if (!arr && !finds) {
        fprintf(stderr, "cancelaudit: baseline %s: no \"fingerprints\" array\n", path);
        ca_json_doc_free(&doc);
        return 2;
    }
    ca_json_doc_free(&doc);
    return 0;
}

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int in_list(char **sorted, size_t n, const char *fp)
{
    return fp && n && bsearch(&fp, sorted, n, sizeof(char *), cmp_cstr) != NULL;
}

/* Does the baseline (sorted) hide f? Its fingerprint is listed, or, for a
 * window of several resources, the fingerprint each resource had as a
 * finding of its own is (a baseline written before findings were one per
 * window): all of them, so that a resource that joined the window since is
 * still reported. */
static int baselined_by(char **sorted, size_t n, const ca_finding *f)
{
    if (in_list(sorted, n, f->fingerprint)) return 1;
    size_t aliases = 0;
    for (size_t i = 0; i < f->nresources; i++) {
        if (!f->resources[i].alias) continue;
        if (!in_list(sorted, n, f->resources[i].alias)) return 0;
        aliases++;
    }
    return aliases > 0;
}

static int write_baseline(FILE *out, const ca_results *r)
{
    ca_sb sb = {0};
    ca_json_writer w;
    ca_json_init(&w, &sb, 1);
    ca_json_begin_object(&w);
    ca_json_tool(&w);
    ca_json_key(&w, "fingerprints");
    ca_json_begin_array(&w);
    for (size_t i = 0; i < r->nfindings; i++)
        if (!r->findings[i].suppressed) ca_json_string(&w, r->findings[i].fingerprint);
    ca_json_end_array(&w);
    ca_json_key(&w, "findings");
    ca_json_begin_array(&w);
    for (size_t i = 0; i < r->nfindings; i++) {
        const ca_finding *f = &r->findings[i];
        if (f->suppressed) continue;
        ca_json_begin_object(&w);
        ca_json_kv_string(&w, "fingerprint", f->fingerprint);
        ca_json_kv_string(&w, "rule", f->rule);
        ca_json_kv_string(&w, "path", f->path);
        ca_json_kv_string(&w, "function", f->function);
        ca_json_kv_string(&w, "resource", f->resource);
        ca_json_key(&w, "resources");
        ca_json_begin_array(&w);
        for (size_t k = 0; k < ca_finding_nresources(f); k++) ca_json_string(&w, ca_finding_resource(f, k).name);
        ca_json_end_array(&w);
        ca_json_end_object(&w);
    }
    ca_json_end_array(&w);
    ca_json_kv_int(&w, "schema_version", REPORT_JSON_SCHEMA_VERSION);
    ca_json_end_object(&w);
    ca_json_finish(&w);
    ca_sb_addc(&sb, '\n');
    int ok = fwrite(sb.buf, 1, sb.len, out) == sb.len;
    ca_sb_release(&sb);
    return ok ? 0 : -1;
}

/* The window of a finding touches a changed line: an acquisition (of any
 * of its resources), the checkpoint, a line between them, or a related
 * handler. */
static int touches_changed(const ca_changed_lines *c, const ca_finding *f)
{
    if (ca_changed_has(c, f->path, f->line)) return 1;
    for (size_t i = 0; i < f->nhandlers; i++)
        if (ca_changed_has(c, f->path, f->handlers[i].line)) return 1;
    for (size_t r = 0; r < ca_finding_nresources(f); r++) {
        int acq = ca_finding_resource(f, r).acquired_line;
        if (acq && ca_changed_has(c, f->path, acq)) return 1;
        if (acq && acq < f->line)
            for (int l = acq; l <= f->line; l++)
                if (ca_changed_has(c, f->path, l)) return 1;
    }
    return 0;
}

/* The scan's recorded arguments, with the configuration file and a digest
 * of the effective configuration (the merged options and the catalog), so
 * two scans can be told apart when only the configuration changed. */
static char *join_args(int argc, char **argv, const ca_config *cfg, uint64_t digest)
{
    ca_sb sb = {0};
    ca_sb_adds(&sb, "scan");
    for (int i = 0; i < argc; i++) {
        ca_sb_addc(&sb, ' ');
        ca_sb_adds(&sb, argv[i]);
    }
    char hex[17];
    ca_hash_hex(digest, hex);
    ca_sb_addf(&sb, " (config %s, digest %s)", cfg->abs_path ? cfg->abs_path : "none", hex);
    return ca_sb_detach(&sb);
}

static uint64_t hash_str(uint64_t h, const char *s)
{
    return s ? ca_hash64(s, strlen(s) + 1, h) : ca_hash64("", 1, ca_hash64("-", 1, h));
}

static uint64_t effective_digest(const ca_scan_opts *so)
{
    uint64_t h = CA_HASH_SEED;
    h = hash_str(h, so->select);
    h = hash_str(h, so->ignore);
    h = ca_hash64(&so->strict, sizeof(so->strict), h);
    h = ca_hash64(&so->max_size, sizeof(so->max_size), h);
    for (size_t i = 0; i < so->nexcludes; i++) h = hash_str(h, so->excludes[i]);
    h = ca_hash64("|", 1, h);
    for (size_t i = 0; i < so->nmaps; i++) h = hash_str(hash_str(h, so->maps[i].name), so->maps[i].glob);
    unsigned long long cd = ca_catalog_digest(so->cat);
    return ca_hash64(&cd, sizeof(cd), h);
}

/* "a,b" from two optional comma lists; NULL when both are empty. */
static char *join_lists(const char *a, const char *b)
{
    if (!(a && *a) && !(b && *b)) return NULL;
    if (!(a && *a)) return ca_xstrdup(b);
    if (!(b && *b)) return ca_xstrdup(a);
    return ca_xasprintf("%s,%s", a, b);
}

static int is_text_format(const char *f)
{
    return strcmp(f, "full") == 0 || strcmp(f, "concise") == 0 || strcmp(f, "text") == 0;
}

static int known_format(const char *f)
{
    return is_text_format(f) || strcmp(f, "json") == 0 || strcmp(f, "sarif") == 0 || strcmp(f, "github") == 0 ||
           strcmp(f, "markdown") == 0;
}

/* per-file-ignores as one string for the cache key; NULL when there are none. */
static char *file_ignores_key(const ca_config *cfg)
{
    if (!cfg->nfile_ignores) return NULL;
    ca_sb sb = {0};
    ca_sb_adds(&sb, "per-file-ignores");
    for (size_t i = 0; i < cfg->nfile_ignores; i++)
        ca_sb_addf(&sb, "\n%s\t%s", cfg->file_ignores[i].glob, cfg->file_ignores[i].rules);
    return ca_sb_detach(&sb);
}

static void drop_file_ignored(ca_results *r, const ca_config *cfg)
{
    if (!cfg->nfile_ignores) return;
    size_t k = 0;
    for (size_t i = 0; i < r->nfindings; i++) {
        if (ca_config_file_ignored(cfg, r->findings[i].path, r->findings[i].rule)) {
            ca_finding_free(&r->findings[i]);
            continue;
        }
        if (k != i) r->findings[k] = r->findings[i];
        k++;
    }
    r->nfindings = k;
}

/* -v: which configuration, store and rules, and why (stderr). */
static void say_setup(const ca_config *cfg, const char *config, int no_config, const char *start, const char *db,
                      const char *db_why, int no_store /* 1 --no-db, 2 baseline */)
{
    if (no_config) fprintf(stderr, "cancelaudit: configuration: none (--no-config)\n");
    else if (config) fprintf(stderr, "cancelaudit: configuration: %s (--config)\n", cfg->path ? cfg->path : config);
    else if (cfg->path) fprintf(stderr, "cancelaudit: configuration: %s (found walking up from %s)\n", cfg->path, start);
    else
        fprintf(stderr, "cancelaudit: configuration: none (no cancelaudit.toml or pyproject.toml with "
                        "[tool.cancelaudit] from %s up to the repository root)\n", start);
    if (no_store) {
        fprintf(stderr, "cancelaudit: store: none (%s)\n", no_store == 2 ? "a baseline records no scan" : "--no-db");
    } else {
        char *shown = cli_shown_path(db);
        fprintf(stderr, "cancelaudit: store: %s (%s)\n", shown, db_why ? db_why : "--db");
        free(shown);
    }
    for (size_t i = 0; i < cfg->nfile_ignores; i++)
        fprintf(stderr, "cancelaudit: per-file-ignores: %s leaves out %s\n", cfg->file_ignores[i].glob,
                cfg->file_ignores[i].rules);
}

static void say_rules(const char *select, const char *ignore, int strict)
{
    size_t n;
    const ca_ruledoc *all = ca_ruledoc_all(&n);
    fputs("cancelaudit: rules:", stderr);
    for (size_t i = 0, k = 0; i < n; i++)
        if (ca_rule_selected(all[i].id, select, ignore, strict)) fprintf(stderr, "%s %s", k++ ? "," : "", all[i].id);
    fprintf(stderr, " (%s)\n", select || ignore ? "--select/--ignore or configuration" : strict ? "defaults and strict" : "defaults");
}

int cli_scan(int argc, char **argv, int baseline_mode)
{
    const char *format = NULL, *output = NULL, *db = NULL, *select = NULL, *ignore = NULL;
    const char *baseline = NULL, *changed = NULL, *config = NULL;
    const char *compile_commands = NULL; /* C files: --compile-commands DIR */
    const char *cmd = baseline_mode ? "baseline" : "scan";
    int no_db = 0, strict = 0, jobs = 0, jobs_set = 0, quiet = 0, no_progress = 0, no_config = 0, no_cache = 0;
    int verbose = 0, statistics = 0, exit_zero = 0;
    const char *min_conf = NULL; /* --min-confidence */
    char *db_default = NULL, *db_why = NULL, *results_key = NULL;
    long long max_size = 0;
    double file_timeout = -1;   /* -1: unset (configuration, else the default); 0: no limit */
    int64_t file_memory = -1;
    CA_VEC(const char *) paths = {0};
    CA_VEC(const char *) excludes = {0};
    int rc = 0;
    ca_config cfg;
    ca_config_init(&cfg);
    ca_catalog *own_cat = NULL;
    char *eff_ignore = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v;
#define VAL(name) ((v = cli_opt_value(argc, argv, &i, name)) == NULL ? (rc = 2, (const char *)NULL) : v)
        if (cli_is_opt(a, "--format") || cli_is_opt(a, "-f") || cli_is_opt(a, "--output-format")) {
            if (!VAL(a[1] == 'f' ? "-f" : cli_is_opt(a, "--format") ? "--format" : "--output-format")) break;
            format = v;
        }
        else if (cli_is_opt(a, "--output") || cli_is_opt(a, "-o")) { if (!VAL(a[1] == 'o' ? "-o" : "--output")) break; output = v; }
        else if (cli_is_opt(a, "--db")) { if (!VAL("--db")) break; db = v; }
        else if (strcmp(a, "--no-db") == 0) no_db = 1;
        else if (cli_is_opt(a, "--select")) { if (!VAL("--select")) break; select = v; }
        else if (cli_is_opt(a, "--ignore")) { if (!VAL("--ignore")) break; ignore = v; }
        else if (strcmp(a, "--strict") == 0) strict = 1;
        else if (cli_is_opt(a, "--baseline")) { if (!VAL("--baseline")) break; baseline = v; }
        else if (cli_is_opt(a, "--changed-since")) { if (!VAL("--changed-since")) break; changed = v; }
        else if (cli_is_opt(a, "--config")) { if (!VAL("--config")) break; config = v; }
        else if (strcmp(a, "--no-config") == 0) no_config = 1;
        else if (cli_is_opt(a, "--exclude")) { if (!VAL("--exclude")) break; CA_VEC_PUSH(excludes, v); }
        else if (cli_is_opt(a, "--compile-commands")) { if (!VAL("--compile-commands")) break; compile_commands = v; }
        else if (cli_is_opt(a, "--jobs") || cli_is_opt(a, "-j")) {
            if (!VAL(a[1] == 'j' ? "-j" : "--jobs")) break;
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || n < 0 || n > 1024) { fprintf(stderr, "cancelaudit: --jobs needs a number 0..1024\n"); rc = 2; break; }
            jobs = (int)n;
            jobs_set = 1;
        } else if (cli_is_opt(a, "--max-size")) {
            if (!VAL("--max-size")) break;
            char *end;
            max_size = strtoll(v, &end, 10);
            if (*end || max_size <= 0) { fprintf(stderr, "cancelaudit: --max-size needs a positive number of bytes\n"); rc = 2; break; }
        } else if (cli_is_opt(a, "--file-timeout")) {
            if (!VAL("--file-timeout")) break;
            if (ca_config_parse_seconds(v, &file_timeout) != 0) {
                fprintf(stderr, "cancelaudit: --file-timeout needs a number of seconds (0: no limit)\n");
                rc = 2;
                break;
            }
        } else if (cli_is_opt(a, "--file-memory")) {
            if (!VAL("--file-memory")) break;
            if (ca_config_parse_memory(v, &file_memory) != 0) {
                fprintf(stderr, "cancelaudit: --file-memory needs a size: MiB, or with a unit as in 512M or 2G "
                                "(0: no limit)\n");
                rc = 2;
                break;
            }
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) quiet = 1;
        else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) verbose = 1;
        else if (strcmp(a, "--statistics") == 0 && !baseline_mode) statistics = 1;
        else if (strcmp(a, "--exit-zero") == 0 && !baseline_mode) exit_zero = 1;
        else if (cli_is_opt(a, "--min-confidence") && !baseline_mode) {
            if (!VAL("--min-confidence")) break;
            min_conf = v;
        }
        else if (strcmp(a, "--no-progress") == 0) no_progress = 1;
        else if (strcmp(a, "--no-cache") == 0) no_cache = 1;
        else if (strcmp(a, "--") == 0) { for (i++; i < argc; i++) CA_VEC_PUSH(paths, argv[i]); }
        else if (a[0] == '-' && a[1]) { cli_bad_option(cmd, a); rc = 2; break; }
        else CA_VEC_PUSH(paths, a);
#undef VAL
    }
    if (rc) goto done;
    if (quiet && verbose) {
        fprintf(stderr, "cancelaudit: --quiet and --verbose exclude each other\n");
        rc = 2;
        goto done;
    }
    ca_confidence conf_dummy;
    if (min_conf && ca_confidence_parse(min_conf, &conf_dummy) != 0) {
        fprintf(stderr, "cancelaudit: unknown --min-confidence '%s' (high, medium, low)\n", min_conf);
        rc = 2;
        goto done;
    }
    if (format && !known_format(format)) {
        fprintf(stderr, "cancelaudit: unknown --format '%s' (full, concise, json, sarif, github, markdown)\n", format);
        rc = 2;
        goto done;
    }
    if (baseline_mode && !output) {
        fprintf(stderr, "cancelaudit: baseline needs --output FILE\n");
        rc = 2;
        goto done;
    }
    char *bad = NULL;
    if ((select && ca_rule_check_list(select, &bad) != 0) || (!bad && ignore && ca_rule_check_list(ignore, &bad) != 0)) {
        cli_bad_rule(bad, select && ca_rule_check_list(select, NULL) != 0 ? "--select" : "--ignore");
        free(bad);
        rc = 2;
        goto done;
    }
    if (config && no_config) {
        fprintf(stderr, "cancelaudit: --config and --no-config exclude each other\n");
        rc = 2;
        goto done;
    }
    if (!no_config) {
        char *cfgerr = NULL;
        int cr = config ? ca_config_load(config, &cfg, &cfgerr)
                        : ca_config_discover(paths.n ? paths.v[0] : NULL, &cfg, &cfgerr);
        if (cr != 0) {
            /* "cancelaudit: FILE:LINE: what", like every usage error */
            fprintf(stderr, "cancelaudit: %s\n", cfgerr ? cfgerr : "invalid configuration");
            free(cfgerr);
            rc = 2;
            goto done;
        }
    }
    if (!format) format = cfg.output_format ? cfg.output_format : "full";
    if (!min_conf) min_conf = cfg.min_confidence; /* the command line wins */
    if (statistics && strcmp(format, "json") != 0 && !is_text_format(format)) {
        fprintf(stderr, "cancelaudit: --statistics prints text or json, not --format %s\n", format);
        rc = 2;
        goto done;
    }
    if (!db && !no_db && !baseline_mode) db = db_default = cli_default_db(paths.n ? paths.v[0] : NULL, &db_why);
    if (output) {
        /* the store this scan would use is protected even when it does not
         * open it (--no-db, baseline): a report there would destroy it */
        char *guard = db ? NULL : cli_default_db(paths.n ? paths.v[0] : NULL, NULL);
        rc = cli_refuse_store_output("--output", output, db ? db : guard);
        free(guard);
        if (rc != 0) goto done;
    }
    char *cerr = NULL;
    const ca_catalog *cat = ca_catalog_builtin(&cerr);
    if (!cat) {
        fprintf(stderr, "cancelaudit: internal error: %s\n", cerr ? cerr : "catalog");
        free(cerr);
        rc = 3;
        goto done;
    }
    own_cat = ca_config_catalog(&cfg, cat);
    if (own_cat) cat = own_cat;
    /* The command line wins: --select replaces the file's selection (and its
     * ignores, unless the file only ignores: those carry over, as in ruff);
     * --ignore and --exclude add to the file's; --strict, --jobs and
     * --max-size override it. */
    const char *eff_select = select ? select : cfg.select;
    eff_ignore = join_lists(!select || !cfg.select ? cfg.ignore : NULL, ignore);
    int eff_strict = strict || cfg.strict == 1;
    int eff_jobs = jobs_set ? jobs : cfg.jobs >= 0 ? cfg.jobs : 0;
    long long eff_max_size = max_size > 0 ? max_size : (long long)cfg.max_size;
    if (verbose) {
        say_setup(&cfg, config, no_config, paths.n ? paths.v[0] : ".", db, db_why, no_db ? 1 : baseline_mode ? 2 : 0);
        say_rules(eff_select, eff_ignore, eff_strict);
    }
    for (size_t k = 0; k < cfg.nexcludes; k++) CA_VEC_PUSH(excludes, (const char *)cfg.excludes[k]);
    char **base_fps = NULL;
    size_t nbase = 0;
    if (baseline && (rc = load_baseline(baseline, &base_fps, &nbase)) != 0) goto done;
    ca_changed_lines *chg = NULL;
    if (changed) {
        char *gerr = NULL;
        if (ca_git_changed_lines(changed, &chg, &gerr) != 0) {
            fprintf(stderr, "cancelaudit: --changed-since %s: %s\n", changed, gerr ? gerr : "git failed");
            free(gerr);
            rc = 2;
            goto done_base;
        }
    }

    ca_results res;
    memset(&res, 0, sizeof(res));
    ca_store *st = NULL;
    char *err = NULL;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof(cwd))) strcpy(cwd, ".");
    res.scan.root = ca_xstrdup(cwd);
    res.scan.git_rev = ca_git_rev(paths.n ? paths.v[0] : ".");
    res.scan.version = ca_xstrdup(ca_version);
    ca_scan_opts so;
    memset(&so, 0, sizeof(so));
    const char *dot = ".";
    so.paths = paths.n ? paths.v : &dot;
    so.npaths = paths.n ? paths.n : 1;
    so.excludes = excludes.v;
    so.nexcludes = excludes.n;
    so.jobs = eff_jobs;
    so.select = eff_select;
    so.ignore = eff_ignore;
    so.strict = eff_strict;
    so.max_size = eff_max_size;
    so.cat = cat;
    so.maps = cfg.maps;
    so.nmaps = cfg.nmaps;
    so.compile_commands = compile_commands ? compile_commands : cfg.compile_commands;
    so.c_cancel_scope = cfg.c_cancel_scope;
    /* ca_scan_opts: 0 the default, negative no limit */
    double eff_timeout = file_timeout >= 0 ? file_timeout : cfg.file_timeout;
    int64_t eff_memory = file_memory >= 0 ? file_memory : cfg.file_memory;
    so.file_timeout = eff_timeout < 0 ? 0 : eff_timeout == 0 ? -1 : eff_timeout;
    so.file_memory = eff_memory < 0 ? 0 : eff_memory == 0 ? -1 : eff_memory;
    so.quiet = quiet;
    so.progress = !no_progress && !quiet && isatty(2);
    so.results_key = results_key = file_ignores_key(&cfg);
    res.scan.args = join_args(argc, argv, &cfg, effective_digest(&so));
    if (!no_db && !baseline_mode) {
        if (store_open(db, &st, &err) != 0 || store_begin_scan(st, &res.scan, &err) != 0) {
            fprintf(stderr, "cancelaudit: %s\n", err ? err : "database: cannot open");
            free(err);
            store_close(st);
            ca_results_free(&res);
            rc = 3;
            goto done_chg;
        }
    }
    if (!res.scan.started) {
        char ts[32];
        ca_iso_now(ts, sizeof(ts));
        res.scan.started = ca_xstrdup(ts);
    }
    so.cache = no_cache ? NULL : st; /* unchanged files reuse the last scan's results (DESIGN §9) */
    so.record = st != NULL;
    so.sink = st;
    so.sink_scan = res.scan.id;
    so.defer_free = 1;
    int src = ca_scan_run(&so, &res, &err);
    if (src != 0 && res.stored_parts) store_write_abort(st);
    if (src != 0) {
        fprintf(stderr, "cancelaudit: %s\n", err ? err : "scan failed");
        free(err);
        store_close(st);
        ca_results_free(&res);
        rc = src;
        goto done_chg;
    }
    /* per-file-ignores leave rules out of files, as --ignore leaves them out of the scan: dropped before
     * the store sees them (the cache key knows them) */
    drop_file_ignored(&res, &cfg);
    /* baseline and changed-lines filters mark, never drop: the store keeps everything */
    if (nbase) qsort(base_fps, nbase, sizeof(char *), cmp_cstr);
    for (size_t i = 0; i < res.nfindings; i++) {
        ca_finding *f = &res.findings[i];
        if (baselined_by(base_fps, nbase, f)) f->baselined = 1;
        if (f->baselined) res.scan.baselined++;
        else if (chg && !touches_changed(chg, f)) f->baselined = 2;
    }
    char ts[32];
    ca_iso_now(ts, sizeof(ts));
    res.scan.finished = ca_xstrdup(ts);
    free(res.scan.status);
    res.scan.status = ca_xstrdup("complete");
    if (st) {
        int wrc = res.stored_parts ? store_write_rest(st, res.scan.id, &res, &err)
                                   : store_write_results(st, res.scan.id, &res, &err);
        if (wrc != 0) {
            fprintf(stderr, "cancelaudit: %s\n", err ? err : "database: write failed");
            free(err);
            store_close(st);
            ca_results_free(&res);
            rc = 3;
            goto done_chg;
        }
        store_checkpoint_start(st); /* while the report is written */
    }
    FILE *out = stdout;
    if (output) {
        out = fopen(output, "w");
        if (!out) {
            fprintf(stderr, "cancelaudit: --output %s: %s\n", output, strerror(errno));
            ca_results_free(&res);
            store_close(st);
            rc = 3;
            goto done_chg;
        }
    }
    report_opts ro;
    memset(&ro, 0, sizeof(ro));
    /* --min-confidence: the store keeps every finding (written above); the
     * report and the exit code know only those at the level or above */
    ca_confidence min_level;
    if (min_conf && ca_confidence_parse(min_conf, &min_level) == 0) {
        ro.min_confidence = min_conf;
        ro.below_confidence = report_drop_below_confidence(&res, min_level);
    }
    ro.cwd = cwd;
    ro.color = !output && isatty(1) && !getenv("NO_COLOR");
    ro.concise = strcmp(format, "concise") == 0 || strcmp(format, "text") == 0;
    ro.quiet = quiet;
    int wr;
    if (baseline_mode) wr = write_baseline(out, &res);
    else if (statistics) wr = report_statistics(out, &res, &ro, strcmp(format, "json") == 0);
    else if (strcmp(format, "json") == 0) wr = report_json(out, &res, &ro);
    else if (strcmp(format, "sarif") == 0) wr = report_sarif(out, &res, &ro);
    else if (strcmp(format, "github") == 0) wr = report_github(out, &res, &ro);
    else if (strcmp(format, "markdown") == 0) wr = report_markdown(out, &res, &ro);
    else wr = report_text(out, &res, &ro); /* full, concise (text) */
    if (out != stdout && fclose(out) != 0) wr = -1;
    else if (out == stdout && fflush(stdout) != 0) wr = -1;
    if (wr != 0) {
        fprintf(stderr, "cancelaudit: writing the report failed\n");
        rc = 3;
    } else if (baseline_mode) {
        rc = 0;
    } else {
        rc = 0;
        for (size_t i = 0; i < res.nfindings && !exit_zero; i++)
            if (!res.findings[i].suppressed && !res.findings[i].baselined) rc = 1;
    }
    ca_results_free(&res);
    store_close(st);
done_chg:
    ca_scan_reap();
    ca_changed_lines_free(chg);
done_base:
    for (size_t k = 0; k < nbase; k++) free(base_fps[k]);
    free(base_fps);
done:
    CA_VEC_FREE(paths);
    CA_VEC_FREE(excludes);
    free(eff_ignore);
    free(db_default);
    free(db_why);
    free(results_key);
    ca_catalog_free(own_cat);
    ca_config_free(&cfg);
    return rc;
}

int cli_rules(int argc, char **argv)
{
    (void)argv;
    if (argc > 0) {
        fprintf(stderr, "cancelaudit: rules takes no arguments\n");
        return 2;
    }
    ca_ruledoc_print_list(stdout);
    return 0;
}

int cli_explain(int argc, char **argv)
{
    if (argc != 1) {
        fprintf(stderr, "cancelaudit: usage: cancelaudit explain RULE\n");
        return 2;
    }
    return ca_ruledoc_explain(stdout, argv[0]);
}
