// The sequential reference: one cavity.h step at a time, on the mesh the
// previous step left, bad triangles in first-in first-out order (new bad
// triangles join the back), as Triangle and Galois's serial DMR do.
#include <chrono>
#include <cstdio>
#include <deque>

#include "dmr/cavity.h"
#include "dmr/refine.h"

namespace dd::dmr {
RefineStats refine_cpu(Mesh &m, const RefineOptions &options) {
  const auto start = std::chrono::steady_clock::now();
  RefineStats stats;
  std::deque<std::int32_t> work;
  {
    const MeshView view = m.view();
    for (std::int64_t t = 0; t < m.num_slots(); ++t)
      if (view.v[3 * t] >= 0 && triangle_is_bad(view, static_cast<std::int32_t>(t), options.cos2_min))
        work.push_back(static_cast<std::int32_t>(t));
  }

  Cavity cavity;
  VisitAll visit;
  std::int32_t slots[kMaxCavityEdges];
  std::int64_t steps = 0;
  while (!work.empty()) {
    if (options.max_rounds > 0 && steps == options.max_rounds)
      break;
    ++steps;
    const std::int32_t t = work.front();
    work.pop_front();
    CavityStatus status = build_cavity(m.view(), t, options.cos2_min, visit, cavity);
    if (status == CavityStatus::kGone)
      continue;
    if (status == CavityStatus::kTooBig) {
      ++stats.too_big;
      continue;
    }
    if (status != CavityStatus::kOk) {
      ++stats.degenerate;
      continue;
    }
    // Room for the fresh slots and the point before taking the view that
    // retriangulate writes through.
    std::int32_t fresh[2];
    for (std::int32_t i = 0; i < extra_slots(cavity); ++i) {
      fresh[i] = static_cast<std::int32_t>(m.num_slots());
      m.v.insert(m.v.end(), 3, -1);
      m.n.insert(m.n.end(), 3, -1);
    }
    const std::int32_t point = static_cast<std::int32_t>(m.num_points());
    m.x.push_back(0);
    m.y.push_back(0);
    const MeshView view = m.view();
    retriangulate(view, cavity, point, fresh, slots);
    ++stats.inserted;
    if (cavity.split_tri >= 0)
      ++stats.split_edges;
    for (std::int32_t e = 0; e < cavity.nedges; ++e)
      if (triangle_is_bad(view, slots[e], options.cos2_min))
        work.push_back(slots[e]);
    // A split boundary edge (or a circumcenter whose cavity missed t) may
    // leave t as it was: it goes to the back again.
    if (!detail::in_cavity(cavity, t))
      work.push_back(t);
    if (options.verbose && stats.inserted % 1000000 == 0)
      std::fprintf(stderr, "dmr cpu: %lld points inserted, %zu bad queued\n",
                   static_cast<long long>(stats.inserted), work.size());
  }
  stats.bad_left = count_bad(m, options.cos2_min);
  stats.refine_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

} // namespace dd::dmr
