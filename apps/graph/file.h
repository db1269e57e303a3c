// Whole-file reads and safe writes (POSIX).
//
// Readers parse from memory (which is also what the fuzzers feed), so a file
// is read whole; a stream (a pipe, a FIFO, /dev/zero) is read up to a limit.
// Writers never leave a partial file behind and never replace what is not a
// regular file (support/output_file.h).
#ifndef DD_GRAPH_FILE_H
#define DD_GRAPH_FILE_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>

#include "graph/errors.h"
#include "support/output_file.h"

namespace dd::graph {

/// The default of ReadOptions::max_stream_bytes: 4 GiB.
inline constexpr std::uint64_t kDefaultMaxStreamBytes = std::uint64_t{4} << 30;

/// The contents of `path`. Errors ("PATH: cannot open: No such file ...")
/// for missing, unreadable or directory paths, for files larger than the
/// machine's memory, and for streams (anything but a regular file: pipes,
/// FIFOs, devices such as /dev/zero) longer than `max_stream_bytes`.
Expected<std::string> read_file(const std::string& path,
                                std::uint64_t max_stream_bytes = kDefaultMaxStreamBytes);

/// The machine's physical memory in bytes, or 0 when unknown. Readers refuse
/// inputs whose declared sizes could never fit, instead of dying in malloc.
std::uint64_t physical_memory_bytes();

/// An output file, written by the rules of support/output_file.h (shared
/// with decoupler): a regular file is replaced atomically (a temporary file
/// beside it, renamed over it) keeping its mode, owner, group and hard links;
/// a symbolic link's target is written and the link stays; devices, FIFOs
/// and /dev/stdout are written through, never replaced.
///
///   OutputFile out;
///   if (Status s = out.open(path); !s.ok()) return s;
///   ... out.write(data, size) ...
///   return out.commit();
///
/// Destroying it without a successful commit() removes the temporary file.
/// Write errors are remembered and reported by commit(), so callers can write
/// without checking every call.
class OutputFile {
public:
  Status open(const std::string& path);
  void write(const void* data, std::size_t size) { file_.write(data, size); }
  void write(std::string_view text) { file_.write(text); }
  Status commit();

private:
  std::string path_;
  dd::output::OutputFile file_;
};

/// Writes `contents` to `path` (an OutputFile in one call).
Status write_file(const std::string& path, std::string_view contents);

/// An error when `output` is the same file as one of `inputs` (device and
/// inode, links followed): writing it would destroy the input while it is
/// read. `option` names the output in the message ("--out").
Status check_output_not_input(const std::string& output,
                              std::initializer_list<std::string> inputs,
                              std::string_view option);

} // namespace dd::graph

#endif // DD_GRAPH_FILE_H
