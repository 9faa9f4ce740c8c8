/* Compiled with the flags from compile_commands.json next to it:
 * -Iinclude finds queue_config.h and -DQUEUE_WAIT_FOR_DISK selects the
 * variant that syncs under the lock. Without them there is no finding. */
#include <unistd.h>

#include "queue_config.h"

struct queue {
    pthread_mutex_t mu;
    int fd;
};

void queue_commit(struct queue *q)
{
    QUEUE_LOCK(q);
#ifdef QUEUE_WAIT_FOR_DISK
    fsync(q->fd); /* expect: CAN502 */
#endif
    QUEUE_UNLOCK(q);
}
