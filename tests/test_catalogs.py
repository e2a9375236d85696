"""Issue 17 "A check that nothing is left": every text the code and the templates mark for translation is in the
French and Spanish catalogs, translated (no empty and no fuzzy entry, every plural form, the same placeholders),
and the templates in scope hold no English outside `{% trans %}` / `_()`.

The extraction runs here exactly as the README's `pybabel extract` does (babel.cfg, the same keywords), so a text
added to the code without updating the catalogs fails this test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from jinja2 import Environment

import app.i18n as i18n

ROOT = Path(__file__).resolve().parents[1]
TRANSLATED = [language for language in i18n.LANGUAGES if language != i18n.DEFAULT]
# The keywords the README's `pybabel extract` passes: gettext's own, and every refusal class (its message is
# the second argument; the web layer translates it).
KEYWORDS = {
    "_": None, "gettext": None, "ngettext": (1, 2), "N_": None,
    **{name: (2,) for name in ("PlayError", "NotFound", "NotAllowed", "Conflict", "Invalid", "NotSignedIn",
                               "TooMany", "IllegalMove", "ConfigError")},
}
# Words that are names, not English: the site's and the game's names, and what a program reads.
NAMES = re.compile(r"Carson City Online|Carson City|Gold\s+(?:&amp;\s+)?Guns|Big Box|POST /api/v1/[\w/ ]*|"
                   r"\{\"username\": \"\.\.\.\"\}|VP|UTC")


def catalog(language: str) -> Catalog:
    with (i18n.LOCALE_DIR / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po)


def extracted() -> set[str]:
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found = set()
    for _, _, message, _, _ in extract_from_dir(str(ROOT), method_map, options_map, keywords=KEYWORDS):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


@pytest.fixture(scope="module")
def sources() -> set[str]:
    return extracted()


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_marked_text_is_in_the_catalog(language: str, sources: set[str]) -> None:
    ids = {m.id[0] if isinstance(m.id, tuple) else m.id for m in catalog(language) if m.id}
    assert sorted(sources - ids) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_entry_is_untranslated_or_fuzzy(language: str) -> None:
    entries = [m for m in catalog(language) if m.id]
    untranslated = [m.id for m in entries
                    if not m.string or (isinstance(m.string, tuple) and not all(m.string))]
    fuzzy = [m.id for m in entries if m.fuzzy]
    assert untranslated == [] and fuzzy == []
    assert len(entries) > 300


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_the_placeholders(language: str) -> None:
    """Babel's own checks: the same `%(name)s` fields, the right number of plural forms."""
    problems = [(m.id, [str(e) for e in errors]) for m, errors in catalog(language).check()]
    braces = [m.id for m in catalog(language) if m.id
              for single, translated in zip(_forms(m.id), _forms(m.string), strict=False)
              if set(re.findall(r"\{\w+\}", single)) - set(re.findall(r"\{\w+\}", translated))]
    assert problems == [] and braces == []


def _forms(text: str | tuple[str, ...]) -> tuple[str, ...]:
    return text if isinstance(text, tuple) else (text,)


def _text_outside_translation(template: Path) -> list[str]:
    """The words a template prints literally: its source without the `{% trans %}` blocks, the Jinja tags and
    expressions, the HTML tags and entities, and the names."""
    source = template.read_text()
    Environment(extensions=["jinja2.ext.i18n"]).parse(source)  # a template Jinja cannot read fails here
    text = re.sub(r"{%-?\s*trans\b.*?endtrans\s*-?%}", " ", source, flags=re.S)
    text = re.sub(r"{#.*?#}|{%.*?%}|{{.*?}}", " ", text, flags=re.S)
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    text = re.sub(r"<[^>]*>", " ", text, flags=re.S)
    text = re.sub(r"&\w+;|&#\d+;", " ", text)
    return re.findall(r"[A-Za-z]{2,}", NAMES.sub(" ", text))


IN_SCOPE = sorted(
    str(path.relative_to(ROOT / "templates"))
    for path in (ROOT / "templates").rglob("*")
    if path.suffix in (".html", ".txt")
)


@pytest.mark.parametrize("name", IN_SCOPE)
def test_templates_hold_no_english_outside_the_catalog(name: str) -> None:
    assert _text_outside_translation(ROOT / "templates" / name) == []


def test_the_check_sees_english_left_in_a_template(tmp_path: Path) -> None:
    """The scan above is not blind: a sentence outside `{% trans %}` is found, one inside is not."""
    page = tmp_path / "page.html"
    page.write_text('<p>{% trans %}Hello {{ name }}{% endtrans %}</p><p title="x">Good morning</p>')
    assert _text_outside_translation(page) == ["Good", "morning"]
