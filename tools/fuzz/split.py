"""Split-mode checks (feature `split`): the AD request of a generated program,
made again through __enzyme_augmentfwd / __enzyme_reverse and thunks.

With `split`, main() runs four more blocks after the one-shot REV/FWD calls
(each with fresh copies of the arrays and zeroed shadows, all with the same
markers as the __enzyme_autodiff call, explicit or implicit):

1. entry points:  TapAug s = __enzyme_augmentfwd(f, args...)  -> SPRIMAL
                  overwrite every input array with garbage
                  __enzyme_reverse(f, args..., 1.0, s.tape)   -> SREV k
2. caller buffer: sz = __enzyme_augmentsize(f, explicit markers...)
                  raw = malloc(OFF + sz + 64), all 0xA5; buf = raw + OFF
                  __enzyme_augmentfwd(f, enzyme_allocated, sz, enzyme_tape,
                                      buf, args...)            -> APRIMAL
                  garbage; __enzyme_reverse(f, enzyme_allocated, sz,
                                      enzyme_tape, buf, args..., 1.0) -> AREV k
                  the OFF bytes before and 64 bytes after the buffer must
                  still be 0xA5                                -> CANARY, AUGSIZE
                  if the thunk says reusable, the buffer is replayed: every
                  sweep but the last with enzyme_nofree, shadows restored to
                  their state after the forward half, seeds s_2..s_N (N 2-4,
                  powers of two)                               -> AREP i k
                  and the buffer's life ends with the last sweep (no
                  enzyme_nofree) or, after N nofree sweeps, t->release
3. thunk:         t = __tapestry_thunk(f, explicit markers...)
                                                   -> REUSABLE, TAPEBYTES
                  path "thunk": t->augmented, garbage, t->reverse seed 1.0
                  (adjoints through its last argument; XREV1 k); if t->reusable: restore the shadows to their
                  state after the forward half, t->reverse again with seeds
                  s_2..s_N (XREP i k); t->release and free.
                  path "nofree": the same through __enzyme_augmentfwd and
                  __enzyme_reverse with enzyme_nofree; a reusable tape gets
                  its sweeps 2..N (the last without enzyme_nofree, which
                  frees it), any other is released through t->release.
4. two tapes:     forward halves at V (tape A) and at -V (tape B), garbage,
                  both reverses in either order    -> WPRIMAL, WREV k (vs REV),
                  VPRIMAL, VREV k (vs MPRIMAL, MREV k: f and a one-shot
                  __enzyme_autodiff at -V)

The oracle (oracle.judge_split) wants SPRIMAL/APRIMAL/XPRIMAL == PRIMAL,
SREV/AREV/XREV1/WREV == REV (one-shot reverse, itself checked against finite
differences), AREP i == s_i AREV and XREP i == s_i XREV1, VREV == MREV,
intact canaries and TAPEBYTES == AUGSIZE.

Scalars are passed to the reverse with the values the forward half got: the
reverse takes f's arguments again, so only memory is overwritten.  All
decisions are drawn after every other one, so a program generated without
`split` is a prefix of the same seed's program with it.
"""

GARBAGE = ("1e30", "NAN", "-7.25e8 * (j + 1)", "0.0")
# seeds of the replayed sweeps: powers of two, so that a sweep with seed s
# is exactly s times the first (the oracle's split-replay check)
REPLAY_SEEDS = (2.0, -0.5, 4.0, -0.25, 0.5, -2.0)


class SplitConfig:
    """Per-seed variations of the split-mode blocks."""

    def __init__(self, ch):
        self.garbage = ch.pick(GARBAGE)
        self.offset = ch.pick([0, 8])          # 8: a buffer only 8-aligned
        self.path = ch.pick(["thunk", "nofree"])
        self.lifo = ch.chance(50)              # block 4: order of the reverses
        # reverse sweeps on one reusable tape (blocks 2 and 3), with seeds
        # 1 then these; block 2 ends a caller buffer's life with its last
        # sweep (no enzyme_nofree) or with the thunk's release
        self.sweeps = ch.between(2, 4)
        self.seeds = [1.0] + [ch.pick(REPLAY_SEEDS) for _ in range(self.sweeps - 1)]
        self.buf_end = ch.pick(["last", "release"])

    def meta(self):
        return {"garbage": self.garbage, "offset": self.offset, "path": self.path,
                "lifo": self.lifo, "seeds": self.seeds, "buf_end": self.buf_end}


def _ctype(t):
    return {"f": "float", "d": "double", "i": "int", "arr": "double *"}[t]


def _pieces(params, values, ad, scalar, tag):
    """Per parameter: (marker or None, [(value expr, C type)])."""
    out = []
    for p in params:
        marker = ad.rev[p.name]
        if p.kind == "arr":
            vals = [("%s_%s" % (p.name, tag), "double *")]
            if ad.rev_active(p):
                vals.append(("d%s_%s" % (p.name, tag), "double *"))
        elif p.kind == "i":
            vals = [(str(values[p.name]), "int")]
        else:
            vals = [(scalar(p), _ctype(p.kind))]
        out.append((marker, vals))
    return out


def _with_markers(pieces):
    args, types = [], []
    for marker, vals in pieces:
        if marker:
            args.append("enzyme_" + marker)
            types.append("int")
        args += [v for v, _ in vals]
        types += [t for _, t in vals]
    return args, types


def _values_only(pieces):
    return [v for _, vals in pieces for v, _ in vals], [t for _, vals in pieces for _, t in vals]


def explicit_markers(params, ad):
    """Every parameter's activity spelled out (augmentsize and thunks take
    markers only, so implicit activities cannot be left out there)."""
    out = []
    for p in params:
        if p.kind == "i":
            out.append("enzyme_const")
        elif ad.rev_active(p):
            out.append("enzyme_dup" if p.kind == "arr" else "enzyme_out")
        else:
            out.append("enzyme_const")
    return out


def _proto(ret, name, types, typed):
    if typed:
        return "%s %s(void *, %s);\n" % (ret, name, ", ".join(types))
    return "%s %s(void *, ...);\n" % (ret, name)


def render_split(params, values, ad, idx, scalar, fresh_arrays, cfg):
    """(declarations, code) of the four split-mode blocks."""
    outs = [p for p in params if p.kind in ("f", "d") and ad.rev_active(p)]
    shadowed = [p for p in params if p.kind == "arr" and ad.rev_active(p)]
    arrays = [p for p in params if p.kind == "arr"]
    if len(outs) > 1:
        ret = "TapSGrad"
    else:
        ret = _ctype(outs[0].kind) if outs else "void"
    typed = ad.typed
    sfx = "_typed" if typed else ""
    alloc_types = ["int", "int", "int", "void *"]
    base_types = _with_markers(_pieces(params, values, ad, scalar, "x"))[1]
    val_types = _values_only(_pieces(params, values, ad, scalar, "x"))[1]
    decls = ["\n/* ---- split mode ---- */\n",
             "extern int enzyme_allocated, enzyme_tape, enzyme_nofree;\n",
             "typedef struct { void *tape; double p; } TapAug;\n",
             "typedef struct { void *augmented, *reverse, *release;"
             " unsigned long long tape_bytes; int reusable; } TapThunk;\n"]
    if ret == "TapSGrad":
        decls.append("typedef struct { %s } TapSGrad;\n"
                     % " ".join("%s g%d;" % (_ctype(p.kind), i) for i, p in enumerate(outs)))
    decls += [
        _proto("TapAug", "__enzyme_augmentfwd" + sfx, base_types, typed),
        _proto("double", "__enzyme_augmentfwd_alloc" + sfx, alloc_types + base_types, typed),
        _proto(ret, "__enzyme_reverse" + sfx, base_types + ["double", "void *"], typed),
        _proto(ret, "__enzyme_reverse_alloc" + sfx, alloc_types + base_types + ["double"], typed),
        _proto(ret, "__enzyme_reverse_nofree" + sfx, ["int"] + base_types + ["double", "void *"],
               typed),
        _proto(ret, "__enzyme_reverse_alloc_nofree" + sfx, ["int"] + alloc_types + base_types
               + ["double"], typed),
        "int __enzyme_augmentsize(void *, ...);\n",
        "const TapThunk *__tapestry_thunk(void *, ...);\n",
        "typedef double (*TapAugFn)(%s);\n" % ", ".join(val_types + ["void *"]),
        # the thunk's reverse writes its adjoints through its last argument
        "typedef void (*TapRevFn)(%s);\n" % ", ".join(val_types + ["double", "void *", "void *"]),
    ]
    markers = ", ".join(explicit_markers(params, ad))
    fn = ad.fnref

    def call_args(tag):
        return _with_markers(_pieces(params, values, ad, scalar, tag))[0]

    def garbage(tag):
        code = []
        for p in arrays:
            code.append("    for (int j = 0; j < %d; j++) %s_%s[j] = %s;\n"
                        % (p.length, p.name, tag, cfg.garbage))
        return code

    def grad_call(lhs, call):
        if ret == "void":
            return ["    %s;\n" % call]
        return ["    %s %s = %s;\n" % (ret, lhs, call)]

    def thunk_reverse(lhs, vals, seed):
        """t->reverse(args..., seed, tape, &adjoints) (NULL without any)."""
        if ret == "void":
            return ["    ((TapRevFn)t->reverse)(%s, %s, tape, NULL);\n" % (vals, seed)]
        return ["    %s %s;\n" % (ret, lhs),
                "    ((TapRevFn)t->reverse)(%s, %s, tape, &%s);\n" % (vals, seed, lhs)]

    def print_grads(key, g, tag):
        code = []
        for i, p in enumerate(outs):
            val = "%s.g%d" % (g, i) if ret == "TapSGrad" else g
            code.append('    printf("%s %d %%.17g\\n", (double)%s);\n' % (key, idx[(p.name, None)], val))
        for p in shadowed:
            for j in range(p.length):
                code.append('    printf("%s %d %%.17g\\n", d%s_%s[%d]);\n'
                            % (key, idx[(p.name, j)], p.name, tag, j))
        return code

    def snapshot(tag):
        return ["    double d%s_%s_0[%d];\n    memcpy(d%s_%s_0, d%s_%s, sizeof d%s_%s_0);\n"
                % (p.name, tag, p.length, p.name, tag, p.name, tag, p.name, tag) for p in shadowed]

    def restore(tag):
        return ["      memcpy(d%s_%s, d%s_%s_0, sizeof d%s_%s_0);\n"
                % (p.name, tag, p.name, tag, p.name, tag) for p in shadowed]

    code = []
    # 1. entry points, tape malloc'd by the forward half, freed by the reverse
    args = ", ".join(call_args("s"))
    code.append("  fflush(stdout);\n  {\n")
    code.extend(fresh_arrays("s"))
    code.append("    TapAug s = __enzyme_augmentfwd%s(%s, %s);\n" % (sfx, fn, args))
    code.append('    printf("SPRIMAL %.17g\\n", s.p);\n')
    code.extend(garbage("s"))
    code.extend(grad_call("g", "__enzyme_reverse%s(%s, %s, 1.0, s.tape)" % (sfx, fn, args)))
    code.extend(print_grads("SREV", "g", "s"))
    code.append("  }\n")
    # 2. a caller buffer of exactly __enzyme_augmentsize bytes between canaries
    args = ", ".join(call_args("b"))
    off = cfg.offset
    code.append("  fflush(stdout);\n  {\n")
    code.extend(fresh_arrays("b"))
    code.append("    int sz = __enzyme_augmentsize(%s, %s);\n" % (fn, markers))
    code.append("    unsigned char *raw = malloc(%d + sz + 64);\n" % off)
    code.append("    memset(raw, 0xA5, %d + sz + 64);\n" % off)
    code.append("    void *buf = raw + %d;\n" % off)
    code.append("    double p = __enzyme_augmentfwd_alloc%s(%s, enzyme_allocated, sz, enzyme_tape,"
                " buf, %s);\n" % (sfx, fn, args))
    code.append('    printf("APRIMAL %.17g\\n", p);\n')
    code.extend(snapshot("b"))
    code.extend(garbage("b"))
    # a reusable tape in a caller buffer is the caller's to replay: sweeps
    # with enzyme_nofree keep it live; the last sweep (or the thunk's
    # release) frees what it owns
    code.append("    const TapThunk *tb = __tapestry_thunk(%s, %s);\n" % (fn, markers))
    code.append("    if (tb->reusable) {\n")
    code.extend("  " + c for c in grad_call(
        "g", "__enzyme_reverse_alloc_nofree%s(%s, enzyme_nofree, enzyme_allocated, sz,"
        " enzyme_tape, buf, %s, 1.0)" % (sfx, fn, args)))
    code.extend("  " + c for c in print_grads("AREV", "g", "b"))
    for i, seed in enumerate(cfg.seeds[1:], start=2):
        last = i == len(cfg.seeds) and cfg.buf_end == "last"
        code.append("      {\n      fflush(stdout);\n")
        code.extend("  " + c for c in restore("b"))
        if last:
            call = ("__enzyme_reverse_alloc%s(%s, enzyme_allocated, sz, enzyme_tape, buf, %s, %r)"
                    % (sfx, fn, args, seed))
        else:
            call = ("__enzyme_reverse_alloc_nofree%s(%s, enzyme_nofree, enzyme_allocated, sz,"
                    " enzyme_tape, buf, %s, %r)" % (sfx, fn, args, seed))
        code.extend("    " + c for c in grad_call("gr", call))
        code.extend("    " + c for c in print_grads("AREP %d" % i, "gr", "b"))
        code.append("      }\n")
    if cfg.buf_end == "release":
        code.append("      ((void (*)(void *))tb->release)(buf);\n")
    code.append("    } else {\n")
    code.extend("  " + c for c in grad_call(
        "g", "__enzyme_reverse_alloc%s(%s, enzyme_allocated, sz, enzyme_tape, buf, %s, 1.0)"
        % (sfx, fn, args)))
    code.extend("  " + c for c in print_grads("AREV", "g", "b"))
    code.append("    }\n")
    code.append("    int ok = 1;\n")
    if off:
        code.append("    for (int j = 0; j < %d; j++) ok &= raw[j] == 0xA5;\n" % off)
    code.append("    for (int j = 0; j < 64; j++) ok &= raw[%d + sz + j] == 0xA5;\n" % off)
    code.append('    printf("CANARY %d\\nAUGSIZE %d\\n", ok, sz);\n')
    code.append("    free(raw);\n  }\n")
    # 3. the thunk; two sweeps on one tape when it says the tape is reusable
    code.append("  fflush(stdout);\n  {\n")
    code.append("    const TapThunk *t = __tapestry_thunk(%s, %s);\n" % (fn, markers))
    code.append('    printf("REUSABLE %d\\nTAPEBYTES %llu\\n", t->reusable, t->tape_bytes);\n'
                "    fflush(stdout);\n")
    code.extend(fresh_arrays("u"))
    if cfg.path == "thunk":
        vals = ", ".join(_values_only(_pieces(params, values, ad, scalar, "u"))[0])
        code.append("    void *tape = calloc(1, t->tape_bytes ? t->tape_bytes : 1);\n")
        code.append("    double p = ((TapAugFn)t->augmented)(%s, tape);\n" % vals)
        code.append('    printf("XPRIMAL %.17g\\n", p);\n    fflush(stdout);\n')
        code.extend(snapshot("u"))
        code.extend(garbage("u"))
        code.extend(thunk_reverse("g", vals, "1.0"))
        code.extend(print_grads("XREV1", "g", "u"))
        code.append("    if (t->reusable) {\n")
        for i, seed in enumerate(cfg.seeds[1:], start=2):
            code.append("      {\n      fflush(stdout);\n")
            code.extend(restore("u"))
            code.extend("    " + c for c in thunk_reverse("g2", vals, repr(seed)))
            code.extend("    " + c for c in print_grads("XREP %d" % i, "g2", "u"))
            code.append("      }\n")
        code.append("    }\n")
        code.append("    ((void (*)(void *))t->release)(tape);\n    free(tape);\n")
    else:
        args = ", ".join(call_args("u"))
        code.append("    TapAug s = __enzyme_augmentfwd%s(%s, %s);\n" % (sfx, fn, args))
        code.append('    printf("XPRIMAL %.17g\\n", s.p);\n    fflush(stdout);\n')
        code.extend(snapshot("u"))
        code.extend(garbage("u"))
        code.extend(grad_call("g", "__enzyme_reverse_nofree%s(%s, enzyme_nofree, %s, 1.0, s.tape)"
                              % (sfx, fn, args)))
        code.extend(print_grads("XREV1", "g", "u"))
        code.append("    if (t->reusable) {\n")
        for i, seed in enumerate(cfg.seeds[1:], start=2):
            code.append("      {\n      fflush(stdout);\n")
            code.extend(restore("u"))
            if i == len(cfg.seeds):   # the last sweep frees the tape
                call = "__enzyme_reverse%s(%s, %s, %r, s.tape)" % (sfx, fn, args, seed)
            else:
                call = ("__enzyme_reverse_nofree%s(%s, enzyme_nofree, %s, %r, s.tape)"
                        % (sfx, fn, args, seed))
            code.extend("    " + c for c in grad_call("g2", call))
            code.extend("    " + c for c in print_grads("XREP %d" % i, "g2", "u"))
            code.append("      }\n")
        code.append("    } else {\n      ((void (*)(void *))t->release)(s.tape);\n"
                    "      free(s.tape);\n    }\n")
    code.append("  }\n  fflush(stdout);\n")
    # 4. two tapes alive at once: A at the sample point, B at its mirror image
    # -V (in the sampling box too); both halves of B between those of A, the
    # reverses in either order. B's reference is a one-shot call at -V.
    decls.append(_proto(ret, "__enzyme_autodiff_split" + sfx, base_types, typed))

    def mirror(p):
        return "(-(%s))" % scalar(p)

    code.append("  {\n")
    code.extend(fresh_arrays("w"))
    for tag in ("v", "m", "n"):
        code.extend(fresh_arrays(tag))
        for p in arrays:
            code.append("    for (int j = 0; j < %d; j++) %s_%s[j] = -%s_%s[j];\n"
                        % (p.length, p.name, tag, p.name, tag))
    args_w = ", ".join(call_args("w"))
    args_v = ", ".join(_with_markers(_pieces(params, values, ad, mirror, "v"))[0])
    args_n = ", ".join(_with_markers(_pieces(params, values, ad, mirror, "n"))[0])
    plain_m = ", ".join(vals[0][0] for _, vals in _pieces(params, values, ad, mirror, "m"))
    code.append('    printf("MPRIMAL %%.17g\\n", f(%s));\n' % plain_m)
    code.extend(grad_call("gm", "__enzyme_autodiff_split%s(%s, %s)" % (sfx, fn, args_n)))
    code.extend(print_grads("MREV", "gm", "n"))
    code.append("    fflush(stdout);\n")
    code.append("    TapAug a = __enzyme_augmentfwd%s(%s, %s);\n" % (sfx, fn, args_w))
    code.append("    TapAug b = __enzyme_augmentfwd%s(%s, %s);\n" % (sfx, fn, args_v))
    code.append('    printf("WPRIMAL %.17g\\nVPRIMAL %.17g\\n", a.p, b.p);\n    fflush(stdout);\n')
    code.extend(garbage("w"))
    code.extend(garbage("v"))
    rev_a = grad_call("ga", "__enzyme_reverse%s(%s, %s, 1.0, a.tape)" % (sfx, fn, args_w))
    rev_b = grad_call("gb", "__enzyme_reverse%s(%s, %s, 1.0, b.tape)" % (sfx, fn, args_v))
    code.extend(rev_b + rev_a if cfg.lifo else rev_a + rev_b)
    code.extend(print_grads("WREV", "ga", "w"))
    code.extend(print_grads("VREV", "gb", "v"))
    code.append("  }\n  fflush(stdout);\n")
    return decls, code
