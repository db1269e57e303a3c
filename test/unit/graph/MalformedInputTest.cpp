// Every class of bad input gives an error naming the file and the line (text)
// or byte offset (binary) -- never a crash, never a partial graph.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "GraphTestUtil.h"
#include "graph/graph_io.h"

namespace dd::graph {
namespace {

using test::parse_error;

// Expects parsing to fail with a message starting with `prefix` (the file and
// location) and containing `detail`.
void expect_error(std::string_view text, std::string_view name, const std::string& prefix,
                  const std::string& detail, ReadOptions options = {}) {
  const std::string message = parse_error(text, name, options);
  EXPECT_EQ(message.rfind(prefix, 0), 0u) << "message: " << message << "\nwanted prefix: " << prefix;
  EXPECT_NE(message.find(detail), std::string::npos) << "message: " << message
                                                     << "\nwanted: " << detail;
}

// ---- Galois .gr ----------------------------------------------------------

std::string gr_header(std::uint64_t version, std::uint64_t edge_bytes, std::uint64_t n,
                      std::uint64_t m) {
  std::string out(32, '\0');
  const std::uint64_t fields[4] = {version, edge_bytes, n, m};
  std::memcpy(out.data(), fields, 32);
  return out;
}

template <typename T>
void append(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// A valid 2-vertex, 3-edge weighted graph: 0 -> 1, 1 -> 0, 1 -> 1. Layout:
// header 0..31, out-index 32 and 40, destinations 48, 52, 56, padding 60,
// weights 64, 68, 72; 76 bytes.
std::string valid_gr() {
  std::string s = gr_header(1, 4, 2, 3);
  append<std::uint64_t>(s, 1);
  append<std::uint64_t>(s, 3);
  append<std::uint32_t>(s, 1);
  append<std::uint32_t>(s, 0);
  append<std::uint32_t>(s, 1);
  append<std::uint32_t>(s, 0);  // padding
  append<std::int32_t>(s, 4);
  append<std::int32_t>(s, 5);
  append<std::int32_t>(s, 6);
  return s;
}

TEST(MalformedGr, ValidBaselineParses) {
  const Csr g = test::parse_ok(valid_gr(), "ok.gr");
  EXPECT_EQ(g.num_edges(), 3u);
}

TEST(MalformedGr, TruncatedHeader) {
  expect_error(valid_gr().substr(0, 20), "t.gr", "t.gr: offset 20: ", "truncated header");
}

TEST(MalformedGr, TruncatedAnywhereIsAnError) {
  const std::string full = valid_gr();
  for (std::size_t len = 0; len < full.size(); ++len) {
    SCOPED_TRACE(len);
    const std::string message = parse_error(full.substr(0, len), "cut.gr");
    EXPECT_EQ(message.rfind("cut.gr: offset " + std::to_string(len) + ": ", 0), 0u) << message;
    EXPECT_NE(message.find("truncated"), std::string::npos) << message;
  }
}

TEST(MalformedGr, WrongVersion) {
  std::string s = valid_gr();
  s[0] = 2;
  expect_error(s, "v2.gr", "v2.gr: offset 0: ", "unsupported .gr version 2");
}

TEST(MalformedGr, UnsupportedEdgeDataSize) {
  std::string s = valid_gr();
  s[8] = 8;
  expect_error(s, "e8.gr", "e8.gr: offset 8: ", "edge data of 8 bytes");
}

TEST(MalformedGr, HugeVertexCountIsAnErrorNotAnAllocation) {
  // 2^60 vertices: far beyond 32-bit ids; must not try to allocate.
  expect_error(gr_header(1, 0, std::uint64_t{1} << 60, 0), "huge.gr", "huge.gr: offset 16: ",
               "vertices");
  // 2^31 vertices fit 32-bit ids but not this 32-byte file.
  expect_error(gr_header(1, 0, std::uint64_t{1} << 31, 0), "big.gr", "big.gr: offset 32: ",
               "truncated");
  // 2^62 edges would overflow 4 * m.
  expect_error(gr_header(1, 4, 1, std::uint64_t{1} << 62), "m.gr", "m.gr: offset 32: ",
               "truncated");
}

TEST(MalformedGr, HugeEdgeCountIsAnErrorNotAnAllocation) {
  // 3 vertices whose out-indices are all there, then a claim of 2^40 edges
  // in a file with no room for even one destination.
  std::string s = gr_header(1, 4, 3, std::uint64_t{1} << 40);
  for (int v = 0; v < 3; ++v)
    append<std::uint64_t>(s, 0);
  expect_error(s, "m.gr", "m.gr: offset 56: ", "destinations of 1099511627776 edges do not fit");
}

TEST(MalformedGr, VertexLimitOption) {
  ReadOptions options;
  options.max_vertices = 1;
  expect_error(valid_gr(), "lim.gr", "lim.gr: offset 16: ", "limit of 1", options);
}

TEST(MalformedGr, TrailingBytes) {
  std::string s = valid_gr() + "xx";
  expect_error(s, "tail.gr", "tail.gr: offset 76: ", "2 unexpected bytes");
}

TEST(MalformedGr, DecreasingOutIndex) {
  std::string s = valid_gr();
  const std::uint64_t bad = 0;
  std::memcpy(&s[40], &bad, 8);  // vertex 1 ends at 0 < 1
  expect_error(s, "dec.gr", "dec.gr: offset 40: ", "less than the previous");
}

TEST(MalformedGr, OutIndexBeyondEdges) {
  std::string s = valid_gr();
  const std::uint64_t bad = 9;
  std::memcpy(&s[32], &bad, 8);
  expect_error(s, "oi.gr", "oi.gr: offset 32: ", "beyond the 3 edges");
}

TEST(MalformedGr, LastOutIndexShort) {
  std::string s = valid_gr();
  const std::uint64_t bad = 2;
  std::memcpy(&s[40], &bad, 8);
  expect_error(s, "short.gr", "short.gr: offset 40: ", "header declares 3 edges");
}

TEST(MalformedGr, DestinationOutOfRange) {
  std::string s = valid_gr();
  const std::uint32_t bad = 2;
  std::memcpy(&s[52], &bad, 4);  // second destination
  expect_error(s, "dst.gr", "dst.gr: offset 52: ", "destination 2 of edge 1 is out of range");
}

TEST(MalformedGr, NegativeWeight) {
  std::string s = valid_gr();
  const std::int32_t bad = -5;
  std::memcpy(&s[72], &bad, 4);  // third weight
  expect_error(s, "neg.gr", "neg.gr: offset 72: ", "negative weight -5 on edge 2");
}

TEST(MalformedGr, NonFiniteFloatWeight) {
  std::string s = valid_gr();
  const std::uint32_t nan_bits = 0x7fc00000u;
  std::memcpy(&s[68], &nan_bits, 4);  // second weight
  ReadOptions options;
  options.gr_weight_type = WeightType::kFloat32;
  expect_error(s, "nan.gr", "nan.gr: offset 68: ", "not finite", options);
}

TEST(MalformedGr, EdgesWithoutVertices) {
  expect_error(gr_header(1, 0, 0, 1), "nv.gr", "nv.gr: offset 24: ", "no vertices");
}

// ---- DIMACS --------------------------------------------------------------

TEST(MalformedDimacs, ArcBeforeProblemLine) {
  expect_error("c x\na 1 2 3\n", "d.gr", "d.gr:2: ", "before the problem line");
}

TEST(MalformedDimacs, MissingProblemLine) {
  expect_error("c only comments\nc here\n", "d.gr", "d.gr:2: ", "without a problem line");
}

TEST(MalformedDimacs, WrongProblemType) {
  expect_error("p min 3 1\n", "d.gr", "d.gr:1: ", "problem type 'min' is not 'sp'");
  // A max-flow network is pointed at the reader that takes it.
  expect_error("p max 3 1\n", "d.gr", "d.gr:1: ",
               "this is a max-flow network ('p max'), not a graph ('p sp'); read it with "
               "dd-graph maxflow-ref");
}

TEST(MalformedDimacs, SecondProblemLine) {
  expect_error("p sp 3 0\np sp 3 0\n", "d.gr", "d.gr:2: ", "second problem line");
}

TEST(MalformedDimacs, IdsOutOfRange) {
  expect_error("p sp 3 1\na 1 4 2\n", "d.gr", "d.gr:2: ", "destination id 4 is out of range [1, 3]");
  expect_error("p sp 3 1\na 0 1 2\n", "d.gr", "d.gr:2: ", "below the first id 1");
}

TEST(MalformedDimacs, NegativeAndBadWeights) {
  expect_error("p sp 3 1\na 1 2 -4\n", "d.gr", "d.gr:2: ", "negative weight '-4'");
  expect_error("p sp 3 1\na 1 2 1.5\n", "d.gr", "d.gr:2: ", "is not an integer");
  expect_error("p sp 3 1\na 1 2 3000000000\n", "d.gr", "d.gr:2: ", "does not fit in int32");
}

TEST(MalformedDimacs, ArcCountMismatch) {
  expect_error("c\np sp 3 2\na 1 2 1\n", "d.gr", "d.gr:2: ", "declares 2 arcs but the file has 1");
  expect_error("p sp 3 1\na 1 2 1\na 2 3 1\n", "d.gr", "d.gr:3: ", "more arcs than the 1");
}

TEST(MalformedDimacs, UnknownLineAndMissingFields) {
  expect_error("p sp 3 1\ne 1 2\n", "d.gr", "d.gr:2: ", "unexpected line starting with 'e'");
  expect_error("p sp 3 1\na 1 2\n", "d.gr", "d.gr:2: ", "expected an arc");
  expect_error("p sp 3 1\na 1 2 3 4\n", "d.gr", "d.gr:2: ", "expected an arc");
}

TEST(MalformedDimacs, HugeDeclaredVertexCount) {
  expect_error("p sp 99999999999 0\n", "d.gr", "d.gr:1: ", "32-bit ids");
}

TEST(MalformedDimacs, VerticesBeyondWhatTheArcsJustify) {
  // 999999999 vertices would be 8 GB of row offsets for one arc.
  expect_error("p sp 999999999 1\na 1 2 3\n", "d.gr", "d.gr:1: ",
               "999999999 vertices for 1 arcs, more than the 16777232 a text graph may have");
  // The bound: 2^24 + 16 per arc.
  expect_error("p sp 16777249 1\na 1 2 3\n", "d.gr", "d.gr:1: ", "16777249 vertices for 1 arcs");
}

TEST(MalformedDimacs, ArcCountBeyondTheFileSize) {
  expect_error("p sp 3 999999999999\na 1 2 3\n", "d.gr", "d.gr:1: ",
               "999999999999 arcs declared, but the file's 28 bytes can hold at most 3");
}

// ---- Matrix Market -------------------------------------------------------

TEST(MalformedMatrixMarket, BadOrMissingHeader) {
  expect_error("3 3 1\n1 2\n", "m.mtx", "m.mtx:1: ", "missing the Matrix Market header");
  expect_error("%%MatrixMarket matrix coordinate pattern\n", "m.mtx", "m.mtx:1: ",
               "malformed header");
  expect_error("%%MatrixMarket matrix array real general\n", "m.mtx", "m.mtx:1: ",
               "'array' matrices");
  expect_error("%%MatrixMarket matrix coordinate complex general\n", "m.mtx", "m.mtx:1: ",
               "field 'complex'");
  expect_error("%%MatrixMarket matrix coordinate real skew-symmetric\n", "m.mtx", "m.mtx:1: ",
               "symmetry 'skew-symmetric'");
  expect_error("%%MatrixMarket vector coordinate real general\n", "m.mtx", "m.mtx:1: ",
               "object 'vector'");
  expect_error("", "m.mtx", "m.mtx:1: ", "empty file");
}

TEST(MalformedMatrixMarket, SizeLine) {
  expect_error("%%MatrixMarket matrix coordinate pattern general\n% c\n", "m.mtx", "m.mtx:2: ",
               "end of file before the size line");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n3 4 1\n", "m.mtx", "m.mtx:2: ",
               "3 x 4");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n3 3\n", "m.mtx", "m.mtx:2: ",
               "size line");
}

TEST(MalformedMatrixMarket, EntriesOutOfRangeOrMiscounted) {
  const std::string head = "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n";
  expect_error(head + "1 2\n4 1\n", "m.mtx", "m.mtx:4: ", "row id 4 is out of range [1, 3]");
  expect_error(head + "1 0\n", "m.mtx", "m.mtx:3: ", "column id 0 is below the first id 1");
  expect_error(head + "1 2\n", "m.mtx", "m.mtx:2: ", "declares 2 entries but the file has 1");
  expect_error(head + "1 2\n2 3\n3 1\n", "m.mtx", "m.mtx:5: ", "more entries than the 2");
  expect_error(head + "1 2 5\n", "m.mtx", "m.mtx:3: ", "ROW COLUMN");
}

TEST(MalformedMatrixMarket, HugeDimensionsOrEntryCounts) {
  const std::string banner = "%%MatrixMarket matrix coordinate pattern general\n";
  expect_error(banner + "999999999 999999999 1\n1 1\n", "m.mtx", "m.mtx:2: ",
               "999999999 vertices for 1 entries, more than the 16777232");
  expect_error(banner + "3 3 99999999999\n1 1\n", "m.mtx", "m.mtx:2: ",
               "99999999999 entries declared, but the file's 69 bytes can hold at most 17");
  // A real entry "1 1 1" needs at least 6 bytes.
  expect_error("%%MatrixMarket matrix coordinate real general\n3 3 11\n1 1 1\n", "m.mtx",
               "m.mtx:2: ", "11 entries declared, but the file's 59 bytes can hold at most 10");
}

TEST(MalformedMatrixMarket, NegativeAndNonNumericValues) {
  const std::string real = "%%MatrixMarket matrix coordinate real general\n2 2 1\n";
  expect_error(real + "1 2 -0.5\n", "m.mtx", "m.mtx:3: ", "negative weight '-0.5'");
  expect_error(real + "1 2 nan\n", "m.mtx", "m.mtx:3: ", "is not a number");
  expect_error(real + "1 2 1e999\n", "m.mtx", "m.mtx:3: ", "out of range");
  expect_error(real + "1 2 1e300\n", "m.mtx", "m.mtx:3: ", "does not fit in float");
  const std::string integer = "%%MatrixMarket matrix coordinate integer general\n2 2 1\n";
  expect_error(integer + "1 2 2.5\n", "m.mtx", "m.mtx:3: ", "is not an integer");
  expect_error(integer + "1 2 -1\n", "m.mtx", "m.mtx:3: ", "negative weight");
}

// ---- edge lists ----------------------------------------------------------

TEST(MalformedEdgeList, Garbage) {
  expect_error("0 1\nhello world\n", "e.txt", "e.txt:2: ", "source id 'hello'");
  expect_error("0 1\n1\n", "e.txt", "e.txt:2: ", "expected an edge");
  expect_error("0 1 2 3\n", "e.txt", "e.txt:1: ", "more than three columns");
  // Control bytes make detection say "binary"; force the edge-list reader.
  ReadOptions as_edge_list;
  as_edge_list.format = Format::kEdgeList;
  expect_error(std::string("0 1\n\x01\xff 2\n"), "bin.el", "bin.el:2: ", "'\\x01\\xff'",
               as_edge_list);
}

TEST(MalformedEdgeList, NegativeIdsAndWeights) {
  expect_error("0 1\n-1 2\n", "e.txt", "e.txt:2: ", "source id '-1' is not a non-negative integer");
  expect_error("0 1 3\n1 2 -3\n", "e.txt", "e.txt:2: ", "negative weight '-3'");
}

TEST(MalformedEdgeList, InconsistentColumns) {
  expect_error("# c\n0 1 5\n1 2\n", "e.txt", "e.txt:3: ", "line 2 has 3");
}

TEST(MalformedEdgeList, HugeIdIsAnErrorNotAnAllocation) {
  // 12 bytes that would need 8 GB of row offsets; the line is the largest id's.
  expect_error("1 2\n0 999999999\n3 4\n", "e.txt", "e.txt:2: ",
               "the largest id makes 1000000000 vertices for 3 edges, more than the 16777264");
  // Up to 2^24 + 16 per edge is read (1 edge: ids up to 16777231).
  const Csr g = test::parse_ok("0 16777231\n", "ok.txt");
  EXPECT_EQ(g.num_vertices(), 16777232u);
  expect_error("0 16777232\n", "e.txt", "e.txt:1: ", "16777233 vertices for 1 edges");
}

TEST(MalformedEdgeList, IdsOutOfRange) {
  expect_error("0 99999999999999999999999\n", "e.txt", "e.txt:1: ", "too large");
  expect_error("0 4294967295\n", "e.txt", "e.txt:1: ", "exceeds the limit of 4294967295");
  ReadOptions options;
  options.max_vertices = 10;
  expect_error("0 10\n", "e.txt", "e.txt:1: ", "exceeds the limit of 10", options);
  ReadOptions one_based;
  one_based.index_base = 1;
  expect_error("1 2\n0 1\n", "e.txt", "e.txt:2: ", "below the first id 1", one_based);
}

} // namespace
} // namespace dd::graph
