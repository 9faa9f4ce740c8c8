/* The thread pool as first written: a worker cancelled while it waits for
 * work exits with the queue mutex held (pthread_cond_wait re-acquires it
 * before acting on the cancellation), and pool_submit() then deadlocks. */
#include <stdlib.h>

#include "pool.h"

static void *worker(void *arg)
{
    struct pool *pool = arg;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        while (pool->head == NULL)
            pthread_cond_wait(&pool->ready, &pool->lock); /* expect: CAN502 */
        struct job *job = pool->head;
        pool->head = job->next;
        if (pool->head == NULL) pool->tail = NULL;
        pthread_mutex_unlock(&pool->lock);
        job->fn(job->arg);
        free(job);
    }
    return NULL;
}

int pool_start(struct pool *p, int n)
{
    p->threads = calloc((size_t)n, sizeof(pthread_t));
    if (!p->threads) return -1;
    p->nthreads = 0;
    for (int i = 0; i < n; i++) {
        if (pthread_create(&p->threads[i], NULL, worker, p) != 0) break;
        p->nthreads++;
    }
    return 0;
}

void pool_submit(struct pool *p, struct job *j)
{
    j->next = NULL;
    pthread_mutex_lock(&p->lock);
    if (p->tail) p->tail->next = j;
    else p->head = j;
    p->tail = j;
    pthread_cond_signal(&p->ready);
    pthread_mutex_unlock(&p->lock);
}

void pool_shutdown(struct pool *p)
{
    for (int i = 0; i < p->nthreads; i++) pthread_cancel(p->threads[i]);
    for (int i = 0; i < p->nthreads; i++) pthread_join(p->threads[i], NULL);
    free(p->threads);
}
