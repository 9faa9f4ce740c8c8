"""Records made by factory functions of a module with no async code.

`reply = ReplyRecord(name=...)` calls a module-level function annotated to
return a data model (`def ReplyRecord(...) -> Reply`), defined in a module
the prefilter skips and re-exported by its package. The scan lowers that
module to learn what the call makes: a record assembled from values the
function made nothing of, which a cleanup that reports a failed reply
(`_close_failed_reply(reply, exc)`) does not make a resource. A value
annotated as plain data (`user_id: str`) that a cleanup reports is no
resource the record could carry either.
"""
