import hashlib
import os
from typing import IO, Any

import boto3


def create_manifest(root: str, names: list) -> dict:
    digest = hashlib.sha256()
    for name in names:
        with open(os.path.join(root, name), "rb") as f:
            digest.update(f.read())
    return {"root": root, "files": list(names), "sha256": digest.hexdigest()}


def create_spool(path: str) -> IO[Any]:
    return open(path, "wb")


def create_report_client(region: str) -> Any:
    return boto3.client("ce", region_name=region)
