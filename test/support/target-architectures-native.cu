// nvcc's -arch=native compiles for the GPUs of the machine that builds, and
// for nvcc's default (sm_75 with CUDA 13) where it finds none: "Cannot find
// valid GPU for '-arch=native', default arch is used". The tool asks the
// same machine (nvidia-smi); on one without a GPU, the split of
// target-architectures.cu is refused for sm_75 and the output compiles with
// nvcc -arch=native there. (Until 2026-11-29 native counted as no
// architecture, and the tool took sm_90.)
// REQUIRES: nvcc
// UNSUPPORTED: cuda-gpu
// RUN: rm -rf %t.db && mkdir -p %t.db && cp %S/target-architectures.cu %t.db/k.cu
// RUN: printf '[{"directory":"%%s","file":"k.cu","arguments":["%cuda_nvcc","-arch=native","-c","k.cu"]}]' %t.db > %t.db/compile_commands.json
// RUN: %decoupler --no-line-directives --passes=split --split=auto -Rdecoupler -p %t.db %t.db/k.cu -o %t.native.cu 2>&1 | FileCheck %S/target-architectures.cu --check-prefix=SPLIT75
// RUN: %decoupler --print-commands -p %t.db %t.db/k.cu --analyze 2>&1 | FileCheck %s
// RUN: %cuda_nvcc -std=c++17 -arch=native -c %t.native.cu -o %t.native.o
// CHECK: --cuda-gpu-arch=sm_75
