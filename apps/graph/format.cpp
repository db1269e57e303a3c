#include "graph/format.h"
#include "graph/reader_util.h"

#include <cstring>
#include <string>

namespace dd::graph {
namespace {

using detail::iequals;

bool istarts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

std::string_view extension(std::string_view name) {
  const std::size_t slash = name.find_last_of('/');
  const std::string_view base = slash == std::string_view::npos ? name : name.substr(slash + 1);
  const std::size_t dot = base.find_last_of('.');
  return dot == std::string_view::npos ? std::string_view() : base.substr(dot);
}

bool is_text_byte(unsigned char c) {
  return c >= 0x20 || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

const char* compression_of(std::string_view data) {
  auto starts = [&](const char* magic, std::size_t n) {
    return data.size() >= n && std::memcmp(data.data(), magic, n) == 0;
  };
  if (starts("\x1f\x8b", 2)) return "gzip";
  if (starts("BZh", 3) && data.size() > 3 && data[3] >= '1' && data[3] <= '9') return "bzip2";
  if (starts("\xfd" "7zXZ\0", 6)) return "xz";
  if (starts("\x28\xb5\x2f\xfd", 4)) return "zstd";
  return nullptr;
}

std::optional<Format> format_from_extension(std::string_view ext, bool empty) {
  if (iequals(ext, ".gr"))
    return empty ? Format::kGaloisGr : Format::kDimacs;
  if (iequals(ext, ".mtx") || iequals(ext, ".mm"))
    return Format::kMatrixMarket;
  if (iequals(ext, ".snap"))
    return Format::kSnap;
  for (const char* e : {".txt", ".el", ".edges", ".edgelist", ".wel", ".tsv"})
    if (iequals(ext, e))
      return Format::kEdgeList;
  return std::nullopt;
}

} // namespace

const char* format_name(Format format) {
  switch (format) {
  case Format::kAuto: return "auto";
  case Format::kGaloisGr: return "gr";
  case Format::kDimacs: return "dimacs";
  case Format::kMatrixMarket: return "mtx";
  case Format::kSnap: return "snap";
  case Format::kEdgeList: return "edgelist";
  }
  return "unknown";
}

const char* format_description(Format format) {
  switch (format) {
  case Format::kAuto: return "detected from content and extension";
  case Format::kGaloisGr: return "Galois binary .gr (version 1)";
  case Format::kDimacs: return "DIMACS shortest-path text (p sp / a lines)";
  case Format::kMatrixMarket: return "Matrix Market coordinate";
  case Format::kSnap: return "SNAP edge list (# comments)";
  case Format::kEdgeList: return "edge list (u v [w] per line)";
  }
  return "unknown";
}

std::optional<Format> parse_format(std::string_view name) {
  struct Alias { const char* name; Format format; };
  static const Alias aliases[] = {
      {"auto", Format::kAuto},           {"gr", Format::kGaloisGr},
      {"galois", Format::kGaloisGr},     {"dimacs", Format::kDimacs},
      {"mtx", Format::kMatrixMarket},    {"mm", Format::kMatrixMarket},
      {"matrixmarket", Format::kMatrixMarket}, {"snap", Format::kSnap},
      {"edgelist", Format::kEdgeList},   {"el", Format::kEdgeList},
      {"edges", Format::kEdgeList},      {"txt", Format::kEdgeList},
  };
  for (const Alias& a : aliases)
    if (iequals(name, a.name))
      return a.format;
  return std::nullopt;
}

Expected<Format> detect_format(std::string_view data, std::string_view name) {
  if (const char* kind = compression_of(data))
    return file_error(name, str_cat("is ", kind, "-compressed; decompress it first"));

  // Binary: a Galois header is four little-endian uint64 whose high bytes are
  // zero, so NULs appear within the first 8 bytes; text formats never have
  // control bytes. Looking at a prefix keeps detection O(1).
  const std::size_t probe = data.size() < 256 ? data.size() : 256;
  for (std::size_t i = 0; i < probe; ++i)
    if (!is_text_byte(static_cast<unsigned char>(data[i])))
      return Format::kGaloisGr;

  if (data.substr(0, 3) == "\xEF\xBB\xBF")
    data.remove_prefix(3);  // a UTF-8 byte order mark; the readers skip it too

  // The first line that is not blank. Signatures (the Matrix Market banner,
  // DIMACS "c"/"p" lines, SNAP's "#") decide at once; a line of digits or a
  // "%" comment could be many things, so a format-naming extension wins then.
  const std::size_t first = data.find_first_not_of(" \t\r\n\f\v");
  const bool empty = first == std::string_view::npos;
  char lead = '\0';
  if (!empty) {
    std::size_t end = data.find('\n', first);
    std::string_view line = data.substr(first, end == std::string_view::npos ? end : end - first);
    if (istarts_with(line, "%%MatrixMarket"))
      return Format::kMatrixMarket;
    lead = line[0];
    const bool word_end = line.size() == 1 || line[1] == ' ' || line[1] == '\t' ||
                          line[1] == '\r';
    if ((lead == 'c' || lead == 'p') && word_end)
      return Format::kDimacs;
    if (lead == '#')
      return Format::kSnap;
  }
  if (std::optional<Format> f = format_from_extension(extension(name), empty))
    return *f;
  if ((lead >= '0' && lead <= '9') || lead == '%')
    return Format::kEdgeList;  // plain "u v" lines, or KONECT-style "%" comments first
  return file_error(name, empty ? "is empty and its extension names no graph format; use --format="
                                : "cannot tell the graph format from the content or the "
                                  "extension; use --format=");
}

} // namespace dd::graph
