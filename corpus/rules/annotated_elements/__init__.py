"""Receivers read through the annotated containers they come from.

`{ensure_future(conn.receive()): conn for conn in self.connections}` of a
property annotated `-> tuple[Link, ...]` (or an attribute annotated
`list[Link]`) starts Link's receive as a task of its own, and so each
implementation's: their outermost frame is that task's. `hub.py` starts
them so; `relay.py` awaits another class's receive in place, in its
caller's task, whose cancellation that receive must not turn into None.
"""
