//===- NvccPrelude.cpp - What nvcc declares and clang's CUDA headers lack -===//
#include "NvccPrelude.h"

#include <array>
#include <string>
#include <vector>

using namespace llvm;

namespace decoupler::tool {
namespace {

std::string buildPrelude() {
  std::string P =
      "// decoupler's parse prelude (tool/NvccPrelude.h): declarations nvcc's\n"
      "// headers give every CUDA file and clang's do not. Parse only: it\n"
      "// never reaches the output, which nvcc compiles with its own.\n"
      "#pragma clang system_header\n"
      "// nvcc's cuda_runtime.h includes these for host code.\n"
      "#include <string.h>\n"
      "#include <time.h>\n"
      "#include <cmath>\n"
      "// nvcc declares them at global scope for host code too.\n"
      "using std::isfinite;\n"
      "using std::isinf;\n"
      "using std::isnan;\n"
      "// crt/math_functions.hpp: __host__ __device__ under nvcc, __device__\n"
      "// only in clang's wrapper.\n";
  // Result, first and second parameter, as crt/math_functions.hpp has them.
  static const char *const MinMax[][3] = {
      {"int", "int", "int"},
      {"unsigned int", "unsigned int", "unsigned int"},
      {"unsigned int", "int", "unsigned int"},
      {"unsigned int", "unsigned int", "int"},
      {"long", "long", "long"},
      {"unsigned long", "unsigned long", "unsigned long"},
      {"unsigned long", "long", "unsigned long"},
      {"unsigned long", "unsigned long", "long"},
      {"long long", "long long", "long long"},
      {"unsigned long long", "unsigned long long", "unsigned long long"},
      {"unsigned long long", "long long", "unsigned long long"},
      {"unsigned long long", "unsigned long long", "long long"},
      {"float", "float", "float"},
      {"double", "double", "double"},
      {"double", "float", "double"},
      {"double", "double", "float"},
  };
  for (const char *F : {"min", "max"})
    for (const auto &S : MinMax)
      P += std::string("__host__ ") + S[0] + " " + F + "(" + S[1] + ", " +
           S[2] + ");\n";
  // sm_32_intrinsics.h: every element and vector type it has. Clang's
  // wrapper skips that header and defines some of these itself; a
  // declaration after its definition is a legal redeclaration.
  static const char *const Types[] = {
      "char",
      "signed char",
      "short",
      "int",
      "long",
      "long long",
      "unsigned char",
      "unsigned short",
      "unsigned int",
      "unsigned long",
      "unsigned long long",
      "float",
      "double",
      "char2",
      "char4",
      "short2",
      "short4",
      "int2",
      "int4",
      "longlong2",
      "uchar2",
      "uchar4",
      "ushort2",
      "ushort4",
      "uint2",
      "uint4",
      "ulonglong2",
      "float2",
      "float4",
      "double2",
  };
  P += "// sm_32_intrinsics.h: cache-hinted loads and stores.\n";
  for (const char *F : {"__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv"})
    for (const char *T : Types)
      P += std::string("__device__ ") + T + " " + F + "(const " + T + " *);\n";
  for (const char *F : {"__stwb", "__stcg", "__stcs", "__stwt"})
    for (const char *T : Types)
      P += std::string("__device__ void ") + F + "(" + T + " *, " + T + ");\n";
  // nvcc's scoped atomic builtins (CUDA 12.8 on). crt/device_functions.h
  // has the enums, behind a guard clang's wrapper defines, so no file
  // clang parses can declare them twice. The builtins are nvcc's own; these
  // templates take what they take, with one difference: the loads read
  // through a pointer to const (nvcc's take any non-const pointer), because
  // the passes count a call's non-const pointer as a possible write of what
  // it points to, and a load must not count as one. Every other builtin does
  // count as a write (a `#pragma dd monotonic` atomic on the same words
  // stays as written); none is an atomic the atomics pass rewrites.
  P += "// crt/device_functions.h and nvcc's __nv_atomic_* builtins.\n"
       "enum { __NV_ATOMIC_RELAXED, __NV_ATOMIC_CONSUME, __NV_ATOMIC_ACQUIRE,\n"
       "  __NV_ATOMIC_RELEASE, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_SEQ_CST };\n"
       "enum { __NV_THREAD_SCOPE_THREAD, __NV_THREAD_SCOPE_BLOCK,\n"
       "  __NV_THREAD_SCOPE_CLUSTER, __NV_THREAD_SCOPE_DEVICE,\n"
       "  __NV_THREAD_SCOPE_SYSTEM };\n";
  // Result, name and the parameters before the scope, which every builtin
  // takes last, defaulted.
  std::vector<std::array<std::string, 3>> Builtins = {
      {"T", "__nv_atomic_load_n", "const T *, int"},
      {"void", "__nv_atomic_load", "const T *, T *, int"},
      {"void", "__nv_atomic_store_n", "T *, U, int"},
      {"void", "__nv_atomic_store", "T *, T *, int"},
      {"T", "__nv_atomic_exchange_n", "T *, U, int"},
      {"void", "__nv_atomic_exchange", "T *, T *, T *, int"},
      {"bool", "__nv_atomic_compare_exchange_n", "T *, T *, U, bool, int, int"},
      {"bool", "__nv_atomic_compare_exchange", "T *, T *, T *, bool, int, int"},
  };
  for (const char *Op : {"add", "sub", "min", "max", "and", "or", "xor"}) {
    Builtins.push_back(
        {"T", std::string("__nv_atomic_fetch_") + Op, "T *, U, int"});
    Builtins.push_back(
        {"void", std::string("__nv_atomic_") + Op, "T *, U, int"});
  }
  for (const auto &[Result, Name, Params] : Builtins)
    P += std::string(Params.find('U') != std::string::npos
                         ? "template <class T, class U>"
                         : "template <class T>") +
         " __device__ " + Result + " " + Name + "(" + Params +
         ", int __scope = __NV_THREAD_SCOPE_SYSTEM);\n";
  P += "__device__ void __nv_atomic_thread_fence(int, int __scope = "
       "__NV_THREAD_SCOPE_SYSTEM);\n";
  return P;
}

} // namespace

StringRef nvccPrelude() {
  static const std::string Text = buildPrelude();
  return Text;
}

} // namespace decoupler::tool
