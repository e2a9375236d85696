"""French elides "de" before a name that starts with a vowel: "le cow-boy d'ann", not "de ann" (issue 25, the
small things). The rule changes only the names put in: every text of the French catalog is left as it is."""

from __future__ import annotations

from babel.messages.pofile import read_po
from jinja2 import Environment

from app.i18n import LOCALE_DIR, elide, gettext, install, speaking


def test_de_before_a_vowel_is_elided_in_french_only() -> None:
    assert elide("la place de ann", "fr") == "la place d'ann"
    assert elide("Enchère de Éloïse", "fr") == "Enchère d'Éloïse"
    assert elide("le cow-boy de bob", "fr") == "le cow-boy de bob"
    assert elide("Propriété de hugo", "fr") == "Propriété de hugo"  # an h may be aspirated: left alone
    assert elide("le code allemand", "fr") == "le code allemand"  # "de" inside a word is no article
    assert elide("Vaquero de ann", "es") == "Vaquero de ann"
    assert elide("Cowboy of ann", "en") == "Cowboy of ann"


def test_every_text_of_the_french_catalog_is_left_alone() -> None:
    with (LOCALE_DIR / "fr" / "LC_MESSAGES" / "messages.po").open("rb") as source:
        catalog = read_po(source)
    texts = [t for m in catalog if m.id for t in (m.string if isinstance(m.string, tuple) else (m.string,)) if t]
    assert len(texts) > 1000
    assert [t for t in texts if elide(t, "fr") != t] == []


def test_names_put_into_french_sentences_are_elided_in_code_and_in_templates() -> None:
    env = Environment(autoescape=True)
    install(env)
    with speaking("fr"):
        assert gettext("Cowboy of {player}").format(player="ann") == "Cow-boy d'ann"
        page = env.from_string(
            "{% trans name=who %}Property of {{ name }}{% endtrans %} | "
            "{{ _('Cowboy of {player}').format(player=who) }}"
        ).render(who="ann")
        assert page == "Propriété d'ann | Cow-boy d'ann"
        assert env.from_string("{{ _('Cowboy of {player}').format(player=who) }}").render(who="ann<b>") \
            == "Cow-boy d'ann&lt;b&gt;"  # still escaped
    with speaking("es"):
        assert "de ann" in gettext("Cowboy of {player}").format(player="ann")
