// Max-flow networks: the DIMACS max-flow reader (structure, twins, every
// class of bad input with its line), the writer, the RLG generator, Dinic
// against hand-computed values and against an independent Edmonds-Karp on
// random networks, and the checkers on wrong flows.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "graph/flow_network.h"
#include "graph/generators.h"
#include "graph/max_flow.h"
#include "graph/random.h"

namespace dd::graph {
namespace {

FlowNetwork parse_ok(std::string_view text) {
  Expected<FlowNetwork> net = parse_max_flow(text, "net.max");
  EXPECT_TRUE(net.ok()) << net.status().message();
  if (!net.ok())
    return FlowNetwork();
  EXPECT_TRUE(validate(*net).ok()) << validate(*net).message();
  return std::move(net).value();
}

// Expects parsing to fail with exactly `message` ("net.max:LINE: ...").
void expect_error(std::string_view text, const std::string& message, ReadOptions options = {}) {
  Expected<FlowNetwork> net = parse_max_flow(text, "net.max", options);
  ASSERT_FALSE(net.ok()) << "parsing unexpectedly succeeded:\n" << text;
  EXPECT_EQ(net.status().message(), message);
}

std::int64_t dinic_value(const FlowNetwork& net) {
  Expected<MaxFlowResult> r = max_flow_dinic(net);
  EXPECT_TRUE(r.ok()) << r.status().message();
  if (!r.ok())
    return -1;
  // Every answer is checked: feasible, of the value claimed, and maximum.
  Expected<std::int64_t> value = verify_flow(net, r->flows);
  EXPECT_TRUE(value.ok()) << value.status().message();
  EXPECT_EQ(value.ok() ? *value : -1, r->value);
  EXPECT_TRUE(check_maximum(net, r->flows).ok()) << check_maximum(net, r->flows).message();
  return r->value;
}

std::int64_t dinic_value(std::string_view text) { return dinic_value(parse_ok(text)); }

// ---- reader ----------------------------------------------------------------

TEST(MaxFlowReader, ResidualStructure) {
  const FlowNetwork net = parse_ok("c a comment\n"
                                   "p max 3 3\n"
                                   "n 1 s\n"
                                   "\n"
                                   "n 3 t\n"
                                   "a 1 2 5\n"
                                   "a 2 3 4\r\n"
                                   "a 1 3 0\n");
  EXPECT_EQ(net.num_vertices(), 3u);
  EXPECT_EQ(net.num_arcs(), 3u);
  EXPECT_EQ(net.num_residual_arcs(), 6u);
  EXPECT_EQ(net.source, 0u);
  EXPECT_EQ(net.sink, 2u);
  // Vertex 0: forward 0->1 and 0->2; vertex 1: twin of 0->1, forward 1->2;
  // vertex 2: twins of 1->2 and 0->2 (input order).
  EXPECT_EQ(net.row_offsets, (std::vector<EdgeIndex>{0, 2, 4, 6}));
  EXPECT_EQ(net.heads, (std::vector<VertexId>{1, 2, 0, 2, 1, 0}));
  EXPECT_EQ(net.capacities, (std::vector<Capacity>{5, 0, 0, 4, 0, 0}));
  EXPECT_EQ(net.twins, (std::vector<EdgeIndex>{2, 5, 0, 4, 3, 1}));
  for (std::uint64_t i = 0; i < 3; ++i)
    EXPECT_EQ(net.twins[net.twins[net.arcs[i]]], net.arcs[i]);
  EXPECT_EQ(net.arc_tail(1), 1u);
  EXPECT_EQ(net.arc_head(1), 2u);
  EXPECT_EQ(net.arc_capacity(1), 4);
  EXPECT_EQ(net.arc_capacity(2), 0);
}

TEST(MaxFlowReader, ParallelAntiparallelAndSelfLoops) {
  const FlowNetwork net = parse_ok("p max 2 5\nn 1 s\nn 2 t\n"
                                   "a 1 2 3\na 1 2 4\na 2 1 7\na 1 1 9\na 2 2 1\n");
  // Parallel and antiparallel arcs stay separate arcs; self loops go.
  EXPECT_EQ(net.num_arcs(), 3u);
  EXPECT_EQ(net.dropped_self_loops, 2u);
  EXPECT_EQ(net.arc_capacity(0), 3);
  EXPECT_EQ(net.arc_capacity(1), 4);
  EXPECT_EQ(net.arc_tail(2), 1u);
  EXPECT_EQ(net.arc_capacity(2), 7);
}

TEST(MaxFlowReader, DesignationsMayFollowArcs) {
  const FlowNetwork net = parse_ok("p max 2 1\na 2 1 3\nn 2 s\nn 1 t\n");
  EXPECT_EQ(net.source, 1u);
  EXPECT_EQ(net.sink, 0u);
  EXPECT_EQ(dinic_value(net), 3);
}

TEST(MaxFlowReader, WriteAndReadBack) {
  RlgParams p;
  p.rows = 5;
  p.cols = 4;
  Expected<FlowNetwork> net = generate_rlg(p);
  ASSERT_TRUE(net.ok()) << net.status().message();
  Expected<std::string> text = max_flow_text(*net, "two\ncomment lines");
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(text->rfind("c two\nc comment lines\np max 22 ", 0), 0u) << *text;
  const FlowNetwork back = parse_ok(*text);
  EXPECT_EQ(back.row_offsets, net->row_offsets);
  EXPECT_EQ(back.heads, net->heads);
  EXPECT_EQ(back.twins, net->twins);
  EXPECT_EQ(back.capacities, net->capacities);
  EXPECT_EQ(back.arcs, net->arcs);
  EXPECT_EQ(back.source, net->source);
  EXPECT_EQ(back.sink, net->sink);
}

TEST(MalformedMaxFlow, ProblemLine) {
  expect_error("", "net.max:1: end of file without a problem line 'p max N M'");
  expect_error("c only\n", "net.max:1: end of file without a problem line 'p max N M'");
  expect_error("p max 2 0\nn 1 s\np max 2 0\n",
               "net.max:3: a second problem line (the first is line 1)");
  expect_error("p sp 2 0\n", "net.max:1: problem type 'sp' is not 'max' (maximum flow)");
  expect_error("p max 2\n", "net.max:1: expected the problem line 'p max N M'");
  expect_error("p max 2 1 7\n", "net.max:1: expected the problem line 'p max N M'");
  expect_error("p max two 0\n", "net.max:1: vertex count 'two' is not a non-negative integer");
  expect_error("p max 2 -1\n", "net.max:1: arc count '-1' is not a non-negative integer");
}

TEST(MalformedMaxFlow, SourceAndSink) {
  expect_error("p max 2 0\nn 2 t\n", "net.max:1: no source: the file has no line 'n ID s'");
  expect_error("p max 2 0\nn 1 s\n", "net.max:1: no sink: the file has no line 'n ID t'");
  expect_error("p max 3 0\nn 1 s\nn 2 s\n", "net.max:3: a second source (the first is line 2)");
  expect_error("p max 3 0\nn 3 t\nn 1 s\nn 2 t\n",
               "net.max:4: a second sink (the first is line 2)");
  expect_error("p max 3 0\nn 2 s\nn 2 t\n",
               "net.max:3: vertex 2 cannot be both the source and the sink (line 2)");
  expect_error("p max 3 0\nn 2 t\nn 2 s\n",
               "net.max:3: vertex 2 cannot be both the source and the sink (line 2)");
  expect_error("p max 3 0\nn 4 s\n",
               "net.max:2: source id 4 is out of range [1, 3] (the header declares 3 vertices)");
  expect_error("p max 3 0\nn 0 t\n",
               "net.max:2: sink id 0 is below the first id 1 (ids are 1-based here)");
  expect_error("p max 3 0\nn 1 x\n",
               "net.max:2: node designation 'x' is not 's' (source) or 't' (sink)");
  expect_error("p max 3 0\nn 1\n",
               "net.max:2: expected a node designation 'n ID s' or 'n ID t'");
  expect_error("n 1 s\np max 3 0\n",
               "net.max:1: node designation before the problem line 'p max N M'");
  expect_error("p max 3 0\nn one s\n",
               "net.max:2: source id 'one' is not a non-negative integer");
}

TEST(MalformedMaxFlow, Arcs) {
  const std::string head = "p max 3 1\nn 1 s\nn 3 t\n";
  expect_error("a 1 2 3\np max 3 1\n",
               "net.max:1: arc before the problem line 'p max N M'");
  expect_error(head + "a 1 4 3\n",
               "net.max:4: head id 4 is out of range [1, 3] (the header declares 3 vertices)");
  expect_error(head + "a 0 2 3\n",
               "net.max:4: tail id 0 is below the first id 1 (ids are 1-based here)");
  expect_error(head + "a 1 2 -3\n", "net.max:4: negative capacity '-3'");
  expect_error(head + "a 1 2 2.5\n", "net.max:4: capacity '2.5' is not a non-negative integer");
  expect_error(head + "a 1 2 x\n", "net.max:4: capacity 'x' is not a non-negative integer");
  expect_error(head + "a 1 2 -\n", "net.max:4: capacity '-' is not a non-negative integer");
  expect_error(head + "a 1 2 2147483648\n",
               "net.max:4: capacity '2147483648' does not fit in int32 (at most 2147483647)");
  expect_error(head + "a 1 2 99999999999999999999999\n",
               "net.max:4: capacity '99999999999999999999999' does not fit in int32 (at most "
               "2147483647)");
  expect_error(head + "a 1 2\n", "net.max:4: expected an arc 'a U V CAP'");
  expect_error(head + "a 1 2 3 4\n", "net.max:4: expected an arc 'a U V CAP'");
  expect_error(head + "a 1 2 3\na 2 3 3\n", "net.max:5: more arcs than the 1 declared on line 1");
  expect_error(head, "net.max:1: the problem line declares 1 arcs but the file has 0");
  expect_error(head + "x 1 2 3\n",
               "net.max:4: unexpected line starting with 'x' (DIMACS max-flow lines start with "
               "c, p, n or a)");
}

TEST(MalformedMaxFlow, LyingSizesAreErrorsNotAllocations) {
  expect_error("p max 3 999999999999\nn 1 s\nn 3 t\n",
               "net.max:1: 999999999999 arcs declared, but the file's 33 bytes can hold at most 4");
  expect_error("p max 999999999 1\nn 1 s\nn 2 t\na 1 2 3\n",
               "net.max:1: 999999999 vertices for 1 arcs, more than the 16777232 a text graph may "
               "have (16777216 + 16 per arc; see docs/graphs.md)");
  ReadOptions options;
  options.max_vertices = 2;
  expect_error("p max 3 0\n",
               "net.max:1: 3 vertices, more than the limit of 2 (ReadOptions::max_vertices)",
               options);
}

// ---- Dinic: known values ----------------------------------------------------

TEST(Dinic, TextbookNetwork) {
  // CLRS figure 26.1: the maximum flow is 23.
  EXPECT_EQ(dinic_value("p max 6 9\nn 1 s\nn 6 t\n"
                        "a 1 2 16\na 1 3 13\na 3 2 4\na 2 4 12\na 4 3 9\n"
                        "a 3 5 14\na 5 4 7\na 4 6 20\na 5 6 4\n"),
            23);
}

TEST(Dinic, ParallelArcsAddUp) {
  EXPECT_EQ(dinic_value("p max 3 4\nn 1 s\nn 3 t\na 1 2 3\na 1 2 4\na 2 3 5\na 2 3 6\n"), 7);
}

TEST(Dinic, AntiparallelArcs) {
  // 1 -> 2 -> 4 and 1 -> 3 -> 4 with the cross arcs 2 <-> 3 both ways: the
  // 2 -> 3 arc carries the surplus of the upper path into the lower one.
  EXPECT_EQ(dinic_value("p max 4 6\nn 1 s\nn 4 t\n"
                        "a 1 2 10\na 1 3 1\na 2 3 5\na 3 2 5\na 2 4 3\na 3 4 8\n"),
            9);
  // Flow must use a backward residual arc: the greedy path 1-2-3-4 blocks
  // both others unless 2->3 is undone.
  EXPECT_EQ(dinic_value("p max 4 5\nn 1 s\nn 4 t\n"
                        "a 1 2 1\na 1 3 1\na 2 3 1\na 2 4 1\na 3 4 1\n"),
            2);
}

TEST(Dinic, DisconnectedSinkGivesZero) {
  EXPECT_EQ(dinic_value("p max 4 2\nn 1 s\nn 4 t\na 1 2 5\na 3 4 5\n"), 0);
  // Arcs only into the source and out of the sink.
  EXPECT_EQ(dinic_value("p max 3 2\nn 1 s\nn 3 t\na 2 1 5\na 3 2 5\n"), 0);
  EXPECT_EQ(dinic_value("p max 2 0\nn 1 s\nn 2 t\n"), 0);
  // Zero-capacity arcs carry nothing.
  EXPECT_EQ(dinic_value("p max 2 1\nn 1 s\nn 2 t\na 1 2 0\n"), 0);
}

TEST(Dinic, SelfLoopsAndArcsBackIntoTheSourceDoNotCount) {
  EXPECT_EQ(dinic_value("p max 3 4\nn 1 s\nn 3 t\na 1 1 9\na 1 2 4\na 2 1 3\na 2 3 6\n"), 4);
}

TEST(Dinic, LargeCapacitiesSumIn64Bits) {
  std::string text = "p max 3 6\nn 1 s\nn 3 t\n";
  for (int i = 0; i < 3; ++i)
    text += "a 1 2 2147483647\na 2 3 2147483647\n";
  EXPECT_EQ(dinic_value(text), 3 * std::int64_t{2147483647});
}

TEST(Dinic, LongPathNeedsNoDeepStack) {
  // A path of 200000 arcs: a recursive DFS would need 200000 frames.
  const std::uint64_t n = 200001;
  ArcList arcs;
  for (std::uint64_t v = 0; v + 1 < n; ++v)
    arcs.add(static_cast<VertexId>(v), static_cast<VertexId>(v + 1), v % 7 == 3 ? 2 : 5);
  Expected<FlowNetwork> net = build_flow_network(arcs, n, 0, static_cast<VertexId>(n - 1));
  ASSERT_TRUE(net.ok()) << net.status().message();
  EXPECT_EQ(dinic_value(*net), 2);
}

// ---- RLG --------------------------------------------------------------------

FlowNetwork rlg(std::uint32_t rows, std::uint32_t cols, Capacity max_cap, std::uint64_t seed) {
  RlgParams p;
  p.rows = rows;
  p.cols = cols;
  p.max_capacity = max_cap;
  p.seed = seed;
  Expected<FlowNetwork> net = generate_rlg(p);
  EXPECT_TRUE(net.ok()) << net.status().message();
  if (!net.ok())
    return FlowNetwork();
  EXPECT_TRUE(validate(*net).ok()) << validate(*net).message();
  return std::move(net).value();
}

TEST(Rlg, TwoByTwoByHand) {
  // s -> {a1, a2} and {b1, b2} -> t have capacity 3K; with 2 rows each a_i
  // links to both b_j (capacity <= K). Any cut through a source or sink arc
  // costs 3K > the <= 2K it would spare, so the minimum cut is the 4 middle
  // arcs: the flow is the sum of their capacities.
  const FlowNetwork net = rlg(2, 2, 10, 1);
  ASSERT_EQ(net.num_vertices(), 6u);
  ASSERT_EQ(net.num_arcs(), 8u);
  std::int64_t middle = 0;
  for (std::uint64_t i = 0; i < net.num_arcs(); ++i) {
    const bool outer = net.arc_tail(i) == net.source || net.arc_head(i) == net.sink;
    EXPECT_EQ(net.arc_capacity(i) == 30, outer) << "arc " << i;
    if (!outer) {
      EXPECT_GE(net.arc_capacity(i), 1);
      EXPECT_LE(net.arc_capacity(i), 10);
      middle += net.arc_capacity(i);
    }
  }
  EXPECT_EQ(dinic_value(net), middle);
  // With unit capacities: 4 middle arcs of capacity 1.
  EXPECT_EQ(dinic_value(rlg(2, 2, 1, 9)), 4);
  // The network of `dd-graph generate rlg --rows=2 --cols=2 --max-cap=10
  // --seed=1` (test/graph/maxflow.test): middle capacities 7, 4, 2, 8.
  EXPECT_EQ(middle, 21);
}

TEST(Rlg, ShapeAndDeterminism) {
  const std::uint32_t rows = 7, cols = 5;
  const FlowNetwork a = rlg(rows, cols, 100, 3);
  const FlowNetwork b = rlg(rows, cols, 100, 3);
  const FlowNetwork c = rlg(rows, cols, 100, 4);
  EXPECT_EQ(a.heads, b.heads);
  EXPECT_EQ(a.capacities, b.capacities);
  EXPECT_NE(a.capacities, c.capacities);
  EXPECT_EQ(a.num_vertices(), rows * cols + 2u);
  EXPECT_EQ(a.num_arcs(), 2u * rows + 3u * rows * (cols - 1));
  EXPECT_EQ(a.source, 0u);
  EXPECT_EQ(a.sink, rows * cols + 1u);
  std::vector<std::vector<VertexId>> out(a.num_vertices());
  for (std::uint64_t i = 0; i < a.num_arcs(); ++i) {
    const VertexId u = a.arc_tail(i), v = a.arc_head(i);
    out[u].push_back(v);
    if (u == a.source) {
      EXPECT_LE(v, rows);  // level 0
      EXPECT_EQ(a.arc_capacity(i), 300);
    } else if (v == a.sink) {
      EXPECT_GT(u, rows * (cols - 1));  // last level
      EXPECT_EQ(a.arc_capacity(i), 300);
    } else {
      EXPECT_EQ((v - 1) / rows, (u - 1) / rows + 1) << u << " -> " << v;  // next level
      EXPECT_GE(a.arc_capacity(i), 1);
      EXPECT_LE(a.arc_capacity(i), 100);
    }
  }
  EXPECT_EQ(out[a.source].size(), rows);
  for (VertexId u = 1; u <= rows * (cols - 1); ++u) {
    std::vector<VertexId> targets = out[u];
    std::sort(targets.begin(), targets.end());
    EXPECT_EQ(targets.size(), 3u);
    EXPECT_TRUE(std::adjacent_find(targets.begin(), targets.end()) == targets.end())
        << "vertex " << u << " links to a vertex twice";
  }
}

TEST(Rlg, TargetsCoverTheNextLevel) {
  // Uniform choice: over many vertices every row of the next level is hit.
  const FlowNetwork net = rlg(8, 200, 10, 11);
  std::vector<int> hits(8, 0);
  for (std::uint64_t i = 0; i < net.num_arcs(); ++i)
    if (net.arc_tail(i) != net.source && net.arc_head(i) != net.sink)
      ++hits[(net.arc_head(i) - 1) % 8];
  for (int h : hits)
    EXPECT_GT(h, 3 * 8 * 199 / 8 / 2);
}

TEST(Rlg, BadParameters) {
  RlgParams p;
  p.rows = 1;
  EXPECT_EQ(generate_rlg(p).status().message(),
            "rlg: 1 x 64 is degenerate (at least 2 rows and 2 columns)");
  p.rows = 64;
  p.cols = 1;
  EXPECT_FALSE(generate_rlg(p).ok());
  p.cols = 64;
  p.max_capacity = 0;
  EXPECT_EQ(generate_rlg(p).status().message(),
            "rlg: maximum capacity 0 is not in [1, 715827882] (source and sink arcs get 3 "
            "times it)");
  p.max_capacity = 715827883;
  EXPECT_FALSE(generate_rlg(p).ok());
  p.max_capacity = 715827882;
  p.rows = 2;
  p.cols = 2;
  EXPECT_TRUE(generate_rlg(p).ok());
  p.rows = 70000;
  p.cols = 70000;
  EXPECT_EQ(generate_rlg(p).status().message(),
            "rlg: 70000 x 70000 + 2 vertices is more than 4294967295");
}

// ---- Dinic against Edmonds-Karp ----------------------------------------------

// Textbook Edmonds-Karp on its own representation (arc 2k forward, 2k + 1
// its reverse), sharing nothing with FlowNetwork.
std::int64_t edmonds_karp(std::uint64_t n, const ArcList& arcs, VertexId s, VertexId t) {
  std::vector<std::vector<std::size_t>> adj(n);
  std::vector<VertexId> to;
  std::vector<std::int64_t> cap;
  for (std::uint64_t i = 0; i < arcs.size(); ++i) {
    adj[arcs.tails[i]].push_back(to.size());
    to.push_back(arcs.heads[i]);
    cap.push_back(arcs.capacities[i]);
    adj[arcs.heads[i]].push_back(to.size());
    to.push_back(arcs.tails[i]);
    cap.push_back(0);
  }
  std::int64_t total = 0;
  for (;;) {
    std::vector<std::size_t> via(n, SIZE_MAX);
    std::vector<bool> seen(n, false);
    std::deque<VertexId> queue{s};
    seen[s] = true;
    while (!queue.empty() && !seen[t]) {
      const VertexId u = queue.front();
      queue.pop_front();
      for (std::size_t e : adj[u])
        if (cap[e] > 0 && !seen[to[e]]) {
          seen[to[e]] = true;
          via[to[e]] = e;
          queue.push_back(to[e]);
        }
    }
    if (!seen[t])
      return total;
    std::int64_t bottleneck = INT64_MAX;
    for (VertexId v = t; v != s; v = to[via[v] ^ 1])
      bottleneck = std::min(bottleneck, cap[via[v]]);
    for (VertexId v = t; v != s; v = to[via[v] ^ 1]) {
      cap[via[v]] -= bottleneck;
      cap[via[v] ^ 1] += bottleneck;
    }
    total += bottleneck;
  }
}

TEST(Dinic, MatchesEdmondsKarpOnRandomNetworks) {
  int nonzero = 0;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    SCOPED_TRACE(seed);
    Xoshiro256 rng(seed);
    const std::uint64_t n = 2 + rng.below(11);
    const std::uint64_t m = rng.below(4 * n + 1);
    const Capacity max_cap = seed % 3 == 0 ? 1 : 20;
    ArcList arcs;
    for (std::uint64_t i = 0; i < m; ++i) {
      const auto u = static_cast<VertexId>(rng.below(n));
      // Parallel arcs, antiparallel arcs and self loops all occur.
      const auto v = rng.below(8) == 0 ? u : static_cast<VertexId>(rng.below(n));
      arcs.add(u, v, static_cast<Capacity>(rng.below(max_cap + 1)));
      if (rng.below(6) == 0)
        arcs.add(v, u, static_cast<Capacity>(rng.below(max_cap + 1)));
    }
    const auto s = static_cast<VertexId>(rng.below(n));
    auto t = static_cast<VertexId>(rng.below(n - 1));
    if (t >= s)
      ++t;
    Expected<FlowNetwork> net = build_flow_network(arcs, n, s, t);
    ASSERT_TRUE(net.ok()) << net.status().message();
    const std::int64_t expected = edmonds_karp(n, arcs, s, t);
    EXPECT_EQ(dinic_value(*net), expected);
    nonzero += expected > 0;
  }
  // The property is not vacuous: many networks carry some flow (193 of 400).
  EXPECT_GT(nonzero, 150);
}

TEST(Dinic, MatchesEdmondsKarpOnSmallRlgs) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(seed);
    const FlowNetwork net = rlg(2 + seed % 6, 2 + seed % 5, seed % 2 ? 10 : 1000, seed);
    ArcList arcs;
    for (std::uint64_t i = 0; i < net.num_arcs(); ++i)
      arcs.add(net.arc_tail(i), net.arc_head(i), net.arc_capacity(i));
    EXPECT_EQ(dinic_value(net), edmonds_karp(net.num_vertices(), arcs, net.source, net.sink));
  }
}

// ---- the checkers on wrong flows --------------------------------------------

TEST(VerifyFlow, RejectsInfeasibleFlows) {
  // 1 -> 2 -> 3 with capacities 5 and 4.
  const FlowNetwork net = parse_ok("p max 3 2\nn 1 s\nn 3 t\na 1 2 5\na 2 3 4\n");
  EXPECT_EQ(*verify_flow(net, {4, 4}), 4);
  EXPECT_EQ(*verify_flow(net, {0, 0}), 0);
  EXPECT_EQ(verify_flow(net, {4}).status().message(), "1 flows for 2 arcs");
  EXPECT_EQ(verify_flow(net, {-1, -1}).status().message(), "arc 1 ('a 1 2 5'): negative flow -1");
  EXPECT_EQ(verify_flow(net, {5, 5}).status().message(),
            "arc 2 ('a 2 3 4'): flow 5 exceeds the capacity");
  EXPECT_EQ(verify_flow(net, {4, 3}).status().message(),
            "vertex 2: flow is not conserved (inflow - outflow = 1)");
  // Feasible but not maximum.
  EXPECT_EQ(check_maximum(net, {3, 3}).message(),
            "the flow is not maximum: an augmenting path of 2 arcs leads from the source "
            "(vertex 1) to the sink (vertex 3)");
  EXPECT_TRUE(check_maximum(net, {4, 4}).ok());
}

TEST(VerifyFlow, NetFlowCountsArcsBackIntoTheSource) {
  // s=1 -> 2 (5), 2 -> 1 (5), 2 -> 3 (5): sending 5 round 1-2-1 adds nothing.
  const FlowNetwork net = parse_ok("p max 3 3\nn 1 s\nn 3 t\na 1 2 5\na 2 1 5\na 2 3 5\n");
  EXPECT_EQ(*verify_flow(net, {5, 3, 2}), 2);
  EXPECT_FALSE(check_maximum(net, {5, 3, 2}).ok());
  EXPECT_EQ(dinic_value(net), 5);
}

TEST(MinCut, CapacityOfTheSourcesResidualReach) {
  // 1 -> 2 -> 3 with capacities 5 and 4: the maximum flow saturates 2 -> 3,
  // S = {1, 2}, and the cut is that arc alone.
  const FlowNetwork chain = parse_ok("p max 3 2\nn 1 s\nn 3 t\na 1 2 5\na 2 3 4\n");
  EXPECT_EQ(*min_cut_capacity(chain, {4, 4}), 4);
  EXPECT_EQ(min_cut_capacity(chain, {3, 3}).status().message(),
            "the flow is not maximum: an augmenting path of 2 arcs leads from the source "
            "(vertex 1) to the sink (vertex 3)");
  EXPECT_EQ(min_cut_capacity(chain, {4}).status().message(), "1 flows for 2 arcs");
  // Parallel arcs count once each; an arc into S (4 -> 1) and an arc inside
  // T (3 -> 4) do not count; a self loop is not an arc.
  const FlowNetwork par = parse_ok("p max 4 6\nn 1 s\nn 4 t\na 1 3 2\na 1 3 3\na 1 2 9\n"
                                   "a 3 4 9\na 4 1 7\na 2 2 1\n");
  ASSERT_EQ(par.num_arcs(), 5u);
  Expected<MaxFlowResult> flow = max_flow_dinic(par);
  ASSERT_TRUE(flow.ok());
  EXPECT_EQ(flow->value, 5);
  // Vertex 2 is a dead end the source still reaches: in S, its arc 1 -> 2
  // does not cross the cut.
  EXPECT_EQ(*min_cut_capacity(par, flow->flows), 5);
}

TEST(CertifyMaxFlow, NamesThePartThatFails) {
  const FlowNetwork chain = parse_ok("p max 3 2\nn 1 s\nn 3 t\na 1 2 5\na 2 3 4\n");
  EXPECT_TRUE(certify_max_flow(chain, {4, 4}, 4).ok());
  // Infeasible: more into vertex 2 than out.
  ASSERT_FALSE(verify_flow(chain, {4, 3}).ok());
  EXPECT_EQ(certify_max_flow(chain, {4, 3}, 4).message(), verify_flow(chain, {4, 3}).status().message());
  EXPECT_EQ(certify_max_flow(chain, {4, 4}, 5).message(), "the arcs' flows carry 4, not the 5 reported");
  // Feasible and as reported, but not maximum.
  EXPECT_EQ(certify_max_flow(chain, {3, 3}, 3).message(), min_cut_capacity(chain, {3, 3}).status().message());
}

TEST(MinCut, EqualsTheMaximumFlowOnGeneratedMeshes) {
  for (std::uint32_t seed = 1; seed <= 3; ++seed) {
    RlgParams p;
    p.rows = 6;
    p.cols = 5;
    p.seed = seed;
    Expected<FlowNetwork> net = generate_rlg(p);
    ASSERT_TRUE(net.ok()) << net.status().message();
    Expected<MaxFlowResult> flow = max_flow_dinic(*net);
    ASSERT_TRUE(flow.ok());
    EXPECT_EQ(*min_cut_capacity(*net, flow->flows), flow->value) << "seed " << seed;
  }
}

TEST(FlowNetwork, BuildRejectsBadArcLists) {
  ArcList arcs;
  arcs.add(0, 1, 3);
  EXPECT_EQ(build_flow_network(arcs, 2, 1, 1).status().message(),
            "the source and the sink are the same vertex 1");
  EXPECT_FALSE(build_flow_network(arcs, 2, 0, 2).ok());
  EXPECT_FALSE(build_flow_network(arcs, 1, 0, 0).ok());
  arcs.add(1, 0, -1);
  EXPECT_EQ(build_flow_network(arcs, 2, 0, 1).status().message(),
            "arc 1 (1, 0) has negative capacity -1");
  FlowNetwork broken = *build_flow_network(ArcList{{0}, {1}, {3}}, 2, 0, 1);
  broken.twins[0] = 0;
  EXPECT_FALSE(validate(broken).ok());
  EXPECT_FALSE(max_flow_dinic(broken).ok());
}

} // namespace
} // namespace dd::graph
