"""Print the README's quick-start commands, one per line: the lines of the first fenced
block under the "## Quick start" heading (tests/test_readme_quickstart.py checks that there are
exactly two, the install-and-run one first)."""
import re
import sys
from pathlib import Path


def quickstart(readme: str) -> list[str]:
    m = re.search(r"^## Quick start\s*$(.*?)^## ", readme, re.M | re.S)
    if not m:
        raise SystemExit("README.md: no '## Quick start' section")
    block = re.search(r"^```[a-z]*\n(.*?)^```", m.group(1), re.M | re.S)
    if not block:
        raise SystemExit("README.md: the quick start has no fenced block")
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    for line in quickstart((root / "README.md").read_text()):
        sys.stdout.write(line + "\n")
