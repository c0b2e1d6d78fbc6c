"""Changing one step of a procedure without copying it: a variant's ``body`` (or the flow's
``main``) given as a list of step edits instead of the whole DSL text.

A *step* is a top-level statement of the body (the statements ``;`` separates outside any
braces). A step is named, in this order of preference, by the first flow procedure it calls
(``activate_buildings``), else by the variable its ``let`` or assignment sets
(``current_phase``), else by the first function it calls (``discard_rows``), else by its
first word. A name two steps
share takes ``#2``, ``#3`` ... from its second step on (``draw_card#2``). The edits::

    body:
      - {after: discard_rows, insert: "bonus_round()"}     # a new step after a step
      - {before: setup, insert: "announce()"}              # ... before a step
      - {replace: activate_buildings, with: "skip()"}      # one step in place of another
      - {remove: gondola_bonus}                            # no such step

apply in order, each to the body the one before left (docs/variants.md, "Changing a procedure").

>>> body = "setup();\\nlet w = first(order);\\nfor p in order { score(p) };\\nend_game()"
>>> steps = split_steps(body, procedures={"setup", "end_game"})
>>> [s.name for s in steps]
['setup', 'w', 'score', 'end_game']
>>> result = edit_steps(body, [{"after": "w", "insert": "bonus()"}, {"remove": "score"}], {"setup", "end_game"})
>>> print(result.text)
setup();
let w = first(order);
bonus();
end_game()
>>> result = edit_steps(body, [{"replace": "scroe", "with": "x = 1"}], {"setup", "end_game"})
>>> print(result.problems[0].message)
no step 'scroe' in the body (did you mean 'score'?); its steps: setup, w, score, end_game
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any, NamedTuple

from ..errors import did_you_mean

#: The keys of one edit: where it applies and what it puts there.
EDITS = {"before": "insert", "after": "insert", "replace": "with", "remove": None}

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_SET = re.compile(r"^(?:let\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\]\s*)?(?:=(?!=)|\+=|-=)")
_KEYWORDS = frozenset({"if", "else", "for", "in", "repeat", "while", "let", "return", "not", "and", "or", "choose"})


class Step(NamedTuple):
    """One top-level statement of a body: its name and its text's span (``;`` left out)."""

    name: str
    start: int
    end: int


class StepProblem(NamedTuple):
    """Why edit number ``edit`` of the list cannot apply (``key``: the key of the edit at
    fault); ``shape``: the edit is written wrongly (what the overlay schema says too)."""

    edit: int
    key: str
    message: str
    shape: bool = False


#: Where a character of an edited body comes from: ``("", n)`` character n of the base's
#: body, ``("3/insert", n)`` character n of the ``insert`` text of edit 3.
Origin = tuple[str, int]


class Edited(NamedTuple):
    """A body after its step edits, the problems of the edits that did not apply, and
    where each character of the text comes from (what locates a problem in it)."""

    text: str
    problems: list[StepProblem]
    origin: list[Origin]


def is_step_edits(value: Any) -> bool:
    """Whether ``value`` is a list of step edits (each a mapping with one of the edit keys)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(e, dict) and any(k in e for k in EDITS) for e in value)
    )


def split_steps(text: str, procedures: Collection[str] = ()) -> list[Step]:
    """The top-level statements of DSL ``text``, each named (see the module's docs)."""
    spans: list[tuple[int, int]] = []
    depth, start, i = 0, 0, 0
    while i < len(text):
        char = text[i]
        if char in "\"'":  # a string: up to its unescaped closing quote
            i += 1
            while i < len(text) and text[i] != char and text[i] != "\n":
                i += 2 if text[i] == "\\" else 1
        elif char == "#":  # a comment: to the end of the line
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        elif char in "{([":
            depth += 1
        elif char in "})]":
            depth -= 1
        elif char == ";" and depth == 0:
            spans.append((start, i))
            start = i + 1
        i += 1
    spans.append((start, len(text)))
    steps: list[Step] = []
    seen: dict[str, int] = {}
    for begin, end in spans:
        code = _code(text[begin:end])
        if not code:
            continue
        name = _name(code, procedures)
        seen[name] = seen.get(name, 0) + 1
        end = begin + len(text[begin:end].rstrip())  # a step ends at its last character
        steps.append(Step(name if seen[name] == 1 else f"{name}#{seen[name]}", begin, end))
    return steps


def _code(text: str) -> str:
    """A statement's text without its comment lines and surrounding space."""
    return "\n".join(line for line in text.splitlines() if not line.strip().startswith("#")).strip()


def _name(code: str, procedures: Collection[str]) -> str:
    calls = [m.group(1) for m in _CALL.finditer(code) if m.group(1) not in _KEYWORDS]
    called = next((c for c in calls if c in procedures), None)
    if called is not None:
        return called
    setting = _SET.match(code)
    if setting is not None:
        return setting.group(1)
    if calls:
        return calls[0]
    word = _NAME.search(code)
    return word.group(0) if word else "step"


def edit_steps(text: str, edits: list[Any], procedures: Collection[str] = ()) -> Edited:
    """``text`` with ``edits`` applied in order (see the module's docs)."""
    problems: list[StepProblem] = []
    origin: list[Origin] = [("", i) for i in range(len(text))]
    for index, edit in enumerate(edits):
        ops = [k for k in EDITS if k in edit]
        if len(ops) != 1:
            problems.append(
                StepProblem(
                    index, "", "a step edit names one of before, after, replace or remove; found " + _keys(edit), True
                )
            )
            continue
        op = ops[0]
        content_key = EDITS[op]
        allowed = {op, content_key} - {None}
        extra = [k for k in edit if k not in allowed]
        content = edit.get(content_key) if content_key else ""
        if extra or (content_key and not (isinstance(content, str) and content.strip())):
            want = f"{{{op}: <step>" + (f", {content_key}: <DSL>}}" if content_key else "}")
            problems.append(StepProblem(index, op, f"expected {want}; found {_keys(edit)}", True))
            continue
        steps = split_steps(text, procedures)
        names = [s.name for s in steps]
        target = edit[op]
        if target not in names:
            problems.append(
                StepProblem(
                    index,
                    op,
                    f"no step {target!r} in the body{did_you_mean(str(target), names)}; its steps: {', '.join(names)}",
                )
            )
            continue
        step = steps[names.index(target)]
        traced = _Traced(text, origin)
        _apply(traced, step, op, _Traced.of(str(content), f"{index}/{content_key}"))
        text, origin = traced.text, traced.origin
    return Edited(text, problems, origin)


class _Traced:
    """A text with the origin of each character, changed by slices."""

    def __init__(self, text: str, origin: list[Origin]):
        self.text, self.origin = text, origin

    @staticmethod
    def of(content: str, source: str) -> _Traced:
        return _Traced(content, [(source, i) for i in range(len(content))])

    def part(self, start: int, end: int | None = None) -> _Traced:
        return _Traced(self.text[start:end], self.origin[start:end])

    def glue(self, text: str) -> _Traced:
        """Characters no file wrote (a ';', a line break): they take the origin before them."""
        last = self.origin[-1] if self.origin else ("", 0)
        return _Traced(text, [last] * len(text))

    def splice(self, start: int, end: int, new: list[_Traced]) -> None:
        """Characters ``start`` to ``end`` replaced by the parts ``new``."""
        self.text = self.text[:start] + "".join(t.text for t in new) + self.text[end:]
        self.origin = self.origin[:start] + [o for t in new for o in t.origin] + self.origin[end:]


def _apply(text: _Traced, step: Step, op: str, content: _Traced) -> None:
    """``text`` with one edit done at ``step``: ``content`` re-indented as the step is."""
    own = text.text[step.start : step.end]
    lead = own[: len(own) - len(own.lstrip())]  # the line break and indent before the step
    indent = lead.rsplit("\n", 1)[-1] if "\n" in lead else ""
    lines: list[_Traced] = []
    offset = 0
    for line in content.text.splitlines(keepends=True):
        body = line.rstrip("\n")
        if body.strip():
            lines.append(content.part(offset, offset + len(body)))
        offset += len(line)
    if lines:  # (none for a removal)
        first = lines[0].text
        lines[0] = lines[0].part(len(first) - len(first.lstrip()))
    inserted: list[_Traced] = []
    for n, traced in enumerate(lines):
        inserted += [inserted[-1].glue("\n" + indent), traced] if n else [traced]
    before = text.part(0, step.start)
    if op == "before":
        text.splice(step.start, step.start, [before.glue(lead), *inserted, inserted[-1].glue(";")])
    elif op == "after":
        text.splice(step.end, step.end, [text.part(0, step.end).glue(";\n" + indent), *inserted])
    elif op == "replace":
        text.splice(step.start, step.end, [before.glue(lead), *inserted])
    elif step.end < len(text.text):  # remove: the step and the ';' that ends it
        text.splice(step.start, step.end + 1, [])
    else:  # the last step: and the ';' before it
        text.splice(max(0, text.text.rfind(";", 0, step.start)), step.end, [])


def _keys(edit: Any) -> str:
    return ", ".join(map(str, edit)) if isinstance(edit, dict) else repr(edit)
