/* main.c — placeholder entry point until the CLI lands. */
#include <stdio.h>
#include "model.h"
#include "embed.h"
int main(void)
{
    printf("cancelaudit %s (%zu embedded files)\n", ca_version, ca_embedded_count);
    return 0;
}
