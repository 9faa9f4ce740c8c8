/*
 * report_github.c — `--format github`: GitHub Actions workflow commands
 * that turn findings into pull-request annotations.
 *
 * A workflow command is one line, so anything that could end it or start a
 * new one is escaped the way the Actions runner unescapes: in the message
 * % \r \n; in properties also : and , (the property separators). Bytes
 * that are not UTF-8 are shown as \xHH, and in the file property a
 * backslash is doubled, so that two files whose names differ only there
 * never share an annotation path (docs/reliability.md, "Paths that are not
 * UTF-8").
 */
#include "report/report.h"
#include "util/json.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

static void add_escaped(ca_sb *sb, const char *s, int property)
{
    if (!s) return;
    size_t n = strlen(s), i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80) {
            size_t adv;
            int32_t cp = ca_json_utf8_next(s + i, n - i, &adv);
            if (cp < 0)
                for (size_t k = 0; k < adv; k++) ca_sb_addf(sb, "\\x%02x", (unsigned char)s[i + k]);
            else if ((cp >= 0x80 && cp < 0xA0) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069))
                ca_sb_addf(sb, "\\u%04x", (unsigned)cp); /* C1 controls and bidi overrides stay visible */
            else
                ca_sb_add(sb, s + i, adv);
            i += adv;
            continue;
        }
        switch (c) {
        case '%': ca_sb_adds(sb, "%25"); break;
        case '\r': ca_sb_adds(sb, "%0D"); break;
        case '\n': ca_sb_adds(sb, "%0A"); break;
        case ':':
            if (property) ca_sb_adds(sb, "%3A");
            else ca_sb_addc(sb, ':');
            break;
        case ',':
            if (property) ca_sb_adds(sb, "%2C");
            else ca_sb_addc(sb, ',');
            break;
        case '\\':
            /* a property's escapes start with one: literal ones are doubled */
            ca_sb_adds(sb, property ? "\\\\" : "\\");
            break;
        default:
            /* ESC and other controls would drive the CI log's terminal */
            if (c < 0x20 || c == 0x7f) ca_sb_addf(sb, "\\x%02x", c);
            else ca_sb_addc(sb, (char)c);
            break;
        }
        i++;
    }
}

static const char *command(ca_severity s)
{
    switch (s) {
    case CA_SEV_ERROR: return "error";
    case CA_SEV_WARNING: return "warning";
    default: return "notice";
    }
}

int report_github(FILE *out, const ca_results *r, const report_opts *o)
{
    ca_finding *fs = report_sorted_findings(r);
    ca_sb sb = {0};
    int ok = 1;

    for (size_t i = 0; i < r->nfindings; i++) {
        const ca_finding *f = &fs[i];
        if (!report_finding_listed(f, o)) continue;
        ca_sb_reset(&sb);
        ca_sb_addf(&sb, "::%s file=", command(f->severity));
        add_escaped(&sb, f->path ? f->path : "", 1);
        if (f->line > 0) ca_sb_addf(&sb, ",line=%d", f->line);
        if (f->line > 0 && f->column > 0) ca_sb_addf(&sb, ",col=%d", f->column);
        if (f->end_line >= f->line && f->line > 0) {
            ca_sb_addf(&sb, ",endLine=%d", f->end_line);
            if (f->end_column > 0) ca_sb_addf(&sb, ",endColumn=%d", f->end_column);
        }
        ca_sb_adds(&sb, ",title=");
        add_escaped(&sb, f->rule ? f->rule : "", 1);
        if (f->suppressed) ca_sb_adds(&sb, " (suppressed)");
        ca_sb_adds(&sb, "::");
        add_escaped(&sb, f->message ? f->message : "", 0);
        ca_sb_adds(&sb, report_confidence_note(f->confidence));
        ca_sb_addc(&sb, '\n');
        if (fwrite(sb.buf, 1, sb.len, out) != sb.len) ok = 0;
    }
    ca_sb_release(&sb);
    free(fs);
    if (fflush(out) != 0 || ferror(out)) ok = 0;
    return ok ? 0 : -1;
}
