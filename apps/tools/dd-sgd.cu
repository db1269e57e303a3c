// dd-sgd: matrix-factorization SGD on a rating set (users x items, Matrix
// Market), on the GPU with the edge-lock kernel as written (--algo=locks) or
// as the decoupler delegate pass rewrote it (--algo=delegate), or on the CPU
// (--algo=cpu, the reference); timed, optionally verified. docs/sgd.md.
//
// Every failure prints one "dd-sgd: error: ..." line (input errors name the
// file and line) and exits with status 1; the --out file is written whole
// (support/output_file.h) and only when everything succeeded (verification
// included). The result is the last line of standard output.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <cuda_runtime.h>

#include "graph/file.h"
#include "graph/ratings.h"
#include "sgd/sgd.h"
#include "command_line.h"

namespace {

using namespace dd::graph;
using dd::tools::Args;
using dd::tools::get_u64;
namespace sgd = dd::sgd;

constexpr const char *kUsage = R"USAGE(usage: dd-sgd --algo=A [options] RATINGS

Matrix-factorization SGD on a rating set, timed, optionally verified.
RATINGS is Matrix Market "coordinate real|integer general": rows are users,
columns are items, 1-based (dd-graph generate ratings writes such files).

Algorithms (--algo=A; see docs/sgd.md):
  locks      GPU, Kaleem et al.'s edge-lock SGD as written: a thread per
             rating takes its user's lock, then its item's (global try-locks)
             and updates both latent vectors
  delegate   GPU, the same kernel rewritten by `decoupler --passes=delegate`:
             the critical section runs on server blocks under locks in their
             shared memory; DD_DELEGATE_POLICY=adaptive (default), delegate or
             original picks how each epoch's launch runs
  cpu        the sequential reference, ratings in file order (no GPU needed)

Options:
  --algo=A         the algorithm (required)
  --k=K            latent vector length, 1..1024 (default 16)
  --epochs=E       passes over the ratings, 1..100000 (default 10)
  --lr=X           learning rate, > 0 (default 0.005)
  --lambda=X       regularization, >= 0 (default 0.05)
  --seed=S         seed of the initial vectors (default 1)
  --runs=N         time N runs and report the median (default 1); GPU
                   algorithms run once more before, untimed (warm-up); every
                   run starts from the same initial vectors
  --verify         check the result: every latent value finite; GPU: every
                   rating updated exactly E times (per-rating counters), every
                   user's and item's vector E x its degree times (plain
                   counters under the locks: a lost update shows a break of
                   mutual exclusion), and the training RMSE within 1% of the CPU reference's with the
                   same settings; cpu: the RMSE below that of the initial
                   vectors. A failed check is an error (status 1)
  --out=FILE       write the latent vectors ("-": standard output): a line
                   "k K users U items I", then "u ID v0 .. v(K-1)" per user and
                   "i ID v0 .. v(K-1)" per item, ids 0-based, each value the
                   shortest decimal that reads back as the same float. Written
                   only when everything (--verify too) succeeded; it may not
                   be RATINGS
  --max-input-bytes=N
                   the most bytes read from RATINGS when it is not a regular
                   file (a pipe, a FIFO; default 4 GiB)
  --help           this text

Standard error gets a line "dd-sgd: algo=.. users=.. items=.. ratings=.. k=..
epochs=.. runs=.. ms=.." (ms: the median run's time: GPU epochs by CUDA
events, from the first launch to the end of the last; cpu: wall time), and
with --verify a line "dd-sgd: verified: ...". The last line of standard
output is the result: "rmse R epochs E time_ms T" (R: the training RMSE).
)USAGE";

int fail(const std::string &message) {
  std::fprintf(stderr, "dd-sgd: error: %s\n", message.c_str());
  return 1;
}

const std::set<std::string> kValueOptions = {"algo",   "k",    "epochs", "lr",  "lambda",
                                             "seed",   "runs", "out",    "max-input-bytes"};
const std::set<std::string> kFlagOptions = {"verify", "help"};

// --name as a finite float, at least `lo` (strictly above it when `strict`).
std::optional<std::string> get_float(const Args &args, const char *name, float lo, bool strict,
                                     float &out) {
  const auto it = args.values.find(name);
  if (it == args.values.end())
    return std::nullopt;
  const char *text = it->second.c_str();
  char *end = nullptr;
  const double v = std::strtod(text, &end);
  if (it->second.empty() || *end != '\0' || !std::isfinite(v) || std::fabs(v) > 3.0e38 ||
      (strict ? v <= lo : v < lo))
    return str_cat("--", name, "=", it->second, " is not a number ", strict ? ">" : ">=", " ",
                   lo == 0 ? "0" : std::to_string(lo));
  out = static_cast<float>(v);
  return std::nullopt;
}

enum class Algo { kLocks, kDelegate, kCpu };

// The values of --algo.
const dd::tools::Choice<Algo> kAlgos[] = {
    {"locks", Algo::kLocks}, {"delegate", Algo::kDelegate}, {"cpu", Algo::kCpu}};

bool all_finite(const LatentFactors &f) {
  for (const std::vector<float> *v : {&f.users, &f.items})
    for (const float x : *v)
      if (!std::isfinite(x))
        return false;
  return true;
}

int main_impl(int argc, char **argv) {
  Args args;
  Algo algo{};
  if (std::optional<int> status = dd::tools::open_command("dd-sgd", argc, argv, kUsage,
                                                          kValueOptions, kFlagOptions, kAlgos,
                                                          args, algo))
    return *status;
  const std::string &algo_name = args.values.at("algo");

  SgdParams params;
  std::uint64_t k = params.k, epochs = params.epochs, seed = params.seed, runs = 1;
  std::uint64_t max_input_bytes = kDefaultMaxStreamBytes;
  for (auto problem : {get_u64(args, "k", 1, 1024, k), get_u64(args, "epochs", 1, 100000, epochs),
                       get_u64(args, "seed", 0, ~std::uint64_t{0}, seed),
                       get_u64(args, "runs", 1, 1000, runs),
                       get_u64(args, "max-input-bytes", 0, ~std::uint64_t{0}, max_input_bytes),
                       get_float(args, "lr", 0, true, params.learning_rate),
                       get_float(args, "lambda", 0, false, params.lambda)})
    if (problem)
      return fail(*problem);
  params.k = static_cast<std::uint32_t>(k);
  params.epochs = static_cast<std::uint32_t>(epochs);
  params.seed = seed;

  if (args.positional.size() != 1)
    return fail(args.positional.empty() ? "no RATINGS given (dd-sgd --help)"
                                        : "expected one RATINGS file, got " +
                                              std::to_string(args.positional.size()));
  const std::string &path = args.positional[0];
  if (auto it = args.values.find("out"); it != args.values.end() && it->second != "-")
    if (Status s = check_output_not_input(it->second, {path}, "--out"); !s.ok())
      return fail(s.message());

  // The device first: no point reading a large file for a GPU that is not there.
  if (algo != Algo::kCpu) {
    int devices = 0;
    if (const cudaError_t err = cudaGetDeviceCount(&devices); err != cudaSuccess || devices == 0)
      return fail(str_cat("no CUDA GPU for --algo=", algo_name, ": ",
                          err != cudaSuccess ? cudaGetErrorString(err) : "no device",
                          " (--algo=cpu runs on the CPU)"));
  }
  ReadOptions read;
  read.max_stream_bytes = max_input_bytes;
  dd::tools::current_file() = path;
  Expected<RatingSet> set = read_ratings(path, read);
  if (!set.ok())
    return fail(set.status().message());
  const LatentFactors initial = initial_factors(*set, params);

  sgd::DeviceRatings device;
  if (algo != Algo::kCpu)
    if (Status s = device.upload(*set, params.k); !s.ok())
      return fail(path + ": " + s.message());

  std::vector<double> times;
  LatentFactors result;
  std::vector<unsigned> updates, user_updates, item_updates;
  for (std::uint64_t i = (algo == Algo::kCpu ? 1 : 0); i <= runs; ++i) {
    if (algo == Algo::kCpu) {
      const auto start = std::chrono::steady_clock::now();
      Expected<LatentFactors> f = sgd_cpu(*set, params);
      const auto stop = std::chrono::steady_clock::now();
      if (!f.ok())
        return fail(path + ": " + f.status().message());
      result = std::move(*f);
      times.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
      continue;
    }
    Expected<sgd::Training> t = device.train(
        algo == Algo::kLocks ? sgd::Variant::kLocks : sgd::Variant::kDelegate, params, initial);
    if (!t.ok())
      return fail(path + ": " + t.status().message());
    if (i > 0)
      times.push_back(t->ms);
    result = std::move(t->factors);
    updates = std::move(t->updates);
    user_updates = std::move(t->user_updates);
    item_updates = std::move(t->item_updates);
  }
  const double ms = dd::tools::median(times);
  const double error = rmse(*set, result);
  const char *policy = std::getenv("DD_DELEGATE_POLICY");
  std::fprintf(stderr,
               "dd-sgd: algo=%s users=%u items=%u ratings=%llu k=%u epochs=%u lr=%g lambda=%g "
               "runs=%llu ms=%.3f%s%s\n",
               algo_name.c_str(), set->num_users, set->num_items,
               (unsigned long long)set->size(), params.k, params.epochs,
               double(params.learning_rate), double(params.lambda), (unsigned long long)runs, ms,
               algo == Algo::kDelegate ? " policy=" : "",
               algo == Algo::kDelegate ? (policy && *policy ? policy : "adaptive") : "");

  if (args.flags.count("verify")) {
    if (!all_finite(result))
      return fail("verification failed: a latent value is not finite (is --lr too large?)");
    if (algo == Algo::kCpu) {
      const double before = rmse(*set, initial);
      if (!(error < before))
        return fail(str_cat("verification failed: the RMSE did not fall (", std::to_string(error),
                            " after ", params.epochs, " epochs, ", std::to_string(before),
                            " at the start)"));
      std::fprintf(stderr, "dd-sgd: verified: latent values finite, rmse %.6f < %.6f initially\n",
                   error, before);
    } else {
      std::uint64_t wrong = 0;
      std::string examples;
      for (std::uint64_t e = 0; e < updates.size(); ++e)
        if (updates[e] != params.epochs && ++wrong <= 3)
          examples += str_cat(wrong > 1 ? "; " : "", "rating ", e, " (user ", set->users[e] + 1,
                              ", item ", set->items[e] + 1, ") ", updates[e]);
      if (wrong)
        return fail(str_cat("verification failed: ", wrong, " of ", updates.size(),
                            " ratings were not updated exactly ", params.epochs,
                            " times (", examples, ")"));
      // Per user and per item: E times its degree. The increments are plain
      // (not atomic) under the locks, so a break of mutual exclusion loses some.
      std::vector<std::uint64_t> user_degree(set->num_users, 0), item_degree(set->num_items, 0);
      for (std::uint64_t e = 0; e < set->size(); ++e) {
        ++user_degree[set->users[e]];
        ++item_degree[set->items[e]];
      }
      for (const auto &[counts, degrees, what] :
           {std::tuple{&user_updates, &user_degree, "user"},
            std::tuple{&item_updates, &item_degree, "item"}})
        for (std::uint64_t v = 0; v < degrees->size(); ++v)
          if ((*counts)[v] != (*degrees)[v] * params.epochs)
            return fail(str_cat("verification failed: ", what, " ", v + 1, "'s vector was updated ",
                                (*counts)[v], " times, expected ", (*degrees)[v] * params.epochs,
                                " (", (*degrees)[v], " ratings x ", params.epochs,
                                " epochs): updates under its lock were lost"));
      Expected<LatentFactors> reference = sgd_cpu(*set, params);
      if (!reference.ok())
        return fail(reference.status().message());
      const double want = rmse(*set, *reference);
      if (!(std::fabs(error - want) <= 0.01 * want))
        return fail(str_cat("verification failed: rmse ", std::to_string(error),
                            " is not within 1% of the CPU reference's ", std::to_string(want)));
      std::fprintf(stderr,
                   "dd-sgd: verified: %llu ratings updated %u times each, every user and "
                   "item vector E x degree times; rmse %.6f, CPU reference %.6f (%.3f%% "
                   "apart)\n",
                   (unsigned long long)updates.size(), params.epochs, error, want,
                   want > 0 ? 100.0 * std::fabs(error - want) / want : 0.0);
    }
  }

  if (auto it = args.values.find("out"); it != args.values.end()) {
    const std::string text = factors_text(result);
    if (it->second == "-") {
      if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size())
        return fail("cannot write to standard output");
    } else if (Status s = write_file(it->second, text); !s.ok()) {
      return fail(s.message());
    }
  }
  std::printf("rmse %.6f epochs %u time_ms %.3f\n", error, params.epochs, ms);
  if (std::fflush(stdout) != 0)
    return fail("cannot write to standard output");
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  dd::tools::exit_when_out_of_memory("dd-sgd");
  return main_impl(argc, argv);
}
