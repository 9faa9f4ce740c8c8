/*
 * store_internal.h — what the store's own files share beyond store.h:
 * the connection behind a ca_store, for merge.c, which copies rows between
 * stores with SQL of its own. Not for use outside store/.
 */
#ifndef CA_STORE_INTERNAL_H
#define CA_STORE_INTERNAL_H

#include <sqlite3.h>

#include "store/store.h"

/* The connection (owned by st) and the path st was opened with. */
sqlite3 *store_sqlite(ca_store *st);
const char *store_path(const ca_store *st);
/* This process's host and boot id as the scan rows record them (NULL when
 * unknown). */
const char *store_host(const ca_store *st);
const char *store_boot_id(const ca_store *st);

#endif
