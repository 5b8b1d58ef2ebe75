"""The settings file is the user's: read key by key, rewritten value by value, never lost
(flightsim/app/settings.py)."""
import logging

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from flightsim.app.settings import Settings, load_settings, save_settings

USER = """# my flightsim: cockpit view, quiet vario
view = "cockpit"        # I fly from the cockpit
vario_muted = true
my_own_note = "left alone"

[liveries]
p51d = "big_beautiful_doll"
"""


def _load(p, caplog):
    with caplog.at_level(logging.WARNING, logger="flightsim.app.settings"):
        s = load_settings(p)
    return s, [r.getMessage() for r in caplog.records if r.name == "flightsim.app.settings"]


@pytest.mark.parametrize("bad, key", [('quality = "ultra"', "quality"), ("record_flights = 3", "record_flights"),
                                      ("last_scenario = 12", "last_scenario"), ("quality = nan", "quality"),
                                      ('keys = "dvorak"', "keys")])
def test_a_bad_key_falls_back_alone_with_a_message(tmp_path, caplog, bad, key):
    p = tmp_path / "settings.toml"
    p.write_text(USER.replace("vario_muted = true\n", f"vario_muted = true\n{bad}\n"))
    s, msgs = _load(p, caplog)
    assert s.view == "cockpit" and s.vario_muted is True and s.liveries == {"p51d": "big_beautiful_doll"}
    assert getattr(s, key) == getattr(Settings(), key)
    assert len([m for m in msgs if f": {key}: " in m and str(p) in m]) == 1


def test_saving_keeps_comments_order_and_unknown_keys_and_backs_up(tmp_path, caplog):
    p = tmp_path / "settings.toml"
    p.write_text(USER.replace("vario_muted = true\n", 'vario_muted = true\nquality = "ultra"\n'))
    s, _ = _load(p, caplog)
    before = p.read_text()
    s.last_scenario = "ridge"
    assert save_settings(s, p) == p
    after = p.read_text()
    assert "# my flightsim: cockpit view, quiet vario" in after and "# I fly from the cockpit" in after
    assert 'my_own_note = "left alone"' in after and 'quality = "auto"' in after and 'last_scenario = "ridge"' in after
    assert after.index("view") < after.index("vario_muted") < after.index("[liveries]")
    assert (tmp_path / "settings.toml.bak").read_text() == before
    assert load_settings(p) == s
    assert not list(tmp_path.glob("*.tmp"))              # no temporary file left (its name has the pid)


def test_nothing_changed_nothing_written(tmp_path):
    p = tmp_path / "settings.toml"
    p.write_text(USER)
    save_settings(load_settings(p), p)
    assert p.read_text() == USER and not (tmp_path / "settings.toml.bak").exists()


def test_a_file_that_is_not_toml_keeps_its_readable_lines_and_is_backed_up(tmp_path, caplog):
    p = tmp_path / "settings.toml"
    text = '# mine\nview = "cockpit"\nview = 3\nthis is not toml\nvario_muted = true\n'
    p.write_text(text)
    s, msgs = _load(p, caplog)
    assert s.view == "cockpit" and s.vario_muted is True
    assert any("not valid TOML" in m for m in msgs) and any("line 4" in m for m in msgs)
    save_settings(s, p)
    assert (tmp_path / "settings.toml.bak").read_text() == text
    assert "# mine" in p.read_text() and load_settings(p) == s


def test_binary_garbage_gives_defaults_and_survives_as_the_backup(tmp_path, caplog):
    p = tmp_path / "settings.toml"
    garbage = bytes(range(256))
    p.write_bytes(garbage)
    s, msgs = _load(p, caplog)
    assert s == Settings() and len(msgs) == 1
    save_settings(Settings(view="orbit"), p)
    assert (tmp_path / "settings.toml.bak").read_bytes() == garbage
    assert load_settings(p).view == "orbit"


def test_a_changed_livery_is_written_into_its_table(tmp_path):
    p = tmp_path / "settings.toml"
    p.write_text(USER)
    s = load_settings(p)
    s.liveries = {"p51d": "plain", "spitfire": "raf_1944"}
    save_settings(s, p)
    assert load_settings(p) == s and "# I fly from the cockpit" in p.read_text()


_lines = st.sampled_from(['view = "cockpit"', 'view = 3', 'quality = "low"', 'quality = "ultra"', "vario_muted = true",
                          'vario_muted = "no"', "# a comment", "", "[liveries]", 'p51d = "plain"', "p51d = 7",
                          'last_scenario = "ridge"', "garbage here", "record_flights = false", "x.y = 1",
                          'liveries = 5', "[other]", 'view = """cock', "\u00e9t\u00e9 = 1"])


@hsettings(max_examples=150, deadline=None)
@given(st.lists(_lines, max_size=12))
def test_any_file_loads_and_saves_to_what_was_read(tmp_path_factory, lines):
    """Whatever the file holds: loading never raises, and saving what was loaded (with one
    change) reads back as exactly that, the old file kept as the backup."""
    d = tmp_path_factory.mktemp("s")
    p = d / "settings.toml"
    text = "\n".join(lines) + "\n"
    p.write_text(text)
    s = load_settings(p)
    s.last_scenario = "thermal"
    assert save_settings(s, p) == p
    assert load_settings(p) == s
    assert (d / "settings.toml.bak").read_text() == text
