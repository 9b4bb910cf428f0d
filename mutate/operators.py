"""Mutants of a module: small, type-correct changes to its syntax tree, each with a stable id.

A mutant's id names the file, the function and the changed source text, not line numbers, so
the list of equivalent mutants survives edits elsewhere in the file.
"""

from __future__ import annotations

import ast
import copy
import difflib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace

from mutate.targets import ROOT, Target

Path_ = tuple[tuple[str, int | None], ...]

COMPARE_FLIPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
BINOP_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
}
DELETABLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Raise, ast.Assert)


@dataclass(frozen=True)
class Mutant:
    target: str
    path: str
    qualname: str
    operator: str
    lineno: int
    end_lineno: int
    in_function: bool
    before: str
    after: str
    node_path: Path_
    replacement: ast.AST
    after_lines: str
    """The mutated source lines, as written into the file."""
    key: str = ""

    def tree(self, module: ast.Module) -> ast.Module:
        """The module's tree with this mutant applied (a copy)."""
        tree = copy.deepcopy(module)
        parent: ast.AST = tree
        for field, index in self.node_path[:-1]:
            value = getattr(parent, field)
            parent = value if index is None else value[index]
        field, index = self.node_path[-1]
        if index is None:
            setattr(parent, field, copy.deepcopy(self.replacement))
        else:
            getattr(parent, field)[index] = copy.deepcopy(self.replacement)
        return ast.fix_missing_locations(tree)

    def diff(self, source: str) -> str:
        """The mutant as a unified diff against the file (one line of context)."""
        old = source.splitlines(keepends=True)
        new = [*old[: self.lineno - 1], self.after_lines, *old[self.end_lineno :]]
        return "".join(difflib.unified_diff(old, new, f"a/{self.path}", f"b/{self.path}", n=1))


def _is_docstring(node: ast.AST, parent: ast.AST, index: int | None) -> bool:
    return (
        index == 0
        and isinstance(parent, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _replacements(node: ast.AST, in_function: bool) -> Iterator[tuple[str, ast.AST]]:
    """Every (operator name, replacement node) for ``node``."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            flipped = COMPARE_FLIPS.get(type(op))
            if flipped is not None:
                new = copy.deepcopy(node)
                new.ops[i] = flipped()
                yield "compare", new
    elif isinstance(node, ast.BoolOp):
        yield (
            "and/or",
            ast.BoolOp(op=ast.Or() if isinstance(node.op, ast.And) else ast.And(), values=node.values),
        )
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield "drop not", node.operand
    elif isinstance(node, ast.BinOp) and type(node.op) in BINOP_SWAPS:
        yield "arithmetic", ast.BinOp(left=node.left, op=BINOP_SWAPS[type(node.op)](), right=node.right)
    elif isinstance(node, ast.AugAssign) and type(node.op) in BINOP_SWAPS:
        yield (
            "arithmetic",
            ast.AugAssign(target=node.target, op=BINOP_SWAPS[type(node.op)](), value=node.value),
        )
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        yield "boolean", ast.Constant(value=not node.value)
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        yield "constant", ast.Constant(value=node.value + 1)
        yield "constant", ast.Constant(value=node.value - 1)
    if in_function and isinstance(node, DELETABLE):
        if isinstance(node, ast.AnnAssign) and node.value is None:
            return
        yield ("delete raise" if isinstance(node, ast.Raise) else "delete statement"), ast.Pass()


class _Source:
    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines(keepends=True)

    def splice(self, node: ast.AST, replacement: ast.AST) -> tuple[str, str]:
        """The original lines of ``node`` and the same lines with ``replacement`` written in."""
        first, last = node.lineno - 1, node.end_lineno - 1  # type: ignore[attr-defined]
        head = self.lines[first].encode()[: node.col_offset]  # type: ignore[attr-defined]
        tail = self.lines[last].encode()[node.end_col_offset :]  # type: ignore[attr-defined]
        written = ast.unparse(replacement)
        if isinstance(replacement, ast.expr) and not isinstance(replacement, ast.Constant | ast.Name):
            written = f"({written})"
        before = "".join(self.lines[first : last + 1])
        return before, head.decode() + written + tail.decode()


def _squash(text: str) -> str:
    return " ".join(text.split())


def mutants_of(target: Target) -> list[Mutant]:
    source = _Source((ROOT / target.path).read_text(encoding="utf-8"))
    module = ast.parse(source.text)
    found: list[Mutant] = []

    def walk(node: ast.AST, path: Path_, qualname: str, in_function: bool, annotation: int) -> None:
        # ``annotation``: 0 outside one, 1 inside, 2 inside a call in one, where only a constraint's
        # numbers are rules (``Annotated[int, Field(ge=1, le=4)]``).
        if isinstance(node, ast.JoinedStr):
            return
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            qualname = f"{qualname}.{node.name}" if qualname else node.name
            in_function = in_function or not isinstance(node, ast.ClassDef)
        wanted = target.wants(qualname) and (in_function or not target.functions)
        if annotation == 1 and isinstance(node, ast.Call):
            annotation = 2
        if wanted and path and annotation != 1:
            for operator, replacement in _replacements(node, in_function):
                before, after = source.splice(node, replacement)
                found.append(
                    Mutant(
                        target=target.name,
                        path=target.path,
                        qualname=qualname or "<module>",
                        operator=operator,
                        lineno=node.lineno,  # type: ignore[attr-defined]
                        end_lineno=node.end_lineno,  # type: ignore[attr-defined]
                        in_function=in_function,
                        before=_squash(before),
                        after=_squash(after),
                        node_path=path,
                        replacement=replacement,
                        after_lines=after,
                    )
                )
        for field, value in ast.iter_fields(node):
            if field == "decorator_list":
                continue
            inner = max(annotation, 1) if field in ("annotation", "returns") else annotation
            items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
            for index, child in items:
                if isinstance(child, ast.AST) and not _is_docstring(child, node, index):
                    walk(child, (*path, (field, index)), qualname, in_function, inner)

    walk(module, (), "", False, 0)
    return _with_keys(found)


def _with_keys(mutants: list[Mutant]) -> list[Mutant]:
    """Give each mutant its id; the same change twice in one function is told apart by ``#2``, ``#3``."""
    seen: Counter[str] = Counter()
    keyed = []
    for mutant in mutants:
        base = f"{mutant.path}::{mutant.qualname}: {mutant.before} => {mutant.after}"
        seen[base] += 1
        key = base if seen[base] == 1 else f"{base} #{seen[base]}"
        keyed.append(replace(mutant, key=key))
    return keyed


def module_tree(target: Target) -> ast.Module:
    return ast.parse((ROOT / target.path).read_text(encoding="utf-8"))
