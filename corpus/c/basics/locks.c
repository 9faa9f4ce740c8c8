/* CAN502: locks held across cancellation points — through a project's
 * macros, read-write locks, semaphores used as locks — and the shapes that
 * are safe: a cleanup handler that unlocks (from this file or the catalog),
 * cancellation disabled around the wait, a semaphore used as a counter. */
#include <pthread.h>
#include <semaphore.h>
#include <unistd.h>

#define LOCK(s) pthread_mutex_lock(&(s)->mu)
#define UNLOCK(s) pthread_mutex_unlock(&(s)->mu)

struct stats {
    pthread_mutex_t mu;
    pthread_rwlock_t rw;
    sem_t slots, items;
    long count;
};

void stats_flush(struct stats *s, int fd)
{
    LOCK(s);
    s->count = 0;
    fsync(fd); /* expect: CAN502 */
    UNLOCK(s);
}

void stats_snapshot(struct stats *s, int fd)
{
    pthread_rwlock_rdlock(&s->rw);
    write(fd, &s->count, sizeof s->count); /* expect: CAN502 */
    pthread_rwlock_unlock(&s->rw);
}

void stats_limited(struct stats *s)
{
    sem_wait(&s->slots);
    sleep(1); /* expect: CAN502 */
    sem_post(&s->slots);
}

static void stats_unlock(void *arg)
{
    struct stats *s = arg;
    UNLOCK(s);
}

void stats_flush_safe(struct stats *s, int fd)
{
    LOCK(s);
    pthread_cleanup_push(stats_unlock, s);
    s->count = 0;
    fsync(fd);
    pthread_cleanup_pop(1);
}

void stats_flush_cast(struct stats *s, int fd)
{
    pthread_mutex_lock(&s->mu);
    pthread_cleanup_push((void (*)(void *))pthread_mutex_unlock, &s->mu);
    fsync(fd);
    pthread_cleanup_pop(1);
}

void stats_flush_uncancellable(struct stats *s, int fd)
{
    int old;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
    LOCK(s);
    fsync(fd);
    UNLOCK(s);
    pthread_setcancelstate(old, &old);
}

/* a consumer: sem_wait takes an item, nothing to give back */
long stats_consume(struct stats *s)
{
    sem_wait(&s->items);
    sleep(1);
    return s->count;
}

static void note_cancel(void *arg)
{
    (void)arg;
}

/* a cleanup handler that does not unlock protects nothing */
void stats_flush_wrong_handler(struct stats *s, int fd)
{
    LOCK(s);
    pthread_cleanup_push(note_cancel, s);
    fsync(fd); /* expect: CAN502 */
    pthread_cleanup_pop(0);
    UNLOCK(s);
}

/* lock helpers of this file: their calls take and give back the lock */
static void stats_lock(struct stats *s)
{
    pthread_mutex_lock(&s->mu);
}

static void stats_release(struct stats *s)
{
    pthread_mutex_unlock(&s->mu);
}

void stats_flush_helpers(struct stats *s, int fd)
{
    stats_lock(s);
    fsync(fd); /* expect: CAN502 */
    stats_release(s);
}

void stats_count_helpers(struct stats *s, int fd)
{
    stats_lock(s);
    s->count++;
    stats_release(s);
    fsync(fd);
}

static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;

static void big_enter(void)
{
    pthread_mutex_lock(&big_lock);
}

static void big_leave(void)
{
    pthread_mutex_unlock(&big_lock);
}

void with_big_lock(int fd)
{
    big_enter();
    write(fd, "x", 1); /* expect: CAN502 */
    big_leave();
    sleep(1);
}
