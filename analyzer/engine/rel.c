/*
 * rel.c — ownership relations between a function's variables (rel.h).
 */
#include "engine/rel.h"

#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

typedef struct edge_ctx {
    CA_VEC(int) edges;  /* pairs: member, owner */
    int *element_of;
} edge_ctx;

static int collect_edge(void *ctx, const ir_node *nd)
{
    edge_ctx *c = ctx;
    if ((nd->kind == IR_ALIAS || nd->kind == IR_ACQUIRE) && nd->var >= 0 && nd->var2 >= 0) {
        CA_VEC_PUSH(c->edges, nd->var);  /* member (or child) */
        CA_VEC_PUSH(c->edges, nd->var2); /* owner (or parent) */
    } else if (nd->kind == IR_ELEMENT && nd->var >= 0 && nd->var2 >= 0) {
        c->element_of[nd->var] = nd->var2;
    }
    return 0;
}

void eng_rel_build(eng_rel *r, const ir_func *f)
{
    int n = f->nvars;
    memset(r, 0, sizeof(*r));
    r->n = n;
    r->element_of = ca_xmalloc(sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) r->element_of[i] = -1;
    edge_ctx c;
    memset(&c, 0, sizeof(c));
    c.element_of = r->element_of;
    ir_visit(&f->body, collect_edge, &c);
    int ne = (int)(c.edges.n / 2);
    if (n <= ENG_REL_MATRIX_MAX) {
        /* the closure: x owns everything reachable from x along owner → member */
        int *first = ca_xmalloc(sizeof(int) * (size_t)(n + 1)), *next = ca_xmalloc(sizeof(int) * (size_t)(ne + 1));
        int *stack = ca_xmalloc(sizeof(int) * (size_t)(n + 1));
        for (int i = 0; i < n; i++) first[i] = -1;
        for (int e = 0; e < ne; e++) {
            int owner = c.edges.v[2 * e + 1];
            next[e] = first[owner];
            first[owner] = e;
        }
        r->owns = ca_xcalloc((size_t)n * (size_t)n + 1, 1);
        for (int x = 0; x < n; x++) {
            uint8_t *row = r->owns + (size_t)x * (size_t)n;
            int sp = 0;
            row[x] = 1;
            stack[sp++] = x;
            while (sp) {
                int cur = stack[--sp];
                for (int e = first[cur]; e >= 0; e = next[e]) {
                    int member = c.edges.v[2 * e];
                    if (!row[member]) {
                        row[member] = 1;
                        stack[sp++] = member;
                    }
                }
            }
        }
        free(first);
        free(next);
        free(stack);
    } else {
        r->first = ca_xmalloc(sizeof(int) * (size_t)(n + 1));
        r->next = ca_xmalloc(sizeof(int) * (size_t)(ne + 1));
        r->owner = ca_xmalloc(sizeof(int) * (size_t)(ne + 1));
        r->mark = ca_xcalloc((size_t)n + 1, sizeof(uint32_t));
        for (int i = 0; i < n; i++) r->first[i] = -1;
        for (int e = 0; e < ne; e++) {
            int member = c.edges.v[2 * e];
            r->owner[e] = c.edges.v[2 * e + 1];
            r->next[e] = r->first[member];
            r->first[member] = e;
        }
    }
    CA_VEC_FREE(c.edges);
}

void eng_rel_free(eng_rel *r)
{
    free(r->owns);
    free(r->first);
    free(r->next);
    free(r->owner);
    free(r->element_of);
    free(r->mark);
    free(r->stack);
}

static void push(eng_rel *r, int *sp, int v)
{
    if (*sp == r->cap_stack) {
        r->cap_stack = r->cap_stack ? r->cap_stack * 2 : 64;
        r->stack = ca_xrealloc(r->stack, sizeof(int) * (size_t)r->cap_stack);
    }
    r->stack[(*sp)++] = v;
}

int eng_rel_owns(eng_rel *r, int x, int v)
{
    if (r->owns) return r->owns[(size_t)x * (size_t)r->n + (size_t)v];
    if (x == v) return 1;
    if (++r->stamp == 0) { /* wrapped: old stamps could collide */
        memset(r->mark, 0, sizeof(uint32_t) * (size_t)r->n);
        r->stamp = 1;
    }
    int sp = 0, steps = 0;
    push(r, &sp, v);
    r->mark[v] = r->stamp;
    while (sp) {
        int cur = r->stack[--sp];
        for (int e = r->first[cur]; e >= 0; e = r->next[e]) {
            if (++steps > ENG_OWNER_STEPS) {
                r->limit_hit = 1;
                return 0;
            }
            int o = r->owner[e];
            if (o == x) return 1;
            if (r->mark[o] != r->stamp) {
                r->mark[o] = r->stamp;
                push(r, &sp, o);
            }
        }
    }
    return 0;
}

int eng_rel_covers(eng_rel *r, int x, int v)
{
    if (x < 0 || v < 0) return 0;
    if (eng_rel_owns(r, x, v)) return 1;
    int c = r->element_of[x];
    if (c >= 0 && eng_rel_owns(r, c, v)) return 1;
    return 0;
}
