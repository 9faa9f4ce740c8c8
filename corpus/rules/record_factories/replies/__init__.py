from ._model import Reply, ReplyRecord

__all__ = ["Reply", "ReplyRecord"]
