// Triangle's .node and .ele files (triangle_io.h).
#include "dmr/triangle_io.h"

#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "graph/file.h"
#include "graph/random.h"
#include "graph/reader_util.h"

namespace dd::dmr {
namespace {

using graph::Expected;
using graph::file_error;
using graph::line_error;
using graph::Status;
using graph::str_cat;
using graph::detail::LineReader;
using graph::detail::parse_u64;
using graph::detail::quote;
using graph::detail::Tokens;

constexpr const char *kNodeHeader = "'POINTS 2 ATTRIBUTES MARKERS'";
constexpr const char *kEleHeader = "'TRIANGLES 3 ATTRIBUTES'";
constexpr std::uint64_t kMaxIndex = std::numeric_limits<std::int32_t>::max();
// A triangle's vertex slots (3 per triangle) are indexed in 32 bits.
constexpr std::uint64_t kMaxTriangles = kMaxIndex / 3;

// The next line with something before its '#' comment, cut there; false at
// the end of the data.
bool next_content(LineReader &lines, Tokens &tokens) {
  std::string_view line;
  while (lines.next(line)) {
    const std::size_t hash = line.find('#');
    if (hash != std::string_view::npos)
      line = line.substr(0, hash);
    Tokens t(line);
    if (!t.done()) {
      tokens = t;
      return true;
    }
  }
  return false;
}

// A decimal number (from_chars' general format, an optional leading '+'),
// or why it is not a finite one.
enum class Number { kOk, kNotNumber, kNotFinite };
Number parse_double(std::string_view token, double &value) {
  std::string_view body = token;
  if (body.size() > 1 && body[0] == '+' && body[1] != '-')
    body.remove_prefix(1); // from_chars takes no '+'
  const char *end = body.data() + body.size();
  const auto [ptr, ec] = std::from_chars(body.data(), end, value);
  if (ptr != end || (ec != std::errc() && ec != std::errc::result_out_of_range))
    return Number::kNotNumber;
  // Out of range: beyond double's exponents either way (from_chars leaves
  // `value` alone then), which a coordinate cannot be.
  if (ec == std::errc::result_out_of_range || !std::isfinite(value))
    return Number::kNotFinite;
  return Number::kOk;
}

// An integer with an optional sign (boundary markers).
bool is_integer(std::string_view token) {
  if (!token.empty() && (token[0] == '-' || token[0] == '+'))
    token.remove_prefix(1);
  return parse_u64(token).has_value();
}

// Up to `max` tokens of a line into `out`; how many there were (max + 1
// when there are more).
std::size_t take(Tokens &tokens, std::string_view *out, std::size_t max) {
  std::size_t count = 0;
  std::string_view token;
  while (tokens.next(token)) {
    if (count == max)
      return max + 1;
    out[count++] = token;
  }
  return count;
}

// Every field of the rest of a line.
void split(Tokens &tokens, std::vector<std::string_view> &fields) {
  fields.clear();
  for (std::string_view token; tokens.next(token);)
    fields.push_back(token);
}

// Why the extra fields of a line from `first` on are not `attributes`
// numbers and then `markers` integers, or nothing.
std::optional<std::string> extra_problem(const std::vector<std::string_view> &fields,
                                         std::size_t first, std::uint64_t attributes) {
  for (std::size_t k = first; k < fields.size(); ++k) {
    double value = 0;
    if (k < first + attributes) {
      // Attributes are read and dropped: any number will do, even one
      // beyond double's range.
      if (parse_double(fields[k], value) == Number::kNotNumber)
        return str_cat("attribute ", quote(fields[k]), " is not a number");
    } else if (!is_integer(fields[k])) {
      return str_cat("boundary marker ", quote(fields[k]), " is not an integer");
    }
  }
  return std::nullopt;
}

// The bytes a mesh of `points` and `triangles` needs while it is read
// (coordinates, vertices, neighbours and build_neighbors' stars), or 0
// when it fits the machine's memory.
std::uint64_t memory_problem(std::uint64_t points, std::uint64_t triangles) {
  const std::uint64_t bytes = 16 * points + 8 * points + 36 * triangles;
  const std::uint64_t memory = graph::physical_memory_bytes();
  return memory != 0 && bytes > memory ? bytes : 0;
}

// Open addressing over coordinate pairs: the first point with each (x, y).
class PointTable {
public:
  explicit PointTable(std::size_t count) {
    std::size_t size = 16;
    while (size < 2 * count)
      size *= 2;
    slots_.assign(size, -1);
    mask_ = size - 1;
  }
  /// The point already holding (x, y), or -1 after recording `p` for it.
  std::int64_t insert(const Mesh &m, std::int64_t p) {
    std::size_t h = hash(m.x[p], m.y[p]) & mask_;
    for (;; h = (h + 1) & mask_) {
      const std::int64_t q = slots_[h];
      if (q < 0) {
        slots_[h] = p;
        return -1;
      }
      if (m.x[q] == m.x[p] && m.y[q] == m.y[p])
        return q;
    }
  }

private:
  static std::uint64_t bits(double d) {
    d += 0.0; // -0 and +0 are one coordinate
    std::uint64_t b;
    std::memcpy(&b, &d, sizeof b);
    return b;
  }
  static std::size_t hash(double x, double y) {
    return static_cast<std::size_t>(graph::hash64(bits(x), bits(y)));
  }
  std::vector<std::int64_t> slots_;
  std::size_t mask_ = 0;
};

// Reads the .node text into m.x, m.y; sets `base` (the first index) and
// each point's line.
Status parse_node(std::string_view data, std::string_view name, Mesh &m, std::int64_t &base,
                  std::vector<std::uint64_t> &lines_of) {
  LineReader lines(data);
  Tokens tokens{std::string_view()};
  if (!next_content(lines, tokens))
    return line_error(name, lines.number() > 0 ? lines.number() : 1,
                      str_cat("end of file before the header ", kNodeHeader));
  const std::uint64_t header_line = lines.number();
  std::string_view words[4];
  const std::size_t count = take(tokens, words, 4);
  if (count > 4)
    return line_error(name, header_line,
                      str_cat("the header ", kNodeHeader, " has more than four fields"));
  std::uint64_t values[4] = {0, 2, 0, 0}; // Triangle's defaults for missing fields
  for (std::size_t i = 0; i < count; ++i) {
    const std::optional<std::uint64_t> v = parse_u64(words[i]);
    if (!v)
      return line_error(name, header_line,
                        str_cat("the header ", kNodeHeader, " needs non-negative integers, not ",
                                quote(words[i])));
    values[i] = *v;
  }
  const std::uint64_t points = values[0], attributes = values[2], markers = values[3];
  if (values[1] != 2)
    return line_error(name, header_line,
                      str_cat("dimension ", values[1], " is not 2 (meshes are planar)"));
  if (markers > 1)
    return line_error(name, header_line,
                      str_cat("boundary marker count ", markers, " is not 0 or 1"));
  if (points > kMaxIndex)
    return line_error(
        name, header_line,
        str_cat(points, " points, more than the ", kMaxIndex, " a 32-bit index names"));
  // "0 0 0\n": the shortest point line.
  if (std::optional<std::string> problem =
          graph::detail::declared_count_problem(points, data.size(), 6, "points"))
    return line_error(name, header_line, *problem);
  if (points > 0 && attributes > data.size())
    return line_error(name, header_line,
                      str_cat(attributes, " attributes per point, more than the file's ",
                              data.size(), " bytes can hold"));
  if (const std::uint64_t bytes = memory_problem(points, 0))
    return line_error(name, header_line,
                      str_cat(points, " points need about ", bytes, " bytes, more than the ",
                              graph::physical_memory_bytes(), " bytes of memory"));
  const std::uint64_t fields = 3 + attributes + markers;
  std::vector<std::string_view> f;
  m.x.reserve(points);
  m.y.reserve(points);
  lines_of.reserve(points);
  base = 0;

  while (next_content(lines, tokens)) {
    const std::uint64_t at = lines.number();
    const std::uint64_t i = m.x.size();
    if (i == points)
      return line_error(
          name, at, str_cat("more points than the ", points, " declared on line ", header_line));
    split(tokens, f);
    if (f.size() != fields)
      return line_error(name, at,
                        str_cat("a point line has ", fields, " fields (index, x, y, ", attributes,
                                " attributes, ", markers, " boundary markers), not ", f.size()));
    const std::optional<std::uint64_t> index = parse_u64(f[0]);
    if (!index)
      return line_error(name, at,
                        str_cat("point index ", quote(f[0]), " is not a non-negative integer"));
    if (i == 0) {
      if (*index > 1)
        return line_error(
            name, at,
            str_cat("the first point's index ", *index, " is not 0 or 1 (where numbering starts)"));
      base = static_cast<std::int64_t>(*index);
    } else if (*index != i + static_cast<std::uint64_t>(base)) {
      return line_error(name, at,
                        str_cat("point index ", *index, " where ", i + base,
                                " was expected (points are numbered consecutively from ", base,
                                ")"));
    }
    double xy[2];
    for (int k = 0; k < 2; ++k)
      if (const Number parsed = parse_double(f[1 + k], xy[k]); parsed != Number::kOk)
        return line_error(
            name, at,
            str_cat(k == 0 ? "x" : "y", " coordinate ", quote(f[1 + k]),
                    parsed == Number::kNotNumber ? " is not a number" : " is not a finite double"));
    if (std::optional<std::string> problem = extra_problem(f, 3, attributes))
      return line_error(name, at, *problem);
    m.x.push_back(xy[0]);
    m.y.push_back(xy[1]);
    lines_of.push_back(at);
  }
  if (m.x.size() != points)
    return line_error(
        name, header_line,
        str_cat("the header declares ", points, " points but the file has ", m.x.size()));
  return Status();
}

} // namespace

Expected<Mesh> parse_mesh(std::string_view node, std::string_view node_name, std::string_view ele,
                          std::string_view ele_name) {
  Mesh m;
  std::int64_t base = 0;
  std::vector<std::uint64_t> point_line;
  if (Status s = parse_node(node, node_name, m, base, point_line); !s.ok())
    return s;
  const std::int64_t points = m.num_points();

  LineReader lines(ele);
  Tokens tokens{std::string_view()};
  if (!next_content(lines, tokens))
    return line_error(ele_name, lines.number() > 0 ? lines.number() : 1,
                      str_cat("end of file before the header ", kEleHeader));
  const std::uint64_t header_line = lines.number();
  std::string_view words[3];
  const std::size_t count = take(tokens, words, 3);
  if (count > 3)
    return line_error(ele_name, header_line,
                      str_cat("the header ", kEleHeader, " has more than three fields"));
  std::uint64_t values[3] = {0, 3, 0};
  for (std::size_t i = 0; i < count; ++i) {
    const std::optional<std::uint64_t> v = parse_u64(words[i]);
    if (!v)
      return line_error(ele_name, header_line,
                        str_cat("the header ", kEleHeader, " needs non-negative integers, not ",
                                quote(words[i])));
    values[i] = *v;
  }
  const std::uint64_t triangles = values[0], attributes = values[2];
  if (values[1] == 6)
    return line_error(ele_name, header_line,
                      "6-node (second-order) triangles are not supported; write 3-node ones "
                      "(Triangle without -o2)");
  if (values[1] != 3)
    return line_error(ele_name, header_line,
                      str_cat(values[1], " nodes per triangle; a triangle has 3"));
  if (triangles > kMaxTriangles)
    return line_error(ele_name, header_line,
                      str_cat(triangles, " triangles, more than the ", kMaxTriangles,
                              " whose vertex slots 32-bit indices reach"));
  // "0 0 1 2\n": the shortest triangle line.
  if (std::optional<std::string> problem =
          graph::detail::declared_count_problem(triangles, ele.size(), 8, "triangles"))
    return line_error(ele_name, header_line, *problem);
  if (triangles > 0 && attributes > ele.size())
    return line_error(ele_name, header_line,
                      str_cat(attributes, " attributes per triangle, more than the file's ",
                              ele.size(), " bytes can hold"));
  if (const std::uint64_t bytes = memory_problem(static_cast<std::uint64_t>(points), triangles))
    return line_error(ele_name, header_line,
                      str_cat(triangles, " triangles need about ", bytes, " bytes, more than the ",
                              graph::physical_memory_bytes(), " bytes of memory"));
  const std::uint64_t fields = 4 + attributes;
  std::vector<std::string_view> f;
  m.v.reserve(3 * triangles);

  while (next_content(lines, tokens)) {
    const std::uint64_t at = lines.number();
    const std::uint64_t t = m.v.size() / 3;
    if (t == triangles)
      return line_error(
          ele_name, at,
          str_cat("more triangles than the ", triangles, " declared on line ", header_line));
    split(tokens, f);
    if (f.size() != fields)
      return line_error(ele_name, at,
                        str_cat("a triangle line has ", fields, " fields (index, 3 points, ",
                                attributes, " attributes), not ", f.size()));
    if (std::optional<std::string> problem = extra_problem(f, 4, attributes))
      return line_error(ele_name, at, *problem);
    const std::optional<std::uint64_t> index = parse_u64(f[0]);
    if (!index)
      return line_error(ele_name, at,
                        str_cat("triangle index ", quote(f[0]), " is not a non-negative integer"));
    if (*index != t + static_cast<std::uint64_t>(base))
      return line_error(ele_name, at,
                        str_cat("triangle index ", *index, " where ", t + base,
                                " was expected (triangles are numbered consecutively from ", base,
                                ", as the points of ", node_name, " are)"));
    std::int32_t tv[3];
    for (int k = 0; k < 3; ++k) {
      const std::optional<std::uint64_t> p = parse_u64(f[1 + k]);
      if (!p)
        return line_error(
            ele_name, at,
            str_cat("point index ", quote(f[1 + k]), " is not a non-negative integer"));
      if (*p < static_cast<std::uint64_t>(base) ||
          *p - static_cast<std::uint64_t>(base) >= static_cast<std::uint64_t>(points)) {
        if (points == 0)
          return line_error(
              ele_name, at,
              str_cat("point index ", *p, " is out of range: ", node_name, " has no points"));
        return line_error(ele_name, at,
                          str_cat("point index ", *p, " is out of range [", base, ", ",
                                  points - 1 + base, "] (", node_name, " has ", points,
                                  " points)"));
      }
      tv[k] = static_cast<std::int32_t>(*p - static_cast<std::uint64_t>(base));
    }
    for (int k = 0; k < 3; ++k)
      if (tv[k] == tv[(k + 1) % 3])
        return line_error(ele_name, at,
                          str_cat("triangle ", *index, " has point ", tv[k] + base, " twice"));
    const Point a{m.x[tv[0]], m.y[tv[0]]}, b{m.x[tv[1]], m.y[tv[1]]}, c{m.x[tv[2]], m.y[tv[2]]};
    const double o = orient2d(a, b, c);
    if (!std::isfinite(o))
      return line_error(ele_name, at,
                        str_cat("triangle ", *index, ": its area overflows double precision"));
    if (o == 0)
      return line_error(ele_name, at,
                        str_cat("triangle ", *index, " has zero area (points ", tv[0] + base, ", ",
                                tv[1] + base, ", ", tv[2] + base, " are collinear)"));
    if (o < 0)
      std::swap(tv[1], tv[2]); // clockwise: turned
    m.v.insert(m.v.end(), tv, tv + 3);
  }
  if (m.v.size() / 3 != triangles)
    return line_error(
        ele_name, header_line,
        str_cat("the header declares ", triangles, " triangles but the file has ", m.v.size() / 3));

  // Two points in one place, both used: their triangles overlap or have no
  // area, which the orientation test above may not see.
  {
    std::vector<bool> used(static_cast<std::size_t>(points), false);
    std::size_t count_used = 0;
    for (const std::int32_t p : m.v)
      if (!used[p]) {
        used[p] = true;
        ++count_used;
      }
    PointTable table(count_used);
    for (std::int64_t p = 0; p < points; ++p) {
      if (!used[p])
        continue;
      const std::int64_t q = table.insert(m, p);
      if (q >= 0)
        return line_error(node_name, point_line[p],
                          str_cat("point ", p + base, " lies where point ", q + base, " (line ",
                                  point_line[q], ") does, and triangles use both"));
    }
  }

  if (Status s = build_neighbors(m, std::string(ele_name), base); !s.ok())
    return s;
  return m;
}

Expected<Mesh> read_mesh(const std::string &path) {
  const std::string base = mesh_base(path);
  const std::string node_path = base + ".node", ele_path = base + ".ele";
  Expected<std::string> node = graph::read_file(node_path);
  if (!node.ok())
    return node.status();
  Expected<std::string> ele = graph::read_file(ele_path);
  if (!ele.ok())
    return ele.status();
  return parse_mesh(*node, node_path, *ele, ele_path);
}

namespace {

void append_comment(std::string &out, std::string_view comment) {
  while (!comment.empty()) {
    const std::size_t nl = comment.find('\n');
    out += "# ";
    out.append(comment.substr(0, nl));
    out += '\n';
    comment = nl == std::string_view::npos ? std::string_view() : comment.substr(nl + 1);
  }
}

void append_int(std::string &out, std::int64_t v) {
  char buf[24];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  (void)ec;
  out.append(buf, static_cast<std::size_t>(ptr - buf));
}

void append_double(std::string &out, double v) {
  char buf[40];
  const int n = std::snprintf(buf, sizeof buf, "%.17g", v);
  out.append(buf, static_cast<std::size_t>(n));
}

} // namespace

std::string node_text(const Mesh &m, std::string_view comment) {
  std::string out;
  out.reserve(static_cast<std::size_t>(m.num_points()) * 48 + comment.size() + 64);
  append_comment(out, comment);
  out += str_cat(m.num_points(), " 2 0 0\n");
  for (std::int64_t p = 0; p < m.num_points(); ++p) {
    append_int(out, p);
    out += ' ';
    append_double(out, m.x[p]);
    out += ' ';
    append_double(out, m.y[p]);
    out += '\n';
  }
  return out;
}

std::string ele_text(const Mesh &m, std::string_view comment) {
  std::string out;
  out.reserve(static_cast<std::size_t>(m.num_slots()) * 36 + comment.size() + 64);
  append_comment(out, comment);
  out += str_cat(m.num_triangles(), " 3 0\n");
  std::int64_t index = 0;
  for (std::int64_t t = 0; t < m.num_slots(); ++t) {
    if (m.v[3 * t] < 0)
      continue;
    append_int(out, index++);
    for (int k = 0; k < 3; ++k) {
      out += ' ';
      append_int(out, m.v[3 * t + k]);
    }
    out += '\n';
  }
  return out;
}

Status write_mesh(const std::string &path, const Mesh &m, std::string_view comment) {
  const std::string base = mesh_base(path);
  const std::string node_path = base + ".node", ele_path = base + ".ele";
  struct stat st;
  const bool node_existed = ::lstat(node_path.c_str(), &st) == 0;
  graph::OutputFile node, ele;
  if (Status s = node.open(node_path); !s.ok())
    return s;
  if (Status s = ele.open(ele_path); !s.ok())
    return s; // node's temporary file goes with it
  node.write(node_text(m, comment));
  ele.write(ele_text(m, comment));
  if (Status s = node.commit(); !s.ok())
    return s;
  if (Status s = ele.commit(); !s.ok()) {
    if (!node_existed)
      ::unlink(node_path.c_str());
    return s;
  }
  return Status();
}

std::string mesh_base(const std::string &path) {
  for (const char *ext : {".node", ".ele"}) {
    const std::size_t len = std::strlen(ext);
    if (path.size() > len && path.compare(path.size() - len, len, ext) == 0)
      return path.substr(0, path.size() - len);
  }
  return path;
}

} // namespace dd::dmr
