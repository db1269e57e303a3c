// Rating sets: the Matrix Market reader (values, ids, every class of bad
// input with its line, duplicates naming both lines), the writer's round
// trip, the generator (counts, no duplicate pairs, 1..5, determinism, the
// power-law shape of both sides) and the CPU SGD (the update rule by hand,
// the RMSE falling, the order of the ratings mattering by well under 1%).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "graph/random.h"
#include "graph/ratings.h"

namespace dd::graph {
namespace {

RatingSet parse_ok(std::string_view text) {
  Expected<RatingSet> set = parse_ratings(text, "r.mtx");
  EXPECT_TRUE(set.ok()) << set.status().message();
  if (!set.ok())
    return RatingSet();
  EXPECT_TRUE(validate(*set).ok()) << validate(*set).message();
  return std::move(set).value();
}

std::string parse_error(std::string_view text) {
  Expected<RatingSet> set = parse_ratings(text, "r.mtx");
  EXPECT_FALSE(set.ok()) << "parsing unexpectedly succeeded";
  return set.ok() ? std::string() : set.status().message();
}

constexpr const char* kHeader = "%%MatrixMarket matrix coordinate real general\n";

TEST(RatingsReader, ReadsUsersItemsAndValues) {
  const RatingSet set = parse_ok(std::string(kHeader) +
                                 "% a comment\n\n3 4 3\n1 1 5\n3 4 2.5\n2 2 -1e-1\n");
  EXPECT_EQ(set.num_users, 3u);
  EXPECT_EQ(set.num_items, 4u);
  ASSERT_EQ(set.size(), 3u);
  EXPECT_EQ(set.users, (std::vector<std::uint32_t>{0, 2, 1}));
  EXPECT_EQ(set.items, (std::vector<std::uint32_t>{0, 3, 1}));
  EXPECT_EQ(set.values, (std::vector<float>{5.0f, 2.5f, -0.1f}));
}

TEST(RatingsReader, IntegerFilesAreReal) {
  const RatingSet set =
      parse_ok("%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 4\n2 1 1\n");
  EXPECT_EQ(set.values, (std::vector<float>{4.0f, 1.0f}));
}

TEST(RatingsReader, Errors) {
  const std::string h = kHeader;
  EXPECT_EQ(parse_error(""), "r.mtx:1: empty file; expected the header "
                             "'%%MatrixMarket matrix coordinate real|integer general'");
  EXPECT_EQ(parse_error("1 1 1\n"), "r.mtx:1: missing the Matrix Market header "
                                    "'%%MatrixMarket matrix coordinate real|integer general'");
  EXPECT_EQ(parse_error("%%MatrixMarket matrix coordinate pattern general\n1 1 1\n1 1\n"),
            "r.mtx:1: a 'pattern' matrix has no ratings; expected real or integer");
  EXPECT_EQ(parse_error("%%MatrixMarket matrix coordinate real symmetric\n1 1 1\n1 1 1\n"),
            "r.mtx:1: symmetry 'symmetric' is not supported: ratings are users x items, "
            "'general'");
  EXPECT_EQ(parse_error("%%MatrixMarket matrix array real general\n1 1\n1\n"),
            "r.mtx:1: format 'array' is not 'coordinate' (a rating set is sparse)");
  EXPECT_EQ(parse_error(h), "r.mtx:1: end of file before the size line 'USERS ITEMS RATINGS'");
  EXPECT_EQ(parse_error(h + "2 2\n"), "r.mtx:2: expected the size line 'USERS ITEMS RATINGS'");
  EXPECT_EQ(parse_error(h + "2 2 5\n1 1 1\n2 2 1\n1 2 1\n2 1 1\n1 1 1\n"),
            "r.mtx:2: 5 ratings cannot fit 2 users x 2 items without a pair twice");
  EXPECT_EQ(parse_error(h + "2 2 2\n1 1\n"), "r.mtx:3: expected a rating 'USER ITEM VALUE'");
  EXPECT_EQ(parse_error(h + "2 2 2\n3 1 1\n"), "r.mtx:3: user id 3 is out of range [1, 2] (the header declares 2 vertices)");
  EXPECT_EQ(parse_error(h + "2 2 2\n1 0 1\n"), "r.mtx:3: item id 0 is below the first id 1 (ids are 1-based here)");
  EXPECT_EQ(parse_error(h + "2 2 2\n1 1 four\n"), "r.mtx:3: rating 'four' is not a number");
  EXPECT_EQ(parse_error(h + "2 2 2\n1 1 nan\n"), "r.mtx:3: rating 'nan' is not a number");
  EXPECT_EQ(parse_error(h + "2 2 2\n1 1 1e39\n"), "r.mtx:3: rating '1e39' does not fit in float");
  EXPECT_EQ(parse_error(h + "2 2 1\n1 1 1\n2 2 1\n"),
            "r.mtx:4: more ratings than the 1 declared on line 2");
  EXPECT_EQ(parse_error(h + "2 2 3\n1 1 1\n"),
            "r.mtx:2: the size line declares 3 ratings but the file has 1");
  EXPECT_EQ(parse_error(h + "2 3 3\n1 1 1\n% between\n2 3 1\n1 1 4\n"),
            "r.mtx:6: user 1 rates item 1 a second time (first on line 3)");
}

TEST(RatingsReader, ErrorsOfIds) {
  // The id messages come from the graph readers' parse_vertex().
  EXPECT_EQ(parse_error(std::string(kHeader) + "2 2 1\nx 1 1\n"),
            "r.mtx:3: user id 'x' is not a non-negative integer");
}

TEST(RatingsWriter, RoundTrips) {
  RatingSet set;
  set.num_users = 3;
  set.num_items = 2;
  set.add(2, 1, 4.0f);
  set.add(0, 0, 0.1f);
  set.add(1, 1, 3.25f);
  Expected<std::string> text = ratings_text(set, "two\nlines");
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(*text, std::string(kHeader) + "% two\n% lines\n3 2 3\n3 2 4\n1 1 0.1\n2 2 3.25\n");
  const RatingSet back = parse_ok(*text);
  EXPECT_EQ(back.users, set.users);
  EXPECT_EQ(back.items, set.items);
  EXPECT_EQ(back.values, set.values);
}

TEST(RatingsWriter, RefusesAnInvalidSet) {
  RatingSet set;
  set.num_users = 2;
  set.num_items = 2;
  set.add(0, 1, 1.0f);
  set.add(0, 1, 2.0f);
  Expected<std::string> text = ratings_text(set);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(), "ratings 0 and 1 both rate item 1 by user 0");
  set.items[1] = 2;
  EXPECT_EQ(validate(set).message(), "rating 1: item 2 out of range (2 items)");
}

RatingSet generate_ok(const RatingParams& p) {
  Expected<RatingSet> set = generate_ratings(p);
  EXPECT_TRUE(set.ok()) << set.status().message();
  if (!set.ok())
    return RatingSet();
  EXPECT_TRUE(validate(*set).ok()) << validate(*set).message();  // no pair twice
  return std::move(set).value();
}

std::vector<std::uint64_t> sorted_degrees(const std::vector<std::uint32_t>& ids, std::uint64_t n) {
  std::vector<std::uint64_t> d(n, 0);
  for (const std::uint32_t id : ids)
    ++d[id];
  std::sort(d.begin(), d.end());
  return d;
}

TEST(RatingsGenerator, CountsValuesAndDeterminism) {
  for (const RatingShape shape : {RatingShape::kNetflix, RatingShape::kMovieLens}) {
    RatingParams p;
    p.num_users = 3000;
    p.num_items = 400;
    p.num_ratings = 60000;
    p.shape = shape;
    p.seed = 7;
    const RatingSet a = generate_ok(p);
    EXPECT_EQ(a.num_users, 3000u);
    EXPECT_EQ(a.num_items, 400u);
    EXPECT_EQ(a.size(), 60000u);
    std::set<float> values(a.values.begin(), a.values.end());
    EXPECT_EQ(values, (std::set<float>{1, 2, 3, 4, 5}));
    const RatingSet b = generate_ok(p);
    EXPECT_EQ(a.users, b.users);
    EXPECT_EQ(a.items, b.items);
    EXPECT_EQ(a.values, b.values);
    p.seed = 8;
    EXPECT_NE(generate_ok(p).items, a.items);
  }
}

TEST(RatingsGenerator, PowerLawOnBothSides) {
  // Netflix's shape: a few very active users and very popular items, a long
  // tail of rarely rated items (median item far below the mean).
  RatingParams p;
  p.num_users = 20000;
  p.num_items = 2000;
  p.num_ratings = 400000;
  const RatingSet set = generate_ok(p);
  const std::vector<std::uint64_t> users = sorted_degrees(set.users, p.num_users);
  const std::vector<std::uint64_t> items = sorted_degrees(set.items, p.num_items);
  const double user_mean = 20.0, item_mean = 200.0;
  EXPECT_GT(users.back(), 30 * user_mean);
  EXPECT_LT(users[users.size() / 2], 0.6 * user_mean);
  EXPECT_GT(items.back(), 10 * item_mean);
  EXPECT_LT(items[items.size() / 2], 0.4 * item_mean);
  // Ids are permuted: the most active user is not user 0.
  std::vector<std::uint64_t> by_id(p.num_users, 0);
  for (const std::uint32_t u : set.users)
    ++by_id[u];
  EXPECT_NE(std::max_element(by_id.begin(), by_id.end()) - by_id.begin(), 0);
}

TEST(RatingsGenerator, DenseAndErrors) {
  RatingParams p;
  p.num_users = 5;
  p.num_items = 4;
  p.num_ratings = 20;  // every pair
  EXPECT_EQ(generate_ok(p).size(), 20u);
  p.num_ratings = 21;
  EXPECT_EQ(generate_ratings(p).status().message(),
            "21 ratings cannot fit 5 users x 4 items without a pair twice");
  p.num_ratings = 0;
  EXPECT_FALSE(generate_ratings(p).ok());
}

TEST(Sgd, OneUpdateByHand) {
  RatingSet set;
  set.num_users = 1;
  set.num_items = 1;
  set.add(0, 0, 4.0f);
  SgdParams params;
  params.k = 2;
  params.epochs = 1;
  params.learning_rate = 0.1f;
  params.lambda = 0.5f;
  const LatentFactors init = initial_factors(set, params);
  ASSERT_EQ(init.users.size(), 2u);
  // s = sqrt(4 / 2); every value in [0.5 s, 1.5 s).
  for (const float v : init.users)
    EXPECT_TRUE(v >= 0.5f * std::sqrt(2.0f) && v < 1.5f * std::sqrt(2.0f));
  const float p0 = init.users[0], p1 = init.users[1], q0 = init.items[0], q1 = init.items[1];
  float err = 4.0f;
  err -= p0 * q0;
  err -= p1 * q1;
  Expected<LatentFactors> f = sgd_cpu(set, params);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_FLOAT_EQ(f->users[0], p0 + 0.1f * (err * q0 - 0.5f * p0));
  EXPECT_FLOAT_EQ(f->items[1], q1 + 0.1f * (err * p1 - 0.5f * q1));
  const float e2 = 4.0f - (f->users[0] * f->items[0] + f->users[1] * f->items[1]);
  EXPECT_NEAR(rmse(set, *f), std::fabs(e2), 1e-6);
  params.k = 0;
  EXPECT_EQ(sgd_cpu(set, params).status().message(), "the latent length k must be at least 1");
}

TEST(Sgd, TrainsAndOrderMattersLittle) {
  RatingParams p;
  p.num_users = 4000;
  p.num_items = 500;
  p.num_ratings = 100000;
  p.shape = RatingShape::kMovieLens;
  const RatingSet set = generate_ok(p);
  SgdParams params;  // the defaults dd-sgd uses
  Expected<LatentFactors> f = sgd_cpu(set, params);
  ASSERT_TRUE(f.ok());
  const double trained = rmse(set, *f);
  EXPECT_LT(trained, 0.85 * rmse(set, initial_factors(set, params)));
  // The same ratings in another order (what a GPU epoch amounts to): the
  // RMSE moves by far less than dd-sgd --verify's 1%.
  RatingSet shuffled = set;
  Xoshiro256 rng(3);
  for (std::uint64_t i = shuffled.size(); i > 1; --i) {
    const std::uint64_t j = rng.below(i);
    std::swap(shuffled.users[i - 1], shuffled.users[j]);
    std::swap(shuffled.items[i - 1], shuffled.items[j]);
    std::swap(shuffled.values[i - 1], shuffled.values[j]);
  }
  Expected<LatentFactors> g = sgd_cpu(shuffled, params);
  ASSERT_TRUE(g.ok());
  EXPECT_NEAR(rmse(shuffled, *g), trained, 0.003 * trained);
}

TEST(Sgd, FactorsText) {
  LatentFactors f;
  f.k = 2;
  f.users = {1.5f, -0.25f};
  f.items = {0.1f, 2.0f, 3.0f, 4.0f};
  EXPECT_EQ(factors_text(f), "k 2 users 1 items 2\nu 0 1.5 -0.25\ni 0 0.1 2\ni 1 3 4\n");
}

} // namespace
} // namespace dd::graph
