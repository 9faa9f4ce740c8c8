/* Ownership handed over before the cancellation point: to a structure the
 * caller owns, to a global, to a registry, to a new thread. No finding,
 * except for a structure that is itself local. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct conn {
    char *inbuf;
    int fd;
};

struct registry;
void registry_add(struct registry *r, void *item);

static char *g_scratch;

void conn_init(struct conn *c)
{
    c->inbuf = malloc(1024);
    sleep(1);
}

void conn_attach(struct conn *c)
{
    char *b = malloc(1024);
    c->inbuf = b;
    sleep(1);
}

void scratch_init(void)
{
    char *b = malloc(1024);
    g_scratch = b;
    usleep(100);
}

void remember(struct registry *r)
{
    char *item = strdup("entry");
    registry_add(r, item);
    sleep(1);
}

static void *serve(void *arg)
{
    free(arg);
    return NULL;
}

int spawn(pthread_t *t)
{
    char *arg = malloc(16);
    if (!arg) return -1;
    if (pthread_create(t, NULL, serve, arg) != 0) {
        free(arg);
        return -1;
    }
    sleep(1);
    return 0;
}

void out_param(char **out)
{
    char *b = malloc(8);
    *out = b;
    sleep(1);
}

/* a local structure does not own anything for the caller */
int local_holder(int fd)
{
    struct conn c;
    c.inbuf = malloc(1024);
    c.fd = fd;
    read(fd, c.inbuf, 1024); /* expect: CAN501 */
    free(c.inbuf);
    return 0;
}
