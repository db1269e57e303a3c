// Galois / LonestarGPU binary .gr, version 1 (the layout is in graph_io.h;
// it matches galois::graphs::FileGraph: every field little-endian, the
// destination array padded to a multiple of 8 bytes when num_edges is odd).
//
// The reader checks the whole layout against the file size before it
// allocates anything, so a header claiming 2^60 vertices is an error naming
// the offset of that field, never an allocation failure.
#include <cmath>
#include <cstring>
#include <type_traits>

#include "graph/edge_list.h"
#include "graph/file.h"
#include "graph/reader_util.h"

namespace dd::graph {
namespace {
using detail::append_le;

constexpr std::uint64_t kHeaderBytes = 32;

template <typename T>
T load_le(const char* p) {
  static_assert(std::is_unsigned_v<T>, "load unsigned words");
  T value;
  std::memcpy(&value, p, sizeof value);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  T swapped = 0;
  for (std::size_t i = 0; i < sizeof value; ++i)
    swapped = static_cast<T>((swapped << 8) | ((value >> (8 * i)) & 0xff));
  value = swapped;
#endif
  return value;
}

std::uint32_t float_bits(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

float bits_float(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Streams the .gr image of a valid graph to `sink(const char*, size_t)` in
// chunks, so that writing a large graph needs no second copy of it in memory.
template <typename Sink>
void emit_gr(const Csr& g, Sink&& sink) {
  const std::uint64_t n = g.num_vertices();
  const std::uint64_t m = g.num_edges();
  constexpr std::size_t kChunk = 1 << 20;
  std::string buffer;
  buffer.reserve(kChunk + 16);
  auto flush_if_full = [&] {
    if (buffer.size() >= kChunk) {
      sink(buffer.data(), buffer.size());
      buffer.clear();
    }
  };
  append_le<std::uint64_t>(buffer, 1);
  append_le<std::uint64_t>(buffer, g.has_weights() ? 4 : 0);
  append_le<std::uint64_t>(buffer, n);
  append_le<std::uint64_t>(buffer, m);
  for (std::uint64_t v = 0; v < n; ++v) {
    append_le<std::uint64_t>(buffer, g.row_offsets[v + 1]);
    flush_if_full();
  }
  for (std::uint64_t e = 0; e < m; ++e) {
    append_le<std::uint32_t>(buffer, g.col_indices[e]);
    flush_if_full();
  }
  if (m % 2 != 0)
    append_le<std::uint32_t>(buffer, 0);
  if (g.weight_type == WeightType::kInt32) {
    for (std::uint64_t e = 0; e < m; ++e) {
      append_le<std::uint32_t>(buffer, static_cast<std::uint32_t>(g.int_weights[e]));
      flush_if_full();
    }
  } else if (g.weight_type == WeightType::kFloat32) {
    for (std::uint64_t e = 0; e < m; ++e) {
      append_le<std::uint32_t>(buffer, float_bits(g.float_weights[e]));
      flush_if_full();
    }
  }
  if (!buffer.empty())
    sink(buffer.data(), buffer.size());
}

} // namespace

namespace detail {

Expected<Csr> read_galois_gr(std::string_view data, std::string_view name,
                             const ReadOptions& options) {
  const std::uint64_t size = data.size();
  const char* base = data.data();
  if (size < kHeaderBytes)
    return offset_error(name, size, str_cat("truncated header: the file has ", size,
                                            " bytes, a .gr header needs 32"));
  const std::uint64_t version = load_le<std::uint64_t>(base);
  const std::uint64_t edge_bytes = load_le<std::uint64_t>(base + 8);
  const std::uint64_t n = load_le<std::uint64_t>(base + 16);
  const std::uint64_t m = load_le<std::uint64_t>(base + 24);
  if (version != 1)
    return offset_error(name, 0, str_cat("unsupported .gr version ", version,
                                         " (only version 1, 32-bit destinations, is read)"));
  if (edge_bytes != 0 && edge_bytes != 4)
    return offset_error(name, 8, str_cat("edge data of ", edge_bytes,
                                         " bytes is not supported (0 for none, 4 for int32 or "
                                         "float weights)"));
  // No memory check here: the file holds 8 bytes per vertex, and it is in memory.
  if (std::optional<std::string> problem = detail::vertex_count_problem(n, options, false))
    return offset_error(name, 16, *problem);
  if (n == 0 && m != 0)
    return offset_error(name, 24, str_cat("the header declares ", m, " edges but no vertices"));

  // Sections and their ends, each checked before it is used so that no
  // arithmetic can overflow: n < 2^32 and m <= size / 4.
  const std::uint64_t dst_begin = kHeaderBytes + 8 * n;
  if (dst_begin > size)
    return offset_error(name, size, str_cat("truncated: the out-index array of ", n,
                                            " vertices ends at byte ", dst_begin,
                                            " but the file has ", size, " bytes"));
  if (m > (size - dst_begin) / 4)
    return offset_error(name, size, str_cat("truncated: the destinations of ", m,
                                            " edges do not fit in the ", size - dst_begin,
                                            " bytes after the out-index array"));
  const std::uint64_t data_begin = dst_begin + 4 * m + (m % 2 ? 4 : 0);
  const std::uint64_t data_end = data_begin + edge_bytes * m;
  if (data_begin > size)
    return offset_error(name, size, str_cat("truncated: the padding after the destinations ends "
                                            "at byte ", data_begin, " but the file has ", size,
                                            " bytes"));
  if (data_end > size)
    return offset_error(name, size, str_cat("truncated: the edge data ends at byte ", data_end,
                                            " but the file has ", size, " bytes"));
  if (data_end < size)
    return offset_error(name, data_end, str_cat(size - data_end,
                                                " unexpected bytes after the end of the graph "
                                                "(the header implies ", data_end, " bytes)"));

  Csr g;
  g.row_offsets.resize(n + 1);
  g.row_offsets[0] = 0;
  for (std::uint64_t v = 0; v < n; ++v) {
    const std::uint64_t offset = kHeaderBytes + 8 * v;
    const std::uint64_t end = load_le<std::uint64_t>(base + offset);
    if (end < g.row_offsets[v])
      return offset_error(name, offset, str_cat("out-index of vertex ", v, " is ", end,
                                                ", less than the previous ", g.row_offsets[v]));
    if (end > m)
      return offset_error(name, offset, str_cat("out-index of vertex ", v, " is ", end,
                                                ", beyond the ", m, " edges"));
    g.row_offsets[v + 1] = end;
  }
  if (n > 0 && g.row_offsets[n] != m)
    return offset_error(name, kHeaderBytes + 8 * (n - 1),
                        str_cat("the last out-index is ", g.row_offsets[n], " but the header "
                                "declares ", m, " edges"));

  g.col_indices.resize(m);
  for (std::uint64_t e = 0; e < m; ++e) {
    const std::uint64_t offset = dst_begin + 4 * e;
    const std::uint32_t dst = load_le<std::uint32_t>(base + offset);
    if (dst >= n)
      return offset_error(name, offset, str_cat("destination ", dst, " of edge ", e,
                                                " is out of range (", n, " vertices)"));
    g.col_indices[e] = dst;
  }

  if (edge_bytes == 4 && options.gr_weight_type == WeightType::kFloat32) {
    g.weight_type = WeightType::kFloat32;
    g.float_weights.resize(m);
    for (std::uint64_t e = 0; e < m; ++e) {
      const std::uint64_t offset = data_begin + 4 * e;
      const float w = bits_float(load_le<std::uint32_t>(base + offset));
      if (!std::isfinite(w) || w < 0)
        return offset_error(name, offset, str_cat("weight ", std::to_string(w), " of edge ", e,
                                                  " is negative or not finite"));
      g.float_weights[e] = w + 0.0f;  // -0 becomes +0
    }
  } else if (edge_bytes == 4) {
    g.weight_type = WeightType::kInt32;
    g.int_weights.resize(m);
    for (std::uint64_t e = 0; e < m; ++e) {
      const std::uint64_t offset = data_begin + 4 * e;
      const auto w = static_cast<std::int32_t>(load_le<std::uint32_t>(base + offset));
      if (w < 0)
        return offset_error(name, offset, str_cat("negative weight ", w, " on edge ", e));
      g.int_weights[e] = w;
    }
  }

  if (options.symmetrize) {
    Expected<Csr> sym = symmetrize(g);
    if (!sym.ok())
      return file_error(name, sym.status().message());
    return std::move(sym).value();
  }
  return g;
}

} // namespace detail

Expected<std::string> gr_bytes(const Csr& g) {
  if (Status s = validate(g); !s.ok())
    return Status::error(str_cat("cannot encode an invalid graph: ", s.message()));
  std::string out;
  emit_gr(g, [&](const char* p, std::size_t n) { out.append(p, n); });
  return out;
}

Status write_gr(const Csr& g, const std::string& path) {
  if (Status s = validate(g); !s.ok())
    return file_error(path, str_cat("refusing to write an invalid graph: ", s.message()));
  OutputFile out;
  if (Status s = out.open(path); !s.ok())
    return s;
  emit_gr(g, [&](const char* p, std::size_t n) { out.write(p, n); });
  return out.commit();
}

} // namespace dd::graph
