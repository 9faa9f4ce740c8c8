"""An object whose constructor hands itself to what it is made with belongs
to that owner: `Channel(conn)` whose `__init__` calls
`conn.add_channel(self)` is the connection's, and so is what the channel
makes; a method that returns them hands out what the connection keeps."""
