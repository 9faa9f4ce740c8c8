/*
 * report_sarif.c — `--format sarif`: SARIF 2.1.0 for code-scanning services
 * (GitHub, Azure DevOps) and SARIF viewers.
 *
 * One run. Rule metadata comes from the embedded rule docs (ruledoc.h);
 * artifact URIs are RFC 3986 relative references against %SRCROOT%, which
 * originalUriBaseIds binds to the current directory, so the file stays
 * valid when moved to another checkout. Suppressed findings stay in the log
 * with an inSource suppression, baselined ones with an external one:
 * consumers then show them as dismissed instead of as fixed.
 */
#include "report/report.h"
#include "util/json.h"
#include "rules/ruledoc.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define INFO_URI "https://github.com/cancelaudit/cancelaudit"
#define SRCROOT "%SRCROOT%"

/* RFC 3986: keep unreserved characters and the '/' separator, percent-encode
 * every other byte (UTF-8 included). */
static void add_uri_path(ca_sb *sb, const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        unsigned c = *p;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
            c == '_' || c == '~' || c == '/') {
            ca_sb_addc(sb, (char)c);
        } else {
            ca_sb_addc(sb, '%');
            ca_sb_addc(sb, hex[c >> 4]);
            ca_sb_addc(sb, hex[c & 15]);
        }
    }
}

typedef struct sarif_ctx {
    ca_json_writer *w;
    const char *cwd;         /* without trailing slash, "" for the root */
    const ca_ruledoc *docs;
    size_t ndocs;
} sarif_ctx;

/* artifactLocation for a scan path: relative to %SRCROOT% when possible. */
static void write_artifact(sarif_ctx *c, const char *path)
{
    ca_sb uri = {0};
    int relative = 1;
    path = path ? path : "";
    if (path[0] == '/') {
        size_t cl = strlen(c->cwd);
        if (strncmp(path, c->cwd, cl) == 0 && path[cl] == '/') {
            path += cl + 1;
        } else {
            relative = 0;
        }
    }
    while (path[0] == '.' && path[1] == '/') {
        path += 2;
        while (*path == '/') path++;
    }
    if (!relative) ca_sb_adds(&uri, "file://");
    add_uri_path(&uri, path);

    ca_json_key(c->w, "artifactLocation");
    ca_json_begin_object(c->w);
    ca_json_kv_string(c->w, "uri", ca_sb_str(&uri));
    if (relative) ca_json_kv_string(c->w, "uriBaseId", SRCROOT);
    ca_json_end_object(c->w);
    ca_sb_release(&uri);
}

static void write_physical(sarif_ctx *c, const char *path, int line, int col, int end_line, int end_col)
{
    ca_json_key(c->w, "physicalLocation");
    ca_json_begin_object(c->w);
    write_artifact(c, path);
    if (line > 0) {
        ca_json_key(c->w, "region");
        ca_json_begin_object(c->w);
        ca_json_kv_int(c->w, "startLine", line);
        if (col > 0) ca_json_kv_int(c->w, "startColumn", col);
        /* an end before the start would make the region invalid: leave it out */
        if (end_line >= line && col > 0 && end_col > 0 && (end_line > line || end_col >= col)) {
            ca_json_kv_int(c->w, "endLine", end_line);
            ca_json_kv_int(c->w, "endColumn", end_col);
        }
        ca_json_end_object(c->w);
    }
    ca_json_end_object(c->w);
}

static void write_message(ca_json_writer *w, const char *text)
{
    ca_json_key(w, "message");
    ca_json_begin_object(w);
    ca_json_kv_string(w, "text", text ? text : "");
    ca_json_end_object(w);
}

static const char *sarif_level(ca_severity s)
{
    switch (s) {
    case CA_SEV_ERROR: return "error";
    case CA_SEV_WARNING: return "warning";
    default: return "note";
    }
}

static void write_rule(sarif_ctx *c, const ca_ruledoc *d)
{
    ca_json_writer *w = c->w;
    char *what = ca_ruledoc_section(d, "What it does");
    ca_json_begin_object(w);
    ca_json_kv_string(w, "id", d->id);
    ca_json_kv_string(w, "name", d->name);
    ca_json_key(w, "shortDescription");
    ca_json_begin_object(w);
    ca_json_kv_string(w, "text", d->summary);
    ca_json_end_object(w);
    ca_json_key(w, "fullDescription");
    ca_json_begin_object(w);
    ca_json_kv_string(w, "text", what && *what ? what : d->summary);
    ca_json_end_object(w);
    char *help_uri = ca_xasprintf("%s/blob/main/rules/%s.md", INFO_URI, d->id);
    ca_json_kv_string(w, "helpUri", help_uri);
    free(help_uri);
    ca_json_key(w, "help");
    ca_json_begin_object(w);
    ca_json_kv_string(w, "text", d->body && *d->body ? d->body : d->summary);
    ca_json_kv_string(w, "markdown", d->body && *d->body ? d->body : d->summary);
    ca_json_end_object(w);
    ca_json_key(w, "defaultConfiguration");
    ca_json_begin_object(w);
    ca_json_kv_string(w, "level", sarif_level(d->severity));
    if (!d->default_on) ca_json_kv_bool(w, "enabled", 0);
    ca_json_end_object(w);
    ca_json_key(w, "properties");
    ca_json_begin_object(w);
    ca_json_key(w, "tags");
    ca_json_begin_array(w);
    ca_json_string(w, "cancellation");
    ca_json_string(w, d->default_on ? "default" : "strict");
    ca_json_end_array(w);
    ca_json_end_object(w);
    ca_json_end_object(w);
    free(what);
}

static long rule_index(const sarif_ctx *c, const char *id)
{
    for (size_t i = 0; id && i < c->ndocs; i++)
        if (strcmp(c->docs[i].id, id) == 0) return (long)i;
    return -1;
}

static char *handler_message(const ca_finding *f, const ca_handler_ref *h)
{
    const char *catches = h->catches ? h->catches : "";
    if (strcmp(catches, "finally") == 0) return ca_xstrdup("finally block");
    if (f->rule && strncmp(f->rule, "CAN1", 4) == 0)
        return ca_xasprintf("handler catches %s, which does not include cancellation", catches);
    return ca_xasprintf("handler catches %s", catches);
}

static void write_result(sarif_ctx *c, const ca_finding *f)
{
    ca_json_writer *w = c->w;
    long idx = rule_index(c, f->rule);
    int related_id = 1;

    ca_json_begin_object(w);
    ca_json_kv_string(w, "ruleId", f->rule ? f->rule : "");
    if (idx >= 0) ca_json_kv_int(w, "ruleIndex", idx);
    ca_json_kv_string(w, "level", sarif_level(f->severity));
    ca_json_key(w, "rank");
    ca_json_double(w, report_confidence_rank(f->confidence));
    write_message(w, f->message);

    ca_json_key(w, "locations");
    ca_json_begin_array(w);
    ca_json_begin_object(w);
    write_physical(c, f->path, f->line, f->column, f->end_line, f->end_column);
    if (f->function) {
        ca_json_key(w, "logicalLocations");
        ca_json_begin_array(w);
        ca_json_begin_object(w);
        ca_json_kv_string(w, "fullyQualifiedName", f->function);
        ca_json_kv_string(w, "kind", "function");
        ca_json_end_object(w);
        ca_json_end_array(w);
    }
    ca_json_end_object(w);
    ca_json_end_array(w);

    size_t nres = ca_finding_nresources(f);
    int acquired = 0;
    for (size_t i = 0; i < nres; i++) acquired |= ca_finding_resource(f, i).acquired_line > 0;
    if (acquired || f->nhandlers) {
        ca_json_key(w, "relatedLocations");
        ca_json_begin_array(w);
        /* each resource of the window where it came into being */
        for (size_t i = 0; i < nres; i++) {
            ca_resource_ref res = ca_finding_resource(f, i);
            if (res.acquired_line <= 0) continue;
            char *msg = nres > 1 && res.name ? ca_xasprintf("`%s` acquired here", res.name)
                                             : ca_xstrdup("resource acquired here");
            ca_json_begin_object(w);
            ca_json_kv_int(w, "id", related_id++);
            write_physical(c, f->path, res.acquired_line, res.acquired_column, 0, 0);
            write_message(w, msg);
            ca_json_end_object(w);
            free(msg);
        }
        for (size_t h = 0; h < f->nhandlers; h++) {
            char *msg = handler_message(f, &f->handlers[h]);
            ca_json_begin_object(w);
            ca_json_kv_int(w, "id", related_id++);
            write_physical(c, f->path, f->handlers[h].line, f->handlers[h].column, 0, 0);
            write_message(w, msg);
            ca_json_end_object(w);
            free(msg);
        }
        ca_json_end_array(w);
    }

    if (f->fingerprint) {
        ca_json_key(w, "partialFingerprints");
        ca_json_begin_object(w);
        /* v2: a window's fingerprint no longer names its resource (v1's
         * values are the resources' aliases, in properties) */
        ca_json_kv_string(w, "cancelaudit/v2", f->fingerprint);
        ca_json_end_object(w);
    }

    if (f->suppressed || f->baselined) {
        ca_json_key(w, "suppressions");
        ca_json_begin_array(w);
        if (f->suppressed) {
            ca_json_begin_object(w);
            ca_json_kv_string(w, "kind", "inSource");
            ca_json_end_object(w);
        }
        if (f->baselined) {
            ca_json_begin_object(w);
            ca_json_kv_string(w, "kind", "external");
            ca_json_kv_string(w, "justification", f->baselined == 2 ? "outside the lines changed since the base revision"
                                                                    : "listed in the baseline file");
            ca_json_end_object(w);
        }
        ca_json_end_array(w);
    }

    ca_json_key(w, "properties");
    ca_json_begin_object(w);
    ca_json_kv_string(w, "function", f->function);
    ca_json_kv_string(w, "backend", f->backend);
    ca_json_kv_string(w, "resource", f->resource);
    ca_json_kv_string(w, "resourceKind", f->resource_kind);
    ca_json_key(w, "resources");
    ca_json_begin_array(w);
    for (size_t i = 0; i < nres; i++) ca_json_string(w, ca_finding_resource(f, i).name);
    ca_json_end_array(w);
    if (f->nresources) {
        ca_json_key(w, "fingerprintAliases");
        ca_json_begin_array(w);
        for (size_t i = 0; i < f->nresources; i++)
            if (f->resources[i].alias) ca_json_string(w, f->resources[i].alias);
        ca_json_end_array(w);
    }
    ca_json_kv_string(w, "confidence", ca_confidence_name(f->confidence));
    ca_json_end_object(w);
    ca_json_end_object(w);
}

static void write_invocation(sarif_ctx *c, const ca_results *r)
{
    ca_json_writer *w = c->w;
    const char *status = r->scan.status;
    ca_json_begin_object(w);
    ca_json_kv_bool(w, "executionSuccessful", !(status && strcmp(status, "partial") == 0));
    if (r->scan.started) ca_json_kv_string(w, "startTimeUtc", r->scan.started);
    if (r->scan.finished) ca_json_kv_string(w, "endTimeUtc", r->scan.finished);
    int any = 0;
    for (size_t i = 0; i < r->nfiles; i++) {
        const ca_file_rec *f = &r->files[i];
        if (!f->diagnostic) continue;
        if (!any) {
            ca_json_key(w, "toolExecutionNotifications");
            ca_json_begin_array(w);
            any = 1;
        }
        ca_json_begin_object(w);
        ca_json_kv_string(w, "level", f->status == CA_FILE_ERROR ? "error" : "warning");
        write_message(w, f->diagnostic);
        ca_json_key(w, "locations");
        ca_json_begin_array(w);
        ca_json_begin_object(w);
        write_physical(c, f->path, 0, 0, 0, 0);
        ca_json_end_object(w);
        ca_json_end_array(w);
        ca_json_end_object(w);
    }
    if (any) ca_json_end_array(w);
    ca_json_end_object(w);
}

int report_sarif(FILE *out, const ca_results *r, const report_opts *o)
{
    char cwdbuf[4096];
    const char *cwd = o && o->cwd ? o->cwd : getcwd(cwdbuf, sizeof cwdbuf);
    char *cwd_trim = ca_xstrdup(cwd ? cwd : "/");
    size_t cl = strlen(cwd_trim);
    while (cl > 0 && cwd_trim[cl - 1] == '/') cwd_trim[--cl] = 0;

    ca_finding *fs = report_sorted_findings(r);
    ca_sb sb = {0};
    ca_json_writer w;
    sarif_ctx c = {&w, cwd_trim, NULL, 0};
    c.docs = ca_ruledoc_all(&c.ndocs);

    ca_json_init(&w, &sb, 1);
    ca_json_begin_object(&w);
    ca_json_kv_string(&w, "$schema", SARIF_SCHEMA);
    ca_json_kv_string(&w, "version", "2.1.0");
    ca_json_key(&w, "runs");
    ca_json_begin_array(&w);
    ca_json_begin_object(&w);

    ca_json_key(&w, "tool");
    ca_json_begin_object(&w);
    ca_json_key(&w, "driver");
    ca_json_begin_object(&w);
    ca_json_kv_string(&w, "name", "cancelaudit");
    ca_json_kv_string(&w, "version", ca_version);
    ca_json_kv_string(&w, "semanticVersion", ca_version);
    ca_json_kv_string(&w, "informationUri", INFO_URI);
    ca_json_key(&w, "rules");
    ca_json_begin_array(&w);
    for (size_t i = 0; i < c.ndocs; i++) write_rule(&c, &c.docs[i]);
    ca_json_end_array(&w);
    ca_json_end_object(&w);
    ca_json_end_object(&w);

    ca_json_key(&w, "invocations");
    ca_json_begin_array(&w);
    write_invocation(&c, r);
    ca_json_end_array(&w);

    ca_json_key(&w, "originalUriBaseIds");
    ca_json_begin_object(&w);
    ca_json_key(&w, SRCROOT);
    ca_json_begin_object(&w);
    {
        ca_sb uri = {0};
        ca_sb_adds(&uri, "file://");
        add_uri_path(&uri, cwd_trim);
        ca_sb_addc(&uri, '/');
        ca_json_kv_string(&w, "uri", ca_sb_str(&uri));
        ca_sb_release(&uri);
    }
    ca_json_end_object(&w);
    ca_json_end_object(&w);

    ca_json_kv_string(&w, "columnKind", "unicodeCodePoints");

    ca_json_key(&w, "results");
    ca_json_begin_array(&w);
    for (size_t i = 0; i < r->nfindings; i++) write_result(&c, &fs[i]);
    ca_json_end_array(&w);

    ca_json_end_object(&w);
    ca_json_end_array(&w);
    ca_json_end_object(&w);

    int ok = report_json_emit(out, &w, &sb);
    free(fs);
    free(cwd_trim);
    return ok ? 0 : -1;
}
