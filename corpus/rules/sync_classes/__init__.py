"""Classes defined in modules without coroutines, constructed in ones with
them: the scan lowers the defining modules too (the prefilter skips them),
so what the class owns decides whether its objects are resources."""
