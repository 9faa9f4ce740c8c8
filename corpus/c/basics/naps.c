/* nap(): a helper in another translation unit that reaches nanosleep(). */
#include <time.h>

void nap(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}
