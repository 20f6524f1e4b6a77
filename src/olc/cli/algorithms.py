"""``olc algorithms [NAME]``: the catalogue's learners, or one learner's card."""
import json
from typing import Optional

import typer

from ..learners.registry import UnknownAlgorithmError, algorithms, info
from .support import fail, terminal_width


def algorithms_cmd(
    name: Optional[str] = typer.Argument(None, metavar="[NAME]",
                                         help="Show this learner's card: description, "
                                              "parameters with defaults and constraints, "
                                              "references."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
):
    """List the learners (name, kind, citation), or show one learner's card."""
    if name is not None:
        try:
            info(name)
        except UnknownAlgorithmError as exc:
            fail(exc)
        from ..learners.registry.cards import card_data, card_lines

        if as_json:
            typer.echo(json.dumps(card_data(name), default=str, ensure_ascii=False, indent=2))
        else:
            typer.echo("\n".join(card_lines(name, terminal_width())))
        return
    if as_json:
        entries = [{"name": e.name, "class": e.class_name, "kind": e.kind,
                    "summary": e.summary, "citation": e.citation,
                    "references": list(e.references), "parameters": e.parameters,
                    "fixed": dict(e.preset)} for e in algorithms()]
        typer.echo(json.dumps(entries, default=str, ensure_ascii=False, indent=2))
        return
    from ..learners.registry.cards import listing_lines

    typer.echo("\n".join(listing_lines()))
    typer.echo("\nolc algorithms NAME: one learner's card (parameters, references).")
