//===- CompileCommandsTest.cpp - Tests of the compile-command adjustments -===//
#include "CompileCommands.h"
#include "NvccPrelude.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using decoupler::tool::adjustForParsing;
using decoupler::tool::NvccPreludePath;
using decoupler::tool::ParseSettings;
using testing::ElementsAre;

namespace {

ParseSettings settings() {
  ParseSettings S;
  S.CudaPath = "/cuda";
  S.CudaGpuArchs = {"sm_90"};
  S.ResourceDir = "/res";
  S.RuntimeIncludeDir = "/rt";
  S.ExtraArgsBefore = {"-DBEFORE"};
  S.ExtraArgs = {"-DAFTER"};
  return S;
}

TEST(CompileCommands, AdjustsAClangCommand) {
  EXPECT_THAT(adjustForParsing({"clang++", "-c", "-o", "f.o", "-MD", "-MF",
                                "f.d", "-x", "c++", "--cuda-gpu-arch=sm_70",
                                "-Iinc", "--cuda-path=/old", "-resource-dir",
                                "/old-res", "src/f.cu", "-Wall"},
                               "src/f.cu", "/d", settings()),
              ElementsAre("clang++", "-DBEFORE", "-Iinc", "-Wall",
                          "--cuda-host-only", "-Wno-unknown-cuda-version",
                          "-Wno-register", "-Wno-c++11-narrowing",
                          "--cuda-path=/cuda", "--cuda-gpu-arch=sm_90",
                          "-D__DECOUPLER__=1", "-resource-dir=/res", "-I/rt",
                          "-include", NvccPreludePath.str(), "-fsyntax-only",
                          "-DAFTER", "-x", "cuda", "--", "src/f.cu"));
}

TEST(CompileCommands, FindsTheInputSpelledDifferently) {
  // The database's file field is absolute, the command's argument relative.
  EXPECT_THAT(adjustForParsing({"clang++", "../d/f.cu", "-DX"}, "/d/f.cu", "/d",
                               ParseSettings()),
              ElementsAre("clang++", "-DX", "--cuda-host-only",
                          "-Wno-unknown-cuda-version", "-Wno-register",
                          "-Wno-c++11-narrowing", "--cuda-path=",
                          "--cuda-gpu-arch=sm_90", "-D__DECOUPLER__=1",
                          "-resource-dir=", "-include", NvccPreludePath.str(),
                          "-fsyntax-only", "-x", "cuda", "--", "/d/f.cu"));
}

TEST(CompileCommands, ArchitecturesOfTheCommand) {
  // Without --cuda-gpu-arch the command's architectures are the targets,
  // each once; --no-cuda-gpu-arch takes one back.
  auto Archs = [](const std::vector<std::string> &Args) {
    std::vector<std::string> Out;
    for (const std::string &A : Args)
      if (A.rfind("--cuda-gpu-arch=", 0) == 0)
        Out.push_back(A);
    return Out;
  };
  EXPECT_THAT(
      Archs(adjustForParsing(
          {"clang++", "--cuda-gpu-arch=sm_75", "--offload-arch=sm_90,sm_75",
           "--offload-arch=sm_80", "--no-offload-arch=sm_80", "f.cu"},
          "f.cu", "/d", ParseSettings())),
      ElementsAre("--cuda-gpu-arch=sm_75", "--cuda-gpu-arch=sm_90"));
  // --cuda-gpu-arch given to decoupler wins.
  EXPECT_THAT(
      Archs(adjustForParsing({"clang++", "--cuda-gpu-arch=sm_75", "f.cu"},
                             "f.cu", "/d", settings())),
      ElementsAre("--cuda-gpu-arch=sm_90"));
}

TEST(CompileCommands, InferredCommandsEndWithDashDash) {
  // clang's interpolation writes `-- <file>`; nothing may follow it.
  std::vector<std::string> Adjusted =
      adjustForParsing({"clang++", "--driver-mode=g++", "-DX", "--", "/d/g.cu"},
                       "/d/g.cu", "/d", settings());
  ASSERT_GE(Adjusted.size(), 4u);
  EXPECT_EQ(Adjusted[1], "-DBEFORE");
  EXPECT_EQ(Adjusted[3], "-DX");
  EXPECT_THAT(std::vector<std::string>(Adjusted.end() - 4, Adjusted.end()),
              ElementsAre("-x", "cuda", "--", "/d/g.cu"));
  EXPECT_EQ(std::count(Adjusted.begin(), Adjusted.end(), "--"), 1);
}

TEST(CompileCommands, EmptyCommandParsesTheFile) {
  std::vector<std::string> Adjusted =
      adjustForParsing({}, "f.cu", "/d", settings());
  EXPECT_EQ(Adjusted.front(), "clang++");
  EXPECT_EQ(Adjusted.back(), "f.cu");
}

TEST(CompileCommands, AddsNvccVersionMacrosTheCommandDoesNotSet) {
  ParseSettings S = settings();
  S.NvccMacros = {"-D__CUDACC_VER_MAJOR__=13", "-D__CUDACC_VER_MINOR__=0",
                  "-D__CUDACC_VER_BUILD__=88"};
  auto Count = [](const std::vector<std::string> &Args, const std::string &A) {
    return std::count(Args.begin(), Args.end(), A);
  };
  std::vector<std::string> Plain =
      adjustForParsing({"clang++", "f.cu"}, "f.cu", "/d", S);
  EXPECT_EQ(Count(Plain, "-D__CUDACC_VER_MAJOR__=13"), 1);
  EXPECT_EQ(Count(Plain, "-D__CUDACC_VER_MINOR__=0"), 1);
  EXPECT_EQ(Count(Plain, "-D__CUDACC_VER_BUILD__=88"), 1);

  // The command's own definition (joined or split), its -U, or an
  // --extra-arg wins: ours is left out rather than redefined.
  std::vector<std::string> Own =
      adjustForParsing({"clang++", "-D__CUDACC_VER_MAJOR__=12", "-D",
                        "__CUDACC_VER_MINOR__=4", "f.cu"},
                       "f.cu", "/d", S);
  EXPECT_EQ(Count(Own, "-D__CUDACC_VER_MAJOR__=13"), 0);
  EXPECT_EQ(Count(Own, "-D__CUDACC_VER_MINOR__=0"), 0);
  EXPECT_EQ(Count(Own, "-D__CUDACC_VER_BUILD__=88"), 1);
  S.ExtraArgs = {"-U__CUDACC_VER_BUILD__"};
  std::vector<std::string> Extra =
      adjustForParsing({"clang++", "f.cu"}, "f.cu", "/d", S);
  EXPECT_EQ(Count(Extra, "-D__CUDACC_VER_BUILD__=88"), 0);
  EXPECT_EQ(Count(Extra, "-D__CUDACC_VER_MAJOR__=13"), 1);
}

} // namespace
