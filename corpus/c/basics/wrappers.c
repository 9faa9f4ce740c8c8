/* Functions that reach a cancellation point are cancellation points for
 * their callers: a retry back-off, a wrapper of it, a helper in another
 * file (nap(), in naps.c). A helper that does not sleep is not one. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void nap(unsigned ms);

static void backoff(unsigned attempt)
{
    usleep(1000u << attempt);
}

static void backoff_twice(unsigned attempt)
{
    backoff(attempt);
    backoff(attempt + 1);
}

static size_t checksum(const char *p, size_t n)
{
    size_t s = 0;
    for (size_t i = 0; i < n; i++) s += (unsigned char)p[i];
    return s;
}

char *fetch_with_retry(const char *src)
{
    char *copy = strdup(src);
    for (unsigned attempt = 0; attempt < 3; attempt++)
        backoff_twice(attempt); /* expect: CAN501 */
    return copy;
}

size_t sum_then_nap(const char *src)
{
    char *copy = strdup(src);
    size_t s = checksum(copy, strlen(copy));
    nap(5); /* expect: CAN501 */
    free(copy);
    return s;
}

size_t sum_only(const char *src)
{
    char *copy = strdup(src);
    size_t s = checksum(copy, strlen(copy));
    free(copy);
    nap(5);
    return s;
}
