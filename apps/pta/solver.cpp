// The CPU Andersen solver (solver.h).
#include "pta/solver.h"

#include <algorithm>
#include <deque>
#include <iterator>
#include <unordered_set>

namespace dd::pta {

std::uint64_t Solution::facts(const ConstraintSet &set) const {
  std::uint64_t n = 0;
  for (std::uint32_t i = 0; i < pts.size(); ++i)
    if (set.kinds[i] != NodeKind::kTemp)
      n += pts[i].size();
  return n;
}

namespace {

using Set = std::vector<std::uint32_t>;

// into |= from; true when into grew.
bool unite(Set &into, const Set &from) {
  if (from.empty())
    return false;
  Set merged;
  merged.reserve(into.size() + from.size());
  std::set_union(into.begin(), into.end(), from.begin(), from.end(), std::back_inserter(merged));
  if (merged.size() == into.size())
    return false;
  into.swap(merged);
  return true;
}

bool insert(Set &into, std::uint32_t v) {
  auto it = std::lower_bound(into.begin(), into.end(), v);
  if (it != into.end() && *it == v)
    return false;
  into.insert(it, v);
  return true;
}

struct Complex {
  std::uint32_t other; ///< load: the destination; store: the source
  std::uint32_t offset;
};

} // namespace

Solution solve(const ConstraintSet &set) {
  const std::uint32_t n = set.num_nodes();
  Solution s;
  s.pts.assign(n, {});
  std::vector<Set> done(n); // what each node has passed on already
  std::vector<std::vector<std::uint32_t>> succ(n);
  std::vector<std::vector<Complex>> loads(n), stores(n);
  std::unordered_set<std::uint64_t> edge_set;
  std::deque<std::uint32_t> worklist;
  std::vector<std::uint8_t> queued(n, 0);
  auto push = [&](std::uint32_t v) {
    if (!queued[v]) {
      queued[v] = 1;
      worklist.push_back(v);
    }
  };
  // A new edge carries everything its source has; later gains follow as
  // differences.
  auto add_edge = [&](std::uint32_t from, std::uint32_t to) {
    if (from == to || !edge_set.insert((std::uint64_t{from} << 32) | to).second)
      return;
    succ[from].push_back(to);
    ++s.edges;
    ++s.propagations;
    if (unite(s.pts[to], done[from]))
      push(to);
  };

  for (const Constraint &c : set.constraints) {
    switch (c.kind) {
    case Kind::kAddressOf:
      insert(s.pts[c.dst], c.src);
      push(c.dst);
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
    if (!s.pts[v].empty())
      push(v);

  Set delta;
  while (!worklist.empty()) {
    const std::uint32_t v = worklist.front();
    worklist.pop_front();
    queued[v] = 0;
    ++s.visits;
    delta.clear();
    std::set_difference(s.pts[v].begin(), s.pts[v].end(), done[v].begin(), done[v].end(),
                        std::back_inserter(delta));
    if (delta.empty())
      continue;
    // Before the new edges: add_edge sends done[v], so it must hold the
    // whole set by then, and the successors below get the difference.
    done[v] = s.pts[v];
    for (std::uint32_t o : delta) {
      for (const Complex &l : loads[v])
        if (l.offset < set.sizes[o])
          add_edge(o + l.offset, l.other);
      for (const Complex &st : stores[v])
        if (st.offset < set.sizes[o])
          add_edge(st.other, o + st.offset);
    }
    for (std::size_t i = 0; i < succ[v].size(); ++i) {
      ++s.propagations;
      if (unite(s.pts[succ[v][i]], delta))
        push(succ[v][i]);
    }
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
