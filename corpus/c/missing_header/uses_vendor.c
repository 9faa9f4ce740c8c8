/* A header that is not in the tree: the file gets a diagnostic, and what
 * parsed is still analysed. */
#include <stdlib.h>
#include <unistd.h>

#include "vendor/sdk_that_is_not_here.h"

int refresh(struct sdk_client *c, int fd)
{
    char *scratch = malloc(256);
    sdk_client_poke(c);
    read(fd, scratch, 256); /* expect: CAN501 */
    free(scratch);
    return 0;
}

int refresh_safely(struct sdk_client *c, int fd)
{
    char *scratch = malloc(256);
    sdk_client_poke(c);
    free(scratch);
    return (int)read(fd, NULL, 0);
}
