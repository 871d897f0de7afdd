"""The command line's parser, speaking the operator's language.

``boardctl --help``, each command's help, its usage line and argparse's own
complaints ("the following arguments are required") come out in the operator's
language: the terminal's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``),
else the board's. The command modules mark their help texts with ``M_``; argparse
marks its own words with gettext's ``_``, looked up at the moment it says them, and
:class:`Parser` answers those lookups from boardctl's catalogs while it parses.

The language is found only when something is said (a configuration is read for
the board's language only then), so parsing a command line that is right costs
nothing more.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn

from boardctl.message import M_, Message

#: argparse's own words a person reads (its help, usage and error messages), kept
#: here so that ``make messages`` finds them for the catalogs
ARGPARSE_WORDS = (
    M_("usage: "),
    M_("positional arguments"),
    M_("options"),
    M_("show this help message and exit"),
    M_("show program's version number and exit"),
    M_("%(prog)s: error: %(message)s\n"),
    M_("the following arguments are required: %s"),
    M_("unrecognized arguments: %s"),
    M_("invalid choice: %(value)r (choose from %(choices)s)"),
    M_("argument %(argument_name)s: %(message)s"),
    M_("invalid %(type)s value: %(value)r"),
    M_("expected one argument"),
    M_("expected at most one argument"),
    M_("expected at least one argument"),
    M_("ambiguous option: %(option)s could match %(matches)s"),
    M_("not allowed with argument %s"),
    M_("one of the arguments %s is required"),
    M_("ignored explicit argument %r"),
)


def operator_language() -> str:
    """The terminal's language, else the board's (``[board] language``)."""
    from boardctl import i18n
    from boardctl.cli.control_cmds import _board_language

    return i18n.from_environment() or _board_language()


def operators_words() -> Callable[[str], str]:
    """A function that gives a text (a Message, or a catalog's msgid) in the
    operator's language, found at the first text it is given."""
    return _in(operator_language)


def _in(code: Callable[[], str]) -> Callable[[str], str]:
    """A function that gives a text in the language ``code()`` names (asked once,
    at the first text): a Message with its parameters, or a catalog's msgid."""

    @functools.cache
    def language() -> str:
        return code()

    def words(text: str) -> str:
        from boardctl import i18n

        with i18n.language(language()):
            if isinstance(text, Message):
                return i18n.translate(text)
            return i18n.translation(language()).gettext(text)

    return words


class _Translating(argparse.HelpFormatter):
    """A help formatter that says each heading, description, help and the usage
    prefix in the operator's language (mixed in before the formatter a parser asks for)."""

    def __init__(self, prog: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(prog, *args, **kwargs)
        self._words = _in(operator_language)

    def add_usage(
        self,
        usage: str | None,
        actions: Any,
        groups: Any,
        prefix: str | None = None,
    ) -> None:
        super().add_usage(
            usage, actions, groups, self._words("usage: ") if prefix is None else prefix
        )

    def start_section(self, heading: str | None) -> None:
        super().start_section(self._words(heading) if heading else heading)

    def add_text(self, text: str | None) -> None:
        # a description or epilog marked for translation; not the version's own words
        super().add_text(self._words(text) if isinstance(text, Message) else text)

    def _get_help_string(self, action: argparse.Action) -> str:
        help_text = super()._get_help_string(action)
        return self._words(help_text) if help_text else ""


def _translating(formatter: type[argparse.HelpFormatter]) -> type[argparse.HelpFormatter]:
    if issubclass(formatter, _Translating):
        return formatter
    return type(f"Translating{formatter.__name__}", (_Translating, formatter), {})


@contextmanager
def _argparse_speaks(words: Callable[[str], str]) -> Iterator[None]:
    """argparse's own complaints, said while it parses, through ``words`` (argparse
    looks up its gettext functions, ``_`` and ``ngettext``, each time it speaks)."""
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]

    def plural(singular: str, plural: str, n: int) -> str:
        return words(singular if n == 1 else plural)

    argparse._ = words  # type: ignore[attr-defined]
    argparse.ngettext = plural  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


class Parser(argparse.ArgumentParser):
    """An argument parser whose help, usage and errors (its subcommands' too: they
    are made of this class) are in the operator's language."""

    def _get_formatter(self) -> argparse.HelpFormatter:
        formatter: type[argparse.HelpFormatter] = self.formatter_class  # type: ignore[assignment]
        return _translating(formatter)(prog=self.prog)

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> argparse.Namespace:
        with _argparse_speaks(_in(operator_language)):
            return super().parse_args(args, namespace)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> tuple[argparse.Namespace, list[str]]:
        with _argparse_speaks(_in(operator_language)):
            return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        with _argparse_speaks(_in(operator_language)):
            super().error(message)
