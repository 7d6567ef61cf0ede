"""The boards' template language: Jinja2, through Django's own Jinja2 backend.

A table's board is rendered for every socket on every move, so its templates (every region, the
pieces they share, the replay's hands) are Jinja2 templates under templates/jinja2/: compiled to
Python once, they render two to three times faster than the same markup in Django's language
(`bench.pushes`). Pages, chat, stats and admin stay in Django's templates.

What the boards' templates have besides Jinja2's own:
- `x.name` reads a dict's key before its attribute, as Django's templates do (a dict whose key
  is `items` or `count` gives the value, not the method), and so does changes.step.
- `piece("template", name=value, ...)`: a piece of a region rendered with exactly these values
  and nothing else, once per process for every viewer and version that passes the very same
  values (games/boards/pieces.py).
- `static(path)`, `url(name, *args)`, and `token(t, size)` (a Cakehalla ingredient's picture).
- `wide_table(label)`, called around a table (`{% call %}`): its sideways-scrolling box and hint.
- Filters as Django's: `pluralize`, `floatformat`, `capfirst`.
- Jinja2's i18n extension on Django's catalogues: `_("...")`, `gettext`, `ngettext` (new style:
  `_("%(n)s left", n=x)`, escaped) and `{% trans %}...{% endtrans %}` (trimmed), in the language
  active as the board renders (a page's request's, a socket's person's: games/live/push_threads.py);
  the renders kept are keyed by it (renders.py, pieces.py).
- A missing name or key is empty, and so is anything read under it (Django's templates again).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sized
from functools import lru_cache
from typing import Any, SupportsFloat, cast

import jinja2
from django.conf import settings
from django.template import engines
from django.templatetags.static import static as static_url
from django.urls import get_script_prefix, reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString
from jinja2.utils import concat
from markupsafe import Markup

from games.boards import folding, pieces
from games.boards.plain import plain, written


class BoardEnvironment(jinja2.Environment):
    """Jinja2 whose `x.name` reads a dict's key first (as Django's templates and changes.step),
    and which compiles each template once per language, its constant words already in it
    (folding.py), and keeps them by language and name in a plain dict."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.compiled: dict[tuple[str | None, str], jinja2.Template] = {}

    def getattr(self, obj: object, attribute: str) -> object:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)

    def template(self, name: str) -> jinja2.Template:
        """The template of that name in the language being rendered, compiled once (no weak
        reference made and no lock taken per lookup, as get_template's cache does: a socket's
        push looks up dozens)."""
        language = speaking()
        found = self.compiled.get((language, name))
        if found is None:
            found = self.compiled[(language, name)] = self.compile_in(name, language)
        return found

    def compile_in(self, name: str, language: str | None) -> jinja2.Template:
        """The template of that name compiled with its constant words in `language`."""
        assert self.loader is not None
        source, filename, uptodate = self.loader.get_source(self, name)
        try:
            tree = self._parse(source, name, filename)
        except jinja2.TemplateSyntaxError:
            self.handle_exception(source=source)  # raises, with the template's own lines
        with translation.override(language), pieces.speaking(language):
            folding.fold(tree, words, forms)
        tree.set_environment(self)
        code = self.compile(tree, name, filename)
        return self.template_class.from_code(self, code, self.make_globals(None), uptodate)

    def _load_template(
        self, name: str, globals: MutableMapping[str, Any] | None
    ) -> jinja2.Template:
        """get_template's (an include's, Django's backend's for a page): by language too."""
        template = self.template(name)
        if globals:
            template.globals.update(globals)
        return template


class BoardVars(dict[str, object]):
    """A board's context with the environment's globals already in it, made once per viewer, so
    each template rendered with it is handed it as it is instead of a merged copy. No board
    context key is a global's name (tests/boards/test_shared_renders.py)."""

    @classmethod
    def of(cls, values: Mapping[str, object]) -> BoardVars:
        """These values over the boards' globals."""
        merged = cls(board_environment().globals)
        merged.update(values)
        return merged


@lru_cache(maxsize=1024)
def static(path: str) -> str:
    """A static file's URL, kept per process: the regions ask for a few on every push (a card's
    once, when its piece is first drawn: pieces.py); docs/performance.md has the figures."""
    return static_url(path)


def url(name: str, *args: object) -> str:
    """A URL by its name and arguments, as {% url %} gives it."""
    return _url(get_script_prefix(), name, args)


@lru_cache(maxsize=4096)
def _url(prefix: str, name: str, args: tuple[object, ...]) -> str:
    return reverse(name, args=args)


def token(t: Mapping[str, object], size: int = 20) -> SafeString:
    """A Cakehalla ingredient token `t` (its name, art and label) as an image `size` pixels
    square: a board shows dozens, each drawn once per process."""
    return token_image(str(t["name"]), str(t["art"]), str(t["label"]), int(size))


@lru_cache(maxsize=512)
def token_image(name: str, art: str, label: str, size: int) -> SafeString:
    """The <img> of one token at one size."""
    return format_html(
        '<img class="tok tok-{}" src="{}" alt="{}" width="{}" height="{}">',
        name,
        static(art),
        label,
        size,
        size,
    )


def pluralize(value: object, suffix: str = "s") -> str:
    """ "s" unless the count (a number, or a sized value's length) is one, as Django's filter;
    "y,ies" gives the singular and the plural ending."""
    singular, _, plural = suffix.rpartition(",")
    if isinstance(value, Sized) and not isinstance(value, str):
        count: object = len(value)
    else:
        count = value
    try:
        one = float(cast("SupportsFloat | str", count)) == 1  # or TypeError, ValueError
    except (TypeError, ValueError):
        return ""
    return singular if one else plural


def floatformat(value: object, places: int = -1) -> str:
    """A number with `places` decimals (a negative count: only if it has a fraction), as
    Django's filter."""
    from django.template.defaultfilters import floatformat as django_floatformat

    return str(django_floatformat(value, places))


def capfirst(value: object) -> str:
    """The text with its first letter a capital (the rest untouched, unlike `capitalize`)."""
    text = str(value)
    return text[:1].upper() + text[1:]


def piece_renderer(env: BoardEnvironment) -> Callable[..., Markup]:
    """The `piece` global of this environment (see the module's docstring)."""

    def piece(template: str, /, **values: object) -> Markup:
        seen = written(values)
        if seen is None:
            seen = plain(values)

        def render() -> str:
            return render_template(env.template(template), values)

        return cast(Markup, pieces.render_piece(template, seen, render))

    return piece


def wide_table_renderer(env: BoardEnvironment) -> Callable[..., Markup]:
    """The `wide_table` global: `{% call wide_table("label") %}<table>…</table>{% endcall %}`, the
    macro of templates/jinja2/_wide_table.html, a global so that a region pays no import for it
    on every render (an import made a results region's render twice as slow)."""

    def wide_table(label: str, *, caller: Callable[[], str]) -> Markup:
        macro = env.template("_wide_table.html").module.wide_table  # type: ignore[attr-defined]
        return cast(Markup, macro(label, caller=caller))

    return wide_table


def board_environment() -> BoardEnvironment:
    """The environment of the boards' templates (settings.TEMPLATES, "boards")."""
    # The stubs type engines[...] as BaseEngine; the "boards" backend is Jinja2's, with an env.
    env: BoardEnvironment = engines["boards"].env  # type: ignore[attr-defined]
    return env


def compile_all() -> int:
    """Compile every board template now, in each of the site's languages; how many templates.
    A serving process does it before it serves (bakery_site/asgi.py, warm_up): after a deploy,
    the first boards it pushes would wait for it."""
    env = board_environment()
    names = env.list_templates()
    for language, _ in settings.LANGUAGES:
        with pieces.speaking(language):
            for name in names:
                env.template(name)
    return len(names)


def render_template(template: jinja2.Template, context: Mapping[str, object]) -> Markup:
    """A compiled template rendered with this context and the environment's globals (BoardVars
    as they are; anything else merged once, not twice as Template.render does), as HTML that
    neither language escapes again."""
    values = context if type(context) is BoardVars else {**template.globals, **context}
    try:
        return Markup(concat(template.root_render_func(template.new_context(values, shared=True))))
    except Exception:
        return template.environment.handle_exception()  # raises with the template's own lines


def render_plain(template: str, context: Mapping[str, object]) -> str:
    """A board template rendered for a socket (no request: no CSRF token, nothing of a session)."""
    return render_template(board_environment().template(template), context)


def speaking() -> str:
    """The language of the words being rendered: the region's (pieces.speaking), else Django's."""
    return pieces.language() or translation.get_language()


def filled(words: str, variables: Mapping[str, object]) -> Markup:
    """The words (HTML: a translator's is trusted as the source's) with their variables put in,
    each escaped, as Jinja2's new-style gettext does."""
    return Markup(words) % variables if variables or "%" in words else Markup(words)


def board_gettext(message: str, /, **variables: object) -> Markup:
    """`_()`, `gettext` and a `{% trans %}` block the template did not let folding.py fold:
    Django's gettext, new style (its variables put in escaped)."""
    return filled(translation.gettext(message), variables)


def board_ngettext(singular: str, plural: str, num: int, /, **variables: object) -> Markup:
    """`ngettext` and a `{% trans %}` block with `{% pluralize %}`, as board_gettext (`num` is a
    variable too)."""
    variables.setdefault("num", num)
    return filled(translation.ngettext(singular, plural, num), variables)


def board_pgettext(context: str, message: str, /, **variables: object) -> Markup:
    """`pgettext`, as board_gettext."""
    return filled(translation.pgettext(context, message), variables)


def board_npgettext(
    context: str, singular: str, plural: str, num: int, /, **variables: object
) -> Markup:
    """`npgettext`, as board_ngettext."""
    variables.setdefault("num", num)
    return filled(translation.npgettext(context, singular, plural, num), variables)


def words(name: str, constants: tuple[str, ...], variables: bool) -> Markup:
    """folding.Words: a constant call's words in the language active, as the call gives them
    with no variables (the very same function), or else before its variables go in."""
    if name == "pgettext":
        context, message = constants
        return (
            board_pgettext(context, message)
            if not variables
            else Markup(translation.pgettext(context, message))
        )
    (message,) = constants
    return board_gettext(message) if not variables else Markup(translation.gettext(message))


def forms(name: str, constants: tuple[str, ...], num: int) -> Markup:
    """folding.Forms: a plural's words for this count in the language active, before its
    variables go in."""
    if name == "npgettext":
        context, singular, plural = constants
        return Markup(translation.npgettext(context, singular, plural, num))
    singular, plural = constants
    return Markup(translation.ngettext(singular, plural, num))


def fill_words(words: Markup, /, **variables: object) -> Markup:
    """A folded call with variables whose words folding.py could not cut: its words, already in
    the template's language, with the variables put in, escaped."""
    return filled(words, variables)


def environment(**options: Any) -> jinja2.Environment:
    """The boards' environment (settings.TEMPLATES names it)."""
    options["undefined"] = jinja2.ChainableUndefined
    options["auto_reload"] = False  # as Django's cached loader: a changed template needs a restart
    options["extensions"] = [*options.get("extensions", ()), "jinja2.ext.i18n"]
    env = BoardEnvironment(**options)
    env.policies["ext.i18n.trimmed"] = True
    # New-style gettext (variables as keywords, escaped), installed as they are rather than
    # through install_gettext_callables' wrappers: this environment always escapes.
    assert env.autoescape is True
    env.newstyle_gettext = True  # type: ignore[attr-defined]  # the i18n extension reads it
    env.globals.update(
        gettext=board_gettext,
        _=board_gettext,
        ngettext=board_ngettext,
        pgettext=board_pgettext,
        npgettext=board_npgettext,
    )
    env.globals[folding.FILL] = fill_words
    env.filters.update(pluralize=pluralize, floatformat=floatformat, capfirst=capfirst)
    env.globals.update(static=static, url=url, token=token, piece=piece_renderer(env))
    env.globals.update(wide_table=wide_table_renderer(env))
    return env
