# GoogleTest unit tests, run through lit.
import os
import lit.formats

config.name = "Tapestry-Unit"
config.test_format = lit.formats.GoogleTest(".", "Tests")
config.test_source_root = config.unit_tests_dir
config.test_exec_root = config.unit_tests_dir
