# -*- Python -*-
# Runs the GoogleTest binaries of test/unit under lit, so one lit run reports
# every test of the project.
import os
import lit.formats

config.name = "decoupler-unit"
config.suffixes = []
config.test_source_root = os.path.join(config.decoupler_obj_root, "test", "unit")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
