/*
 * ir.h — the ownership IR (DESIGN §2): the language-neutral form every
 * frontend lowers a function to, and the only thing rules read.
 *
 * A function is a tree of blocks. Leaf nodes are ownership events in
 * evaluation order (acquire, alias, transfer, release, adopt, checkpoint,
 * ...); structured nodes (if, loop, try, with) carry the regions and the
 * control flow. Values are numbered variables (ir_var); the frontend decides
 * what a variable is (a Python local, a C local), the IR only says what
 * happens to it. Everything is allocated in the module's arena and freed
 * with it; text fields point into the arena.
 *
 * Nesting depth of the tree is bounded by the frontend (IR_MAX_DEPTH), so
 * consumers may recurse over blocks.
 */
#ifndef CA_IR_H
#define CA_IR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/util.h"

#define IR_MAX_DEPTH 200

typedef struct ir_site {
    int line, col;          /* 1-based; col in code points */
    int end_line, end_col;
    uint32_t start, end;    /* byte offsets into the module source */
} ir_site;

typedef enum ir_kind {
    /* events */
    IR_ACQUIRE,     /* var comes into being owned by the function (see ACQ_*); var2 = parent or -1 */
    IR_ALIAS,       /* var is held by container var2 (owning var2 owns var); text = attribute/key or NULL */
    IR_ELEMENT,     /* var is bound to each element of container var2 (for-loop) */
    IR_TRANSFER,    /* var handed to an owner that outlives the function (registry, self, return) */
    IR_RELEASE,     /* var released (REL_*) */
    IR_ADOPT,       /* var owned by the enclosing WITH node `ref` (context manager / exit stack) */
    IR_COMMIT,      /* everything adopted by the exit stack var2 moves out (pop_all): transferred */
    IR_CHECKPOINT,  /* cancellation can be delivered here (CP_*); vars = tasks it passes cancellation into */
    IR_DONE,        /* var (a task/future) finished: an await of it returned */
    IR_TAKE,        /* registry text = container: values read from it earlier are now taken out */
    IR_AWAIT_CALL,  /* a call awaited directly (through timeout/shield wrappers; AWAIT_*): text = the
                       callee as written, callee = its dotted name resolved through imports (NULL when
                       not a name chain), cname = its last component, recv = the receiver's dotted name
                       (NULL when there is none or an expression makes it) */
    IR_EXECUTOR,    /* awaited thread work producing var (may be -1); text = callee */
    IR_CALL,        /* call of text (callee as written) with vars = argument variables (-1 when not a variable) */
    /* structure */
    IR_IF,          /* branches[]; IF_HAS_ELSE when one branch always runs */
    IR_LOOP,        /* a = body, b = else, c = condition evaluated before each iteration */
    IR_TRY,         /* a = body, b = else, c = finally; handlers[] */
    IR_WITH,        /* a = body; var = bound variable or -1; var2 = `async with v` variable;
                       vars = values handed to the context manager's constructor */
    IR_RETURN,
    IR_RAISE,       /* var2 = the raised variable or -1 (raise e) */
    IR_BREAK,
    IR_CONTINUE,
    IR_BIND,        /* var gets a value whose truth the IR knows (BIND_*): `done = True`, `x = None` */
} ir_kind;

/* IR_ACQUIRE flags */
#define ACQ_STRONG        0x01u /* catalog or naming heuristic: a resource for sure */
#define ACQ_WEAK          0x02u /* a call result: a resource only if the function releases it in cleanup */
#define ACQ_REGISTRY_READ 0x04u /* read from registry `text`: becomes a take at IR_TAKE of that registry */
#define ACQ_REGISTRY_TAKE 0x08u /* taken out of a registry (pop) */
#define ACQ_EXECUTOR      0x10u /* produced by thread work (run_in_executor / to_thread) */
#define ACQ_HEURISTIC     0x20u /* with ACQ_STRONG: a naming-heuristic hit (create*, open*, ...), a resource only
                                   with evidence; ref = the making call (IR_CALL), for any acquire from a call */
#define ACQ_TEARDOWN      0x40u /* a task whose coroutine is a release (`create_task(self.close())`): awaited
                                   through a shield, it goes on to its end by itself when the await is
                                   cancelled, which is what the shield is for */
#define ACQ_CHILD         0x80u /* made inside an existing remote parent (`vpc.create_route_table`, a create
                                   naming its parent's id, or a catalogued child-maker, `context.new_page()`):
                                   reachable and deleted through that parent */
#define ACQ_MESSAGE       0x100u /* with ACQ_WEAK: what a method whose name sends a message returns (`msg =
                                   await channel.send(text)`, catalog message-verb): a message posted, not
                                   something held, even when a cleanup deletes it */
#define ACQ_MAKER         0x200u /* a task whose coroutine makes a resource (`create_task(client.create(spec))`):
                                   what it returns is that resource, so a shield that detaches the task
                                   still leaves its result to nobody */
/* IR_TRANSFER flags */
#define XFER_RETURN       0x01u /* returned or yielded, not stored anywhere */
#define XFER_PART         0x02u /* a member of var stored in an owner (`self.proc = entry.proc`): a record
                                   taken out of a registry and unpacked into its new owner goes with it */
#define XFER_SELF         0x04u /* the owner is self (an attribute of self, or a registry it holds) */
#define XFER_IDENTITY     0x10u /* what is stored is the value's identity (`repo.version_id = version.id`):
                                       the owner finds it again by that name */
#define XFER_OUTER        0x08u /* the owner outlives the function: a module-level object (or an enclosing
                                     function's), or an entry of one self holds */
/* IR_RELEASE flags */
#define REL_IN_CLEANUP    0x01u /* inside a handler or finally */
#define REL_SHIELDED      0x02u /* the releasing call runs under a shield */
#define REL_AWAITED       0x04u
#define REL_IMPLICIT      0x08u /* context manager exit */
#define REL_PART          0x10u /* through an attribute (entry.ws.close()): one step of a teardown */
/* IR_CHECKPOINT flags */
#define CP_AWAIT          0x01u
#define CP_WITH_ENTER     0x02u
#define CP_WITH_EXIT      0x04u
#define CP_ASYNC_FOR      0x08u
#define CP_SHIELDED       0x10u /* the awaited expression is a shield(...) */
#define CP_RELEASES       0x20u /* the awaited call releases something (a cleanup await) */
#define CP_IN_CLEANUP     0x40u /* inside a handler or finally */
#define CP_CALL           0x80u /* awaits a call (not a bare task) */
#define CP_AWAITS_CANCELLED 0x100u /* awaits a task the function cancelled before */
#define CP_ON_VAR         0x200u /* the awaited call works on variable `var` (receiver or argument) */
#define CP_TIMEOUT        0x400u /* awaited under a timeout call (wait_for(x, t)): the wait is bounded */
#define CP_NO_SUSPEND     0x800u /* the awaited call cannot deliver cancellation (catalog) */
#define CP_RELEASE_STEP   0x1000u /* the awaited call itself releases a value (`await x.aclose()`, a call whose
                                     name says it releases, tasks it passes cancellation into): a step of a
                                     teardown, where CP_RELEASES also counts any call in cleanup */
#define CP_CANCEL_ONLY    0x2000u /* the awaited call raises nothing but the cancellation it delivers (catalog
                                     cancel-only-await: asyncio.sleep, asyncio.wait): only a handler that
                                     catches cancellation is reached from it */
#define CP_WAIT_FIRST     0x4000u /* `await asyncio.wait(..., return_when=FIRST_COMPLETED / FIRST_EXCEPTION)`
                                     or with a timeout, whose done and pending sets are dropped (a statement,
                                     or names never read again): it may return with awaitables still pending */
/* IR_AWAIT_CALL / IR_EXECUTOR flags */
#define REM_TIMEOUT       0x01u /* under a timeout call (wait_for) */
#define REM_SHIELDED      0x02u
#define REM_HAS_RECV      0x04u /* IR_AWAIT_CALL: a method call (x.m(...)) */
#define REM_RECV_SCOPE    0x08u /* IR_AWAIT_CALL: the receiver is a task group, nursery or exit stack */
#define REM_CREATE        0x10u /* IR_AWAIT_CALL: a remote create by the catalog or by its name, not shielded
                                   (rules_seed_summary marks it): it makes the function remote unless it
                                   awaits a function of the tree that suspends nowhere (no I/O to cut) */
#define REM_ENSURED       0x20u /* IR_AWAIT_CALL: a create whose try takes "already exists" as success
                                   (`if e.status != 409: raise`): an object meant to be there whoever
                                   made it, not one a timeout orphans */
#define EXEC_STRONG       0x10u /* IR_EXECUTOR: the function run in the thread is a catalogued acquirer */
#define EXEC_NAMED        0x20u /* IR_EXECUTOR: a create under a name the code also looks up
                                   (`create_policy(PolicyName=n)` and `get_policy(n)`): a named
                                   object meant to persist, found again by that name */
#define EXEC_HEURISTIC    0x40u /* IR_EXECUTOR: the function run is one of this module whose name only sounds
                                   like a maker (`_open_file`): a resource only with evidence */
#define EXEC_CHILD        0x80u /* IR_EXECUTOR: a create inside an existing parent (ACQ_CHILD) */
/* IR_CALL flags */
#define CALL_AWAITED      0x01u
#define CALL_IN_CLEANUP   0x02u
#define CALL_NAME_RELEASES  0x04u /* the callee's name says it releases (release-word) */
#define CALL_NAME_REGISTERS 0x08u /* the callee's name says it registers (register-word) */
#define CALL_ON_SELF      0x10u /* self.m(...) / cls.m(...): resolve within the class */
#define CALL_RUNS_CALLEE  0x20u /* C: runs the callee to completion on this thread, so a callee that
                                   reaches a checkpoint makes this call one */
#define CALL_ASYNC_CANCEL 0x40u /* C: made while asynchronous cancellation is enabled and not
                                   async-cancel-safe; ref = the call that enabled it */
#define CALL_VALUE_ONLY   0x80u /* recorded only as the making call of an acquire (ref): no effects */
#define CALL_RECV_CLASS   0x100u /* x.m(...) on a local x made by calling `recv` (`x = Cls(...)`): resolve m
                                    as a method of the class recv names */
#define CALL_SPAWNED      0x400u /* the call a spawned task makes (`start_soon(fn, a)`, `create_task(fn(a))`):
                                    fn runs in the new task, which takes what fn takes; a function the tree
                                    does not define takes what it is given (a server's handler owns its
                                    connection) */
#define CALL_CANCELLED_ARG 0x800u /* a positional argument names a task the caller cancelled before the call
                                    (`t.cancel(); await self._suppress(t)`) */
#define CALL_ACQUIRES_SLOT 0x1000u /* x.acquire...(...) (catalog slot-acquire): takes a slot of its receiver, and
                                    nothing if it is cancelled */
#define CALL_CM_EXIT      0x2000u /* value only: what `cm.__aexit__(...)` / `__exit__` is handed */
#define CALL_NORETURN     0x4000u /* the call never returns (catalog noreturn-call: `os._exit(0)`, `sys.exit()`):
                                    the path ends there */
#define CALL_STATUS_WRITE 0x8000u /* its name's first word writes a status (catalog status-verb:
                                       `mark_run_failed(run.id)`, `update_run(...)`), no release */
#define CALL_REPORT       0x10000u /* a call that only reports what it is handed (catalog report-call:
                                       `log.warning(..., run_id=run.id)`): it releases nothing */
#define CALL_ON_GLOBAL    0x20000u /* x.m(...) on a module-level object made from a class (`conn_map = ConnMap()`
                                     at module level; recv is that class): what m keeps, an object that lives
                                     as long as the program keeps */
#define CALL_NAME_MAKES   0x40000u /* the callee's name says it makes something (catalog acquire-prefix:
                                       `store.create_collection(...)`, `api.start_job(...)`) */
#define CALL_NO_RAISE     0x200u /* the call does not raise in practice (catalog nonraising-call: `str(x)`) */
#define CALL_READS_ONLY   0x80000u /* it only reads what it is handed (a report call, `isinstance(x, T)`,
                                      `len(x)`): it keeps none of it, in cleanup or not */
#define CALL_GATHERED     0x100000u /* a coroutine handed as a child to an awaited gather (catalog child-tasks:
                                      `await asyncio.gather(*[fetch(u) for u in urls])`): its task runs while
                                      the caller waits there, and a cancellation reaches it only through the
                                      caller's (a failing sibling cancels nothing) */
#define CALL_HELD_AWAIT   0x200000u /* the coroutine call a plain task start makes (`t = create_task(self._loop())`)
                                      whose task only this function holds, and holds only to await it
                                      (`await t`, `await asyncio.gather(*tasks)` of a local list it is put
                                      in): the task is cancelled only through this function's own
                                      cancellation, as an in-place await would be */
#define CALL_UNHELD_START 0x400000u /* the coroutine call a plain task start makes whose task nothing can cancel
                                      (`asyncio.create_task(self.client.start())` as a statement, or held
                                      where it is only tested: uncancelled_start): the task is a root of its
                                      own, so what it runs meets no cancellation but the loop's teardown */
#define CALL_DROPPED      0x80000000u /* a statement of its own (`f(x)`, `await f(x)`): nothing keeps what it
                                          returns (a task a decorator of the callee starts, FN_SPAWNS_ARG0) */
/* IR_DONE */
#define DONE_SETTLED      0x01u /* an await of the task returned: it has finished (not a None test) */
#define DONE_EXITED       0x02u /* `await v.wait()` returned (catalog exit-wait): finished if v is a process */
#define DONE_EMPTY        0x04u /* a test found v falsy or None (`if pending:`'s other branch): whatever was put
                                   into v has left it, so what v holds is no longer live through it */
/* IR_RAISE */
#define RAISE_CANCEL      0x01u /* raises a cancellation exception (raise asyncio.CancelledError) */
#define RAISE_BARE        0x02u /* a bare `raise`: the exception being handled (in a helper called from a
                                   handler, the caller's) */
/* IR_RETURN */
#define RETURN_CANCEL     0x01u /* returns a cancellation exception for its caller to raise */
#define RETURN_TAKEN      0x02u /* returns what it takes out of a registry right there (`return d.pop(k)`) */
#define RETURN_QUIET_CM   0x04u /* returns a context manager that suspends neither on enter nor on exit
                                   (catalog: `return async_timeout.timeout(None)`) */
#define RETURN_LITERAL    0x10u /* returns a literal built in place (`return {"path": p, "ok": True}`, a
                                   tuple, list or set display, a string or a number), or nothing */
#define RETURN_PARAM      0x08u /* var = the parameter it returns unchanged, set on every return of a function
                                   each of whose paths ends in `return p` and that never rebinds p
                                   (`def strip(state): state.messages = ...; return state`) */
/* IR_BIND flags: what the value can be */
#define BIND_TRUE         0x01u /* truthy (True, or anything else known to be) */
#define BIND_FALSE        0x02u /* falsy but not None (False, 0, "") */
#define BIND_NONE         0x04u /* None */
/* IR_IF atoms (ir_node.tests, one per vars[] entry): what branch 0 needs of
 * each variable; the other branches run when it does not hold (only a
 * single atom tells them anything) */
#define TEST_TRUTHY       1  /* if v */
#define TEST_FALSY        2  /* if not v */
#define TEST_NONE         3  /* if v is None */
#define TEST_NOT_NONE     4  /* if v is not None */
#define TEST_FALSE        5  /* if v is False */
#define TEST_EXC_CANCEL   6  /* if isinstance(v, C): C can be a cancellation */
#define TEST_EXC_OTHER    7  /* if isinstance(v, C): C cannot be (Exception and its kin) */
/* IR_IF */
#define IF_HAS_ELSE       0x01u
#define IF_ONE_TEST       0x02u /* the condition is its one atom: the other branches have its negation */
#define IF_ON_CONFIG      0x04u /* the condition reads only options: attributes of self, parameters,
                                   constants (`if not self.suppress_errors:`), no call */
#define IF_CANCEL_FLAG    0x08u /* `if self.F:` where a method of the class sets self.F = True and then
                                   cancels a task: on branch 0 a cancellation is the object's own */
#define IF_CANCEL_FLAG_NOT 0x20u /* with IF_CANCEL_FLAG: the test is `if not self.F:`, so the flag is set on
                                    the other branches (the else, or the fall-through) */
#define IF_LOOP_FIXED     0x10u /* IF_ONE_TEST, an identity test (`w is None`) inside a loop that never binds
                                   w again: every pass of the loop takes the same branch */
#define IF_LOOP_TEST      0x40u /* the test of a `while` loop at the head of its body, read as `if not c:
                                   break` (branch 1 holds the break): a pass runs only where it holds */
/* IR_LOOP */
#define LOOP_ASYNC_FOR    0x01u
#define LOOP_INFINITE     0x02u /* while True: leaves only by break/return/raise */
/* IR_WITH */
#define WITH_ASYNC        0x01u
#define WITH_NONSUSP_EXIT 0x02u /* its exit never suspends (asyncio.Lock, cancel scopes) */
#define WITH_SHIELD       0x04u /* a shield scope: no cancellation delivered inside */
#define WITH_TIMEOUT      0x08u /* a timeout scope */
#define WITH_EXIT_STACK   0x10u
#define WITH_GROUP        0x20u /* task group / nursery */
#define WITH_OWNS         0x40u /* the context manager owns the bound variable */
#define WITH_NONSUSP_ENTER 0x80u /* its enter never suspends (task groups, exit stacks, cancel scopes) */
#define WITH_LOCK_IDLE    0x100u /* an asyncio lock of self that no holder keeps across a suspension: its
                                    acquire does not suspend today (a latent checkpoint) */
#define WITH_TARGET       0x200u /* var: the `as` target of a context manager that is no resource maker
                                    (`async with pool.connection() as conn`): what conn makes is owned
                                    through the context manager inside its body */
#define WITH_SUBJECT      0x400u /* vars[0] is the context manager's subject, its call's first positional
                                    argument (`async with run_app(app):`): what is made from it inside the
                                    body (`Sandbox.create(app=app)`) lives in that activation and is owned
                                    through the context manager */
#define WITH_SHIELD_ALL   0x800u /* with WITH_SHIELD: a shield no cancellation passes (trio's, or anyio's
                                    in a module that does not use asyncio, where a native task.cancel()
                                    passes anyio's shield) */
/* handler catch flags */
#define H_CANCEL          0x01u /* catches cancellation */
#define H_BASE            0x02u /* BaseException or bare: catches everything */
#define H_BARE            0x04u
#define H_SHIELDED        0x08u /* its body runs cleanup under a shield */
#define H_CANCELLING      0x10u /* its body asks whether the task is being cancelled (cancelling(), uncancel()),
                                   cancels the task again (`asyncio.current_task().cancel()`), or hands the
                                   caller a status saying cancelled (`finish_reason=INTERRUPTED`), or, in
                                   `__aexit__`, raises it unless the body's own exception is in flight and
                                   then hands back false (that exception propagates), or throws it into
                                   the code it drives (`ctx.throw(*sys.exc_info())`) */
#define H_SUPPRESS        0x20u /* a `with contextlib.suppress(...)` scope, read as a handler */
#define H_LEVEL           0x40u /* the cancellation it catches is level-triggered (trio, anyio scopes): the
                                   next unshielded checkpoint raises it again */
#define H_INTERRUPT       0x80u /* it also names the user's interrupt (`except (CancelledError,
                                   KeyboardInterrupt)`): the program's edge, where ^C ends the work (asyncio.run
                                   delivers ^C to the main task as a cancellation) */
#define H_EXCEPTION       0x100u /* it catches every Exception (`except Exception`, a tuple naming it): only what is
                                   no Exception (cancellation, an interrupt) gets past it */

typedef struct ir_node ir_node;

typedef struct ir_block {
    ir_node **v;
    int n, cap;
} ir_block;

typedef struct ir_handler {
    ir_site site;
    unsigned flags;          /* H_* */
    const char *catches;     /* exception expression as written, "" for bare */
    int exc_var;             /* `as e` variable or -1 */
    ir_block body;
} ir_handler;

struct ir_node {
    ir_kind kind;
    ir_site site;
    unsigned flags;
    int var, var2;
    const char *text;        /* see ir_kind */
    const char *rkind;       /* resource kind (IR_ACQUIRE); IR_AWAIT_CALL: the class of the tree its
                                receiver was made from, when one is known */
    const char *callee, *cname, *recv; /* IR_AWAIT_CALL */
    ir_node *ref;            /* IR_ADOPT: the WITH node; IR_CALL with CALL_ASYNC_CANCEL: the enabling call;
                                IR_CHECKPOINT with CP_CALL: the IR_CALL it awaits, when there is one;
                                IR_EXECUTOR: a value-only IR_CALL naming the function the thread runs;
                                IR_RETURN: the IR_CALL whose result it returns (`return f(...)`) */
    int *vars;               /* IR_CHECKPOINT: pass-cancel tasks; IR_CALL: argument variables;
                                IR_ACQUIRE: the variables its making refers to (the call's arguments
                                and, for a local function called there, the enclosing variables the
                                local function reads: what a spawned coroutine works on) */
    union {
        const char **kwnames;  /* IR_CALL: keyword of each argument, NULL when positional */
        const uint8_t *tests;  /* IR_IF: TEST_* of each vars[] entry (branch 0 needs all of them) */
    };
    int nvars;
    ir_block a, b, c;
    ir_block *branches;
    int nbranches;
    ir_handler *handlers;
    int nhandlers;
};

/* kwnames[k] of an IR_CALL var that is not the first variable of its
 * positional argument, so that the vars after it keep their argument's
 * position (`f((a, b), c)`: vars a, b, c, c in argument 1). IR_KW_CONT:
 * another element of a tuple or list written in place, `(a, b)`, which the
 * parameter holds as it holds the first; IR_KW_PART: another variable
 * the argument's expression reads (`g(a, b)`, `f"{a}{b}"`), which lands
 * in no parameter. Both count as positional for the name heuristics. */
#define IR_KW_CONT "\x01"
#define IR_KW_PART "\x02"
static inline int ir_arg_cont(const ir_node *n, int k)
{
    return n->kwnames && n->kwnames[k] && n->kwnames[k][0] == '\x01';
}
static inline int ir_arg_part(const ir_node *n, int k)
{
    return n->kwnames && n->kwnames[k] && n->kwnames[k][0] == '\x02';
}
/* Is var k of call n (a part of) a positional argument? */
static inline int ir_arg_positional(const ir_node *n, int k)
{
    return !n->kwnames || !n->kwnames[k] || n->kwnames[k][0] == '\x01' || n->kwnames[k][0] == '\x02';
}

#define VAR_PARAM       0x01u
#define VAR_SELF        0x02u /* first parameter of a method (self/cls) */
#define VAR_GROUP       0x04u /* a task group / nursery */
#define VAR_EXIT_STACK  0x08u /* bound by `with ExitStack() as v` (ref = the WITH node) */
#define VAR_ELEMENT     0x10u /* a for-loop element */
#define VAR_VARARGS     0x20u /* a parameter *args: every later positional argument lands in it */
#define VAR_EXC         0x40u /* bound by `except ... as v`: holds an exception (truthy) */
#define VAR_OF_SELF     0x80u /* a for-loop element of something self holds (`for r in self._by_id.values()`) */
#define VAR_TEARDOWN    0x100u /* lowering: bound to a teardown task (ACQ_TEARDOWN) */
#define VAR_PLAIN       0x200u /* a parameter annotated as plain data (`path: str`, `n: int | None`) */
#define VAR_MAKER       0x400u /* lowering: bound to a task whose coroutine makes a resource (ACQ_MAKER) */
#define VAR_SCALAR      0x800u /* compared with a bool or number literal in the body (`if ok is False:`,
                                 `if added > 0:`, `rc == 0`): a flag or a count, which holds nothing */

typedef struct ir_var {
    const char *name;
    unsigned flags;
    ir_node *stack_with;    /* VAR_EXIT_STACK: its WITH node */
    uint32_t first_cancel;  /* byte offset of the first v.cancel() call, UINT32_MAX when none */
    uint32_t last_mention;  /* byte offset where the function's last mention of v starts (UINT32_MAX: not
                               known, or a nested function or lambda names it) */
} ir_var;

/* ir_func.fflags (64 bits: ir_fflags) */
typedef uint64_t ir_fflags;
#define FN_RELEASES_SELF  0x01ull /* releases something held by self (self.x.close(), os.close(self._fd)) */
#define FN_HOLDS_RESOURCE 0x02ull /* stores a catalogued resource on self */
#define FN_RET_PLAIN      0x04ull /* annotated to return plain data (str, bool, dict, None, ...) */
#define FN_ABSTRACT       0x08ull /* decorated @abstractmethod */
#define FN_RETURNS_BORROWED 0x10ull /* returns something held by self (`return self._ws`) */
#define FN_GENERATOR      0x20ull /* contains yield: calling it makes a generator, runs nothing */
#define FN_OWN_TASK       0x40ull /* the module starts it as a task: its outermost frame is the task (a
                                   cancellation caught there is the task's own shutdown) */
#define FN_UNCANCELLED    0x80ull /* runs only as a task of the module that nothing can cancel (held where it is
                                   only tested, shielded or waited for, or by nothing: a dropped start, a
                                   server's connection or request handler, catalog unheld-server) */
#define FN_CANCEL_RELEASES_SELF 0x100ull /* a handler of it that catches cancellation releases self or what
                                         self holds (`except CancelledError: await self.kill(); raise`) */
#define FN_STUB           0x200ull /* a method whose body is only `...`, a docstring or `raise NotImplementedError`:
                                   it stands for its overrides (may suspend, is no noreturn helper); not
                                   an abstract method for the families (an inherited stub is a backend's) */
#define FN_CM_QUIET_EXIT  0x400ull /* an @asynccontextmanager whose code after its yield cannot suspend (nothing
                                   awaited after it; the scopes around it exit without suspending): leaving
                                   `async with f():` is no checkpoint */
#define FN_JOINS_PARAM    0x800ull /* an __init__ that hands self to one of its parameters (`conn.add_channel(self)`,
                                   `registry._items[k] = self`): the new object belongs to what it is made with */
#define FN_MAIN_TASK      0x1000ull /* runs only as the main task of a runner that cancels, when it ends, every task
                                   still running (`asyncio.run(main())`): the tasks it makes are the runner's */
#define FN_CM_QUIET_ENTER 0x2000ull /* an @asynccontextmanager whose code before its first yield cannot suspend:
                                   entering `async with f():` is no checkpoint */
#define FN_RETURNS_CALL   0x4000ull /* every value it returns is a call's result handed back directly (`return
                                    self._find(key)`, or None): what that call lends, it lends */
#define FN_AWAITED_HERE   0x10000ull /* its module calls it as a plain coroutine somewhere (`await f()`, `await
                                      self.f()`): where another module starts it as a task, that is not its only
                                      way to run */
#define FN_SPAWNED_ELSEWHERE 0x20000ull /* another module starts it as a task (ir_spawn) and its own module never
                                         awaits it: its outermost frame is that task, as for FN_OWN_TASK; set by
                                         the scan (link.c), a high bit like FN_DELEGATES */
#define FN_STAGES_CANCEL  0x40000ull /* it makes a stand-in raise cancellation itself (`mock.get.side_effect =
                                       [event, CancelledError]`, `AsyncMock(side_effect=CancelledError)`): what
                                       its handlers catch is that staged one (a test driving a loop to its end) */
#define FN_SCOPE_DRIVEN   0x80000ull /* the module hands every call of it to a runner that drives it inside a
                                       cancel scope of its own (catalog scope-runner: a streaming response):
                                       the cancellation it meets is level-triggered, re-delivered at the next
                                       await until it leaves the scope */
#define FN_RETURNS_LITERAL 0x200000ull /* every return hands back a literal built in place (RETURN_LITERAL) */
#define FN_SPAWNS_ARG0    0x100000ull /* a module function that starts its first parameter as a task
                                        (`def supervised_task(coro, *, name): return create_task(coro)`):
                                        a call of it in another module is a spawn (SPAWN_VIA) */
#define FN_QUIET_HOLD     0x400000ull /* a method that suspends nowhere after it first stores into self or calls a
                                        method of self (`self._gw = await open_port(...)` and no await after):
                                        a fresh object cancelled in it holds nothing it stored (what leaks inside
                                        the callees it awaits is theirs) */
#define FN_SELF_CALLS     0x800000ull /* a method that calls a method of self or of something self holds */
#define FN_QUIET_VIA      0x1000000ull /* not FN_QUIET_HOLD only through methods of self it awaits right there
                                        (`await self._bind(...)`, nothing suspending after their return): quiet
                                        when each of those is (the walk asks) */
#define FN_DONE_FUTURE    0x2000000ull /* a plain function that makes a future, completes it itself
                                       (set_result / set_exception) and returns it, handing it nowhere
                                       else: awaiting what it returns does not suspend */
#define FN_RUNNER_MAIN    0x10000000ull /* handed by name to a main runner of its module (`asyncio.run(main())`),
                                        and named nowhere else there, or run as a root context
                                        (`@aiotools.server_context`): public or not (FN_MAIN_TASK only a
                                        private or local one); its module is a program's entry, and the scan
                                        decides (FN_MAIN_ONLY) */
#define FN_MAIN_ONLY      0x20000000ull /* set by the scan: runs only in the main task of a runner, as that main
                                        coroutine (FN_RUNNER_MAIN) called nowhere else in the tree, or awaited
                                        in place, outside any timeout, only by functions of its module that
                                        do, at every call of it in the tree (private or local ones, or any
                                        of an entry module): the runner cancels what it leaves running, as
                                        for FN_MAIN_TASK */
#define FN_UNCANCELLED_VIA 0x40000000ull /* set by the scan: private or local (or of an entry module), awaited
                                        in place, outside any timeout, at every call of it in the tree, by
                                        coroutines of its module that run only in a task nothing can cancel
                                        (FN_UNCANCELLED): its awaits meet no cancellation either */
#define FN_PLAIN_INIT     0x80000000ull /* an __init__ that only stores its parameters or literals on self (docstring,
                                        `self.x = x`, `self.n = 0`): calling the class does not raise */
#define FN_AWAITED_ANY    0x8000000ull /* a method whose module awaits a method of that name on some receiver
                                        (`await app._process_messages()`): not only ever run as a task */
#define FN_HOLDS_FULL     0x4000000ull /* FN_HOLDS_RESOURCE by something more than an empty exit stack
                                        (`self._stack = AsyncExitStack()` holds nothing until entered):
                                        what a constructor must do to leave the object holding something */
#define FN_EVENT_HANDLER  (1ull << 32) /* a chat framework's event or command handler by its decorator (catalog
                                          event-handler: `@commands.command()`, `@commands.Cog.listener()`,
                                          `@bot.event`, a subcommand of such a group): the framework runs it in
                                          a task of its own it keeps no handle to and never cancels; the scan
                                          decides (FN_UNCANCELLED_VIA) */
#define FN_CANCELS_ANY    (1ull << 33) /* may cancel any task of the program, a framework's too: it looks at
                                          `asyncio.all_tasks()` and cancels, or it is a chat command that
                                          cancels in a module that looks at them (an operator's command that
                                          cancels a task by its name or address) */
#define FN_REFERENCED     (1ull << 34) /* its module names a function of its name as a value, not in a call
                                          (`Loop(function=self.check_servers)`, `callbacks.append(on_done)`):
                                          it may run where that value is called, not only where it is awaited */
#define FN_UNHELD_VIA     (1ull << 35) /* set by the scan: not FN_UNCANCELLED_VIA, but so once a task start that
                                          nothing can cancel, in any module, counts as a caller that meets no
                                          cancellation (CALL_UNHELD_START: `asyncio.create_task(self.client.
                                          start())` dropped, or held where it is only tested): its awaits meet
                                          no cancellation but the loop's teardown at the process's end, which
                                          leaks nothing a process exit does not release. For the resource
                                          rules only: a handler that swallows that teardown's cancel keeps the
                                          task running, which CAN401 still reports */
#define FN_HANDS_OUT_TASK (1ull << 36) /* hands its own task to someone (`t = asyncio.current_task()`,
                                          `loop.call_later(n, t.cancel)`, `self._task = current_task()`):
                                          whoever holds it may cancel it, the function itself included */
#define FN_DELEGATES      0x8000ull /* only awaits the same-named method of something held by self (a proxy's
                                     method); set by the scan (coverage/family.h), not by frontends; a high
                                     bit, clear of the frontends' flags */

typedef struct ir_func {
    const char *name;
    const char *qualname;    /* Class.method, outer.<locals>.inner */
    const char *class_name;  /* enclosing class or NULL */
    ir_site site;            /* the def */
    int is_async;
    int is_method;           /* first parameter is self/cls */
    ir_var *vars;
    int nvars, cap_vars;
    int nparams;             /* vars[0..nparams-1] are the parameters, in order */
    ir_block body;
    int truncated;           /* nesting deeper than IR_MAX_DEPTH: the rest was not lowered */
    uint64_t param_mentions; /* bit p: the body names parameter p somewhere (all bits: not known) */
    ir_fflags fflags;        /* FN_* */
    const char *ret_type;    /* the one class the return annotation names (dotted, resolved), or NULL */
    int id;                  /* scratch: the scan driver's index of this function */
} ir_func;

/* ir_class.flags */
#define CLASS_DATA        0x01u /* a data model: dataclass, pydantic model, TypedDict, NamedTuple, enum */
#define CLASS_PROTOCOL    0x02u /* a typing.Protocol */
#define CLASS_ABSTRACT    0x04u /* an abc.ABC (base or metaclass) */
#define CLASS_ENDPOINT    0x08u /* a web framework's handler class (catalog endpoint-base): the framework
                                   calls its verb methods (catalog endpoint-method) for each request */
#define CLASS_SERVICE     0x10u /* a service class of a framework (catalog service-base) that runs the
                                   service-method methods of its subclasses in tasks it never cancels
                                   before the process ends (launart's `Service.launch`) */
#define CLASS_TEST        0x20u /* a test case class of a test framework (catalog test-base) whose runner
                                   runs the test-method methods of its subclasses to their end */
#define CLASS_EVENT       0x40u /* a chat framework's interactive component (catalog event-base: a view, a
                                   modal, a button) whose event-method methods the framework runs for each
                                   interaction in a task it keeps no handle to */

/* A class defined in the module: what the scan's class table is built from. */
typedef struct ir_class {
    const char *name;
    const char *qualname;    /* Outer.Inner, f.<locals>.C */
    const char **bases;      /* as written, resolved through imports ("abc.ABC", "BaseSession") */
    int nbases;
    int nholds;
    const char **holds;      /* the constructors of attributes its methods release (`self._ch.close()` where
                                `self._ch = Chan()`): it owns a resource if one of those does */
    int cap_holds;
    ir_site site;
    unsigned flags;          /* CLASS_* */
} ir_class;

/* A task the module starts on a function called by name: `create_task(f(x))`,
 * `ensure_future(self._loop())`, `tg.start_soon(f, a)`. The scan resolves it
 * like a call (FN_SPAWNED_ELSEWHERE on a target in another module). */
typedef struct ir_spawn {
    int func;                /* index in funcs of the function that starts it */
    const char *text;        /* the callee as a call names it: dotted, or the method name (flags) */
    unsigned flags;          /* CALL_ON_SELF for `self.m`; SPAWN_ENTRY, SPAWN_TAIL, SPAWN_VIA, SPAWN_SCOPE */
    const char *via;         /* SPAWN_VIA: the function the call hands the coroutine to, as it names it */
} ir_spawn;

/* ir_spawn.flags: no spawn but a registration with a web framework (catalog
 * route-entry: `web.post("/x", api.upload)`), which runs the function in a
 * task of its own for each request: its outermost frame, in its own module
 * too. A bit clear of the CALL_* flags the rest of the field holds. */
#define SPAWN_ENTRY       0x100000u
/* ir_spawn.flags: no spawn but an await, outside any loop, in a task of the
 * module's own (FN_OWN_TASK): a coroutine of another module that its own
 * module never awaits runs there as that task's last frames. */
#define SPAWN_TAIL        0x200000u
/* ir_spawn.flags: a call of a function of another module with a coroutine
 * as its first argument (`supervised_task(self._clean(key), name=...)`):
 * a spawn when that function (`via`) starts its first parameter as a task
 * (FN_SPAWNS_ARG0), which only the scan can tell. */
#define SPAWN_VIA         0x400000u
/* ir_spawn.flags: no spawn but an async generator of another module handed to
 * a scope runner (catalog scope-runner: `StreamingResponse(gen(...))`), which
 * iterates it in a task of its own group and cancels that scope when the
 * client goes away: the generator's outermost frame is that task. */
#define SPAWN_SCOPE       0x800000u
/* ir_spawn.flags: no spawn but a method name (text) the module awaits in
 * place on an object other than self (`await venue.fetch_trades(c)`): an
 * implementation of a stub of that name, which another module may start
 * as a task, also runs in its awaiter's task (func: 0, any function). */
#define SPAWN_AWAITED     0x1000000u
/* ir_spawn.flags: a coroutine of self handed to a child-task runner
 * (catalog child-tasks: `gather(self.fetch_orders(c), ...)`); resolved to
 * a base's stub, its implementations run as gather's tasks unless some
 * module also awaits a method of that name in place (SPAWN_AWAITED). */
#define SPAWN_GATHER      0x2000000u
/* ir_spawn.flags: no spawn but a coroutine function of another module handed
 * to a main runner (catalog main-runner: `asyncio.run(handle_command(args))`
 * of an imported `handle_command`): the program's main, run in the runner's
 * main task, which the scan reads as the module's own (FN_RUNNER_MAIN). */
#define SPAWN_MAIN        0x4000000u
/* ir_spawn.flags: no spawn but a call the scan resolved, kept with the file
 * for a later scan that reuses it without its bodies (scan_mark_main_only):
 * a call of function `func` of a coroutine of the tree, text "PATH:ORDINAL"
 * (PATH empty for this file), in place outside any timeout with
 * SPAWN_IN_PLACE; or (SPAWN_SELF_CALL) a call of a method of self, text
 * "CLASS.NAME" of the caller's class. Written by the scan, not the
 * frontend. */
#define SPAWN_EDGE        0x8000000u
#define SPAWN_IN_PLACE    0x10000000u
#define SPAWN_SELF_CALL   0x20000000u
/* ir_spawn.flags: no spawn but a name the module binds at its top level to
 * a function of another module, text the name, via the dotted name through
 * imports: `create_task = context_lib.create_task`, `from .ctx import
 * create_task`. A call `mod.create_task(...)` of another module reaches that
 * function (scan_resolve). func is 0 and means nothing. */
#define SPAWN_EXPORT      0x40000000u
/* ir_spawn.flags: no spawn but a decorator of coroutine function `func`,
 * via the decorator's dotted name through imports (`@new_task`): one that
 * starts its first parameter as a task (FN_SPAWNS_ARG0: `def new_task(f):
 * async def wrapper(*a): return create_task(f(*a)); return wrapper`)
 * makes every call of func start a task of its own. text is func's name. */
#define SPAWN_DECORATION  0x80000000u
/* ir_spawn.flags of a SPAWN_EDGE only (a bit of the CALL_* part, which an
 * edge does not use): the call's result is kept (no statement of its own,
 * CALL_DROPPED) */
#define SPAWN_KEPT        0x01u
/* ir_spawn.flags: no spawn but a plain module function `func` (text its
 * name) whose coroutine wrapper starts a call of its first parameter as a
 * task and awaits nothing: a decorator that starts what it decorates
 * (SPAWN_DECORATION). A bit of the CALL_* part, which this record does not
 * use. */
#define SPAWN_STARTER     0x02u
/* ir_spawn.flags of a SPAWN_EDGE only: the call is the coroutine of a plain
 * task start nothing can cancel (CALL_UNHELD_START) */
#define SPAWN_UNHELD      0x04u

typedef struct ir_suppress {
    int line;
    const char *rules;       /* "CAN101,CAN102" or "*" for all */
} ir_suppress;

typedef struct ir_module {
    ca_arena arena;
    const char *path;
    const char *src;         /* module source (owned by the caller of the frontend) */
    size_t len;
    ir_func **funcs;
    int nfuncs, cap_funcs;
    ir_class **classes;
    int nclasses, cap_classes;
    ir_suppress *supp;
    int nsupp, cap_supp;
    ir_spawn *spawns;
    int nspawns, cap_spawns;
    int parse_errors;        /* ERROR/MISSING nodes */
    int first_error_line;
    char *diagnostic;        /* heap; NULL or a per-file message (e.g. nesting too deep) */
    const char *language;    /* NULL: Python; "c": the C frontend (read by the C rules) */
    int cancels_threads;     /* C: the file calls pthread_cancel (catalog c-thread-cancel) */
} ir_module;

/* A call node that lives on the stack, for asking a resolver about a call
 * the IR records some other way (an awaited call, a spawn). */
static inline ir_node ir_call_stub(const char *text, unsigned flags, ir_site site)
{
    ir_node n;
    memset(&n, 0, sizeof(n));
    n.kind = IR_CALL;
    n.text = text;
    n.flags = flags;
    n.site = site;
    return n;
}

/* Construction helpers for frontends. */
ir_node *ir_node_new(ir_module *m, ir_kind kind, ir_site site);
void ir_block_push(ir_module *m, ir_block *b, ir_node *n);
int ir_var_add(ir_module *m, ir_func *f, const char *name, unsigned flags);
int ir_var_find(const ir_func *f, const char *name);
/* Whether no other module can name f: a function defined in another one,
 * or one whose name is private (`_name`; not a `__dunder__`, which the
 * runtime calls). */
int ir_func_private(const ir_func *f);
ir_func *ir_func_new(ir_module *m);
ir_class *ir_class_new(ir_module *m);
/* Record a spawn (once each). */
void ir_spawn_add(ir_module *m, int func, const char *text, unsigned flags);
void ir_spawn_add_via(ir_module *m, int func, const char *text, unsigned flags, const char *via);
/* The same, without looking for an equal record first (the caller knows). */
void ir_spawn_append(ir_module *m, int func, const char *text, unsigned flags, const char *via);
/* Record that c's methods release an attribute made by `ctor` (once each). */
void ir_class_hold(ir_module *m, ir_class *c, const char *ctor);
void ir_module_free(ir_module *m);

/* Visiting the IR. Every walk over a function's blocks takes a node's child
 * blocks in one order: the loop condition (c), the body (a), the branches of
 * an if, the handler bodies of a try, then b (a loop's or try's else) — the
 * order in which a path meets them, but for a try's finally (c), which comes
 * first. fn is called for each node before its children (pre-order); a
 * non-zero return stops the walk and is returned. Depth is bounded by
 * IR_MAX_DEPTH, so the recursion is too. */
typedef int (*ir_node_fn)(void *ctx, const ir_node *n);
int ir_visit(const ir_block *b, ir_node_fn fn, void *ctx);
/* The same over n's child blocks only (not n itself). */
int ir_visit_children(const ir_node *n, ir_node_fn fn, void *ctx);

/* A module as one buffer (serial.c), so that lowering can run in another
 * process: ir_encode appends m to out; ir_decode rebuilds a module from
 * buf[0..len) into *m (its own arena; m->src stays NULL). Returns 0, or -1
 * for a buffer that is truncated or damaged (*m is then empty). */
void ir_encode(const ir_module *m, ca_sb *out);
int ir_decode(const char *buf, size_t len, ir_module *m);

/* A readable dump of a function's IR (for unit tests and --debug-ir). */
void ir_dump(const ir_module *m, const ir_func *f, ca_sb *out);

/* 1 when the line has a suppression for rule. */
int ir_suppressed(const ir_module *m, int line, const char *rule);

#endif
