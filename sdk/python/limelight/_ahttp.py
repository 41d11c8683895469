"""Asyncio HTTP for AsyncClient through httpx, the optional extra ``limelight[async]`` (Debian:
python3-httpx); imported only when httpx is (docs/sdk.md, "Async Python"). The rules are those of
the sync Transport, called from _http.py rather than restated: the same retries with one
Idempotency-Key, Retry-After, deadlines, credentials only to the base URL's origin (httpx's own
redirects keep them on an http-to-https move; here every redirect is followed by _http's rule).
A cancelled task cancels the request in flight: awaiting httpx is what the task was doing."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any, AsyncIterator, Dict, Mapping, Optional

import httpx

from ._http import (
    CREDENTIAL_HEADERS,
    MAX_REDIRECTS,
    REDIRECT_STATUSES,
    DeadlineExceeded,
    Response,
    Transport,
    attempt_timeout,
    check_pause,
    deadline_passed,
    decode,
    redirect_rule,
    retries_failure,
    retries_status,
    retry_after_seconds,
    seconds_left,
)
from ._waiting import within
from .errors import ConnectionFailedError, api_error

_DROPPED_ON_REDIRECT = {name.lower() for name in CREDENTIAL_HEADERS}
_BODY_HEADERS = {"content-type", "content-length"}


class AsyncTransport:
    """The sync ``Transport``'s base URL, credential, timeouts and retry policy, over httpx. One
    httpx client per event loop (a client's connections belong to the loop that made them), made
    when first needed, so the transport also works across several ``asyncio.run`` calls."""

    def __init__(self, rules: Transport) -> None:
        self.rules = rules
        self._client: Optional[httpx.AsyncClient] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None

    @property
    def retry(self):
        return self.rules.retry

    @property
    def timeout(self) -> float:
        return self.rules.timeout

    def _http(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        if self._client is None or self._client.is_closed or self._loop is not loop:
            # Redirects are followed here by _http's rule, not by httpx's.
            self._client = httpx.AsyncClient(follow_redirects=False)
            self._loop = loop
        return self._client

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None and not client.is_closed and self._loop is asyncio.get_running_loop():
            await client.aclose()

    @contextlib.asynccontextmanager
    async def open(
        self,
        method: str,
        path: str,
        *,
        body: Optional[bytes] = None,
        headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[float] = None,
        deadline: Optional[float] = None,
    ) -> AsyncIterator[httpx.Response]:
        """The answer of one request, its body not read yet; as ``Transport.open``."""
        url = self.rules.url(path)
        request_headers = self.rules.headers(headers, url)
        attempt = 0
        while True:
            try:
                response = await self._follow(method, url, body, request_headers, timeout, deadline)
            except httpx.TransportError as error:  # no connection, a reset, a timeout
                if deadline_passed(deadline):
                    raise DeadlineExceeded(f"{method} {url}: no answer before the deadline") from error
                if retries_failure(attempt, self.retry):
                    await self._pause(self.retry.delay(attempt, None), deadline)
                    attempt += 1
                    continue
                raise ConnectionFailedError(f"{method} {url} failed: {error!r}") from error
            if response.status_code < 300:
                break
            try:
                retry_after = retry_after_seconds(response.headers.get("Retry-After"))
                if retries_status(response.status_code, attempt, self.retry):
                    await self._pause(self.retry.delay(attempt, retry_after), deadline)
                    attempt += 1
                    continue
                payload = await self._read(response, method, url, deadline)
                raise api_error(response.status_code, decode(payload, response.headers.get("Content-Type")))
            finally:
                await response.aclose()
        try:
            yield response
        finally:
            await response.aclose()

    async def _follow(
        self,
        method: str,
        url: str,
        body: Optional[bytes],
        headers: Dict[str, str],
        timeout: Optional[float],
        deadline: Optional[float],
    ) -> httpx.Response:
        """One attempt, its redirects followed by ``redirect_rule`` (the sync handler's rule)."""
        client = self._http()
        hops = 0
        while True:
            wait = attempt_timeout(timeout or self.timeout, deadline)
            request = client.build_request(method, url, content=body, headers=headers, timeout=httpx.Timeout(wait))
            response = await client.send(request, stream=True)
            location = response.headers.get("Location")
            if response.status_code not in REDIRECT_STATUSES or not location or hops == MAX_REDIRECTS:
                return response  # a redirect here is the answer: an error status
            hops += 1
            rule = redirect_rule(method, response.status_code, url, str(httpx.URL(url).join(location)))
            if rule.refused:
                return response
            await response.aclose()
            if rule.drop_body:
                body = None
                headers = {k: v for k, v in headers.items() if k.lower() not in _BODY_HEADERS}
            if not rule.keep_credentials:
                headers = {k: v for k, v in headers.items() if k.lower() not in _DROPPED_ON_REDIRECT}
            method, url = rule.method, rule.url

    async def _pause(self, seconds: float, deadline: Optional[float]) -> None:
        check_pause(seconds, deadline)
        await asyncio.sleep(seconds)

    async def _read(self, response: httpx.Response, method: str, url: str, deadline: Optional[float]) -> bytes:
        try:
            return await response.aread()
        except httpx.TransportError as error:
            if deadline_passed(deadline):
                raise DeadlineExceeded(f"{method} {url}: no answer before the deadline") from error
            raise ConnectionFailedError(f"{method} {url}: the answer stopped: {error!r}") from error

    async def request(
        self,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        body: Optional[bytes] = None,
        headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[float] = None,
        deadline: Optional[float] = None,
    ) -> Response:
        extra = dict(headers or {})
        if json_body is not None:
            body = json.dumps(json_body).encode("utf-8")
            extra.setdefault("Content-Type", "application/json")
        async with self.open(method, path, body=body, headers=extra, timeout=timeout, deadline=deadline) as response:
            payload = await self._read(response, method, self.rules.url(path), deadline)
            return Response(
                response.status_code,
                dict(response.headers.items()),
                decode(payload, response.headers.get("Content-Type")),
            )


async def read_lines(response: httpx.Response, deadline: Optional[float], read_timeout: float) -> AsyncIterator[str]:
    """An answer's lines, as ``_sse.read_lines``: no read waits past ``deadline``
    (DeadlineExceeded) or longer than ``read_timeout`` (ConnectionFailedError: a dropped stream)."""
    lines = response.aiter_lines()
    while True:
        left = seconds_left(deadline)
        if left is not None and left <= 0:
            raise DeadlineExceeded("the deadline passed while following the stream")
        try:
            line = await within(lines.__anext__(), read_timeout if left is None else min(read_timeout, left))
        except StopAsyncIteration:
            return
        except asyncio.TimeoutError as error:
            if deadline_passed(deadline):
                raise DeadlineExceeded("the deadline passed while following the stream") from error
            raise ConnectionFailedError(f"no event for {read_timeout:g} s: the stream counts as dropped") from error
        except httpx.TransportError as error:
            raise ConnectionFailedError(f"the stream stopped: {error!r}") from error
        yield line
