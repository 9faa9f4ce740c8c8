"""Functions of the tree run in a worker thread.

`makers.create_manifest` (in a module with no coroutine, which the async
prefilter would skip) builds and returns a dict in place: what
`await asyncio.to_thread(makers.create_manifest, ...)` hands back is data,
whatever the name `create_*` sounds like, so a cancel of the await loses
nothing to release. `makers.create_spool` returns the file it opens: the
same await of it leaves that file open when the task is cancelled.

`create_report_client`, imported by name from the package's own module,
is read the same way: `create_*` alone does not make its result a
resource; a caller that closes it on some path says it is one.
"""
