from pydantic import BaseModel


class _CatalogBase(BaseModel):
    version: int = 1
