//===- SidePreprocessTest.cpp - The device side of a parse command --------===//

#include "SidePreprocess.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace decoupler::tool;
using ::testing::ElementsAre;

TEST(SidePreprocess, DeviceSideSwapsTheOffloadingChoiceOnly) {
  EXPECT_THAT(deviceSide({"clang++", "-DX", "--cuda-host-only",
                          "--cuda-gpu-arch=sm_80", "-x", "cuda", "--", "k.cu"}),
              ElementsAre("clang++", "-DX", "--cuda-device-only",
                          "--cuda-gpu-arch=sm_80", "-x", "cuda", "--", "k.cu"));
  // After `--` only inputs follow, whatever their names.
  EXPECT_THAT(deviceSide({"clang++", "--", "--cuda-host-only"}),
              ElementsAre("clang++", "--", "--cuda-host-only"));
}

TEST(SidePreprocess, GpuArchIsTheLastOneGiven) {
  EXPECT_EQ(gpuArchOf({"clang++", "--cuda-gpu-arch=sm_80",
                       "--cuda-gpu-arch=sm_90a", "--", "k.cu"}),
            "sm_90a");
  EXPECT_EQ(gpuArchOf({"clang++", "--", "--cuda-gpu-arch=sm_70"}), "the GPU");
}
