"""A page's forms read as a browser with no script reads them (a helper, not tests): each form's
method, action and the fields it would post, the ones it holds and the ones outside it that name
it (`form="its-id"`), and every element that asks a script to post (`hx-post`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

FIELD_TAGS = ("input", "select", "textarea")


@dataclass
class Control:
    """A submit button, or a field that posts whatever its form posts."""

    tag: str
    attrs: dict[str, str]
    text: str = ""

    @property
    def name(self) -> str:
        return self.attrs.get("name", "")


@dataclass
class Form:
    attrs: dict[str, str]
    fields: list[Control] = field(default_factory=list)
    buttons: list[Control] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.attrs.get("id", "")

    def posts(self, button: Control | None = None) -> dict[str, str]:
        """The fields a plain submit posts (by `button`, if given), as Django reads them: the
        last value of a name wins, the pressed button's after the fields before it."""
        posted = {c.name: c.attrs.get("value", "") for c in self.fields if c.name}
        if button is not None and button.name:
            posted[button.name] = button.attrs.get("value", "")
        return posted


class FormsOnPage(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.hx_posts: list[tuple[str, dict[str, str]]] = []  # (tag, attrs) of each hx-post
        self.outside: list[Control] = []  # fields that name their form by its id
        self.open: Form | None = None
        self.button: Control | None = None

    def handle_starttag(self, tag: str, raw: list[tuple[str, str | None]]) -> None:
        attrs = {k: v or "" for k, v in raw}
        if "hx-post" in attrs:
            self.hx_posts.append((tag, attrs))
        if tag == "form":
            self.open = Form(attrs)
            self.forms.append(self.open)
        elif tag in FIELD_TAGS and "disabled" not in attrs:
            control = Control(tag, attrs)
            if "form" in attrs:
                self.outside.append(control)
            elif self.open is not None and attrs.get("type") not in ("submit", "button"):
                self.open.fields.append(control)
        elif tag == "button":
            self.button = Control(tag, attrs)
            if self.open is not None and attrs.get("type", "submit") == "submit":
                self.open.buttons.append(self.button)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.open = None
        elif tag == "button":
            self.button = None

    def handle_data(self, data: str) -> None:
        if self.button is not None:
            self.button.text += data


def forms_on(html: str) -> list[Form]:
    """The page's forms, each with the fields outside it that name it."""
    page = FormsOnPage()
    page.feed(html)
    for control in page.outside:
        for form in page.forms:
            if form.id and form.id == control.attrs["form"]:
                form.fields.append(control)
    return page.forms


def script_posts(html: str) -> list[tuple[str, dict[str, str]]]:
    """Every element that asks a script to post (hx-post): tag and attributes."""
    page = FormsOnPage()
    page.feed(html)
    return page.hx_posts
