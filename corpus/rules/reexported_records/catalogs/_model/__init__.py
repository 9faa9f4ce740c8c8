from ._shard import ShardEntry
from ._tenant import *  # noqa: F401,F403
