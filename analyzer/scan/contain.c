/*
 * contain.c — fault containment for lowering (contain.h): each file is
 * parsed and lowered in a worker process, so that a crash, a runaway or a
 * memory blow-up in tree-sitter, in libclang or in our own lowering costs
 * that file a diagnostic, never the scan (DESIGN §10).
 *
 * Processes. scan_contain_start forks one helper while the scan still has
 * a single thread; the helper forks every worker on request and reaps
 * them. A worker is never forked from a process whose other threads might
 * hold a lock (malloc's under the sanitizers, the dynamic loader's, which
 * libclang's dlopen needs): the helper has one thread, always. A worker
 * keeps its parser (and libclang, once loaded) for the whole scan and
 * lowers one file at a time; the scan's threads share the idle workers.
 * A worker that dies is replaced for the next file. Both kinds end when
 * their parent does (PR_SET_PDEATHSIG, and EOF on their socket).
 *
 * The exchange over a worker's socket: the scan sends the path and the
 * bytes it read; the worker answers with the module as ir_encode writes it
 * (ir/serial.c) or with the lowering's own refusal (its diagnostic). The
 * scan decodes the module in its own arena and summarises it as if it had
 * lowered it itself. EOF or a broken answer means the worker died: the
 * helper says how (waitpid), and that is the file's diagnostic.
 *
 * Limits, set by the worker before each file: RLIMIT_CPU's soft limit at
 * the CPU time it has used plus the timeout (SIGXCPU ends it), RLIMIT_AS
 * at the address space it has mapped plus the memory limit. Memory runs
 * out in many ways: our allocator's failure hook, a library's exit() (the
 * tree-sitter allocator), an abort (libclang's bad_alloc) or a sanitizer's
 * death all end the worker with EXIT_MEMORY when the file had used a third
 * of its allowance or more; below that it is a crash. The scan watches
 * too: a worker whose resident memory grows past the limit while the scan
 * waits for it is ended (the only memory limit under ASan, whose heap the
 * address-space limit cannot see), and so is one that has not answered
 * after 3 × timeout + 10 s of wall time (stopped without using CPU).
 */
#include "scan/contain.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"

#if defined(__SANITIZE_ADDRESS__)
#define CONTAIN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CONTAIN_ASAN 1
#endif
#endif
#ifdef CONTAIN_ASAN
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#endif

/* How a worker ends when it is not a signal (and not 0, at the end). */
enum {
    EXIT_MEMORY = 86,   /* the file used up its memory allowance */
    EXIT_LEAK = 87,     /* sanitizer builds: the worker's leak check failed at its end */
    EXIT_LIBRARY = 88,  /* a library called exit() well below the memory limit */
    EXIT_PROTOCOL = 89  /* the scan sent something that is no request */
};

#define REQ_MAGIC 0x51524143u  /* "CARQ" */
#define ANS_MAGIC 0x53524143u  /* "CARS" */

typedef struct req_head {
    uint32_t magic;
    uint32_t path_len;
    uint64_t src_len;
} req_head;

enum { ANS_MODULE = 0, ANS_REFUSED = 1 };

typedef struct ans_head {
    uint32_t magic;
    uint32_t kind;
    uint64_t len;
} ans_head;

/* The helper's requests and answers. */
enum { OP_SPAWN = 1, OP_WAIT = 2 };

typedef struct helper_req {
    int op;
    int lang;
    pid_t pid;
} helper_req;

typedef struct helper_ans {
    int ok;
    pid_t pid;
    int status;
} helper_ans;

/* ------------------------------------------------------------------------ */
/* Bytes over a socket.                                                     */

/* Blocking, whole: 0, or -1 on EOF or an error. */
static int put_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int get_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n) {
        ssize_t r = recv(fd, p, n, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

/* Wait until fd is ready for ev or the deadline (monotonic seconds, 0:
 * none) passes: 0 ready, -2 past the deadline. */
static int ready(int fd, short ev, double deadline)
{
    for (;;) {
        int ms = -1;
        if (deadline > 0) {
            double left = deadline - ca_now_monotonic();
            if (left <= 0) return -2;
            ms = left > 86400.0 ? 86400000 : (int)(left * 1000.0) + 1;
        }
        struct pollfd p = {fd, ev, 0};
        int r = poll(&p, 1, ms);
        if (r > 0) return 0;
        if (r < 0 && errno != EINTR) return 0; /* let the read or write report it */
    }
}

/* The scan's side, with the deadline: 0, -1 EOF or error, -2 timed out. */
static int send_by(int fd, const void *buf, size_t n, double deadline)
{
    const char *p = buf;
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (ready(fd, POLLOUT, deadline) != 0) return -2;
            continue;
        }
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int recv_by(int fd, void *buf, size_t n, double deadline)
{
    char *p = buf;
    while (n) {
        ssize_t r = recv(fd, p, n, MSG_DONTWAIT);
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (ready(fd, POLLIN, deadline) != 0) return -2;
            continue;
        }
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

/* A process's resident bytes (/proc/PID/statm), 0 when unknown. */
static uint64_t resident(pid_t pid)
{
    char path[64], b[128];
    snprintf(path, sizeof(path), "/proc/%ld/statm", (long)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, b, sizeof(b) - 1);
    close(fd);
    if (n <= 0) return 0;
    b[n] = 0;
    const char *p = b;
    while (*p && *p != ' ') p++; /* the second field */
    uint64_t pages = 0;
    for (p++; *p >= '0' && *p <= '9'; p++) pages = pages * 10 + (uint64_t)(*p - '0');
    long pg = sysconf(_SC_PAGESIZE);
    return pages * (uint64_t)(pg > 0 ? pg : 4096);
}

/* Wait for the worker's answer to begin: 0, -2 past the deadline, -3 when
 * its resident memory grew past the limit (checked ten times a second,
 * from the first tenth on: most files are answered before). */
static int await_answer(int fd, pid_t pid, double deadline, uint64_t rss0, int64_t memory)
{
    for (;;) {
        double slice = ca_now_monotonic() + 0.1;
        int r = ready(fd, POLLIN, deadline > 0 && deadline < slice ? deadline : slice);
        if (r == 0) return 0;
        if (deadline > 0 && ca_now_monotonic() >= deadline) return -2;
        if (memory > 0 && rss0) {
            uint64_t now = resident(pid);
            if (now > rss0 + (uint64_t)memory) return -3;
        }
    }
}

/* An answer from the helper, with a descriptor attached to a spawn's. */
static int put_answer(int fd, const helper_ans *a, int pass_fd)
{
    struct iovec iov = {(void *)a, sizeof(*a)};
    struct msghdr mh;
    memset(&mh, 0, sizeof(mh));
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } ctl;
    if (pass_fd >= 0) {
        memset(&ctl, 0, sizeof(ctl));
        mh.msg_control = ctl.buf;
        mh.msg_controllen = sizeof(ctl.buf);
        struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(cm), &pass_fd, sizeof(int));
    }
    for (;;) {
        ssize_t w = sendmsg(fd, &mh, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        return w == (ssize_t)sizeof(*a) ? 0 : -1;
    }
}

static int get_answer(int fd, helper_ans *a, int *got_fd)
{
    *got_fd = -1;
    struct iovec iov = {a, sizeof(*a)};
    struct msghdr mh;
    memset(&mh, 0, sizeof(mh));
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } ctl;
    memset(&ctl, 0, sizeof(ctl));
    mh.msg_control = ctl.buf;
    mh.msg_controllen = sizeof(ctl.buf);
    ssize_t r;
    while ((r = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
    }
    if (r <= 0) return -1;
    for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
        if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) memcpy(got_fd, CMSG_DATA(cm), sizeof(int));
    /* the rest of a short answer (SOCK_STREAM may split it) */
    if ((size_t)r < sizeof(*a) && get_all(fd, (char *)a + r, sizeof(*a) - (size_t)r) != 0) {
        if (*got_fd >= 0) close(*got_fd);
        *got_fd = -1;
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The worker.                                                              */

static long w_page = 4096;
static uint64_t w_as_limit; /* RLIMIT_AS for the file at hand; 0: none */
static uint64_t w_base;     /* the address space the worker had when the file began */
static uint64_t w_peak;     /* its peak then */

/* Only async-signal-safe calls below: the fatal-signal handler asks. */

static ssize_t read_proc(const char *path, char *b, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, b, cap - 1);
    close(fd);
    if (n >= 0) b[n] = 0;
    return n;
}

static uint64_t digits(const char *p)
{
    uint64_t v = 0;
    while (*p == ' ' || *p == '\t') p++;
    for (; *p >= '0' && *p <= '9'; p++) v = v * 10 + (uint64_t)(*p - '0');
    return v;
}

/* The worker's mapped bytes now, 0 when unknown. */
static uint64_t vm_size(void)
{
    char b[64];
    return read_proc("/proc/self/statm", b, sizeof(b)) > 0 ? digits(b) * (uint64_t)w_page : 0;
}

/* The most it ever had mapped (VmPeak), 0 when unknown. */
static uint64_t vm_peak(void)
{
    char b[4096];
    if (read_proc("/proc/self/status", b, sizeof(b)) <= 0) return 0;
    for (const char *p = b; *p; p++) {
        if ((p == b || p[-1] == '\n') && p[0] == 'V' && p[1] == 'm' && p[2] == 'P' && p[3] == 'e' && p[4] == 'a' &&
            p[5] == 'k' && p[6] == ':')
            return digits(p + 7) * 1024;
    }
    return 0;
}

/* The file at hand went a third of the way to its limit or further (now,
 * or at a peak it set): whatever failed, failed for want of memory. */
static int near_limit(void)
{
    if (!w_as_limit) return 0;
    uint64_t mark = w_base + (w_as_limit - w_base) / 3;
    if (vm_size() >= mark) return 1;
    uint64_t peak = vm_peak();
    return peak > w_peak && peak >= mark;
}

static void on_fatal_signal(int sig)
{
    (void)sig;
    if (near_limit()) _exit(EXIT_MEMORY);
    /* SA_RESETHAND: the default action ends the worker with the signal
     * (a fault repeats, abort() raises again) */
}

static void on_oom(void) { _exit(EXIT_MEMORY); }

/* Nothing in a worker calls exit(): a library did, tree-sitter's allocator
 * when malloc fails, LLVM's fatal errors. */
static void on_exit_called(void) { _exit(near_limit() ? EXIT_MEMORY : EXIT_LIBRARY); }

#ifdef CONTAIN_ASAN
static void on_sanitizer_death(void)
{
    if (near_limit()) _exit(EXIT_MEMORY);
}
#endif

static void worker_setup(pid_t helper)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != helper) _exit(0);
    /* a crash report of the C library, a sanitizer or libclang is no
     * diagnostic of ours: the file's diagnostic says what happened */
    if (!getenv("CANCELAUDIT_WORKER_STDERR")) {
        int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (null >= 0) {
            dup2(null, 2);
            close(null);
        }
    }
    struct rlimit core = {0, 0};
    setrlimit(RLIMIT_CORE, &core);
    long pg = sysconf(_SC_PAGESIZE);
    if (pg > 0) w_page = pg;
    /* the handler must run after a stack overflow too */
    static stack_t alt;
    alt.ss_size = 1u << 16;
    alt.ss_sp = ca_xmalloc(alt.ss_size);
    alt.ss_flags = 0;
    sigaltstack(&alt, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_fatal_signal;
    sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    const int fatal[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) sigaction(fatal[i], &sa, NULL);
    signal(SIGXCPU, SIG_DFL);
    signal(SIGPIPE, SIG_IGN);
    atexit(on_exit_called);
    ca_set_oom_handler(on_oom);
#ifdef CONTAIN_ASAN
    __sanitizer_set_death_callback(on_sanitizer_death);
#endif
}

static void file_limits(const scan_contain_limits *lim)
{
    if (lim->timeout > 0) {
        struct rusage ru;
        struct rlimit r;
        if (getrusage(RUSAGE_SELF, &ru) == 0 && getrlimit(RLIMIT_CPU, &r) == 0) {
            double used = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
                          ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
            double want = used + lim->timeout;
            rlim_t soft = (rlim_t)want + ((double)(rlim_t)want < want ? 1 : 0);
            if (r.rlim_max != RLIM_INFINITY && soft > r.rlim_max) soft = r.rlim_max;
            r.rlim_cur = soft;
            setrlimit(RLIMIT_CPU, &r);
        }
    }
#ifndef CONTAIN_ASAN
    /* ASan maps its heap inside a reserve it made at start: the limit would
     * not see a file's growth, and ASan hangs on the mmap that fails. The
     * scan's watch of the worker's resident memory stands in for it there. */
    if (lim->memory > 0) {
        uint64_t v = vm_size();
        struct rlimit r;
        if (v && getrlimit(RLIMIT_AS, &r) == 0) {
            uint64_t want = v + (uint64_t)lim->memory;
            if (r.rlim_max != RLIM_INFINITY && want > (uint64_t)r.rlim_max) want = (uint64_t)r.rlim_max;
            r.rlim_cur = (rlim_t)want;
            if (want > v && setrlimit(RLIMIT_AS, &r) == 0) {
                w_as_limit = want;
                w_base = v;
                w_peak = vm_peak();
            }
        }
    }
#endif
}

__attribute__((noreturn)) static void worker_main(int fd, pid_t helper, const ca_lang *L, void *state,
                                                  scan_contain_limits lim)
{
    worker_setup(helper);
    void *w = L->worker_new(state);
    for (;;) {
        req_head h;
        if (get_all(fd, &h, sizeof(h)) != 0) break; /* the scan is done with us */
        if (h.magic != REQ_MAGIC || h.src_len > SIZE_MAX / 2) _exit(EXIT_PROTOCOL);
        char *path = ca_xmalloc((size_t)h.path_len + 1);
        char *src = ca_xmalloc((size_t)h.src_len + 1);
        if (get_all(fd, path, h.path_len) != 0 || get_all(fd, src, (size_t)h.src_len) != 0) _exit(EXIT_PROTOCOL);
        path[h.path_len] = 0;
        src[h.src_len] = 0;
        file_limits(&lim);
        ir_module m;
        memset(&m, 0, sizeof(m));
        int rc = L->lower(w, path, src, (size_t)h.src_len, &m);
        m.src = NULL;
        /* a library that recovers from running out (libclang's crash
         * recovery) fails the file; its state is not to be trusted after */
        if (rc != 0 && near_limit()) _exit(EXIT_MEMORY);
        ca_sb out = {0};
        if (rc == 0) ir_encode(&m, &out);
        else ca_sb_adds(&out, m.diagnostic ? m.diagnostic : "could not be parsed");
        ans_head a = {ANS_MAGIC, rc == 0 ? ANS_MODULE : ANS_REFUSED, out.len};
        int sent = put_all(fd, &a, sizeof(a)) == 0 && put_all(fd, out.buf ? out.buf : "", out.len) == 0;
        ca_sb_release(&out);
        ir_module_free(&m);
        free(src);
        free(path);
        if (!sent) break;
    }
    L->worker_free(w);
#ifdef CONTAIN_ASAN
    if (__lsan_do_recoverable_leak_check()) _exit(EXIT_LEAK);
#endif
    _exit(0);
}

/* ------------------------------------------------------------------------ */
/* The helper.                                                              */

__attribute__((noreturn)) static void helper_main(int fd, pid_t parent, const ca_lang *const *langs,
                                                  void *const *states, size_t n, scan_contain_limits lim)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(0);
    signal(SIGPIPE, SIG_IGN);
    /* static: a worker's leak check must see it */
    static unsigned char *prepared;
    prepared = ca_xcalloc(n + 1, 1);
    pid_t me = getpid();
    for (;;) {
        helper_req q;
        if (get_all(fd, &q, sizeof(q)) != 0) break;
        helper_ans a;
        memset(&a, 0, sizeof(a));
        int give = -1;
        if (q.op == OP_SPAWN && q.lang >= 0 && (size_t)q.lang < n) {
            const ca_lang *L = langs[q.lang];
            /* what a scan that lowers no file of the language should not
             * pay for, once, here: every worker inherits it */
            if (L->prepare && !prepared[q.lang]) L->prepare(states[q.lang]);
            prepared[q.lang] = 1;
            int sv[2];
            if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0) {
                pid_t pid = fork();
                if (pid == 0) {
                    close(fd);
                    close(sv[0]);
                    worker_main(sv[1], me, L, states[q.lang], lim);
                }
                close(sv[1]);
                if (pid > 0) {
                    a.ok = 1;
                    a.pid = pid;
                    give = sv[0];
                } else {
                    close(sv[0]);
                }
            }
        } else if (q.op == OP_WAIT) {
            int st = 0;
            pid_t r;
            while ((r = waitpid(q.pid, &st, 0)) < 0 && errno == EINTR) {
            }
            if (r == q.pid) {
                a.ok = 1;
                a.pid = r;
                a.status = st;
            }
        }
        int sent = put_answer(fd, &a, give);
        if (give >= 0) close(give);
        if (sent != 0) break;
    }
    /* the scan is done: each idle worker has seen its socket close */
    int leak = 0, st;
    pid_t r;
    while ((r = wait(&st)) > 0 || (r < 0 && errno == EINTR))
        if (r > 0 && WIFEXITED(st) && WEXITSTATUS(st) == EXIT_LEAK) leak = 1;
    _exit(leak ? EXIT_LEAK : 0);
}

/* ------------------------------------------------------------------------ */
/* The scan's side.                                                         */

typedef struct worker {
    pid_t pid;
    int fd;
    int lang;
} worker;

struct scan_contain {
    pid_t helper;
    int fd;                   /* to the helper */
    pthread_mutex_t lock;     /* fd and idle */
    CA_VEC(worker) idle;
    scan_contain_limits lim;
    int gone;                 /* the helper cannot be reached: no more workers */
};

scan_contain *scan_contain_start(const ca_lang *const *langs, void *const *states, size_t n,
                                 const scan_contain_limits *lim)
{
    const char *env = getenv("CANCELAUDIT_CONTAIN");
    if (env && strcmp(env, "0") == 0) return NULL;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return NULL;
    fflush(NULL); /* no buffered output is copied into the children */
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        return NULL;
    }
    if (pid == 0) {
        close(sv[0]);
        helper_main(sv[1], parent, langs, states, n, *lim);
    }
    close(sv[1]);
    scan_contain *c = ca_xcalloc(1, sizeof(*c));
    c->helper = pid;
    c->fd = sv[0];
    c->lim = *lim;
    pthread_mutex_init(&c->lock, NULL);
    return c;
}

/* An idle worker for lang, or a new one: 0, or -1 when none can be had. */
static int take(scan_contain *c, int lang, worker *out)
{
    int rc = -1;
    pthread_mutex_lock(&c->lock);
    for (size_t i = c->idle.n; i-- > 0;) {
        if (c->idle.v[i].lang != lang) continue;
        *out = c->idle.v[i];
        c->idle.v[i] = c->idle.v[--c->idle.n];
        rc = 0;
        break;
    }
    if (rc != 0 && !c->gone) {
        helper_req q = {OP_SPAWN, lang, 0};
        helper_ans a;
        int wfd = -1;
        if (put_all(c->fd, &q, sizeof(q)) != 0 || get_answer(c->fd, &a, &wfd) != 0) {
            c->gone = 1;
        } else if (a.ok && wfd >= 0) {
            out->pid = a.pid;
            out->fd = wfd;
            out->lang = lang;
            rc = 0;
        } else if (wfd >= 0) {
            close(wfd);
        }
    }
    pthread_mutex_unlock(&c->lock);
    return rc;
}

static void give_back(scan_contain *c, const worker *w)
{
    pthread_mutex_lock(&c->lock);
    CA_VEC_PUSH(c->idle, *w);
    pthread_mutex_unlock(&c->lock);
}

/* How a worker that is gone ended (its wait status): 0, or -1. */
static int ended(scan_contain *c, pid_t pid, int *status)
{
    int rc = -1;
    pthread_mutex_lock(&c->lock);
    helper_req q = {OP_WAIT, -1, pid};
    helper_ans a;
    int wfd = -1;
    if (!c->gone && put_all(c->fd, &q, sizeof(q)) == 0 && get_answer(c->fd, &a, &wfd) == 0) {
        if (wfd >= 0) close(wfd);
        if (a.ok && a.pid == pid) {
            *status = a.status;
            rc = 0;
        }
    } else {
        c->gone = 1;
    }
    pthread_mutex_unlock(&c->lock);
    return rc;
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV, a segmentation fault";
    case SIGABRT: return "SIGABRT, an abort";
    case SIGBUS: return "SIGBUS, a bus error";
    case SIGFPE: return "SIGFPE, an arithmetic fault";
    case SIGILL: return "SIGILL, an illegal instruction";
    case SIGKILL: return "SIGKILL, killed: perhaps by the system for want of memory";
    case SIGTERM: return "SIGTERM";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    default: return NULL;
    }
}

/* The file's diagnostic for a worker that ended with status, or that the
 * scan stopped (-2: out of time, -3: out of memory). */
static char *death_message(const scan_contain_limits *lim, int status, int stopped)
{
    if (stopped == -2 || (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU))
        return ca_xasprintf("analysis took longer than %g s on this file (--file-timeout); not analysed",
                            lim->timeout);
    if (stopped == -3 || (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_MEMORY)) {
        int64_t mib = lim->memory >> 20;
        if (mib > 0)
            return ca_xasprintf("analysis used more than %lld MiB on this file (--file-memory); not analysed",
                                (long long)mib);
        return ca_xasprintf("analysis used more than %lld bytes on this file (--file-memory); not analysed",
                            (long long)lim->memory);
    }
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        const char *name = signal_name(sig);
        return name ? ca_xasprintf("analysis crashed on this file: signal %d (%s); not analysed", sig, name)
                    : ca_xasprintf("analysis crashed on this file: signal %d; not analysed", sig);
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_LIBRARY)
        return ca_xstrdup("analysis crashed on this file: the parser's library gave up (it called exit); not analysed");
    if (WIFEXITED(status))
        return ca_xasprintf("analysis crashed on this file: its worker exited with status %d; not analysed",
                            WEXITSTATUS(status));
    return ca_xstrdup("analysis crashed on this file; not analysed");
}

int scan_contain_lower(scan_contain *c, int lang, const char *path, const char *src, size_t len, ir_module *m)
{
    worker w;
    if (take(c, lang, &w) != 0) return 1;
    double deadline = c->lim.timeout > 0 ? ca_now_monotonic() + 3.0 * c->lim.timeout + 10.0 : 0;
    size_t plen = strlen(path);
    req_head h = {REQ_MAGIC, (uint32_t)plen, (uint64_t)len};
    ans_head a;
    memset(&a, 0, sizeof(a));
    char *buf = NULL;
    uint64_t rss0 = c->lim.memory > 0 ? resident(w.pid) : 0;
    int io = plen > UINT32_MAX ? -1 : send_by(w.fd, &h, sizeof(h), deadline);
    if (io == 0) io = send_by(w.fd, path, plen, deadline);
    if (io == 0) io = send_by(w.fd, src, len, deadline);
    if (io == 0) io = await_answer(w.fd, w.pid, deadline, rss0, c->lim.memory);
    if (io == 0) io = recv_by(w.fd, &a, sizeof(a), deadline);
    if (io == 0 && (a.magic != ANS_MAGIC || a.len > SIZE_MAX / 2)) io = -1;
    if (io == 0) {
        buf = ca_xmalloc((size_t)a.len + 1);
        io = recv_by(w.fd, buf, (size_t)a.len, deadline);
    }
    if (io != 0) {
        /* dead, or given up on: either way it is ended here, and how it
         * ended is the file's diagnostic */
        free(buf);
        kill(w.pid, SIGKILL);
        close(w.fd);
        int status = 0;
        int known = ended(c, w.pid, &status) == 0;
        m->path = ca_arena_strdup(&m->arena, path);
        m->diagnostic = known || io < -1 ? death_message(&c->lim, status, io)
                                        : ca_xstrdup("analysis crashed on this file; not analysed");
        return -1;
    }
    give_back(c, &w);
    buf[a.len] = 0;
    if (a.kind == ANS_REFUSED) {
        m->path = ca_arena_strdup(&m->arena, path);
        m->diagnostic = buf;
        return -1;
    }
    int rc = ir_decode(buf, (size_t)a.len, m);
    free(buf);
    if (rc != 0) {
        m->path = ca_arena_strdup(&m->arena, path);
        m->diagnostic = ca_xstrdup("internal error: the lowered module could not be read back; not analysed");
        return -1;
    }
    m->len = len;
    return 0;
}

int scan_contain_stop(scan_contain *c)
{
    if (!c) return 0;
    for (size_t i = 0; i < c->idle.n; i++) close(c->idle.v[i].fd);
    CA_VEC_FREE(c->idle);
    close(c->fd); /* the helper waits for the workers, then ends */
    int st = 0;
    pid_t r;
    while ((r = waitpid(c->helper, &st, 0)) < 0 && errno == EINTR) {
    }
    pthread_mutex_destroy(&c->lock);
    free(c);
    return r > 0 && WIFEXITED(st) && WEXITSTATUS(st) == EXIT_LEAK ? -1 : 0;
}
