//===- NvccCommand.h - Translating nvcc compile commands --------*- C++ -*-===//
//
// Compilation databases written for CUDA by CMake hold nvcc command lines
// (`nvcc -forward-unknown-to-host-compiler --generate-code=... -x cu -c f.cu
// -o f.o`, `--options-file`, `-Xcompiler`, ...), which clang does not
// understand. Only what changes how the file parses survives the translation:
// include paths, macros, the language standard and forced includes; every
// other option (and its value) is dropped.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_TOOL_NVCCCOMMAND_H
#define DECOUPLER_TOOL_NVCCCOMMAND_H

#include "clang/Tooling/CompilationDatabase.h"

namespace decoupler::tool {

/// True when \p CommandLine runs nvcc (argv[0] is `nvcc` or a path to it).
bool isNvccCommand(llvm::ArrayRef<std::string> CommandLine);

/// Translates an nvcc command into `clang++ <kept options> <file>`, keeping
///   -I, -isystem, -D, -U, -std, -include, -iquote, -idirafter
/// in their joined (`-Idir`), separate (`-I dir`) and `=` (`-isystem=dir`)
/// forms and nvcc's long names (--include-path, --system-include,
/// --define-macro, --undefine-macro, --std, --pre-include). Those options are
/// also taken from the lists of -Xcompiler/--compiler-options and from
/// --options-file/-optf files (relative to the command's directory).
///
/// The GPU architectures the command compiles for become one
/// `--cuda-gpu-arch=sm_XX` each, named by the virtual architecture that sets
/// __CUDA_ARCH__ (`-arch=sm_75`, `-arch=compute_75`, `-gencode
/// arch=compute_75,code=sm_90` and CMake's `--generate-code=arch=...` all
/// give sm_75; `all` and `all-major` give CUDA 13's lists; `native` gives
/// this machine's GPUs, as nvcc finds them when it builds here: localGpuArchs,
/// or nvcc's default when there is none). A command that names none
/// compiles for nvcc's default (nvccDefaultArch). Family and architecture
/// suffixes keep what clang knows: sm_90a stays, sm_100f is sm_100.
clang::tooling::CompileCommand
translateNvccCommand(const clang::tooling::CompileCommand &Command);

/// The architecture the nvcc at \p Nvcc (a path, or a name found on PATH)
/// compiles for when the command names none: sm_75 from CUDA 13 on (also
/// when its installation's version cannot be read), sm_52 before.
std::string nvccDefaultArch(llvm::StringRef Nvcc);

/// The GPUs of this machine (nvidia-smi's compute capabilities), each once,
/// as clang names them; empty without nvidia-smi or a GPU. Asked once.
std::vector<std::string> localGpuArchs();

/// `sm_XY` for each line `X.Y` of \p Text (nvidia-smi
/// --query-gpu=compute_cap --format=csv,noheader), each once.
std::vector<std::string> gpuArchsOfComputeCaps(llvm::StringRef Text);

} // namespace decoupler::tool

#endif // DECOUPLER_TOOL_NVCCCOMMAND_H
