"""The documents a newcomer reads hold together: a short README with a contents list, and no dead links.

Every relative link (and image) in README.md, EVALUATION.md, CHANGELOG.md and docs/*.md must name a file of the
repository, and a link with a ``#fragment`` a heading of that file (GitHub's anchors). Links inside code are not
links; links to other sites are not checked (the tests run offline).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
README_MAX_LINES = 500
FIRST_SCREENS = 100
"""What a new user needs first (install, a first chat, the tests) is in this many lines of the README."""

PAGES_FROM_OTHER_BRANCHES = {"docs/slot-types.md"}
"""Pages linked here that another branch writes (merged separately): absent until then, checked once present."""

FENCE = re.compile(r"^(```|~~~)")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE = re.compile(r"(`+).+?\1")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def documents() -> list[Path]:
    return [README, ROOT / "EVALUATION.md", ROOT / "CHANGELOG.md", *sorted(DOCS.glob("*.md"))]


def prose_lines(path: Path) -> list[str]:
    """The file's lines outside fenced code blocks (code inside them is not markdown)."""
    lines, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: a link's text kept, lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor; a repeated heading gets -1, -2, ... as on GitHub."""
    seen: Counter[str] = Counter()
    found = set()
    for line in prose_lines(path):
        match = HEADING.match(line)
        if match:
            base = anchor(match.group(2))
            found.add(base if not seen[base] else f"{base}-{seen[base]}")
            seen[base] += 1
    return found


def links(path: Path) -> list[str]:
    found = []
    for line in prose_lines(path):
        found.extend(LINK.findall(INLINE_CODE.sub("", line)))
    return found


def local(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE)


def test_the_checks_read_links_and_anchors_as_github_does() -> None:
    assert anchor("Results (dev split, 5,322 dialogues, 37,420 labelled wizard actions)") == (
        "results-dev-split-5322-dialogues-37420-labelled-wizard-actions"
    )
    assert anchor("A shared model server (`--model-server`)") == "a-shared-model-server---model-server"
    assert anchor("2026-11-25: the flow's own examples (`wish`)") == "2026-11-25-the-flows-own-examples-wish"
    line = "see [the format](docs/flow-format.md#a-flow-in-brief) and `[not](a-link.md)`, ![shot](docs/a.png)"
    assert LINK.findall(INLINE_CODE.sub("", line)) == ["docs/flow-format.md#a-flow-in-brief", "docs/a.png"]
    assert not local("https://github.com/pytransitions/transitions") and local("../RELIABILITY.md#commands")


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; move a subject to docs/"


def test_the_readme_starts_with_install_a_first_chat_and_the_tests() -> None:
    first = "\n".join(README.read_text(encoding="utf-8").splitlines()[:FIRST_SCREENS])
    for command in ("pip install -e '.[dev]'", "fsmdial chat flows/", "pytest -q"):
        assert command in first, f"{command!r} is not in the README's first {FIRST_SCREENS} lines"


def test_the_readme_has_a_contents_list_of_its_sections() -> None:
    lines = prose_lines(README)
    assert "## Contents" in lines, "README.md has no '## Contents' section"
    start = lines.index("## Contents") + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("## "))
    listed = [target[1:] for line in lines[start:end] for target in LINK.findall(line) if target.startswith("#")]
    assert listed, "the contents list links no section"
    sections = [anchor(m.group(2)) for line in lines if (m := HEADING.match(line)) and len(m.group(1)) == 2]
    sections.remove("contents")
    assert listed == sections, "the contents list must name every section (##) of the README, in order"
    missing = [target for target in listed if target not in anchors(README)]
    assert not missing, f"contents entries with no heading: {missing}"


def test_docs_has_a_page_per_subject() -> None:
    pages = sorted(DOCS.glob("*.md"))
    assert len(pages) >= 4, f"docs/ has {len(pages)} pages"


@pytest.mark.parametrize("document", documents(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_resolves(document: Path) -> None:
    broken = []
    for target in filter(local, links(document)):
        name, _, fragment = target.partition("#")
        path = (document.parent / unquote(name)).resolve() if name else document
        relative = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
        if not path.exists():
            if relative not in PAGES_FROM_OTHER_BRANCHES:
                broken.append(f"{target}: no file {relative}")
            continue
        if fragment and path.suffix == ".md" and unquote(fragment) not in anchors(path):
            broken.append(f"{target}: no heading #{fragment} in {relative}")
    assert not broken, "\n".join(broken)
