/*
 * report_json.c — `--format json`: the one object of DESIGN §6. Field names
 * and types are a public contract pinned by tests (test_report.c); add
 * fields only at the end of an object, never rename or retype one.
 */
#include "report/report.h"
#include "util/json.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* "CAN101, CAN102" → ["CAN101", "CAN102"] */
static void write_rule_list(ca_json_writer *w, const char *csv)
{
    ca_json_begin_array(w);
    const char *p = csv ? csv : "";
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        const char *s = p;
        while (n && (*s == ' ' || *s == '\t')) {
            s++;
            n--;
        }
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
        if (n) ca_json_string_n(w, s, n);
        if (!comma) break;
        p = comma + 1;
    }
    ca_json_end_array(w);
}

void report_json_finding(ca_json_writer *w, const ca_finding *f)
{
    ca_json_begin_object(w);
    ca_json_kv_string(w, "rule", f->rule);
    ca_json_kv_string(w, "severity", ca_severity_name(f->severity));
    ca_json_kv_string(w, "path", f->path);
    ca_json_kv_int(w, "line", f->line);
    ca_json_kv_int(w, "column", f->column);
    ca_json_kv_int(w, "end_line", f->end_line);
    ca_json_kv_int(w, "end_column", f->end_column);
    ca_json_kv_string(w, "function", f->function);
    ca_json_kv_string(w, "backend", f->backend);
    ca_json_kv_string(w, "resource", f->resource);
    ca_json_kv_string(w, "resource_kind", f->resource_kind);
    ca_json_kv_int(w, "acquired_line", f->acquired_line);
    ca_json_key(w, "handlers");
    ca_json_begin_array(w);
    for (size_t h = 0; h < f->nhandlers; h++) {
        ca_json_begin_object(w);
        ca_json_kv_int(w, "line", f->handlers[h].line);
        ca_json_kv_string(w, "catches", f->handlers[h].catches);
        ca_json_end_object(w);
    }
    ca_json_end_array(w);
    ca_json_kv_string(w, "message", f->message);
    ca_json_kv_string(w, "fingerprint", f->fingerprint);
    ca_json_kv_bool(w, "suppressed", f->suppressed);
    ca_json_end_object(w);
}

void report_json_family_fields(ca_json_writer *w, const ca_family *f)
{
    ca_json_kv_string(w, "name", f->name);
    ca_json_kv_string(w, "kind", f->kind);
    ca_json_kv_string(w, "base", f->base);
    ca_json_kv_string(w, "path", f->path);
    if (f->line > 0) ca_json_kv_int(w, "line", f->line);
    else ca_json_kv_null(w, "line");
    ca_json_key(w, "backends");
    ca_json_begin_array(w);
    for (size_t k = 0; k < f->nmembers; k++) {
        const ca_family_member *m = &f->members[k];
        if (!m->backend) continue;
        ca_json_begin_object(w);
        ca_json_kv_string(w, "name", m->backend);
        ca_json_kv_string(w, "class", m->class_name);
        ca_json_kv_string(w, "path", m->path);
        if (m->line > 0) ca_json_kv_int(w, "line", m->line);
        else ca_json_kv_null(w, "line");
        ca_json_end_object(w);
    }
    ca_json_end_array(w);
    /* the members that are no backend, and why */
    ca_json_key(w, "excluded");
    ca_json_begin_array(w);
    for (size_t k = 0; k < f->nmembers; k++) {
        const ca_family_member *m = &f->members[k];
        if (m->backend) continue;
        ca_json_begin_object(w);
        ca_json_kv_string(w, "class", m->class_name);
        ca_json_kv_string(w, "role", m->role);
        ca_json_kv_string(w, "path", m->path);
        if (m->line > 0) ca_json_kv_int(w, "line", m->line);
        else ca_json_kv_null(w, "line");
        ca_json_end_object(w);
    }
    ca_json_end_array(w);
}

static void write_cell(ca_json_writer *w, const ca_coverage *c)
{
    ca_json_begin_object(w);
    ca_json_kv_string(w, "family", c->family);
    ca_json_kv_string(w, "backend", c->backend);
    ca_json_kv_string(w, "boundary", c->boundary);
    ca_json_kv_string(w, "status", c->status);
    ca_json_key(w, "rules");
    write_rule_list(w, c->rules);
    ca_json_kv_string(w, "protection", c->protection);
    ca_json_kv_string(w, "path", c->path);
    if (c->line > 0)
        ca_json_kv_int(w, "line", c->line);
    else
        ca_json_kv_null(w, "line");
    ca_json_end_object(w);
}

int report_json(FILE *out, const ca_results *r, const report_opts *o)
{
    (void)o;
    ca_finding *fs = report_sorted_findings(r);
    ca_coverage *cs = report_sorted_coverage(r);
    ca_sb sb = {0};
    ca_json_writer w;

    ca_json_init(&w, &sb, 1);
    ca_json_begin_object(&w);

    ca_json_tool(&w);

    ca_json_key(&w, "scan");
    ca_json_begin_object(&w);
    if (r->scan.id)
        ca_json_kv_int(&w, "id", r->scan.id);
    else
        ca_json_kv_null(&w, "id");
    ca_json_kv_int(&w, "files_scanned", r->scan.files_scanned);
    ca_json_kv_int(&w, "files_skipped", r->scan.files_skipped);
    ca_json_kv_int(&w, "errors", r->scan.errors);
    ca_json_kv_int(&w, "baselined", report_baselined_count(r));
    ca_json_end_object(&w);

    ca_json_key(&w, "findings");
    ca_json_begin_array(&w);
    for (size_t i = 0; i < r->nfindings; i++)
        if (!fs[i].baselined) report_json_finding(&w, &fs[i]);
    ca_json_end_array(&w);

    ca_json_key(&w, "coverage");
    ca_json_begin_array(&w);
    for (size_t i = 0; i < r->ncoverage; i++) write_cell(&w, &cs[i]);
    ca_json_end_array(&w);

    ca_json_key(&w, "families");
    ca_json_begin_array(&w);
    for (size_t i = 0; i < r->nfamilies; i++) {
        ca_json_begin_object(&w);
        report_json_family_fields(&w, &r->families[i]);
        ca_json_end_object(&w);
    }
    ca_json_end_array(&w);

    ca_json_kv_int(&w, "schema_version", REPORT_JSON_SCHEMA_VERSION);
    ca_json_end_object(&w);
    int ok = report_json_emit(out, &w, &sb);
    free(fs);
    free(cs);
    return ok ? 0 : -1;
}
