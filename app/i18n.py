"""The languages the site speaks, their message catalogs, and the language of the moment.

The catalogs are Babel's: `app/locale/<lang>/LC_MESSAGES/messages.po`, extracted from the Python code and the
templates (see the README, "Languages"). Their compiled `.mo` files are not kept in git: `compile_catalogs()` writes
them at start-up whenever one is missing or older than its `.po`, and a catalog whose `.mo` cannot be written (a
read-only install) is compiled in memory instead, so a fresh clone speaks every language without a build step.

Which language a piece of code speaks in is a context variable: the web layer sets it per request (the account's
setting, else the footer switcher's cookie, else the browser's Accept-Language, else English), the mail worker
per recipient (`speaking`). `gettext` and `ngettext` translate into it. Like the settings, this module sits outside
the layers: every layer that speaks to people (the mails, the pages) reads it, and it imports nothing of ours.
"""

from __future__ import annotations

import gettext as stdlib_gettext
import io
import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any, cast

from babel.dates import format_datetime
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

log = logging.getLogger(__name__)

# Each language in its own words, as the footer's switcher and the settings page offer it. The first is the
# source language of the code and templates, and the one spoken when nothing else fits.
LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "es": "Español"}
DEFAULT = "en"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"

_language: ContextVar[str] = ContextVar("language", default=DEFAULT)


def N_(message: str) -> str:
    """Mark `message` for the catalogs without translating it: for texts defined once and translated where they
    are shown, in the language of that moment."""
    return message


def _paths(language: str, directory: Path) -> tuple[Path, Path]:
    folder = directory / language / "LC_MESSAGES"
    return folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"


def _compiled(po: Path) -> bytes:
    with po.open("rb") as source:
        catalog = read_po(source)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def _is_stale(po: Path, mo: Path) -> bool:
    return not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime


def compile_catalogs(directory: Path = LOCALE_DIR) -> list[str]:
    """Write the `.mo` of every catalog whose `.mo` is missing or older than its `.po`; returns the languages
    compiled. A directory that cannot be written is left alone (the catalogs are then compiled in memory)."""
    done = []
    for language in LANGUAGES:
        po, mo = _paths(language, directory)
        if not po.exists() or not _is_stale(po, mo):
            continue
        try:
            mo.write_bytes(_compiled(po))
        except OSError as exc:
            log.warning("catalog %s not compiled to disk (%s); it is compiled in memory", language, exc)
            continue
        done.append(language)
    translations.cache_clear()
    return done


@cache
def translations(language: str) -> stdlib_gettext.NullTranslations:
    """The compiled catalog of `language` (read once per process); English and unknown languages translate
    nothing."""
    po, mo = _paths(language, LOCALE_DIR)
    if language == DEFAULT or not po.exists():
        return stdlib_gettext.NullTranslations()
    data = _compiled(po) if _is_stale(po, mo) else mo.read_bytes()
    return stdlib_gettext.GNUTranslations(io.BytesIO(data))


def current() -> str:
    """The language spoken now (a code of LANGUAGES)."""
    return _language.get()


def use(language: str) -> None:
    """Speak `language` from now on in this context (a request: its middleware resets it at the end)."""
    _language.set(supported(language) or DEFAULT)


@contextmanager
def speaking(language: str | None) -> Iterator[None]:
    """Speak `language` (English if None or unknown) inside the block, e.g. while one recipient's mail is
    written."""
    token = _language.set(supported(language or "") or DEFAULT)
    try:
        yield
    finally:
        _language.reset(token)


def gettext(message: str) -> str:
    """`message` in the language spoken now (in French, a text whose `format` elides: see `elide`)."""
    return _eliding(translations(current()).gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of `singular`/`plural` for `n` in the language spoken now (French says "1 partie", "0 partie")."""
    return _eliding(translations(current()).ngettext(singular, plural, n))


# Elisions a language makes where a name is put into a sentence, by language: French writes "la place d'ann", not
# "de ann", before a vowel (not before an h, which may be aspirated). The catalogs' own texts are elided already
# (a test checks that this rule leaves every one of them alone), so only the names put in are changed.
ELISIONS: dict[str, tuple[re.Pattern[str], str]] = {
    "fr": (re.compile(r"\b([Dd])e ([aeiouyàâäéèêëîïôöùûüæœ])", re.IGNORECASE), r"\1'\2"),
}


def elide(text: str, language: str | None = None) -> str:
    """`text` with the elisions of `language` (the one spoken now by default) made: "de ann" -> "d'ann"."""
    rule = ELISIONS.get(language or current())
    if rule is None:
        return text
    pattern, replacement = rule
    return pattern.sub(replacement, text)


class _Elided(str):
    """A translated text that elides once its fields are filled in (`format`, `%`)."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> str:
        return elide(str.format(self, *args, **kwargs))

    def __mod__(self, values: object) -> str:
        return elide(str.__mod__(self, values))


class _ElidedMarkup(Markup):
    """The templates' translated Markup, eliding as `_Elided` does (names are escaped before, as Markup does)."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> _ElidedMarkup:
        return _ElidedMarkup(elide(str(Markup.format(self, *args, **kwargs))))

    def __mod__(self, values: object) -> _ElidedMarkup:
        return _ElidedMarkup(elide(str(Markup.__mod__(self, values))))


def _eliding(text: str) -> str:
    return _Elided(text) if current() in ELISIONS else text


def install(environment: Environment) -> None:
    """Give a Jinja2 environment `{% trans %}`, `_()`, `gettext()` and `ngettext()` in the language of the moment.
    The new-style callables escape what they insert and fill `%(name)s` fields from keywords; `trimmed` lets a
    `{% trans %}` block span lines without the line breaks reaching the catalog."""
    environment.add_extension("jinja2.ext.i18n")
    environment.policies["ext.i18n.trimmed"] = True
    environment.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    for name in ("gettext", "ngettext", "_"):  # their Markup would drop the elisions: made again, eliding
        environment.globals[name] = _elides_markup(cast(Callable[..., str], environment.globals[name]))


# Texts without fields kept, per callable, as the templates' callables answered them: at most this many.
SAID_KEPT = 4096


def _elides_markup(translate: Callable[..., str]) -> Callable[..., str]:
    """A template's translation callable whose text elides, once filled in by the callable itself (`{% trans %}`)
    and again by a later `.format` (`_("Cowboy of {player}").format(...)`).

    A text without fields (`_("Your turn")`) gets the same answer every time in a language and an escaping mode,
    and the table's page asks for about two hundred of them: kept after the first answer (Jinja's callable, the
    catalog's and the eliding cost a fifth of the page's render otherwise)."""
    said: dict[tuple[str, bool, str], str] = {}

    def answer(context: Context, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
        text = translate(context, *args, **kwargs)
        if current() not in ELISIONS:
            return text
        return _ElidedMarkup(elide(str(text))) if isinstance(text, Markup) else _Elided(elide(text))

    @pass_context
    def translated(context: Context, *args: Any, **kwargs: Any) -> str:
        if kwargs or len(args) != 1 or type(args[0]) is not str:
            return answer(context, args, kwargs)
        key = (current(), bool(context.eval_ctx.autoescape), args[0])
        text = said.get(key)
        if text is None:
            text = answer(context, args, kwargs)
            if len(said) < SAID_KEPT:
                said[key] = text
        return text

    return translated


def format_moment(moment: datetime, pattern: str = "EEE d MMM y, HH:mm") -> str:
    """A moment in UTC, its day and month named in the language spoken now ("mar. 1 déc. 2026, 09:30 UTC")."""
    return f"{format_datetime(moment, pattern, tzinfo=UTC, locale=current())} UTC"


def supported(tag: str) -> str | None:
    """The language of LANGUAGES that a language tag asks for ("fr-CA" -> "fr"), or None."""
    primary = tag.strip().lower().replace("_", "-").split("-")[0]
    return primary if primary in LANGUAGES else None


_RANGE = re.compile(r"^\s*([A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$")


def negotiate(accept_language: str) -> str | None:
    """The best language of LANGUAGES for an Accept-Language header (RFC 9110: the highest weight first, then the
    order given; q=0 refuses), or None when it names none of them."""
    ranked = []
    for position, part in enumerate(accept_language.split(",")[:32]):
        match = _RANGE.match(part)
        if match is None:
            continue
        try:
            weight = float(match.group(2)) if match.group(2) is not None else 1.0
        except ValueError:
            continue
        language = supported(match.group(1))
        if language is not None and weight > 0:
            ranked.append((-weight, position, language))
    return min(ranked)[2] if ranked else None
