/* The same worker, fixed: a cleanup handler unlocks the queue mutex if the
 * thread is cancelled in pthread_cond_wait. No finding. */
#include <stdlib.h>

#include "pool.h"

static void unlock_queue(void *arg)
{
    pthread_mutex_unlock(arg);
}

static void *worker_fixed(void *arg)
{
    struct pool *pool = arg;
    for (;;) {
        struct job *job;
        pthread_mutex_lock(&pool->lock);
        pthread_cleanup_push(unlock_queue, &pool->lock);
        while (pool->head == NULL)
            pthread_cond_wait(&pool->ready, &pool->lock);
        job = pool->head;
        pool->head = job->next;
        if (pool->head == NULL) pool->tail = NULL;
        pthread_cleanup_pop(1);
        job->fn(job->arg);
        free(job);
    }
    return NULL;
}

int pool_start_fixed(struct pool *p, int n)
{
    p->threads = calloc((size_t)n, sizeof(pthread_t));
    if (!p->threads) return -1;
    for (p->nthreads = 0; p->nthreads < n; p->nthreads++)
        if (pthread_create(&p->threads[p->nthreads], NULL, worker_fixed, p) != 0) break;
    return 0;
}
