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

Expected<std::string> read_file(const std::string& path) {
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
  // pipes (/dev/stdin) have none.
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got == 0)
      break;
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

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::discard() {
  if (file_) {
    std::fclose(file_);
    file_ = nullptr;
  }
  if (!temp_path_.empty()) {
    ::unlink(temp_path_.c_str());
    temp_path_.clear();
  }
}

Status AtomicFile::open(const std::string& path) {
  discard();
  path_ = path;
  write_errno_ = 0;
  std::string templ = path + ".tmp.XXXXXX";
  const int fd = ::mkstemp(templ.data());
  if (fd < 0)
    return file_error(path, str_cat("cannot create a temporary file beside it: ",
                                    errno_text(errno)));
  temp_path_ = templ;
  // mkstemp creates mode 0600; give the result the usual 0666 & ~umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    const int err = errno;
    ::close(fd);
    discard();
    return file_error(path, str_cat("cannot open for writing: ", errno_text(err)));
  }
  return Status();
}

void AtomicFile::write(const void* data, std::size_t size) {
  if (!file_ || write_errno_ != 0 || size == 0)
    return;
  if (std::fwrite(data, 1, size, file_) != size)
    write_errno_ = errno != 0 ? errno : EIO;
}

Status AtomicFile::commit() {
  if (!file_)
    return file_error(path_, "write after a failed open");
  if (write_errno_ == 0 && std::fflush(file_) != 0)
    write_errno_ = errno;
  if (write_errno_ == 0 && ::fsync(::fileno(file_)) != 0 && errno != EINVAL)
    write_errno_ = errno;  // EINVAL: not syncable (a pipe, /dev/null); harmless
  const int close_result = std::fclose(file_);
  file_ = nullptr;
  if (write_errno_ == 0 && close_result != 0)
    write_errno_ = errno;
  if (write_errno_ != 0) {
    const int err = write_errno_;
    discard();
    return file_error(path_, str_cat("write error: ", errno_text(err)));
  }
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    discard();
    return file_error(path_, str_cat("cannot rename the temporary file into place: ",
                                     errno_text(err)));
  }
  temp_path_.clear();
  return Status();
}

Status write_file_atomic(const std::string& path, std::string_view contents) {
  AtomicFile out;
  if (Status s = out.open(path); !s.ok())
    return s;
  out.write(contents);
  return out.commit();
}

} // namespace dd::graph
