/* goto-based cleanup: the labels' code runs on every path that jumps to it,
 * so a cancellation point between the acquisitions and the labels leaks. */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

int load(const char *path, char **out)
{
    int rc = -1;
    char *buf = malloc(512);
    if (!buf) goto fail;
    int fd = open(path, O_RDONLY); /* expect: CAN501 */
    if (fd < 0) goto fail_free;
    if (read(fd, buf, 512) < 0) goto fail_close; /* expect: CAN501 */
    close(fd);
    *out = buf;
    return 0;
fail_close:
    close(fd);
fail_free:
    free(buf);
fail:
    return rc;
}

static void close_fd(void *arg)
{
    close(*(int *)arg);
}

int load_protected(const char *path, char **out)
{
    int rc = -1;
    int fd = -1;
    char *buf = malloc(512);
    if (!buf) return -1;
    pthread_cleanup_push(free, buf);
    fd = open(path, O_RDONLY);
    if (fd < 0) goto out;
    pthread_cleanup_push(close_fd, &fd);
    if (read(fd, buf, 512) >= 0) rc = 0;
    pthread_cleanup_pop(1);
out:
    pthread_cleanup_pop(rc != 0);
    if (rc == 0) *out = buf;
    return rc;
}
