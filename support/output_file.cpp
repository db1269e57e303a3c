// Writing an output file without damaging what its path names (see the
// header for the rules).
#include "support/output_file.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dd::output {
namespace {

constexpr std::size_t kBufferBytes = 1 << 20;
constexpr int kMaxLinkHops = 40; // Linux's limit (ELOOP)

std::string errno_text(int err) { return std::strerror(err); }

/// The descriptor a path stands for (/dev/stdout, /dev/fd/N,
/// /proc/self/fd/N), or -1. Such paths must not be resolved: the links
/// behind them name pipes and terminals ("pipe:[123]"), not paths.
int descriptor_of(const std::string &path) {
  if (path == "/dev/stdout")
    return 1;
  if (path == "/dev/stderr")
    return 2;
  for (const char *prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    const std::size_t n = std::strlen(prefix);
    if (path.compare(0, n, prefix) != 0 || path.size() == n ||
        path.size() > n + 9)
      continue;
    int fd = 0;
    for (std::size_t i = n; i < path.size(); ++i) {
      if (path[i] < '0' || path[i] > '9')
        return -1;
      fd = fd * 10 + (path[i] - '0');
    }
    return fd;
  }
  return -1;
}

std::string directory_of(const std::string &path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string name_of(const std::string &path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// Six characters for a temporary name; uniqueness comes from O_EXCL, this
/// only makes collisions rare.
std::string random_suffix() {
  static std::atomic<std::uint64_t> counter{0};
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  std::uint64_t x = static_cast<std::uint64_t>(now.tv_nsec) ^
                    (static_cast<std::uint64_t>(now.tv_sec) << 30) ^
                    (static_cast<std::uint64_t>(getpid()) << 40) ^
                    (counter.fetch_add(1) * 0x9e3779b97f4a7c15ull);
  // splitmix64's finalizer.
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  x ^= x >> 31;
  static const char alphabet[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string out;
  for (int i = 0; i < 6; ++i, x /= 62)
    out += alphabet[x % 62];
  return out;
}

} // namespace

OutputFile::~OutputFile() { discard(); }

bool OutputFile::fail(std::string message) {
  error_ = std::move(message);
  discard();
  return false;
}

bool OutputFile::fail_errno(const std::string &what, int err) {
  return fail(what + ": " + errno_text(err));
}

void OutputFile::discard() {
  if (fd_ >= 0)
    ::close(fd_);
  fd_ = -1;
  if (!temp_.empty())
    ::unlink(temp_.c_str());
  temp_.clear();
  buffer_.clear();
  method_ = Method::kNone;
}

bool OutputFile::open(const std::string &path) {
  discard();
  error_.clear();
  written_ = 0;
  write_errno_ = 0;
  if (path.empty())
    return fail("the output path is empty");

  // Follow symbolic links one at a time: a link's target is what is
  // written, and a link to a descriptor must stop at the descriptor.
  std::string current = path;
  struct stat st;
  for (int hops = 0;; ++hops) {
    if (const int fd = descriptor_of(current); fd >= 0) {
      fd_ = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
      if (fd_ < 0)
        return fail_errno("cannot use descriptor " + std::to_string(fd), errno);
      method_ = Method::kDescriptor;
      target_ = current;
      return true;
    }
    if (::lstat(current.c_str(), &st) != 0) {
      if (errno == ENOENT)
        return open_replace(current, /*exists=*/false, nullptr);
      return fail_errno("cannot stat '" + current + "'", errno);
    }
    if (!S_ISLNK(st.st_mode))
      break;
    if (hops == kMaxLinkHops)
      return fail_errno("cannot follow '" + current + "'", ELOOP);
    std::string link(PATH_MAX, '\0');
    const ssize_t got = ::readlink(current.c_str(), link.data(), link.size());
    if (got < 0)
      return fail_errno("cannot read the link '" + current + "'", errno);
    link.resize(static_cast<std::size_t>(got));
    current = link[0] == '/' ? link : directory_of(current) + "/" + link;
  }

  target_ = current;
  if (S_ISDIR(st.st_mode))
    return fail("is a directory");
  if (S_ISSOCK(st.st_mode))
    return fail("is a socket");
  if (S_ISREG(st.st_mode)) {
    // Every hard link must see the new contents, so the inode stays.
    if (st.st_nlink > 1)
      return open_in_place(current);
    return open_replace(current, /*exists=*/true, &st);
  }
  // A device, a FIFO: the path is written as it is, never replaced.
  fd_ = ::open(current.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd_ < 0)
    return fail_errno("cannot open for writing", errno);
  method_ = Method::kThrough;
  return true;
}

bool OutputFile::open_replace(const std::string &target, bool exists,
                              const void *old_stat) {
  const struct stat *old = static_cast<const struct stat *>(old_stat);
  target_ = target;
  const std::string dir = directory_of(target);
  const std::string name = name_of(target);
  // A legal name plus ".tmp-XXXXXX" may be too long for the file system.
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  const std::size_t limit = name_max > 0 ? static_cast<std::size_t>(name_max)
                                         : std::size_t{NAME_MAX};
  const bool long_name = name.size() + 12 > limit;
  int err = 0;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string temp =
        dir + "/" +
        (long_name ? ".dd-tmp-" : "." + name + ".tmp-") + random_suffix();
    // 0666 less the umask, as for any new file.
    fd_ = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0) {
      temp_ = temp;
      break;
    }
    err = errno;
    if (err != EEXIST)
      break;
  }
  if (fd_ < 0) {
    // A writable file in a directory we cannot write to is still writable.
    if (exists && (err == EACCES || err == EPERM))
      return open_in_place(target);
    return fail_errno("cannot create a temporary file in '" + dir + "'", err);
  }
  method_ = Method::kReplace;
  if (!exists)
    return true;

  // The replacement keeps the file's owner, group and mode. The owner first:
  // a change of owner clears set-user-ID bits.
  struct stat temp_stat;
  if (::fstat(fd_, &temp_stat) != 0)
    return fail_errno("cannot stat the temporary file", errno);
  if (temp_stat.st_uid != old->st_uid || temp_stat.st_gid != old->st_gid) {
    if (::fchown(fd_, old->st_uid, old->st_gid) != 0) {
      // Not ours to give away: rewrite the file itself.
      ::close(fd_);
      fd_ = -1;
      ::unlink(temp_.c_str());
      temp_.clear();
      return open_in_place(target);
    }
  }
  if (::fchmod(fd_, old->st_mode & 07777) != 0)
    return fail_errno("cannot set the mode of the temporary file", errno);
  return true;
}

bool OutputFile::open_in_place(const std::string &target) {
  target_ = target;
  fd_ = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd_ < 0)
    return fail_errno("cannot open for writing", errno);
  method_ = Method::kInPlace;
  return true;
}

void OutputFile::write_out(const char *data, std::size_t size) {
  while (size > 0 && write_errno_ == 0) {
    const ssize_t done = ::write(fd_, data, size);
    if (done < 0) {
      if (errno != EINTR)
        write_errno_ = errno;
      continue;
    }
    data += done;
    size -= static_cast<std::size_t>(done);
    written_ += static_cast<std::uint64_t>(done);
  }
}

void OutputFile::flush_buffer() {
  write_out(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void OutputFile::write(const void *data, std::size_t size) {
  if (fd_ < 0 || write_errno_ != 0 || size == 0)
    return;
  const char *bytes = static_cast<const char *>(data);
  if (buffer_.size() + size < kBufferBytes) {
    buffer_.append(bytes, size);
    return;
  }
  flush_buffer();
  if (size < kBufferBytes)
    buffer_.append(bytes, size);
  else
    write_out(bytes, size);
}

bool OutputFile::commit() {
  if (fd_ < 0)
    return fail(error_.empty() ? "not open for writing" : error_);
  flush_buffer();
  const bool is_file = method_ == Method::kReplace || method_ == Method::kInPlace;
  // In place, a shorter result must not keep the old file's tail.
  if (write_errno_ == 0 && method_ == Method::kInPlace &&
      ::ftruncate(fd_, static_cast<off_t>(written_)) != 0)
    write_errno_ = errno;
  if (write_errno_ == 0 && is_file && ::fsync(fd_) != 0 && errno != EINVAL)
    write_errno_ = errno;
  const int closed = ::close(fd_);
  fd_ = -1;
  if (write_errno_ == 0 && closed != 0 && errno != EINTR)
    write_errno_ = errno;
  if (write_errno_ != 0)
    return fail_errno("write error", write_errno_);
  if (method_ == Method::kReplace &&
      ::rename(temp_.c_str(), target_.c_str()) != 0)
    return fail_errno("cannot rename the temporary file into place", errno);
  temp_.clear();
  return true;
}

bool write_file(const std::string &path, std::string_view contents,
                std::string &error) {
  OutputFile out;
  if (!out.open(path)) {
    error = out.error();
    return false;
  }
  out.write(contents);
  if (!out.commit()) {
    error = out.error();
    return false;
  }
  return true;
}

bool same_file(const std::string &a, const std::string &b) {
  struct stat sa, sb;
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0)
    return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

} // namespace dd::output
