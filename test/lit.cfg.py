# lit configuration for Tapestry.
import os
import lit.formats

config.name = "Tapestry"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".c", ".cpp", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "Unit"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tapestry_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])

plugin = config.tapestry_plugin
include = os.path.join(config.tapestry_src_root, "include")
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%python", config.python))
config.substitutions.append(
    ("%opt", "%s -load-pass-plugin=%s" % (config.opt, plugin)))
# %valgrind CMD: CMD under valgrind (tools/setup.sh installs it), failing on
# any invalid read or write: the plugin's own memory errors, which may not
# crash a run.
config.substitutions.append(
    ("%valgrind", "valgrind -q --error-exitcode=1"))
# %clang_part: the clang front-end part's own file, which the plugin loads
# (a user may load it directly with -Xclang -load).
config.substitutions.append(
    ("%clang_part", os.path.join(os.path.dirname(plugin),
                                 os.path.basename(plugin).replace(
                                     "TapestryPlugin", "TapestryClang"))))
# The plugin's clang front-end part (Enzyme's attributes and -mllvm
# options): %clang_fplugin loads it as Tapestry's docs show (-fplugin alone),
# %clang_enzyme as Enzyme's users do (-fpass-plugin and -Xclang -load).
# (Before %clang and %clangxx: lit substitutes in order.)
for _name, _driver in (("%clangxx_fplugin", "clang++"),
                       ("%clang_fplugin", os.path.basename(config.clang)),
                       ("%clangxx_enzyme", "clang++"),
                       ("%clang_enzyme", os.path.basename(config.clang))):
    _load = ("-fplugin=%s" % plugin if _name.endswith("fplugin") else
             "-fpass-plugin=%s -Xclang -load -Xclang %s" % (plugin, plugin))
    config.substitutions.append(
        (_name, "%s %s -I%s -L%s" % (
            os.path.join(os.path.dirname(config.clang), _driver), _load,
            include, config.tapestry_runtime_dir)))
# %clang compiles and links a program with the plugin (add -O<n> yourself).
config.substitutions.append(
    ("%clangxx", "%s -fpass-plugin=%s -I%s -L%s" % (
        os.path.join(os.path.dirname(config.clang), "clang++"), plugin,
        include, config.tapestry_runtime_dir)))
config.substitutions.append(
    ("%clang", "%s -fpass-plugin=%s -I%s -L%s" % (
        config.clang, plugin, include, config.tapestry_runtime_dir)))
config.substitutions.append(("%src_root", config.tapestry_src_root))
config.substitutions.append(("%obj_root", config.tapestry_obj_root))
config.substitutions.append(("%plain_cc", config.clang))
# %any_x86_cpu: a filter of textual IR that drops the functions' CPU and
# feature attributes, so that IR vectorised for a CPU this machine may lack
# (-march=x86-64-v4, AVX-512) is compiled for the baseline x86-64 and runs
# here: the backend legalises the wide vectors, gathers and masked
# operations into what the baseline has, with the same values.
config.substitutions.append(
    ("%any_x86_cpu",
     "sed -E -e 's/ ?\"(target-cpu|target-features|tune-cpu)\"=\"[^\"]*\"//g'"
     " -e 's/^(attributes #[0-9]+ = [{]) ?[}]$/\\\\1 \"any-x86-cpu\" }/'"))
# x86-avx2-fma: this machine runs AVX2 and FMA code (-march=native on most
# x86-64 machines), for tests of what Eigen compiles to there.
try:
    with open("/proc/cpuinfo") as _cpuinfo:
        _flags = set()
        for _line in _cpuinfo:
            if _line.startswith("flags"):
                _flags.update(_line.split(":", 1)[1].split())
                break
    if {"avx2", "fma"} <= _flags:
        config.available_features.add("x86-avx2-fma")
except OSError:
    pass
# %plain_cxx: clang++ 19 without the plugin (CMake projects against the
# installed package, test/Package).
config.substitutions.append(
    ("%plain_cxx", os.path.join(os.path.dirname(config.clang), "clang++")))
# `gcc`: GCC is installed (to test that the CMake package refuses it).
import shutil
if shutil.which("gcc") and shutil.which("g++"):
    config.available_features.add("gcc")
# `dpkg`: dpkg-deb exists (the Debian package test).
if shutil.which("dpkg-deb"):
    config.available_features.add("dpkg")

# A lit feature per optional capability so tests can REQUIRE them.
if config.sanitize in ("ON", "1", "TRUE"):
    config.available_features.add("sanitize")

# --- Added for issue 7 item 3 (sanitizers); nothing above is changed. ---
import glob
import subprocess
import tempfile
import lit.TestRunner


def _tool_output(args, env=None):
    try:
        return subprocess.run(args, capture_output=True, text=True,
                              timeout=120, env=env).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _without_preload():
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    return env


# LeakSanitizer on end-to-end programs (test/Leaks): the PROGRAM is compiled
# with clang's -fsanitize=address (clang's runtime, libclang-rt-19-dev) and
# run with leak detection; the plugin itself need not be sanitized. The
# feature `lsan` exists only if a probe program's leak is actually reported
# (LSan cannot work under ptrace, for example), so these tests never pass
# vacuously.
#   %lsan_run PROG  runs PROG with leak detection on, without the LD_PRELOAD
#                   a sanitized-plugin run sets (two ASan runtimes would clash)
#                   or its log_path (reports go to stderr, for FileCheck).
config.substitutions.append(
    ("%lsan_run", "env -u LD_PRELOAD -u LSAN_OPTIONS -u UBSAN_OPTIONS "
     "ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:"
     "detect_stack_use_after_return=1:strict_string_checks=1:"
     "check_initialization_order=1"))


# %tapestry_rt links the C runtime (libtapestry-rt.a): -ltapestry-rt, plus,
# in a sanitized build, where the runtime itself is ASan/UBSan-instrumented,
# the sanitizer runtime it needs (set below).
_tapestry_rt = "-ltapestry-rt"


def _lsan_works():
    with tempfile.TemporaryDirectory(prefix="tapestry-lsan-probe-") as tmp:
        src, exe = os.path.join(tmp, "probe.c"), os.path.join(tmp, "probe")
        with open(src, "w") as f:
            f.write("#include <stdlib.h>\nvoid *volatile p;\n"
                    "int main(void) { p = malloc(24); p = 0; return 0; }\n")
        env = _without_preload()
        try:
            if subprocess.run([config.clang, "-fsanitize=address", "-O0", src,
                               "-o", exe], capture_output=True, env=env,
                              timeout=120).returncode != 0:
                return False
            env["ASAN_OPTIONS"] = "detect_leaks=1"
            run = subprocess.run([exe], capture_output=True, text=True,
                                 env=env, timeout=120)
        except (OSError, subprocess.SubprocessError):
            return False
    return run.returncode != 0 and \
        "LeakSanitizer: detected memory leaks" in run.stderr


if _lsan_works():
    config.available_features.add("lsan")
else:
    lit_config.note("LeakSanitizer is not usable (is libclang-rt-19-dev "
                    "installed? running under ptrace?): test/Leaks is skipped")


# Sanitized plugin (cmake -DTAPESTRY_SANITIZE=ON, tools/sanitize.sh): clang-19
# and opt-19 are not sanitized, so the plugin's ASan runtime is preloaded into
# every process of a test (leak detection included, see below). Every
# sanitizer report is written to a per-test log
# (log_path) and the test fails if one exists, with the report in its output:
# an exit code alone is not enough, since `not %clang ...` (test/Errors)
# turns any failure, a sanitizer's included, into success.
#   --param asan_runtime=PATH overrides the runtime found from the compiler
#   that built the plugin (CMAKE_CXX_COMPILER in CMakeCache.txt).
def _plugin_asan_runtime():
    cache = {}
    try:
        with open(os.path.join(config.tapestry_obj_root,
                               "CMakeCache.txt")) as f:
            for line in f:
                if "=" in line and ":" in line.split("=", 1)[0]:
                    key, value = line.rstrip("\n").split("=", 1)
                    cache[key.split(":", 1)[0]] = value
    except OSError:
        pass
    cxx = cache.get("CMAKE_CXX_COMPILER", "c++")
    is_clang = "clang" in _tool_output([cxx, "--version"], _without_preload())
    name = "libclang_rt.asan-x86_64.so" if is_clang else "libasan.so"
    path = _tool_output([cxx, "-print-file-name=" + name], _without_preload())
    return os.path.realpath(path) if os.path.isabs(path) else ""


class _SanitizerLogShTest(lit.formats.ShTest):
    """ShTest that fails a test when any of its processes wrote a sanitizer
    report (ASAN/UBSAN log_path=<test tmp>.sanitizer.<pid>)."""

    def __init__(self, base):
        super().__init__(base.execute_external, base.extra_substitutions,
                         base.preamble_commands)

    def execute(self, test, litConfig):
        _, tmp_base = lit.TestRunner.getTempPaths(test)
        log_base = tmp_base + ".sanitizer"
        for old in glob.glob(glob.escape(log_base) + ".*"):
            os.remove(old)
        env = test.config.environment
        saved = {k: env.get(k) for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS")}
        for key in saved:
            env[key] = "%s:log_path=%s" % (env[key], log_base)
        try:
            result = super().execute(test, litConfig)
        finally:
            env.update(saved)
        logs = sorted(glob.glob(glob.escape(log_base) + ".*"))
        if not logs:
            return result
        reports = ""
        for path in logs:
            with open(path, errors="replace") as f:
                reports += "\n--- sanitizer report %s ---\n%s" % (path, f.read())
        # An XFAIL test would turn FAIL into XFAIL: report it as UNRESOLVED
        # (a failure too) so a sanitizer finding is never expected.
        code = lit.Test.UNRESOLVED if test.isExpectedToFail() else lit.Test.FAIL
        return lit.Test.Result(
            code, (result.output or "") +
            "\nSANITIZER REPORT(S) in a process of this test:\n" + reports)


if "sanitize" in config.available_features:
    runtime = lit_config.params.get("asan_runtime") or _plugin_asan_runtime()
    if not runtime or not os.path.exists(runtime):
        lit_config.fatal("sanitized build: cannot find the plugin's ASan "
                         "runtime to preload (got %r); pass "
                         "--param asan_runtime=PATH" % runtime)
    config.environment["LD_PRELOAD"] = runtime
    if os.path.basename(runtime).startswith("libclang_rt"):
        # The same shared runtime as the one preloaded (it is found through
        # LD_PRELOAD at run time: clang adds no rpath for it).
        _tapestry_rt += " -fsanitize=address,undefined -shared-libsan"
    if os.path.basename(runtime).startswith("libasan"):
        lit_config.warning(
            "plugin sanitized by GCC: its separate libubsan ignores log_path, "
            "so a UBSan report fails a test only through the exit status "
            "(not under `not %clang`); tools/sanitize.sh builds with clang")
    # LeakSanitizer runs in every process of a test too: clang, opt and the
    # plugin, and the (unsanitized) programs the tests build and run, whose
    # malloc is then ASan's. clang keeps what -disable-free leaks reachable
    # on purpose, so only real leaks show. Suppressed: system tools (the
    # linker, bash, tr, cmake: anything in /usr/bin, and GCC's cc1) and Python
    # (the fuzzing tests' driver), which leak by design, and
    # clang 19's own leak in C++20 template deduction (a SmallVector<unsigned>
    # of clang::MakeDeductionFailureInfo; it happens without the plugin too,
    # and the fast unwinder stops at libLLVM, whose code has no frame
    # pointers, so the suppression names that frame).
    # --param detect_leaks=0 turns it off.
    leaks = lit_config.params.get("detect_leaks", "1") not in ("0", "OFF",
                                                               "off")
    supp = os.path.join(config.tapestry_obj_root, "test", "lsan.supp")
    with open(supp, "w") as f:
        f.write("# Written by test/lit.cfg.py: leaks by design, not ours.\n"
                "leak:/usr/bin/\nleak:libbfd\nleak:/usr/lib/gcc/\n"
                "leak:python\n"
                "leak:llvm::SmallVectorBase<unsigned int>::grow_pod\n")
    config.environment["LSAN_OPTIONS"] = "suppressions=%s:print_suppressions=0" \
        % supp
    config.environment["ASAN_OPTIONS"] = (
        "detect_leaks=%d:halt_on_error=1:abort_on_error=0:"
        "detect_stack_use_after_return=1:check_initialization_order=1:"
        "strict_init_order=1" % leaks)
    config.environment["UBSAN_OPTIONS"] = \
        "print_stacktrace=1:halt_on_error=1:report_error_type=1"
    symbolizer = os.path.join(config.llvm_tools_dir, "llvm-symbolizer")
    if os.path.exists(symbolizer):
        config.environment["ASAN_SYMBOLIZER_PATH"] = symbolizer
        config.environment["UBSAN_SYMBOLIZER_PATH"] = symbolizer
    # lit pickles the test format for its worker processes, which needs the
    # class importable by module name: register it as a module, and have the
    # workers forked (they then inherit it) whatever Python's default is.
    import multiprocessing
    import sys
    import types
    _module = types.ModuleType("tapestry_lit_sanitizer")
    _module._SanitizerLogShTest = _SanitizerLogShTest
    _SanitizerLogShTest.__module__ = _module.__name__
    sys.modules.setdefault(_module.__name__, _module)
    _SanitizerLogShTest = sys.modules[_module.__name__]._SanitizerLogShTest
    if multiprocessing.get_start_method(allow_none=True) != "fork":
        multiprocessing.set_start_method("fork", force=True)
    config.test_format = _SanitizerLogShTest(config.test_format)

config.substitutions.append(("%tapestry_rt", _tapestry_rt))

# --- MPI (issue 15): test/MPI runs programs under Open MPI's mpirun. ---
# `mpi`: mpicc and mpirun exist (libopenmpi-dev, openmpi-bin; tools/setup.sh
# installs them). %mpi_cflags and %mpi_libs are mpicc's compile and link
# flags, for %clang; %mpi_libs links the runtime (runtime/tapestry_mpi.c)
# before the MPI library. %mpirun starts N ranks (%mpirun -np N prog) on
# this machine, oversubscribed, as root too, over shared memory only, its
# waiting ranks yielding their core (tests run side by side on few cores).
if shutil.which("mpicc") and shutil.which("mpirun"):
    _mpi_cflags = _tool_output(["mpicc", "-showme:compile"])
    _mpi_link = _tool_output(["mpicc", "-showme:link"])
    if _mpi_cflags and _mpi_link:
        config.available_features.add("mpi")
        config.substitutions.append(("%mpi_cflags", _mpi_cflags))
        config.substitutions.append(
            ("%mpi_libs", "%s %s" % (_tapestry_rt, _mpi_link)))
        config.substitutions.append(
            ("%mpirun", "env OMPI_MCA_btl=self,vader "
             "OMPI_MCA_btl_vader_single_copy_mechanism=none "
             "OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1 "
             "OMPI_ALLOW_RUN_AS_ROOT=1 "
             "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe "
             "--allow-run-as-root"))

# --- Eigen: C++ users' linear algebra (libeigen3-dev, header-only;
# tools/setup.sh installs it). %eigen_flags adds its include directory.
config.substitutions.append(("%eigen_flags", "-I/usr/include/eigen3"))
