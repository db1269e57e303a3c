// Andersen's points-to constraints (inclusion-based, flow- and
// context-insensitive) and their extraction from LLVM IR or bitcode, the
// input of points-to analysis (PTA). docs/pta.md has the rules.
//
//   auto set = dd::pta::read_constraints("prog.ll");
//   if (!set.ok()) { ... set.status().message() ... }   // "prog.ll:3:1: ..."
//   auto solution = dd::pta::solve(*set);                // solver.h
//
// Nodes are the pointer variables (SSA values of pointer type, function
// parameters and return values, temporaries) and the abstract locations
// (allocas, globals, functions, heap allocation sites), one id space. A
// location's node is also the variable of its contents: field-insensitive,
// what is stored anywhere in a location goes to its one node.
#ifndef DD_PTA_CONSTRAINTS_H
#define DD_PTA_CONSTRAINTS_H

#include <cstdint>
#include <string>
#include <vector>

#include "graph/errors.h"

namespace dd::pta {

using dd::graph::Expected;
using dd::graph::Status;

/// The four kinds, for constraint {kind, dst, src, offset}:
///   kAddressOf  dst = &src       pts(dst) contains src
///   kCopy       dst = src        pts(dst) includes pts(src)
///   kLoad       dst = *(src+k)   for o in pts(src): pts(dst) includes pts(o+k)
///   kStore      *(dst+k) = src   for o in pts(dst): pts(o+k) includes pts(src)
/// The offset k is 0 but for calls through function pointers: a function's
/// block is its object node f, then f+1 its return value, f+2+i its
/// parameter i, and o+k counts only while k < the block's size (size[o]).
enum class Kind : std::uint8_t { kAddressOf, kCopy, kLoad, kStore };
inline constexpr int kNumKinds = 4;
const char *kind_name(Kind kind);

struct Constraint {
  Kind kind;
  std::uint32_t dst;
  std::uint32_t src;
  std::uint32_t offset = 0;
  friend bool operator==(const Constraint &a, const Constraint &b) {
    return a.kind == b.kind && a.dst == b.dst && a.src == b.src && a.offset == b.offset;
  }
};

/// What a node stands for (for the output: temporaries are not printed).
enum class NodeKind : std::uint8_t {
  kVariable, ///< an SSA value, a parameter, a return value
  kObject,   ///< an abstract location: its address may be taken
  kTemp,     ///< made by the extraction (an address passed where a variable is needed)
};

struct ConstraintSet {
  std::vector<std::string> names;   ///< unique, per node
  std::vector<NodeKind> kinds;      ///< per node
  std::vector<std::uint32_t> sizes; ///< per node: its block's size (1; functions 2 + params)
  std::vector<Constraint> constraints;

  std::uint32_t num_nodes() const { return static_cast<std::uint32_t>(names.size()); }
  std::uint32_t add_node(std::string name, NodeKind kind, std::uint32_t size = 1);
  void add(Kind kind, std::uint32_t dst, std::uint32_t src, std::uint32_t offset = 0) {
    constraints.push_back({kind, dst, src, offset});
  }
  /// Constraints of each kind, indexed by Kind.
  std::vector<std::uint64_t> count_by_kind() const;
};

/// Checks ids and offsets (tests build sets by hand); names the first problem.
Status validate(const ConstraintSet &set);

/// What the extraction met that it does not model (docs/pta.md).
struct ExtractionStats {
  std::uint64_t functions = 0;       ///< defined functions
  std::uint64_t indirect_calls = 0;  ///< calls through a pointer (solved through it)
  std::uint64_t external_calls = 0;  ///< calls to undefined functions not modelled
  std::uint64_t int_to_ptr = 0;      ///< inttoptr results: no targets
  std::uint64_t vararg_args = 0;     ///< arguments past the parameters: dropped
};

/// Reads LLVM IR text or bitcode (parseIRFile decides) and extracts the
/// constraints. Errors are LLVM's diagnostic, "FILE:LINE:COL: message" for
/// text or "FILE: message" otherwise.
Expected<ConstraintSet> read_constraints(const std::string &path,
                                         ExtractionStats *stats = nullptr);
/// The same from IR in memory called `name`.
Expected<ConstraintSet> parse_constraints(const std::string &ir, const std::string &name,
                                          ExtractionStats *stats = nullptr);

} // namespace dd::pta

#endif // DD_PTA_CONSTRAINTS_H
