// Writing an output file without damaging what its path names.
//
// Shared by decoupler (tool/OutputWriter.cpp) and the graph tools
// (apps/graph/file.cpp), so it is plain C++17 and POSIX: no LLVM, no
// exceptions. What the path names decides how it is written (docs/usage.md,
// "Output files"):
//
//   nothing yet            a new file: written to a temporary file beside it
//                          and renamed into place, so that readers see no
//                          file or the whole file;
//   a regular file         the same; the new file gets the old one's mode,
//                          owner and group. Where that cannot be kept (the
//                          owner or group cannot be given away, the directory
//                          is not writable) or the file has several hard
//                          links, the file is rewritten through its own inode
//                          instead, so that its metadata and every link stay;
//   a symbolic link        followed; the file it leads to is written by these
//                          rules and the link stays a link;
//   /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N
//                          written to that open descriptor;
//   a device, a FIFO       written through (/dev/null stays a device);
//   a directory, a socket  an error.
//
// The temporary file is ".NAME.tmp-XXXXXX", or ".dd-tmp-XXXXXX" where that
// would be longer than the file system allows a name to be.
#ifndef DD_SUPPORT_OUTPUT_FILE_H
#define DD_SUPPORT_OUTPUT_FILE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace dd::output {

/// How an OutputFile writes its path (decided by open()).
enum class Method {
  kNone,       ///< not open
  kReplace,    ///< a temporary file renamed over the target (atomic)
  kInPlace,    ///< an existing regular file rewritten through its inode
  kThrough,    ///< a device or FIFO, written as opened
  kDescriptor, ///< an open descriptor of this process (/dev/stdout, ...)
};

/// An output written by the rules of the file comment.
///
///   OutputFile out;
///   if (!out.open(path)) report(out.error());
///   out.write(data, size); ...
///   if (!out.commit()) report(out.error());
///
/// Write errors are remembered and reported by commit(). Destroying it
/// without a successful commit() removes the temporary file (a file written
/// in place or through keeps what was written).
class OutputFile {
public:
  OutputFile() = default;
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;
  ~OutputFile();

  /// Decides how `path` is written and opens it; false (with error()) when
  /// it cannot be. Opening a FIFO waits for its reader, as a shell does.
  bool open(const std::string &path);
  void write(const void *data, std::size_t size);
  void write(std::string_view text) { write(text.data(), text.size()); }
  /// Writes what is buffered, syncs a file, and renames a temporary file
  /// into place.
  bool commit();

  /// Why open() or commit() failed: a sentence without the path, such as
  /// "is a directory" or "write error: No space left on device".
  const std::string &error() const { return error_; }
  Method method() const { return method_; }

private:
  bool fail(std::string message);
  bool fail_errno(const std::string &what, int err);
  bool open_replace(const std::string &target, bool exists, const void *st);
  bool open_in_place(const std::string &target);
  void flush_buffer();
  void write_out(const char *data, std::size_t size);
  void discard();

  Method method_ = Method::kNone;
  std::string target_; ///< the file written (symbolic links resolved)
  std::string temp_;   ///< kReplace: the temporary file
  int fd_ = -1;
  std::string buffer_;
  std::uint64_t written_ = 0;
  int write_errno_ = 0;
  std::string error_;
};

/// Writes `contents` to `path` with an OutputFile; on failure returns false
/// and stores the reason in `error`.
bool write_file(const std::string &path, std::string_view contents,
                std::string &error);

/// Whether `a` and `b` name one existing file (the same device and inode,
/// symbolic links followed): an output that would overwrite an input.
bool same_file(const std::string &a, const std::string &b);

} // namespace dd::output

#endif // DD_SUPPORT_OUTPUT_FILE_H
