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
# %clang compiles and links a program with the plugin (add -O<n> yourself).
config.substitutions.append(
    ("%clangxx", "%s++ -fpass-plugin=%s -I%s -L%s" % (
        config.clang, plugin, include, config.tapestry_runtime_dir)))
config.substitutions.append(
    ("%clang", "%s -fpass-plugin=%s -I%s -L%s" % (
        config.clang, plugin, include, config.tapestry_runtime_dir)))
config.substitutions.append(("%src_root", config.tapestry_src_root))

# A lit feature per optional capability so tests can REQUIRE them.
if config.sanitize in ("ON", "1", "TRUE"):
    config.available_features.add("sanitize")
