//===- NvccPrelude.cpp - What nvcc declares and clang's CUDA headers lack -===//
#include "NvccPrelude.h"

#include <string>

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
  return P;
}

} // namespace

StringRef nvccPrelude() {
  static const std::string Text = buildPrelude();
  return Text;
}

} // namespace decoupler::tool
