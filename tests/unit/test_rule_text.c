/*
 * test_rule_text.c — unit tests for the text rules put in messages
 * (analyzer/rules/rules.c): rule_callee_text() keeps an awaited call's
 * callee and elides its arguments, whatever brackets and strings they
 * hold; rule_checkpoint_desc() uses it for awaits and `async with`.
 */
#include "ca_test.h"
#include "ir/ir.h"
#include "rules/rules.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

static void expect(const char *in, const char *want)
{
    char *got = rule_callee_text(in);
    CHECK_STR_EQ(got, want);
    free(got);
}

static void test_callee(void)
{
    expect("await asyncio.wait_for(http_session.ws_connect(ws_url), timeout=exec_timeout,)",
           "await asyncio.wait_for(\xe2\x80\xa6)");
    expect("await session.get(url)", "await session.get(\xe2\x80\xa6)");
    expect("await self.close()", "await self.close()");             /* nothing to elide */
    expect("await self.close(  )", "await self.close()");
    expect("await f(\")\", g(')'))", "await f(\xe2\x80\xa6)");        /* parentheses in strings */
    expect("await f(\"\\\")\")", "await f(\xe2\x80\xa6)");            /* an escaped quote */
    expect("await self._client().create(spec)", "await self._client().create(\xe2\x80\xa6)");
    expect("await waits[\"a(b\"]()", "await waits[\"a(b\"]()");       /* a subscript callee is kept */
    expect("self._lock", "self._lock");                                 /* no call */
    expect("await fut", "await fut");
    expect("await f(x)[0]", "await f(x)[0]");                           /* not a trailing call */
    expect("await (a)", "await (a)");                                   /* grouping, not a call */
    expect("await Box[int](a)", "await Box[int](\xe2\x80\xa6)");
    expect("await f(x", "await f(x");                                   /* unbalanced: as it is */
    expect("await asyncio.create_subprocess_exec(*cmd, stdin=fd, cwd=d,...",  /* cut by the frontend */
           "await asyncio.create_subprocess_exec(\xe2\x80\xa6)");
    expect("await g(\n    a,\n    b,\n)\n", "await g(\xe2\x80\xa6)");
    expect(NULL, "");
}

static void test_checkpoint_desc(void)
{
    ir_node await_node, with_node, loop_node;
    memset(&await_node, 0, sizeof await_node);
    memset(&with_node, 0, sizeof with_node);
    memset(&loop_node, 0, sizeof loop_node);
    await_node.kind = IR_CHECKPOINT;
    await_node.text = "await asyncio.sleep(100 % 7)";
    with_node.kind = IR_WITH;
    with_node.text = "aiohttp.ClientSession(timeout=t)";
    loop_node.kind = IR_LOOP;
    char *d = rule_checkpoint_desc(&await_node);
    CHECK_STR_EQ(d, "`await asyncio.sleep(\xe2\x80\xa6)`");
    free(d);
    d = rule_checkpoint_desc(&with_node);
    CHECK_STR_EQ(d, "`async with aiohttp.ClientSession(\xe2\x80\xa6)`");
    free(d);
    d = rule_checkpoint_desc(&loop_node);
    CHECK_STR_EQ(d, "this `async for` step");
    free(d);
    d = rule_checkpoint_desc(NULL);
    CHECK_STR_EQ(d, "this checkpoint");
    free(d);
}

int main(void)
{
    test_callee();
    test_checkpoint_desc();
    CA_TEST_MAIN();
}
