# -*- Python -*-
# lit configuration for decoupler. Substitutions:
#   %decoupler  the tool under test
#   %nvcc       nvcc for sm_90 with the runtime headers on the include path
#   %runtime    runtime/include
#   %shared     the ../shared folder beside the checkout (graphs, papers)
#   %python     the Python that runs lit
#   %optviewer  LLVM's opt-viewer folder (opt-viewer.py, opt-stats.py, opt-diff.py)
#   %cxxfilt    llvm-cxxfilt (opt-viewer's demangler, so binutils is not needed)
#   %cmake      the cmake that configured this build
#   %dd_src     the source tree, %dd_build this build tree
#   %dd_cc, %dd_cxx  the C and C++ compilers of this build
#   %cuda_nvcc  nvcc itself, no options
#   %cuda_path  the CUDA installation nvcc is in
#   %clang, %llvm_opt  clang and opt of LLVM 22 (C to IR for dd-pta's tests)
# Features: `nvcc` when a CUDA toolkit is found, `cuda-gpu` when a GPU answers,
# `opt-viewer` when LLVM's optimization-record tools and their Python modules
# (yaml, pygments: python3-yaml, python3-pygments) are there.
import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "decoupler"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs", "unit", "corpus", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)

src_root = config.decoupler_src_root
tools_dir = config.decoupler_tools_dir
llvm_tools = config.llvm_tools_dir

config.environment["PATH"] = os.pathsep.join(
    [tools_dir, llvm_tools, config.environment.get("PATH", os.environ.get("PATH", ""))])
# Colour codes would defeat FileCheck.
config.environment["TERM"] = "dumb"
for var in ("CUDA_PATH", "HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

def tool(name):
    path = os.path.join(llvm_tools, name)
    if not os.path.exists(path):
        lit_config.fatal("cannot find %s in %s (install llvm-22-tools)" % (name, llvm_tools))
    return path

config.substitutions.append(("%decoupler", os.path.join(tools_dir, "decoupler")))
config.substitutions.append(("%runtime", os.path.join(src_root, "runtime", "include")))
config.substitutions.append(("%shared", os.path.join(os.path.dirname(src_root), "shared")))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%dd_src", src_root))
config.substitutions.append(("%dd_build", config.decoupler_obj_root))
config.substitutions.append(("%dd_cc", config.c_compiler))
config.substitutions.append(("%dd_cxx", config.cxx_compiler))
# FileCheck and not come from LLVM 22 explicitly, whatever else is on PATH.
config.substitutions.append((r"\bFileCheck\b", tool("FileCheck")))
config.substitutions.append(("%clang", tool("clang")))
config.substitutions.append(("%llvm_opt", tool("opt")))
# (?<!-): leave FileCheck's --implicit-check-not alone.
config.substitutions.append((r"(?<!-)\bnot\b", tool("not")))

cuda_path = os.environ.get("CUDA_PATH", "/usr/local/cuda")
nvcc = os.path.join(cuda_path, "bin", "nvcc")
if os.path.exists(nvcc):
    config.available_features.add("nvcc")
    config.substitutions.append(
        ("%nvcc", "%s -arch=sm_90 -std=c++17 -I%s" % (nvcc, os.path.join(src_root, "runtime", "include"))))
    config.substitutions.append(("%cuda_nvcc", nvcc))
    config.substitutions.append(("%cuda_path", cuda_path))

# Graph reader fuzzers (test/fuzz), built when clang's libFuzzer runtime links.
fuzz_bin = os.path.join(config.decoupler_obj_root, "test", "fuzz")
config.substitutions.append(("%fuzzbin", fuzz_bin))
if os.path.exists(os.path.join(fuzz_bin, "graph-gr-fuzzer")):
    config.available_features.add("libfuzzer")

# LLVM's optimization-record tools (llvm-22-tools) read --remarks-output.
opt_viewer = os.path.join(os.path.dirname(llvm_tools), "share", "opt-viewer")
config.substitutions.append(("%optviewer", opt_viewer))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%cxxfilt", os.path.join(llvm_tools, "llvm-cxxfilt")))
if os.path.exists(os.path.join(opt_viewer, "opt-viewer.py")) and subprocess.run(
        [sys.executable, "-c", "import yaml, pygments"], capture_output=True).returncode == 0:
    config.available_features.add("opt-viewer")

def gpu_present():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return out.returncode == 0 and "GPU" in out.stdout

if gpu_present():
    config.available_features.add("cuda-gpu")
