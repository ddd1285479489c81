"""A tiny C AST for generated programs, rendered in three dialects.

The same function body is printed three times:

* ``plain`` -- the function the plugin differentiates, exactly as generated;
* ``chk``   -- the same arithmetic, but every comparison and every kink
  (fabs, fmin, fmax, copysign) goes through a ``tap_*`` helper that records
  the branch path and the smallest relative branch margin, and every
  assignment records the largest magnitude seen (used as a conditioning
  scale by the oracle);
* ``ld``    -- the instrumented function in ``long double`` (libm ``l``
  variants), used for high-precision finite differences.

Types are 'f' (float) and 'd' (double); integer code (indices, trip counts)
is carried as plain strings, identical in every dialect.
"""

from interval import Iv

SUFFIX = {"plain": "_", "chk": "_chk", "ld": "_ld"}
KINKS = ("fabs", "fmin", "fmax", "copysign")
# structs passed and returned by value (feature byval): name -> fields
# (name, 'd' or 'i'); the long double twin's struct is <name>_ld
STRUCTS = {"V2": (("a", "d"), ("b", "d")),
           "V3": (("x", "d"), ("y", "d"), ("z", "d")),
           "DI": (("d", "d"), ("n", "i"))}


def render_structs():
    """The by-value struct types, plain and long double (feature byval)."""
    out = []
    for name, fields in STRUCTS.items():
        for suffix, fp in (("", "double"), ("_ld", "long double")):
            members = " ".join("%s %s;" % ("int" if t == "i" else fp, f) for f, t in fields)
            out.append("struct %s%s { %s };\n" % (name, suffix, members))
    return "".join(out)


class Dialect:
    """How types, names, constants and instrumentation are spelled."""

    def __init__(self, mode):
        assert mode in SUFFIX
        self.mode = mode
        self.instrumented = mode != "plain"

    def ty(self, t):
        """C spelling of a scalar type ('f', 'd', 'i')."""
        if t == "i":
            return "int"
        if t in STRUCTS:
            return "struct " + self.struct(t)
        if t == "arr":
            return self.ty("d") + " *"
        if self.mode == "ld":
            return "long double"
        return "float" if t == "f" else "double"

    def libm_suffix(self, variant):
        if self.mode == "ld":
            return "l"
        return "f" if variant == "f" else ""

    def fn(self, name):
        """Name of a generated function in this dialect."""
        return name if self.mode == "plain" else name + SUFFIX[self.mode]

    def struct(self, name):
        return name + ("_ld" if self.mode == "ld" else "")

    def const(self, value, t):
        text = repr(float(value))
        if self.mode == "ld":
            text += "L"
        elif t == "f":
            text += "f"
        return "(%s)" % text if value < 0 else text

    def track(self, code, t):
        """Wrap a value stored to a variable so its magnitude is recorded."""
        if not self.instrumented or t in STRUCTS:
            return code
        return "tap_trk%s(%s)" % (self.libm_suffix(t), code)


# ----------------------------------------------------------------- expressions

class Expr:
    """Base class: every expression has a type `ty` and an interval `iv`."""

    ty = "d"
    iv = None

    def render(self, d):
        raise NotImplementedError


class Var(Expr):
    def __init__(self, name, ty, iv):
        self.name, self.ty, self.iv = name, ty, iv

    def render(self, d):
        return self.name


class Const(Expr):
    def __init__(self, value, ty):
        self.value, self.ty, self.iv = value, ty, Iv.point(value)

    def render(self, d):
        return d.const(self.value, self.ty)


class IntAsFp(Expr):
    """An integer expression (loop counter) converted to floating point."""

    def __init__(self, code, ty, iv):
        self.code, self.ty, self.iv = code, ty, iv

    def render(self, d):
        return "(%s)(%s)" % (d.ty(self.ty), self.code)


class Neg(Expr):
    def __init__(self, a):
        self.a, self.ty, self.iv = a, a.ty, -a.iv

    def render(self, d):
        return "(-%s)" % self.a.render(d)


def promote(*types):
    """C's usual arithmetic conversions restricted to float/double."""
    return "d" if "d" in types else "f"


class Bin(Expr):
    def __init__(self, op, a, b, iv):
        self.op, self.a, self.b, self.iv = op, a, b, iv
        self.ty = promote(a.ty, b.ty)

    def render(self, d):
        return "(%s %s %s)" % (self.a.render(d), self.op, self.b.render(d))


class Call(Expr):
    """A libm call; `variant` 'f' selects sinf etc."""

    def __init__(self, fn, args, variant, iv):
        self.fn, self.args, self.variant, self.iv = fn, args, variant, iv
        self.ty = variant

    def render(self, d):
        name = self.fn + d.libm_suffix(self.variant)
        if d.instrumented and self.fn in KINKS:
            name = "tap_" + name
        return "%s(%s)" % (name, ", ".join(a.render(d) for a in self.args))


class Select(Expr):
    def __init__(self, cond, a, b):
        self.cond, self.a, self.b = cond, a, b
        self.ty = promote(a.ty, b.ty)
        self.iv = a.iv.union(b.iv)

    def render(self, d):
        return "(%s ? %s : %s)" % (self.cond.render(d), self.a.render(d),
                                   self.b.render(d))


class Elem(Expr):
    """Read of an array element; `index` is integer C code.  `deref` spells
    it as pointer arithmetic, *(a + i)."""

    def __init__(self, array, index, ty, iv, deref=False):
        self.array, self.index, self.ty, self.iv = array, index, ty, iv
        self.deref = deref

    def render(self, d):
        if self.deref:
            return "(*(%s + (%s)))" % (self.array, self.index)
        return "%s[%s]" % (self.array, self.index)


class HelperCall(Expr):
    """Call of a generated helper; int args are given as C code strings."""

    def __init__(self, name, args, ty, iv):
        self.name, self.args, self.ty, self.iv = name, args, ty, iv

    def render(self, d):
        parts = [a if isinstance(a, str) else a.render(d) for a in self.args]
        return "%s(%s)" % (d.fn(self.name), ", ".join(parts))


# ------------------------------------------------------------------ conditions

class Cmp:
    """a OP b on floating values; instrumented as tap_gt / tap_ge / tap_lt /
    tap_le (the same operator: at an exact tie, which the twins may judge an
    identity, `>=` and `>` differ)."""

    def __init__(self, op, a, b):
        assert op in (">", ">=", "<", "<=")
        self.op, self.a, self.b = op, a, b

    def render(self, d):
        a, b = self.a.render(d), self.b.render(d)
        if d.instrumented:
            name = {">": "gt", ">=": "ge", "<": "lt", "<=": "le"}[self.op]
            return "tap_%s(%s, %s)" % (name, a, b)
        return "(%s %s %s)" % (a, self.op, b)


class IntCmp:
    """A comparison of integer code (never instrumented: no derivative)."""

    def __init__(self, code):
        self.code = code

    def render(self, d):
        return "(%s)" % self.code


class Logic:
    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, a, b

    def render(self, d):
        return "(%s %s %s)" % (self.a.render(d), self.op, self.b.render(d))


# ------------------------------------------------------------------ statements

def _block(stmts, d, ind):
    return "".join(s.render(d, ind) for s in stmts)


class Decl:
    def __init__(self, ty, name, expr):
        self.ty, self.name, self.expr = ty, name, expr

    def render(self, d, ind):
        return "%s%s %s = %s;\n" % (ind, d.ty(self.ty), self.name,
                                    d.track(self.expr.render(d), self.ty))


class Assign:
    """target OP= expr, where target is a variable or element (C code).
    `track`: the instrumented twins record the magnitude of a compound
    assignment's result too (reductions: their partial sums)."""

    def __init__(self, target, op, expr, ty, track=False):
        self.target, self.op, self.expr, self.ty = target, op, expr, ty
        self.track = track

    def render(self, d, ind):
        code = self.expr.render(d)
        if self.op != "=" and getattr(self, "track", False) and d.instrumented:
            code = d.track("%s %s (%s)" % (self.target, self.op[0], code), self.ty)
            return "%s%s = %s;\n" % (ind, self.target, code)
        if self.op == "=":
            code = d.track(code, self.ty)
        return "%s%s %s %s;\n" % (ind, self.target, self.op, code)


class If:
    def __init__(self, cond, then, other):
        self.cond, self.then, self.other = cond, then, other

    def render(self, d, ind):
        out = "%sif (%s) {\n%s%s}" % (ind, self.cond.render(d),
                                       _block(self.then, d, ind + "  "), ind)
        if self.other:
            out += " else {\n%s%s}" % (_block(self.other, d, ind + "  "), ind)
        return out + "\n"


class For:
    """for (int var = 0; var < bound; var++) { body }; `omp` (feature omp,
    set by omp.mark) is the text of a `#pragma omp` line only the plain
    dialect prints: the instrumented twins stay serial."""

    omp = None

    def __init__(self, var, bound, body):
        self.var, self.bound, self.body = var, bound, body

    def render(self, d, ind):
        pragma = ""
        if self.omp and d.mode == "plain":
            pragma = "%s#pragma omp %s\n" % (ind, self.omp)
        return pragma + "%sfor (int %s = 0; %s < %s; %s++) {\n%s%s}\n" % (
            ind, self.var, self.var, self.bound, self.var,
            _block(self.body, d, ind + "  "), ind)


class While:
    """int k = 0; while (k < bound [&& cond]) { body; k++; }"""

    def __init__(self, var, bound, cond, body):
        self.var, self.bound, self.cond, self.body = var, bound, cond, body

    def render(self, d, ind):
        test = "%s < %s" % (self.var, self.bound)
        if self.cond is not None:
            test += " && %s" % self.cond.render(d)
        return "%sint %s = 0;\n%swhile (%s) {\n%s%s  %s++;\n%s}\n" % (
            ind, self.var, ind, test, _block(self.body, d, ind + "  "),
            ind, self.var, ind)


class Return:
    def __init__(self, expr, ty, frees=()):
        self.expr, self.ty, self.frees = expr, ty, list(frees)

    def render(self, d, ind):
        value = d.track(self.expr.render(d), self.ty)
        if not self.frees:
            return "%sreturn %s;\n" % (ind, value)
        # compute the value first: it may read the scratch memory being freed
        frees = "".join("%s  free(%s);\n" % (ind, n) for n in self.frees)
        return "%s{\n%s  %s tap_r = %s;\n%s%s  return tap_r;\n%s}\n" % (
            ind, ind, d.ty(self.ty), value, frees, ind, ind)


class ArrayDecl:
    """A local scratch array: on the stack or from malloc."""

    def __init__(self, name, length, heap):
        self.name, self.length, self.heap = name, length, heap

    def render(self, d, ind):
        t = d.ty("d")
        if self.heap:
            return "%s%s *%s = (%s *)malloc(%d * sizeof(%s));\n" % (
                ind, t, self.name, t, self.length, t)
        return "%s%s %s[%d];\n" % (ind, t, self.name, self.length)


class Copy:
    """memcpy(dst + off, src, count * sizeof *dst) between arrays of the
    program (feature tape); the same in every dialect."""

    def __init__(self, dst, src, off, count, keep=False):
        self.dst, self.src, self.off, self.count = dst, src, off, count
        self.keep = keep   # filling a fresh array: the reducer must not drop it

    def render(self, d, ind):
        dst = "%s + %d" % (self.dst, self.off) if self.off else self.dst
        return "%smemcpy(%s, %s, %d * sizeof *%s);\n" % (ind, dst, self.src, self.count,
                                                         self.dst)


class TableDecl:
    """A table of pointers to arrays (`constptr`): on the stack, or from
    malloc filled through a pointer advanced in a loop's way (*p++ = a),
    as std::vector::push_back of pointers becomes."""

    def __init__(self, name, entries, heap):
        self.name, self.entries, self.heap = name, list(entries), heap
        self.keep = True   # the reducer must not leave reads without it

    def render(self, d, ind):
        t = "const %s *" % d.ty("d")
        if not self.heap:
            return "%s%s%s[%d] = { %s };\n" % (
                ind, t, self.name, len(self.entries), ", ".join(self.entries))
        out = "%s%s*%s = (%s*)malloc(%d * sizeof(%s));\n" % (
            ind, t, self.name, t, len(self.entries), t)
        out += "%s{\n%s  %s*%s_p = %s;\n" % (ind, ind, t, self.name, self.name)
        for e in self.entries:
            out += "%s  *%s_p++ = %s;\n" % (ind, self.name, e)
        return out + "%s}\n" % ind


class StructDecl:
    """struct TapPair s = { e0, e1 }; or a copy of another struct."""

    def __init__(self, name, fields, source):
        self.name, self.fields, self.source = name, fields, source

    def render(self, d, ind):
        head = "%sstruct %s %s = " % (ind, d.struct("TapPair"), self.name)
        if isinstance(self.source, str):
            return head + self.source + ";\n"
        inits = [d.track(e.render(d), t) for (t, _), e in zip(self.fields, self.source)]
        return head + "{ %s };\n" % ", ".join(inits)


# ------------------------------------------------------------------- functions

class Param:
    """kind: 'f'/'d' scalar, 'i' int, 'arr' double* (length `length`), a
    struct of STRUCTS by value, or 'fn': a pointer to a function of
    signature `sig` = (return kind, parameter kinds)."""

    def __init__(self, name, kind, length=0, sig=None):
        self.name, self.kind, self.length, self.sig = name, kind, length, sig

    def render(self, d):
        if self.kind == "arr":
            return "%s *%s" % (d.ty("d"), self.name)
        if self.kind == "fn":
            return fnptr_decl(d, self.sig, self.name)
        return "%s %s" % (d.ty(self.kind), self.name)


def fnptr_decl(d, sig, declarator):
    """`double (*name)(double, double *)` in dialect d."""
    ret, kinds = sig
    return "%s (*%s)(%s)" % (d.ty(ret), declarator, ", ".join(d.ty(k) for k in kinds))


class FuncDef:
    def __init__(self, name, ret, params, body, static=True, noinline=False):
        self.name, self.ret, self.params, self.body = name, ret, params, body
        self.static, self.noinline = static, noinline

    def render(self, d):
        quals = ""
        if self.static or d.instrumented:
            quals += "static "
        if self.noinline:
            quals += "__attribute__((noinline)) "
        params = ", ".join(p.render(d) for p in self.params) or "void"
        return "%s%s %s(%s) {\n%s}\n" % (quals, d.ty(self.ret), d.fn(self.name),
                                          params, _block(self.body, d, "  "))


def walk(node):
    """Yield node and every AST object reachable from it."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
            continue
        if not hasattr(n, "__dict__"):
            continue
        yield n
        stack.extend(v for v in vars(n).values() if isinstance(v, (list, tuple)) or hasattr(v, "__dict__"))


def uses_float(funcs):
    """Does any function compute in float (typed values, literals or libm)?"""
    for n in walk(list(funcs)):
        if getattr(n, "ty", None) == "f" or getattr(n, "kind", None) == "f":
            return True
        if isinstance(n, StructDecl) and any(t == "f" for t, _ in n.fields):
            return True
    return False


# ------------------------------------------- realloc and qsort (features)

class Grow:
    """A heap array grown by realloc inside a counted loop from a null
    pointer (feature realloc); `chunk` 0 grows by one element per iteration,
    1 by two every other iteration, 2 doubles an int capacity when full.

        double *g = NULL;
        for (int j = 0; j < B; j++) {
          g = (double *)realloc(g, (j + 1) * sizeof(double));
          g[j] = e;
        }
    """

    keep = True

    def __init__(self, name, var, bound, expr, chunk):
        self.name, self.var, self.bound, self.expr, self.chunk = name, var, bound, expr, chunk

    def render(self, d, ind):
        t, g, j = d.ty("d"), self.name, self.var
        out = "%s%s *%s = NULL;\n" % (ind, t, g)
        if self.chunk == 2:
            out += "%sint %s_cap = 0;\n" % (ind, g)
        out += "%sfor (int %s = 0; %s < %s; %s++) {\n" % (ind, j, j, self.bound, j)
        grow = "%s = (%s *)realloc(%s, %%s * sizeof(%s));\n" % (g, t, g, t)
        if self.chunk == 0:
            out += "%s  %s" % (ind, grow % ("(%s + 1)" % j))
        elif self.chunk == 1:
            out += "%s  if (%s %% 2 == 0)\n%s    %s" % (ind, j, ind, grow % ("(%s + 2)" % j))
        else:
            out += "%s  if (%s == %s_cap) {\n%s    %s_cap = %s_cap ? 2 * %s_cap : 1;\n%s    %s%s  }\n" % (
                ind, j, g, ind, g, g, g, ind, grow % ("%s_cap" % g), ind)
        out += "%s  %s[%s] = %s;\n%s}\n" % (ind, g, j, d.track(self.expr.render(d), "d"), ind)
        return out


class IndexArray:
    """A heap array of indices in [0, length), filled by integer arithmetic
    on the loop counter (feature intarrays): `int` or `unsigned char`, or an
    `int` array grown by realloc from NULL.

        int *p = (int *)malloc(L * sizeof(int));
        for (int j = 0; j < L; j++)
          p[j] = (j * mult + off) % L;
    """

    keep = True

    def __init__(self, name, var, length, mult, off, elem, grown):
        self.name, self.var, self.length = name, var, length
        self.mult, self.off, self.elem, self.grown = mult, off, elem, grown

    def render(self, d, ind):
        p, j, t, n = self.name, self.var, self.elem, self.length
        value = "(%s * %d + %d) %% %d" % (j, self.mult, self.off, n)
        if self.grown:
            return ("%s%s *%s = NULL;\n%sfor (int %s = 0; %s < %d; %s++) {\n"
                    "%s  %s = (%s *)realloc(%s, (%s + 1) * sizeof(%s));\n"
                    "%s  %s[%s] = %s;\n%s}\n") % (
                        ind, t, p, ind, j, j, n, j, ind, p, t, p, j, t, ind, p, j, value, ind)
        return ("%s%s *%s = (%s *)malloc(%d * sizeof(%s));\n"
                "%sfor (int %s = 0; %s < %d; %s++)\n%s  %s[%s] = %s;\n") % (
                    ind, t, p, t, n, t, ind, j, j, n, j, ind, p, j, value)


class BytesCopy:
    """A fresh local array with the values of an array in scope, copied
    through a heap buffer of bytes and back (feature intarrays): the
    buffer holds the doubles' bits and must keep their derivatives.

        double c[L];
        unsigned char *b = (unsigned char *)malloc(L * sizeof(double));
        memcpy(b, src, L * sizeof(double));
        memcpy(c, b, L * sizeof(double));
        free(b);
    """

    keep = True

    def __init__(self, name, buf, src, length):
        self.name, self.buf, self.src, self.length = name, buf, src, length

    def render(self, d, ind):
        t, c, b, n = d.ty("d"), self.name, self.buf, self.length
        return ("%s%s %s[%d];\n"
                "%sunsigned char *%s = (unsigned char *)malloc(%d * sizeof(%s));\n"
                "%smemcpy(%s, %s, %d * sizeof(%s));\n"
                "%smemcpy(%s, %s, %d * sizeof(%s));\n"
                "%sfree(%s);\n") % (ind, t, c, n, ind, b, n, t, ind, b, self.src, n, t,
                                     ind, c, b, n, t, ind, b)


class Free:
    """free(name); right after the loop that consumed a grown buffer."""

    keep = True

    def __init__(self, name):
        self.name = name

    def render(self, d, ind):
        return "%sfree(%s);\n" % (ind, self.name)


class Sort:
    """qsort of a double array with one of the comparators tap_cmp<k> of the
    prelude (feature sort).  The instrumented twins hash the permutation
    (every element's rank) into the branch path before the sort and note
    the smallest gap between neighbours after it, so a finite-difference
    point across a reordering (where the derivative jumps) takes another
    path, and a near-tie is classified nonsmooth."""

    def __init__(self, array, count, cmp, descending):
        self.array, self.count, self.cmp, self.descending = array, count, cmp, descending

    def render(self, d, ind):
        fn = "tap_cmp%d%s" % (self.cmp, "_ld" if d.mode == "ld" else "")
        out = "%sqsort(%s, %s, sizeof *%s, %s);\n" % (ind, self.array, self.count, self.array, fn)
        if d.instrumented:
            out = "%stap_ranks%s(%s, %s);\n" % (ind, "l" if d.mode == "ld" else "",
                                               self.array, self.count) + out
            out += "%stap_sorted%s(%s, %s);\n" % (ind, "l" if d.mode == "ld" else "",
                                                  self.array, self.count)
        return out


# ------------------------------- function pointers and by-value structs

class FnRef:
    """A function designator passed or called through a pointer (feature
    fnptr): a generated function (renamed per dialect), an element of a
    function table `table[index]` (index: integer C code), or a parameter
    holding a function pointer (not renamed)."""

    def __init__(self, name, index=None, param=False):
        self.name, self.index, self.param = name, index, param

    def render(self, d):
        if self.param:
            return self.name
        if self.index is None:
            return d.fn(self.name)
        return "%s[%s]" % (d.fn(self.name), self.index)


class IndirectCall(Expr):
    """A call through a function pointer: `tab[(sel + 1) % 3](x, a0)`."""

    def __init__(self, callee, args, ty, iv):
        self.callee, self.args, self.ty, self.iv = callee, args, ty, iv

    def render(self, d):
        parts = [a if isinstance(a, str) else a.render(d) for a in self.args]
        return "%s(%s)" % (self.callee.render(d), ", ".join(parts))


class FnTable:
    """A file-scope table of functions of one signature (feature fnptr),
    rendered once per dialect among the functions:

        static double (*const tab0[3])(double) = { h0, h1, h2 };

    `const`: a constant table (folded where the index is known), else a
    writable one; `static` false gives it external linkage."""

    def __init__(self, name, sig, entries, const=True, static=True):
        self.name, self.sig, self.entries = name, sig, list(entries)
        self.const, self.static = const, static

    def render(self, d):
        decl = fnptr_decl(d, self.sig, "%s%s[%d]" % ("const " if self.const else "",
                                                      d.fn(self.name), len(self.entries)))
        quals = "static " if self.static or d.instrumented else ""
        return "%s%s = { %s };\n" % (quals, decl, ", ".join(d.fn(e) for e in self.entries))


class StructLit(Expr):
    """A compound literal of a by-value struct (feature byval); fields are
    expressions, or integer C code for int fields."""

    def __init__(self, sty, fields):
        self.sty, self.fields, self.ty, self.iv = sty, list(fields), sty, None

    def render(self, d):
        parts = []
        for (_, t), e in zip(STRUCTS[self.sty], self.fields):
            parts.append(e if isinstance(e, str) else d.track(e.render(d), "d"))
        return "((%s){ %s })" % (d.ty(self.sty), ", ".join(parts))


class FieldOf(Expr):
    """A member of a struct-valued expression: `h0(s, x).b`."""

    def __init__(self, base, field, ty, iv):
        self.base, self.field, self.ty, self.iv = base, field, ty, iv

    def render(self, d):
        return "%s.%s" % (self.base.render(d), self.field)
