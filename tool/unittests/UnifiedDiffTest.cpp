//===- UnifiedDiffTest.cpp - Tests of --diff's unified diffs --------------===//
#include "UnifiedDiff.h"

#include "gtest/gtest.h"

using decoupler::tool::unifiedDiff;

namespace {

TEST(UnifiedDiff, IdenticalTextsGiveNothing) {
  EXPECT_EQ(unifiedDiff("", "", "f.cu"), "");
  EXPECT_EQ(unifiedDiff("a\nb\n", "a\nb\n", "f.cu"), "");
}

TEST(UnifiedDiff, ChangeWithThreeLinesOfContext) {
  const char *Old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  const char *New = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
  EXPECT_EQ(unifiedDiff(Old, New, "src/f.cu"), "--- a/src/f.cu\n"
                                               "+++ b/src/f.cu\n"
                                               "@@ -2,7 +2,7 @@\n"
                                               " 2\n"
                                               " 3\n"
                                               " 4\n"
                                               "-5\n"
                                               "+five\n"
                                               " 6\n"
                                               " 7\n"
                                               " 8\n");
}

TEST(UnifiedDiff, DistantChangesGetTheirOwnHunks) {
  std::string Old, New;
  for (int I = 1; I <= 20; ++I) {
    Old += std::to_string(I) + "\n";
    New += (I == 2 || I == 19 ? "x" : std::to_string(I)) + "\n";
  }
  EXPECT_EQ(unifiedDiff(Old, New, "f"), "--- a/f\n+++ b/f\n"
                                        "@@ -1,5 +1,5 @@\n"
                                        " 1\n-2\n+x\n 3\n 4\n 5\n"
                                        "@@ -16,5 +16,5 @@\n"
                                        " 16\n 17\n 18\n-19\n+x\n 20\n");
}

TEST(UnifiedDiff, CloseChangesShareOneHunk) {
  std::string Old, New;
  for (int I = 1; I <= 12; ++I) {
    Old += std::to_string(I) + "\n";
    New += (I == 3 || I == 9 ? "x" : std::to_string(I)) + "\n";
  }
  // Five equal lines between the changes: less than twice the context.
  std::string Diff = unifiedDiff(Old, New, "f");
  size_t Hunk = Diff.find("\n@@ -1,12 +1,12 @@\n");
  EXPECT_NE(Hunk, std::string::npos) << Diff;
  EXPECT_EQ(Diff.find("\n@@ ", Hunk + 1), std::string::npos) << Diff;
}

TEST(UnifiedDiff, InsertionsDeletionsAndEmptyRanges) {
  EXPECT_EQ(unifiedDiff("", "a\nb\n", "f"),
            "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n");
  EXPECT_EQ(unifiedDiff("a\n", "", "f"),
            "--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-a\n");
  EXPECT_EQ(unifiedDiff("a\nc\n", "a\nb\nc\n", "f"),
            "--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n a\n+b\n c\n");
}

TEST(UnifiedDiff, ChangedBlocksListDeletionsFirst) {
  EXPECT_EQ(unifiedDiff("a\nb\nc\nd\n", "a\nx\ny\nd\n", "f"),
            "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n a\n-b\n-c\n+x\n+y\n d\n");
}

TEST(UnifiedDiff, MissingFinalNewlineIsMarked) {
  EXPECT_EQ(unifiedDiff("a\nb", "a\nb\n", "f"),
            "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n"
            "\\ No newline at end of file\n+b\n");
}

TEST(UnifiedDiff, EditScriptIsMinimal) {
  // Myers finds the longest common subsequence: here only "c" changes.
  EXPECT_EQ(unifiedDiff("a\nb\nc\nb\na\n", "a\nb\nd\nb\na\n", "f"),
            "--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n a\n b\n-c\n+d\n b\n a\n");
}

} // namespace
