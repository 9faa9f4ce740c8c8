from pydantic import BaseModel


class Reply(BaseModel):
    name: str
    user: str
    parts: list


def ReplyRecord(name: str, user: str) -> Reply:
    return Reply(name=name, user=user, parts=[])
