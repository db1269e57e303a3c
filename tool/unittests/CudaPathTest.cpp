//===- CudaPathTest.cpp - Tests of the CUDA installation's version --------===//
#include "CudaPath.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using decoupler::tool::nvccVersionMacros;
using testing::ElementsAre;
using namespace llvm;

namespace {

/// A scratch CUDA installation with the given files (path, contents).
class FakeCuda {
public:
  FakeCuda() { EXPECT_FALSE(sys::fs::createUniqueDirectory("dd-cuda", Root)); }
  ~FakeCuda() { sys::fs::remove_directories(Root); }
  void write(StringRef Relative, StringRef Text) {
    SmallString<256> Path(Root);
    sys::path::append(Path, Relative);
    ASSERT_FALSE(sys::fs::create_directories(sys::path::parent_path(Path)));
    std::error_code EC;
    raw_fd_ostream(Path, EC) << Text;
    ASSERT_FALSE(EC);
  }
  void mkdir(StringRef Relative) {
    SmallString<256> Path(Root);
    sys::path::append(Path, Relative);
    ASSERT_FALSE(sys::fs::create_directories(Path));
  }
  StringRef path() const { return Root; }

private:
  SmallString<256> Root;
};

TEST(CudaPath, VersionFromCudaHAndVersionJson) {
  FakeCuda Cuda;
  Cuda.write("include/cuda.h", "#ifndef CUDA_H\n#define CUDA_VERSION_X 1\n"
                               "#define   CUDA_VERSION   12040\n#endif\n");
  Cuda.write(
      "version.json",
      R"({"cuda": {"version": "12.4.1"}, "cuda_nvcc": {"version": "12.4.131"}})");
  EXPECT_THAT(nvccVersionMacros(Cuda.path()),
              ElementsAre("-D__CUDACC_VER_MAJOR__=12",
                          "-D__CUDACC_VER_MINOR__=4",
                          "-D__CUDACC_VER_BUILD__=131"));
}

TEST(CudaPath, BuildFromAWheelsDistInfo) {
  FakeCuda Cuda;
  Cuda.write("include/cuda.h", "#define CUDA_VERSION 13000\n");
  Cuda.mkdir("dist-info/nvidia_cuda_crt-13.0.77.dist-info");
  Cuda.mkdir("dist-info/nvidia_cuda_nvcc-13.0.88.dist-info");
  EXPECT_THAT(nvccVersionMacros(Cuda.path()),
              ElementsAre("-D__CUDACC_VER_MAJOR__=13",
                          "-D__CUDACC_VER_MINOR__=0",
                          "-D__CUDACC_VER_BUILD__=88"));
}

TEST(CudaPath, NoBuildNumberIsZeroAndNoVersionIsNothing) {
  FakeCuda Cuda;
  Cuda.write("include/cuda.h", "#define CUDA_VERSION 11080\n");
  Cuda.write("version.json", "not json");
  EXPECT_THAT(nvccVersionMacros(Cuda.path()),
              ElementsAre("-D__CUDACC_VER_MAJOR__=11",
                          "-D__CUDACC_VER_MINOR__=8",
                          "-D__CUDACC_VER_BUILD__=0"));
  FakeCuda Bare;
  Bare.write("include/cuda.h", "/* no version */\n");
  EXPECT_TRUE(nvccVersionMacros(Bare.path()).empty());
  EXPECT_TRUE(nvccVersionMacros("/nonexistent-cuda").empty());
}

} // namespace
