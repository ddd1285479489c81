"""OpenMP parallel loops in generated programs (feature omp).

`mark(body, ch, arrays, arrlen)` walks the body of `f` (or a helper) and puts
`#pragma omp parallel for` (with `reduction`, `schedule` and `collapse(2)`
clauses as the shape allows and the choice stream draws) on the counted
`for` loops whose iterations are independent.  Only the plain dialect
prints the pragma (cast.For.render): the instrumented twins keep global
state (branch path, margins, ABSMAX) and stay serial, so the references
(finite differences, PRIMAL_CHK) are the serial program's.

Besides, now and then: `firstprivate` copies of scalars or array pointers
the loop only reads, `num_threads(2 or 3)`, and `if(n > k)` on the runtime
trip count (`extra_clauses`): they change how the region gets its data
and threads, not what it computes.

A loop is parallel only if `analyse` proves it race-free, from the AST:

* every scalar the body writes is declared inside the body (private), or
  is a reduction: a generic accumulator (`acc += e`, written once and never
  read in the body) or a variable a dedicated shape declared as one
  (`For.red`: `r *= e`, `r = fmax(r, e)`, ...), never a struct member;
* array elements: indices are integer code over loop counters and
  constants, evaluated for every iteration of the parallel loop (each
  value of its counter, or counter pair under collapse(2)) over every
  value of the counters nested inside it; the elements one iteration
  writes must be disjoint from those every other iteration reads or
  writes;
* no array is passed to a call (a helper may write the array it is
  given, anywhere: found by --tsan, seed 46), and an array the loop
  writes is not read through a table of array pointers (feature
  constptr: it may alias); no return, qsort, realloc, memcpy, free or
  pointer table inside the body;
* no parallel loop nests in another (only the outermost legal loop of a
  nest is a candidate).

`check(funcs, arrays, arrlen)` drops the pragma of any loop that no longer
passes (an AST-reduced program), so a reduced reproducer stays race-free.
"""

import itertools
import re

from cast import (Assign, ArrayDecl, Copy, Decl, Elem, For, Free, Grow, HelperCall, If,
                  IndirectCall, Return, Sort, StructDecl, TableDecl, Var, While, walk)

NMAX = 5   # grammar.NMAX: the largest runtime trip count n
SCHEDULES = ("", "schedule(static)", "schedule(static, 1)", "schedule(dynamic)",
             "schedule(dynamic, 2)", "schedule(guided)")
REJECT = (Return, Sort, Grow, Copy, Free, TableDecl, ArrayDecl)
IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9.]*")


def trip_top(bound, arrlen):
    """Largest trip count of a loop bound (C code), or None if unknown."""
    code = bound.strip()
    if code.isdigit():
        return int(code)
    values = {"n": NMAX, "m": arrlen}
    try:
        return int(eval(_pythonic(code, values), {"__builtins__": {}}))
    except Exception:
        return None


def _pythonic(code, values):
    """C integer code -> Python, identifiers replaced by `values` (KeyError
    on an unknown one). Operands are non-negative: / and % agree."""
    def sub(m):
        return str(values[m.group(0)])
    return IDENT.sub(sub, code).replace("/", "//")


def _elements(index, env, counters, arrlen):
    """Set of values of integer code `index` with `env` fixed and every
    counter in `counters` (name -> top) ranging over [0, top). None when the
    index uses a name that is neither."""
    names = set(IDENT.findall(index))
    free = sorted(n for n in names if n not in env and n != "m")
    if any(n not in counters for n in free):
        return None
    out = set()
    for combo in itertools.product(*(range(max(counters[n], 1)) for n in free)):
        values = dict(env, m=arrlen)
        values.update(zip(free, combo))
        try:
            out.add(eval(_pythonic(index, values), {"__builtins__": {}}))
        except Exception:
            return None
    return out


def _loops(node):
    """For and While nodes inside `node` (list), not `node` itself."""
    return [n for n in walk(node) if isinstance(n, (For, While))]


def analyse(loop, arrays, arrlen, collapse=False):
    """The reduction clauses (name -> op) under which `loop` is race-free
    as `#pragma omp parallel for` (with collapse(2) over it and the single
    loop of its body when `collapse`), or None if it may not be."""
    par = [loop]
    if collapse:
        if len(loop.body) != 1 or not isinstance(loop.body[0], For):
            return None
        inner = loop.body[0]
        if loop.var in IDENT.findall(inner.bound):
            return None
        par.append(inner)
    body = par[-1].body
    nodes = list(walk(body))
    if any(isinstance(n, REJECT) or (isinstance(n, For) and getattr(n, "omp", None))
           for n in nodes):
        return None
    private = set()
    for n in nodes:
        if isinstance(n, (Decl, StructDecl)):
            private.add(n.name)
        elif isinstance(n, (For, While)):
            private.add(n.var)
    counters = {}
    for n in _loops(body):
        top = trip_top(n.bound, arrlen)
        if top is None:
            return None
        counters[n.var] = top
    tops = [trip_top(p.bound, arrlen) for p in par]
    if None in tops:
        return None
    hinted = dict(getattr(loop, "red", None) or {})
    if collapse:
        hinted.update(getattr(par[-1], "red", None) or {})
    writes, reads = {}, []      # scalar target -> [Assign]; Var reads
    stores, loads = [], []      # (array, index) of element writes, reads
    calls_arrays, table_reads = set(), False
    for n in nodes:
        if isinstance(n, Assign):
            if "[" in n.target:
                name = n.target.split("[", 1)[0]
                stores.append((name, n.target[len(name) + 1:-1]))
                if n.op != "=":
                    loads.append((name, n.target[len(name) + 1:-1]))
            else:
                writes.setdefault(n.target, []).append(n)
        elif isinstance(n, Var):
            reads.append(n.name)
        elif isinstance(n, Elem):
            if "[" in n.array:
                table_reads = True
            else:
                loads.append((n.array, n.index))
        elif isinstance(n, (HelperCall, IndirectCall)):
            calls_arrays.update(a for a in n.args if isinstance(a, str) and a in arrays)
    red = {}
    for target, assigns in writes.items():
        if target.split(".", 1)[0] in private:
            continue
        if "." in target:
            return None   # a member of an outer struct: no reduction of it
        if target in hinted:
            red[target] = hinted[target]
        elif (len(assigns) == 1 and assigns[0].op == "+=" and target not in reads):
            red[target] = "+"
        else:
            return None
    written = {a for a, _ in stores if a not in private}
    if calls_arrays or (written and table_reads):
        # a helper may write the array it is given, wherever it likes
        return None
    space = list(itertools.product(*(range(t) for t in tops)))
    for arr in written:
        per_w, per_rw = [], []
        for point in space:
            env = {p.var: v for p, v in zip(par, point)}
            w, r = set(), set()
            for a, idx in stores:
                if a == arr:
                    e = _elements(idx, env, counters, arrlen)
                    if e is None:
                        return None
                    w |= e
            for a, idx in loads:
                if a == arr:
                    e = _elements(idx, env, counters, arrlen)
                    if e is None:
                        return None
                    r |= e
            per_w.append(w)
            per_rw.append(w | r)
        for i, j in itertools.permutations(range(len(space)), 2):
            if per_w[i] & per_rw[j]:
                return None
    return red


def pragma(red, schedule, collapse, extra=()):
    """The text after `#pragma omp `."""
    clauses = ["parallel for"]
    if collapse:
        clauses.append("collapse(2)")
    for name in sorted(red):
        clauses.append("reduction(%s : %s)" % (red[name], name))
    if schedule:
        clauses.append(schedule)
    return " ".join(clauses + list(extra))


def outer_reads(loop, arrays, red):
    """Names the loop reads but neither declares nor reduces, that a
    `firstprivate` clause may copy: scalars (not struct members) and
    pointers to arrays it does not write (`arrays` holds no stack array:
    firstprivate would copy its elements)."""
    private, names = set(), set()
    for n in walk(loop.body):
        if isinstance(n, (Decl, StructDecl)):
            private.add(n.name)
        elif isinstance(n, (For, While)):
            private.add(n.var)
        elif isinstance(n, Var) and "." not in n.name:
            names.add(n.name)
        elif isinstance(n, Elem) and n.array in arrays:
            names.add(n.array)
    written = {n.target.split("[", 1)[0] for n in walk(loop.body)
               if isinstance(n, Assign) and "[" in n.target}
    return sorted(names - private - written - set(red) - {loop.var})


def extra_clauses(ch, loop, arrays, red, nparam):
    """Clauses that change how the region gets its data and threads but
    not what it computes: firstprivate copies of values it only reads,
    num_threads, and an if clause on the runtime trip count (whose serial
    path calls the region's body directly)."""
    out = []
    reads = outer_reads(loop, arrays, red)
    if reads and ch.chance(30):
        picked = sorted({ch.pick(reads) for _ in range(ch.between(1, 2))})
        out.append("firstprivate(%s)" % ", ".join(picked))
    if ch.chance(15):
        out.append("num_threads(%d)" % ch.between(2, 3))
    if nparam and ch.chance(15):
        out.append("if(%s > %d)" % (nparam, ch.between(1, 3)))
    return out


def mark(body, ch, arrays, arrlen, percent=80, nparam=None, stack=()):
    """Mark the legal loops of a function body (a statement list), drawing
    from the choice stream `ch`; returns how many were marked. `nparam`:
    the runtime trip count parameter, for `if` clauses; `stack`: the
    arrays on the stack (never firstprivate)."""
    count = 0
    for s in body:
        if isinstance(s, For):
            collapse = False
            red = None
            if analyse(s, arrays, arrlen, collapse=True) is not None and ch.chance(60):
                collapse = True
                red = analyse(s, arrays, arrlen, collapse=True)
            else:
                red = analyse(s, arrays, arrlen)
            if red is not None and (hasattr(s, "red") or ch.chance(percent)):
                s.extra = extra_clauses(ch, s, set(arrays) - set(stack), red, nparam)
                s.omp = pragma(red, ch.pick(SCHEDULES), collapse, s.extra)
                s.collapse = collapse
                count += 1
                continue
            count += mark(s.body, ch, arrays, arrlen, percent, nparam, stack)
        elif isinstance(s, While):
            count += mark(s.body, ch, arrays, arrlen, percent, nparam, stack)
        elif isinstance(s, If):
            count += mark(s.then, ch, arrays, arrlen, percent, nparam, stack)
            count += mark(s.other, ch, arrays, arrlen, percent, nparam, stack)
    return count


def check(body, arrays, arrlen, stack=()):
    """Drop the pragma of every marked loop that is no longer race-free
    (after AST reduction); returns how many remain."""
    kept = 0
    for n in walk(body):
        if isinstance(n, For) and getattr(n, "omp", None):
            omp = n.omp
            n.omp = None   # analyse refuses nested pragmas: look at this one alone
            red = analyse(n, arrays, arrlen, collapse=getattr(n, "collapse", False))
            if red is None:
                continue
            # a firstprivate name the reduced body no longer reads goes
            extra = []
            for c in getattr(n, "extra", []):
                if c.startswith("firstprivate("):
                    names = [x for x in c[len("firstprivate("):-1].split(", ")
                             if x in outer_reads(n, set(arrays) - set(stack), red)]
                    c = "firstprivate(%s)" % ", ".join(names) if names else None
                if c:
                    extra.append(c)
            n.extra = extra
            n.omp = pragma(red, _schedule_of(omp), getattr(n, "collapse", False), extra)
            kept += 1
    return kept


def _schedule_of(text):
    m = re.search(r"schedule\([^)]*\)", text)
    return m.group(0) if m else ""


def stack_arrays(body):
    """Names of the local arrays on the stack."""
    return {n.name for n in walk(body) if isinstance(n, ArrayDecl) and not n.heap}


def array_names(funcs_body, params):
    """Names of the arrays of `f`: array parameters, local and heap arrays,
    grown buffers."""
    out = {p.name for p in params if p.kind == "arr"}
    for n in walk(funcs_body):
        if isinstance(n, (ArrayDecl, Grow)):
            out.add(n.name)
    return out
