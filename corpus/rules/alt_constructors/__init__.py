"""Alternative constructors of classes defined in another module.

`Ledger.create(...)` names a maker, but what it makes is an instance of a
class of the tree, and that class says whether it holds anything. The
scan follows the call to the class however the constructor is declared: a
@staticmethod annotated with the class, a @classmethod returning `Self`,
or one typed `cls: type[T]` returning `T`. A class that owns nothing makes
no resource; one whose methods release what it holds (a remote sandbox
deleted by its own id) does.
"""
