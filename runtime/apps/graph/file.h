// Whole-file reads and atomic writes (POSIX).
//
// Readers parse from memory (which is also what the fuzzers feed), so a file
// is read whole. Writers never leave a partial file behind: they write a
// temporary file beside the target and rename it over the target only when
// everything was written and flushed.
#ifndef DD_GRAPH_FILE_H
#define DD_GRAPH_FILE_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "graph/errors.h"

namespace dd::graph {

/// The contents of `path`. Errors ("PATH: cannot open: No such file ...")
/// for missing, unreadable or directory paths and for files larger than the
/// machine's memory.
Expected<std::string> read_file(const std::string& path);

/// The machine's physical memory in bytes, or 0 when unknown. Readers refuse
/// inputs whose declared sizes could never fit, instead of dying in malloc.
std::uint64_t physical_memory_bytes();

/// A file that appears at its path only when commit() succeeds.
///
///   AtomicFile out;
///   if (Status s = out.open(path); !s.ok()) return s;
///   ... out.write(data, size) ...
///   return out.commit();
///
/// Destroying it without a successful commit() removes the temporary file.
/// Write errors are remembered and reported by commit(), so callers can write
/// without checking every call.
class AtomicFile {
public:
  AtomicFile() = default;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  /// Creates the temporary file "PATH.tmp.XXXXXX" in the target's directory
  /// (so the final rename stays within one file system).
  Status open(const std::string& path);
  void write(const void* data, std::size_t size);
  void write(std::string_view text) { write(text.data(), text.size()); }
  /// Flushes, syncs and renames the temporary file to the target path.
  Status commit();

private:
  void discard();

  std::string path_;
  std::string temp_path_;
  std::FILE* file_ = nullptr;
  int write_errno_ = 0;
};

/// Writes `contents` to `path` atomically (an AtomicFile in one call).
Status write_file_atomic(const std::string& path, std::string_view contents);

} // namespace dd::graph

#endif // DD_GRAPH_FILE_H
