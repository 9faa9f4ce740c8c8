"""The data-model base of the job records: pydantic, no coroutine here, so
the prefilter alone would skip this file."""

from pydantic import BaseModel


class ModelBase(BaseModel):
    """A record: fields, validation, nothing to release."""

    model_config = {"frozen": True}


class IdModelBase(ModelBase):
    id: str = ""
