// Readers on small inline inputs, format detection, and .gr round trips.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

#include "GraphTestUtil.h"
#include "graph/edge_list.h"
#include "graph/file.h"
#include "graph/format.h"
#include "graph/graph_io.h"

namespace dd::graph {
namespace {

using test::edge_pairs;
using test::parse_ok;
using Pairs = std::vector<std::pair<VertexId, VertexId>>;

// ---- edge lists and SNAP -------------------------------------------------

TEST(EdgeListReader, ZeroBasedUnweighted) {
  const Csr g = parse_ok("0 1\n0 2\n2 1\n", "g.el");
  EXPECT_EQ(g.num_vertices(), 3u);
  EXPECT_EQ(g.num_edges(), 3u);
  EXPECT_EQ(g.weight_type, WeightType::kNone);
  EXPECT_EQ(edge_pairs(g), (Pairs{{0, 1}, {0, 2}, {2, 1}}));
}

TEST(EdgeListReader, VertexCountIsLargestIdPlusOne) {
  const Csr g = parse_ok("5 2\n", "g.txt");
  EXPECT_EQ(g.num_vertices(), 6u);
  EXPECT_EQ(g.degree(5), 1u);
  EXPECT_EQ(g.degree(0), 0u);
}

TEST(EdgeListReader, OneBasedWithOption) {
  ReadOptions options;
  options.index_base = 1;
  const Csr g = parse_ok("1 2\n3 1\n", "g.el", options);
  EXPECT_EQ(g.num_vertices(), 3u);
  EXPECT_EQ(edge_pairs(g), (Pairs{{0, 1}, {2, 0}}));
}

TEST(EdgeListReader, IntegerWeights) {
  const Csr g = parse_ok("0 1 7\n1 2 0\n", "g.wel");
  ASSERT_EQ(g.weight_type, WeightType::kInt32);
  EXPECT_EQ(g.int_weights, (std::vector<std::int32_t>{7, 0}));
}

TEST(EdgeListReader, AnyFractionalWeightMakesAllFloat) {
  const Csr g = parse_ok("0 1 3\n1 2 0.5\n2 0 1e1\n", "g.wel");
  ASSERT_EQ(g.weight_type, WeightType::kFloat32);
  EXPECT_EQ(g.float_weights, (std::vector<float>{3.0f, 0.5f, 10.0f}));
}

TEST(EdgeListReader, CommentsBlankLinesTabsAndCrlf) {
  const Csr g = parse_ok("# SNAP header\r\n% konect\r\n\r\n0\t1\r\n  1 0  \r\n", "g.txt");
  EXPECT_EQ(edge_pairs(g), (Pairs{{0, 1}, {1, 0}}));
}

TEST(EdgeListReader, Utf8ByteOrderMarkIsSkipped) {
  const Csr g = parse_ok("\xEF\xBB\xBF# written by a Windows tool\n0 1\n", "bom.txt");
  EXPECT_EQ(g.num_edges(), 1u);
  const Csr m = parse_ok("\xEF\xBB\xBF%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n",
                         "bom.mtx");
  EXPECT_EQ(m.num_edges(), 1u);
}

TEST(EdgeListReader, LastLineWithoutNewline) {
  const Csr g = parse_ok("0 1\n1 2", "g.el");
  EXPECT_EQ(g.num_edges(), 2u);
}

TEST(EdgeListReader, SelfLoopsAndDuplicatesAreKept) {
  const Csr g = parse_ok("0 0\n0 1\n0 1\n", "g.el");
  EXPECT_EQ(edge_pairs(g), (Pairs{{0, 0}, {0, 1}, {0, 1}}));
}

TEST(EdgeListReader, SymmetrizeAddsReversesButNotForSelfLoops) {
  ReadOptions options;
  options.symmetrize = true;
  const Csr g = parse_ok("0 1 4\n1 1 2\n", "g.el", options);
  EXPECT_EQ(edge_pairs(g), (Pairs{{0, 1}, {1, 0}, {1, 1}}));
  EXPECT_EQ(g.int_weights, (std::vector<std::int32_t>{4, 4, 2}));
}

TEST(EdgeListReader, EmptyInputIsAnEmptyGraph) {
  const Csr g = parse_ok("# nothing\n", "g.snap");
  EXPECT_EQ(g.num_vertices(), 0u);
  EXPECT_EQ(g.num_edges(), 0u);
}

TEST(EdgeListReader, KeepsFileOrderWithinARow) {
  const Csr g = parse_ok("1 3\n0 2\n1 0\n1 2\n", "g.el");
  EXPECT_EQ(edge_pairs(g), (Pairs{{0, 2}, {1, 3}, {1, 0}, {1, 2}}));
}

// ---- DIMACS --------------------------------------------------------------

constexpr const char* kDimacs =
    "c 9th DIMACS challenge style\n"
    "p sp 4 5\n"
    "c arcs\n"
    "a 1 2 10\n"
    "a 2 3 20\n"
    "a 1 3 35\n"
    "a 3 4 1\n"
    "a 4 4 0\n";

TEST(DimacsReader, ReadsProblemAndArcs) {
  const Csr g = parse_ok(kDimacs, "road.gr");
  EXPECT_EQ(g.num_vertices(), 4u);
  EXPECT_EQ(g.num_edges(), 5u);
  ASSERT_EQ(g.weight_type, WeightType::kInt32);
  EXPECT_EQ(edge_pairs(g), (Pairs{{0, 1}, {0, 2}, {1, 2}, {2, 3}, {3, 3}}));
  EXPECT_EQ(g.int_weights, (std::vector<std::int32_t>{10, 35, 20, 1, 0}));
}

TEST(DimacsReader, IsolatedVerticesFromTheHeader) {
  const Csr g = parse_ok("p sp 10 1\na 1 2 3\n", "x.gr");
  EXPECT_EQ(g.num_vertices(), 10u);
}

// ---- Matrix Market -------------------------------------------------------

TEST(MatrixMarketReader, PatternGeneral) {
  const Csr g = parse_ok(
      "%%MatrixMarket matrix coordinate pattern general\n% comment\n3 3 3\n1 2\n2 3\n3 1\n",
      "g.mtx");
  EXPECT_EQ(g.num_vertices(), 3u);
  EXPECT_EQ(g.weight_type, WeightType::kNone);
  EXPECT_EQ(edge_pairs(g), (Pairs{{0, 1}, {1, 2}, {2, 0}}));
}

TEST(MatrixMarketReader, SymmetricExpandsBothDirectionsDiagonalOnce) {
  const Csr g = parse_ok(
      "%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n2 1 5\n3 3 7\n3 1 9\n", "s.mtx");
  EXPECT_EQ(g.num_edges(), 5u);
  EXPECT_EQ(edge_pairs(g), (Pairs{{0, 1}, {0, 2}, {1, 0}, {2, 2}, {2, 0}}));
  EXPECT_EQ(g.int_weights, (std::vector<std::int32_t>{5, 9, 5, 7, 9}));
}

TEST(MatrixMarketReader, RealGivesFloatWeights) {
  const Csr g =
      parse_ok("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 0.25\n2 1 3\n", "r.mtx");
  ASSERT_EQ(g.weight_type, WeightType::kFloat32);
  EXPECT_EQ(g.float_weights, (std::vector<float>{0.25f, 3.0f}));
}

TEST(MatrixMarketReader, BannerIsCaseInsensitive) {
  const Csr g = parse_ok("%%matrixmarket MATRIX Coordinate Pattern SYMMETRIC\n2 2 1\n2 1\n", "c.mtx");
  EXPECT_EQ(g.num_edges(), 2u);
}

TEST(MatrixMarketReader, EmptyMatrix) {
  const Csr g = parse_ok("%%MatrixMarket matrix coordinate pattern general\n5 5 0\n", "e.mtx");
  EXPECT_EQ(g.num_vertices(), 5u);
  EXPECT_EQ(g.num_edges(), 0u);
}

// ---- detection ---------------------------------------------------------

Format detect(std::string_view data, std::string_view name) {
  Expected<Format> f = detect_format(data, name);
  EXPECT_TRUE(f.ok()) << f.status().message();
  return f.ok() ? *f : Format::kAuto;
}

TEST(FormatDetection, ContentDecidesFirst) {
  EXPECT_EQ(detect("%%MatrixMarket matrix coordinate pattern general\n", "x.txt"),
            Format::kMatrixMarket);
  EXPECT_EQ(detect("c hi\np sp 1 0\n", "x.mtx"), Format::kDimacs);
  EXPECT_EQ(detect("p sp 1 0\n", "x"), Format::kDimacs);
  EXPECT_EQ(detect("# snap\n0 1\n", "x.gr"), Format::kSnap);
  EXPECT_EQ(detect("\n\n0 1\n", "x"), Format::kEdgeList);
  EXPECT_EQ(detect(std::string("\x01\0\0\0\0\0\0\0", 8), "x.txt"), Format::kGaloisGr);
}

TEST(FormatDetection, ExtensionDecidesWhenContentDoesNot) {
  EXPECT_EQ(detect("", "x.gr"), Format::kGaloisGr);
  EXPECT_EQ(detect("garbage\n", "x.gr"), Format::kDimacs);
  EXPECT_EQ(detect("", "x.MTX"), Format::kMatrixMarket);
  EXPECT_EQ(detect("%comment only\n", "dir.v2/x.mm"), Format::kMatrixMarket);
  EXPECT_EQ(detect("", "x.edges"), Format::kEdgeList);
  EXPECT_EQ(detect("% konect\n1 2\n", "out.konect"), Format::kEdgeList);
}

TEST(FormatDetection, UnknownAndCompressedAreErrors) {
  Expected<Format> f = detect_format("hello world\n", "notes.doc");
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("notes.doc: cannot tell the graph format"), std::string::npos)
      << f.status().message();
  Expected<Format> z = detect_format(std::string("\x1f\x8b\x08\0", 4), "g.mtx.gz");
  ASSERT_FALSE(z.ok());
  EXPECT_NE(z.status().message().find("g.mtx.gz: is gzip-compressed"), std::string::npos);
}

TEST(FormatDetection, FormatOptionOverridesDetection) {
  ReadOptions options;
  options.format = Format::kEdgeList;
  // "c"-less DIMACS-looking data read as an edge list on request.
  const Csr g = parse_ok("1 2\n", "x.gr", options);
  EXPECT_EQ(g.num_edges(), 1u);
  Format used = Format::kAuto;
  ASSERT_TRUE(parse_graph("p sp 2 0\n", "y", {}, &used).ok());
  EXPECT_EQ(used, Format::kDimacs);
}

TEST(FormatNames, ParseAndPrint) {
  for (Format f : {Format::kAuto, Format::kGaloisGr, Format::kDimacs, Format::kMatrixMarket,
                   Format::kSnap, Format::kEdgeList})
    EXPECT_EQ(parse_format(format_name(f)), f);
  EXPECT_EQ(parse_format("MatrixMarket"), Format::kMatrixMarket);
  EXPECT_EQ(parse_format("galois"), Format::kGaloisGr);
  EXPECT_FALSE(parse_format("csv").has_value());
}

// ---- Galois .gr ----------------------------------------------------------

Csr small_graph(WeightType type) {
  Csr g;
  g.row_offsets = {0, 2, 2, 5};
  g.col_indices = {1, 2, 0, 0, 2};  // odd edge count: exercises the padding
  g.weight_type = type;
  if (type == WeightType::kInt32)
    g.int_weights = {5, 0, 255, 7, 1};
  if (type == WeightType::kFloat32)
    g.float_weights = {0.5f, 0.0f, 2.25f, 1e-3f, 1e30f};
  return g;
}

TEST(GaloisGr, LayoutMatchesGalois) {
  const Csr g = small_graph(WeightType::kInt32);
  Expected<std::string> bytes = gr_bytes(g);
  ASSERT_TRUE(bytes.ok());
  // 32 header + 3 * 8 out-index + 5 * 4 destinations + 4 padding + 5 * 4 data.
  ASSERT_EQ(bytes->size(), 32u + 24 + 20 + 4 + 20);
  auto u64 = [&](std::size_t at) {
    std::uint64_t v;
    std::memcpy(&v, bytes->data() + at, 8);
    return v;
  };
  auto u32 = [&](std::size_t at) {
    std::uint32_t v;
    std::memcpy(&v, bytes->data() + at, 4);
    return v;
  };
  EXPECT_EQ(u64(0), 1u);   // version
  EXPECT_EQ(u64(8), 4u);   // sizeof edge data
  EXPECT_EQ(u64(16), 3u);  // nodes
  EXPECT_EQ(u64(24), 5u);  // edges
  EXPECT_EQ(u64(32), 2u);  // out-index holds end offsets
  EXPECT_EQ(u64(40), 2u);
  EXPECT_EQ(u64(48), 5u);
  EXPECT_EQ(u32(56), 1u);  // first destination
  EXPECT_EQ(u32(72), 2u);  // last destination
  EXPECT_EQ(u32(76), 0u);  // padding
  EXPECT_EQ(u32(80), 5u);  // first weight
  EXPECT_EQ(u32(96), 1u);  // last weight
}

TEST(GaloisGr, RoundTripAllWeightTypes) {
  for (WeightType type : {WeightType::kNone, WeightType::kInt32, WeightType::kFloat32}) {
    SCOPED_TRACE(weight_type_name(type));
    const Csr g = small_graph(type);
    Expected<std::string> bytes = gr_bytes(g);
    ASSERT_TRUE(bytes.ok());
    ReadOptions options;
    options.gr_weight_type = type == WeightType::kFloat32 ? WeightType::kFloat32 : WeightType::kInt32;
    const Csr back = parse_ok(*bytes, "rt.gr", options);
    EXPECT_EQ(back, g);
  }
}

TEST(GaloisGr, RoundTripEvenEdgeCountAndEmptyGraphs) {
  Csr even;
  even.row_offsets = {0, 1, 2};
  even.col_indices = {1, 0};
  Expected<std::string> bytes = gr_bytes(even);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(bytes->size(), 32u + 16 + 8);  // no padding
  EXPECT_EQ(parse_ok(*bytes, "even.gr"), even);

  const Csr empty;
  Expected<std::string> empty_bytes = gr_bytes(empty);
  ASSERT_TRUE(empty_bytes.ok());
  EXPECT_EQ(empty_bytes->size(), 32u);
  EXPECT_EQ(parse_ok(*empty_bytes, "empty.gr"), empty);
}

TEST(GaloisGr, WriteGrIsAtomicAndReadable) {
  char dir_template[] = "/tmp/dd-graph-test-XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  const std::string path = dir + "/g.gr";
  const Csr g = small_graph(WeightType::kInt32);
  ASSERT_TRUE(write_gr(g, path).ok());
  Expected<Csr> back = read_graph(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, g);

  // An invalid graph is refused, and the old file stays as it was.
  Csr bad = g;
  bad.col_indices[0] = 99;
  const Status s = write_gr(bad, path);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(path), std::string::npos);
  Expected<Csr> still = read_graph(path);
  ASSERT_TRUE(still.ok());
  EXPECT_EQ(*still, g);

  // Writing into a missing directory fails with the path in the message.
  const Status missing = write_gr(g, dir + "/no/such/dir/g.gr");
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("no/such/dir/g.gr"), std::string::npos);

  std::remove(path.c_str());
  ::rmdir(dir.c_str());
}

TEST(GaloisGr, TextFormatsRoundTripThroughGr) {
  const Csr from_text = parse_ok(kDimacs, "road.gr");
  Expected<std::string> bytes = gr_bytes(from_text);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(parse_ok(*bytes, "road-bin.gr"), from_text);
}

TEST(ReadGraph, MissingFileNamesThePath) {
  Expected<Csr> g = read_graph("/nonexistent/dir/graph.mtx");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().message().rfind("/nonexistent/dir/graph.mtx: cannot open", 0), 0u)
      << g.status().message();
  Expected<Csr> dir = read_graph("/tmp");
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("is a directory"), std::string::npos);
}

// ---- CSR helpers ---------------------------------------------------------

TEST(Csr, ValidateNamesTheProblem) {
  EXPECT_TRUE(validate(small_graph(WeightType::kInt32)).ok());
  Csr g = small_graph(WeightType::kInt32);
  g.row_offsets[2] = 1;
  EXPECT_NE(validate(g).message().find("vertex 1: row_offsets decrease"), std::string::npos)
      << validate(g).message();
  g = small_graph(WeightType::kInt32);
  g.int_weights[3] = -1;
  EXPECT_NE(validate(g).message().find("edge 3: negative weight -1"), std::string::npos);
  g = small_graph(WeightType::kFloat32);
  g.float_weights.pop_back();
  EXPECT_FALSE(validate(g).ok());
  g = small_graph(WeightType::kNone);
  g.row_offsets.back() = 4;
  EXPECT_FALSE(validate(g).ok());
}

TEST(Csr, NarrowRowOffsets) {
  Expected<std::vector<std::uint32_t>> narrow = narrow_row_offsets(small_graph(WeightType::kNone));
  ASSERT_TRUE(narrow.ok());
  EXPECT_EQ(*narrow, (std::vector<std::uint32_t>{0, 2, 2, 5}));
}

TEST(Csr, BuildCsrRejectsOutOfRangeIds) {
  EdgeList edges;
  edges.add(0, 5);
  Expected<Csr> g = build_csr(edges, 3, false);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("out of range"), std::string::npos);
}

TEST(Csr, SymmetrizeKeepsWeights) {
  Expected<Csr> sym = symmetrize(small_graph(WeightType::kInt32));
  ASSERT_TRUE(sym.ok());
  // 5 edges, one self loop (2, 2): 4 reverses added.
  EXPECT_EQ(sym->num_edges(), 9u);
  EXPECT_TRUE(validate(*sym).ok());
}

} // namespace
} // namespace dd::graph
