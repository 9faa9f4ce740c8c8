/* CAN501: resources unowned across POSIX cancellation points, and the
 * shapes that own them (cleanup handler, disabled cancellation, early
 * release, failure branches). Threads of this program are cancelled
 * (see ../threadpool/pool.c), so every function is in scope. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

ssize_t read_header(int fd)
{
    char *buf = malloc(4096);
    if (buf == NULL) return -1;
    ssize_t n = read(fd, buf, 4096); /* expect: CAN501 */
    free(buf);
    return n;
}

int copy_config(const char *path)
{
    char tmp[256];
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        sleep(1); /* nothing open on this branch */
        return -1;
    }
    ssize_t n = read(fd, tmp, sizeof tmp); /* expect: CAN501 */
    close(fd);
    return (int)n;
}

int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    while (readdir(d)) {
        n++;
        usleep(10); /* expect: CAN501 */
    }
    closedir(d);
    return n;
}

int flush_map(int fd, size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) return -1;
    int rc = msync(p, len, MS_SYNC); /* expect: CAN501 */
    munmap(p, len);
    return rc;
}

int talk(void)
{
    int fds[2];
    if (pipe(fds) != 0) return -1;
    write(fds[1], "x", 1); /* expect: CAN501 */
    close(fds[0]);
    close(fds[1]);
    return 0;
}

int announce(int fd, int id)
{
    char *msg = NULL;
    if (asprintf(&msg, "worker %d\n", id) < 0) return -1;
    write(fd, msg, 8); /* expect: CAN501 */
    free(msg);
    return 0;
}

/* --- no finding ---------------------------------------------------------- */

ssize_t read_header_protected(int fd)
{
    ssize_t n;
    char *buf = malloc(4096);
    if (buf == NULL) return -1;
    pthread_cleanup_push(free, buf);
    n = read(fd, buf, 4096);
    pthread_cleanup_pop(1);
    return n;
}

ssize_t read_header_uncancellable(int fd)
{
    int old;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
    char *buf = malloc(4096);
    ssize_t n = read(fd, buf, 4096);
    free(buf);
    pthread_setcancelstate(old, NULL);
    return n;
}

int released_first(int fd)
{
    char *buf = malloc(64);
    if (!buf) return -1;
    buf[0] = 0;
    free(buf);
    return (int)write(fd, "done\n", 5);
}

char *made_for_caller(size_t n)
{
    char *p = malloc(n);
    return p;
}

FILE *opened_for_caller(const char *path)
{
    return fopen(path, "r");
}

/* the thread ends on the other branch: nothing of it reaches the sleep */
void finish_or_exit(int fd)
{
    char *note = malloc(8);
    if (fd >= 0) {
        free(note);
    } else {
        pthread_exit(NULL);
    }
    sleep(1);
}
