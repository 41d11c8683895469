"""HTTP for the client: urllib only, JSON in and out, retries with jittered exponential backoff on
429/502/503/504 and connection failures, honouring Retry-After. A request is retried exactly as
it was sent, headers included, so a job submission keeps its Idempotency-Key on every attempt
and the server answers the same job instead of creating (and charging) a second one.

The API key goes to the base URL's origin and nowhere else (docs/sdk.md, "Redirects and plain
HTTP"): a redirect to another origin (another host, port or scheme, https to http included) is
followed without it, and a base URL of plain http:// to a host that is not loopback warns once.

The decisions (what is retried and after how long, which headers go to which URL, which redirect
is followed and how, how long an attempt may wait) are the functions below the policy and
``Attempts``, called by this Transport and by AsyncClient's httpx transport (_ahttp.py), which
only send, read and sleep, so both keep the same rules."""

from __future__ import annotations

import contextlib
import email.utils
import ipaddress
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from .errors import ConnectionFailedError, LimelightError, api_error

RETRY_STATUSES = frozenset({429, 502, 503, 504})
#: Longest pause between two attempts, whatever Retry-After says.
MAX_BACKOFF_S = 30.0


class DeadlineExceeded(LimelightError):
    """A request with a ``deadline`` (a ``time.monotonic()`` instant) was still unanswered at it;
    the client turns this into JobTimeoutError with the job's id."""


def seconds_left(deadline: Optional[float]) -> Optional[float]:
    return None if deadline is None else deadline - time.monotonic()


@dataclass
class RetryPolicy:
    max_retries: int = 4
    base_delay_s: float = 0.5
    max_delay_s: float = 8.0

    def delay(self, attempt: int, retry_after: Optional[float]) -> float:
        """Retry-After when the server gave one; else full jitter: random in [0, base * 2^attempt]."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), MAX_BACKOFF_S)
        return random.uniform(0, min(self.max_delay_s, self.base_delay_s * (2**attempt)))


def retry_after_seconds(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Retry-After as seconds: a number of seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def retries_status(status: int, attempt: int, policy: RetryPolicy) -> bool:
    """Whether an answer of ``status`` is tried again (the attempt after ``attempt`` retries)."""
    return status in RETRY_STATUSES and attempt < policy.max_retries


def retries_failure(attempt: int, policy: RetryPolicy) -> bool:
    """Whether a request that got no answer (no connection, a reset, a timeout) is tried again."""
    return attempt < policy.max_retries


def attempt_timeout(base: float, deadline: Optional[float]) -> float:
    """How long one attempt may wait for the connection and for each read: ``base``, cut to the
    deadline; DeadlineExceeded when it has passed."""
    left = seconds_left(deadline)
    if left is not None and left <= 0:
        raise DeadlineExceeded("the deadline passed before the request was sent")
    return base if left is None else max(0.001, min(base, left))


def check_pause(seconds: float, deadline: Optional[float]) -> None:
    """DeadlineExceeded when a pause of ``seconds`` before the next attempt would pass the deadline."""
    left = seconds_left(deadline)
    if left is not None and left <= seconds:
        raise DeadlineExceeded("the deadline passes before the next attempt")


def deadline_passed(deadline: Optional[float]) -> bool:
    left = seconds_left(deadline)
    return left is not None and left <= 0


class Attempts:
    """The attempts of one request, without their I/O: how long each may wait (``timeout``) and,
    after an answer or a failure, how long to pause before the next one, or what to raise instead.
    Transport and AsyncClient's httpx transport (_ahttp.py) only send, read and sleep, so both
    keep the retries of docs/sdk.md ("Retries and idempotency") and the deadlines of a run."""

    def __init__(self, method: str, url: str, policy: RetryPolicy, timeout: float, deadline: Optional[float]) -> None:
        self.method, self.url, self.policy = method, url, policy
        self.base_timeout, self.deadline = timeout, deadline
        #: The retries made so far.
        self.attempt = 0

    def timeout(self) -> float:
        """How long the next attempt may wait for the connection and for each read."""
        return attempt_timeout(self.base_timeout, self.deadline)

    def pause_after_status(self, status: int, retry_after: Optional[str]) -> Optional[float]:
        """The pause before trying an answer of ``status`` again (its Retry-After header honoured),
        or None when the answer stands."""
        if not retries_status(status, self.attempt, self.policy):
            return None
        return self._next(self.policy.delay(self.attempt, retry_after_seconds(retry_after)))

    def pause_after_failure(self, error: BaseException, reason: object) -> float:
        """The pause before trying a request that got no answer (no connection, a reset, a
        timeout) again; DeadlineExceeded or ConnectionFailedError (saying ``reason``) instead."""
        if deadline_passed(self.deadline):
            raise DeadlineExceeded(f"{self.method} {self.url}: no answer before the deadline") from error
        if not retries_failure(self.attempt, self.policy):
            raise ConnectionFailedError(f"{self.method} {self.url} failed: {reason}") from error
        return self._next(self.policy.delay(self.attempt, None))

    def _next(self, pause: float) -> float:
        check_pause(pause, self.deadline)
        self.attempt += 1
        return pause


def answer_stopped(method: str, url: str, deadline: Optional[float], reason: object) -> LimelightError:
    """What an answer whose body stopped coming (a read that timed out or broke) raises."""
    if deadline_passed(deadline):
        return DeadlineExceeded(f"{method} {url}: no answer before the deadline")
    return ConnectionFailedError(f"{method} {url}: the answer stopped: {reason}")


class InsecureTransportWarning(UserWarning):
    """The base URL is plain http:// to a host that is not this machine: the API key and every
    input and output cross the network readable by anyone on the way."""


#: Headers that carry a credential; a redirect to another origin is followed without them.
CREDENTIAL_HEADERS = ("Authorization", "Proxy-authorization", "Cookie")  # as urllib capitalises them


def origin(url: str) -> tuple:
    """(scheme, host, port) of a URL, the default port filled in: two URLs share an origin when
    these are equal, so http and https, or two ports of one host, are different origins."""
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    return scheme, (parts.hostname or "").lower(), port or {"http": 80, "https": 443}.get(scheme)


def is_loopback(host: str) -> bool:
    """localhost, 127.0.0.0/8 or ::1: traffic that never leaves this machine."""
    host = host.strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def warn_if_plain_http(base_url: str, stacklevel: int) -> None:
    scheme, host, _ = origin(base_url)
    if scheme == "http" and host and not is_loopback(host):
        warnings.warn(
            f"{base_url} is plain HTTP to another machine: the API key and every input and "
            "output can be read on the way; use https://",
            InsecureTransportWarning,
            stacklevel=stacklevel + 1,
        )


def request_headers(
    base_url: str, user_agent: str, credential: Optional[str], extra: Optional[Mapping[str, str]], url: Optional[str]
) -> Dict[str, str]:
    """A request's headers; the credential only for the base URL's origin (``url`` when it is an
    absolute URL)."""
    headers = {"User-Agent": user_agent, "Accept": "application/json"}
    if credential and (url is None or origin(url) == origin(base_url)):
        headers["Authorization"] = f"Bearer {credential}"
    headers.update(extra or {})
    return headers


#: Redirects followed in a row before the answer is taken as it is (urllib's bound).
MAX_REDIRECTS = 10
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})


@dataclass(frozen=True)
class Redirect:
    """What to do with a redirect: send ``method`` to ``url`` (with the body unless
    ``drop_body``), the credentials kept only when ``keep_credentials``; ``refused`` says why
    it is not followed at all (the answer is then the redirect itself, an error)."""

    method: str
    url: str
    drop_body: bool
    keep_credentials: bool
    refused: Optional[str] = None


def redirect_rule(method: str, code: int, from_url: str, to_url: str) -> Redirect:
    """urllib's redirect rules, shared with the async transport: GET and HEAD follow 301, 302,
    303, 307 and 308; POST follows 301, 302 and 303 as a GET without its body, and nothing else is
    followed. Only http and https targets are followed (urllib also follows ftp), and a target of
    another origin gets no credentials."""
    keep = origin(to_url) == origin(from_url)
    if urllib.parse.urlsplit(to_url).scheme.lower() not in ("http", "https"):
        return Redirect(method, to_url, True, keep, f"a redirect to {to_url} is not followed")
    method = method.upper()
    if method in ("GET", "HEAD") and code in REDIRECT_STATUSES:
        return Redirect(method, to_url, True, keep)
    if method == "POST" and code in (301, 302, 303):
        return Redirect("GET", to_url, True, keep)
    return Redirect(method, to_url, False, keep, f"a {code} redirect of a {method} is not followed")


class _SameOriginCredentials(urllib.request.HTTPRedirectHandler):
    """urllib's redirects (the same statuses and methods), but a request sent on to another
    origin loses its credentials: urllib itself copies every header to wherever the Location
    points, so a 302 to another host would receive the API key (docs/sdk.md, "Redirects and
    plain HTTP"). Only http and https targets are followed (urllib also follows ftp)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        rule = redirect_rule(req.get_method(), code, req.full_url, newurl)
        if rule.refused:
            raise urllib.error.HTTPError(req.full_url, code, f"{msg} ({rule.refused})", headers, fp)
        follow = super().redirect_request(req, fp, code, msg, headers, newurl)
        if follow is not None and not rule.keep_credentials:
            for name in CREDENTIAL_HEADERS:
                follow.remove_header(name)
        return follow


_opener = urllib.request.build_opener(_SameOriginCredentials)


@dataclass
class Response:
    status: int
    headers: Mapping[str, str]
    body: Any


class Transport:
    def __init__(
        self,
        base_url: str,
        auth: Callable[[], Optional[str]],
        *,
        timeout: float,
        retry: RetryPolicy,
        user_agent: str,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._auth = auth
        self.timeout = timeout
        self.retry = retry
        self.user_agent = user_agent
        self._sleep = sleep
        warn_if_plain_http(self.base_url, stacklevel=3)

    def url(self, path: str) -> str:
        return path if path.startswith(("http://", "https://")) else f"{self.base_url}{path}"

    def headers(self, extra: Optional[Mapping[str, str]] = None, url: Optional[str] = None) -> Dict[str, str]:
        """The request's headers; the credential only for the base URL's origin (``url`` when it
        is an absolute URL)."""
        return request_headers(self.base_url, self.user_agent, self._auth(), extra, url)

    def open(
        self,
        method: str,
        path: str,
        *,
        body: Optional[bytes] = None,
        headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[float] = None,
        deadline: Optional[float] = None,
    ):
        """The raw response of one request, retried on the statuses and failures above.
        Error statuses other than those raise the APIError of the answer. With a ``deadline``, no
        attempt, pause or wait for the answer goes past it: DeadlineExceeded instead."""
        url = self.url(path)
        request_headers = self.headers(headers, url)
        attempts = Attempts(method, url, self.retry, timeout or self.timeout, deadline)
        while True:
            request = urllib.request.Request(url, data=body, method=method, headers=request_headers)
            try:
                return _opener.open(request, timeout=attempts.timeout())
            except urllib.error.HTTPError as error:
                with contextlib.closing(error):
                    pause = attempts.pause_after_status(error.code, error.headers.get("Retry-After"))
                    if pause is None:
                        raise api_error(error.code, decode(error.read(), error.headers.get("Content-Type"))) from None
            except (urllib.error.URLError, ConnectionError, socket.timeout, TimeoutError) as error:
                pause = attempts.pause_after_failure(error, getattr(error, "reason", error))
            self._sleep(pause)

    def request(
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
        with self.open(method, path, body=body, headers=extra, timeout=timeout, deadline=deadline) as response:
            try:
                payload = response.read()
            except (socket.timeout, TimeoutError) as error:
                raise answer_stopped(method, self.url(path), deadline, error) from error
            return answer(response.status, response.headers, payload)


def request_body(
    json_body: Any, body: Optional[bytes], headers: Optional[Mapping[str, str]]
) -> Tuple[Optional[bytes], Dict[str, str]]:
    """A request's body and headers: ``json_body`` (when given) as JSON, with its Content-Type."""
    extra = dict(headers or {})
    if json_body is not None:
        body = json.dumps(json_body).encode("utf-8")
        extra.setdefault("Content-Type", "application/json")
    return body, extra


def answer(status: int, headers: Any, payload: bytes) -> Response:
    """The Response of an answer read to its end, its body decoded by its Content-Type."""
    return Response(status, dict(headers.items()), decode(payload, headers.get("Content-Type")))


def set_read_timeout(response: Any, seconds: float) -> None:
    """Bounds the next reads of an open response (a stream followed until a deadline). urllib
    sets the socket's timeout once, at connect; the socket is reached through the response."""
    sock = getattr(getattr(getattr(response, "fp", None), "raw", None), "_sock", None)
    if sock is not None:
        sock.settimeout(max(0.001, seconds))


def decode(payload: bytes, content_type: Optional[str]) -> Any:
    text = payload.decode("utf-8", errors="replace")
    if content_type and "json" in content_type:
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text
