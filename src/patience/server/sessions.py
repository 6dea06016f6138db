"""Who is asking: each browser's session, the names people claim with a password, and the names
of the days before sessions (docs/web.md, "Sessions and names").

A *session* is a random token (:func:`secrets.token_urlsafe`, 256 bits) that the server gives a
browser in an HttpOnly cookie (:data:`SESSION_COOKIE`); the store keeps only its SHA-256, so a
copy of the store gives no session away. A session is stored the first time it owns something
(a table, a name, a setting): until then it is only its token, and owns nothing. Every stored
session has an *account*, which owns the session's tables and statistics: anonymous, or a name
claimed with a password (hashed by argon2, off the event loop) that another browser can log in
to. Names are compared by :func:`~patience.store.name_key` (NFKC and case folding) everywhere
and shown as chosen.

Before sessions a cookie (:data:`OLD_COOKIE`) held a player's name, and the store kept tables
under names. Such a name's tables go to the first session that comes with that old cookie (the
cookie is then deleted), or to whoever the server's administrator gives them to (``patience
admin claim-name``); nobody else can claim the name meanwhile.

This module decides who is who; ``server/app.py`` reads and writes the cookies, and
:class:`~patience.server.service.TableService` lets an account reach its own tables only.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import secrets
import sqlite3
import time
from dataclasses import dataclass, replace
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..games import get_rules
from ..store import Account, Store, StoreError, name_key, valid_player_name
from ..study.winnable import GRADES
from .catalogue import one_player_games
from .errors import CommandError
from .http import RateLimit
from .service import TableService

__all__ = [
    "DEFAULT_PLAYER",
    "EXPIRE_EVERY",
    "MAX_PASSWORD",
    "MIN_PASSWORD",
    "OLD_COOKIE",
    "PASSWORD_TRIES_PER_MINUTE",
    "SEEN_EVERY",
    "SESSIONS_PER_MINUTE",
    "SESSION_COOKIE",
    "SESSION_MAX_AGE",
    "Sessions",
    "Visitor",
    "check_password",
    "session_hash",
]

#: The cookie that holds a browser's session token.
SESSION_COOKIE = "patience_session"
#: The cookie that held a player's name before sessions: read once, to hand that name's
#: tables to the session, then deleted.
OLD_COOKIE = "patience_player"
#: How a player without a name is shown (and the name every browser without a cookie had
#: before sessions: its old tables were everybody's, so no old cookie takes them over).
DEFAULT_PLAYER = "guest"
#: Seconds a session cookie lasts (a year; browsers keep none longer than 400 days) from the
#: day it was last sent; the store removes a session unused for as long.
SESSION_MAX_AGE = 365 * 24 * 3600
#: Seconds between two notes that a session was seen (its ``last_seen`` in the store, and its
#: cookie sent again): at most one write a day per session.
SEEN_EVERY = 24 * 3600
#: Seconds between two removals of sessions unused for :data:`SESSION_MAX_AGE` (besides the
#: one when the server starts).
EXPIRE_EVERY = 24 * 3600
#: Attempts at a password (logins and claims) one client address may make in a minute.
PASSWORD_TRIES_PER_MINUTE = 10
#: New sessions stored for one client address in a minute (a browser's first table, name or
#: setting): a client that never keeps its cookie cannot fill the store with sessions.
SESSIONS_PER_MINUTE = 60
#: A password's length, in characters.
MIN_PASSWORD = 8
MAX_PASSWORD = 1024

log = logging.getLogger(__name__)

# What secrets.token_urlsafe(32) gives; anything else in the cookie is no session.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")


def session_hash(token: str) -> str:
    """The SHA-256 of a session token, as stored (256 random bits need no slow hash)."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def check_password(password: object) -> str:
    """The password, or a :class:`CommandError` (400) saying what a password is."""
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise CommandError(
            400, f"'password' is text of {MIN_PASSWORD} to {MAX_PASSWORD} characters"
        )
    return password


@dataclass(frozen=True)
class Visitor:
    """Who sent a request: the session's token (from the cookie, or new), its account (None
    until the session owns something), and the client's address."""

    token: str
    account: Account | None
    address: str
    #: The session was seen for the first time in a day (:data:`SEEN_EVERY`): its cookie goes
    #: to the browser again, for another :data:`SESSION_MAX_AGE`.
    renew: bool = False

    @property
    def token_hash(self) -> str:
        """The session as the store knows it."""
        return session_hash(self.token)

    @property
    def account_id(self) -> int | None:
        """The account's id (None: the session owns nothing)."""
        return None if self.account is None else self.account.id

    @property
    def name(self) -> str:
        """The name the visitor is shown as."""
        if self.account is None or self.account.display is None:
            return DEFAULT_PLAYER
        return self.account.display

    @property
    def quota(self) -> tuple[str, str]:
        """The keys the work pools' quotas count this visitor under: the address and the
        session, so that neither many sessions nor many addresses get more than their share."""
        return (self.address, f"session:{self.token_hash}")

    def to_json(self) -> dict[str, Any]:
        """``GET /api/player``'s answer: the name shown, whether it is claimed, and whether
        the statistics are shown to others."""
        account = self.account
        return {
            "name": self.name,
            "claimed": account is not None and account.claimed,
            "show_stats": account is not None and account.show_stats,
            "choices": {} if account is None else account.choices,
        }


#: The longest scoring name a choice may give (the page's are "standard", "vegas", ...).
MAX_SCORING = 20


def checked_choices(data: object) -> dict[str, Any]:
    """What a player chose to play games with, checked: ``{GAME: {"options": {NAME: VALUE},
    "winnable": bool, "scoring": str, "grade": str}}`` for one-player games, the options as
    the game accepts them, the grade of winnable deals one of
    :data:`~patience.study.winnable.GRADES` or null for any (a :class:`CommandError` (400)
    saying what is wrong otherwise). The scoring is
    the web app's setting, not the rules': any short word is kept, and the page ignores one it
    does not know."""
    if not isinstance(data, dict):
        raise CommandError(
            400, "'choices' is an object: {GAME: {options, winnable, scoring, grade}}"
        )
    games = one_player_games()
    checked: dict[str, Any] = {}
    for game, choice in data.items():
        if game not in games:
            raise CommandError(400, f"'choices': {game!r} is not a one-player game: {games}")
        if not isinstance(choice, dict) or not set(choice) <= {
            "options",
            "winnable",
            "scoring",
            "grade",
        }:
            raise CommandError(
                400,
                f"'choices'.{game} is an object of 'options', 'winnable', 'scoring' and 'grade'",
            )
        options = choice.get("options", {})
        if not isinstance(options, dict) or not all(
            isinstance(value, str | int | bool) for value in options.values()
        ):
            raise CommandError(400, f"'choices'.{game}.options is an object of option values")
        try:
            get_rules(game, options)
        except ValueError as error:
            raise CommandError(400, f"'choices'.{game}.options: {error}") from None
        winnable = choice.get("winnable", False)
        scoring = choice.get("scoring")
        if not isinstance(winnable, bool):
            raise CommandError(400, f"'choices'.{game}.winnable is true or false")
        if scoring is not None and (
            not isinstance(scoring, str) or not re.fullmatch(f"[a-z]{{1,{MAX_SCORING}}}", scoring)
        ):
            raise CommandError(400, f"'choices'.{game}.scoring is a short word, as 'vegas'")
        grade = choice.get("grade")
        if grade is not None and grade not in GRADES:
            raise CommandError(
                400, f"'choices'.{game}.grade is one of {', '.join(GRADES)}, or null for any"
            )
        checked[game] = {"options": options, "winnable": winnable, "scoring": scoring}
        if grade is not None:  # older choices have none: kept as they were
            checked[game]["grade"] = grade
    return checked


class Sessions:
    """Sessions, claimed names and logins, over the store; blocking work (the store, argon2)
    runs on ``service``'s pools. ``hasher`` is argon2's (its defaults: RFC 9106's low-memory
    choice); tests give a cheaper one."""

    def __init__(
        self,
        store: Store,
        service: TableService,
        *,
        hasher: PasswordHasher | None = None,
        tries_per_minute: int | None = PASSWORD_TRIES_PER_MINUTE,
        sessions_per_minute: int | None = SESSIONS_PER_MINUTE,
    ) -> None:
        self.store = store
        self.service = service
        self.hasher = hasher or PasswordHasher()
        self.tries = RateLimit(tries_per_minute, "password attempts")
        self.new_sessions = RateLimit(sessions_per_minute, "new sessions")

    # -- who is asking ---------------------------------------------------------------------

    async def visitor(self, token: str | None, address: str, *, seen: bool = True) -> Visitor:
        """The visitor of a session token from a cookie; a missing or malformed one (or a
        token the store does not know: a session that never owned anything, one logged out or
        expired) is a session that owns nothing. A missing or malformed token is replaced by a
        new one, which the caller gives the browser. With ``seen`` (a request that can carry
        a cookie back), a stored session last seen over :data:`SEEN_EVERY` ago is noted as
        seen now, and the visitor is to ``renew`` its cookie."""
        if token is None or not _TOKEN.fullmatch(token):
            return Visitor(secrets.token_urlsafe(32), None, address)
        hashed = session_hash(token)
        found = await self.service.offload(self.store.session, hashed)
        if found is None:
            return Visitor(token, None, address)
        account, last_seen = found
        if not seen or time.time() - last_seen < SEEN_EVERY:
            return Visitor(token, account, address)
        await self.service.offload(self.store.seen_session, hashed)
        return Visitor(token, account, address, renew=True)

    async def expire(self) -> tuple[int, int]:
        """Remove the sessions unused for longer than their cookie lasts
        (:data:`SESSION_MAX_AGE` since they were last seen: no browser holds them any more),
        and the anonymous accounts they leave with nothing (:meth:`Store.expire_sessions`);
        how many of each."""
        removed = await self.service.offload(self.store.expire_sessions, SESSION_MAX_AGE)
        if any(removed):
            log.info("removed %d sessions unused for a year, and %d empty accounts", *removed)
        return removed

    async def expire_regularly(self) -> None:
        """:meth:`expire` now and every :data:`EXPIRE_EVERY` seconds, until cancelled (the
        server's lifetime); a failure (a full disk) is logged and tried again next time."""
        while True:
            try:
                await self.expire()
            except (StoreError, sqlite3.Error, CommandError):
                log.exception("expiring unused sessions failed")
            await asyncio.sleep(EXPIRE_EVERY)

    async def owner(self, visitor: Visitor) -> Visitor:
        """The visitor with a stored session and account (made now if the session owned
        nothing yet): before it owns a table, a name or a setting. A new session always has a
        new token, never the one the browser came with: a token somebody else chose and
        planted in the browser's cookies never becomes a session."""
        if visitor.account is not None:
            return visitor
        self.new_sessions.check_address(visitor.address)
        fresh = secrets.token_urlsafe(32)
        account = await self.service.offload(self.store.new_session, session_hash(fresh))
        return Visitor(fresh, account, visitor.address)

    async def take_old_name(self, visitor: Visitor, old_name: str) -> Visitor:
        """A browser came with the cookie of the days before sessions: the session takes over
        the tables stored under that name that nobody took over yet (not those of
        :data:`DEFAULT_PLAYER`, which were everybody's), and is shown under it if it has no
        name yet."""
        try:
            old_name = valid_player_name(old_name)
        except StoreError:
            return visitor
        if name_key(old_name) == name_key(DEFAULT_PLAYER):
            return visitor
        tables = await self.service.offload(self.store.unclaimed_tables, old_name)
        if not tables and visitor.account is not None:
            return visitor
        visitor = await self.owner(visitor)
        assert visitor.account is not None
        taken = await self.service.offload(self.store.take_over, old_name, visitor.account.id)
        self.service.give(taken, visitor.account.id)
        if visitor.account.display is None:
            claimed = await self.service.offload(self.store.claimed_account, old_name)
            if claimed is None:  # never shown under somebody else's claimed name
                return await self._update(visitor, display=old_name)
        return visitor

    # -- names and settings ----------------------------------------------------------------

    async def set_player(self, visitor: Visitor, data: object) -> Visitor:
        """``POST /api/player {"name", "show_stats", "choices"}`` (any of them): the name the
        session is shown as (a claimed name only in another spelling or case of itself; nobody
        else's claimed name), whether others may see its statistics, and what it last chose to
        play games with (:func:`checked_choices`)."""
        if not isinstance(data, dict) or not ({"name", "show_stats", "choices"} & data.keys()):
            raise CommandError(
                400,
                'send {"name": "..."}, {"show_stats": true or false} or '
                '{"choices": {GAME: {"options", "winnable", "scoring"}}}',
            )
        choices = checked_choices(data["choices"]) if "choices" in data else None
        name = None
        if "name" in data:
            try:
                name = valid_player_name(data["name"])
            except StoreError as error:
                raise CommandError(400, str(error)) from None
        show = data.get("show_stats")
        if show is not None and not isinstance(show, bool):
            raise CommandError(400, "'show_stats' is true (anybody may see them) or false")
        visitor = await self.owner(visitor)
        assert visitor.account is not None
        if name is not None and visitor.account.key != name_key(name):
            claimed = await self.service.offload(self.store.claimed_account, name)
            if claimed is not None or visitor.account.claimed:
                raise CommandError(
                    409,
                    f"you are logged in as {visitor.name}: log out to play under another name"
                    if visitor.account.claimed
                    else f"{name} is a claimed name: log in with its password, or choose another",
                )
        return await self._update(visitor, display=name, show_stats=show, choices=choices)

    async def _update(
        self,
        visitor: Visitor,
        *,
        display: str | None = None,
        show_stats: bool | None = None,
        choices: dict[str, Any] | None = None,
    ) -> Visitor:
        assert visitor.account is not None
        try:
            account = await self.service.offload(
                self.store.update_account,
                visitor.account.id,
                display=display,
                show_stats=show_stats,
                choices=choices,
            )
        except StoreError as error:
            raise CommandError(409, str(error)) from None
        return replace(visitor, account=account)

    # -- claiming, logging in and out ------------------------------------------------------

    def _credentials(self, request: Any, data: object) -> tuple[str, str]:
        """The name and password of a claim or login, counted against the address's
        attempts."""
        if not isinstance(data, dict):
            raise CommandError(400, 'send {"name": "...", "password": "..."}')
        try:
            name = valid_player_name(data.get("name"))
        except StoreError as error:
            raise CommandError(400, str(error)) from None
        password = check_password(data.get("password"))
        self.tries.check(request)
        return name, password

    async def claim(self, request: Any, visitor: Visitor, data: object) -> Visitor:
        """``POST /api/player/claim {"name", "password"}``: the session's account becomes the
        name's, so that any browser that logs in with the password reaches its tables and
        statistics. The session gets a new token."""
        name, password = self._credentials(request, data)
        if name_key(name) == name_key(DEFAULT_PLAYER):
            raise CommandError(
                400, f"{DEFAULT_PLAYER} is every player without a name: choose another"
            )
        if visitor.account is not None and visitor.account.claimed:
            raise CommandError(
                409, f"you are {visitor.name} already: log out to claim another name"
            )
        if await self.service.offload(self.store.claimed_account, name) is not None:
            raise CommandError(
                409, f"the name {name} is claimed already: log in, or choose another"
            )
        if await self.service.offload(self.store.unclaimed_tables, name):
            raise CommandError(
                409,
                f"tables stored under the name {name} before sessions wait for their player: "
                "open this server in the browser that played them (it still has the old name "
                "cookie), or ask the server's administrator (patience admin claim-name)",
            )
        hashed = await self.service.run("passwords", visitor.quota, self.hasher.hash, password)
        visitor = await self.owner(visitor)
        assert visitor.account is not None
        try:
            account = await self.service.offload(
                self.store.claim_name, visitor.account.id, name, hashed
            )
        except StoreError as error:  # claimed meanwhile
            raise CommandError(409, str(error)) from None
        return await self._new_token(replace(visitor, account=account))

    async def login(self, request: Any, visitor: Visitor, data: object) -> Visitor:
        """``POST /api/player/login {"name", "password"}``: the session becomes the claimed
        name's (with a new token); the tables its anonymous account had go with it."""
        name, password = self._credentials(request, data)
        account = await self.service.offload(self.store.claimed_account, name)
        if account is None or account.password is None:
            raise CommandError(404, f"nobody has claimed the name {name}: claim it")
        if not await self.service.run(
            "passwords", visitor.quota, self._verify, account.password, password
        ):
            raise CommandError(403, f"wrong password for {account.display}")
        fresh = Visitor(secrets.token_urlsafe(32), account, visitor.address)
        old = visitor.token_hash if visitor.account is not None else None
        moved = await self.service.offload(
            self.store.switch_session, old, fresh.token_hash, account.id
        )
        self.service.give(moved, account.id)
        return fresh

    def _verify(self, hashed: str, password: str) -> bool:
        try:
            return self.hasher.verify(hashed, password)
        except (VerificationError, InvalidHashError):
            return False

    async def logout(self, visitor: Visitor) -> Visitor:
        """``POST /api/player/logout``: the session ends; the browser gets a new token that
        owns nothing. The name keeps its tables, reached again by logging in. Refused (409)
        to a session that has not claimed a name: nothing could bring its tables back."""
        if visitor.account is not None:
            if not visitor.account.claimed:
                raise CommandError(
                    409,
                    "you are not logged in to a name: claim one first, or your tables would be "
                    "out of reach for good",
                )
            await self.service.offload(self.store.end_session, visitor.token_hash)
        return Visitor(secrets.token_urlsafe(32), None, visitor.address)

    async def _new_token(self, visitor: Visitor) -> Visitor:
        assert visitor.account is not None
        fresh = Visitor(secrets.token_urlsafe(32), visitor.account, visitor.address)
        await self.service.offload(
            self.store.switch_session, visitor.token_hash, fresh.token_hash, visitor.account.id
        )
        return fresh

    # -- statistics ------------------------------------------------------------------------

    async def stats(self, visitor: Visitor, name: str | None) -> dict[str, Any]:
        """``GET /api/stats?player=NAME``: the visitor's own statistics (no name, or his own),
        or those of a claimed name whose player shows them; refused otherwise (404: no such
        claimed name; 403: its statistics are private)."""
        own = visitor.account
        if name:
            try:
                name = valid_player_name(name)
            except StoreError as error:
                raise CommandError(400, str(error)) from None
            key = name_key(name)
            if own is None or own.key != key:
                other = await self.service.offload(self.store.claimed_account, name)
                shown = None if own is None or own.display is None else name_key(own.display)
                if other is None and shown == key:
                    return await self.service.stats(own, visitor.name)  # his unclaimed name
                if other is None:
                    raise CommandError(
                        404, f"nobody has claimed the name {name}: only claimed names are found"
                    )
                if not other.show_stats:
                    raise CommandError(403, f"the statistics of {other.display} are private")
                return await self.service.stats(other, other.display or name)
        return await self.service.stats(own, visitor.name)
