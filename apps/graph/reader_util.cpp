#include "graph/reader_util.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "graph/file.h"

namespace dd::graph::detail {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

} // namespace

bool LineReader::next(std::string_view& line) {
  if (pos_ >= data_.size())
    return false;
  const void* nl = std::memchr(data_.data() + pos_, '\n', data_.size() - pos_);
  const std::size_t end =
      nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - data_.data()) : data_.size();
  line = data_.substr(pos_, end - pos_);
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  pos_ = end + 1;
  ++number_;
  return true;
}

bool Tokens::next(std::string_view& token) {
  std::size_t i = 0;
  while (i < rest_.size() && is_space(rest_[i]))
    ++i;
  if (i == rest_.size()) {
    rest_ = {};
    return false;
  }
  std::size_t j = i;
  while (j < rest_.size() && !is_space(rest_[j]))
    ++j;
  token = rest_.substr(i, j - i);
  rest_ = rest_.substr(j);
  return true;
}

bool Tokens::done() { return is_blank(rest_); }

bool iequals(std::string_view a, std::string_view b) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i]))
      return false;
  return true;
}

bool is_blank(std::string_view line) {
  for (char c : line)
    if (!is_space(c))
      return false;
  return true;
}

std::string_view trim_left(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && is_space(line[i]))
    ++i;
  return line.substr(i);
}

std::string quote(std::string_view token) {
  static const char hex[] = "0123456789abcdef";
  std::string out = "'";
  std::size_t shown = 0;
  for (char ch : token) {
    if (shown == 40) {
      out += "...";
      break;
    }
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
      out += ch;
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
    ++shown;
  }
  out += '\'';
  return out;
}

std::optional<std::uint64_t> parse_u64(std::string_view token) {
  if (token.empty() || !is_digit(token[0]))
    return std::nullopt;
  std::uint64_t value = 0;
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, value);
  if (ec != std::errc() || ptr != end)
    return std::nullopt;
  return value;
}

std::optional<std::string> parse_vertex(std::string_view token, std::uint64_t base,
                                        std::uint64_t limit, Limit kind, const char* what,
                                        VertexId& id) {
  const std::optional<std::uint64_t> value = parse_u64(token);
  if (!value) {
    // Tell overflow apart from garbage: the fix differs.
    bool digits = !token.empty();
    for (char c : token)
      digits = digits && is_digit(c);
    if (digits)
      return str_cat(what, " id ", quote(token), " is too large");
    return str_cat(what, " id ", quote(token), " is not a non-negative integer");
  }
  if (*value < base)
    return str_cat(what, " id ", *value, " is below the first id ", base,
                   base == 1 ? " (ids are 1-based here)" : "");
  const std::uint64_t zero_based = *value - base;
  if (zero_based >= limit) {
    if (kind == Limit::kCap)
      return str_cat(what, " id ", *value, " exceeds the limit of ", limit, " vertices");
    if (limit == 0)
      return str_cat(what, " id ", *value, " is out of range: the header declares no vertices");
    return str_cat(what, " id ", *value, " is out of range [", base, ", ", base + limit - 1,
                   "] (the header declares ", limit, " vertices)");
  }
  id = static_cast<VertexId>(zero_based);
  return std::nullopt;
}

std::optional<std::string> WeightColumn::add(std::string_view token) {
  if (token.empty())
    return std::string("missing weight");
  std::string_view body = token;
  if (body[0] == '+' && body.size() > 1)
    body.remove_prefix(1);  // from_chars takes no '+'
  const char* begin = body.data();
  const char* end = body.data() + body.size();

  // An integer literal: optional '-', digits only.
  bool integer_literal = true;
  for (std::size_t i = 0; i < body.size(); ++i)
    integer_literal = integer_literal && (is_digit(body[i]) || (i == 0 && body[i] == '-'));
  integer_literal = integer_literal && !(body.size() == 1 && body[0] == '-');

  if (integer_literal && !is_float_) {
    std::int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr != end || value > std::numeric_limits<std::int32_t>::max())
      return str_cat("weight ", quote(token), " does not fit in int32");
    if (value < 0)
      return str_cat("negative weight ", quote(token));
    ints_.push_back(static_cast<std::int32_t>(value));
    return std::nullopt;
  }
  if (kind_ == Kind::kInteger)
    return str_cat("weight ", quote(token), " is not an integer");

  double value = 0;
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ptr != end || (ec != std::errc() && ec != std::errc::result_out_of_range) ||
      std::isnan(value))
    return str_cat("weight ", quote(token), " is not a number");
  // from_chars leaves `value` alone when the literal over- or underflows double.
  if (ec == std::errc::result_out_of_range || std::isinf(value))
    return str_cat("weight ", quote(token), " is out of range");
  if (value < 0)
    return str_cat("negative weight ", quote(token));
  if (value > std::numeric_limits<float>::max())
    return str_cat("weight ", quote(token), " does not fit in float");

  if (!is_float_) {  // the first non-integer: everything read so far becomes float
    is_float_ = true;
    floats_.reserve(ints_.capacity());
    for (std::int32_t w : ints_)
      floats_.push_back(static_cast<float>(w));
    ints_ = {};
  }
  // + 0.0f turns -0 into +0, so that equal weights have equal bits.
  floats_.push_back(static_cast<float>(value) + 0.0f);
  return std::nullopt;
}

void WeightColumn::move_into(EdgeList& edges) {
  if (is_float_) {
    edges.weight_type = WeightType::kFloat32;
    edges.float_weights = std::move(floats_);
  } else {
    edges.weight_type = WeightType::kInt32;
    edges.int_weights = std::move(ints_);
  }
}

std::optional<std::string> vertex_count_problem(std::uint64_t n, const ReadOptions& options,
                                                bool check_memory) {
  if (n > kMaxVertices)
    return str_cat(n, " vertices, more than the ", kMaxVertices, " that 32-bit ids allow");
  if (n > options.max_vertices)
    return str_cat(n, " vertices, more than the limit of ", options.max_vertices,
                   " (ReadOptions::max_vertices)");
  if (!check_memory)
    return std::nullopt;
  const std::uint64_t memory = physical_memory_bytes();
  const std::uint64_t offsets_bytes = (n + 1) * sizeof(EdgeIndex);
  if (memory != 0 && offsets_bytes > memory)
    return str_cat(n, " vertices need ", offsets_bytes, " bytes of row offsets, more than the ",
                   memory, " bytes of memory");
  return std::nullopt;
}

std::optional<std::string> sparse_vertex_problem(std::uint64_t n, std::uint64_t m,
                                                 const char* edges, const char* edge) {
  // m is bounded by the input's size, so this cannot overflow.
  const std::uint64_t most = kFreeVertices + kVerticesPerEdge * m;
  if (n <= most)
    return std::nullopt;
  return str_cat(n, " vertices for ", m, ' ', edges, ", more than the ", most,
                 " a text graph may have (", kFreeVertices, " + ", kVerticesPerEdge, " per ",
                 edge, "; see docs/graphs.md)");
}

std::optional<std::string> declared_count_problem(std::uint64_t declared,
                                                  std::uint64_t data_bytes,
                                                  std::uint64_t min_bytes_per_item,
                                                  const char* what) {
  // The last item may lack its newline.
  const std::uint64_t most = (data_bytes + 1) / min_bytes_per_item;
  if (declared <= most)
    return std::nullopt;
  return str_cat(declared, ' ', what, " declared, but the file's ", data_bytes,
                 " bytes can hold at most ", most);
}

std::optional<std::string> dimacs_problem_counts(std::string_view n_text,
                                                 std::string_view m_text,
                                                 std::uint64_t data_bytes,
                                                 const ReadOptions& options,
                                                 std::optional<std::uint64_t> max_arcs,
                                                 const char* holder, std::uint64_t& n,
                                                 std::uint64_t& m) {
  const std::optional<std::uint64_t> n_value = parse_u64(n_text);
  if (!n_value)
    return str_cat("vertex count ", quote(n_text), " is not a non-negative integer");
  const std::optional<std::uint64_t> m_value = parse_u64(m_text);
  if (!m_value)
    return str_cat("arc count ", quote(m_text), " is not a non-negative integer");
  // "a 1 2 3\n" is the shortest arc line: 8 bytes.
  if (std::optional<std::string> problem =
          declared_count_problem(*m_value, data_bytes, 8, "arcs"))
    return problem;
  if (max_arcs && *m_value > *max_arcs)
    return str_cat(*m_value, " arcs, more than the ", *max_arcs, ' ', holder, " may have");
  if (std::optional<std::string> problem = vertex_count_problem(*n_value, options))
    return problem;
  if (std::optional<std::string> problem =
          sparse_vertex_problem(*n_value, *m_value, "arcs", "arc"))
    return problem;
  n = *n_value;
  m = *m_value;
  return std::nullopt;
}

std::uint64_t safe_reserve(std::uint64_t declared, std::uint64_t data_bytes,
                           std::uint64_t min_bytes_per_item) {
  const std::uint64_t possible = data_bytes / (min_bytes_per_item ? min_bytes_per_item : 1) + 1;
  return declared < possible ? declared : possible;
}

Status matrix_market_banner(LineReader& lines, std::string_view name, const char* expected,
                            std::string_view (&words)[5]) {
  std::string_view line;
  if (!lines.next(line))
    return line_error(name, 1, str_cat("empty file; expected the header ", expected));
  Tokens banner(line);
  std::size_t count = 0;
  for (std::string_view word; count < 5 && banner.next(word);)
    words[count++] = word;
  if (count == 0 || !iequals(words[0], "%%MatrixMarket"))
    return line_error(name, 1, str_cat("missing the Matrix Market header ", expected));
  if (count < 5 || !banner.done())
    return line_error(name, 1, str_cat("malformed header; expected ", expected));
  if (!iequals(words[1], "matrix"))
    return line_error(name, 1, str_cat("object ", quote(words[1]), " is not 'matrix'"));
  return Status();
}

Status matrix_market_size_line(LineReader& lines, std::string_view name, const char* label,
                               std::uint64_t (&sizes)[3], std::uint64_t& size_line) {
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view text = trim_left(line);
    if (text.empty() || text[0] == '%')
      continue;
    size_line = lines.number();
    Tokens tokens(text);
    std::string_view words[3];
    if (!tokens.next(words[0]) || !tokens.next(words[1]) || !tokens.next(words[2]) ||
        !tokens.done())
      return line_error(name, size_line, str_cat("expected the size line '", label, "'"));
    for (int i = 0; i < 3; ++i) {
      const auto value = parse_u64(words[i]);
      if (!value)
        return line_error(name, size_line, str_cat("the size line '", label,
                                                   "' needs three non-negative integers"));
      sizes[i] = *value;
    }
    return Status();
  }
  return line_error(name, lines.number(), str_cat("end of file before the size line '", label, "'"));
}

} // namespace dd::graph::detail
