/*
 * embed.h — files under rules/ compiled into the binary at build time
 * (CMake generates the table from the source tree; see CMakeLists.txt).
 *
 * Names are relative to the repository root ("rules/CAN101.md",
 * "rules/catalog/acquirers.txt"); data is NUL-terminated; the table is
 * sorted by name and lives for the life of the process.
 */
#ifndef CA_EMBED_H
#define CA_EMBED_H

#include <stddef.h>

typedef struct ca_embedded {
    const char *name;
    const char *data;
    size_t len;
} ca_embedded;

extern const ca_embedded ca_embedded_files[];
extern const size_t ca_embedded_count;

/* The entry called name, or NULL. */
const ca_embedded *ca_embed_find(const char *name);

#endif
