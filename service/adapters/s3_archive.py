"""The archive in an S3-compatible bucket (AWS S3, MinIO, Ceph, ...): one object per
game, ``<prefix><id>.jsonl.gz``, and the archived games' listing under
``<prefix>listing/`` (``archive_listing.py``). A PUT replaces an object whole, so a reader sees the
old archive or the new one, never part of one."""

from __future__ import annotations

from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError


class S3Archive:
    def __init__(
        self,
        bucket: str,
        *,
        prefix: str = "",
        endpoint_url: str | None = None,
        region: str | None = None,
        access_key: str | None = None,
        secret_key: str | None = None,
        client: Any = None,
    ) -> None:
        """Credentials left unset are boto3's own (its environment variables, its files,
        an instance role); ``endpoint_url`` names a server other than AWS. A store that
        hangs holds a read of an archived game for at most two tries of 10 s: two attempts
        in all (botocore's ``total_max_attempts``; its ``max_attempts`` counts the retries
        only, and made three)."""
        self._bucket = bucket
        self._prefix = prefix
        self._s3 = client or boto3.client(
            "s3",
            endpoint_url=endpoint_url or None,
            region_name=region or None,
            aws_access_key_id=access_key or None,
            aws_secret_access_key=secret_key or None,
            config=Config(retries={"total_max_attempts": 2, "mode": "standard"}, connect_timeout=2, read_timeout=10),
        )

    def _key(self, game_id: str) -> str:
        return f"{self._prefix}{game_id}.jsonl.gz"

    def put(self, game_id: str, data: bytes) -> None:
        self._put(self._key(game_id), data)

    def get(self, game_id: str) -> bytes | None:
        return self._get(self._key(game_id))

    def put_listing(self, name: str, data: bytes) -> None:
        self._put(f"{self._prefix}listing/{name}", data)

    def get_listing(self, name: str) -> bytes | None:
        return self._get(f"{self._prefix}listing/{name}")

    def _put(self, key: str, data: bytes) -> None:
        self._s3.put_object(Bucket=self._bucket, Key=key, Body=data, ContentType="application/octet-stream")

    def _get(self, key: str) -> bytes | None:
        try:
            answer = self._s3.get_object(Bucket=self._bucket, Key=key)
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("NoSuchKey", "404"):
                return None
            raise
        data: bytes = answer["Body"].read()
        return data
