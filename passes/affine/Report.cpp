//===- affine/Report.cpp - Printing the analysis report -------------------===//

#include "affine/Report.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace decoupler {

StringRef toString(ValueClass C) {
  switch (C) {
  case ValueClass::Scalar:
    return "scalar";
  case ValueClass::Affine:
    return "affine";
  case ValueClass::NonAffine:
    return "nonaffine";
  }
  llvm_unreachable("bad class");
}

StringRef toString(AccessKind K) {
  switch (K) {
  case AccessKind::Load:
    return "load";
  case AccessKind::Store:
    return "store";
  case AccessKind::Atomic:
    return "atomic";
  }
  llvm_unreachable("bad kind");
}

StringRef toString(AddressSpace S) {
  switch (S) {
  case AddressSpace::Global:
    return "global";
  case AddressSpace::Shared:
    return "shared";
  case AddressSpace::Local:
    return "local";
  case AddressSpace::Unknown:
    return "unknown";
  }
  llvm_unreachable("bad space");
}

std::optional<int64_t> strideBytesX(const Classified &C) {
  if (C.Class == ValueClass::Scalar)
    return 0;
  if (C.Class != ValueClass::Affine || !C.DivergentConditions.empty() ||
      !C.StrideValues)
    return std::nullopt;
  return (*C.StrideValues)[0];
}

namespace {

std::string quoted(StringRef S);

/// One compact JSON object on one line, `{"key": value, ...}`, fields in the
/// order they are added (the report's field order is part of its interface).
class JSONLine {
public:
  JSONLine &raw(StringRef Key, StringRef Value) {
    Out += First ? "{" : ", ";
    First = false;
    Out += quoted(Key) + ": " + Value.str();
    return *this;
  }
  JSONLine &num(StringRef Key, int64_t V) {
    return raw(Key, std::to_string(V));
  }
  JSONLine &str(StringRef Key, StringRef V) { return raw(Key, quoted(V)); }
  JSONLine &optNum(StringRef Key, std::optional<int64_t> V) {
    return raw(Key, V ? std::to_string(*V) : "null");
  }
  std::string done() const { return (First ? "{" : "") + Out + "}"; }

private:
  std::string Out;
  bool First = true;
};

std::string stridesJSON(const Strides &S) {
  std::string Out = "[";
  for (unsigned D = 0; D < 3; ++D)
    Out +=
        (D ? ", " : "") + (S[D] ? std::to_string(*S[D]) : std::string("null"));
  return Out + "]";
}

/// The fields every classified entry may add after its required ones.
void addExtras(JSONLine &J, const Classified &C, StringRef StridesKey) {
  if (!StridesKey.empty() && C.Class == ValueClass::Affine && C.StrideValues &&
      C.DivergentConditions.empty())
    J.raw(StridesKey, stridesJSON(*C.StrideValues));
  if (!C.DivergentConditions.empty()) {
    std::string List = "[";
    for (size_t I = 0; I < C.DivergentConditions.size(); ++I)
      List += (I ? ", [" : "[") +
              std::to_string(C.DivergentConditions[I].Line) + ", " +
              std::to_string(C.DivergentConditions[I].Column) + "]";
    J.raw("divergent_conditions", List + "]");
  }
  if (!C.Function.empty())
    J.str("function", C.Function);
  if (!C.File.empty())
    J.str("file", C.File);
}

std::string accessJSON(const AccessEntry &A) {
  JSONLine J;
  J.num("line", A.Pos.Line)
      .num("column", A.Pos.Column)
      .str("kind", toString(A.Kind))
      .str("space", toString(A.Space))
      .str("class", toString(A.Class))
      .optNum("stride_bytes", strideBytesX(A));
  addExtras(J, A, "strides_bytes");
  return J.done();
}

std::string branchJSON(const BranchEntry &B) {
  JSONLine J;
  J.num("line", B.Pos.Line)
      .num("column", B.Pos.Column)
      .str("class", toString(B.Class));
  // Predicates have no strides; only the tuple conditions and the function.
  addExtras(J, B, "");
  return J.done();
}

std::string variableJSON(const VariableEntry &V) {
  JSONLine J;
  J.str("name", V.Name).num("line", V.Line).str("class", toString(V.Class));
  addExtras(J, V, "strides");
  return J.done();
}

std::string annotationJSON(const AnnotationEntry &A) {
  JSONLine Clauses;
  for (const auto &[Name, Value] : A.Clauses) {
    int64_t N;
    if (!StringRef(Value).getAsInteger(10, N))
      Clauses.num(Name, N);
    else
      Clauses.str(Name, Value);
  }
  JSONLine J;
  J.str("directive", A.Directive)
      .num("line", A.Pos.Line)
      .num("column", A.Pos.Column)
      .str("function", A.Function)
      .str("target", A.Target)
      .num("target_line", A.TargetPos.Line)
      .num("target_column", A.TargetPos.Column)
      .raw("clauses", Clauses.done());
  return J.done();
}

std::string quoted(StringRef S) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << json::Value(S);
  return Out;
}

std::string stringsJSON(const std::vector<std::string> &Items) {
  std::string Out = "[";
  for (size_t I = 0; I < Items.size(); ++I)
    Out += (I ? ", " : "") + quoted(Items[I]);
  return Out + "]";
}

std::string criticalSectionJSON(const CriticalSectionEntry &C) {
  JSONLine J;
  J.num("line", C.Pos.Line)
      .num("column", C.Pos.Column)
      .str("function", C.Function)
      .str("status", C.Recognized ? "recognized" : "refused");
  if (C.Recognized)
    J.str("shape", C.Shape)
        .raw("locks", stringsJSON(C.Locks))
        .raw("message", stringsJSON(C.Message))
        .raw("arguments", stringsJSON(C.Arguments))
        .raw("replies", stringsJSON(C.Replies))
        .num("statements", C.Statements);
  else
    J.str("reason", C.Reason)
        .num("reason_line", C.ReasonPos.Line)
        .num("reason_column", C.ReasonPos.Column);
  return J.done();
}

std::string decoupleJSON(const DecoupleEntry &D) {
  const auto Loads = [](const std::vector<DecoupleEntry::Load> &Items,
                        StringRef NoteKey) {
    std::string Out = "[";
    for (size_t I = 0; I < Items.size(); ++I) {
      JSONLine L;
      L.str("load", Items[I].Text)
          .num("line", Items[I].Pos.Line)
          .num("column", Items[I].Pos.Column);
      if (!Items[I].Note.empty())
        L.str(NoteKey, Items[I].Note);
      Out += (I ? ", " : "") + L.done();
    }
    return Out + "]";
  };
  JSONLine J;
  J.num("line", D.Pos.Line)
      .num("column", D.Pos.Column)
      .str("function", D.Function)
      .str("status", D.Status);
  if (!D.Reason.empty())
    J.str("reason", D.Reason)
        .num("reason_line", D.ReasonPos.Line)
        .num("reason_column", D.ReasonPos.Column);
  if (D.Status == "refused")
    return J.done();
  J.raw("streams", Loads(D.Streams, "note"))
      .raw("consumers", Loads(D.Consumers, "why"));
  if (D.Shaped)
    J.num("block_threads", D.BlockThreads)
        .raw("block_known", D.BlockKnown ? "true" : "false")
        .num("iterations_per_stage", D.U)
        .num("depth", D.Depth)
        .num("stage_bytes", D.StageBytes)
        .num("shared_bytes", D.SharedBytes);
  if (D.Costed) {
    J.num("mlp", D.MLP)
        .num("in_flight_bytes", D.InFlightBytes)
        .raw("predicted_gain", formatv("{0:f2}", D.Gain).str())
        .raw("prefer_restrict_hoist", D.PreferHoist ? "true" : "false");
    if (D.TripCount)
      J.num("trip_count", *D.TripCount);
    else
      J.num("min_trip_count", D.MinTripCount);
  }
  return J.done();
}

/// Prints `"Key": [` entries one per line `]` at the given indent.
template <typename T, typename Fn>
void printList(raw_ostream &OS, StringRef Indent, StringRef Key,
               const std::vector<T> &Items, Fn ToJSON, bool Last) {
  OS << Indent << '"' << Key << "\": [";
  if (Items.empty()) {
    OS << "]" << (Last ? "" : ",") << "\n";
    return;
  }
  OS << "\n";
  for (size_t I = 0; I < Items.size(); ++I)
    OS << Indent << "  " << ToJSON(Items[I])
       << (I + 1 == Items.size() ? "" : ",") << "\n";
  OS << Indent << "]" << (Last ? "" : ",") << "\n";
}

void printOne(const FileReport &R, raw_ostream &OS, StringRef Indent) {
  OS << Indent << "{\n";
  std::string In1 = (Indent + "  ").str();
  std::string In2 = (Indent + "    ").str();
  std::string In3 = (Indent + "      ").str();
  OS << In1 << "\"file\": " << quoted(R.File) << ",\n";
  OS << In1 << "\"kernels\": [";
  if (R.Kernels.empty())
    OS << "],\n";
  else {
    OS << "\n";
    for (size_t I = 0; I < R.Kernels.size(); ++I) {
      const KernelReport &K = R.Kernels[I];
      OS << In2 << "{\n";
      OS << In3 << "\"name\": " << quoted(K.Name) << ",\n";
      OS << In3 << "\"line\": " << K.Pos.Line << ",\n";
      if (!K.File.empty())
        OS << In3 << "\"file\": " << quoted(K.File) << ",\n";
      printList(OS, In3, "accesses", K.Accesses, accessJSON, false);
      printList(OS, In3, "branches", K.Branches, branchJSON, false);
      printList(OS, In3, "variables", K.Variables, variableJSON, true);
      OS << In2 << "}" << (I + 1 == R.Kernels.size() ? "" : ",") << "\n";
    }
    OS << In1 << "],\n";
  }
  printList(OS, In1, "annotations", R.Annotations, annotationJSON, false);
  printList(OS, In1, "critical_sections", R.CriticalSections,
            criticalSectionJSON, R.Decouple.empty());
  // Only when the file has a `#pragma dd decouple`: reports of other files
  // stay as they were.
  if (!R.Decouple.empty())
    printList(OS, In1, "decouple", R.Decouple, decoupleJSON, true);
  OS << Indent << "}";
}

std::string stridesText(const Strides &S, StringRef Unit) {
  std::string Out;
  raw_string_ostream OS(Out);
  const char *Dims[] = {"x", "y", "z"};
  bool First = true;
  for (unsigned D = 0; D < 3; ++D) {
    if (S[D] && *S[D] == 0)
      continue;
    OS << (First ? "" : " ") << Dims[D] << ':';
    if (S[D])
      OS << *S[D];
    else
      OS << '?';
    First = false;
  }
  if (!Unit.empty())
    OS << ' ' << Unit;
  return Out;
}

std::string classText(const Classified &C, StringRef Unit) {
  std::string Out = toString(C.Class).str();
  if (C.Class == ValueClass::Affine) {
    if (!C.DivergentConditions.empty()) {
      Out += " (divergent tuple on";
      for (const Position &P : C.DivergentConditions)
        Out += " " + std::to_string(P.Line) + ":" + std::to_string(P.Column);
      Out += ")";
    } else if (C.StrideValues) {
      Out += " (" + stridesText(*C.StrideValues, Unit) + ")";
    }
  }
  return Out;
}

std::string posText(const Position &P) {
  return std::to_string(P.Line) + ":" + std::to_string(P.Column);
}

/// `line:col` in the main file, `file:line:col` elsewhere.
std::string posText(StringRef File, const Position &P) {
  return File.empty() ? posText(P) : (File + ":" + posText(P)).str();
}

} // namespace

void printJSON(ArrayRef<FileReport> Reports, raw_ostream &OS, bool Array) {
  if (!Array && Reports.size() == 1) {
    printOne(Reports.front(), OS, "");
    OS << "\n";
    return;
  }
  OS << "[\n";
  for (size_t I = 0; I < Reports.size(); ++I) {
    printOne(Reports[I], OS, "  ");
    OS << (I + 1 == Reports.size() ? "" : ",") << "\n";
  }
  OS << "]\n";
}

void printText(const FileReport &R, raw_ostream &OS) {
  if (R.Kernels.empty())
    OS << R.File << ": no kernels\n";
  for (const KernelReport &K : R.Kernels) {
    OS << (K.File.empty() ? R.File : K.File) << ":" << posText(K.Pos)
       << ": kernel '" << K.Name << "'\n";
    OS << "  variables:\n";
    for (const VariableEntry &V : K.Variables) {
      std::string Name =
          V.Function.empty() ? V.Name : V.Function + "::" + V.Name;
      std::string Line = std::to_string(V.Line);
      if (!V.File.empty())
        Line = V.File + ":" + Line;
      OS << "    " << left_justify(Name, 24) << " line "
         << left_justify(Line, 5) << ' ' << classText(V, "") << "\n";
    }
    OS << "  accesses:\n";
    for (const AccessEntry &A : K.Accesses) {
      OS << "    " << left_justify(posText(A.File, A.Pos), 8) << ' '
         << left_justify(toString(A.Kind), 7)
         << left_justify(toString(A.Space), 8)
         << left_justify(classText(A, "bytes"), 30) << ' ' << A.Text;
      if (!A.Function.empty())
        OS << "  [in " << A.Function << "]";
      OS << "\n";
    }
    OS << "  branches:\n";
    for (const BranchEntry &B : K.Branches) {
      Classified Shown = B;
      Shown.StrideValues.reset();
      OS << "    " << left_justify(posText(B.File, B.Pos), 8) << ' '
         << left_justify(classText(Shown, ""), 30) << ' ' << B.Text;
      if (!B.Function.empty())
        OS << "  [in " << B.Function << "]";
      OS << "\n";
    }
  }
  if (!R.Annotations.empty()) {
    OS << R.File << ": annotations:\n";
    for (const AnnotationEntry &A : R.Annotations) {
      OS << "  " << posText(A.Pos) << " #pragma dd " << A.Directive;
      for (const auto &[Name, Value] : A.Clauses)
        OS << (Name == "variant" ? "(" + Value + ")"
                                 : " " + Name + "(" + Value + ")");
      OS << " -> " << A.Target << " at " << posText(A.TargetPos);
      if (!A.Function.empty())
        OS << " in '" << A.Function << "'";
      OS << "\n";
    }
  }
  if (!R.CriticalSections.empty()) {
    OS << R.File << ": critical sections (#pragma dd delegate):\n";
    const auto List = [](const std::vector<std::string> &Items) {
      return Items.empty() ? std::string("none") : join(Items, ", ");
    };
    for (const CriticalSectionEntry &C : R.CriticalSections) {
      OS << "  " << posText(C.Pos) << " in '" << C.Function << "': ";
      if (!C.Recognized) {
        OS << "refused at " << posText(C.ReasonPos) << ": " << C.Reason << "\n";
        continue;
      }
      OS << C.Shape << " lock" << (C.Locks.size() > 1 ? "s " : " ")
         << join(C.Locks, " then ") << ", " << C.Statements << " statement"
         << (C.Statements == 1 ? "" : "s")
         << "\n    message: " << List(C.Message)
         << "\n    server arguments: " << List(C.Arguments)
         << (C.Replies.empty()
                 ? ""
                 : "\n    reply (the client waits): " + join(C.Replies, ", "))
         << "\n";
    }
  }
  if (!R.Decouple.empty()) {
    OS << R.File << ": decoupled loops (#pragma dd decouple):\n";
    for (const DecoupleEntry &D : R.Decouple) {
      OS << "  " << posText(D.Pos) << " in '" << D.Function
         << "': " << D.Status;
      if (D.Status == "refused") {
        OS << " at " << posText(D.ReasonPos) << ": " << D.Reason << "\n";
        continue;
      }
      if (!D.Reason.empty())
        OS << ": " << D.Reason;
      OS << "\n";
      for (const DecoupleEntry::Load &L : D.Streams)
        OS << "    stream   " << posText(L.Pos) << " " << L.Text
           << (L.Note.empty() ? "" : " (" + L.Note + ")") << "\n";
      for (const DecoupleEntry::Load &L : D.Consumers)
        OS << "    consumer " << posText(L.Pos) << " " << L.Text << " ("
           << L.Note << ")\n";
      if (D.Shaped)
        OS << "    " << D.StageBytes << " B stages x depth " << D.Depth
           << ", U=" << D.U << ", " << D.SharedBytes << " B shared, "
           << D.BlockThreads << " threads" << (D.BlockKnown ? "" : " (assumed)")
           << "\n";
      if (D.Costed)
        OS << "    original: MLP " << D.MLP << ", " << D.InFlightBytes
           << " B in flight per SM; predicted " << formatv("{0:f2}", D.Gain)
           << "x" << (D.PreferHoist ? "; restrict/hoist rewrite preferred" : "")
           << "\n";
    }
  }
}

} // namespace decoupler
