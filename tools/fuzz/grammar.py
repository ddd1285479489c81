"""Random expressions and statements that are valid, UB-free and smooth by construction.

`FuncBuilder` grows one function body.  It tracks, for every variable in
scope, its type and a conservative interval (interval.py) and uses them to
keep libm arguments in safe domains, divisors away from zero and magnitudes
bounded.  What construction cannot guarantee (that a branch condition is not
near a tie *at the sample point*) is checked at run time by the instrumented
dialect (see cast.py) and the oracle.

Loops keep intervals finite with *invariants*: a variable that a loop body
assigns ("carried") is widened to a symmetric interval before the body and
every assignment to it is squashed into that interval.  An accumulator
(``acc += e``) is write-only inside its loop, so its final interval is its
initial one plus trip-count times the increment's.
"""

import math

from cast import (STRUCTS, Assign, ArrayDecl, BytesCopy, IndexArray, TableDecl, Bin, Call, Cmp, Const, Copy, Decl, Elem,
                  FieldOf, FnRef, For, Free, Grow, HelperCall, If, IndirectCall, IntAsFp,
                  IntCmp, Logic, Neg, Return, Select, Sort, StructDecl, StructLit, Var, While)
from interval import Iv, libm_image

MAXMAG = 1e3                 # larger intermediate values get squashed
ARR_IV = Iv(-4.0, 4.0)       # invariant of every array element
HELPER_IV = Iv(-4.0, 4.0)    # interval assumed for helper parameters
NMAX = 5                     # largest runtime trip count
UNARY = ("sin", "cos", "tan", "exp", "exp2", "expm1", "log", "log2", "log10",
         "log1p", "sqrt", "cbrt", "atan", "sinh", "cosh", "tanh", "asinh",
         "atanh", "erf", "erfc", "fabs")
BINARY = ("pow", "hypot", "atan2", "fmin", "fmax", "fma", "copysign")
SQUASHERS = ("tanh", "sin", "erf", "atan")
# inside vectorisable loops (feature vectorize): calls the loop vectoriser
# widens without a vector library, and with -fveclib=libmvec
VEC_UNARY = ("sqrt", "fabs")
VEC_BINARY = ("fmin", "fmax", "fma")
MVEC_UNARY = ("sin", "cos", "exp", "log", "tanh", "atan", "expm1", "log1p", "exp2",
              "log2", "log10", "sinh", "cosh", "cbrt", "erf", "asinh")
MVEC_BINARY = ("pow", "atan2", "hypot")
NCMP = 3                     # comparators tap_cmp0..2 (program.py SORT_PRELUDE)


def q16(x):
    """Round to a multiple of 1/16 (exact in float, double, long double)."""
    return round(x * 16) / 16


class VarInfo:
    """What the builder knows about a name in scope."""

    def __init__(self, kind, ty="d", iv=None, length=0, heap=False):
        self.kind, self.ty, self.iv = kind, ty, iv
        self.length, self.heap = length, heap
        self.readable = True


class LoopCtx:
    """Assignment rules inside a loop body (see module docstring)."""

    def __init__(self, depth, carried):
        self.depth, self.carried = depth, carried
        self.frees = []          # heap scratch of one iteration, freed at its end


class Names:
    """Fresh identifiers, unique across a whole program."""

    def __init__(self):
        self.counts = {}

    def fresh(self, prefix):
        n = self.counts.get(prefix, 0)
        self.counts[prefix] = n + 1
        return "%s%d" % (prefix, n)


class Helper:
    """A generated callee as seen by its callers.  A helper returning a
    struct by value (feature byval) has ret_ty the struct's name and every
    floating-point field in ret_iv."""

    def __init__(self, name, params, ret_ty, ret_iv, func):
        self.name, self.params, self.ret_ty, self.ret_iv = name, params, ret_ty, ret_iv
        self.func = func


class FnSlot:
    """Something called through a function pointer (feature fnptr): a table
    of `length` functions or a callback parameter (length 0), with the
    signature (return kind, parameter kinds) and the union of the possible
    callees' return intervals."""

    def __init__(self, name, sig, ret_iv, length=0):
        self.name, self.sig, self.ret_iv, self.length = name, sig, ret_iv, length


class FuncBuilder:
    """Generates statements and expressions for one function."""

    def __init__(self, ch, features, names, ret_ty="d", helpers=(), arrlen=4,
                 nparam=None, struct_vty="d"):
        self.ch, self.feat, self.names = ch, features, names
        self.ret_ty, self.helpers = ret_ty, list(helpers)
        self.arrlen, self.nparam, self.struct_vty = arrlen, nparam, struct_vty
        self.scopes = [{}]
        self.loops = []          # LoopCtx stack
        self.loopvars = []       # (name, max value) of enclosing counters
        self.returns = []        # intervals of every returned value
        self.heap = []           # malloc'd scratch arrays, freed before returns
        self.vec = None          # index forms inside a vectorisable loop
        self.veclib = False      # compiled with -fveclib=libmvec
        self.mparam = None       # runtime array length parameter (== arrlen)
        self.fntabs = []         # FnSlot: function tables in scope (fnptr)
        self.fnparams = []       # FnSlot: callback parameters (fnptr)
        self.sel = None          # int parameter that selects table entries
        self.is_f = False        # building f itself (feature omp: parallel loops)

    # ----------------------------------------------------------- environment
    def declare(self, name, info):
        self.scopes[-1][name] = info

    def _visible(self):
        seen = {}
        for depth, scope in enumerate(self.scopes):
            for name, info in scope.items():
                seen[name] = (depth, info)
        return seen

    def readable_fp(self):
        return [(n, i) for n, (_, i) in self._visible().items()
                if i.kind == "fp" and i.readable]

    def arrays(self):
        return [(n, i) for n, (_, i) in self._visible().items() if i.kind == "arr"]

    def tables(self):
        return [(n, i) for n, (_, i) in self._visible().items() if i.kind == "ptab"]

    def writable_fp(self):
        loop = self.loops[-1] if self.loops else None
        out = []
        for name, (depth, info) in self._visible().items():
            if info.kind != "fp" or not info.readable:
                continue
            if loop is None or depth >= loop.depth or name in loop.carried:
                out.append((name, info))
        return out

    def snapshot(self):
        return {n: i.iv for n, (_, i) in self._visible().items() if i.kind == "fp"}

    def restore(self, snap):
        for name, (_, info) in self._visible().items():
            if name in snap:
                info.iv = snap[name]

    # ----------------------------------------------------------- expressions
    def fp_type(self, percent=25):
        return "f" if "floats" in self.feat and self.ch.chance(percent) else "d"

    def const(self, ty=None, lo=-3.0, hi=3.0):
        k = self.ch.between(int(lo * 16), int(hi * 16)) or 16   # no exact zeros
        return Const(k / 16, ty or self.fp_type(20))

    def index_arrays(self):
        return [(n, i) for n, (_, i) in self._visible().items() if i.kind == "iarr"]

    def index(self):
        """Integer C code for an in-bounds array index."""
        if self.index_arrays() and self.ch.chance(30):
            # an element of an index array (feature intarrays): in bounds
            name, _ = self.ch.pick(self.index_arrays())
            return "%s[%s]" % (name, self.plain_index())
        return self.plain_index()

    def plain_index(self):
        if self.loopvars and self.ch.chance(70):
            var, _ = self.ch.pick(self.loopvars)
            mult, off = self.ch.between(1, 3), self.ch.between(0, self.arrlen - 1)
            return "(%s * %d + %d) %% %d" % (var, mult, off, self.arrlen)
        return str(self.ch.below(self.arrlen))

    def leaf(self):
        options = [(6, "var"), (3, "const")]
        if self.loopvars:
            options.append((2, "counter"))
        if self.arrays():
            options.append((4, "elem"))
        if self.tables():
            options.append((3, "telem"))
        kind = self.ch.weighted(options)
        fps = self.readable_fp()
        if kind == "var" and fps:
            name, info = self.ch.pick(fps)
            return Var(name, info.ty, info.iv)
        if kind == "counter":
            # offset off the 1/16 grid of constants: integer counters would
            # otherwise tie exactly with constants in comparisons and kinks
            name, top = self.ch.pick(self.loopvars)
            ty = self.fp_type()
            i = IntAsFp(name, ty, Iv(0.0, float(top)))
            return Bin("+", i, Const(0.03125, ty), i.iv + Iv.point(0.03125))
        if kind == "elem":
            name, info = self.ch.pick(self.arrays())
            if self.vec:
                return Elem(name, self.ch.pick(self.vec), "d", ARR_IV, deref=self.ch.chance(20))
            return Elem(name, self.index(), "d", ARR_IV, deref=self.ch.chance(20))
        if kind == "telem":
            # through a table of array pointers: tab[row][index]
            name, info = self.ch.pick(self.tables())
            row = self.ch.below(info.length)
            if self.loopvars and self.ch.chance(50):
                var, _ = self.ch.pick(self.loopvars)
                row = "(%s + %d) %% %d" % (var, row, info.length)
            return Elem("%s[%s]" % (name, row), self.index(), "d", ARR_IV,
                        deref=self.ch.chance(20))
        return self.const()

    def expr(self, depth):
        if depth <= 0:
            return self.leaf()
        options = [(3, "leaf"), (1, "neg"), (7, "bin"), (5, "unary"), (2, "binary")]
        if "branches" in self.feat:
            options.append((1, "select"))
        if self.helpers and self.vec is None:
            options.append((2, "call"))
        if (self.fntabs or self.fnparams) and self.vec is None:
            options.append((2, "icall"))
        kind = self.ch.weighted(options)
        if kind == "leaf":
            return self.leaf()
        if kind == "neg":
            return Neg(self.expr(depth - 1))
        if kind == "bin":
            return self.tame(self.binop(depth))
        if kind == "unary":
            return self.tame(self.unary(self.ch.pick(self.unary_fns()), depth))
        if kind == "binary":
            return self.tame(self.binary(self.ch.pick(self.binary_fns()), depth))
        if kind == "select":
            cond = self.cond(depth - 1)
            return Select(cond, self.expr(depth - 1), self.expr(depth - 1))
        if kind == "icall":
            return self.tame(self.icall(depth))
        return self.tame(self.call(depth))

    def unary_fns(self):
        if self.vec is None:
            return UNARY
        return VEC_UNARY + (MVEC_UNARY if self.veclib else ())

    def binary_fns(self):
        if self.vec is None:
            return BINARY
        return VEC_BINARY + (MVEC_BINARY if self.veclib else ())

    def binop(self, depth):
        op = self.ch.pick(["+", "-", "*", "/"])
        a, b = self.expr(depth - 1), self.expr(depth - 1)
        if op == "-":
            b = self.distinct(a, b)   # x - x is an exact zero: a kink magnet
        if op == "/":
            b = self.den(b)
            return Bin(op, a, b, a.iv / b.iv)
        iv = {"+": a.iv + b.iv, "-": a.iv - b.iv, "*": a.iv * b.iv}[op]
        return Bin(op, a, b, iv)

    def variant(self, *args):
        """float or double libm variant for the given arguments."""
        if all(a.ty == "f" for a in args):
            return "d" if self.ch.chance(30) else "f"
        return "f" if "floats" in self.feat and self.ch.chance(10) else "d"

    def libm(self, fn, args):
        return Call(fn, args, self.variant(*args), libm_image(fn, [a.iv for a in args]))

    def unary(self, fn, depth):
        a = self.expr(depth - 1)
        if fn == "tan":
            a = self.fit(a, -1.2, 1.2)
        elif fn in ("exp", "exp2", "expm1"):
            a = a if a.iv.hi <= 6 else self.fit(a, -6.0, 6.0)
        elif fn in ("sinh", "cosh"):
            a = self.fit(a, -6.0, 6.0)
        elif fn in ("log", "log2", "log10", "sqrt"):
            a = self.pos(a, 0.25)
        elif fn == "log1p":
            a = a if a.iv.lo >= -0.75 else self.pos(a, 0.0)
        elif fn == "cbrt" and not a.iv.excludes(-0.25, 0.25):
            a = self.pos(a, 0.25)
            a = Neg(a) if self.ch.chance(40) else a
        elif fn == "atanh":
            a = self.fit(a, -0.9, 0.9)
        return self.libm(fn, [a])

    def binary(self, fn, depth):
        a, b = self.expr(depth - 1), self.expr(depth - 1)
        if fn == "pow":
            a = self.pos(a, 0.25)
            b = self.const(a.ty, -2.5, 2.5) if self.ch.chance(60) else self.fit(b, -2.5, 2.5)
        elif fn == "hypot" and not (a.iv.excludes(-.25, .25) or b.iv.excludes(-.25, .25)):
            b = self.pos(b, 0.25)
        elif fn == "atan2":
            b = self.pos(b, 0.25)
        if fn in ("fmin", "fmax", "copysign", "hypot"):
            b = self.distinct(a, b)
        if fn == "fma":
            return self.libm(fn, [a, b, self.expr(depth - 1)])
        return self.libm(fn, [a, b])

    def distinct(self, a, b):
        """b, shifted if it is textually a: avoids guaranteed ties like fmin(x, x)."""
        from cast import Dialect
        plain = Dialect("plain")
        if a.render(plain) != b.render(plain):
            return b
        c = Const(0.5, b.ty)
        return Bin("+", b, c, b.iv + c.iv)

    def call(self, depth):
        helper = self.ch.pick(self.helpers)
        args = []
        for p in helper.params:
            if p.kind == "arr":
                arrays = self.arrays()
                args.append(self.ch.pick(arrays)[0] if arrays else None)
            elif p.kind == "i":
                args.append(str(self.ch.between(1, 4)))
            elif p.kind == "fn":
                args.append(self.fn_designator(p.slot))
            elif p.kind in STRUCTS:
                args.append(self.struct_arg(p.kind, depth))
            else:
                args.append(self.fit(self.expr(depth - 1), HELPER_IV.lo, HELPER_IV.hi))
        if None in args:
            return self.leaf()
        if helper.ret_ty in STRUCTS:
            # a member of the returned struct: h(s, x).b
            field = self.ch.pick([f for f, t in STRUCTS[helper.ret_ty] if t == "d"])
            return FieldOf(HelperCall(helper.name, args, helper.ret_ty, None), field, "d",
                           helper.ret_iv)
        return HelperCall(helper.name, args, helper.ret_ty, helper.ret_iv)

    # ------------------------------------ function pointers (feature fnptr)
    def fn_index(self, length):
        """Integer C code selecting a table entry at run time: from the int
        parameter `sel` and/or a loop counter (inactive values), else a
        constant."""
        c = self.ch.below(length)
        forms = []
        if self.loopvars:
            var, _ = self.ch.pick(self.loopvars)
            forms.append("(%s + %d) %% %d" % (var, c, length))
            if self.sel:
                forms.append("(%s * %s + %d) %% %d" % (var, self.sel, c, length))
        if self.sel:
            forms.append("(%s + %d) %% %d" % (self.sel, c, length))
        return self.ch.pick(forms) if forms else str(c)

    def fn_designator(self, slot):
        """A function to pass for a callback parameter: an entry of its
        table chosen at run time (when in scope), or a named member."""
        tabs = [t for t in self.fntabs if t.name == slot.name]
        if tabs and self.ch.chance(60):
            return FnRef(slot.name, self.fn_index(slot.length))
        return FnRef(self.ch.pick(slot.members))

    def fn_args(self, sig, depth):
        args = []
        for k in sig[1]:
            if k == "arr":
                arrays = self.arrays()
                if not arrays:
                    return None
                args.append(self.ch.pick(arrays)[0])
            else:
                args.append(self.fit(self.expr(depth - 1), HELPER_IV.lo, HELPER_IV.hi))
        return args

    def icall(self, depth):
        """A call through a function table entry or a callback parameter."""
        slot = self.ch.pick(self.fntabs + self.fnparams)
        args = self.fn_args(slot.sig, depth)
        if args is None:
            return self.leaf()
        if slot.length:
            callee = FnRef(slot.name, self.fn_index(slot.length))
        else:
            callee = FnRef(slot.name, param=True)
        return IndirectCall(callee, args, "d", slot.ret_iv)

    def stmt_fncall(self, nest):
        """`double t = tab[sel % K](...)`, or (outside loops) a sum over a
        counted loop whose counter selects the table entry."""
        if not self.fntabs or self.loops or self.ch.chance(40):
            e = self.tame(self.icall(self.ch.between(1, 3)))
            name = self.new_name("t")
            self.declare(name, VarInfo("fp", "d", e.iv))
            return [Decl("d", name, e)]
        slot = self.ch.pick(self.fntabs)
        bound, top = self.trip_count() if self.nparam else (str(slot.length), slot.length)
        j, r = self.new_name("i"), self.new_name("r")
        self.loopvars.append((j, top - 1))
        try:
            args = self.fn_args(slot.sig, self.ch.between(1, 2))
            if args is not None:
                call = IndirectCall(FnRef(slot.name, self.fn_index(slot.length)), args, "d",
                                    slot.ret_iv)
                e = self.fit(call, -8.0, 8.0)
        finally:
            self.loopvars.pop()
        if args is None:
            return self.stmt_decl(nest)
        init = self.const("d")
        self.declare(r, VarInfo("fp", "d", init.iv + e.iv.union(Iv.point(0.0)).scale(float(top))))
        return [Decl("d", r, init), For(j, bound, [Assign(r, "+=", e, "d", track=True)])]

    # ---------------------------------------- by-value structs (feature byval)
    def struct_vars(self, sty):
        """Struct variables of type sty whose fields may be passed as they are."""
        out = []
        for n, (_, i) in self._visible().items():
            if i.kind != "struct" or i.ty != sty:
                continue
            fields = [self._visible().get("%s.%s" % (n, f)) for f, t in STRUCTS[sty] if t == "d"]
            if all(fi and fi[1].readable and fi[1].iv.within(HELPER_IV.lo, HELPER_IV.hi)
                   for fi in fields):
                out.append(n)
        return out

    def int_code(self):
        """An int struct field's value in [0, NMAX]: a constant, `sel` or a counter."""
        forms = [str(self.ch.between(1, 4))]
        if self.sel:
            forms.append(self.sel)
        if self.loopvars:
            forms.append(self.ch.pick(self.loopvars)[0])
        return self.ch.pick(forms)

    def struct_lit(self, sty, depth):
        fields = []
        for _, t in STRUCTS[sty]:
            if t == "i":
                fields.append(self.int_code())
            else:
                fields.append(self.fit(self.expr(max(depth - 1, 0)), HELPER_IV.lo, HELPER_IV.hi))
        return StructLit(sty, fields)

    def struct_arg(self, sty, depth):
        names = self.struct_vars(sty)
        if names and self.ch.chance(60):
            return self.ch.pick(names)
        return self.struct_lit(sty, depth)

    def declare_struct(self, name, sty, ivs):
        self.declare(name, VarInfo("struct", sty))
        for (f, t), iv in zip([ft for ft in STRUCTS[sty] if ft[1] == "d"], ivs):
            self.declare("%s.%s" % (name, f), VarInfo("fp", "d", iv))

    def stmt_structvar(self, nest):
        sty = self.ch.pick(sorted(STRUCTS))
        lit = self.struct_lit(sty, self.ch.between(1, 2))
        name = self.new_name("sv")
        self.declare_struct(name, sty, [e.iv for e, (_, t) in zip(lit.fields, STRUCTS[sty])
                                        if t == "d"])
        return [Decl(sty, name, lit)]

    def stmt_byval(self, nest):
        """A call of a helper taking and/or returning structs by value; a
        returned struct becomes a variable whose fields are in scope."""
        byval = [h for h in self.helpers if h.ret_ty in STRUCTS
                 or any(p.kind in STRUCTS for p in h.params)]
        if not byval:
            return self.stmt_structvar(nest)
        h = self.ch.pick(byval)
        out = []
        for p in h.params:
            if p.kind in STRUCTS and not self.struct_vars(p.kind) and self.ch.chance(50):
                out += self.stmt_structvar_of(p.kind)
        args = []
        depth = self.ch.between(1, 2)
        for p in h.params:
            if p.kind == "arr":
                arrays = self.arrays()
                if not arrays:
                    return out + self.stmt_decl(nest)
                args.append(self.ch.pick(arrays)[0])
            elif p.kind == "i":
                args.append(str(self.ch.between(1, 4)))
            elif p.kind == "fn":
                args.append(self.fn_designator(p.slot))
            elif p.kind in STRUCTS:
                args.append(self.struct_arg(p.kind, depth))
            else:
                args.append(self.fit(self.expr(depth), HELPER_IV.lo, HELPER_IV.hi))
        call = HelperCall(h.name, args, h.ret_ty, h.ret_iv)
        if h.ret_ty in STRUCTS:
            name = self.new_name("sv")
            nfp = sum(1 for _, t in STRUCTS[h.ret_ty] if t == "d")
            self.declare_struct(name, h.ret_ty, [h.ret_iv] * nfp)
            return out + [Decl(h.ret_ty, name, call)]
        name = self.new_name("t")
        e = self.tame(call)
        self.declare(name, VarInfo("fp", "d", e.iv))
        return out + [Decl("d", name, e)]

    def stmt_structvar_of(self, sty):
        lit = self.struct_lit(sty, self.ch.between(1, 2))
        name = self.new_name("sv")
        self.declare_struct(name, sty, [e.iv for e, (_, t) in zip(lit.fields, STRUCTS[sty])
                                        if t == "d"])
        return [Decl(sty, name, lit)]

    # ------------------------------------------------------ domain shaping
    def tame(self, e):
        """Squash an expression whose magnitude could exceed MAXMAG."""
        if e.iv.mag() <= MAXMAG and not math.isnan(e.iv.lo + e.iv.hi):
            return e
        bound = self.ch.pick([8.0, 2.0, 4.0])
        return self.fit(e, -bound, bound)

    def fit(self, e, lo, hi):
        """Map e smoothly into [lo, hi] (identity if it already is inside)."""
        if e.iv.within(lo, hi):
            return e
        mid = q16((lo + hi) / 2)
        rad = math.floor(0.9 * min(hi - mid, mid - lo) * 16) / 16
        scale = 1.0
        while e.iv.mag() * scale > 2.0:
            scale /= 2.0
        arg = e if scale == 1.0 else Bin("*", e, Const(scale, e.ty), e.iv.scale(scale))
        if self.vec is not None and not self.veclib:
            # x / sqrt(1 + x*x): no libm call, so the loop still vectorises
            sq = Bin("*", arg, arg, arg.iv.square())
            one = Bin("+", Const(1.0, e.ty), sq, sq.iv + Iv.point(1.0))
            root = Call("sqrt", [one], e.ty, libm_image("sqrt", [one.iv]))
            g = lambda x: x / math.sqrt(1.0 + x * x)
            core = Bin("/", arg, root, Iv(g(arg.iv.lo), g(arg.iv.hi)).widen())
            out = Bin("*", Const(rad, e.ty), core, core.iv.scale(rad))
            if mid != 0.0:
                out = Bin("+", Const(mid, e.ty), out, out.iv + Iv.point(mid))
            return out
        fn = self.ch.pick(SQUASHERS)
        if fn == "atan":
            rad = math.floor(rad / 1.6 * 16) / 16
        core = Call(fn, [arg], e.ty, libm_image(fn, [arg.iv]))
        out = Bin("*", Const(rad, e.ty), core, core.iv.scale(rad))
        if mid != 0.0:
            out = Bin("+", Const(mid, e.ty), out, out.iv + Iv.point(mid))
        assert out.iv.within(lo - 1e-6, hi + 1e-6), (lo, hi, out.iv)
        return out

    def pos(self, e, lo_min):
        """An expression >= lo_min built from e (e itself if already so)."""
        if e.iv.lo >= lo_min:
            return e
        c = q16(lo_min + 0.25 * self.ch.between(1, 5))
        form = self.ch.below(3)
        if self.vec is not None and not self.veclib:
            form = 0   # exp and cos would keep the loop scalar
        if form == 0:
            sq = Bin("*", e, e, e.iv.square())
            return Bin("+", Const(c, e.ty), sq, sq.iv + Iv.point(c))
        if form == 1:
            inner = self.fit(e, -4.0, 4.0)
            ex = Call("exp", [inner], e.ty, libm_image("exp", [inner.iv]))
            return Bin("+", Const(c, e.ty), ex, ex.iv + Iv.point(c))
        co = Call("cos", [e], e.ty, libm_image("cos", [e.iv]))
        return Bin("+", Const(c + 1.0, e.ty), co, co.iv + Iv.point(c + 1.0))

    def den(self, e):
        """A divisor bounded away from zero built from e."""
        if e.iv.excludes(-0.5, 0.5):
            return e
        p = self.pos(e, 0.75)
        return Neg(p) if self.ch.chance(25) else p

    # ------------------------------------------------------------ conditions
    def cond(self, depth):
        if self.ch.chance(15):
            op = self.ch.pick(["&&", "||"])
            return Logic(op, self.cmp(depth), self.cmp(depth))
        return self.cmp(depth)

    def cmp(self, depth):
        a = self.expr(max(depth, 1))
        op = self.ch.pick([">", "<", ">=", "<="])
        if self.ch.chance(30):
            return Cmp(op, a, self.distinct(a, self.expr(depth)))
        lo, hi = max(a.iv.lo, -MAXMAG), min(a.iv.hi, MAXMAG)
        if hi - lo < 0.25:
            # (nearly) constant left side: compare against a clearly different value
            shift = 0.25 * self.ch.between(1, 4) * self.ch.pick([1, -1])
            return Cmp(op, a, Const(q16((lo + hi) / 2) + shift, a.ty))
        c = q16(lo + (hi - lo) * self.ch.between(1, 7) / 8)
        return Cmp(op, a, Const(c, a.ty))

    # ------------------------------------------------------------ statements
    def block(self, count, nest):
        stmts = []
        for _ in range(count):
            stmts.extend(self.stmt(nest))
        return stmts

    def stmt(self, nest):
        options = [(4, "decl"), (4, "assign")]
        if "branches" in self.feat and nest < 3:
            options.append((3, "if"))
        if "loops" in self.feat and nest < 2:
            options += [(2, "for"), (1, "while")]
        if self.arrays():
            options.append((3, "store"))
        if nest == 0 and not self.loops and ({"arrays", "malloc"} & self.feat):
            options.append((1, "scratch"))
        # A block per iteration, in the loop body's own scope (feature tape:
        # split mode's tape owns such blocks through a list).
        if ("tape" in self.feat and "malloc" in self.feat and self.loops
                and len(self.scopes) - 1 == self.loops[-1].depth):
            options.append((1, "loopscratch"))
        if "intarrays" in self.feat and nest == 0 and not self.loops:
            options.append((2, "indices"))
            if self.arrays():
                options.append((1, "bytescopy"))
        if "structs" in self.feat:
            options.append((1, "struct"))
        if "constptr" in self.feat and nest == 0 and not self.loops and self.arrays():
            options.append((2, "table"))
        if self.fntabs:
            options.append((2, "fncall"))
        if "tape" in self.feat and self.arrays():
            options.append((2, "copy"))
        if "byval" in self.feat and any(h.ret_ty in STRUCTS or any(p.kind in STRUCTS for p in h.params)
                                        for h in self.helpers):
            options += [(2, "byval"), (1, "structvar")]
        if not self.loops:
            if "vectorize" in self.feat and self.arrays():
                options.append((8, "vloop"))
            if "realloc" in self.feat and nest == 0:
                options.append((2, "grow"))
            if "sort" in self.feat and nest == 0:
                options.append((2, "sort"))
            if "omp" in self.feat and self.ret_ty == "d" and self.is_f:
                options.append((3, "ploop"))
        kind = self.ch.weighted(options)
        return getattr(self, "stmt_" + kind)(nest)

    def new_name(self, prefix):
        return self.names.fresh(prefix)

    def stmt_decl(self, nest):
        ty = self.fp_type(30)
        e = self.expr(self.ch.between(1, 3))
        name = self.new_name("t")
        self.declare(name, VarInfo("fp", ty, e.iv))
        return [Decl(ty, name, e)]

    def stmt_assign(self, nest):
        targets = self.writable_fp()
        if not targets:
            return self.stmt_decl(nest)
        name, info = self.ch.pick(targets)
        loop = self.loops[-1] if self.loops else None
        limit = loop.carried.get(name) if loop else None
        if limit is None:
            limit = Iv(-MAXMAG, MAXMAG)
        target = Var(name, info.ty, info.iv)
        form = self.ch.pick(["=", "+=", "-=", "*="])
        if form == "*=":
            c = self.const(None, -1.0, 1.0)
            info.iv = info.iv * Iv.point(c.value)
            return [Assign(name, "*=", c, info.ty)]
        e = self.expr(self.ch.between(1, 3))
        if form != "=":
            whole = Bin(form[0], target, e, target.iv + e.iv if form == "+=" else target.iv - e.iv)
            if whole.iv.within(limit.lo, limit.hi):
                info.iv = whole.iv
                return [Assign(name, form, e, info.ty)]
            e = whole
        e = self.fit(e, limit.lo, limit.hi)
        info.iv = e.iv
        return [Assign(name, "=", e, info.ty)]

    def stmt_store(self, nest):
        name, _ = self.ch.pick(self.arrays())
        idx = self.index()
        if self.ch.chance(25):
            return [Assign("%s[%s]" % (name, idx), "*=", self.const("d", -1.0, 1.0), "d")]
        e = self.fit(self.expr(self.ch.between(1, 3)), ARR_IV.lo, ARR_IV.hi)
        return [Assign("%s[%s]" % (name, idx), "=", e, "d")]

    def stmt_if(self, nest):
        cond = self.cond(self.ch.between(1, 2))
        before = self.snapshot()
        then = self.scoped(lambda: self.block(self.ch.between(1, 3), nest + 1))
        returns = self.ch.chance(15)
        if returns:
            then.append(self.make_return())
        after_then = self.snapshot()
        self.restore(before)
        other = []
        if self.ch.chance(60):
            other = self.scoped(lambda: self.block(self.ch.between(1, 2), nest + 1))
        if not returns:
            merged = self.snapshot()
            for name, iv in after_then.items():
                if name in merged:
                    merged[name] = merged[name].union(iv)
            self.restore(merged)
        return [If(cond, then, other)]

    def scoped(self, fn):
        self.scopes.append({})
        try:
            return fn()
        finally:
            self.scopes.pop()

    def trip_count(self):
        if self.nparam and self.ch.chance(75 if "tape" in self.feat else 40):
            return self.nparam, NMAX
        k = self.ch.between(1, 5)
        return str(k), k

    def loop(self, nest, var, top, make, data_dependent=False):
        """Shared machinery of for/while: invariants, accumulator, body.

        `make(cond, body)` builds the statement; `cond` is a data-dependent
        exit test (while loops only) built once the invariants are in place.
        """
        writable = self.writable_fp()
        outer = self.loops[-1].carried if self.loops else {}
        carried = {}
        for _ in range(self.ch.between(1, 2)):
            if writable:
                name, info = self.ch.pick(writable)
                b = max(4.0, math.ceil(info.iv.mag()))
                carried[name] = Iv(-b, b)
                info.iv = carried[name]
        acc = None
        rest = [(n, i) for n, i in writable if n not in carried and n not in outer]
        if rest and self.ch.chance(50):
            acc = self.ch.pick(rest)
            acc[1].readable = False
        self.loops.append(LoopCtx(len(self.scopes), carried))
        self.loopvars.append((var, top - 1))
        self.scopes.append({})
        try:
            cond = self.cmp(1) if data_dependent else None
            body = self.block(self.ch.between(1, 3), nest + 1)
            if acc is not None:
                inc = self.expr(self.ch.between(1, 2))
                body.append(Assign(acc[0], "+=", inc, acc[1].ty))
            body.extend(Free(name) for name in self.loops[-1].frees)
        finally:
            self.scopes.pop()
            self.loopvars.pop()
            self.loops.pop()
        vis = self._visible()
        for name, inv in carried.items():
            vis[name][1].iv = inv
        if acc is not None:
            acc[1].readable = True
            acc[1].iv = acc[1].iv + inc.iv.union(Iv.point(0.0)).scale(float(top))
        return [make(cond, body)]

    def stmt_for(self, nest):
        bound, top = self.trip_count()
        var = self.new_name("i")
        return self.loop(nest, var, top, lambda c, body: For(var, bound, body))

    def stmt_while(self, nest):
        bound, top = self.trip_count()
        var = self.new_name("k")
        dd = self.ch.chance(50)
        return self.loop(nest, var, top, lambda c, body: While(var, bound, c, body), dd)

    def stmt_scratch(self, nest):
        heap = "malloc" in self.feat and ("arrays" not in self.feat or self.ch.chance(50))
        name, stmts = self.scratch_array(heap)
        if heap:
            self.heap.append(name)
        return stmts

    def stmt_indices(self, nest):
        """A heap array of indices in [0, arrlen) (feature intarrays), read
        as array subscripts from then on; freed before every return."""
        name, var = self.new_name("ix"), self.new_name("j")
        mult = self.ch.between(1, 3)
        off = self.ch.below(self.arrlen)
        elem = "unsigned char" if self.ch.chance(30) else "int"
        grown = elem == "int" and self.ch.chance(30)
        self.declare(name, VarInfo("iarr", "i", None, self.arrlen, True))
        self.heap.append(name)
        return [IndexArray(name, var, self.arrlen, mult, off, elem, grown)]

    def stmt_bytescopy(self, nest):
        """A copy of an array in scope made through a heap buffer of bytes
        (feature intarrays): the bytes are doubles and keep derivatives."""
        src = self.ch.pick(self.arrays())[0]
        name, buf = self.new_name("c"), self.new_name("b")
        self.declare(name, VarInfo("arr", "d", ARR_IV, self.arrlen))
        return [BytesCopy(name, buf, src, self.arrlen)]

    def stmt_loopscratch(self, nest):
        """A malloc'd array filled and used in one iteration of a loop and
        freed at the end of that iteration (feature tape)."""
        name, stmts = self.scratch_array(True)
        self.loops[-1].frees.append(name)
        return stmts

    def scratch_array(self, heap):
        """A fresh array (malloc'd if `heap`) and the loop that fills it."""
        name = self.new_name("s")
        var = self.new_name("j")
        self.loopvars.append((var, self.arrlen - 1))
        try:
            e = self.fit(self.expr(self.ch.between(1, 2)), ARR_IV.lo, ARR_IV.hi)
        finally:
            self.loopvars.pop()
        self.declare(name, VarInfo("arr", "d", ARR_IV, self.arrlen, heap))
        init = For(var, str(self.arrlen), [Assign("%s[%s]" % (name, var), "=", e, "d")])
        init.keep = init.body[0].keep = True   # the reducer must not leave it uninitialised
        return name, [ArrayDecl(name, self.arrlen, heap), init]

    def stmt_copy(self, nest):
        """memcpy of an array in scope into a fresh local array, or into
        part of another array (feature tape: local arrays and memcpy)."""
        src = self.ch.pick(self.arrays())[0]
        others = [n for n, _ in self.arrays() if n != src]
        if not others or self.ch.chance(60):
            name = self.new_name("c")
            self.declare(name, VarInfo("arr", "d", ARR_IV, self.arrlen))
            return [ArrayDecl(name, self.arrlen, False), Copy(name, src, 0, self.arrlen, True)]
        dst = self.ch.pick(others)
        off = self.ch.below(self.arrlen)
        return [Copy(dst, src, off, self.arrlen - off)]

    def stmt_table(self, nest):
        """A table of pointers to the arrays in scope (`constptr`): those
        passed enzyme_const sit beside those passed enzyme_dup."""
        arrays = [n for n, _ in self.arrays()]
        entries = [self.ch.pick(arrays) for _ in range(self.ch.between(2, 3))]
        heap = self.ch.chance(50)
        name = self.new_name("tab")
        self.declare(name, VarInfo("ptab", "d", ARR_IV, len(entries), heap))
        if heap:
            self.heap.append(name)
        return [TableDecl(name, entries, heap)]

    def stmt_struct(self, nest):
        name = self.new_name("s")
        fields = [("d", "u"), (self.struct_vty, "v")]
        structs = [n[:-2] for n, _ in self.readable_fp() if n.endswith(".u")]
        if structs and self.ch.chance(30):
            src = self.ch.pick(structs)
            vis = self._visible()
            for (_, f) in fields:
                info = vis[src + "." + f][1]
                self.declare("%s.%s" % (name, f), VarInfo("fp", info.ty, info.iv))
            return [StructDecl(name, fields, src)]
        exprs = [self.expr(self.ch.between(1, 2)) for _ in fields]
        for (ty, f), e in zip(fields, exprs):
            self.declare("%s.%s" % (name, f), VarInfo("fp", ty, e.iv))
        return [StructDecl(name, fields, exprs)]

    # ------------------------------------- vectorisable loops (vectorize)
    def vbound(self):
        """Trip count of an array loop: the length, or the runtime m."""
        if self.mparam and self.ch.chance(75):
            return self.mparam
        return str(self.arrlen)

    def vexpr(self, var, forms, depth, lo=-8.0, hi=8.0):
        """An elementwise expression of loop index `var`: reads at the index
        forms, loop-invariant scalars, constants, vectorisable calls."""
        saved = self.vec
        self.vec = forms
        self.loopvars.append((var, self.arrlen - 1))
        try:
            return self.fit(self.expr(depth), lo, hi)
        finally:
            self.loopvars.pop()
            self.vec = saved

    def stmt_vloop(self, nest):
        """A loop of the shapes the loop vectoriser widens: a sum, product,
        fmax/fmin or compare-select reduction, or an elementwise update of
        an array, over contiguous, reversed, gathered or stride-2 indices."""
        j = self.new_name("v")
        bound = self.vbound()
        stride = self.ch.chance(25)
        if stride:
            forms = ["2 * %s" % j, "2 * %s + 1" % j, j]
            bound = "%s / 2" % bound
        else:
            forms = [j, j, "(%s - 1 - %s)" % (bound, j)]
            if self.ch.chance(20):
                forms.append("(%s * 3 + 1) %% %d" % (j, self.arrlen))   # a gather
        trips = float(self.arrlen // 2 if stride else self.arrlen)
        shape = self.ch.pick(["sum", "map", "max", "min", "sel", "prod"])
        depth = self.ch.between(1, 3)
        if shape == "map":
            name, _ = self.ch.pick(self.arrays())
            target = "%s[%s]" % (name, forms[self.ch.below(2)])
            e = self.vexpr(j, forms, depth, ARR_IV.lo, ARR_IV.hi)
            return [For(j, bound, [Assign(target, "=", e, "d")])]
        r = self.new_name("r")
        if shape == "sum":
            init = self.const("d")
            e = self.vexpr(j, forms, depth)
            body = Assign(r, "+=", e, "d", track=True)
            iv = init.iv + e.iv.union(Iv.point(0.0)).scale(trips)
        elif shape == "prod":
            # r *= 1 + e/8 with e in [-1, 1]: bounded by 1.125^L
            init = Const(q16(0.5 + self.ch.below(16) / 16), "d")
            e = self.vexpr(j, forms, depth, -1.0, 1.0)
            factor = Bin("+", Const(1.0, "d"), Bin("*", Const(0.125, "d"), e, e.iv.scale(0.125)),
                         Iv(0.875, 1.125))
            body = Assign(r, "*=", factor, "d", track=True)
            iv = Iv(init.value * 0.875 ** trips, init.value * 1.125 ** trips).widen()
        else:
            e = self.vexpr(j, forms, depth, -4.0, 4.0)
            # plus a term that grows with j: an element expression that does
            # not depend on j would make every element tie
            k = Const(self.ch.pick([0.125, -0.1875, 0.25]), "d")
            jv = IntAsFp(j, "d", Iv(0.0, trips - 1))
            ramp = Bin("*", k, jv, jv.iv.scale(k.value))
            e = Bin("+", e, ramp, e.iv + ramp.iv)
            # a start value strictly outside the elements' range: no tie with it
            start = q16(e.iv.lo - 0.5) if shape in ("max", "sel") else q16(e.iv.hi + 0.5)
            init = Const(start, "d")
            rv = Var(r, "d", e.iv.union(init.iv))
            if shape == "sel":
                value = Select(Cmp(">", e, rv), e, rv)
            else:
                value = Call("fmax" if shape == "max" else "fmin", [rv, e], "d", rv.iv)
            body = Assign(r, "=", value, "d")
            iv = rv.iv
        self.declare(r, VarInfo("fp", "d", iv))
        return [Decl("d", r, init), For(j, bound, [body])]

    # ------------------------------------------ parallel loops (feature omp)
    def pbody(self, var, top, depth, lo=-8.0, hi=8.0, more=()):
        """An expression of loop counter(s) `var` (and `more`: (name, top))
        for the body of a parallel loop: reads of any array at counter-
        derived indices, scalars, libm, helpers that take no array (a
        helper may write the array it is given: omp.analyse would refuse
        the loop)."""
        saved = self.helpers, self.fntabs
        self.helpers = [h for h in self.helpers
                        if not any(p.kind in ("arr", "fn") for p in h.params)]
        self.fntabs = [t for t in self.fntabs if "arr" not in t.sig[1]]
        self.loopvars.append((var, top - 1))
        self.loopvars.extend(more)
        try:
            return self.fit(self.expr(depth), lo, hi)
        finally:
            del self.loopvars[-1 - len(more):]
            self.helpers, self.fntabs = saved

    def pbound(self):
        """Trip count of a parallel loop: the array length, the runtime
        length m, or the runtime trip count n."""
        forms = [(str(self.arrlen), self.arrlen)]
        if self.mparam:
            forms.append((self.mparam, self.arrlen))
        if self.nparam:
            forms.append((self.nparam, NMAX))
        return self.ch.pick(forms)

    def stmt_ploop(self, nest):
        """A loop omp.mark makes `#pragma omp parallel for`: a sum (two
        nested loops now and then, for collapse(2)), product, fmax/fmin or
        compare-select reduction into a fresh local, or an elementwise
        update of an array (a fresh one, or one the body reads only at the
        element it writes)."""
        j = self.new_name("j")
        bound, top = self.pbound()
        shapes = ["sum", "sum2", "prod", "max", "min", "sel"]
        if self.arrays() or (nest == 0 and not self.loops):
            shapes.append("map")
        shape = self.ch.pick(shapes)
        depth = self.ch.between(1, 3)
        if shape == "map":
            return self.pmap(j, bound, top, depth, nest)
        r = self.new_name("r")
        if shape == "sum":
            init = self.const("d")
            e = self.pbody(j, top, depth)
            loop = For(j, bound, [Assign(r, "+=", e, "d", track=True)])
            iv = init.iv + e.iv.union(Iv.point(0.0)).scale(float(top))
            loop.red = {r: "+"}
        elif shape == "sum2":
            k = self.new_name("j")
            bound2, top2 = self.trip_count()
            init = self.const("d")
            e = self.pbody(k, top2, depth, more=[(j, top - 1)])
            inner = For(k, bound2, [Assign(r, "+=", e, "d", track=True)])
            loop = For(j, bound, [inner])
            iv = init.iv + e.iv.union(Iv.point(0.0)).scale(float(top * top2))
            loop.red = inner.red = {r: "+"}
        elif shape == "prod":
            # r *= 1 + e/8 with e in [-1, 1]: bounded by 1.125^top
            init = Const(q16(0.5 + self.ch.below(16) / 16), "d")
            e = self.pbody(j, top, depth, -1.0, 1.0)
            factor = Bin("+", Const(1.0, "d"), Bin("*", Const(0.125, "d"), e, e.iv.scale(0.125)),
                         Iv(0.875, 1.125))
            loop = For(j, bound, [Assign(r, "*=", factor, "d", track=True)])
            iv = Iv(init.value * 0.875 ** top, init.value * 1.125 ** top).widen()
            loop.red = {r: "*"}
        else:
            e = self.pbody(j, top, depth, -4.0, 4.0)
            # a term growing with j, so that no two elements tie
            c = Const(self.ch.pick([0.125, -0.1875, 0.25]), "d")
            jv = IntAsFp(j, "d", Iv(0.0, top - 1.0))
            ramp = Bin("*", c, jv, jv.iv.scale(c.value))
            e = Bin("+", e, ramp, e.iv + ramp.iv)
            # a start value strictly outside the elements' range
            start = q16(e.iv.lo - 0.5) if shape in ("max", "sel") else q16(e.iv.hi + 0.5)
            init = Const(start, "d")
            rv = Var(r, "d", e.iv.union(init.iv))
            if shape == "sel":
                value = Select(Cmp(">", e, rv), e, rv)
            else:
                value = Call("fmax" if shape == "max" else "fmin", [rv, e], "d", rv.iv)
            loop = For(j, bound, [Assign(r, "=", value, "d")])
            iv = rv.iv
            loop.red = {r: "min" if shape == "min" else "max"}
        self.declare(r, VarInfo("fp", "d", iv))
        return [Decl("d", r, init), loop]

    def pmap(self, j, bound, top, depth, nest):
        """p[j] = e(j): into a fresh array (stack or heap, at the top level
        of f), or in place into an array that e reads only at p[j]."""
        from cast import walk as ast_walk
        e = self.pbody(j, top, depth, ARR_IV.lo, ARR_IV.hi)
        reads = {}
        for n in ast_walk(e):
            if isinstance(n, Elem):
                reads.setdefault(n.array, set()).add(n.index)
        inplace = [n for n, i in self.arrays()
                   if "[" not in n and reads.get(n, {j}) <= {j}]
        fresh = nest == 0 and not self.loops
        if inplace and (not fresh or self.ch.chance(50)):
            name = self.ch.pick(inplace)
            if top > self.arrlen:
                bound = str(self.arrlen)
            if self.ch.chance(30):
                # p[j] = p[j] * c + e: a read of the element written
                c = self.const("d", -1.0, 1.0)
                old = Elem(name, j, "d", ARR_IV)
                mix = Bin("+", Bin("*", old, c, ARR_IV.scale(abs(c.value))), e,
                          ARR_IV.scale(abs(c.value)) + e.iv)
                e = self.fit(mix, ARR_IV.lo, ARR_IV.hi)
            loop = For(j, bound, [Assign("%s[%s]" % (name, j), "=", e, "d")])
            loop.red = {}
            return [loop]
        if not fresh:
            return self.stmt_ploop_reduction(j, bound, top, depth)
        heap = "malloc" in self.feat and self.ch.chance(50)
        name = self.new_name("p")
        if top > self.arrlen:
            bound = str(self.arrlen)
        self.declare(name, VarInfo("arr", "d", ARR_IV, self.arrlen, heap))
        if heap:
            self.heap.append(name)
        # every element is written: the loop runs over the whole length
        if bound == self.nparam:
            bound = str(self.arrlen)
        loop = For(j, bound, [Assign("%s[%s]" % (name, j), "=", e, "d")])
        loop.keep = loop.body[0].keep = True
        loop.red = {}
        return [ArrayDecl(name, self.arrlen, heap), loop]

    def stmt_ploop_reduction(self, j, bound, top, depth):
        r = self.new_name("r")
        init = self.const("d")
        e = self.pbody(j, top, depth)
        loop = For(j, bound, [Assign(r, "+=", e, "d", track=True)])
        loop.red = {r: "+"}
        self.declare(r, VarInfo("fp", "d", init.iv + e.iv.union(Iv.point(0.0)).scale(float(top))))
        return [Decl("d", r, init), loop]

    # -------------------------------------------- realloc'd buffers (realloc)
    def stmt_grow(self, nest):
        """A buffer grown by realloc from NULL in a counted loop; then either
        consumed by a reduction loop and freed right after it, or kept as a
        heap array (freed before every return)."""
        g, j = self.new_name("g"), self.new_name("j")
        bound = self.vbound() if self.mparam else str(self.arrlen)
        chunk = self.ch.below(3)
        self.loopvars.append((j, self.arrlen - 1))
        try:
            e = self.expr(self.ch.between(1, 2))
        finally:
            self.loopvars.pop()
        if self.ch.chance(40):
            # a recurrence on the element written the previous iteration
            c = Const(self.ch.pick([0.5, 0.25, -0.5]), "d")
            prev = Select(IntCmp("%s > 0" % j), Elem(g, "%s - 1" % j, "d", ARR_IV), Const(0.0, "d"))
            prev.iv = ARR_IV.union(Iv.point(0.0))
            rec = Bin("*", c, prev, prev.iv.scale(c.value))
            e = Bin("+", e, rec, e.iv + rec.iv)
        e = self.fit(e, ARR_IV.lo, ARR_IV.hi)
        out = [Grow(g, j, bound, e, chunk)]
        self.declare(g, VarInfo("arr", "d", ARR_IV, self.arrlen, True))
        if self.ch.chance(50):
            v, r = self.new_name("v"), self.new_name("r")
            init = self.const("d")
            w = self.vexpr(v, [v, v, "(%s - 1 - %s)" % (bound, v)], self.ch.between(1, 2))
            term = Bin("*", Elem(g, v, "d", ARR_IV), w, ARR_IV * w.iv)
            out += [Decl("d", r, init),
                    For(v, bound, [Assign(r, "+=", term, "d", track=True)]), Free(g)]
            del self.scopes[-1][g]
            self.declare(r, VarInfo("fp", "d", init.iv + term.iv.union(Iv.point(0.0))
                                    .scale(float(self.arrlen))))
        else:
            self.heap.append(g)
        return out

    # ----------------------------------------------------- qsort (sort)
    def stmt_sort(self, nest):
        """qsort of a local copy of computed values (stack or heap), or now
        and then of an array parameter in place; the sorted values are then
        an array in scope like any other."""
        params = [n for n, i in self.arrays() if not i.heap and n.startswith("a")]
        cmp = self.ch.below(NCMP)
        count = self.vbound() if self.mparam else str(self.arrlen)
        if params and self.ch.chance(20):
            return [Sort(self.ch.pick(params), count, cmp, cmp == 2)]
        heap = self.ch.chance(50)
        c, j = self.new_name("c"), self.new_name("j")
        self.loopvars.append((j, self.arrlen - 1))
        try:
            e = self.expr(self.ch.between(1, 2))
            arrays = self.arrays()
            if arrays:
                src = Elem(self.ch.pick(arrays)[0], j, "d", ARR_IV)
            else:
                src = IntAsFp(j, "d", Iv(0.0, float(self.arrlen - 1)))
        finally:
            self.loopvars.pop()
        # a term that varies with j, so that the values are rarely all equal;
        # and 0.0625 sin(j) in case the array read is uniform (g[j] = x1 for
        # all j: equal sorted neighbours are a tie). sin(j) is irrational
        # for j > 0, so it cannot tie with the 1/64 grid of the samples as a
        # ramp c*j would (1.5 a[j] + 0.0625 j ties for a 1/64 apart)
        k = Const(self.ch.pick([0.75, -1.25, 1.5]), "d")
        spread = Bin("*", k, src, src.iv.scale(k.value))
        if isinstance(src, Elem):
            jj = IntAsFp(j, "d", Iv(0.0, float(self.arrlen - 1)))
            ramp = Bin("*", Const(0.0625, "d"), Call("sin", [jj], "d", Iv(-1.0, 1.0)),
                       Iv(-0.0625, 0.0625))
            spread = Bin("+", spread, ramp, spread.iv + ramp.iv)
        e = self.fit(Bin("+", e, spread, e.iv + spread.iv), ARR_IV.lo, ARR_IV.hi)
        self.declare(c, VarInfo("arr", "d", ARR_IV, self.arrlen, heap))
        if heap:
            self.heap.append(c)
        init = For(j, str(self.arrlen), [Assign("%s[%s]" % (c, j), "=", e, "d")])
        init.keep = init.body[0].keep = True
        return [ArrayDecl(c, self.arrlen, heap), init, Sort(c, count, cmp, cmp == 2)]

    def make_return(self, must=()):
        """The return statement; `must`: terms the result always includes.
        A helper returning a struct by value returns a compound literal
        whose fields are each a result expression fit into HELPER_IV."""
        if self.ret_ty in STRUCTS:
            fields = []
            for f, t in STRUCTS[self.ret_ty]:
                if t == "i":
                    ints = [n for n, _ in self.loopvars if n.endswith(".n")]
                    fields.append("%s %% 3 + 1" % ints[0] if ints else str(self.ch.between(1, 3)))
                else:
                    e = self.result_expr()
                    for m in must:
                        e = self.tame(Bin("+", e, m, e.iv + m.iv))
                    fields.append(self.fit(e, HELPER_IV.lo, HELPER_IV.hi))
            self.returns.append(HELPER_IV)
            return Return(StructLit(self.ret_ty, fields), self.ret_ty, self.heap)
        e = self.result_expr()
        for m in must:
            e = self.tame(Bin("+", e, m, e.iv + m.iv))
        self.returns.append(e.iv)
        return Return(e, self.ret_ty, self.heap)

    def result_expr(self):
        """The returned value: an expression plus a random subset (at least
        one) of the variables and array cells in scope, so that most of the
        computed state reaches the result."""
        e = self.expr(self.ch.between(1, 3))
        fps = self.readable_fp()
        terms = [Var(n, i.ty, i.iv) for n, i in fps if self.ch.chance(60)]
        if fps and not terms:
            name, info = self.ch.pick(fps)
            terms.append(Var(name, info.ty, info.iv))
        for name, _ in self.arrays():
            if self.ch.chance(60):
                terms.append(Elem(name, self.index(), "d", ARR_IV))
        for t in terms:
            op = self.ch.weighted([(4, "+"), (1, "-"), (1, "*")])
            iv = {"+": e.iv + t.iv, "-": e.iv - t.iv, "*": e.iv * t.iv}[op]
            e = self.tame(Bin(op, e, t, iv))
        return e
