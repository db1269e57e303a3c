// The CPU Andersen solver on hand-built constraint sets with known answers
// (the paper's Figure 10, cycles, load and store chains, calls through
// function pointers) and against a naive fixed point on random sets (some
// dense in copy cycles, which the solver merges).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "pta/constraints.h"
#include "pta/solver.h"

namespace dd::pta {
namespace {

// A set built by names: nodes appear on first mention.
struct Builder {
  ConstraintSet set;
  std::map<std::string, std::uint32_t> ids;
  std::uint32_t id(const std::string &name) {
    auto [it, added] = ids.try_emplace(name, 0);
    if (added)
      it->second = set.add_node(name, NodeKind::kVariable);
    return it->second;
  }
  Builder &addr(const std::string &p, const std::string &x) {
    set.add(Kind::kAddressOf, id(p), id(x));
    return *this;
  }
  Builder &copy(const std::string &p, const std::string &q) {
    set.add(Kind::kCopy, id(p), id(q));
    return *this;
  }
  Builder &load(const std::string &p, const std::string &q) {
    set.add(Kind::kLoad, id(p), id(q));
    return *this;
  }
  Builder &store(const std::string &p, const std::string &q) {
    set.add(Kind::kStore, id(p), id(q));
    return *this;
  }
  // The names node `name` points to, sorted.
  std::vector<std::string> pts(const Solution &s, const std::string &name) {
    std::vector<std::string> out;
    for (std::uint32_t t : s.pts.at(ids.at(name)))
      out.push_back(set.names[t]);
    std::sort(out.begin(), out.end());
    return out;
  }
};

using Names = std::vector<std::string>;

TEST(Solver, PaperFigure10) {
  // a = &x; q = &b; *q = c; c = a  (Atomic-free Irregular Computations, Fig. 10)
  Builder b;
  b.addr("a", "x").addr("q", "b").store("q", "c").copy("c", "a");
  ASSERT_TRUE(validate(b.set).ok());
  const Solution s = solve(b.set);
  EXPECT_EQ(b.pts(s, "a"), Names{"x"});
  EXPECT_EQ(b.pts(s, "q"), Names{"b"});
  EXPECT_EQ(b.pts(s, "c"), Names{"x"});
  EXPECT_EQ(b.pts(s, "b"), Names{"x"});
  EXPECT_TRUE(s.pts[b.id("x")].empty());
  EXPECT_EQ(s.facts(b.set), 4u);
}

TEST(Solver, CopyCycle) {
  // a -> b -> c -> a, fed at two points.
  Builder b;
  b.copy("b", "a").copy("c", "b").copy("a", "c").addr("a", "x").addr("c", "y");
  const Solution s = solve(b.set);
  for (const char *v : {"a", "b", "c"})
    EXPECT_EQ(b.pts(s, v), (Names{"x", "y"})) << v;
}

TEST(Solver, CycleThroughLoadAndStore) {
  // p = &a; a = &p: *p = p makes a point to a as well; r = *p reads both.
  Builder b;
  b.addr("p", "a").addr("a", "p").store("p", "p").load("r", "p");
  const Solution s = solve(b.set);
  EXPECT_EQ(b.pts(s, "a"), (Names{"a", "p"}));
  EXPECT_EQ(b.pts(s, "r"), (Names{"a", "p"}));
}

TEST(Solver, LoadChain) {
  // p -> a -> b -> c: q = *p, r = *q, t = *r.
  Builder b;
  b.addr("p", "a").addr("a", "b").addr("b", "c").load("q", "p").load("r", "q").load("t", "r");
  const Solution s = solve(b.set);
  EXPECT_EQ(b.pts(s, "q"), Names{"b"});
  EXPECT_EQ(b.pts(s, "r"), Names{"c"});
  EXPECT_TRUE(b.pts(s, "t").empty());
}

TEST(Solver, StoreThenLoadThroughDoublePointer) {
  // pp = &p; *pp = &x (through t); r = *pp; s = *r... the order of the
  // constraints must not matter: the load comes first.
  Builder b;
  b.load("r", "pp").addr("pp", "p").addr("t", "x").store("pp", "t").addr("p", "y");
  const Solution s = solve(b.set);
  EXPECT_EQ(b.pts(s, "p"), (Names{"x", "y"}));
  EXPECT_EQ(b.pts(s, "r"), (Names{"x", "y"}));
}

TEST(Solver, EdgesAddedLateCarryEverything) {
  // q gains its target only after c's set is complete.
  Builder b;
  b.addr("c", "x").addr("c", "y").copy("d", "c").store("q", "d").copy("q", "e").addr("e", "o");
  const Solution s = solve(b.set);
  EXPECT_EQ(b.pts(s, "o"), (Names{"x", "y"}));
}

TEST(Solver, OffsetsReachFunctionBlocks) {
  // f's block: f, f:<ret>, f:%0; g has no parameter. fp = &f or &g;
  // the call r = fp(a) stores a at offset 2 and loads the result at 1.
  ConstraintSet set;
  const std::uint32_t f = set.add_node("@f", NodeKind::kObject);
  set.add_node("f:<ret>", NodeKind::kVariable);
  set.add_node("f:%0", NodeKind::kVariable);
  set.sizes[f] = 3;
  const std::uint32_t g = set.add_node("@g", NodeKind::kObject);
  set.add_node("g:<ret>", NodeKind::kVariable);
  set.sizes[g] = 2;
  const std::uint32_t fp = set.add_node("fp", NodeKind::kVariable);
  const std::uint32_t a = set.add_node("a", NodeKind::kVariable);
  const std::uint32_t x = set.add_node("x", NodeKind::kObject);
  const std::uint32_t y = set.add_node("y", NodeKind::kObject);
  const std::uint32_t r = set.add_node("r", NodeKind::kVariable);
  set.add(Kind::kAddressOf, fp, f);
  set.add(Kind::kAddressOf, fp, g);
  set.add(Kind::kAddressOf, a, x);
  set.add(Kind::kCopy, f + 1, f + 2); // f returns its parameter
  set.add(Kind::kAddressOf, g + 1, y); // g returns &y
  set.add(Kind::kStore, fp, a, 2);
  set.add(Kind::kLoad, r, fp, 1);
  ASSERT_TRUE(validate(set).ok());
  const Solution s = solve(set);
  EXPECT_EQ(s.pts[f + 2], std::vector<std::uint32_t>{x});
  EXPECT_EQ(s.pts[r], (std::vector<std::uint32_t>{x, y}));
  // g has no parameter slot: nothing was stored past its block (into fp).
  EXPECT_EQ(s.pts[fp], (std::vector<std::uint32_t>{f, g}));
}

TEST(Solver, ValidateRejectsBadSets) {
  Builder b;
  b.addr("p", "x");
  b.set.constraints.push_back({Kind::kCopy, 0, 7});
  EXPECT_FALSE(validate(b.set).ok());
  b.set.constraints.back() = {Kind::kCopy, 0, 1, 1};
  EXPECT_FALSE(validate(b.set).ok());
  b.set.constraints.pop_back();
  b.set.sizes[1] = 2;
  EXPECT_FALSE(validate(b.set).ok());
}

TEST(Solver, FormatIsSortedByName) {
  Builder b;
  b.addr("z", "b").addr("z", "a").addr("m", "c").copy("n", "none");
  const std::uint32_t t = b.set.add_node("<tmp>", NodeKind::kTemp);
  b.set.add(Kind::kAddressOf, t, b.id("a"));
  EXPECT_EQ(format_solution(b.set, solve(b.set)),
            "# dd-pta points-to sets: NODE -> TARGET...\n"
            "m -> c\n"
            "z -> a b\n");
}

// The naive fixed point: apply every constraint until nothing changes.
std::vector<std::vector<std::uint32_t>> naive(const ConstraintSet &set) {
  std::vector<std::vector<std::uint8_t>> in(set.num_nodes(),
                                            std::vector<std::uint8_t>(set.num_nodes(), 0));
  auto unite = [&](std::uint32_t to, std::uint32_t from) {
    bool changed = false;
    for (std::uint32_t o = 0; o < set.num_nodes(); ++o)
      if (in[from][o] && !in[to][o])
        in[to][o] = 1, changed = true;
    return changed;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const Constraint &c : set.constraints) {
      if (c.kind == Kind::kAddressOf) {
        changed |= !in[c.dst][c.src];
        in[c.dst][c.src] = 1;
      } else if (c.kind == Kind::kCopy) {
        changed |= unite(c.dst, c.src);
      } else if (c.kind == Kind::kLoad) {
        for (std::uint32_t o = 0; o < set.num_nodes(); ++o)
          if (in[c.src][o] && c.offset < set.sizes[o])
            changed |= unite(c.dst, o + c.offset);
      } else {
        for (std::uint32_t o = 0; o < set.num_nodes(); ++o)
          if (in[c.dst][o] && c.offset < set.sizes[o])
            changed |= unite(o + c.offset, c.src);
      }
    }
  }
  std::vector<std::vector<std::uint32_t>> pts(set.num_nodes());
  for (std::uint32_t v = 0; v < set.num_nodes(); ++v)
    for (std::uint32_t o = 0; o < set.num_nodes(); ++o)
      if (in[v][o])
        pts[v].push_back(o);
  return pts;
}

TEST(Solver, MatchesNaiveFixedPointOnRandomSets) {
  std::mt19937 rng(17);
  for (int round = 0; round < 200; ++round) {
    ConstraintSet set;
    const std::uint32_t n = 2 + rng() % 40;
    for (std::uint32_t i = 0; i < n; ++i)
      set.add_node("n" + std::to_string(i), NodeKind::kVariable);
    // A few blocks of 2-3 nodes, as functions make.
    for (std::uint32_t i = 0; i + 3 < n; i += 7 + rng() % 5)
      set.sizes[i] = 2 + rng() % 2;
    const std::uint32_t m = rng() % (3 * n);
    for (std::uint32_t i = 0; i < m; ++i) {
      const Kind kind = static_cast<Kind>(rng() % 4);
      const std::uint32_t offset =
          (kind == Kind::kLoad || kind == Kind::kStore) && rng() % 4 == 0 ? 1 + rng() % 2 : 0;
      set.add(kind, rng() % n, rng() % n, offset);
    }
    ASSERT_TRUE(validate(set).ok());
    EXPECT_EQ(solve(set).pts, naive(set)) << "round " << round;
  }
}

TEST(Solver, MatchesNaiveFixedPointOnCycleHeavySets) {
  // Mostly copies, so that cycles form and are merged while loads and
  // stores keep adding edges into and out of them.
  std::mt19937 rng(42);
  std::uint64_t merged = 0;
  for (int round = 0; round < 300; ++round) {
    ConstraintSet set;
    const std::uint32_t n = 4 + rng() % 60;
    for (std::uint32_t i = 0; i < n; ++i)
      set.add_node("n" + std::to_string(i), NodeKind::kVariable);
    for (std::uint32_t i = 0; i + 3 < n; i += 9 + rng() % 5)
      set.sizes[i] = 2 + rng() % 2;
    const std::uint32_t m = n + rng() % (4 * n);
    for (std::uint32_t i = 0; i < m; ++i) {
      const std::uint32_t r = rng() % 10;
      const Kind kind = r < 7   ? Kind::kCopy
                        : r < 8 ? Kind::kAddressOf
                        : r < 9 ? Kind::kLoad
                                : Kind::kStore;
      const std::uint32_t offset =
          (kind == Kind::kLoad || kind == Kind::kStore) && rng() % 4 == 0 ? 1 + rng() % 2 : 0;
      set.add(kind, rng() % n, rng() % n, offset);
    }
    const Solution s = solve(set);
    EXPECT_EQ(s.pts, naive(set)) << "round " << round;
    merged += s.merged;
  }
  EXPECT_GT(merged, 100u); // the merging was exercised
}

} // namespace
} // namespace dd::pta
