//===- support/LaunchRewriter.h - k<<<...>>> to a generated launcher -*- C++
//-*-//
//
// The delegate and split passes generate a host function beside a kernel and
// replace the kernel's launches by calls of it. One convention for both:
//
//   static void k_launch(dim3 dd_grid, dim3 dd_block, size_t dd_shmem,
//                        cudaStream_t dd_stream, <k's parameters>);
//
// `k<<<g, b>>>(args)`, `<<<g, b, s>>>` and `<<<g, b, s, st>>>` become
// `k_launch(g, b, 0, 0, args)`, `k_launch(g, b, s, 0, args)` and
// `k_launch(g, b, s, st, args)`: the configuration and the arguments keep
// their text. The launcher is defined right after the kernel (in its
// namespace); the rewriter
//   - qualifies each call as the launch was (`ns::k` -> `ns::k_launch`), and
//     fully (`::ns::k_launch`) where the kernel's name was found through a
//     using-declaration, a using-directive or argument-dependent lookup;
//   - declares the launcher before the first launch that precedes the
//     kernel's definition: after a declaration of the kernel in the main
//     file, or else before the top-level declaration holding that launch,
//     in the kernel's namespaces (and `extern "C"` block);
//   - gives the launcher's parameters the kernel's default arguments where a
//     launch relies on them, on the launcher's first declaration;
//   - refuses what it cannot rewrite: template or member kernels, kernels
//     defined outside their namespace, a name `k_launch` already taken, a
//     default argument declared after the launcher's declaration would be.
//     Launches it cannot rewrite (through a macro, in an included file, in
//     device code, in a template) and other uses of the kernel (its address
//     taken, cudaLaunchKernel) are refused where the pass replaces the
//     kernel, and keep calling it where the pass keeps it.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_LAUNCHREWRITER_H
#define DECOUPLER_SUPPORT_LAUNCHREWRITER_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include <optional>
#include <string>
#include <vector>

namespace decoupler {

/// Why the launches of a kernel cannot be rewritten.
struct LaunchProblem {
  clang::SourceLocation Loc;
  std::string Message;
};

class LaunchRewriter {
public:
  enum class Policy {
    /// The pass replaces the kernel (delegate): every launch must be
    /// rewritten and the kernel may have no other use.
    ReplaceAll,
    /// The kernel stays as written (split): a launch that cannot be
    /// rewritten keeps calling it.
    KeepOthers,
  };

  /// \p Kernel is the kernel's definition.
  LaunchRewriter(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                 Policy P);

  /// Finds the kernel's launches and plans their rewrite; the first problem,
  /// if any. No launch at all is no problem (the pass decides).
  std::optional<LaunchProblem> check();

  /// The launches rewrite() replaces (after check()), in source order.
  const std::vector<const clang::CUDAKernelCallExpr *> &launches() const {
    return Launches;
  }
  /// Policy::KeepOthers: the launches left calling the kernel, each with why
  /// ("the launch at line N ... keeps the original").
  const std::vector<std::string> &kept() const { return Kept; }

  /// k_launch.
  std::string name() const { return Name + "_launch"; }
  /// `static void k_launch(dim3 dd_grid, ..., <parameters>)`: the head of
  /// the launcher's definition, which the pass inserts right after the
  /// kernel's definition, followed by its body.
  std::string definitionHead() const;
  /// The name the launcher gives the kernel's parameter \p I (dd_argI when
  /// the kernel leaves it unnamed).
  std::string paramName(unsigned I) const;
  /// The launcher's parameters passed on, in order: "a, b, dd_arg2".
  std::string arguments() const;

  /// Replaces the launches and declares the launcher where a launch comes
  /// before the kernel's definition (after a successful check()).
  void rewrite(clang::Rewriter &R) const;

private:
  struct Found;
  std::optional<LaunchProblem> checkKernel() const;
  std::optional<LaunchProblem>
  planPrototype(const std::vector<Found> &Rewritten);
  std::string paramType(unsigned I) const;
  std::string callee(const Found &F) const;
  std::string fullName() const;

  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  const clang::LangOptions &LO;
  const clang::FunctionDecl &K;
  Policy Mode;
  std::string Name;
  clang::PrintingPolicy Printing;

  std::vector<const clang::CUDAKernelCallExpr *> Launches;
  std::vector<std::string>
      Calls; // per launch: the launcher's callee as written there
  std::vector<std::string> Kept;
  /// Parameters from this index on get the kernel's default arguments.
  unsigned FirstDefault = 0;
  std::vector<std::string> Defaults; // per parameter: its default's text
  /// Where the prototype goes (invalid: none is needed) and its text.
  clang::SourceLocation PrototypeAt;
  std::string Prototype;
};

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_LAUNCHREWRITER_H
