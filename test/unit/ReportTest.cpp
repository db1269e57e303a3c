//===- ReportTest.cpp - The HTML report and the optimization records ------===//

#include "report/HtmlReport.h"
#include "report/OptRecord.h"
#include "llvm/Remarks/Remark.h"
#include "llvm/Remarks/RemarkFormat.h"
#include "llvm/Remarks/RemarkParser.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace decoupler;
using namespace llvm;

namespace {

AccessEntry access(ValueClass C, std::optional<int64_t> X, unsigned Bytes,
                   AddressSpace Space = AddressSpace::Global) {
  AccessEntry A;
  A.Class = C;
  A.Space = Space;
  A.Bytes = Bytes;
  if (C == ValueClass::Affine)
    A.StrideValues = Strides{X, 0, 0};
  return A;
}

TEST(ReportTest, Coalescing) {
  EXPECT_EQ(coalescingText(access(ValueClass::Affine, 4, 4)),
            "coalesced: a warp's 32 threads touch 128 contiguous bytes, 4 sectors of 32 B "
            "(100% of the bytes fetched used)");
  // Doubles at stride 8 are contiguous too.
  EXPECT_EQ(coalescingText(access(ValueClass::Affine, -8, 8)),
            "coalesced: a warp's 32 threads touch 256 contiguous bytes, 8 sectors of 32 B "
            "(100% of the bytes fetched used)");
  EXPECT_EQ(coalescingText(access(ValueClass::Affine, 16, 4)),
            "strided: a warp's 32 threads touch 16 sectors of 32 B (25% of the bytes fetched "
            "used) for 128 B");
  // From 32 bytes apart on, every thread has a sector of its own.
  EXPECT_EQ(coalescingText(access(ValueClass::Affine, 4096, 4)),
            "strided: a warp's 32 threads touch 32 sectors of 32 B (12% of the bytes fetched "
            "used) for 128 B");
  EXPECT_EQ(coalescingText(access(ValueClass::Affine, std::nullopt, 4)),
            "x stride unknown at compile time");
  EXPECT_EQ(coalescingText(access(ValueClass::Affine, 0, 4)),
            "the same address for threads next to each other in x");
  EXPECT_EQ(coalescingText(access(ValueClass::Scalar, std::nullopt, 4)),
            "one address for the warp: one transaction serves all 32 threads");
  EXPECT_EQ(coalescingText(access(ValueClass::NonAffine, std::nullopt, 4)),
            "data-dependent address: coalescing unknown at compile time");
  // Shared memory: 32 banks of 4 bytes.
  EXPECT_EQ(coalescingText(access(ValueClass::Affine, 132, 4, AddressSpace::Shared)),
            "shared memory: no bank conflicts");
  EXPECT_EQ(coalescingText(access(ValueClass::Affine, 128, 4, AddressSpace::Shared)),
            "shared memory: 32-way bank conflicts");
  EXPECT_EQ(coalescingText(access(ValueClass::Affine, 8, 4, AddressSpace::Shared)),
            "shared memory: 2-way bank conflicts");
}

TEST(ReportTest, Escaping) {
  EXPECT_EQ(escapeHTML("a<b && c>'d' \"e\"\n"),
            "a&lt;b &amp;&amp; c&gt;&#39;d&#39; &quot;e&quot;&#10;");
}

/// One line with an access inside a branch condition that ends where the
/// access ends, and an access whose end lies past the line.
TEST(ReportTest, NestedSpans) {
  FileReport R;
  R.File = "k.cu";
  KernelReport K;
  K.Name = "k";
  K.Pos = {1, 17};
  BranchEntry B;
  B.Class = ValueClass::NonAffine;
  B.Pos = {2, 7};
  B.End = {2, 20};
  AccessEntry A = access(ValueClass::NonAffine, std::nullopt, 4);
  A.Pos = {2, 7};
  A.End = {2, 11};
  AccessEntry Long = access(ValueClass::Scalar, std::nullopt, 4);
  Long.Pos = {3, 5};
  Long.End = {4, 3};
  K.Accesses = {A, Long};
  K.Branches = {B};
  R.Kernels.push_back(K);
  R.Sources.push_back({"k", "", 1, {"__global__ void k(int *p) {", "  if (p[0] < 1 && 1)",
                                    "    p[1] +", "  2; }"}});
  Decision D;
  D.Kind = DecisionKind::Refused;
  D.Pass = "split";
  D.Loc = {"k.cu", true, {3, 5}};
  D.Message = "a <reason>";
  std::string Out;
  raw_string_ostream OS(Out);
  printHTML({HtmlFile{&R, ArrayRef<Decision>(D)}}, OS);
  EXPECT_NE(Out.find("<td class=\"code\">  if (<span class=\"br c-nonaffine\" title=\""),
            std::string::npos);
  EXPECT_NE(Out.find("\"><span class=\"ac c-nonaffine\" title=\""), std::string::npos);
  EXPECT_NE(Out.find(">p[0]</span> &lt; 1 &amp;&amp; 1</span>)</td>"), std::string::npos)
      << Out;
  EXPECT_NE(Out.find(">p[1] +</span></td>"), std::string::npos) << Out;
  EXPECT_NE(Out.find("<span class=\"badge\">refused</span> <span class=\"pass\">split</span> "
                     "<span class=\"at\">3:5</span> <span class=\"msg\">a &lt;reason&gt;</span>"),
            std::string::npos);
  EXPECT_NE(Out.find("<td data-n=\"refused\">1</td>"), std::string::npos);
}

/// What LLVM's own remark parser reads back from the records.
TEST(ReportTest, OptRecordsRoundTrip) {
  Decision Rewritten;
  Rewritten.Kind = DecisionKind::Rewritten;
  Rewritten.Pass = "atomics";
  Rewritten.Name = "Rewritten";
  Rewritten.Loc = {"dir/k.cu", true, {12, 5}};
  Rewritten.Function = "histogram";
  Rewritten.Message = "atomicAdd -> dd::atomic_add_vr: 'quoted': a: b # not a comment";
  Decision Declined = Rewritten;
  Declined.Kind = DecisionKind::Declined;
  Declined.Name = "Declined";
  Declined.Notes.push_back({{"dir/k.cu", true, {3, 9}}, "the kernel is annotated here"});
  Decision Classified = Rewritten;
  Classified.Kind = DecisionKind::Classified;
  Classified.Pass = "affine";
  Classified.Name = "NonAffineAccess";

  std::string YAML;
  raw_string_ostream OS(YAML);
  ASSERT_FALSE(errorToBool(printOptRecords({Rewritten, Declined, Classified}, OS)));
  Expected<std::unique_ptr<remarks::RemarkParser>> Parser =
      remarks::createRemarkParser(remarks::Format::YAML, YAML);
  ASSERT_TRUE(bool(Parser)) << toString(Parser.takeError());

  std::vector<std::unique_ptr<remarks::Remark>> Read;
  while (true) {
    Expected<std::unique_ptr<remarks::Remark>> R = (*Parser)->next();
    if (!R) {
      EXPECT_TRUE(R.errorIsA<remarks::EndOfFileError>());
      consumeError(R.takeError());
      break;
    }
    Read.push_back(std::move(*R));
  }
  ASSERT_EQ(Read.size(), 3u) << YAML;
  EXPECT_EQ(Read[0]->RemarkType, remarks::Type::Passed);
  EXPECT_EQ(Read[0]->PassName, "decoupler-atomics");
  EXPECT_EQ(Read[0]->RemarkName, "Rewritten");
  EXPECT_EQ(Read[0]->FunctionName, "histogram");
  ASSERT_TRUE(Read[0]->Loc.has_value());
  EXPECT_EQ(Read[0]->Loc->SourceFilePath, "dir/k.cu");
  EXPECT_EQ(Read[0]->Loc->SourceLine, 12u);
  EXPECT_EQ(Read[0]->Loc->SourceColumn, 5u);
  ASSERT_EQ(Read[0]->Args.size(), 1u);
  EXPECT_EQ(Read[0]->Args[0].Key, "String");
  // LLVM's parser reads the raw scalar and keeps YAML's doubled quotes (as
  // for clang's own records); Python's yaml, which opt-viewer uses, undoes
  // them.
  EXPECT_EQ(Read[0]->Args[0].Val.str(),
            "atomicAdd -> dd::atomic_add_vr: ''quoted'': a: b # not a comment");

  EXPECT_EQ(Read[1]->RemarkType, remarks::Type::Missed);
  ASSERT_EQ(Read[1]->Args.size(), 3u);
  EXPECT_EQ(Read[1]->Args[2].Key, "Note");
  EXPECT_EQ(Read[1]->Args[2].Val, "the kernel is annotated here");
  ASSERT_TRUE(Read[1]->Args[2].Loc.has_value());
  EXPECT_EQ(Read[1]->Args[2].Loc->SourceLine, 3u);

  EXPECT_EQ(Read[2]->RemarkType, remarks::Type::Analysis);
  EXPECT_EQ(Read[2]->PassName, "decoupler-affine");
  EXPECT_EQ(Read[2]->RemarkName, "NonAffineAccess");
}

} // namespace
