// Constraint extraction from LLVM IR text: each rule of docs/pta.md on a
// small module, checked through the solved sets, and the reader's errors.
#include <gtest/gtest.h>

#include <string>

#include "pta/constraints.h"
#include "pta/solver.h"

namespace dd::pta {
namespace {

// The solved sets of `ir` as format_solution() writes them, without the
// header line.
std::string solved(const std::string &ir, ExtractionStats *stats = nullptr) {
  Expected<ConstraintSet> set = parse_constraints(ir, "m.ll", stats);
  EXPECT_TRUE(set.ok()) << set.status().message();
  if (!set.ok())
    return "";
  EXPECT_TRUE(validate(*set).ok());
  const std::string text = format_solution(*set, solve(*set));
  return text.substr(text.find('\n') + 1);
}

TEST(Extract, GlobalsAllocasLoadsStores) {
  const std::string ir = R"(
@x = global i32 0
@p = global ptr @x
@s = global { ptr, i32, ptr } { ptr null, i32 1, ptr getelementptr (i8, ptr @p, i64 0) }
define void @main() {
  %l = alloca ptr
  %pp = alloca ptr
  store ptr @x, ptr %l
  store ptr %l, ptr %pp
  %v = load ptr, ptr %pp
  %w = load ptr, ptr %v
  ret void
}
)";
  EXPECT_EQ(solved(ir), "@p -> @x\n"
                        "@s -> @p\n"
                        "main:%l -> @x\n"
                        "main:%pp -> main:%l\n"
                        "main:%v -> main:%l\n"
                        "main:%w -> @x\n");
}

TEST(Extract, CopiesPhiSelectGepCallsAndHeap) {
  const std::string ir = R"(
declare ptr @malloc(i64)
declare ptr @_Znwm(i64)
define ptr @f(ptr %a) {
  %m = call ptr @malloc(i64 4)
  %g = getelementptr i8, ptr %m, i64 1
  %c = icmp eq ptr %a, null
  %s = select i1 %c, ptr %a, ptr %g
  ret ptr %s
}
define void @main(i1 %b) {
entry:
  %x = alloca i32
  %y = alloca i32
  br i1 %b, label %t, label %e
t:
  br label %e
e:
  %p = phi ptr [ %x, %entry ], [ %y, %t ]
  %r = call ptr @f(ptr %p)
  %n = call ptr @_Znwm(i64 8)
  ret void
}
)";
  EXPECT_EQ(solved(ir), "f:%a -> main:%x main:%y\n"
                        "f:%g -> heap@f:%m\n"
                        "f:%m -> heap@f:%m\n"
                        "f:%s -> heap@f:%m main:%x main:%y\n"
                        "f:<ret> -> heap@f:%m main:%x main:%y\n"
                        "main:%n -> heap@main:%n\n"
                        "main:%p -> main:%x main:%y\n"
                        "main:%r -> heap@f:%m main:%x main:%y\n");
}

TEST(Extract, IndirectCallsThroughFunctionPointers) {
  const std::string ir = R"(
@x = global i32 0
@fp = global ptr @id
define ptr @id(ptr %q) {
  ret ptr %q
}
define void @main() {
  %f = load ptr, ptr @fp
  %r = call ptr %f(ptr @x)
  ret void
}
)";
  ExtractionStats stats;
  EXPECT_EQ(solved(ir, &stats), "@fp -> @id\n"
                                "id:%q -> @x\n"
                                "id:<ret> -> @x\n"
                                "main:%f -> @id\n"
                                "main:%r -> @x\n");
  EXPECT_EQ(stats.indirect_calls, 1u);
  EXPECT_EQ(stats.functions, 2u);
}

TEST(Extract, AliasesAreTheirAliasees) {
  const std::string ir = R"(
@x = global i32 0
@y = alias i32, ptr @x
@fa = alias ptr (ptr), ptr @id
define ptr @id(ptr %q) {
  ret ptr %q
}
define void @main() {
  %r = call ptr @fa(ptr @y)
  ret void
}
)";
  ExtractionStats stats;
  EXPECT_EQ(solved(ir, &stats), "id:%q -> @x\n"
                                "id:<ret> -> @x\n"
                                "main:%r -> @x\n");
  EXPECT_EQ(stats.indirect_calls, 0u);
}

TEST(Extract, MemcpyCopiesContents) {
  const std::string ir = R"(
@x = global i32 0
@src = global { ptr, ptr } { ptr @x, ptr null }
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define void @main() {
  %d = alloca { ptr, ptr }
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr @src, i64 16, i1 false)
  ret void
}
)";
  EXPECT_EQ(solved(ir), "@src -> @x\n"
                        "main:%d -> @x\n");
}

TEST(Extract, UnmodelledPartsAreCounted) {
  const std::string ir = R"(
declare ptr @getenv(ptr)
declare i32 @printf(ptr, ...)
@s = global [2 x i8] c"a\00"
define void @main(i64 %i) {
  %e = call ptr @getenv(ptr @s)
  %p = inttoptr i64 %i to ptr
  %n = call i32 (ptr, ...) @printf(ptr @s, ptr %e)
  ret void
}
)";
  ExtractionStats stats;
  EXPECT_EQ(solved(ir, &stats), "");
  EXPECT_EQ(stats.external_calls, 2u);
  EXPECT_EQ(stats.int_to_ptr, 1u);
}

TEST(Extract, UnnamedValuesUseTheirSlots) {
  const std::string ir = R"(
define void @main() {
  %1 = alloca i32
  %2 = alloca ptr
  store ptr %1, ptr %2
  ret void
}
)";
  EXPECT_EQ(solved(ir), "main:%2 -> main:%1\n");
}

TEST(Extract, NotIrIsLlvmsDiagnostic) {
  Expected<ConstraintSet> set = parse_constraints("int main() { return 0; }\n", "m.c");
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.status().message(), "m.c:1:1: expected top-level entity");
}

TEST(Extract, MissingFile) {
  Expected<ConstraintSet> set = read_constraints("/nonexistent/m.ll");
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.status().message(),
            "/nonexistent/m.ll: Could not open input file: No such file or directory");
}

} // namespace
} // namespace dd::pta
