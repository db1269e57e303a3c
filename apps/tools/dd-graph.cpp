// dd-graph: inspect, convert and generate graphs, and print CPU reference
// results (the inputs and ground truth of decoupler's graph benchmarks).
//
// Every failure prints one "dd-graph: error: ..." line naming the file and
// the line or byte offset, and exits with status 1. Outputs are built whole
// and written by support/output_file.h's rules (a regular file atomically,
// a device or FIFO through), so a failing command leaves no partial output.
#include <charconv>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "dmr/triangle_io.h"
#include "dmr/triangulate.h"
#include "road/road.h"
#include "graph/csr.h"
#include "graph/file.h"
#include "graph/flow_network.h"
#include "graph/format.h"
#include "graph/generators.h"
#include "graph/graph_io.h"
#include "graph/max_flow.h"
#include "graph/mst.h"
#include "graph/ratings.h"
#include "graph/reference.h"
#include "graph/stats.h"
#include "graph/weights.h"
#include "sat/cnf.h"
#include "command_line.h"

namespace {

using namespace dd::graph;
using dd::tools::Args;
using dd::tools::to_u64;

constexpr const char* kUsage = R"(usage: dd-graph COMMAND [options]

Inspect, convert and generate graphs, and print CPU reference results.

commands:
  info GRAPH                 format, |V|, |E|, weights and degree statistics
  convert IN --to-gr OUT     write IN as a Galois binary .gr (version 1)
  convert IN --to-mtx OUT    write IN as Matrix Market (general: every arc)
  convert IN --to-egr OUT    write IN as an ECL binary graph (.egr: the ECL and
                             Indigo suites' programs read it; int32 weights or none)
  convert IN --to-dimacs OUT write IN as DIMACS shortest-path text (p sp, a u v w:
                             every arc, as the USA-road-d files; integer weights)
  generate kron|uniform|grid|road -o OUT.gr [--seed=S] [parameters]
                             write a synthetic graph as .gr
  generate rlg -o OUT.max [--seed=S] [parameters]
                             write a max-flow network as DIMACS max-flow text
  generate ratings -o OUT.mtx [--seed=S] [parameters]
                             write a rating set (users x items) as Matrix Market
  generate 3sat -o OUT.cnf [--seed=S] [parameters]
                             write a random 3-SAT formula as DIMACS CNF
  generate mesh -o BASE [--seed=S] --points=N
                             write a Delaunay triangle mesh as Triangle's
                             BASE.node and BASE.ele
  sssp-ref --src=S GRAPH     shortest-path distances (Dijkstra), one line
                             "id distance" per vertex, INF when unreachable
  bfs-ref --src=S GRAPH      BFS levels, one line "id level" per vertex
  maxflow-ref NETWORK [--flows]
                             maximum flow (Dinic) of a DIMACS max-flow file:
                             "s VALUE", and with --flows one "f U V FLOW"
                             line per arc (DIMACS solution format)
  mst-ref GRAPH [--edges]    minimum spanning forest (Kruskal) of GRAPH read
                             as undirected: "weight W", "trees T" (connected
                             components), and with --edges one "e U V W" line
                             per forest edge (0-based ids, U < V)
  help                       this text (also --help or -h anywhere)

Reading a graph (info, convert, sssp-ref, bfs-ref, mst-ref; maxflow-ref takes only
--max-input-bytes):
  --format=F       auto (default), gr, dimacs, mtx, snap, edgelist. Auto looks
                   at the content first (binary -> gr, %%MatrixMarket -> mtx,
                   c/p lines -> dimacs, '#' -> snap), then at the extension
                   (.gr .mtx .mm .snap .txt .el .edges ...), then takes lines
                   of numbers as an edge list
  --base=0|1       id of the first vertex in edge lists and SNAP files
                   (default 0; DIMACS and Matrix Market are always 1-based)
  --symmetrize     add the reverse of every edge (undirected edge lists)
  --gr-weights=int|float
                   how 4-byte .gr edge data is read (default int)
  --max-input-bytes=N
                   the most bytes read from a GRAPH that is not a regular
                   file (a pipe, a FIFO, a device; default 4 GiB)

Weights (convert, generate, sssp-ref, mst-ref):
  --weights=W      file: keep the file's weights (convert's default)
                   random: int32 uniform in --weight-range (generate's default)
                   none: drop them (convert, generate)
                   unit: every edge weighs 1 (sssp-ref, mst-ref)
                   auto: the default of sssp-ref and mst-ref: the file's
                   weights, else unit
  --weight-seed=S  seed of random weights (default: --seed for generate, else 1)
  --weight-range=LO,HI
                   range of random weights, inclusive (default 1,255)
  Random weights depend on the unordered pair {u,v}, so both directions of an
  undirected edge get the same weight.

generate kron     --scale=N (default 16) --edge-factor=K (default 16)
                  Graph500 Kronecker, A=0.57 B=0.19 C=0.19, 2^N vertices,
                  K*2^N edges, undirected (both directions) unless --directed
generate uniform  --vertices=N (default 65536) --edges=M (default 1048576),
                  directed unless --undirected
generate grid     --rows=R --cols=C (default 256 each) [--remove=P (0.05)]
                  [--shortcuts=P (0.02)]
                  [--radius=R (2)]: road-like 4-neighbour grid, undirected
                  unless --directed
generate road     --vertices=N (default 65536, at least 4) [--degree=D (2.44)]:
                  a road-like network shaped like DIMACS USA-road-d: random
                  points in the unit square, the Euclidean minimum spanning
                  tree of their Delaunay triangulation and random further
                  Delaunay edges up to D arcs per vertex (in [2, 5]), both
                  directions; weights are the roads' lengths (2^20 lattice
                  units; --weights=length, the default, or random, unit,
                  none); ids follow a Hilbert curve (docs/graphs.md)
generate rlg      --rows=R --cols=C (default 64 each) [--max-cap=K (10000)]:
                  the Washington generator's random level graph: C levels of
                  R vertices, the source linked to the first level and the
                  last level to the sink (capacity 3K), each vertex linked to
                  3 distinct random vertices of the next level (capacity
                  uniform in [1, K]); written as DIMACS max-flow (p max)
generate ratings  --users=U (default 48000) --items=I (default 1770)
                  --ratings=R (default 1000000) --shape=netflix|movielens
                  (default netflix): a rating set with power-law degrees on
                  both sides (user activity and item popularity shaped like
                  Netflix or MovieLens-10M), ratings 1..5, no (user, item)
                  pair twice; written as Matrix Market "coordinate real
                  general", rows users, columns items (docs/graphs.md)
generate 3sat     --vars=N (default 1000) [--ratio=R (4.2) | --clauses=M]:
                  uniform random 3-SAT, M clauses (default round(R * N)),
                  each of 3 distinct variables with random signs; written
                  as DIMACS CNF (p cnf; docs/graphs.md)
generate mesh     --points=N (required, at least 1): N distinct random points
                  strictly inside the unit square, on a 2^20 x 2^20 lattice,
                  and its 4 corners, Delaunay-triangulated (2N + 2
                  triangles); written as Triangle's BASE.node and BASE.ele,
                  0-based (BASE may end in .node or .ele; both files are
                  written or neither; docs/dmr.md)
  All generators are deterministic for --seed (default 1) on every platform.

Output:
  -o FILE, --out=FILE  where convert/generate write (required) or where
                       info and the -ref commands write (default or "-":
                       standard output).
                       A regular file is written to a temporary name and
                       renamed, so it is complete or absent, and keeps its
                       mode, owner and links; a device or FIFO (/dev/null,
                       /dev/stdout) is written through. The output may not
                       be the input.

Errors name the file and the line (text formats) or byte offset (.gr) and exit
with status 1. See docs/graphs.md.
)";

// ---- command-line parsing ----------------------------------------------

std::optional<std::string> parse_args(int argc, char** argv, int first,
                                      const std::set<std::string>& value_options,
                                      const std::set<std::string>& flag_options, Args& args) {
  return dd::tools::parse_args(argc, argv, first, value_options, flag_options,
                               "see dd-graph help", args);
}

int fail(const std::string& message) {
  std::fprintf(stderr, "dd-graph: error: %s\n", message.c_str());
  return 1;
}


std::optional<double> to_double(const std::string& text) {
  double v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end)
    return std::nullopt;
  return v;
}

// Reads an unsigned option with a default; an error message on bad input.
std::optional<std::string> get_u64(const Args& args, const std::string& name, std::uint64_t& out,
                                   std::uint64_t max = ~std::uint64_t{0}) {
  const auto it = args.values.find(name);
  if (it == args.values.end())
    return std::nullopt;
  const std::optional<std::uint64_t> v = to_u64(it->second);
  if (!v || *v > max)
    return "--" + name + "=" + it->second + " is not an integer in [0, " + std::to_string(max) + "]";
  out = *v;
  return std::nullopt;
}

std::optional<std::string> get_probability(const Args& args, const std::string& name,
                                           double& out) {
  const auto it = args.values.find(name);
  if (it == args.values.end())
    return std::nullopt;
  const std::optional<double> v = to_double(it->second);
  if (!v || !(*v >= 0.0 && *v <= 1.0))
    return "--" + name + "=" + it->second + " is not a probability in [0, 1]";
  out = *v;
  return std::nullopt;
}

const std::set<std::string> kReadValueOptions = {"format", "base", "gr-weights",
                                                 "max-input-bytes"};
const std::set<std::string> kReadFlagOptions = {"symmetrize"};

std::set<std::string> with(std::set<std::string> base, std::initializer_list<const char*> more) {
  for (const char* m : more)
    base.insert(m);
  return base;
}

std::optional<std::string> read_options_from(const Args& args, ReadOptions& options) {
  if (auto it = args.values.find("format"); it != args.values.end()) {
    const std::optional<Format> f = parse_format(it->second);
    if (!f)
      return "--format=" + it->second + " is not one of auto, gr, dimacs, mtx, snap, edgelist";
    options.format = *f;
  }
  std::uint64_t base = 0;
  if (auto problem = get_u64(args, "base", base, 1))
    return problem;
  options.index_base = static_cast<std::uint32_t>(base);
  options.symmetrize = args.flags.count("symmetrize") != 0;
  if (auto problem = get_u64(args, "max-input-bytes", options.max_stream_bytes))
    return problem;
  if (auto it = args.values.find("gr-weights"); it != args.values.end()) {
    if (it->second == "int")
      options.gr_weight_type = WeightType::kInt32;
    else if (it->second == "float")
      options.gr_weight_type = WeightType::kFloat32;
    else
      return "--gr-weights=" + it->second + " is not int or float";
  }
  return std::nullopt;
}

// Applies --weights / --weight-seed / --weight-range. `allowed` lists the
// accepted --weights values, `fallback` is the default. Random weights are a
// function of the unordered pair {u, v}: undirected inputs (Matrix Market
// symmetric, --symmetrize, generated graphs) then get w(u, v) == w(v, u)
// without having to say so, and directed ones lose nothing.
std::optional<std::string> apply_weights(const Args& args, Csr& g, const char* fallback,
                                         std::initializer_list<const char*> allowed,
                                         std::uint64_t default_seed) {
  std::string mode = fallback;
  if (auto it = args.values.find("weights"); it != args.values.end())
    mode = it->second;
  bool known = false;
  std::string choices;
  for (const char* a : allowed) {
    known = known || mode == a;
    choices += choices.empty() ? a : std::string(", ") + a;
  }
  if (!known)
    return "--weights=" + mode + " is not one of " + choices;

  WeightOptions w;
  w.seed = default_seed;
  w.symmetric = true;
  if (auto problem = get_u64(args, "weight-seed", w.seed))
    return problem;
  if (auto it = args.values.find("weight-range"); it != args.values.end()) {
    const std::size_t comma = it->second.find(',');
    const auto lo = comma == std::string::npos ? std::nullopt : to_u64(it->second.substr(0, comma));
    const auto hi = comma == std::string::npos ? std::nullopt : to_u64(it->second.substr(comma + 1));
    if (!lo || !hi || *lo > *hi || *hi > 0x7fffffffu)
      return "--weight-range=" + it->second + " is not LO,HI with 0 <= LO <= HI < 2^31";
    w.min_weight = static_cast<std::int32_t>(*lo);
    w.max_weight = static_cast<std::int32_t>(*hi);
  }

  if (mode == "none") {
    g.clear_weights();
  } else if (mode == "unit") {
    assign_unit_weights(g);
  } else if (mode == "random") {
    if (Status s = assign_uniform_weights(g, w); !s.ok())
      return s.message();
  } else if (mode == "auto") {
    if (!g.has_weights())
      assign_unit_weights(g);
  }  // "file": keep
  return std::nullopt;
}
// An error when --out (or convert's --to-gr, --to-mtx, --to-egr, --to-dimacs) names the input `path`.
std::optional<std::string> output_problem(const Args& args, const std::string& path) {
  for (const char* option : {"out", "to-gr", "to-mtx", "to-egr", "to-dimacs"})
    if (auto it = args.values.find(option); it != args.values.end() && it->second != "-")
      if (Status s = check_output_not_input(it->second, {path}, std::string("--") + option);
          !s.ok())
        return s.message();
  return std::nullopt;
}

// Writes `text` to --out or to standard output in one piece.
int emit(const Args& args, const std::string& text) {
  if (auto it = args.values.find("out"); it != args.values.end() && it->second != "-") {
    if (Status s = write_file(it->second, text); !s.ok())
      return fail(s.message());
    return 0;
  }
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
    return fail("cannot write to standard output");
  return 0;
}

void append_u64(std::string& out, std::uint64_t v) {
  char buf[24];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  (void)ec;
  out.append(buf, static_cast<std::size_t>(ptr - buf));
}

std::string format_double(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// ---- commands ------------------------------------------------------------

Expected<Csr> load(const Args& args, const std::string& path, Format* format_used) {
  ReadOptions options;
  if (auto problem = read_options_from(args, options))
    return Status::error(*problem);
  // Checked before reading: nothing is written over a file being read.
  if (auto problem = output_problem(args, path))
    return Status::error(*problem);
  dd::tools::current_file() = path;
  return read_graph(path, options, format_used);
}

int cmd_info(int argc, char** argv) {
  Args args;
  if (auto e = parse_args(argc, argv, 2, with(kReadValueOptions, {"out"}), kReadFlagOptions,
                          args))
    return fail(*e);
  if (args.positional.size() != 1)
    return fail("info takes one GRAPH file (dd-graph info GRAPH)");
  const std::string& path = args.positional[0];
  Format format = Format::kAuto;
  Expected<Csr> g = load(args, path, &format);
  if (!g.ok())
    return fail(g.status().message());
  const GraphStats s = compute_stats(*g);
  std::string out;
  out += "file:        " + path + "\n";
  out += std::string("format:      ") + format_name(format) + " (" + format_description(format) +
         ")\n";
  out += "vertices:    " + std::to_string(s.num_vertices) + "\n";
  out += "edges:       " + std::to_string(s.num_edges) + "\n";
  out += std::string("weights:     ") + weight_type_name(g->weight_type);
  if (g->has_weights() && s.num_edges > 0) {
    if (g->weight_type == WeightType::kInt32)
      out += " in [" + std::to_string(static_cast<std::int64_t>(s.min_weight)) + ", " +
             std::to_string(static_cast<std::int64_t>(s.max_weight)) + "]";
    else
      out += " in [" + std::to_string(s.min_weight) + ", " + std::to_string(s.max_weight) + "]";
  }
  out += "\n";
  out += "out-degree:  min " + std::to_string(s.min_degree) + ", max " +
         std::to_string(s.max_degree) + ", mean " + format_double(s.mean_degree) + ", stddev " +
         format_double(s.degree_stddev) + "\n";
  out += "zero-degree: " + std::to_string(s.zero_degree) + " vertices\n";
  out += "self loops:  " + std::to_string(s.self_loops) + "\n";
  out += "duplicates:  " + std::to_string(s.duplicate_edges) + " edges\n";
  return emit(args, out);
}

int cmd_convert(int argc, char** argv) {
  Args args;
  if (auto e = parse_args(argc, argv, 2,
                          with(kReadValueOptions, {"to-gr", "to-mtx", "to-egr", "to-dimacs", "out",
                                                   "weights", "weight-seed", "weight-range"}),
                          kReadFlagOptions, args))
    return fail(*e);
  if (args.positional.size() != 1)
    return fail("convert takes one input graph (dd-graph convert IN --to-gr OUT)");
  // --out is --to-gr's older spelling.
  const char* const kOutputs[] = {"to-gr", "to-mtx", "to-egr", "to-dimacs", "out"};
  const char* chosen = nullptr;
  for (const char* option : kOutputs)
    if (args.values.count(option) != 0) {
      if (chosen)
        return fail("convert writes one output: --to-gr OUT, --to-mtx OUT, --to-egr OUT or "
                    "--to-dimacs OUT");
      chosen = option;
    }
  if (!chosen)
    return fail("convert needs an output: --to-gr OUT, --to-mtx OUT, --to-egr OUT or --to-dimacs OUT");
  const std::string out = args.values.at(chosen);
  const std::string format = std::strcmp(chosen, "out") == 0 ? "to-gr" : chosen;
  Expected<Csr> g = load(args, args.positional[0], nullptr);
  if (!g.ok())
    return fail(g.status().message());
  if (auto problem = apply_weights(args, *g, "file", {"file", "random", "none"}, 1))
    return fail(*problem);
  const Status s = format == "to-mtx"      ? write_mtx(*g, out)
                   : format == "to-egr"    ? write_egr(*g, out)
                   : format == "to-dimacs" ? write_dimacs(*g, out)
                                           : write_gr(*g, out);
  if (!s.ok())
    return fail(s.message());
  if (format == "to-gr" && g->weight_type == WeightType::kFloat32)
    std::fprintf(stderr, "dd-graph: note: %s has float weights; .gr does not record that, so "
                         "read it with --gr-weights=float\n", out.c_str());
  return 0;
}

// generate rlg: a Washington random level graph as DIMACS max-flow text.
int generate_rlg_file(const Args& args, std::uint64_t seed, const std::string& out) {
  RlgParams p;
  std::uint64_t rows = p.rows, cols = p.cols;
  std::uint64_t max_cap = static_cast<std::uint64_t>(p.max_capacity);
  if (auto e = get_u64(args, "rows", rows, 0xffffffffu))
    return fail(*e);
  if (auto e = get_u64(args, "cols", cols, 0xffffffffu))
    return fail(*e);
  if (auto e = get_u64(args, "max-cap", max_cap, kMaxCapacity / 3))
    return fail(*e);
  p.rows = static_cast<std::uint32_t>(rows);
  p.cols = static_cast<std::uint32_t>(cols);
  p.max_capacity = static_cast<Capacity>(max_cap);
  p.seed = seed;
  Expected<FlowNetwork> net = generate_rlg(p);
  if (!net.ok())
    return fail(net.status().message());
  const std::string comment =
      "Washington random level graph (dd-graph generate rlg; docs/graphs.md)\n" +
      std::to_string(rows) + " rows, " + std::to_string(cols) + " levels, capacities in [1, " +
      std::to_string(max_cap) + "], source and sink arcs " + std::to_string(3 * max_cap) +
      ", seed " + std::to_string(seed);
  if (Status s = write_max_flow(*net, out, comment); !s.ok())
    return fail(s.message());
  return 0;
}

// generate 3sat: uniform random 3-SAT as DIMACS CNF.
int generate_3sat_file(const Args& args, std::uint64_t seed, const std::string& out) {
  dd::sat::Random3SatParams p;
  if (auto e = get_u64(args, "vars", p.num_vars, dd::sat::kMaxVariables))
    return fail(*e);
  const bool has_ratio = args.values.count("ratio") != 0;
  if (has_ratio && args.values.count("clauses"))
    return fail("give --ratio or --clauses, not both");
  double ratio = 4.2;
  if (has_ratio) {
    const std::string& text = args.values.at("ratio");
    const std::optional<double> v = to_double(text);
    if (!v || !(*v >= 0.0 && *v <= 1e6))
      return fail("--ratio=" + text + " is not a number in [0, 1000000]");
    ratio = *v;
  }
  p.num_clauses = static_cast<std::uint64_t>(ratio * static_cast<double>(p.num_vars) + 0.5);
  if (auto e = get_u64(args, "clauses", p.num_clauses))
    return fail(*e);
  p.seed = seed;
  Expected<dd::sat::Cnf> cnf = dd::sat::generate_3sat(p);
  if (!cnf.ok())
    return fail(cnf.status().message());
  const std::string comment = str_cat(
      "uniform random 3-SAT (dd-graph generate 3sat; docs/graphs.md): ", p.num_vars,
      " variables, ", p.num_clauses, " clauses, seed ", seed);
  if (Status s = dd::sat::write_cnf(*cnf, out, comment); !s.ok())
    return fail(s.message());
  return 0;
}

// generate mesh: random points in the unit square, Delaunay-triangulated,
// as Triangle's .node/.ele.
int generate_mesh_files(const Args& args, std::uint64_t seed, const std::string& out) {
  const auto it = args.values.find("points");
  if (it == args.values.end())
    return fail("generate mesh needs --points=N (random points inside the unit square)");
  if (out == "-")
    return fail("generate mesh writes two files, BASE.node and BASE.ele: -o - (standard "
                "output) cannot hold them");
  const std::uint64_t most = static_cast<std::uint64_t>(dd::dmr::kMaxRandomPoints);
  const std::optional<std::uint64_t> points = to_u64(it->second);
  if (!points || *points < 1 || *points > most)
    return fail("--points=" + it->second + " is not an integer in [1, " + std::to_string(most) +
                "]");
  Expected<dd::dmr::Mesh> mesh =
      dd::dmr::random_square_mesh(static_cast<std::int64_t>(*points), seed);
  if (!mesh.ok())
    return fail(mesh.status().message());
  const std::string comment = str_cat(
      "random points in the unit square, Delaunay-triangulated (dd-graph generate mesh; "
      "docs/dmr.md): ",
      *points, " points and 4 corners, ", mesh->num_triangles(), " triangles, seed ", seed);
  if (Status s = dd::dmr::write_mesh(out, *mesh, comment); !s.ok())
    return fail(s.message());
  return 0;
}

// generate ratings: a power-law rating set as Matrix Market text.
int generate_ratings_file(const Args& args, std::uint64_t seed, const std::string& out) {
  RatingParams p;
  if (auto e = get_u64(args, "users", p.num_users))
    return fail(*e);
  if (auto e = get_u64(args, "items", p.num_items))
    return fail(*e);
  if (auto e = get_u64(args, "ratings", p.num_ratings))
    return fail(*e);
  std::string shape = "netflix";
  if (auto it = args.values.find("shape"); it != args.values.end())
    shape = it->second;
  if (shape == "movielens")
    p.shape = RatingShape::kMovieLens;
  else if (shape != "netflix")
    return fail("--shape=" + shape + " is not one of netflix, movielens");
  p.seed = seed;
  Expected<RatingSet> set = generate_ratings(p);
  if (!set.ok())
    return fail(set.status().message());
  const ZipfSide users = user_side(p.shape), items = item_side(p.shape);
  const auto g = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return std::string(buf);
  };
  const std::string comment = str_cat(
      "rating set (dd-graph generate ratings; docs/graphs.md): ", p.num_users, " users, ",
      p.num_items, " items, ", p.num_ratings, " ratings, shape ", shape, ", seed ", seed,
      "\nweight of rank r of n: (r/n + offset)^-exponent; users: exponent ", g(users.exponent),
      ", offset ", g(users.offset), "; items: exponent ", g(items.exponent), ", offset ",
      g(items.offset));
  if (Status s = write_ratings(*set, out, comment); !s.ok())
    return fail(s.message());
  return 0;
}

int cmd_generate(int argc, char** argv) {
  if (argc < 3 || argv[2][0] == '-')
    return fail("generate needs a kind: kron, uniform, grid, road, rlg, ratings, 3sat or mesh");
  const std::string kind = argv[2];
  const std::set<std::string> common = {"out", "seed", "weights", "weight-seed", "weight-range"};
  std::set<std::string> values = common;
  std::set<std::string> flags;
  if (kind == "kron") {
    values = with(common, {"scale", "edge-factor"});
    flags = {"directed"};
  } else if (kind == "uniform") {
    values = with(common, {"vertices", "edges"});
    flags = {"undirected"};
  } else if (kind == "grid") {
    values = with(common, {"rows", "cols", "remove", "shortcuts", "radius"});
    flags = {"directed"};
  } else if (kind == "road") {
    values = with(common, {"vertices", "degree"});
  } else if (kind == "rlg") {
    // A flow network: capacities come from --max-cap, not the weight options.
    values = {"out", "seed", "rows", "cols", "max-cap"};
  } else if (kind == "ratings") {
    // Ratings are the values; the weight options do not apply.
    values = {"out", "seed", "users", "items", "ratings", "shape"};
  } else if (kind == "3sat") {
    // A formula, not a graph: no weights.
    values = {"out", "seed", "vars", "ratio", "clauses"};
  } else if (kind == "mesh") {
    // A mesh, not a graph: no weights.
    values = {"out", "seed", "points"};
  } else {
    return fail("unknown generator '" + kind +
                "' (kron, uniform, grid, road, rlg, ratings, 3sat or mesh)");
  }
  Args args;
  if (auto e = parse_args(argc, argv, 3, values, flags, args))
    return fail(*e);
  if (!args.positional.empty())
    return fail("unexpected argument '" + args.positional[0] + "'");
  const auto out = args.values.find("out");
  if (out == args.values.end())
    return fail(kind == "mesh"
                    ? std::string("generate mesh needs an output: -o BASE (writes BASE.node "
                                  "and BASE.ele)")
                    : std::string("generate needs an output file: -o OUT.") +
                          (kind == "rlg"       ? "max"
                           : kind == "ratings" ? "mtx"
                           : kind == "3sat"    ? "cnf"
                                               : "gr"));
  std::uint64_t seed = 1;
  if (auto e = get_u64(args, "seed", seed))
    return fail(*e);
  if (kind == "rlg")
    return generate_rlg_file(args, seed, out->second);
  if (kind == "ratings")
    return generate_ratings_file(args, seed, out->second);
  if (kind == "3sat")
    return generate_3sat_file(args, seed, out->second);
  if (kind == "mesh")
    return generate_mesh_files(args, seed, out->second);

  Expected<Csr> g = Status::error("no generator ran");
  if (kind == "kron") {
    KroneckerParams p;
    std::uint64_t scale = p.scale, factor = p.edge_factor;
    if (auto e = get_u64(args, "scale", scale, 31))
      return fail(*e);
    if (auto e = get_u64(args, "edge-factor", factor, 1u << 20))
      return fail(*e);
    p.scale = static_cast<std::uint32_t>(scale);
    p.edge_factor = static_cast<std::uint32_t>(factor);
    p.seed = seed;
    p.undirected = args.flags.count("directed") == 0;
    g = generate_kronecker(p);
  } else if (kind == "uniform") {
    UniformParams p;
    if (auto e = get_u64(args, "vertices", p.num_vertices))
      return fail(*e);
    if (auto e = get_u64(args, "edges", p.num_edges))
      return fail(*e);
    p.seed = seed;
    p.undirected = args.flags.count("undirected") != 0;
    g = generate_uniform(p);
  } else if (kind == "road") {
    dd::road::RoadParams p;
    if (auto e = get_u64(args, "vertices", p.num_vertices))
      return fail(*e);
    if (auto it = args.values.find("degree"); it != args.values.end()) {
      const std::optional<double> d = to_double(it->second);
      if (!d || !(*d >= 2 && *d <= 5))
        return fail("--degree=" + it->second + " is not a number in [2, 5] (arcs per vertex)");
      p.mean_degree = *d;
    }
    p.seed = seed;
    g = dd::road::generate_road(p);
    if (!g.ok())
      return fail(g.status().message());
    if (auto problem = apply_weights(args, *g, "length", {"length", "random", "unit", "none"}, seed))
      return fail(*problem);
    if (Status s = write_gr(*g, out->second); !s.ok())
      return fail(s.message());
    return 0;
  } else {
    GridParams p;
    std::uint64_t rows = p.rows, cols = p.cols, radius = p.shortcut_radius;
    if (auto e = get_u64(args, "rows", rows, 0xffffffffu))
      return fail(*e);
    if (auto e = get_u64(args, "cols", cols, 0xffffffffu))
      return fail(*e);
    if (auto e = get_u64(args, "radius", radius, 1u << 16))
      return fail(*e);
    if (auto e = get_probability(args, "remove", p.remove_probability))
      return fail(*e);
    if (auto e = get_probability(args, "shortcuts", p.shortcut_probability))
      return fail(*e);
    p.rows = static_cast<std::uint32_t>(rows);
    p.cols = static_cast<std::uint32_t>(cols);
    p.shortcut_radius = static_cast<std::uint32_t>(radius);
    p.seed = seed;
    p.undirected = args.flags.count("directed") == 0;
    g = generate_grid(p);
  }
  if (!g.ok())
    return fail(g.status().message());
  if (auto problem = apply_weights(args, *g, "random", {"random", "none"}, seed))
    return fail(*problem);
  if (Status s = write_gr(*g, out->second); !s.ok())
    return fail(s.message());
  return 0;
}

// sssp-ref and bfs-ref: parse, load, check the source, run, print.
int cmd_reference(int argc, char** argv, bool sssp) {
  Args args;
  std::set<std::string> values = with(kReadValueOptions, {"src", "out"});
  if (sssp)
    values = with(values, {"weights", "weight-seed", "weight-range"});
  if (auto e = parse_args(argc, argv, 2, values, kReadFlagOptions, args))
    return fail(*e);
  const char* name = sssp ? "sssp-ref" : "bfs-ref";
  if (args.positional.size() != 1)
    return fail(std::string(name) + " takes one GRAPH file (dd-graph " + name + " --src=S GRAPH)");
  if (!args.values.count("src"))
    return fail(std::string(name) + " needs a source vertex: --src=S");
  std::uint64_t src = 0;
  if (auto e = get_u64(args, "src", src))
    return fail(*e);
  const std::string& path = args.positional[0];
  Expected<Csr> g = load(args, path, nullptr);
  if (!g.ok())
    return fail(g.status().message());
  if (src >= g->num_vertices())
    return fail(path + ": source vertex " + std::to_string(src) + " is out of range (" +
                std::to_string(g->num_vertices()) + " vertices)");
  const auto source = static_cast<VertexId>(src);

  std::string out;
  out.reserve(g->num_vertices() * 12);
  if (!sssp) {
    Expected<std::vector<std::uint32_t>> level = bfs(*g, source);
    if (!level.ok())
      return fail(path + ": " + level.status().message());
    for (std::uint64_t v = 0; v < level->size(); ++v) {
      append_u64(out, v);
      out += ' ';
      if ((*level)[v] == kUnreachedLevel)
        out += "INF";
      else
        append_u64(out, (*level)[v]);
      out += '\n';
    }
    return emit(args, out);
  }

  if (auto problem = apply_weights(args, *g, "auto", {"auto", "file", "random", "unit"}, 1))
    return fail(*problem);
  if (g->weight_type == WeightType::kFloat32) {
    Expected<std::vector<double>> dist = dijkstra_float(*g, source);
    if (!dist.ok())
      return fail(path + ": " + dist.status().message());
    for (std::uint64_t v = 0; v < dist->size(); ++v) {
      append_u64(out, v);
      out += ' ';
      const double d = (*dist)[v];
      if (d == std::numeric_limits<double>::infinity()) {
        out += "INF";
      } else {
        char buf[32];
        const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, d);  // shortest round trip
        (void)ec;
        out.append(buf, static_cast<std::size_t>(ptr - buf));
      }
      out += '\n';
    }
    return emit(args, out);
  }
  if (!g->has_weights() && args.values.count("weights") && args.values.at("weights") == "file")
    return fail(path + ": --weights=file but the graph has no weights");
  Expected<std::vector<std::uint64_t>> dist = dijkstra(*g, source);
  if (!dist.ok())
    return fail(path + ": " + dist.status().message());
  for (std::uint64_t v = 0; v < dist->size(); ++v) {
    append_u64(out, v);
    out += ' ';
    if ((*dist)[v] == kInfDistance)
      out += "INF";
    else
      append_u64(out, (*dist)[v]);
    out += '\n';
  }
  return emit(args, out);
}

// maxflow-ref: Dinic's maximum flow, checked (feasible and maximum) before
// it is printed in the DIMACS solution format.
int cmd_maxflow_ref(int argc, char** argv) {
  Args args;
  if (auto e = parse_args(argc, argv, 2, {"out", "max-input-bytes"}, {"flows"}, args))
    return fail(*e);
  if (args.positional.size() != 1)
    return fail("maxflow-ref takes one DIMACS max-flow file (dd-graph maxflow-ref NETWORK)");
  const std::string& path = args.positional[0];
  ReadOptions options;
  if (auto problem = get_u64(args, "max-input-bytes", options.max_stream_bytes))
    return fail(*problem);
  if (auto problem = output_problem(args, path))
    return fail(*problem);
  dd::tools::current_file() = path;
  Expected<FlowNetwork> net = read_max_flow(path, options);
  if (!net.ok())
    return fail(net.status().message());
  Expected<MaxFlowResult> flow = max_flow_dinic(*net);
  if (!flow.ok())
    return fail(path + ": " + flow.status().message());
  // The reference checks itself: a wrong answer here would poison every
  // comparison made against it.
  Expected<std::int64_t> value = verify_flow(*net, flow->flows);
  if (!value.ok() || *value != flow->value)
    return fail(path + ": internal error: Dinic's flow does not verify: " +
                (value.ok() ? "value " + std::to_string(*value) + " != " +
                                  std::to_string(flow->value)
                            : value.status().message()));
  if (Status s = check_maximum(*net, flow->flows); !s.ok())
    return fail(path + ": internal error: Dinic's flow: " + s.message());

  std::string out = "s " + std::to_string(flow->value) + "\n";
  if (args.flags.count("flows")) {
    out.reserve(out.size() + net->num_arcs() * 16);
    for (std::uint64_t i = 0; i < net->num_arcs(); ++i) {
      out += "f ";
      append_u64(out, std::uint64_t{net->arc_tail(i)} + 1);
      out += ' ';
      append_u64(out, std::uint64_t{net->arc_head(i)} + 1);
      out += ' ';
      append_u64(out, static_cast<std::uint64_t>(flow->flows[i]));
      out += '\n';
    }
  }
  return emit(args, out);
}

// mst-ref: Kruskal's minimum spanning forest, checked to be a spanning
// forest of the graph before it is printed.
int cmd_mst_ref(int argc, char** argv) {
  Args args;
  if (auto e = parse_args(argc, argv, 2,
                          with(kReadValueOptions, {"out", "weights", "weight-seed",
                                                   "weight-range"}),
                          with(kReadFlagOptions, {"edges"}), args))
    return fail(*e);
  if (args.positional.size() != 1)
    return fail("mst-ref takes one GRAPH file (dd-graph mst-ref GRAPH)");
  const std::string& path = args.positional[0];
  Expected<Csr> g = load(args, path, nullptr);
  if (!g.ok())
    return fail(g.status().message());
  if (!g->has_weights() && args.values.count("weights") && args.values.at("weights") == "file")
    return fail(path + ": --weights=file but the graph has no weights");
  if (auto problem = apply_weights(args, *g, "auto", {"auto", "file", "random", "unit"}, 1))
    return fail(*problem);
  if (g->weight_type == WeightType::kFloat32)
    return fail(path + ": the graph has float weights; a minimum spanning forest needs integer "
                       "weights (--weights=random or --weights=unit replaces them)");
  Expected<SpanningForest> forest = kruskal_mst(*g);
  if (!forest.ok())
    return fail(path + ": " + forest.status().message());
  // The reference checks itself, as maxflow-ref does.
  Expected<std::uint64_t> weight = verify_spanning_forest(*g, forest->edges);
  if (!weight.ok() || *weight != forest->weight || forest->num_trees != count_components(*g))
    return fail(path + ": internal error: Kruskal's forest does not verify: " +
                (weight.ok() ? "weight " + std::to_string(*weight) + " vs " +
                                   std::to_string(forest->weight) + ", " +
                                   std::to_string(forest->num_trees) + " trees"
                             : weight.status().message()));

  std::string out = "weight " + std::to_string(forest->weight) + "\ntrees " +
                    std::to_string(forest->num_trees) + "\n";
  if (args.flags.count("edges")) {
    out.reserve(out.size() + forest->edges.size() * 24);
    for (const MstEdge& e : forest->edges) {
      out += "e ";
      append_u64(out, e.u);
      out += ' ';
      append_u64(out, e.v);
      out += ' ';
      append_u64(out, static_cast<std::uint64_t>(e.weight));
      out += '\n';
    }
  }
  return emit(args, out);
}

} // namespace

int main(int argc, char** argv) {
  dd::tools::exit_when_out_of_memory("dd-graph");
  if (argc < 2)
    return fail("no command given; try dd-graph --help");
  const std::string command = argv[1];
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::fputs(kUsage, stdout);
      return 0;
    }
  }
  if (command == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (command == "info")
    return cmd_info(argc, argv);
  if (command == "convert")
    return cmd_convert(argc, argv);
  if (command == "generate")
    return cmd_generate(argc, argv);
  if (command == "sssp-ref")
    return cmd_reference(argc, argv, true);
  if (command == "bfs-ref")
    return cmd_reference(argc, argv, false);
  if (command == "maxflow-ref")
    return cmd_maxflow_ref(argc, argv);
  if (command == "mst-ref")
    return cmd_mst_ref(argc, argv);
  return fail("unknown command '" + command + "'; try dd-graph --help");
}
