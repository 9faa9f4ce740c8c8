"""Coroutines a decorator of the tree starts as a task of their own (CAN401).

`tasks.background` wraps a coroutine function so that each call starts it
as a task on the bot's loop and hands the task back: `await
notify(chat)` returns at once, and the coroutine runs as the outermost
frame of a task of its own, which the caller's cancellation never
reaches. Where no call in the tree keeps that task (each call is a
statement, or the function is handed to the chat library by name), nothing
can cancel it, nor what it awaits in place. Where a caller keeps it
(`self.jobs[name] = await poll(...)`), the holder may cancel it, and a
helper awaited there that drops the cancellation keeps the task running.
`tasks.awaited` starts the task and waits for it: the caller's cancellation
reaches it, as for a coroutine awaited in place.
"""
