/* Only reachable with -Iinclude (from compile_commands.json). */
#ifndef QUEUE_CONFIG_H
#define QUEUE_CONFIG_H
#include <pthread.h>
#define QUEUE_LOCK(q) pthread_mutex_lock(&(q)->mu)
#define QUEUE_UNLOCK(q) pthread_mutex_unlock(&(q)->mu)
#endif
