/* A small thread pool: workers drain a job queue under a mutex and a
 * condition variable; shutdown cancels them. Fixture for CAN502. */
#ifndef POOL_H
#define POOL_H

#include <pthread.h>

struct job {
    void (*fn)(void *);
    void *arg;
    struct job *next;
};

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    struct job *head, *tail;
    pthread_t *threads;
    int nthreads;
};

int pool_start(struct pool *p, int n);
void pool_submit(struct pool *p, struct job *j);
void pool_shutdown(struct pool *p);

#endif
