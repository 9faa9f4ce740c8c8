/*
 * py_tree.h — a parsed Python file as a flat array of nodes.
 *
 * Why: tree-sitter 0.20's node API walks from a node's first child for
 * every ts_node_child / ts_node_named_child / ts_node_child_by_field_id
 * call and names types by string, and lowering asks such questions millions
 * of times. The frontend turns the TSTree into this array once, in one
 * cursor pass (py_tree_build), frees the TSTree, and asks the array.
 *
 * What it keeps is what the tree-sitter API answers about the visible nodes
 * (the ones a TSTreeCursor stops at), in preorder:
 *   - type: an interned id per type *name*, so that a test against PT_x is
 *     exactly the old strcmp(ts_node_type(n), "x") == 0 (aliases included;
 *     a named and an anonymous node with one name share the id). Names the
 *     frontend never tests share PT_OTHER.
 *   - the field the node fills in its parent (as ts_tree_cursor_current_field_id
 *     reports it), as a PF_ id, 0 for none or a field nobody asks for;
 *   - byte range, named / MISSING / has-error flags; points (row, byte
 *     column) are not stored but computed from the byte offsets with a
 *     table of line starts (pt_point): tree-sitter counts rows at '\n'
 *     bytes and columns in bytes, so the two agree (tests/unit/test_py_tree.c
 *     checks it node by node);
 *   - parent and next sibling as offsets (no pointers: the nodes are one
 *     block), the first child being the next node when there is one.
 * A node is handed around as a pointer into the array; "no node" is the
 * sentinel pt_null (type PT_NULL, no children, no siblings), so every
 * accessor takes it and answers "nothing" without a test at the call site.
 */
#ifndef CA_PY_TREE_H
#define CA_PY_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

/* Type names the frontend tests. X(id, "name"). */
#define PT_TYPE_LIST(X)                                                                               \
    X(ERROR, "ERROR") X(aliased_import, "aliased_import") X(and, "and") X(or, "or")                     \
    X(argument_list, "argument_list") X(as_pattern, "as_pattern") X(assert_statement, "assert_statement") \
    X(assignment, "assignment") X(async, "async") X(attribute, "attribute")                              \
    X(augmented_assignment, "augmented_assignment") X(await, "await") X(block, "block")                  \
    X(boolean_operator, "boolean_operator") X(break_statement, "break_statement") X(call, "call")        \
    X(case_clause, "case_clause") X(case_pattern, "case_pattern") X(class_definition, "class_definition") \
    X(comment, "comment") X(comparison_operator, "comparison_operator")                                   \
    X(conditional_expression, "conditional_expression") X(continue_statement, "continue_statement")      \
    X(decorated_definition, "decorated_definition") X(delete_statement, "delete_statement")              \
    X(dictionary, "dictionary") X(dictionary_splat, "dictionary_splat") X(dotted_name, "dotted_name")    \
    X(elif_clause, "elif_clause") X(else_clause, "else_clause") X(except_clause, "except_clause")         \
    X(except_group_clause, "except_group_clause") X(exec_statement, "exec_statement")                    \
    X(expression_list, "expression_list") X(expression_statement, "expression_statement")                \
    X(finally_clause, "finally_clause") X(for_in_clause, "for_in_clause") X(for_statement, "for_statement") \
    X(function_definition, "function_definition") X(generator_expression, "generator_expression")        \
    X(global_statement, "global_statement") X(identifier, "identifier") X(if_statement, "if_statement")  \
    X(import_from_statement, "import_from_statement") X(import_statement, "import_statement")            \
    X(integer, "integer") X(float, "float") X(keyword_argument, "keyword_argument") X(lambda, "lambda")  \
    X(list, "list") \
    X(list_comprehension, "list_comprehension") X(list_pattern, "list_pattern")                          \
    X(list_splat, "list_splat") X(list_splat_pattern, "list_splat_pattern")                              \
    X(match_statement, "match_statement") X(module, "module") X(named_expression, "named_expression")    \
    X(none, "none") X(nonlocal_statement, "nonlocal_statement") X(not_operator, "not_operator")          \
    X(pair, "pair") X(parenthesized_expression, "parenthesized_expression") X(pattern_list, "pattern_list") \
    X(print_statement, "print_statement") X(raise_statement, "raise_statement")                          \
    X(return_statement, "return_statement") X(set, "set") X(set_comprehension, "set_comprehension")      \
    X(subscript, "subscript") X(true, "true") X(try_statement, "try_statement") X(tuple, "tuple")        \
    X(tuple_pattern, "tuple_pattern") X(while_statement, "while_statement") X(with_clause, "with_clause") \
    X(with_item, "with_item") X(with_statement, "with_statement") X(yield, "yield")                      \
    X(decorator, "decorator") X(generic_type, "generic_type") X(union_type, "union_type")                \
    X(binary_operator, "binary_operator") X(type, "type") X(member_type, "member_type") X(string, "string") \
    X(false, "false") X(type_parameter, "type_parameter") X(concatenated_string, "concatenated_string") \
    X(if_clause, "if_clause") X(pass_statement, "pass_statement") X(ellipsis, "ellipsis")               \
    X(dictionary_comprehension, "dictionary_comprehension") X(unary_operator, "unary_operator")

/* Field names the frontend asks for. X(id, "name"). */
#define PT_FIELD_LIST(X)                                                                              \
    X(function, "function") X(value, "value") X(body, "body") X(object, "object") X(name, "name")       \
    X(arguments, "arguments") X(left, "left") X(right, "right") X(attribute, "attribute")              \
    X(alias, "alias") X(definition, "definition") X(consequence, "consequence")                        \
    X(condition, "condition") X(alternative, "alternative") X(parameters, "parameters")                \
    X(module_name, "module_name") X(guard, "guard") X(argument, "argument") X(type, "type")          \
    X(return_type, "return_type") X(superclasses, "superclasses")

enum {
    PT_NULL = 0, /* the "no node" sentinel */
    PT_OTHER,    /* any type whose name is not in PT_TYPE_LIST */
#define PT_X(id, s) PT_##id,
    PT_TYPE_LIST(PT_X)
#undef PT_X
    PT__COUNT
};

enum {
    PF_NONE = 0, /* no field, or one not in PT_FIELD_LIST */
#define PT_X(id, s) PF_##id,
    PT_FIELD_LIST(PT_X)
#undef PT_X
    PF__COUNT
};

enum {
    PT_NAMED = 1u,   /* ts_node_is_named */
    PT_MISSING = 2u, /* ts_node_is_missing */
    PT_KIDS = 4u,    /* has children: the first is the next node */
    PT_ERRORS = 8u,  /* ts_node_has_error, on the root only */
    PT_FIELDS = 16u, /* some child fills a PF_ field */
};

typedef struct pt_node {
    uint32_t start, end; /* bytes */
    uint32_t parent;     /* this index minus the parent's; 0 for the root */
    uint32_t next;       /* next sibling's index minus this; 0 for none */
    uint16_t type;       /* PT_ */
    uint8_t field;       /* PF_ */
    uint8_t flags;       /* PT_NAMED ... */
} pt_node;

typedef const pt_node *pn;

/* Zero-initialise; the buffers are kept from one build to the next. */
typedef struct py_tree {
    pt_node *v; /* v[0] is the root */
    size_t n, cap;
    uint32_t *lines; /* byte offset of each line's start; lines[0] == 0 */
    size_t nlines, lines_cap;
} py_tree;

extern const pt_node pt_null;

/* Replace t's contents with the flat copy of tree, parsed from src (len
 * bytes). Iterative: any depth. Returns 0, or -1 when the tree is too big to
 * index in 32 bits (t is then empty). */
int py_tree_build(py_tree *t, const TSTree *tree, const char *src, uint32_t len);
/* Give back buffers of more than keep_bytes (between files). */
void py_tree_trim(py_tree *t, size_t keep_bytes);
void py_tree_free(py_tree *t);
/* Row and byte column of byte offset b, as tree-sitter's TSPoint has them. */
void pt_point(const py_tree *t, uint32_t b, uint32_t *row, uint32_t *col);
/* The names behind the ids (tests, diagnostics). */
const char *pt_type_name(unsigned type);
const char *pt_field_name(unsigned field);

static inline pn pn_root(const py_tree *t) { return t->n ? &t->v[0] : &pt_null; }
static inline int pn_isnull(pn n) { return n == &pt_null; }
static inline int pn_is(pn n, unsigned type) { return n->type == type; }
static inline int pn_named(pn n) { return (n->flags & PT_NAMED) != 0; }
static inline pn pn_first(pn n) { return (n->flags & PT_KIDS) ? n + 1 : &pt_null; }
static inline pn pn_next(pn n) { return n->next ? n + n->next : &pt_null; }
static inline pn pn_parent(pn n) { return n->parent ? n - n->parent : &pt_null; }

/* Named children, in order: for (pn c = pn_first_named(n); !pn_isnull(c); c = pn_next_named(c)) */
static inline pn pn_next_named(pn c)
{
    while (!pn_isnull(c) && !pn_named(c)) c = pn_next(c);
    return c;
}
static inline pn pn_first_named(pn n) { return pn_next_named(pn_first(n)); }
static inline pn pn_after_named(pn c) { return pn_next_named(pn_next(c)); }
#define PN_FOR_NAMED(c, n) for (pn c = pn_first_named(n); !pn_isnull(c); c = pn_after_named(c))
#define PN_FOR_CHILD(c, n) for (pn c = pn_first(n); !pn_isnull(c); c = pn_next(c))

/* ts_node_child_by_field_id: the first child filling field f. */
static inline pn pn_field(pn n, unsigned f)
{
    if (!(n->flags & PT_FIELDS)) return &pt_null;
    for (pn c = pn_first(n); !pn_isnull(c); c = pn_next(c))
        if (c->field == f) return c;
    return &pt_null;
}

/* ts_node_named_child(n, i) / ts_node_child(n, i) / the counts: O(children). */
static inline pn pn_named_child(pn n, uint32_t i)
{
    pn c = pn_first_named(n);
    while (i-- > 0 && !pn_isnull(c)) c = pn_after_named(c);
    return c;
}
static inline pn pn_child(pn n, uint32_t i)
{
    pn c = pn_first(n);
    while (i-- > 0 && !pn_isnull(c)) c = pn_next(c);
    return c;
}
static inline uint32_t pn_named_count(pn n)
{
    uint32_t k = 0;
    PN_FOR_NAMED(c, n) k++;
    return k;
}

#endif
