"""A name bound in the function is the value it is bound to, not a function
of the tree that happens to share it; and `mod.f(...)` is a function of the
tree only if it lives under a module or package named `mod` (`asyncio.wait`
is not the tree's `wait`)."""
