#include "graph/file.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dd::graph {
namespace {

std::string errno_text(int err) { return std::strerror(err); }

} // namespace

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0)
    return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

Expected<std::string> read_file(const std::string& path, std::uint64_t max_stream_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return file_error(path, str_cat("cannot open: ", errno_text(errno)));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return file_error(path, str_cat("cannot stat: ", errno_text(err)));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return file_error(path, "is a directory, not a graph file");
  }
  std::string data;
  if (S_ISREG(st.st_mode)) {
    const std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
    // Larger than memory cannot be read whole; trying would abort in std::string.
    const std::uint64_t memory = physical_memory_bytes();
    if (memory != 0 && size > memory) {
      ::close(fd);
      return file_error(path, str_cat("is ", size, " bytes, more than the ", memory,
                                      " bytes of memory"));
    }
    data.reserve(size);
  }
  // Read to end of file even for regular files: the size may change, and
  // pipes (/dev/stdin) have none. A stream may never end (/dev/zero), so it
  // is read up to a limit.
  const bool stream = !S_ISREG(st.st_mode);
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got == 0)
      break;
    if (got > 0 && stream && data.size() + static_cast<std::size_t>(got) > max_stream_bytes) {
      ::close(fd);
      return file_error(path, str_cat("is not a regular file and has more than ",
                                      max_stream_bytes,
                                      " bytes, the limit for streamed input (--max-input-bytes)"));
    }
    if (got < 0) {
      if (errno == EINTR)
        continue;
      const int err = errno;
      ::close(fd);
      return file_error(path, str_cat("read error: ", errno_text(err)));
    }
    data.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return data;
}

Status OutputFile::open(const std::string& path) {
  path_ = path;
  if (!file_.open(path))
    return file_error(path, file_.error());
  return Status();
}

Status OutputFile::commit() {
  if (!file_.commit())
    return file_error(path_, file_.error());
  return Status();
}

Status write_file(const std::string& path, std::string_view contents) {
  OutputFile out;
  if (Status s = out.open(path); !s.ok())
    return s;
  out.write(contents);
  return out.commit();
}

Status check_output_not_input(const std::string& output,
                              std::initializer_list<std::string> inputs,
                              std::string_view option) {
  for (const std::string& input : inputs)
    if (dd::output::same_file(output, input))
      return Status::error(str_cat("refusing to write ", option, " '", output,
                                   "': it is the input '", input, "'"));
  return Status();
}

} // namespace dd::graph
