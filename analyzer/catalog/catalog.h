/*
 * catalog.h — library knowledge as data (DESIGN §2): which calls acquire,
 * release, register, shield, time out, which exceptions mean cancellation.
 *
 * The built-in catalog comes from rules/catalog/ (*.cat files) embedded in the binary;
 * configuration adds entries with ca_catalog_add(). Frontends ask the catalog
 * questions by category; no library name is tested anywhere else in the code.
 * A loaded catalog is immutable and shared read-only by all workers.
 */
#ifndef CA_CATALOG_H
#define CA_CATALOG_H

#include <stddef.h>

typedef enum ca_cat_kind {
    CAT_ACQUIRE, CAT_ACQUIRE_PREFIX, CAT_RELEASE_METHOD, CAT_RELEASE_WORD, CAT_RELEASE_FUNC,
    CAT_REGISTER_METHOD, CAT_REGISTER_WORD, CAT_TAKE_METHOD, CAT_READ_METHOD, CAT_CLEAR_METHOD,
    CAT_CANCEL_EXC, CAT_CATCHALL_EXC, CAT_SHIELD_CALL, CAT_SHIELD_SCOPE, CAT_TIMEOUT_CALL,
    CAT_TIMEOUT_SCOPE, CAT_PASS_CANCEL, CAT_SETTLE_CALL, CAT_NONSUSPENDING_CM, CAT_GROUP_CTOR,
    CAT_GROUP_SPAWN, CAT_EXIT_STACK, CAT_EXIT_STACK_ADOPT, CAT_EXIT_STACK_COMMIT,
    CAT_REMOTE_PREFIX, CAT_REMOTE_CREATE, CAT_NOT_REMOTE, CAT_LOCAL_RECEIVER, CAT_EXECUTOR, CAT_CALL_SUFFIX,
    CAT_DONE_TEST, CAT_FINISHED_ATTR, CAT_WAIT_DONE, CAT_CONSUMES, CAT_NONSUSPENDING_AWAIT,
    CAT_NONSUSPENDING_ENTER, CAT_GENERATOR_STEP, CAT_PLAIN_CALL, CAT_PLAIN_TYPE, CAT_DATA_BASE,
    CAT_DATA_DECORATOR, CAT_PROTOCOL_BASE, CAT_ABSTRACT_BASE, CAT_SETUP_METHOD, CAT_STORE_CALL,
    CAT_NOT_CANCEL_EXC, CAT_CANCELLING_TEST, CAT_SUPPRESS_CM, CAT_EXC_SINK, CAT_TASK_ENTRY, CAT_KEEPS_TASK, CAT_LOCK_FASTPATH, CAT_NONRAISING_CALL, CAT_FRESH_SEND, CAT_IDENTITY_ATTR, CAT_EXIT_WAIT, CAT_SLOT_ACQUIRE, CAT_INTERRUPT_EXC, CAT_REPORT_CALL, CAT_CHILD_TASKS, CAT_REQUEST_RECEIVER, CAT_TASK_SWEEP, CAT_MAIN_RUNNER, CAT_VIEW_CALL, CAT_WRAPPING_DECORATOR, CAT_DEFERRED_CALL, CAT_SPAWN_KEYWORD, CAT_CANCEL_HELPER, CAT_ELEMENT_CALL, CAT_NORETURN_CALL, CAT_SCOPE_OWN_TEST, CAT_NONEMPTY_GET, CAT_LOOKUP_VERB, CAT_CLOSING_FLAG, CAT_CANCEL_ONLY_AWAIT, CAT_SCOPE_RUNNER, CAT_ROUTE_ENTRY, CAT_ENDPOINT_BASE, CAT_ENDPOINT_METHOD, CAT_CURRENT_TASK, CAT_ROOT_RUNNER, CAT_MESSAGE_VERB, CAT_CAST_CALL, CAT_STATUS_VERB, CAT_LIVE_TEST, CAT_CANCEL_CLOSES, CAT_HOOK_SETUP, CAT_SITE_START, CAT_CHILD_MAKER, CAT_VERB_QUALIFIER, CAT_ROOT_CONTEXT, CAT_KEYED_RELEASE, CAT_UNHELD_SERVER, CAT_SERVICE_BASE, CAT_SERVICE_METHOD, CAT_TEST_FUNCTION, CAT_TEST_CLASS, CAT_TEST_BASE, CAT_TEST_METHOD, CAT_EVENT_HANDLER, CAT_EVENT_SUBCOMMAND, CAT_EVENT_BASE, CAT_EVENT_METHOD, CAT_CALLBACK_REGISTRAR,
    /* C (rules/catalog/c.cat): callee names; `arg=N` names an argument (0-based) */
    CAT_C_ACQUIRE, CAT_C_LOCK, CAT_C_LOCK_PAIRED, CAT_C_RELEASE, CAT_C_CANCEL_POINT, CAT_C_REGISTER,
    CAT_C_CLEANUP_PUSH, CAT_C_CLEANUP_POP, CAT_C_CANCEL_STATE, CAT_C_CANCEL_TYPE, CAT_C_CANCEL_DISABLE,
    CAT_C_CANCEL_ASYNC, CAT_C_ASYNC_SAFE, CAT_C_THREAD_CANCEL, CAT_C_NORETURN,
    CAT__COUNT
} ca_cat_kind;

typedef struct ca_cat_entry {
    char *pattern;
    char *kind;      /* resource kind for acquirers ("session"); NULL otherwise */
    char *arg;       /* keyword that must be true (shield scopes); NULL otherwise */
    int tuple_index; /* which tuple element carries the resource; -1 = all */
} ca_cat_entry;

typedef struct ca_catalog ca_catalog;

/* The built-in catalog (parsed once from the embedded files; thread-safe).
 * Never freed. NULL with *err when an embedded file is malformed. */
ca_catalog *ca_catalog_builtin(char **err);
/* A modifiable copy of the built-in catalog for configuration extras. */
ca_catalog *ca_catalog_clone(const ca_catalog *c);
void ca_catalog_free(ca_catalog *c);
/* Parse catalog text (the .cat format) into c. Returns 0, or -1 with *err
 * naming the line. `origin` names the source in messages. */
int ca_catalog_parse(ca_catalog *c, const char *text, const char *origin, char **err);
/* Add one entry. Returns 0, or -1 for an unknown category name. */
int ca_catalog_add(ca_catalog *c, const char *category, const char *pattern, const char *kind);
/* Category from its name in the .cat format ("acquire"), or -1. */
int ca_catalog_category(const char *name);

/* First entry of category k whose pattern matches s (fnmatch, '*' spans dots),
 * or NULL. */
const ca_cat_entry *ca_catalog_match(const ca_catalog *c, ca_cat_kind k, const char *s);
/* 1 when some entry of category k is a substring of s (for *-word categories). */
int ca_catalog_contains_word(const ca_catalog *c, ca_cat_kind k, const char *s);
/* Is `word` one of the words of the name s (snake_case and camelCase split,
 * lower-cased): `hLsarClose` and `close_handle` both have "close". */
int ca_name_has_word(const char *s, const char *word);
/* Is the noun a create names plural (its last word before a preposition,
 * after the verb: `create_tools_from_connectors`, `create_messages`)? A
 * batch, not one handle. */
int ca_name_plural_create(const char *name);
/* Does dotted name d call a method on a class by its name (`Credential.create`,
 * `anoncreds.Credential.create`): the part before the method a CapWords
 * name, not a constant (`CLIENT.create`), an instance (`client.create`) nor
 * a call (`Path(p).open`)? */
int ca_name_class_method(const char *d);
/* The entries of category k, in file order: *n of them. */
const ca_cat_entry *ca_catalog_entries(const ca_catalog *c, ca_cat_kind k, size_t *n);
/* A digest of every entry, so stored results are reused only under the same catalog. */
unsigned long long ca_catalog_digest(const ca_catalog *c);

#endif
