"""The README's quick start is two commands, and CI runs exactly those (read out of the README
by .ci/quickstart.py) in a fresh virtual environment."""
import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_quickstart():
    spec = importlib.util.spec_from_file_location("quickstart", ROOT / ".ci" / "quickstart.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.quickstart


def test_the_quick_start_is_two_commands_install_and_run_then_test():
    install_and_run, test = load_quickstart()((ROOT / "README.md").read_text())
    assert re.match(r'python -m pip install -e "\.\[test\]" && cardsim run \S+', install_and_run)
    assert test == "python -m pytest -q"


def test_ci_runs_the_readme_commands_in_a_fresh_venv():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python3 -m venv" in ci and "--system-site-packages" not in ci
    assert ".ci/quickstart.py" in ci
    assert "pip check" in ci


def test_the_reader_refuses_a_readme_without_a_quick_start():
    quickstart = load_quickstart()
    for text in ("# cardsim\n\nno such section\n", "## Quick start\n\nno block\n\n## Next\n"):
        try:
            quickstart(text)
        except SystemExit as e:
            assert "README.md" in str(e)
        else:
            raise AssertionError("accepted a README without quick-start commands")
    assert quickstart("## Quick start\n\n```bash\na\n\nb\n```\n\n## Next\n") == ["a", "b"]
