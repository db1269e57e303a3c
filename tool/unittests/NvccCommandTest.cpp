//===- NvccCommandTest.cpp - Tests of the nvcc command translation --------===//
#include "NvccCommand.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using clang::tooling::CompileCommand;
using decoupler::tool::isNvccCommand;
using decoupler::tool::translateNvccCommand;
using testing::ElementsAre;

namespace {

std::vector<std::string> translate(std::vector<std::string> CommandLine,
                                   llvm::StringRef Directory = "/build") {
  // A bare "nvcc" would be looked up on PATH for its installation's default
  // architecture; one in no installation defaults to CUDA 13's, sm_75.
  if (CommandLine.front() == "nvcc")
    CommandLine.front() = "/no-cuda/bin/nvcc";
  CompileCommand Command(Directory, "/src/f.cu", std::move(CommandLine), "f.o");
  return translateNvccCommand(Command).CommandLine;
}

TEST(NvccCommand, RecognizesNvcc) {
  EXPECT_TRUE(isNvccCommand({"/usr/local/cuda/bin/nvcc", "-c", "f.cu"}));
  EXPECT_TRUE(isNvccCommand({"nvcc"}));
  EXPECT_FALSE(isNvccCommand({"/usr/bin/clang++", "-c", "f.cu"}));
  EXPECT_FALSE(isNvccCommand({}));
}

TEST(NvccCommand, CMakeCommand) {
  // What CMake 3.2x writes for a CUDA target.
  EXPECT_THAT(
      translate({"/usr/local/cuda/bin/nvcc",
                 "-forward-unknown-to-host-compiler", "-DNEEDED=1",
                 "-DSTR=\"a b\"", "-I/src/inc", "-isystem=/usr/include/sys",
                 "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
                 "-Xcompiler=-fPIC", "-Xcompiler=-Wall,-DFROMX=1",
                 "--expt-relaxed-constexpr", "-std=c++17", "-x", "cu", "-c",
                 "/src/f.cu", "-o", "CMakeFiles/k.dir/f.cu.o"}),
      ElementsAre("clang++", "-DNEEDED=1", "-DSTR=\"a b\"", "-I/src/inc",
                  "-isystem", "/usr/include/sys", "-DFROMX=1", "-std=c++17",
                  "--cuda-gpu-arch=sm_90", "/src/f.cu"));
}

TEST(NvccCommand, GpuArchitectures) {
  // The virtual architecture sets __CUDA_ARCH__: compute_75 code for sm_90
  // is compiled as sm_75.
  EXPECT_THAT(translate({"nvcc", "-gencode", "arch=compute_75,code=sm_90",
                         "-gencode=arch=compute_90a,code=[compute_90a,sm_90a]",
                         "/src/f.cu"}),
              ElementsAre("clang++", "--cuda-gpu-arch=sm_75",
                          "--cuda-gpu-arch=sm_90a", "/src/f.cu"));
  EXPECT_THAT(translate({"nvcc", "-arch=sm_80", "-arch", "compute_86",
                         "--gpu-architecture=sm_100f", "--gpu-architecture",
                         "sm_80", "/src/f.cu"}),
              ElementsAre("clang++", "--cuda-gpu-arch=sm_80",
                          "--cuda-gpu-arch=sm_86", "--cuda-gpu-arch=sm_100",
                          "/src/f.cu"));
  EXPECT_THAT(translate({"nvcc", "-arch=all-major", "/src/f.cu"}),
              ElementsAre("clang++", "--cuda-gpu-arch=sm_75",
                          "--cuda-gpu-arch=sm_80", "--cuda-gpu-arch=sm_90",
                          "--cuda-gpu-arch=sm_100", "--cuda-gpu-arch=sm_110",
                          "--cuda-gpu-arch=sm_120", "/src/f.cu"));
  EXPECT_EQ(translate({"nvcc", "-arch=all", "/src/f.cu"}).size(), 14u);
  // The GPUs of the machine that builds, this one, or nvcc's default
  // without one (as nvcc: "Cannot find valid GPU for '-arch=native',
  // default arch is used").
  std::vector<std::string> Native{"clang++"};
  for (const std::string &Arch : decoupler::tool::localGpuArchs())
    Native.push_back("--cuda-gpu-arch=" + Arch);
  if (Native.size() == 1)
    Native.push_back("--cuda-gpu-arch=sm_75");
  Native.push_back("/src/f.cu");
  EXPECT_EQ(translate({"nvcc", "-arch=native", "/src/f.cu"}), Native);
}

TEST(NvccCommand, SeparateJoinedAndLongForms) {
  EXPECT_THAT(translate({"nvcc",
                         "-I",
                         "a",
                         "--include-path",
                         "b",
                         "--include-path=c",
                         "-D",
                         "X",
                         "--define-macro=Y=2",
                         "-U",
                         "Z",
                         "--undefine-macro",
                         "W",
                         "--std",
                         "c++20",
                         "-include",
                         "p.h",
                         "--pre-include=q.h",
                         "-isystem",
                         "s",
                         "--system-include=t",
                         "-iquote",
                         "u",
                         "/src/f.cu"}),
              ElementsAre("clang++", "-Ia", "-Ib", "-Ic", "-DX", "-DY=2", "-UZ",
                          "-UW", "-std=c++20", "-include", "p.h", "-include",
                          "q.h", "-isystem", "s", "-isystem", "t", "-iquote",
                          "u", "--cuda-gpu-arch=sm_75", "/src/f.cu"));
}

TEST(NvccCommand, DropsOptionsWithTheirValues) {
  EXPECT_THAT(
      translate({"nvcc",
                 "-ccbin",
                 "/usr/bin/g++",
                 "-gencode",
                 "arch=compute_90,code=sm_90",
                 "-Xptxas",
                 "-v",
                 "-arch",
                 "sm_90",
                 "-rdc",
                 "false",
                 "-O3",
                 "-G",
                 "-lineinfo",
                 "--threads",
                 "4",
                 "-MF",
                 "f.d",
                 "-Werror",
                 "all-warnings",
                 "-DKEPT",
                 "/src/f.cu"}),
      ElementsAre("clang++", "-DKEPT", "--cuda-gpu-arch=sm_90", "/src/f.cu"));
}

TEST(NvccCommand, RelocatableDeviceCode) {
  // Each spelling of nvcc's relocatable device code becomes clang's
  // -fgpu-rdc (a kernel launched from device code parses only with it);
  // the last one wins.
  for (std::vector<std::string> Args :
       {std::vector<std::string>{"nvcc", "-rdc=true", "/src/f.cu"},
        {"nvcc", "-rdc", "true", "/src/f.cu"},
        {"nvcc", "--relocatable-device-code=true", "/src/f.cu"},
        {"nvcc", "--relocatable-device-code", "true", "/src/f.cu"},
        {"nvcc", "-dc", "/src/f.cu"},
        {"nvcc", "--device-c", "/src/f.cu"},
        {"nvcc", "-rdc=false", "-dc", "/src/f.cu"}})
    EXPECT_THAT(translate(Args),
                ElementsAre("clang++", "-fgpu-rdc", "--cuda-gpu-arch=sm_75",
                            "/src/f.cu"))
        << Args[1];
  for (std::vector<std::string> Args :
       {std::vector<std::string>{"nvcc", "-rdc=false", "/src/f.cu"},
        {"nvcc", "-rdc=true", "-rdc=false", "/src/f.cu"},
        {"nvcc", "-dc", "-dw", "/src/f.cu"},
        {"nvcc", "-c", "/src/f.cu"}})
    EXPECT_THAT(translate(Args),
                ElementsAre("clang++", "--cuda-gpu-arch=sm_75", "/src/f.cu"))
        << Args[1];
}

TEST(NvccCommand, HostCompilerOptions) {
  EXPECT_THAT(translate({"nvcc", "-Xcompiler", "-fPIC,-DHOST=1,-isystem,/hs",
                         "--compiler-options=-I/hi,-O2", "-Xcompiler",
                         "-I=/not-nvcc", "/src/f.cu"}),
              ElementsAre("clang++", "-DHOST=1", "-isystem", "/hs", "-I/hi",
                          "--cuda-gpu-arch=sm_75", "/src/f.cu"));
}

TEST(NvccCommand, OptionsFiles) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("nvcc-optf", Dir));
  auto Write = [&](llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<128> Path(Dir);
    llvm::sys::path::append(Path, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  };
  Write("includes.rsp", "-I/opt/a \"-I/opt/with space\"\n-isystem /opt/s "
                        "--options-file more.rsp");
  Write("more.rsp", "-DFROM_MORE -o ignored.o");
  EXPECT_THAT(translate({"nvcc", "--options-file", "includes.rsp", "-optf",
                         "missing.rsp", "/src/f.cu"},
                        Dir),
              ElementsAre("clang++", "-I/opt/a", "-I/opt/with space",
                          "-isystem", "/opt/s", "-DFROM_MORE",
                          "--cuda-gpu-arch=sm_75", "/src/f.cu"));
  llvm::sys::fs::remove_directories(Dir);
}

TEST(NvccCommand, ComputeCapabilities) {
  // nvidia-smi --query-gpu=compute_cap --format=csv,noheader, one GPU a line.
  EXPECT_THAT(decoupler::tool::gpuArchsOfComputeCaps("9.0\n8.6\n9.0\n12.0\n"),
              ElementsAre("sm_90", "sm_86", "sm_120"));
  EXPECT_THAT(decoupler::tool::gpuArchsOfComputeCaps(
                  "[N/A]\nNo devices were found\n 7.5 \n"),
              ElementsAre("sm_75"));
  EXPECT_TRUE(decoupler::tool::gpuArchsOfComputeCaps("").empty());
}

TEST(NvccCommand, DefaultArchitecture) {
  // A command that names no architecture compiles for its nvcc's default:
  // sm_52 before CUDA 13, sm_75 from it on (nvcc --help, "--gpu-architecture").
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("nvcc-default", Dir));
  auto Toolkit = [&](llvm::StringRef Name, llvm::StringRef Version) {
    llvm::SmallString<128> Root(Dir);
    llvm::sys::path::append(Root, Name);
    for (llvm::StringRef Sub : {"bin", "include"}) {
      llvm::SmallString<128> D(Root);
      llvm::sys::path::append(D, Sub);
      EXPECT_FALSE(llvm::sys::fs::create_directories(D));
    }
    std::error_code EC;
    llvm::SmallString<128> Header(Root);
    llvm::sys::path::append(Header, "include", "cuda.h");
    llvm::raw_fd_ostream(Header, EC)
        << "#define CUDA_VERSION " << Version << "\n";
    llvm::SmallString<128> Nvcc(Root);
    llvm::sys::path::append(Nvcc, "bin", "nvcc");
    llvm::raw_fd_ostream(Nvcc, EC) << "";
    return std::string(Nvcc);
  };
  const std::string Cuda12 = Toolkit("cuda-12.4", "12040");
  const std::string Cuda13 = Toolkit("cuda-13.0", "13000");
  EXPECT_EQ(decoupler::tool::nvccDefaultArch(Cuda12), "sm_52");
  EXPECT_EQ(decoupler::tool::nvccDefaultArch(Cuda13), "sm_75");
  EXPECT_THAT(translate({Cuda12, "-c", "/src/f.cu"}),
              ElementsAre("clang++", "--cuda-gpu-arch=sm_52", "/src/f.cu"));
  EXPECT_THAT(translate({Cuda13, "-c", "/src/f.cu"}),
              ElementsAre("clang++", "--cuda-gpu-arch=sm_75", "/src/f.cu"));
  // A named architecture replaces the default.
  EXPECT_THAT(translate({Cuda12, "-arch=sm_90", "/src/f.cu"}),
              ElementsAre("clang++", "--cuda-gpu-arch=sm_90", "/src/f.cu"));
  // -arch=native on a machine without a GPU: the default (with one, its
  // GPUs: GpuArchitectures above).
  if (decoupler::tool::localGpuArchs().empty())
    EXPECT_THAT(translate({Cuda12, "-arch=native", "/src/f.cu"}),
                ElementsAre("clang++", "--cuda-gpu-arch=sm_52", "/src/f.cu"));
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
