// Errors as values for the graph library.
//
// Nothing in dd::graph throws or aborts on bad input: a reader, generator or
// reference that cannot do its job returns a Status (or an Expected<T>) whose
// message names what went wrong and where, in the form compilers use so that
// editors and lit can jump to it:
//
//   "FILE:LINE: message"        text formats (1-based line numbers)
//   "FILE: offset N: message"   binary formats (byte offset from the start)
//   "FILE: message"             the file as a whole (cannot open, empty, ...)
//
// The library is built with -fno-exceptions and must also compile when included
// from .cu files by nvcc, so this is plain C++17 with no dependencies.
#ifndef DD_GRAPH_ERRORS_H
#define DD_GRAPH_ERRORS_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

// Ignoring a returned Status is a bug, so the types are [[nodiscard]]. nvcc's
// front end also warns when the Status& of a plain assignment is discarded,
// so .cu translation units compiled by nvcc get the types without it.
#if defined(__CUDACC__) && !defined(__clang__)
#define DD_GRAPH_NODISCARD
#else
#define DD_GRAPH_NODISCARD [[nodiscard]]
#endif

namespace dd::graph {

/// The outcome of an operation that produces no value: success, or an error
/// with a human-readable message (see the file comment for its shape).
class DD_GRAPH_NODISCARD Status {
public:
  /// Success.
  Status() = default;

  /// An error carrying `message`. An empty message is replaced so that an
  /// error can never be mistaken for success.
  static Status error(std::string message) {
    Status s;
    s.failed_ = true;
    s.message_ = message.empty() ? std::string("unknown error") : std::move(message);
    return s;
  }

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  /// The error message; empty on success.
  const std::string& message() const { return message_; }

private:
  bool failed_ = false;
  std::string message_;
};

/// A value of type T, or the Status saying why there is none.
///
/// Accessing the value of an Expected that holds an error is a programming
/// error (not an input error): it prints the message and aborts.
template <typename T>
class DD_GRAPH_NODISCARD Expected {
public:
  // Two overloads (not one by-value parameter) so that `return local;` moves
  // under C++17's implicit-move rule.
  Expected(const T& value) : value_(value) {}
  Expected(T&& value) : value_(std::move(value)) {}
  /// From an error Status. An ok Status carries no value, which would be a
  /// bug in the caller; it is turned into an error rather than trusted.
  Expected(Status status)
      : status_(status.ok() ? Status::error("internal error: Expected built from a success Status")
                            : std::move(status)) {}

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  /// Success when a value is held, else the error.
  const Status& status() const { return status_; }

  T& value() & { check(); return *value_; }
  const T& value() const& { check(); return *value_; }
  T&& value() && { check(); return std::move(*value_); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

private:
  void check() const {
    if (!value_) {
      std::fprintf(stderr, "dd::graph: value of a failed Expected used: %s\n",
                   status_.message().c_str());
      std::abort();
    }
  }

  Status status_;
  std::optional<T> value_;
};

namespace detail {
inline void append(std::string& out, std::string_view s) { out.append(s.data(), s.size()); }
inline void append(std::string& out, const char* s) { out.append(s); }
inline void append(std::string& out, const std::string& s) { out.append(s); }
inline void append(std::string& out, char c) { out.push_back(c); }
template <typename Int, typename = decltype(std::to_string(Int{}))>
inline void append(std::string& out, Int v) { out.append(std::to_string(v)); }
} // namespace detail

/// Concatenates strings, characters and numbers into one std::string.
template <typename... Parts>
std::string str_cat(const Parts&... parts) {
  std::string out;
  (detail::append(out, parts), ...);
  return out;
}

/// "FILE: message".
inline Status file_error(std::string_view file, std::string_view message) {
  return Status::error(str_cat(file, ": ", message));
}

/// "FILE:LINE: message" (line is 1-based).
inline Status line_error(std::string_view file, std::uint64_t line, std::string_view message) {
  return Status::error(str_cat(file, ':', line, ": ", message));
}

/// "FILE: offset N: message" (N in bytes from the start of the file).
inline Status offset_error(std::string_view file, std::uint64_t offset,
                           std::string_view message) {
  return Status::error(str_cat(file, ": offset ", offset, ": ", message));
}

} // namespace dd::graph

#endif // DD_GRAPH_ERRORS_H
