/*
 * contain.h — fault containment for phase 1: files are parsed and lowered
 * in worker processes, so that a crash, a runaway or a memory blow-up in a
 * parser, in libclang or in a lowering costs that one file (a diagnostic),
 * never the scan (DESIGN §10). Used by scan.c only.
 *
 * A worker runs a language's own lower hook (frontend/lang.h) and sends the
 * module back as ir_encode() writes it (ir/serial.c); the scan decodes it
 * and computes the summaries itself, as it does for a module lowered in
 * process. Workers are kept for the whole scan, one at a time per file,
 * shared by the threads that lower.
 */
#ifndef CA_SCAN_CONTAIN_H
#define CA_SCAN_CONTAIN_H

#include <stddef.h>
#include <stdint.h>

#include "frontend/lang.h"
#include "ir/ir.h"

/* Per file. timeout: CPU seconds (a worker past it is ended; the scan also
 * gives up on one that has not answered after 3 × timeout + 10 s of wall
 * time); memory: bytes of address space a file may add to its worker.
 * 0: no limit. */
typedef struct scan_contain_limits {
    double timeout;
    int64_t memory;
} scan_contain_limits;

typedef struct scan_contain scan_contain;

/* Start containment for a scan over langs[0..n) with their states (both
 * the caller's, valid until scan_contain_stop). Forks a helper process
 * that forks the workers, so call it while the process has a single
 * thread: no worker then starts with a lock that another thread held.
 * NULL when no process could be made (the caller lowers in process). */
scan_contain *scan_contain_start(const ca_lang *const *langs, void *const *states, size_t n,
                                 const scan_contain_limits *lim);

/* Lower one file (src[0..len), the contents of path) with langs[lang]'s
 * lower hook in a worker, from any thread. The contract of ca_lang.lower
 * — 0 with *m (zeroed by the caller) filled, or -1 with m->diagnostic —
 * and -1 also when the worker crashed ("analysis crashed on this file:
 * signal 11 (Segmentation fault)"), ran out of time or of memory (the
 * limit named); the next file gets a new worker. 1 when no worker could be
 * had (*m untouched): the caller lowers in process. m->src stays NULL. */
int scan_contain_lower(scan_contain *c, int lang, const char *path, const char *src, size_t len, ir_module *m);

/* End every worker and the helper, and free c (NULL: nothing). 0, or -1
 * when a worker failed its leak check at the end (sanitizer builds only:
 * ASan's leak report is in its stderr, see CANCELAUDIT_WORKER_STDERR in
 * docs/reliability.md). */
int scan_contain_stop(scan_contain *c);

#endif
