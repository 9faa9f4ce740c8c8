"""The package's one way to build a service client."""

from typing import Any, Optional


def create_aws_client(service: str, region: Optional[str] = None) -> Any:
    import boto3

    return boto3.client(service, region_name=region)
