"""The engine's public API as other layers use it: importable without Django, every name there."""

import subprocess
import sys

import game.engine as engine


def test_the_engine_imports_without_django():
    code = (
        "import sys; sys.modules['django'] = None; import game.engine; "
        "assert not any(m.startswith('django') and sys.modules[m] for m in sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_api_names_of_the_common_brief_exist():
    names = """ParseError RuleError DEFAULT_DEAL_KEY parse_code random_code deal_for_code
        new_game tap undo set_placement_help replay public_view parse_target solve Event"""
    for name in names.split():
        assert hasattr(engine, name), name


def test_the_default_deal_key_is_the_public_development_key():
    assert engine.DEFAULT_DEAL_KEY == "heart-to-heart-public-development-deal-key"


def test_events_compare_equal_to_their_names():
    assert [str(e) for e in engine.Event] == [
        "selected",
        "deselected",
        "pair",
        "draw",
        "redeal",
        "mismatch",
        "none",
    ]
    assert engine.Event.PAIR == "pair"
