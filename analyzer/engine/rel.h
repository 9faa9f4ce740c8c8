/*
 * rel.h — ownership relations between a function's variables (internal to
 * analyzer/engine/).
 *
 * From the IR's alias and child edges (IR_ALIAS, IR_ACQUIRE with a parent:
 * member → owner) and loop elements (IR_ELEMENT: element → container), built
 * once per function: "does an event on x cover v". Small functions get the
 * transitive closure as an n×n byte matrix; larger ones keep edge lists and
 * search them, at most ENG_OWNER_STEPS steps per question (limit_hit records
 * that a search was cut short).
 */
#ifndef CA_ENGINE_REL_H
#define CA_ENGINE_REL_H

#include <stdint.h>

#include "ir/ir.h"

typedef struct eng_rel {
    int n;
    uint8_t *owns;      /* small functions: owns[x*n+v]: releasing/transferring x also does v */
    int *first, *next, *owner; /* large ones: member → owner edge lists */
    int *element_of;    /* element var → its container, or -1 */
    uint32_t *mark;     /* large ones: visit stamps of the search */
    uint32_t stamp;
    int *stack;
    int cap_stack;
    int limit_hit;
} eng_rel;

void eng_rel_build(eng_rel *r, const ir_func *f);
void eng_rel_free(eng_rel *r);
/* Is x v itself or one of its owners? */
int eng_rel_owns(eng_rel *r, int x, int v);
/* Does an event on x (release/transfer) cover v? Element events cover the
 * whole container. */
int eng_rel_covers(eng_rel *r, int x, int v);

#endif
