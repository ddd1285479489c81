"""Delta debugging over the generator's choice list.

A program is fully described by its list of integer choices (choices.py);
any list is valid, and smaller values / shorter lists mean simpler programs.
`shrink` searches for a shortlex-smaller list that is still "interesting"
(reproduces the same failure) by, in rounds until nothing changes or the
budget runs out:

1. cutting the list short (the tail becomes zeros = simplest options);
2. deleting chunks of 8, 4, 2 and 1 choices;
3. replacing each choice by 0, then by half of itself.
"""

import copy
import time

import cast


def shortlex_less(a, b):
    return (len(a), a) < (len(b), b)


class Shrinker:
    """Keeps the best list found and the budget."""

    def __init__(self, choices, interesting, budget_s=120.0, max_tests=400):
        self.best = list(choices)
        self.interesting = interesting
        self.deadline = time.monotonic() + budget_s
        self.tests_left = max_tests
        self.tests = 0
        self.seen = set()

    def exhausted(self):
        return self.tests_left <= 0 or time.monotonic() > self.deadline

    def attempt(self, cand):
        """Test a candidate; adopt it if interesting and simpler."""
        key = tuple(cand)
        if key in self.seen or not shortlex_less(cand, self.best) or self.exhausted():
            return False
        self.seen.add(key)
        self.tests += 1
        self.tests_left -= 1
        normalized = self.interesting(cand)
        if normalized is None:
            return False
        # the generator reports the choices it actually consumed
        self.best = list(normalized) if shortlex_less(list(normalized), cand) else list(cand)
        return True

    def pass_truncate(self):
        changed = False
        lo = 0
        while lo < len(self.best) and not self.exhausted():
            mid = (lo + len(self.best)) // 2
            if mid == len(self.best):
                break
            if self.attempt(self.best[:mid]):
                changed = True
            else:
                lo = mid + 1
        return changed

    def pass_delete(self):
        changed = False
        for size in (8, 4, 2, 1):
            i = len(self.best) - size
            while i >= 0 and not self.exhausted():
                if self.attempt(self.best[:i] + self.best[i + size:]):
                    changed = True
                i -= size
        return changed

    def pass_values(self):
        changed = False
        i = 0
        while i < len(self.best) and not self.exhausted():
            v = self.best[i]
            if v > 0:
                for new in (0, v // 2, v - 1):
                    if new < v and self.attempt(self.best[:i] + [new] + self.best[i + 1:]):
                        changed = True
                        break
            i += 1
        return changed

    def run(self):
        while not self.exhausted():
            changed = self.pass_truncate()
            changed |= self.pass_delete()
            changed |= self.pass_values()
            if not changed:
                break
        return self.best


def shrink(choices, interesting, budget_s=120.0, max_tests=400):
    """Return (best choice list, number of tests run).

    `interesting(cand)` returns the normalized choice list (what the
    generator consumed) when the candidate still fails the same way, else None.
    """
    s = Shrinker(choices, interesting, budget_s, max_tests)
    best = s.run()
    return best, s.tests


# ------------------------------------------------------------ AST reduction
#
# After the choice list is as small as the budget allows, the program's AST
# is reduced directly: statements are deleted (an if is also replaced by
# either branch) and subexpressions are replaced by one of their operands or
# by the constant 1.  All three dialects (f, f_chk, f_ld) are re-rendered from
# the edited AST, so they stay consistent.  An edit that breaks the program
# (an undeclared name, a libm domain error, a near tie) changes the outcome
# category, so the oracle itself rejects it.

STMT_LISTS = {cast.FuncDef: ("body",), cast.If: ("then", "other"),
              cast.For: ("body",), cast.While: ("body",)}
EXPR_SLOTS = {cast.Decl: ("expr",), cast.Assign: ("expr",), cast.Return: ("expr",),
              cast.If: ("cond",), cast.While: ("cond",), cast.Bin: ("a", "b"),
              cast.Neg: ("a",), cast.Select: ("cond", "a", "b"), cast.Call: ("args",),
              cast.HelperCall: ("args",), cast.Cmp: ("a", "b"), cast.Logic: ("a", "b"),
              cast.StructDecl: ("source",), cast.IndirectCall: ("args",),
              cast.StructLit: ("fields",), cast.FieldOf: ("base",)}
REPLACEABLE = (cast.Expr, cast.Logic)


def _children(node, table):
    """(container, key) pairs of node's slots named in table, in order."""
    for attr in table.get(type(node), ()):
        value = getattr(node, attr)
        if isinstance(value, list):
            for i in range(len(value)):
                yield value, i
        elif value is not None:
            yield node, attr


def _get(container, key):
    return container[key] if isinstance(container, list) else getattr(container, key)


def _set(container, key, value):
    if isinstance(container, list):
        container[key] = value
    else:
        setattr(container, key, value)


def stmt_sites(funcs):
    """(list, index) of every statement, pre-order."""
    out = []

    def visit(node):
        for attr in STMT_LISTS.get(type(node), ()):
            stmts = getattr(node, attr) or []
            for i, s in enumerate(stmts):
                out.append((stmts, i))
                visit(s)
    for fn in funcs:
        visit(fn)
    return out


def expr_sites(funcs):
    """(container, key) of every replaceable expression/condition, pre-order."""
    out = []

    def visit(node):
        for container, key in _children(node, EXPR_SLOTS):
            child = _get(container, key)
            if isinstance(child, REPLACEABLE):
                out.append((container, key))
            visit(child)
        for attr in STMT_LISTS.get(type(node), ()):
            for s in getattr(node, attr) or []:
                visit(s)
    for fn in funcs:
        visit(fn)
    return out


def stmt_edits(stmts, i, is_tail_return):
    """Candidate replacements (lists of statements) for stmts[i]."""
    s = stmts[i]
    if getattr(s, "keep", False) or isinstance(s, cast.ArrayDecl) or is_tail_return:
        return []
    edits = [[]]
    if isinstance(s, cast.If):
        edits += [s.then, s.other] if s.other else [s.then]
    return edits


def expr_edits(node):
    """Candidate replacements for an expression or condition."""
    if isinstance(node, cast.Logic):
        return [node.a, node.b]
    if getattr(node, "ty", None) in cast.STRUCTS:
        return []   # a struct value has no scalar operand or constant to become
    kids = [_get(c, k) for c, k in _children(node, EXPR_SLOTS)]
    kids = [k for k in kids if isinstance(k, cast.Expr) and k.ty not in cast.STRUCTS]
    if not isinstance(node, cast.Const):
        kids.append(cast.Const(1.0, node.ty))
    return kids


class AstReducer:
    """Greedy statement deletion, then expression simplification."""

    def __init__(self, parts, interesting, budget_s, max_tests):
        self.parts, self.interesting = parts, interesting
        self.deadline = time.monotonic() + budget_s
        self.tests_left = max_tests
        self.tests = 0

    def exhausted(self):
        return self.tests_left <= 0 or time.monotonic() > self.deadline

    def try_edit(self, sites_of, k, make):
        """Apply make(cand, site) to a copy at site k; adopt it if still failing."""
        cand = copy.deepcopy(self.parts)
        if not make(cand, sites_of(cand["funcs"])[k]):
            return False
        self.tests += 1
        self.tests_left -= 1
        if self.interesting(cand):
            self.parts = cand
            return True
        return False

    def _is_tail_return(self, stmts, i):
        return isinstance(stmts[i], cast.Return) and any(
            getattr(fn, "body", None) is stmts and i == len(stmts) - 1
            for fn in self.parts["funcs"])   # (funcs holds FnTables too, without a body)

    def pass_blocks(self):
        """Empty whole blocks at once (keeping a function's final return)."""
        changed = False
        k = 0
        while k < len(self._blocks(self.parts["funcs"])) and not self.exhausted():
            def make(cand, block):
                keep = [s for i, s in enumerate(block) if getattr(s, "keep", False)
                        or isinstance(s, cast.ArrayDecl)
                        or (i == len(block) - 1 and isinstance(s, cast.Return))]
                if len(keep) == len(block):
                    return False
                block[:] = keep
                return True
            if self.try_edit(self._blocks, k, make):
                changed = True
            k += 1
        return changed

    @staticmethod
    def _blocks(funcs):
        seen, out = set(), []
        for stmts, _ in stmt_sites(funcs):
            if id(stmts) not in seen:
                seen.add(id(stmts))
                out.append(stmts)
        return out

    def pass_statements(self):
        """Delete single statements (or replace an if by a branch), outer first."""
        changed = False
        k = 0
        while k < len(stmt_sites(self.parts["funcs"])) and not self.exhausted():
            stmts, i = stmt_sites(self.parts["funcs"])[k]
            adopted = False
            for n in range(len(stmt_edits(stmts, i, self._is_tail_return(stmts, i)))):
                def make(cand, site, n=n):
                    lst, j = site
                    lst[j:j + 1] = stmt_edits(lst, j, False)[n]
                    return True
                if self.try_edit(stmt_sites, k, make):
                    changed = adopted = True
                    break
            if not adopted:
                k += 1
        return changed

    def pass_expressions(self):
        changed = False
        k = 0
        while k < len(expr_sites(self.parts["funcs"])) and not self.exhausted():
            container, key = expr_sites(self.parts["funcs"])[k]
            for n in range(len(expr_edits(_get(container, key)))):
                def make(cand, site, n=n):
                    c, key2 = site
                    _set(c, key2, expr_edits(_get(c, key2))[n])
                    return True
                if self.try_edit(expr_sites, k, make):
                    changed = True
                    break
            k += 1
        return changed

    def run(self):
        self.pass_blocks()
        while not self.exhausted():
            changed = self.pass_statements()
            changed |= self.pass_expressions()
            if not changed:
                break
        return self.parts


def reduce_ast(parts, interesting, budget_s=60.0, max_tests=300):
    """Return (reduced parts, number of tests); interesting(parts) -> bool."""
    r = AstReducer(parts, interesting, budget_s, max_tests)
    return r.run(), r.tests
