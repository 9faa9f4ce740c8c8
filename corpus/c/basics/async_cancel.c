/* CAN503: asynchronous cancellation enabled around calls that are not
 * async-cancel-safe. A pure computation under it is the legitimate use. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

long crunch(const long *v, long n)
{
    int old;
    long s = 0;
    pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &old);
    for (long i = 0; i < n; i++) s += v[i] * v[i];
    pthread_setcanceltype(old, NULL);
    return s;
}

char *crunch_and_log(const long *v, long n)
{
    int old;
    pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &old);
    long s = 0;
    for (long i = 0; i < n; i++) s += v[i];
    char *line = malloc(64); /* expect: CAN503 */
    snprintf(line, 64, "%ld", s);
    pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, &old);
    return line;
}

void log_after(long s)
{
    int old;
    pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &old);
    pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, &old);
    printf("%ld\n", s);
}
