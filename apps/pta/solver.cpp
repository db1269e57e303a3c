// The CPU Andersen solver (solver.h).
#include "pta/solver.h"

#include <algorithm>
#include <deque>
#include <unordered_set>

#include "llvm/ADT/SparseBitVector.h"

namespace dd::pta {

std::uint64_t Solution::facts(const ConstraintSet &set) const {
  std::uint64_t n = 0;
  for (std::uint32_t i = 0; i < pts.size(); ++i)
    if (set.kinds[i] != NodeKind::kTemp)
      n += pts[i].size();
  return n;
}

namespace {

// Sparse bitmaps (128-bit elements in a sorted list): a union is a pass
// over words, not over ids, which is what large sets need.
using Bits = llvm::SparseBitVector<>;

struct Complex {
  std::uint32_t other; ///< load: the destination; store: the source
  std::uint32_t offset;
};

} // namespace

Solution solve(const ConstraintSet &set) {
  const std::uint32_t n = set.num_nodes();
  Solution s;
  std::vector<Bits> pts(n);
  std::vector<Bits> done(n); // what each node has passed on already
  std::vector<std::vector<std::uint32_t>> succ(n);
  std::vector<std::vector<Complex>> loads(n), stores(n);
  std::unordered_set<std::uint64_t> edge_set, checked;
  std::deque<std::uint32_t> worklist;
  std::vector<std::uint8_t> queued(n, 0);
  // Nodes merged into a cycle's representative (union-find, path halving).
  std::vector<std::uint32_t> rep(n);
  for (std::uint32_t v = 0; v < n; ++v)
    rep[v] = v;
  auto find = [&](std::uint32_t v) {
    while (rep[v] != v)
      v = rep[v] = rep[rep[v]];
    return v;
  };
  auto push = [&](std::uint32_t v) {
    if (!queued[v]) {
      queued[v] = 1;
      worklist.push_back(v);
    }
  };
  // A new edge carries everything its source has passed on; later gains
  // follow as differences.
  auto add_edge = [&](std::uint32_t from, std::uint32_t to) {
    from = find(from);
    to = find(to);
    if (from == to || !edge_set.insert((std::uint64_t{from} << 32) | to).second)
      return;
    succ[from].push_back(to);
    ++s.edges;
    ++s.propagations;
    if ((pts[to] |= done[from]))
      push(to);
  };
  // Merges b into a (both representatives). Every edge out of either must
  // still cover what a has passed on, and a's loads and stores must have
  // seen it: so a has passed on only what both had.
  auto merge = [&](std::uint32_t a, std::uint32_t b) {
    rep[b] = a;
    ++s.merged;
    pts[a] |= pts[b];
    done[a] &= done[b];
    succ[a].insert(succ[a].end(), succ[b].begin(), succ[b].end());
    loads[a].insert(loads[a].end(), loads[b].begin(), loads[b].end());
    stores[a].insert(stores[a].end(), stores[b].begin(), stores[b].end());
    pts[b].clear();
    done[b].clear();
    std::vector<std::uint32_t>().swap(succ[b]);
    std::vector<Complex>().swap(loads[b]);
    std::vector<Complex>().swap(stores[b]);
    push(a);
  };
  // Lazy cycle detection (Hardekopf and Lin, PLDI 2007): an edge v -> w
  // that leaves w's set equal to v's hints at a cycle; a path from w back
  // to v closes it, and its nodes are merged into v. Each edge is checked
  // once.
  std::vector<std::uint32_t> parent(n, UINT32_MAX), stack, seen;
  auto collapse_cycle = [&](std::uint32_t v, std::uint32_t w) {
    stack.assign(1, w);
    parent[w] = w;
    seen.assign(1, w);
    bool found = false;
    while (!stack.empty() && !found) {
      const std::uint32_t x = stack.back();
      stack.pop_back();
      for (std::size_t i = 0; i < succ[x].size(); ++i) {
        const std::uint32_t y = find(succ[x][i]);
        if (parent[y] != UINT32_MAX)
          continue;
        parent[y] = x;
        seen.push_back(y);
        if (y == v) {
          found = true;
          break;
        }
        stack.push_back(y);
      }
    }
    if (found) {
      // parent[] leads from v back to w along the path.
      for (std::uint32_t x = parent[v];;) {
        const std::uint32_t next = parent[x];
        merge(v, x);
        if (x == w)
          break;
        x = next;
      }
      // The merged lists repeat successors: one edge each, none to v.
      std::vector<std::uint32_t> &out = succ[v];
      for (std::uint32_t &y : out)
        y = find(y);
      std::sort(out.begin(), out.end());
      out.erase(std::unique(out.begin(), out.end()), out.end());
      out.erase(std::remove(out.begin(), out.end(), v), out.end());
    }
    for (std::uint32_t x : seen)
      parent[x] = UINT32_MAX;
  };

  for (const Constraint &c : set.constraints) {
    switch (c.kind) {
    case Kind::kAddressOf:
      pts[c.dst].set(c.src);
      break;
    case Kind::kCopy:
      add_edge(c.src, c.dst);
      break;
    case Kind::kLoad:
      loads[c.src].push_back({c.dst, c.offset});
      break;
    case Kind::kStore:
      stores[c.dst].push_back({c.src, c.offset});
      break;
    }
  }
  for (std::uint32_t v = 0; v < n; ++v)
    if (!pts[v].empty())
      push(v);

  Bits delta;
  std::vector<std::uint32_t> suspects;
  while (!worklist.empty()) {
    const std::uint32_t v = worklist.front();
    worklist.pop_front();
    queued[v] = 0;
    if (find(v) != v)
      continue; // merged away; its representative was queued
    ++s.visits;
    delta.intersectWithComplement(pts[v], done[v]);
    if (delta.empty())
      continue;
    // Before the new edges: add_edge sends done[v], so it must hold the
    // whole set by then, and the successors below get the difference.
    done[v] = pts[v];
    for (const unsigned o : delta) {
      for (std::size_t i = 0; i < loads[v].size(); ++i)
        if (loads[v][i].offset < set.sizes[o])
          add_edge(o + loads[v][i].offset, loads[v][i].other);
      for (std::size_t i = 0; i < stores[v].size(); ++i)
        if (stores[v][i].offset < set.sizes[o])
          add_edge(stores[v][i].other, o + stores[v][i].offset);
    }
    // Cycles are collapsed after the loop: done[v] claims that every
    // successor has the delta, which holds only once the loop is over.
    suspects.clear();
    for (std::size_t i = 0; i < succ[v].size(); ++i) {
      const std::uint32_t w = find(succ[v][i]);
      if (w == v)
        continue;
      ++s.propagations;
      if ((pts[w] |= delta))
        push(w);
      if (pts[w] == pts[v] && checked.insert((std::uint64_t{v} << 32) | w).second)
        suspects.push_back(w);
    }
    for (std::uint32_t w : suspects)
      if (find(w) == w && find(w) != v)
        collapse_cycle(v, w);
  }
  s.pts.resize(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    const Bits &bits = pts[find(v)];
    s.pts[v].reserve(bits.count());
    for (const unsigned o : bits)
      s.pts[v].push_back(o);
  }
  return s;
}

std::string format_solution(const ConstraintSet &set, const Solution &solution) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t v = 0; v < set.num_nodes(); ++v)
    if (set.kinds[v] != NodeKind::kTemp && !solution.pts[v].empty())
      order.push_back(v);
  auto by_name = [&](std::uint32_t a, std::uint32_t b) { return set.names[a] < set.names[b]; };
  std::sort(order.begin(), order.end(), by_name);
  std::string out = "# dd-pta points-to sets: NODE -> TARGET...\n";
  std::vector<std::uint32_t> targets;
  for (std::uint32_t v : order) {
    targets = solution.pts[v];
    std::sort(targets.begin(), targets.end(), by_name);
    out += set.names[v];
    out += " ->";
    for (std::uint32_t t : targets) {
      out += ' ';
      out += set.names[t];
    }
    out += '\n';
  }
  return out;
}

} // namespace dd::pta
