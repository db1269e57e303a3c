//===- report/OptRecord.cpp - Decisions as LLVM optimization records ------===//

#include "report/OptRecord.h"
#include "llvm/Remarks/Remark.h"
#include "llvm/Remarks/RemarkFormat.h"
#include "llvm/Remarks/RemarkSerializer.h"
#include <memory>
#include <string>

using namespace llvm;

namespace decoupler {

namespace {

remarks::Type remarkType(DecisionKind K) {
  switch (K) {
  case DecisionKind::Rewritten:
    return remarks::Type::Passed;
  case DecisionKind::Refused:
  case DecisionKind::Declined:
    // What an annotation asked for and did not get.
    return remarks::Type::Missed;
  case DecisionKind::Unchanged:
  case DecisionKind::Classified:
    return remarks::Type::Analysis;
  }
  llvm_unreachable("bad decision kind");
}

std::optional<remarks::RemarkLocation>
remarkLocation(const DecisionLocation &L) {
  if (L.File.empty() || L.Pos.Line == 0)
    return std::nullopt;
  return remarks::RemarkLocation{L.File, L.Pos.Line, L.Pos.Column};
}

} // namespace

Error printOptRecords(ArrayRef<Decision> Decisions, raw_ostream &OS) {
  Expected<std::unique_ptr<remarks::RemarkSerializer>> Serializer =
      remarks::createRemarkSerializer(remarks::Format::YAML, OS);
  if (!Serializer)
    return Serializer.takeError();
  for (const Decision &D : Decisions) {
    // The remark refers to these strings; they live until emit() returns.
    std::string PassName = "decoupler-" + D.Pass;
    remarks::Remark R;
    R.RemarkType = remarkType(D.Kind);
    R.PassName = PassName;
    R.RemarkName = D.Name;
    R.FunctionName = D.Function;
    R.Loc = remarkLocation(D.Loc);
    R.Args.emplace_back("String", D.Message);
    for (const DecisionNote &N : D.Notes) {
      R.Args.emplace_back("String", "; ");
      R.Args.emplace_back("Note", N.Message);
      R.Args.back().Loc = remarkLocation(N.Loc);
    }
    (*Serializer)->emit(R);
  }
  (*Serializer)->finalize();
  return Error::success();
}

} // namespace decoupler
