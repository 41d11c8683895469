"""Asyncio HTTP for AsyncClient through httpx, the optional extra ``limelight[async]`` (Debian:
python3-httpx); imported only when httpx is (docs/sdk.md, "Async Python"). The rules are those of
the sync Transport, called from _http.py rather than restated: the same retries with one
Idempotency-Key, Retry-After, deadlines, credentials only to the base URL's origin (httpx's own
redirects keep them on an http-to-https move; here every redirect is followed by _http's rule).
A cancelled task cancels the request in flight: awaiting httpx is what the task was doing."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, AsyncGenerator, AsyncIterator, Dict, Mapping, Optional

import httpx

from ._http import (
    CREDENTIAL_HEADERS,
    MAX_REDIRECTS,
    REDIRECT_STATUSES,
    Attempts,
    DeadlineExceeded,
    Response,
    Transport,
    answer,
    answer_stopped,
    deadline_passed,
    decode,
    redirect_rule,
    request_body,
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
        attempts = Attempts(method, url, self.retry, timeout or self.timeout, deadline)
        while True:
            try:
                response = await self._follow(method, url, body, request_headers, attempts)
            except httpx.TransportError as error:  # no connection, a reset, a timeout
                pause = attempts.pause_after_failure(error, repr(error))
            else:
                if response.status_code < 300:
                    break
                try:
                    pause = attempts.pause_after_status(response.status_code, response.headers.get("Retry-After"))
                    if pause is None:
                        payload = await self._read(response, method, url, deadline)
                        raise api_error(response.status_code, decode(payload, response.headers.get("Content-Type")))
                finally:
                    await response.aclose()
            await asyncio.sleep(pause)
        try:
            yield response
        finally:
            await response.aclose()

    async def _follow(
        self, method: str, url: str, body: Optional[bytes], headers: Dict[str, str], attempts: Attempts
    ) -> httpx.Response:
        """One attempt, its redirects followed by ``redirect_rule`` (the sync handler's rule)."""
        client = self._http()
        hops = 0
        while True:
            wait = attempts.timeout()
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

    async def _read(self, response: httpx.Response, method: str, url: str, deadline: Optional[float]) -> bytes:
        try:
            return await response.aread()
        except httpx.TransportError as error:
            raise answer_stopped(method, url, deadline, repr(error)) from error

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
        body, extra = request_body(json_body, body, headers)
        async with self.open(method, path, body=body, headers=extra, timeout=timeout, deadline=deadline) as response:
            payload = await self._read(response, method, self.rules.url(path), deadline)
            return answer(response.status_code, response.headers, payload)


async def read_lines(
    response: httpx.Response, deadline: Optional[float], read_timeout: float
) -> AsyncGenerator[str, None]:
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
