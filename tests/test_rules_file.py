"""--rules-file: rule options from a TOML or JSON file give the same rules as the same options
on the command line, --rule overrides the file, and a bad file is one line naming it."""
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from cardsim.simulator.cli import main
from cardsim.simulator.games import get_game
from cardsim.simulator.rules import read_rules_file


def run_json(tmp_path, capsys, argv) -> dict:
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as e:
        main(["run", *argv, "--quiet", "--out", str(out)])
        raise SystemExit(0)
    assert e.value.code == 0, capsys.readouterr().err
    return json.loads((out / "run.json").read_text())


def test_toml_file_equals_command_line(tmp_path, capsys):
    f = tmp_path / "club.toml"
    f.write_text('game = "hand-and-foot"\n# our club\nmin_meld = [0, 60, 90, 120]\n'
                 'pickup_wild_top = true\ndraw_count = 3\n')
    a = run_json(tmp_path / "a", capsys, ["hand-and-foot", "--games", "3", "--rules-file",
                                          str(f)])
    b = run_json(tmp_path / "b", capsys, ["hand-and-foot", "--games", "3",
                                          "--rule", "min_meld=0,60,90,120",
                                          "--rule", "pickup_wild_top=true",
                                          "--rule", "draw_count=3"])
    assert a["rules"] == b["rules"]
    assert a["rules"]["min_meld"] == [0, 60, 90, 120] and a["rules"]["draw_count"] == 3


def test_json_file_and_rule_overrides_it(tmp_path, capsys):
    f = tmp_path / "rules.json"
    f.write_text(json.dumps({"players": 6, "hidden_trump": True, "max_bid": 40}))
    info = run_json(tmp_path, capsys, ["fifty-six", "--deals", "12", "--rules-file", str(f),
                                       "--rule", "max_bid=36"])
    assert info["rules"]["players"] == 6 and info["rules"]["hidden_trump"] is True
    assert info["rules"]["max_bid"] == 36  # the command line wins


def test_file_values_keep_the_sheet_s_none(tmp_path):
    rules = get_game("contract-rummy").rules
    f = tmp_path / "r.toml"
    f.write_text('max_contract_meld = "none"\nmin_run = 4\n')
    assert read_rules_file(f, rules) == ["max_contract_meld=none", "min_run=4"]
    assert rules.resolve(read_rules_file(f, rules))["min_run"] == 4


BAD = {
    "unknown.toml": ("nosuch = 3\n", "unknown rule 'nosuch'"),
    "value.toml": ("players = 99\n", "rule 'players'"),
    "game.toml": ('game = "contract-rummy"\n', "is for game 'contract-rummy'"),
    "table.toml": ("[players]\nx = 1\n", "must be a value or a list"),
    "float.toml": ("players = 4.5\n", "must be a value or a list"),
    "broken.toml": ("players = [\n", "not valid TOML"),
    "list.json": ("[1, 2]", "must hold key = value pairs"),
    "broken.json": ("{players: 4}", "not valid JSON"),
    "binary.toml": (b"\xff\xfe\x00", "cannot read it"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_rules_file_is_one_line_exit_2(tmp_path, capsys, name):
    body, needle = BAD[name]
    f = tmp_path / name
    f.write_bytes(body if isinstance(body, bytes) else body.encode())
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as e:
        main(["run", "fifty-six", "--deals", "5", "--rules-file", str(f), "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert e.value.code == 2 and len(err) == 1, err
    assert needle in err[0] and name in err[0], err
    assert not out.exists()


KEYS = ["players", "min_meld", "decks", "hidden_trump", "max_bid", "game", "contracts", "x", ""]
VALUES = st.one_of(st.integers(-5, 200), st.booleans(), st.text(max_size=8),
                   st.lists(st.integers(-1, 200), max_size=5), st.floats(allow_nan=False),
                   st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=4),
       game=st.sampled_from(["fifty-six", "hand-and-foot", "contract-rummy"]),
       raw=st.one_of(st.none(), st.binary(max_size=30)))
def test_random_rules_files_never_crash(tmp_path, capsys, doc, game, raw):
    f = tmp_path / "r.json"
    f.write_bytes(raw if raw is not None else json.dumps(doc).encode())
    out = tmp_path / "o"
    with pytest.raises(SystemExit) as e:
        main(["run", game, "--games", "1", "--rules-file", str(f), "--out", str(out),
              "--quiet"])
        raise SystemExit(0)
    err = capsys.readouterr().err.strip().splitlines()
    assert e.value.code in (0, 2), err
    if e.value.code == 2:
        assert len(err) == 1 and err[0].startswith("cardsim: error:"), err
        assert not (out / "run.json").exists()
    else:
        import shutil

        shutil.rmtree(out)
