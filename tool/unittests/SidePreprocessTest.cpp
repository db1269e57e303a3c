//===- SidePreprocessTest.cpp - The device side of a parse command --------===//

#include "SidePreprocess.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace decoupler::tool;
using ::testing::ElementsAre;

TEST(SidePreprocess, DeviceSideForOneArchitecture) {
  EXPECT_THAT(
      deviceSide({"clang++", "-DX", "--cuda-host-only", "--cuda-gpu-arch=sm_80",
                  "--cuda-gpu-arch=sm_90", "-x", "cuda", "--", "k.cu"},
                 "sm_90"),
      ElementsAre("clang++", "-DX", "--cuda-device-only",
                  "--no-cuda-version-check", "--cuda-gpu-arch=sm_90", "-x",
                  "cuda", "--", "k.cu"));
  // After `--` only inputs follow, whatever their names.
  EXPECT_THAT(deviceSide({"clang++", "--", "--cuda-host-only"}, "sm_90"),
              ElementsAre("clang++", "--", "--cuda-host-only"));
}

TEST(SidePreprocess, GpuArchsInOrderEachOnce) {
  EXPECT_THAT(
      gpuArchsOf({"clang++", "--cuda-gpu-arch=sm_80", "--cuda-gpu-arch=sm_90a",
                  "--cuda-gpu-arch=sm_80", "--", "--cuda-gpu-arch=sm_70"}),
      ElementsAre("sm_80", "sm_90a"));
  EXPECT_TRUE(gpuArchsOf({"clang++", "--", "k.cu"}).empty());
}
