// Command-line parsing shared by the graph tools (dd-graph, dd-sssp):
// `--name=value`, `--name value`, `--flag`, `-o FILE` (for --out), and
// positional arguments; and their handling of memory exhaustion.
// Header-only, so nvcc-built tools can use it too.
#ifndef DD_TOOLS_COMMAND_LINE_H
#define DD_TOOLS_COMMAND_LINE_H

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <vector>

namespace dd::tools {

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values; ///< --name=value, --name value, -o
  std::set<std::string> flags;               ///< --name
};

/// Parses argv[first..] into `args`. `value_options` take a value, `flag_options`
/// none; anything else starting with '-' is an error whose message ends with
/// `help_hint` (e.g. "see dd-graph help"). Returns the error, if any.
inline std::optional<std::string>
parse_args(int argc, char **argv, int first, const std::set<std::string> &value_options,
           const std::set<std::string> &flag_options, const std::string &help_hint,
           Args &args) {
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-o")
      arg = "--out";
    if (arg.size() > 2 && arg.compare(0, 2, "--") == 0) {
      std::string name = arg.substr(2);
      std::optional<std::string> value;
      if (const std::size_t eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
      }
      if (flag_options.count(name)) {
        if (value)
          return "option --" + name + " takes no value";
        args.flags.insert(name);
      } else if (value_options.count(name)) {
        if (!value) {
          if (i + 1 >= argc)
            return "option --" + name + " needs a value";
          value = argv[++i];
        }
        args.values[name] = *value;
      } else {
        return "unknown option --" + name + " (" + help_hint + ")";
      }
    } else if (arg.size() > 1 && arg[0] == '-') {
      return "unknown option " + arg + " (" + help_hint + ")";
    } else {
      args.positional.push_back(arg);
    }
  }
  return std::nullopt;
}

/// One value of an option that names a choice (`--algo=locks`).
template <class T> struct Choice {
  const char *name;
  T value;
};

/// Sets `out` to the choice `--option` names and returns nothing, or returns
/// the error every tool gives: "--algo is required (a, b or c)" when the
/// option is missing, "--algo=x is not one of a, b, c" when it names none.
/// A table of one entry (a tool whose other choices are still to come) says
/// "--algo is required (a)" and "--algo=x is not a".
template <class T, std::size_t N>
std::optional<std::string> choose(const Args &args, const std::string &option,
                                  const Choice<T> (&choices)[N], T &out) {
  static_assert(N >= 1, "a choice of at least one");
  std::string listed, alternatives;
  for (std::size_t i = 0; i < N; ++i) {
    listed += (i ? ", " : "") + std::string(choices[i].name);
    alternatives += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(choices[i].name);
  }
  const auto it = args.values.find(option);
  if (it == args.values.end())
    return "--" + option + " is required (" + alternatives + ")";
  for (const Choice<T> &c : choices)
    if (it->second == c.name) {
      out = c.value;
      return std::nullopt;
    }
  return "--" + option + "=" + it->second + (N == 1 ? " is not " : " is not one of ") + listed;
}

/// The opening every dd- program with --algo shares: parses argv[1..] into
/// `args` (an unknown option says "see TOOL --help"), answers --help with
/// `usage` on standard output and picks `algo` from `choices` (choose).
/// Returns the exit status to stop with (0 after --help; 1 after printing
/// "TOOL: error: ..." to standard error), or nothing to go on.
template <class T, std::size_t N>
std::optional<int> open_command(const char *tool, int argc, char **argv, const char *usage,
                                const std::set<std::string> &value_options,
                                const std::set<std::string> &flag_options,
                                const Choice<T> (&choices)[N], Args &args, T &algo) {
  std::optional<std::string> problem = parse_args(
      argc, argv, 1, value_options, flag_options, "see " + std::string(tool) + " --help", args);
  if (!problem && args.flags.count("help")) {
    std::fputs(usage, stdout);
    return 0;
  }
  if (!problem)
    problem = choose(args, "algo", choices, algo);
  if (!problem)
    return std::nullopt;
  std::fprintf(stderr, "%s: error: %s\n", tool, problem->c_str());
  return 1;
}

/// `text` as an unsigned decimal integer, or nothing.
inline std::optional<std::uint64_t> to_u64(const std::string &text) {
  std::uint64_t v = 0;
  const char *end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end)
    return std::nullopt;
  return v;
}

/// Reads --name as an integer in [lo, hi] into `out` (left alone when the
/// option is absent); the error says "--name=X is not an integer in [lo, hi]".
inline std::optional<std::string> get_u64(const Args &args, const char *name, std::uint64_t lo,
                                          std::uint64_t hi, std::uint64_t &out) {
  const auto it = args.values.find(name);
  if (it == args.values.end())
    return std::nullopt;
  const std::optional<std::uint64_t> v = to_u64(it->second);
  if (!v || *v < lo || *v > hi)
    return std::string("--") + name + "=" + it->second + " is not an integer in [" +
           std::to_string(lo) + ", " + std::to_string(hi) + "]";
  out = *v;
  return std::nullopt;
}

/// `v` as "%g" prints it (for messages and result lines).
inline std::string format_real(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

/// Reads --name as a finite number in (lo, hi] (lo included when `closed`)
/// into `out` (left alone when the option is absent); the error says
/// "--name=X is not a number in (lo, hi]".
inline std::optional<std::string> get_real(const Args &args, const char *name, double lo,
                                           bool closed, double hi, double &out) {
  const auto it = args.values.find(name);
  if (it == args.values.end())
    return std::nullopt;
  const std::string &text = it->second;
  char *end = nullptr;
  const double v = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
  const bool number = !text.empty() && end == text.c_str() + text.size() && std::isfinite(v);
  if (!number || v > hi || (closed ? v < lo : v <= lo))
    return std::string("--") + name + "=" + text + " is not a number in " + (closed ? "[" : "(") +
           format_real(lo) + ", " + format_real(hi) + "]";
  out = v;
  return std::nullopt;
}

/// The median of `values` (the upper one of an even count), as every tool
/// reports its --runs.
inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

/// The file a tool is working on, named when memory runs out.
inline std::string &current_file() {
  static std::string file;
  return file;
}

/// Makes a failed allocation end the tool with "TOOL: error: FILE: out of
/// memory ..." and status 1. The tools are built without exceptions, so
/// std::bad_alloc cannot be caught: operator new calls this handler instead
/// of throwing. (Readers check every size a file claims before allocating,
/// so this is the last line of defence, for graphs that are genuinely too
/// large or for a memory limit such as `ulimit -v`.)
inline void exit_when_out_of_memory(const char *tool) {
  static const char *name = tool;
  std::set_new_handler([] {
    const std::string &file = current_file();
    std::fprintf(stderr, "%s: error: %s%sout of memory\n", name, file.c_str(),
                 file.empty() ? "" : ": ");
    std::fflush(stderr);
    std::_Exit(1);
  });
}

} // namespace dd::tools

#endif // DD_TOOLS_COMMAND_LINE_H
