// Rating sets: Matrix Market reader and writer, the power-law generator and
// the sequential SGD reference (ratings.h; docs/graphs.md, docs/sgd.md).
#include "graph/ratings.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>

#include "graph/file.h"
#include "graph/random.h"
#include "graph/reader_util.h"

namespace dd::graph {
namespace {

using detail::LineReader;
using detail::Limit;
using detail::Tokens;
using detail::iequals;
using detail::matrix_market_banner;
using detail::matrix_market_size_line;
using detail::parse_u64;
using detail::parse_vertex;
using detail::quote;
using detail::trim_left;

constexpr const char* kBanner = "'%%MatrixMarket matrix coordinate real|integer general'";

// The value of a rating: a finite float in any decimal form.
std::optional<std::string> parse_value(std::string_view token, float& value) {
  std::string_view body = token;
  if (body.size() > 1 && body[0] == '+')
    body.remove_prefix(1);  // from_chars takes no '+'
  double v = 0;
  const auto [ptr, ec] = std::from_chars(body.data(), body.data() + body.size(), v);
  if (body.empty() || ptr != body.data() + body.size() ||
      (ec != std::errc() && ec != std::errc::result_out_of_range) || std::isnan(v))
    return str_cat("rating ", quote(token), " is not a number");
  if (ec == std::errc::result_out_of_range || std::isinf(v) ||
      std::fabs(v) > double(std::numeric_limits<float>::max()))
    return str_cat("rating ", quote(token), " does not fit in float");
  value = static_cast<float>(v);
  return std::nullopt;
}

// The first (user, item) pair that occurs twice, as the indices of its two
// ratings (the first two occurrences), or nothing. Buckets the items by user
// (4 bytes a rating) rather than sorting 8-byte keys.
std::optional<std::pair<std::uint64_t, std::uint64_t>> first_duplicate(const RatingSet& set) {
  std::vector<std::uint64_t> offsets(std::uint64_t(set.num_users) + 1, 0);
  for (const std::uint32_t u : set.users)
    ++offsets[u + 1];
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
  std::vector<std::uint32_t> bucket(set.size());
  {
    std::vector<std::uint64_t> next(offsets.begin(), offsets.end() - 1);
    for (std::uint64_t e = 0; e < set.size(); ++e)
      bucket[next[set.users[e]]++] = set.items[e];
  }
  bool found = false;
  std::uint32_t user = 0, item = 0;
  for (std::uint32_t u = 0; u < set.num_users && !found; ++u) {
    auto begin = bucket.begin() + std::ptrdiff_t(offsets[u]);
    auto end = bucket.begin() + std::ptrdiff_t(offsets[u + 1]);
    std::sort(begin, end);
    if (auto it = std::adjacent_find(begin, end); it != end) {
      found = true;
      user = u;
      item = *it;
    }
  }
  if (!found)
    return std::nullopt;
  std::uint64_t first = set.size();
  for (std::uint64_t e = 0; e < set.size(); ++e)
    if (set.users[e] == user && set.items[e] == item) {
      if (first == set.size())
        first = e;
      else
        return std::make_pair(first, e);
    }
  return std::nullopt;  // not reached: the bucket saw the pair twice
}

// Appends the shortest text that reads back as exactly `v`.
void append_float(std::string& out, float v) {
  char buf[32];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  (void)ec;  // 32 bytes hold every float
  out.append(buf, std::size_t(ptr - buf));
}

void append_u64(std::string& out, std::uint64_t v) {
  char buf[24];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  (void)ec;
  out.append(buf, std::size_t(ptr - buf));
}

} // namespace

Status validate(const RatingSet& set) {
  if (set.items.size() != set.users.size() || set.values.size() != set.users.size())
    return Status::error(str_cat("rating arrays differ in length (", set.users.size(),
                                 " users, ", set.items.size(), " items, ", set.values.size(),
                                 " values)"));
  if (set.size() > kMaxRatings)
    return Status::error(str_cat(set.size(), " ratings; at most ", kMaxRatings));
  for (std::uint64_t e = 0; e < set.size(); ++e) {
    if (set.users[e] >= set.num_users)
      return Status::error(str_cat("rating ", e, ": user ", set.users[e], " out of range (",
                                   set.num_users, " users)"));
    if (set.items[e] >= set.num_items)
      return Status::error(str_cat("rating ", e, ": item ", set.items[e], " out of range (",
                                   set.num_items, " items)"));
    if (!std::isfinite(set.values[e]))
      return Status::error(str_cat("rating ", e, " is not finite"));
  }
  if (auto dup = first_duplicate(set))
    return Status::error(str_cat("ratings ", dup->first, " and ", dup->second,
                                 " both rate item ", set.items[dup->first], " by user ",
                                 set.users[dup->first]));
  return Status();
}

Expected<RatingSet> parse_ratings(std::string_view data, std::string_view name,
                                  const ReadOptions& options) {
  LineReader lines(data);
  std::string_view line;
  std::string_view words[5];
  if (Status s = matrix_market_banner(lines, name, kBanner, words); !s.ok())
    return s;
  if (!iequals(words[2], "coordinate"))
    return line_error(name, 1, str_cat("format ", quote(words[2]),
                                       " is not 'coordinate' (a rating set is sparse)"));
  if (iequals(words[3], "pattern"))
    return line_error(name, 1, "a 'pattern' matrix has no ratings; expected real or integer");
  if (!iequals(words[3], "real") && !iequals(words[3], "integer") &&
      !iequals(words[3], "double"))
    return line_error(name, 1, str_cat("field ", quote(words[3]),
                                       " is not supported (real or integer)"));
  if (!iequals(words[4], "general"))
    return line_error(name, 1, str_cat("symmetry ", quote(words[4]),
                                       " is not supported: ratings are users x items, 'general'"));

  std::uint64_t sizes[3] = {0, 0, 0};
  std::uint64_t size_line = 0;
  if (Status s = matrix_market_size_line(lines, name, "USERS ITEMS RATINGS", sizes, size_line);
      !s.ok())
    return s;
  const std::uint64_t num_users = sizes[0], num_items = sizes[1], declared = sizes[2];
  for (const auto& [n, what] : {std::pair{num_users, "users"}, std::pair{num_items, "items"}})
    if (n > options.max_vertices || n > kMaxVertices)
      return line_error(name, size_line,
                        str_cat(n, " ", what, "; at most ",
                                std::min<std::uint64_t>(options.max_vertices, kMaxVertices)));
  if (declared > kMaxRatings)
    return line_error(name, size_line, str_cat(declared, " ratings; at most ", kMaxRatings));
  // "1 1 1\n" is the shortest rating line.
  if (std::optional<std::string> problem =
          detail::declared_count_problem(declared, data.size(), 6, "ratings"))
    return line_error(name, size_line, *problem);
  if (declared > num_users * num_items)
    return line_error(name, size_line,
                      str_cat(declared, " ratings cannot fit ", num_users, " users x ", num_items,
                              " items without a pair twice"));

  RatingSet set;
  set.num_users = static_cast<std::uint32_t>(num_users);
  set.num_items = static_cast<std::uint32_t>(num_items);
  set.reserve(detail::safe_reserve(declared, data.size(), 6));
  while (lines.next(line)) {
    const std::uint64_t at = lines.number();
    const std::string_view text = trim_left(line);
    if (text.empty() || text[0] == '%')
      continue;
    Tokens tokens(text);
    std::string_view fields[3];
    std::size_t found = 0;
    for (std::string_view field; found < 3 && tokens.next(field);)
      fields[found++] = field;
    if (found != 3 || !tokens.done())
      return line_error(name, at, "expected a rating 'USER ITEM VALUE'");
    if (set.size() == declared)
      return line_error(name, at,
                        str_cat("more ratings than the ", declared, " declared on line ",
                                size_line));
    VertexId u = 0, i = 0;
    float value = 0;
    if (auto problem = parse_vertex(fields[0], 1, num_users, Limit::kDeclared, "user", u))
      return line_error(name, at, *problem);
    if (auto problem = parse_vertex(fields[1], 1, num_items, Limit::kDeclared, "item", i))
      return line_error(name, at, *problem);
    if (auto problem = parse_value(fields[2], value))
      return line_error(name, at, *problem);
    set.add(u, i, value);
  }
  if (set.size() != declared)
    return line_error(name, size_line, str_cat("the size line declares ", declared,
                                               " ratings but the file has ", set.size()));
  if (auto dup = first_duplicate(set)) {
    // The lines of the two ratings: a second pass over the entries.
    LineReader again(data);
    std::uint64_t entry = 0, first_line = 0, second_line = 0;
    bool header = true;
    while (again.next(line)) {
      const std::string_view text = trim_left(line);
      if (text.empty() || text[0] == '%')
        continue;
      if (header) {  // the size line
        header = false;
        continue;
      }
      if (entry == dup->first)
        first_line = again.number();
      if (entry == dup->second) {
        second_line = again.number();
        break;
      }
      ++entry;
    }
    return line_error(name, second_line,
                      str_cat("user ", set.users[dup->first] + 1, " rates item ",
                              set.items[dup->first] + 1, " a second time (first on line ",
                              first_line, ")"));
  }
  return set;
}

Expected<RatingSet> read_ratings(const std::string& path, const ReadOptions& options) {
  Expected<std::string> data = read_file(path, options.max_stream_bytes);
  if (!data.ok())
    return data.status();
  return parse_ratings(*data, path, options);
}

Expected<std::string> ratings_text(const RatingSet& set, std::string_view comment) {
  if (Status s = validate(set); !s.ok())
    return s;
  std::string out = "%%MatrixMarket matrix coordinate real general\n";
  for (std::size_t start = 0; start < comment.size();) {
    std::size_t end = comment.find('\n', start);
    if (end == std::string_view::npos)
      end = comment.size();
    out += "% ";
    out.append(comment.substr(start, end - start));
    out += '\n';
    start = end + 1;
  }
  out += str_cat(set.num_users, ' ', set.num_items, ' ', set.size(), '\n');
  out.reserve(out.size() + set.size() * 16);
  for (std::uint64_t e = 0; e < set.size(); ++e) {
    append_u64(out, std::uint64_t(set.users[e]) + 1);
    out += ' ';
    append_u64(out, std::uint64_t(set.items[e]) + 1);
    out += ' ';
    append_float(out, set.values[e]);
    out += '\n';
  }
  return out;
}

Status write_ratings(const RatingSet& set, const std::string& path, std::string_view comment) {
  Expected<std::string> text = ratings_text(set, comment);
  if (!text.ok())
    return text.status();
  return write_file(path, *text);
}

// ---- the generator -------------------------------------------------------

// Fitted to the real sets at full size (docs/graphs.md): the exponent and
// offset of w(x) = (x + offset)^-exponent, x = rank / n, that give their
// top/mean and median/mean degrees.
ZipfSide user_side(RatingShape shape) {
  return shape == RatingShape::kNetflix ? ZipfSide{0.8, 0.0006} : ZipfSide{0.78, 0.0013};
}
ZipfSide item_side(RatingShape shape) {
  return shape == RatingShape::kNetflix ? ZipfSide{1.9, 0.024} : ZipfSide{1.75, 0.021};
}

namespace {

std::vector<double> zipf_weights(std::uint64_t n, ZipfSide side) {
  std::vector<double> w(n);
  for (std::uint64_t r = 0; r < n; ++r)
    w[r] = std::pow(double(r) / double(n) + side.offset, -side.exponent);
  return w;
}

// A random permutation of 0..n-1 (rank -> id).
std::vector<std::uint32_t> permutation(std::uint64_t n, std::uint64_t seed) {
  std::vector<std::uint32_t> p(n);
  std::iota(p.begin(), p.end(), 0u);
  Xoshiro256 rng(seed);
  for (std::uint64_t i = n; i > 1; --i)
    std::swap(p[i - 1], p[rng.below(i)]);
  return p;
}

// Salts of the generator's independent streams.
enum Salt : std::uint64_t {
  kUserIds = 0x75736572,
  kItemIds = 0x6974656d,
  kUserDraws = 0x64726177,
  kUserBias,
  kItemBias,
  kUserFactor,
  kItemFactor,
  kNoise,
  kInitUsers,
  kInitItems,
};

double unit(std::uint64_t seed, Salt salt, std::uint64_t id) {
  return to_unit_double(hash64(seed ^ hash64(salt), id));
}

// The hidden model's rating of item i by user u (ids), an integer in 1..5.
float model_rating(std::uint64_t seed, std::uint32_t u, std::uint32_t i) {
  const double user_bias = 1.6 * (unit(seed, kUserBias, u) - 0.5);
  const double item_bias = 2.0 * (unit(seed, kItemBias, i) - 0.5);
  double interaction = 0;
  for (std::uint64_t f = 0; f < 2; ++f)
    interaction += (2 * unit(seed, kUserFactor, 2 * std::uint64_t(u) + f) - 1) *
                   (2 * unit(seed, kItemFactor, 2 * std::uint64_t(i) + f) - 1);
  const double noise = 2.0 * (unit(seed, kNoise, (std::uint64_t(u) << 32) | i) - 0.5);
  const double r = std::round(3.5 + user_bias + item_bias + 0.8 * interaction + noise);
  return static_cast<float>(std::clamp(r, 1.0, 5.0));
}

} // namespace

Expected<RatingSet> generate_ratings(const RatingParams& p) {
  if (p.num_users == 0 || p.num_items == 0 || p.num_ratings == 0)
    return Status::error("a rating set needs at least one user, item and rating");
  if (p.num_users > kMaxVertices || p.num_items > kMaxVertices)
    return Status::error(str_cat("at most ", kMaxVertices, " users and items"));
  if (p.num_ratings > kMaxRatings)
    return Status::error(str_cat(p.num_ratings, " ratings; at most ", kMaxRatings));
  if (p.num_ratings > p.num_users * p.num_items)
    return Status::error(str_cat(p.num_ratings, " ratings cannot fit ", p.num_users,
                                 " users x ", p.num_items, " items without a pair twice"));
  const std::uint64_t U = p.num_users, I = p.num_items, R = p.num_ratings;

  // Degrees of the users by rank: largest remainders, capped at I.
  const std::vector<double> wu = zipf_weights(U, user_side(p.shape));
  const double wu_sum = std::accumulate(wu.begin(), wu.end(), 0.0);
  std::vector<std::uint64_t> degree(U);
  std::vector<std::pair<double, std::uint64_t>> remainders(U);
  std::uint64_t assigned = 0;
  for (std::uint64_t r = 0; r < U; ++r) {
    const double quota = double(R) * wu[r] / wu_sum;
    degree[r] = std::min<std::uint64_t>(I, std::uint64_t(quota));
    remainders[r] = {degree[r] == I ? -1.0 : quota - std::floor(quota), r};
    assigned += degree[r];
  }
  std::sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  // R <= U * I: every pass over the users that are not full adds at least one.
  while (assigned < R)
    for (std::uint64_t j = 0; j < U && assigned < R; ++j) {
      const std::uint64_t r = remainders[j].second;
      if (degree[r] < I) {
        ++degree[r];
        ++assigned;
      }
    }

  const std::vector<std::uint32_t> user_id = permutation(U, hash64(p.seed, kUserIds));
  const std::vector<std::uint32_t> item_id = permutation(I, hash64(p.seed, kItemIds));
  const std::vector<double> wi = zipf_weights(I, item_side(p.shape));
  std::vector<double> cumulative(I);
  std::partial_sum(wi.begin(), wi.end(), cumulative.begin());
  const double wi_sum = cumulative.back();

  // Each user's items by weight without replacement: rejection while few
  // are taken, else Efraimidis-Spirakis keys (log(u) / w, the largest win).
  std::vector<std::uint32_t> ranks_of_user(U);
  for (std::uint64_t r = 0; r < U; ++r)
    ranks_of_user[user_id[r]] = std::uint32_t(r);
  RatingSet set;
  set.num_users = std::uint32_t(U);
  set.num_items = std::uint32_t(I);
  set.reserve(R);
  std::vector<std::uint64_t> taken(I, 0);  // the user's stamp (rank + 1) when taken
  std::vector<std::uint32_t> chosen;
  std::vector<std::pair<double, std::uint32_t>> keys;
  for (std::uint64_t id = 0; id < U; ++id) {
    const std::uint64_t rank = ranks_of_user[id];
    const std::uint64_t d = degree[rank];
    Xoshiro256 rng(hash64(p.seed ^ kUserDraws, rank));
    chosen.clear();
    if (d * 4 <= I) {
      while (chosen.size() < d) {
        const double x = rng.unit() * wi_sum;
        std::uint64_t r = std::uint64_t(
            std::upper_bound(cumulative.begin(), cumulative.end(), x) - cumulative.begin());
        r = std::min(r, I - 1);
        if (taken[r] != rank + 1) {
          taken[r] = rank + 1;
          chosen.push_back(item_id[r]);
        }
      }
    } else {
      keys.resize(I);
      for (std::uint64_t r = 0; r < I; ++r) {
        const double u = std::max(rng.unit(), 1e-300);
        keys[r] = {std::log(u) / wi[r], std::uint32_t(r)};
      }
      std::nth_element(keys.begin(), keys.begin() + std::ptrdiff_t(d - 1), keys.end(),
                       [](const auto& a, const auto& b) {
                         return a.first > b.first || (a.first == b.first && a.second < b.second);
                       });
      for (std::uint64_t j = 0; j < d; ++j)
        chosen.push_back(item_id[keys[j].second]);
    }
    std::sort(chosen.begin(), chosen.end());
    for (const std::uint32_t item : chosen)
      set.add(std::uint32_t(id), item, model_rating(p.seed, std::uint32_t(id), item));
  }
  return set;
}

// ---- SGD -----------------------------------------------------------------

LatentFactors initial_factors(const RatingSet& set, const SgdParams& params) {
  LatentFactors f;
  f.k = params.k;
  double mean = 0;
  for (const float v : set.values)
    mean += v;
  mean = set.size() ? mean / double(set.size()) : 0;
  const double scale = params.k ? std::sqrt(std::max(mean, 0.0) / params.k) : 0;
  f.users.resize(std::uint64_t(set.num_users) * params.k);
  f.items.resize(std::uint64_t(set.num_items) * params.k);
  for (std::uint64_t j = 0; j < f.users.size(); ++j)
    f.users[j] = float(scale * (0.5 + unit(params.seed, kInitUsers, j)));
  for (std::uint64_t j = 0; j < f.items.size(); ++j)
    f.items[j] = float(scale * (0.5 + unit(params.seed, kInitItems, j)));
  return f;
}

Expected<LatentFactors> sgd_cpu(const RatingSet& set, const SgdParams& params) {
  if (params.k == 0)
    return Status::error("the latent length k must be at least 1");
  if (Status s = validate(set); !s.ok())
    return s;
  LatentFactors f = initial_factors(set, params);
  const std::uint64_t k = params.k;
  const float lr = params.learning_rate, lambda = params.lambda;
  for (std::uint32_t epoch = 0; epoch < params.epochs; ++epoch)
    for (std::uint64_t e = 0; e < set.size(); ++e) {
      float* pu = &f.users[set.users[e] * k];
      float* qi = &f.items[set.items[e] * k];
      float err = set.values[e];
      for (std::uint64_t j = 0; j < k; ++j)
        err -= pu[j] * qi[j];
      for (std::uint64_t j = 0; j < k; ++j) {
        const float p = pu[j], q = qi[j];
        pu[j] = p + lr * (err * q - lambda * p);
        qi[j] = q + lr * (err * p - lambda * q);
      }
    }
  return f;
}

double rmse(const RatingSet& set, const LatentFactors& f) {
  const std::uint64_t k = f.k;
  double sum = 0;
  for (std::uint64_t e = 0; e < set.size(); ++e) {
    const float* pu = &f.users[set.users[e] * k];
    const float* qi = &f.items[set.items[e] * k];
    float err = set.values[e];
    for (std::uint64_t j = 0; j < k; ++j)
      err -= pu[j] * qi[j];
    sum += double(err) * double(err);
  }
  return set.size() ? std::sqrt(sum / double(set.size())) : 0.0;
}

std::string factors_text(const LatentFactors& f) {
  const std::uint64_t k = f.k;
  const std::uint64_t users = k ? f.users.size() / k : 0, items = k ? f.items.size() / k : 0;
  std::string out = str_cat("k ", k, " users ", users, " items ", items, '\n');
  out.reserve(out.size() + (f.users.size() + f.items.size()) * 12 + (users + items) * 12);
  for (const auto& [rows, values, tag] :
       {std::tuple{users, &f.users, "u "}, std::tuple{items, &f.items, "i "}})
    for (std::uint64_t r = 0; r < rows; ++r) {
      out += tag;
      append_u64(out, r);
      for (std::uint64_t j = 0; j < k; ++j) {
        out += ' ';
        append_float(out, (*values)[r * k + j]);
      }
      out += '\n';
    }
  return out;
}

} // namespace dd::graph
