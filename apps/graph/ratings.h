// Rating sets (a bipartite users x items graph whose edges carry a rating),
// their Matrix Market reader and writer, a generator of rating sets with
// power-law degrees on both sides, and the sequential matrix-factorization
// SGD that the GPU versions (apps/sgd, dd-sgd) are checked against.
//
//   auto set = dd::graph::read_ratings("ml.mtx");
//   if (!set.ok()) { std::fprintf(stderr, "%s\n", set.status().message().c_str()); ... }
//   for (std::uint64_t e = 0; e < set->size(); ++e)
//     ... set->users[e], set->items[e], set->values[e] ...
//
// Matrix Market as read here (docs/graphs.md, "Rating sets"):
//   %%MatrixMarket matrix coordinate <real|integer> general
//   % comments
//   <users> <items> <ratings>
//   <user> <item> <value>     1-based; rows are users, columns are items
// Values are finite floats (integer files are read as real). A (user, item)
// pair may occur once: a duplicate is an error naming both lines. Errors are
// "FILE:LINE: message" as for the graph formats.
#ifndef DD_GRAPH_RATINGS_H
#define DD_GRAPH_RATINGS_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graph/errors.h"
#include "graph/graph_io.h"

namespace dd::graph {

/// The most ratings a set may have: GPU kernels index them with 32 bits.
inline constexpr std::uint64_t kMaxRatings = 0xffffffffull;

/// Ratings as parallel arrays, in file (or generation) order, 0-based ids.
struct RatingSet {
  std::uint32_t num_users = 0;
  std::uint32_t num_items = 0;
  std::vector<std::uint32_t> users;
  std::vector<std::uint32_t> items;
  std::vector<float> values;

  std::uint64_t size() const { return users.size(); }
  void reserve(std::uint64_t n) {
    users.reserve(n);
    items.reserve(n);
    values.reserve(n);
  }
  void add(std::uint32_t user, std::uint32_t item, float value) {
    users.push_back(user);
    items.push_back(item);
    values.push_back(value);
  }
};

/// Checks a RatingSet: equal array lengths, ids in range, finite values, at
/// most kMaxRatings, no (user, item) pair twice. The message names the first
/// problem.
Status validate(const RatingSet& set);

/// Parses `data` as a Matrix Market rating file called `name` (in messages).
/// options.max_vertices bounds users and items each.
Expected<RatingSet> parse_ratings(std::string_view data, std::string_view name,
                                  const ReadOptions& options = {});

/// Reads the Matrix Market rating file `path` (options.max_stream_bytes
/// bounds a stream, as for read_graph()).
Expected<RatingSet> read_ratings(const std::string& path, const ReadOptions& options = {});

/// The Matrix Market text of `set`: each line of `comment` as a "%" line
/// after the banner, the size line, then one "user item value" line per
/// rating in order, 1-based, values in the shortest form that reads back
/// exactly.
Expected<std::string> ratings_text(const RatingSet& set, std::string_view comment = {});

/// Writes ratings_text() to `path` (an OutputFile, file.h).
Status write_ratings(const RatingSet& set, const std::string& path,
                     std::string_view comment = {});

/// The degree shape of generated rating sets (generate_ratings()).
enum class RatingShape { kNetflix, kMovieLens };

/// The weight of the user or item of rank r (0-based) among n is
/// (r / n + offset)^-exponent: a Zipf-Mandelbrot law whose offset is a
/// fraction of n, so the shape (top/mean and median/mean degree) does not
/// change when a set is scaled down.
struct ZipfSide {
  double exponent;
  double offset;
};

/// The two sides of a shape (the values and their fit in docs/graphs.md).
ZipfSide user_side(RatingShape shape);
ZipfSide item_side(RatingShape shape);

struct RatingParams {
  std::uint64_t num_users = 48000;
  std::uint64_t num_items = 1770;
  std::uint64_t num_ratings = 1000000;
  RatingShape shape = RatingShape::kNetflix;
  std::uint64_t seed = 1;
};

/// A rating set with power-law degrees on both sides. User u of rank r gets
/// round(R * w_user(r) / sum) ratings (largest remainders, at most
/// num_items); its items are drawn by item weight without replacement; ranks
/// are mapped to ids by a random permutation per side. Ratings are in user
/// order, items ascending within a user; values are integers in 1..5 from a
/// hidden model (a global mean, a user and an item bias, a two-factor
/// interaction and noise), so that SGD has something to learn. Errors when
/// a count is 0, above kMaxVertices / kMaxRatings, or R > users * items.
/// Deterministic for the parameters on every platform.
Expected<RatingSet> generate_ratings(const RatingParams& params);

/// Matrix-factorization SGD settings, shared by the CPU reference and the
/// GPU versions.
struct SgdParams {
  std::uint32_t k = 16;          ///< latent vector length
  float learning_rate = 0.005f;  ///< step size
  float lambda = 0.05f;          ///< L2 regularization
  std::uint32_t epochs = 10;
  std::uint64_t seed = 1;        ///< of the initial vectors
};

/// Latent vectors: users * k and items * k floats, row-major.
struct LatentFactors {
  std::uint32_t k = 0;
  std::vector<float> users;
  std::vector<float> items;
};

/// The initial vectors: element j of user u is
/// s * (0.5 + unit(hash64(seed, u * k + j))) (items with a second stream),
/// s = sqrt(mean rating / k), so that a first prediction is about the mean.
LatentFactors initial_factors(const RatingSet& set, const SgdParams& params);

/// The update of one rating (user vector p, item vector q, value r), the
/// same on the CPU and the GPU:
///   err = r - sum_j p[j] * q[j]                   (summed in order of j)
///   p[j] += lr * (err * q[j] - lambda * p[j])     for every j, with the
///   q[j] += lr * (err * p[j] - lambda * q[j])     old p[j] and q[j]
/// sgd_cpu() runs it for every rating in order, `epochs` times, from
/// initial_factors(). Errors on k = 0 or an invalid set.
Expected<LatentFactors> sgd_cpu(const RatingSet& set, const SgdParams& params);

/// sqrt(mean over ratings of (r - p_u . q_i)^2), accumulated in double.
/// factors must match the set (k > 0, sizes users * k and items * k).
double rmse(const RatingSet& set, const LatentFactors& factors);

/// The text of --out: a line "k K users U items I", then one line per user
/// "u ID v0 v1 ..." and per item "i ID v0 v1 ...", ids 0-based, values in
/// the shortest form that reads back exactly.
std::string factors_text(const LatentFactors& factors);

} // namespace dd::graph

#endif // DD_GRAPH_RATINGS_H
