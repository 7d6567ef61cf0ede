"""Sentences a person reads that the Python code hands out unmarked for translation.

The app modules (games/, accounts/, bakery_site/) are read as their AST. A string constant (or an
f-string's text, each `{...}` a placeholder) that looks like a sentence a person reads (a capital
letter first, or a placeholder and a word ("{name} is made: ..."), a space, letters, and an end:
. : ? ! or a placeholder), or any string given to
a label's name (verbose_name, help_text, an admin action's description: NAMED_WORDS), is
unmarked unless it is
inside a call of the gettext family, a docstring, a logger's call, the message of an exception
for programmers (ValueError and its kind: a person reads Http404's, PermissionDenied's and
ValidationError's) or of an assert.

Not read: tests, migrations, the engines (pure Python, they mark with N_ and say codes), the API
and the live streams (programs read their JSON and NDJSON in English: docs/architecture.md,
"Languages"), management commands (an operator's English), and this gate's own modules.

The deliberate ones (a name, a program's word that looks like a sentence) are listed with why in
locale/unmarked-code-allowed.txt as `path: text`; a listed entry no longer found is a problem too.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = ("accounts", "bakery_site", "games")
SKIPPED_PARTS = {"tests", "migrations", "management", "engines", "api"}
"""Folders whose strings are not a person's sentences (module docstring)."""
SKIPPED_FILES = {
    "accounts/tokens.py",  # the API's tokens: a program's JSON refusals, English
    "accounts/oauth/keys.py",  # an app's token at the API: the same refusals, English
    "accounts/oauth/validator.py",  # OAuth2's error descriptions, for the app's programmer
    "games/live/streams.py",  # the API's NDJSON streams, English
    "bakery_site/unmarked.py",
    "bakery_site/unmarked_code.py",
    "bakery_site/catalogues.py",  # the translators' tool: its words are for developers
}
ALLOWED = ROOT / "locale" / "unmarked-code-allowed.txt"

MARKERS = {
    "gettext",
    "gettext_lazy",
    "gettext_noop",
    "N_",
    "_",
    "ngettext",
    "ngettext_lazy",
    "ngettext_noop",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "npgettext_lazy",
    "format_lazy",
}
LOGGERS = re.compile(r"(^|_)(log|logger|logging|LOG|LOGGER|warnings)$")
LOG_METHODS = {"debug", "info", "warning", "warn", "error", "exception", "critical", "log"}
FOR_PROGRAMMERS = {
    "ValueError",
    "TypeError",
    "RuntimeError",
    "AssertionError",
    "NotImplementedError",
    "KeyError",
    "LookupError",
    "IndexError",
    "AttributeError",
    "ImproperlyConfigured",
    "SystemExit",
    "OSError",  # a connection refused (push_delivery): logged, never shown
    "DoesNotExist",  # Model.DoesNotExist: a caller's bug, never shown
    "TransactionManagementError",
}
NAMED_WORDS = {
    "verbose_name",
    "verbose_name_plural",
    "help_text",
    "short_description",
    "description",
}
"""Names whose string a person reads however short (admin's and forms' labels): any letter in it
is a word to mark."""
PLACEHOLDER = "\u00a7"
"""What an f-string's `{...}` leaves in its text."""
SENTENCE = re.compile(
    r"^([A-Z][^\W\d_]*|(§|%\(\w+\)s|\{\w*\})('s)? [a-z])(?=.*\s)(?=.*[^\W\d_]{2}).*"
    r"([.:?!]|%\(\w+\)[sd]|%[sd]|\{\w*\}|" + PLACEHOLDER + r")[\"')\]]*$",
    re.S,
)
CODE_LIKE = re.compile(r"^[A-Z_]+$|^(SELECT|INSERT|UPDATE|DELETE|WITH) |[<>\\]|https?://|\w\.\w+\(")
"""Not a sentence: a constant's name, SQL, HTML, a pattern, an address, code."""


def python_files() -> Iterator[Path]:
    for top in CODE:
        for path in sorted((ROOT / top).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if SKIPPED_PARTS.isdisjoint(path.relative_to(ROOT).parts[:-1]) and (
                name not in SKIPPED_FILES
            ):
                yield path


def looks_like_sentence(text: str) -> bool:
    text = text.strip()
    return bool(SENTENCE.match(text)) and not CODE_LIKE.search(text)


def callee(node: ast.Call) -> tuple[str, str]:
    """A call's name and what it is called on (`logger.info` gives ("info", "logger"))."""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id, ""
    if isinstance(func, ast.Attribute):
        owner = func.value
        if isinstance(owner, ast.Name):
            return func.attr, owner.id
        if isinstance(owner, ast.Attribute):
            return func.attr, owner.attr
        return func.attr, ""
    return "", ""


def exempt(node: ast.AST) -> bool:
    """A node whose strings are marked, or are not for a person to read."""
    if isinstance(node, ast.Call):
        name, owner = callee(node)
        if name in MARKERS:
            return True
        if name in LOG_METHODS and LOGGERS.search(owner):
            return True
        if owner == "warnings" or name in {"getLogger", "print"}:
            return True
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call | ast.Name):
        exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        if isinstance(exc, ast.Name) and exc.id in FOR_PROGRAMMERS:
            return True
        if isinstance(exc, ast.Attribute) and exc.attr in FOR_PROGRAMMERS:
            return True
    return isinstance(node, ast.Assert)


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstrings' nodes, and of a bare string under an assignment (an
    attribute's docstring, as this project writes them)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for statement in body:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                found.add(id(statement.value))
    return found


def named_words(node: ast.AST) -> ast.Constant | ast.JoinedStr | None:
    """A string given to a name in NAMED_WORDS (`verbose_name = "Games"`, `help_text="..."`)."""
    value: ast.expr | None = None
    if isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = {t.id if isinstance(t, ast.Name) else getattr(t, "attr", "") for t in targets}
        if names & NAMED_WORDS:
            value = node.value
    elif isinstance(node, ast.keyword) and node.arg in NAMED_WORDS:
        value = node.value
    if isinstance(value, ast.JoinedStr) or (
        isinstance(value, ast.Constant) and isinstance(value.value, str)
    ):
        return value
    return None


def text_of(node: ast.Constant | ast.JoinedStr) -> str:
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else ""
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts.append(value.value)
        else:
            parts.append(PLACEHOLDER)
    return "".join(parts)


def unmarked_in_source(source: str) -> list[tuple[int, str]]:
    """A module's unmarked sentences, with their lines."""
    tree = ast.parse(source)
    skip = docstrings(tree)
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        if exempt(node):
            return
        named = named_words(node)
        if named is not None:
            text = text_of(named)
            if re.search(r"[^\W\d_]", text):
                found.append((named.lineno, " ".join(text.split())))
            return
        if isinstance(node, ast.JoinedStr | ast.Constant):
            text = text_of(node)
            if id(node) not in skip and looks_like_sentence(text):
                found.append((node.lineno, " ".join(text.split())))
            return  # an f-string's parts are read as one text
        if isinstance(node, ast.Call) and callee(node)[0] == "format":
            owner = node.func.value if isinstance(node.func, ast.Attribute) else None
            if isinstance(owner, ast.Call) and exempt(owner):
                return  # gettext("...").format(...) is marked
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def allowed() -> set[str]:
    lines = ALLOWED.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def unmarked_code() -> list[str]:
    """One sentence for each unmarked sentence of the app code not on the allow-list, and for
    each allow-list entry no longer found."""
    allow = allowed()
    seen: set[str] = set()
    said: list[str] = []
    for path in python_files():
        name = path.relative_to(ROOT).as_posix()
        for line, text in unmarked_in_source(path.read_text(encoding="utf-8")):
            entry = f"{name}: {text}"
            if entry in allow:
                seen.add(entry)
            else:
                said.append(f"{name}:{line}: {text!r} is not marked for translation.")
    for entry in sorted(allow - seen):
        said.append(f"{ALLOWED.name}: {entry!r} is not found any more: take it off.")
    return said


if __name__ == "__main__":
    print("\n".join(unmarked_code()))
