"""The ASGI application: routes, authentication, authorization, audit and rendering.

Every endpoint goes through `endpoint()`, which authenticates, turns any failure into a
`v1` `Status` (never a traceback), applies the auth endpoints' custom headers and writes the
audit event.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import OperationalError, SQLAlchemyError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from . import discovery as D
from . import errors as E
from . import openapi, reviews, table
from .audit import AuditLog, RequestInfo
from .auth import MAX_TTL, Authenticator, AuthSettings, Principal
from .http import (bool_param, decode, int_param, json_response, media_type, query_options, read_body,
                   resource_version_param, status_response)
from .model_adapter import MASK, RawInvalid, check_raw_bounds
from .rendering import RenderCache, present, redact_query
from .objects import Clock
from .patching import APPLY
from .selectors import field_matcher, label_matcher
from .service import MAX_GRACE_SECONDS, ConfigService, WriteCtx
from .store import Store
from .ui.routes import ui_routes
from .throttle import LoginThrottle
from .watch import Notifier, stream

log = logging.getLogger("syncpatch.server")
BASE = f"/apis/{D.GROUP_VERSION}/configs"
READ_VERBS = {"get", "list", "watch"}
SERVER_CONFIG = "platform"  # the Config `syncpatch serve` keeps in step with its --config file
MAX_WATCHES = 512  # open watch streams per server process; more get 429
CLIENT_CLOSED = 499
READY_TIMEOUT = 3.0  # as nginx logs a request whose client closed the connection
Handler = Callable[[Request, "State", Principal | None, RequestInfo], Awaitable[Response]]


@dataclass
class State:
    """Everything a request needs, built once per server process."""

    store: Store
    auth: Authenticator
    audit: AuditLog
    settings: AuthSettings
    clock: Clock = field(default_factory=Clock)
    server_address: str = "127.0.0.1:8443"
    notifier: Notifier | None = None
    renders: RenderCache = field(default_factory=RenderCache)
    login_throttle: LoginThrottle = field(default_factory=LoginThrottle)
    max_watches: int = MAX_WATCHES
    watches: int = 0

    @property
    def service(self) -> ConfigService:
        return ConfigService(self.store, self.clock)


async def _principal(request: Request, st: State, required: bool) -> Principal | None:
    header = request.headers.get("authorization", "")
    if not header:
        if required:
            raise E.Unauthorized("Unauthorized")
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise E.Unauthorized("Unauthorized")
    token = token.strip()
    return st.auth.cached(token) or await run_in_threadpool(st.auth.authenticate, token)


def endpoint(auth: str = "required", auth_headers: bool = False) -> Callable[[Handler], Callable[[Request], Awaitable[Response]]]:
    """Wrap a handler with authentication, error rendering, custom headers and audit."""
    def deco(fn: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def handler(request: Request) -> Response:
            st: State = request.app.state.sp
            started = time.time()
            query = f"?{redact_query(request.url.query)}" if request.url.query else ""
            info = RequestInfo(verb=request.method.lower(), uri=request.url.path + query,
                               source_ip=request.client.host if request.client else "",
                               user_agent=request.headers.get("user-agent", ""))
            request.state.audit_objects = (None, None)
            _classify(request, info)
            try:
                required = auth == "required" or (auth == "version" and st.settings.authenticate_version)
                principal = await _principal(request, st, required) if auth != "none" else None
                if principal:
                    info.user, info.groups = principal.user, [f"syncpatch:{principal.role}s"]
                response = await fn(request, st, principal, info)
            except E.ApiError as err:
                response = status_response(err)
            except ClientDisconnect:  # the client went away mid-request: nothing to answer
                response = Response(status_code=CLIENT_CLOSED)
            except OperationalError:
                log.warning("store unavailable serving %s %s", request.method, request.url.path)
                response = status_response(E.ServiceUnavailable(
                    "the store is unavailable; try again", retry_after=1))
            except Exception:  # noqa: BLE001 - the one place unexpected errors become a Status
                log.exception("internal error serving %s %s", request.method, request.url.path)
                response = status_response(E.InternalError("an internal error occurred; see the server log"))
            if auth_headers:
                for key, value in st.settings.custom_headers:
                    response.headers[key] = value
            if st.audit.enabled:
                req_obj, resp_obj = request.state.audit_objects
                code = response.status_code

                def write() -> None:
                    wanted = req_obj is not None and st.audit.wants_request_object(info)
                    st.audit.record(info, code, started, _audit_body(req_obj) if wanted else None,
                                    resp_obj)
                try:  # masking, serialising and writing (and rotating) run in a worker thread
                    await run_in_threadpool(write)
                except Exception:  # noqa: BLE001 - a full disk must not turn answers into 500s
                    log.exception("cannot write the audit log")
            return response
        return handler
    return deco


def _classify(request: Request, info: RequestInfo) -> None:
    """Kubernetes verb, resource and name of a request, known before authentication."""
    path, method = request.url.path, request.method
    if not path.startswith(BASE):
        return
    rest = path[len(BASE):].strip("/")
    info.resource, info.name = "configs", rest or None
    if rest:
        info.verb = {"GET": "get", "PUT": "update", "PATCH": "patch", "DELETE": "delete"}.get(
            method, method.lower())
    elif method == "GET":
        info.verb = "watch" if bool_param(request, "watch") else "list"
    elif method == "POST":
        info.verb = "create"


def _authorize(principal: Principal | None, verb: str, st: State) -> None:
    """Admins have every verb; viewers get, list and watch; disableConfigEndpoint blocks writes."""
    assert principal is not None
    if verb not in READ_VERBS and not principal.is_admin:
        raise E.Forbidden(f'configs.{D.GROUP} is forbidden: User "{principal.user}" cannot '
                          f'{verb} resource "configs" in API group "{D.GROUP}" at the cluster scope')
    if verb not in READ_VERBS and st.settings.disable_config_endpoint:
        raise E.Forbidden("writing Configs through the API is disabled: disableConfigEndpoint is "
                          "true in the server's effective config (change the server's config "
                          "file and restart to re-enable)")


def _reveal(request: Request, principal: Principal | None) -> bool:
    wanted = bool_param(request, "reveal") or request.headers.get("x-syncpatch-reveal", "") == "true"
    if wanted and not (principal and principal.is_admin):
        raise E.Forbidden("only admins may read revealed secret values")
    return wanted


def _audit_body(body: Any) -> Any:
    """The request body for the audit log, masked; unmaskable shapes are left out."""
    if isinstance(body, dict):
        try:
            raw = (body.get("spec") or {}).get("raw") if isinstance(body.get("spec"), dict) else None
            if isinstance(raw, str):
                try:
                    check_raw_bounds(raw)
                except RawInvalid:  # too costly to mask field by field: hidden whole
                    body = {**body, "spec": {**body["spec"], "raw": MASK}}
            return present(body, False)
        except Exception:  # noqa: BLE001 - a malformed body must not break the request
            return None
    if isinstance(body, list):
        return [{k: (MASK if k == "value" else v) for k, v in op.items()} if isinstance(op, dict)
                else MASK for op in body]
    return None


Fetch = Callable[[], tuple[dict[str, Any] | None, list[dict[str, Any]]]]


async def _render(request: Request, st: State, fetch: Fetch, reveal: bool, single: bool) -> Response:
    """Reading (`fetch`: list metadata and objects), masking (cached per version), tables
    and JSON encoding, in one worker-thread call."""
    as_table = D.accepts_table(request.headers.get("accept", ""))
    with_objects = request.query_params.get("includeObject") == "Object"

    def build() -> Response:
        list_meta, objs = fetch()
        shown = [st.renders.show(o, reveal) for o in objs]
        if as_table:
            tbl = table.table(shown, list_meta or {
                "resourceVersion": shown[0]["metadata"]["resourceVersion"]}, st.clock.now())
            if with_objects:
                for row, obj in zip(tbl["rows"], shown):
                    row["object"] = obj
            return json_response(tbl)
        if single:
            return json_response(shown[0])
        return json_response({"apiVersion": D.GROUP_VERSION, "kind": "ConfigList",
                              "metadata": list_meta, "items": shown})
    return await run_in_threadpool(build)


# ---- discovery and openapi ------------------------------------------------------------
@endpoint(auth="version")
async def version(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    return json_response(D.version_info())


@endpoint(auth="none")
async def healthz(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    """Liveness: the process answers (it does not depend on the store)."""
    return Response("ok", media_type="text/plain")


@endpoint(auth="none")
async def readyz(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    """Readiness: the store answers a query within READY_TIMEOUT seconds."""
    try:
        await asyncio.wait_for(run_in_threadpool(st.store.ping), READY_TIMEOUT)
    except (asyncio.TimeoutError, SQLAlchemyError, OSError):
        return Response("store unavailable", status_code=503, media_type="text/plain")
    return Response("ok", media_type="text/plain")


def _discovery(legacy_core: bool) -> Handler:
    async def handler(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
        agg = D.wants_aggregated(request.headers.get("accept", ""))
        if agg:
            return json_response(D.aggregated(legacy_core, agg), media_type=D.AGG_TYPES[agg])
        body = D.api_versions(st.server_address) if legacy_core else D.api_group_list()
        return json_response(body)
    return handler


api_root = endpoint()(_discovery(True))
apis_root = endpoint()(_discovery(False))


@endpoint()
async def core_v1(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    return json_response(D.core_resources())


@endpoint()
async def group_doc(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    return json_response(D.api_group())


@endpoint()
async def group_version_doc(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    return json_response(D.resource_list())


@endpoint()
async def openapi_index(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    return json_response(openapi.index())


@endpoint()
async def openapi_group(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    headers = {"Cache-Control": "public, immutable", "Etag": f'"{openapi.document_hash()}"'}
    return Response(openapi.group_document(), media_type="application/json", headers=headers)


@endpoint(auth="none")
async def not_found(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    raise E.NotFound(f"the server could not find the requested resource ({request.method} {request.url.path})")


# ---- the Config resource --------------------------------------------------------------
def _write_ctx(request: Request, p: Principal | None) -> WriteCtx:
    opts = query_options(request)
    return WriteCtx(is_admin=bool(p and p.is_admin), **opts)


def govern(st: State, obj: dict[str, Any]) -> None:
    """The server's own Config, once written, governs the running server at once (its
    file stays the source of truth on start-up): disableConfigEndpoint, password login,
    TTLs, custom headers and /version authentication take effect with the next request."""
    meta = obj.get("metadata") or {}
    if meta.get("name") != SERVER_CONFIG or meta.get("deletionTimestamp") or "status" not in obj:
        return
    st.settings = AuthSettings.from_status(obj["status"])
    st.auth.settings = st.settings


async def _written(request: Request, st: State, obj: dict[str, Any], ctx: WriteCtx, code: int,
                   reveal: bool) -> Response:
    if ctx.dry_run and code == 201:
        obj["metadata"].pop("resourceVersion", None)  # a dry-run create has no version yet
    elif st.notifier and not ctx.dry_run:
        st.notifier.notify()
        if request.method != "DELETE":
            govern(st, obj)

    def build() -> tuple[dict[str, Any], Response]:
        # a committed write is what later reads of this version see: cache its rendering
        shown = present(obj, reveal) if reveal or ctx.dry_run else st.renders.masked(obj)
        return shown, json_response(shown, code)
    shown, response = await run_in_threadpool(build)
    request.state.audit_objects = (request.state.audit_objects[0], shown)
    for warning in ctx.warnings[:20]:
        text = json.dumps(warning)[1:-1]  # escapes quotes, control and non-ASCII characters
        response.headers.append("Warning", f'299 - "{text}"')
    return response


async def _body(request: Request) -> Any:
    """The decoded body, parsed in a worker thread."""
    raw, ctype = await read_body(request), media_type(request)

    data = await run_in_threadpool(decode, raw, ctype)
    request.state.audit_objects = (data, None)  # masked later, and only if the log wants it
    return data


@endpoint()
async def collection(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    """POST creates; GET lists, or watches with `watch=true`."""
    info.resource = "configs"
    if request.method == "POST":
        info.verb = "create"
        _authorize(p, "create", st)
        reveal = _reveal(request, p)
        ctx = _write_ctx(request, p)
        body = await _body(request)
        obj = await run_in_threadpool(st.service.create, body, ctx)
        return await _written(request, st, obj, ctx, 201, reveal)
    if request.method != "GET":
        raise E.MethodNotAllowed(f"{request.method} is not supported on the Config collection")
    watching = bool_param(request, "watch")
    info.verb = "watch" if watching else "list"
    _authorize(p, info.verb, st)
    return await (_watch(request, st, p, None) if watching else _list(request, st, p))


async def _list(request: Request, st: State, p: Principal | None) -> Response:
    reveal = _reveal(request, p)
    labels = label_matcher(request.query_params.get("labelSelector"))
    fields = field_matcher(request.query_params.get("fieldSelector"))
    limit = int_param(request, "limit")
    token = request.query_params.get("continue") or None

    def fetch() -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        return st.service.list(lambda o: labels(o) and fields(o), limit or None, token)
    return await _render(request, st, fetch, reveal, single=False)


async def _watch(request: Request, st: State, p: Principal | None, name: str | None) -> Response:
    """A chunked stream of watch events, rendered as objects or one-row Tables."""
    reveal = _reveal(request, p)
    labels = label_matcher(request.query_params.get("labelSelector"))
    fields = field_matcher(request.query_params.get("fieldSelector"))
    start = resource_version_param(request)
    timeout = int_param(request, "timeoutSeconds")
    as_table = D.accepts_table(request.headers.get("accept", ""))

    def match(obj: dict[str, Any]) -> bool:
        return labels(obj) and fields(obj) and (name is None or obj["metadata"]["name"] == name)

    def render(obj: dict[str, Any]) -> Any:
        shown = st.renders.show(obj, reveal)
        if as_table:
            return table.table([shown], {"resourceVersion": shown["metadata"]["resourceVersion"]},
                               st.clock.now())
        return shown
    if st.watches >= st.max_watches:
        raise E.TooManyRequests(f"too many watches are open (at most {st.max_watches}); "
                                "try again later", retry_after=1)
    body = stream(st.store, st.notifier or Notifier(), start, match, render, timeout,
                  bool_param(request, "allowWatchBookmarks"))
    return StreamingResponse(_counted(st, body), media_type="application/json",
                             headers={"Cache-Control": "no-cache, private"})


async def _counted(st: State, body: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """A watch stream that holds one of the server's watch slots while it runs."""
    st.watches += 1
    try:
        async for chunk in body:
            yield chunk
    finally:
        st.watches -= 1


@endpoint()
async def item(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    """GET (or watch), PUT, PATCH and DELETE of one Config."""
    name = request.path_params["name"]
    info.resource, info.name = "configs", name
    verb = {"GET": "get", "PUT": "update", "PATCH": "patch", "DELETE": "delete"}.get(request.method)
    if verb is None:
        raise E.MethodNotAllowed(f"{request.method} is not supported on a Config")
    info.verb = verb
    _authorize(p, verb, st)
    reveal = _reveal(request, p)
    if verb == "get" and bool_param(request, "watch"):
        info.verb = "watch"
        return await _watch(request, st, p, name)
    if verb == "get":
        return await _render(request, st, lambda: (None, [st.service.get(name)]), reveal,
                             single=True)
    ctx = _write_ctx(request, p)
    if verb == "delete":
        return await _delete(request, st, name, ctx, reveal)
    body = await _body(request)
    if verb == "update":
        obj = await run_in_threadpool(st.service.replace, name, body, ctx)
        return await _written(request, st, obj, ctx, 200, reveal)
    ptype = media_type(request)
    ctx.force = bool_param(request, "force")
    created = ptype == APPLY and (await run_in_threadpool(st.store.get, name)) is None
    obj = await run_in_threadpool(st.service.patch, name, ptype, body, ctx)
    return await _written(request, st, obj, ctx, 201 if created else 200, reveal)


async def _delete(request: Request, st: State, name: str, ctx: WriteCtx, reveal: bool) -> Response:
    """DeleteOptions come from the body (kubectl) or the query (curl); both are honoured."""
    raw = await read_body(request, 64 * 1024)
    opts: Any = decode(raw, media_type(request) or "application/json") if raw.strip() else {}
    if not isinstance(opts, dict):
        raise E.BadRequest("DeleteOptions must be an object")
    if opts.get("dryRun"):
        if opts["dryRun"] != ["All"]:
            raise E.BadRequest('Invalid value for dryRun: supported values: "All"')
        ctx.dry_run = True
    grace = int_param(request, "gracePeriodSeconds", MAX_GRACE_SECONDS)
    if grace is not None:
        opts["gracePeriodSeconds"] = grace
    if request.query_params.get("propagationPolicy"):
        opts["propagationPolicy"] = request.query_params["propagationPolicy"]
    obj = await run_in_threadpool(st.service.delete, name, opts, ctx)
    return await _written(request, st, obj, ctx, 200, reveal)


# ---- authentication endpoints ---------------------------------------------------------
def _field(body: Any, key: str, required: bool = True) -> Any:
    if not isinstance(body, dict):
        raise E.BadRequest("the request body must be a JSON object")
    value = body.get(key)
    if required and (not isinstance(value, str) or not value):
        raise E.invalid(None, [E.cause(key, "Required value", "FieldValueRequired")])
    return value


@endpoint(auth="none", auth_headers=True)
async def login(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    """Password login: issues an access key with the loginAccessKeyTTLSeconds lifetime."""
    body = decode(await read_body(request, 64 * 1024), media_type(request), json_only=True)
    user, password = _field(body, "username"), _field(body, "password")
    info.user = user[:128]
    address = request.client.host if request.client else ""
    st.login_throttle.acquire(user, address)
    token, expires = await run_in_threadpool(st.auth.login, user, password)
    st.login_throttle.succeeded(user, address)
    return json_response({"token": token, "expiresAt": _iso(expires)})


@endpoint(auth_headers=True)
async def create_key(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    """A new access key for the caller (or, for admins, any user), capped by the TTL maximum."""
    assert p is not None
    raw = await read_body(request, 64 * 1024)
    body = decode(raw, media_type(request), json_only=True) if raw.strip() else {}
    user = _field(body, "user", required=False) or p.user
    if not isinstance(user, str):
        raise E.invalid(None, [E.cause("user", "Invalid value: must be a string")])
    ttl = body.get("ttlSeconds") if isinstance(body, dict) else None
    if ttl is not None and (not isinstance(ttl, int) or isinstance(ttl, bool) or not 0 < ttl <= MAX_TTL):
        raise E.invalid(None, [E.cause("ttlSeconds", f"Invalid value: must be an integer from 1 "
                                       f"to {MAX_TTL}")])
    if user != p.user and not p.is_admin:
        raise E.Forbidden("only admins may create access keys for other users")
    token, key_id, expires = await run_in_threadpool(st.auth.issue, user, "api", ttl)
    return json_response({"token": token, "id": key_id, "expiresAt": _iso(expires)}, 201)


@endpoint(auth_headers=True)
async def revoke_key(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    assert p is not None
    await run_in_threadpool(st.auth.revoke, request.path_params["key_id"], p)
    return json_response({"kind": "Status", "apiVersion": "v1", "status": "Success", "code": 200})


@endpoint(auth_headers=True)
async def create_user(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    assert p is not None
    if not p.is_admin:
        raise E.Forbidden("only admins may create users")
    body = decode(await read_body(request, 64 * 1024), media_type(request), json_only=True)
    name, role = _field(body, "username"), _field(body, "role")
    password = _field(body, "password", required=False)
    await run_in_threadpool(st.auth.create_user, name, role, password)
    return json_response({"username": name, "role": role}, 201)


@endpoint()
async def access_review(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    """`kubectl auth can-i`."""
    assert p is not None
    raw = await read_body(request, 64 * 1024)
    if media_type(request) == reviews.PROTOBUF:
        body: Any = {"spec": reviews.decode_protobuf_review(raw)}
    else:
        body = decode(raw, media_type(request), json_only=True)
    return json_response(reviews.access_review(p, body, st.settings.disable_config_endpoint), 201)


@endpoint()
async def subject_review(request: Request, st: State, p: Principal | None, info: RequestInfo) -> Response:
    """`kubectl auth whoami`."""
    assert p is not None
    return json_response(reviews.subject_review(p), 201)


def _iso(epoch: float | None) -> str | None:
    if epoch is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))


async def _last_resort(request: Request, exc: Exception) -> Response:
    """Anything escaping `endpoint()` still answers with a Status, never a traceback."""
    log.error("unhandled error serving %s %s: %r", request.method, request.url.path, exc)
    return status_response(E.InternalError("an internal error occurred; see the server log"))


def create_app(state: State) -> Starlette:
    """The Starlette application over a prepared State."""
    routes = [
        Route("/version", version), Route("/healthz", healthz), Route("/readyz", readyz),
        Route("/livez", healthz), Route("/api", api_root), Route("/api/v1", core_v1),
        Route("/apis", apis_root), Route(f"/apis/{D.GROUP}", group_doc),
        Route(f"/apis/{D.GROUP_VERSION}", group_version_doc),
        Route("/openapi/v3", openapi_index),
        Route(f"/openapi/v3/apis/{D.GROUP_VERSION}", openapi_group),
        Route(BASE, collection, methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
        Route(BASE + "/{name}", item, methods=["GET", "PUT", "PATCH", "DELETE", "POST"]),
        Route("/auth/login", login, methods=["POST"]),
        Route("/auth/keys", create_key, methods=["POST"]),
        Route("/auth/keys/{key_id}", revoke_key, methods=["DELETE"]),
        Route("/auth/users", create_user, methods=["POST"]),
        Route("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", access_review, methods=["POST"]),
        Route("/apis/authentication.k8s.io/v1/selfsubjectreviews", subject_review, methods=["POST"]),
        *ui_routes(),
        Route("/{path:path}", not_found, methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
    ]
    app = Starlette(routes=routes, exception_handlers={Exception: _last_resort})
    if state.notifier is None:
        state.notifier = Notifier()
    app.state.sp = state
    return app
