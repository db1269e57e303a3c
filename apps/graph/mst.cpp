#include "graph/mst.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "graph/disjoint_sets.h"

namespace dd::graph {
namespace {

// The checks kruskal_mst() and verify_spanning_forest() make on the graph.
Status check_graph(const Csr& g) {
  if (Status s = validate(g); !s.ok())
    return Status::error("invalid graph: " + s.message());
  if (g.weight_type == WeightType::kFloat32)
    return Status::error("the graph has float weights; a minimum spanning forest needs integer "
                         "weights (its total is compared exactly)");
  return Status();
}

std::int32_t weight_of(const Csr& g, EdgeIndex e) {
  return g.weight_type == WeightType::kInt32 ? g.int_weights[e] : 1;
}

// "edge 3 (2 - 7, weight 5)".
std::string describe(std::size_t i, const MstEdge& e) {
  return str_cat("edge ", i, " (", e.u, " - ", e.v, ", weight ", e.weight, ")");
}

} // namespace

Expected<SpanningForest> kruskal_mst(const Csr& g) {
  if (Status s = check_graph(g); !s.ok())
    return s;
  const std::uint64_t n = g.num_vertices();
  // Both directions of an edge are taken: a directed input may list only
  // one. The copies and parallel edges sort next to each other and all but
  // the lightest are rejected as cycles.
  std::vector<MstEdge> sorted;
  sorted.reserve(g.num_edges());
  for (std::uint64_t u = 0; u < n; ++u)
    for (EdgeIndex e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      const VertexId v = g.col_indices[e];
      if (v == u)
        continue;
      const auto a = static_cast<VertexId>(u);
      sorted.push_back({std::min(a, v), std::max(a, v), weight_of(g, e)});
    }
  std::sort(sorted.begin(), sorted.end(), [](const MstEdge& x, const MstEdge& y) {
    return std::tie(x.weight, x.u, x.v) < std::tie(y.weight, y.u, y.v);
  });

  SpanningForest forest;
  DisjointSets sets(n);
  for (const MstEdge& e : sorted) {
    if (!sets.unite(e.u, e.v))
      continue;
    forest.edges.push_back(e);
    forest.weight += static_cast<std::uint64_t>(e.weight);
    if (forest.edges.size() + 1 == n)
      break;  // one tree: nothing more can join
  }
  forest.num_trees = n - forest.edges.size();
  return forest;
}

std::uint64_t count_components(const Csr& g) {
  const std::uint64_t n = g.num_vertices();
  DisjointSets sets(n);
  std::uint64_t components = n;
  for (std::uint64_t u = 0; u < n; ++u)
    for (EdgeIndex e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e)
      if (sets.unite(static_cast<VertexId>(u), g.col_indices[e]))
        --components;
  return components;
}

Expected<std::uint64_t> verify_spanning_forest(const Csr& g, const std::vector<MstEdge>& edges) {
  if (Status s = check_graph(g); !s.ok())
    return s;
  const std::uint64_t n = g.num_vertices();
  if (edges.size() >= n && !edges.empty())
    // Cheap, and keeps the per-edge bookkeeping below within O(V).
    return Status::error(str_cat(edges.size(), " edges for ", n,
                                 " vertices: a forest has fewer edges than vertices"));

  // Endpoints and self loops first: the lookups below need valid ids.
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const MstEdge& e = edges[i];
    if (e.u >= n || e.v >= n)
      return Status::error(str_cat(describe(i, e), ": vertex ", e.u >= n ? e.u : e.v,
                                   " is out of range (", n, " vertices)"));
    if (e.u == e.v)
      return Status::error(str_cat(describe(i, e), ": a self loop is never a forest edge"));
  }

  // Does the graph have each candidate edge, with its weight? The candidates
  // are sorted by their unordered pair and every graph edge looks its pair up
  // (E log V, no per-edge memory), recording the weights it has.
  struct Lookup {
    VertexId lo, hi;
    std::int32_t weight;
    std::size_t index;
  };
  std::vector<Lookup> lookups(edges.size());
  for (std::size_t i = 0; i < edges.size(); ++i)
    lookups[i] = {std::min(edges[i].u, edges[i].v), std::max(edges[i].u, edges[i].v),
                  edges[i].weight, i};
  const auto pair_less = [](const Lookup& x, const Lookup& y) {
    return std::tie(x.lo, x.hi) < std::tie(y.lo, y.hi);
  };
  std::sort(lookups.begin(), lookups.end(), pair_less);
  constexpr std::int64_t kNoEdge = -1;
  std::vector<std::int64_t> lightest(edges.size(), kNoEdge);  // per candidate index
  std::vector<bool> matched(edges.size(), false);
  for (std::uint64_t u = 0; u < n; ++u)
    for (EdgeIndex e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      const VertexId v = g.col_indices[e];
      if (v == u)
        continue;
      const Lookup key{std::min(static_cast<VertexId>(u), v),
                       std::max(static_cast<VertexId>(u), v), 0, 0};
      const std::int32_t w = weight_of(g, e);
      // A pair listed twice among the candidates is caught as a cycle below.
      for (auto it = std::lower_bound(lookups.begin(), lookups.end(), key, pair_less);
           it != lookups.end() && it->lo == key.lo && it->hi == key.hi; ++it) {
        if (lightest[it->index] == kNoEdge || w < lightest[it->index])
          lightest[it->index] = w;
        if (w == it->weight)
          matched[it->index] = true;
      }
    }
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (lightest[i] == kNoEdge)
      return Status::error(str_cat(describe(i, edges[i]), ": the graph has no edge between ",
                                   edges[i].u, " and ", edges[i].v));
    if (!matched[i])
      return Status::error(str_cat(describe(i, edges[i]), ": the graph has no edge of weight ",
                                   edges[i].weight, " between ", edges[i].u, " and ", edges[i].v,
                                   " (the lightest weighs ", lightest[i], ")"));
  }

  DisjointSets trees(n);
  std::uint64_t weight = 0;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (!trees.unite(edges[i].u, edges[i].v))
      return Status::error(str_cat(describe(i, edges[i]), " closes a cycle: ", edges[i].u, " and ",
                                   edges[i].v, " are already connected by earlier edges"));
    weight += static_cast<std::uint64_t>(edges[i].weight);
  }

  // A forest of graph edges spans every component iff no graph edge joins two
  // of its trees.
  const std::uint64_t num_trees = n - edges.size();
  for (std::uint64_t u = 0; u < n; ++u)
    for (EdgeIndex e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      const VertexId v = g.col_indices[e];
      if (trees.find(static_cast<VertexId>(u)) != trees.find(v))
        return Status::error(str_cat("the forest does not span the graph: its ", num_trees,
                                     " trees are more than the graph's ", count_components(g),
                                     " components (the graph edge ", u, " -> ", v,
                                     " joins two of them)"));
    }
  return weight;
}

} // namespace dd::graph
