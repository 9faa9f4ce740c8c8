"""A name bound in the function is the value it is bound to, not a function
of the tree that happens to share it."""
