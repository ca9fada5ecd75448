// MAP.json and the findings buffer (ub_findings.h). The map is JSON of a
// fixed shape, written here and read back by its own small reader (the
// project has no JSON library; Debian 12's are not installed): an object
// whose values are numbers, strings, or arrays of strings or of flat
// objects of numbers and strings. Nothing nests deeper, so the reader is a
// loop over tokens with no recursion.
#include "ub_findings.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <tuple>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "frontend/spirv/module.h"
#include "ir/diagnostic.h"
#include "output/spirv/spirv_output.h"
#include "sluice_pipeline.h"

namespace sluice::tools {
namespace {

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// Tokens of the map's JSON: punctuation, strings (unescaped) and numbers.
struct Token {
  char kind = 0;  // one of {}[]:, or 's' string, 'n' number, 0 end
  std::string text;
  std::uint64_t number = 0;
  std::uint32_t line = 1, column = 1;
};

class Lexer {
 public:
  Lexer(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  Result<Token> next() {
    while (at_ < text_.size() && std::strchr(" \t\r\n", text_[at_])) advance();
    Token t;
    t.line = line_;
    t.column = column_;
    if (at_ == text_.size()) return t;
    const char c = text_[at_];
    if (std::strchr("{}[]:,", c)) {
      t.kind = c;
      advance();
      return t;
    }
    if (c == '"') {
      advance();
      t.kind = 's';
      while (at_ < text_.size() && text_[at_] != '"') {
        if (text_[at_] == '\\') {
          advance();
          if (at_ == text_.size()) break;
          const char e = text_[at_];
          if (e == 'u') {
            unsigned code = 0;
            for (int i = 0; i < 4; ++i) {
              advance();
              const char h = at_ < text_.size() ? text_[at_] : 'x';
              const int digit = std::isxdigit(static_cast<unsigned char>(h))
                                    ? (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (h | 0x20) - 'a' + 10)
                                    : -1;
              if (digit < 0) return fail(t, "a \\u escape needs four hex digits");
              code = code * 16 + static_cast<unsigned>(digit);
            }
            t.text += static_cast<char>(code & 0x7f);
          } else {
            t.text += e == 'n' ? '\n' : e == 't' ? '\t' : e;
          }
          advance();
          continue;
        }
        t.text += text_[at_];
        advance();
      }
      if (at_ == text_.size()) return fail(t, "unterminated string");
      advance();
      return t;
    }
    if (c >= '0' && c <= '9') {
      t.kind = 'n';
      while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') {
        if (t.number > (std::uint64_t{1} << 40)) return fail(t, "number too large");
        t.number = t.number * 10 + static_cast<std::uint64_t>(text_[at_] - '0');
        advance();
      }
      return t;
    }
    return fail(t, fmt::format("unexpected '{}'", c));
  }

  Error fail(const Token& t, const std::string& message) const {
    return Error{fmt::format("{}:{}:{}: error: {}", path_, t.line, t.column, message)};
  }

 private:
  void advance() {
    if (text_[at_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++at_;
  }
  std::string_view text_;
  const std::string& path_;
  std::size_t at_ = 0;
  std::uint32_t line_ = 1, column_ = 1;
};

// A SPIR-V file's lines are those of its disassembly without the header
// (`spirv-dis --no-header FILE`: line N is the N-th instruction), which is
// what the SPIR-V reader gives an instruction without OpLine
// (src/frontend/spirv/reader_locations.cpp).
std::string spirv_lines(const std::string& path) {
  const spirv_in::ParseResult parsed = spirv_in::parse_file(path);
  if (!parsed.ok()) return {};
  auto text = spirv::disassemble(parsed.value().binary, spirv::TargetEnv::Spirv1_6);
  if (!text) return {};
  std::size_t at = 0;  // the header: comment lines, each "; ..."
  while (at < text->size() && (*text)[at] == ';') {
    const std::size_t eol = text->find('\n', at);
    at = eol == std::string::npos ? text->size() : eol + 1;
  }
  return text->substr(at);
}

const std::string* read_source(std::map<std::string, std::string>& cache, const std::string& path) {
  auto it = cache.find(path);
  if (it == cache.end()) {
    std::string text;
    if (is_spirv_path(path)) {
      text = spirv_lines(path);
    } else if (std::ifstream in(path, std::ios::binary); in) {
      text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    it = cache.emplace(path, std::move(text)).first;
  }
  return it->second.empty() ? nullptr : &it->second;
}

}  // namespace

const UbLocation* UbMap::find(std::uint32_t id) const {
  for (const UbLocation& l : locations)
    if (l.id == id) return &l;
  return nullptr;
}

UbMap make_ub_map(const ir::Module& m, const transform::UbCheckMap& checks) {
  UbMap map{checks.set, checks.binding, checks.capacity, static_cast<std::uint32_t>(checks.sites.size()), {}};
  std::set<std::uint32_t> seen;
  for (const transform::UbSite& s : checks.sites) {
    if (!s.location.valid() || !seen.insert(s.location.index()).second) continue;
    const ir::SourceLocation& l = m.location(s.location);
    const auto& files = m.source_files();
    map.locations.push_back(
        UbLocation{s.location.index(), l.file < files.size() ? files[l.file] : std::string(), l.line, l.column});
  }
  return map;
}

std::string ub_map_json(const UbMap& map) {
  std::string out = fmt::format("{{\n  \"format\": \"sluice-ub-map 1\",\n  \"set\": {},\n  \"binding\": {},\n"
                                "  \"capacity\": {},\n  \"sites\": {},\n  \"checks\": [",
                                map.set, map.binding, map.capacity, map.sites);
  for (std::uint32_t i = 0; i < transform::kUbCheckCount; ++i)
    out += (i ? ", " : "") + json_string(transform::ub_check_name(i));
  out += "],\n  \"locations\": [";
  for (std::size_t i = 0; i < map.locations.size(); ++i) {
    const UbLocation& l = map.locations[i];
    out += fmt::format("{}\n    {{\"id\": {}, \"file\": {}, \"line\": {}, \"column\": {}}}", i ? "," : "", l.id,
                       json_string(l.file), l.line, l.column);
  }
  return out + "\n  ]\n}\n";
}

Result<UbMap> parse_ub_map(std::string_view text, const std::string& path) {
  Lexer lex(text, path);
  UbMap map;
  bool have_capacity = false;
  auto expect = [&](char kind) -> Result<Token> {
    auto t = lex.next();
    if (!t) return t;
    if (t->kind != kind) return lex.fail(*t, fmt::format("expected '{}'", kind == 's' ? '"' : kind));
    return t;
  };
  if (auto t = expect('{'); !t) return t.failure();
  for (;;) {
    auto key = lex.next();
    if (!key) return key.failure();
    if (key->kind == '}') break;
    if (key->kind == ',') continue;
    if (key->kind != 's') return lex.fail(*key, "expected a key");
    if (auto t = expect(':'); !t) return t.failure();
    auto value = lex.next();
    if (!value) return value.failure();
    if (value->kind == 'n') {
      const std::uint64_t n = value->number;
      if (n > 0xffffffffu) return lex.fail(*value, "number too large");
      if (key->text == "set") map.set = static_cast<std::uint32_t>(n);
      else if (key->text == "binding") map.binding = static_cast<std::uint32_t>(n);
      else if (key->text == "sites") map.sites = static_cast<std::uint32_t>(n);
      else if (key->text == "capacity") {
        map.capacity = static_cast<std::uint32_t>(n);
        have_capacity = true;
      }
      continue;
    }
    if (value->kind == 's') continue;
    if (value->kind != '[') return lex.fail(*value, "expected a number, a string or an array");
    // An array of strings or of flat objects.
    for (;;) {
      auto item = lex.next();
      if (!item) return item.failure();
      if (item->kind == ']') break;
      if (item->kind == ',' || item->kind == 's' || item->kind == 'n') continue;
      if (item->kind != '{') return lex.fail(*item, "expected a string or an object");
      UbLocation l;
      for (;;) {
        auto field = lex.next();
        if (!field) return field.failure();
        if (field->kind == '}') break;
        if (field->kind == ',') continue;
        if (field->kind != 's') return lex.fail(*field, "expected a key");
        if (auto t = expect(':'); !t) return t.failure();
        auto v = lex.next();
        if (!v) return v.failure();
        if (v->kind != 'n' && v->kind != 's') return lex.fail(*v, "expected a number or a string");
        if (v->kind == 'n' && v->number > 0xffffffffu) return lex.fail(*v, "number too large");
        const auto n = static_cast<std::uint32_t>(v->number);
        if (field->text == "id") l.id = n;
        else if (field->text == "file") l.file = v->text;
        else if (field->text == "line") l.line = n;
        else if (field->text == "column") l.column = n;
      }
      if (key->text == "locations") map.locations.push_back(std::move(l));
    }
  }
  if (!have_capacity || map.capacity == 0)
    return Error{fmt::format("{}: error: not a ub-check map (no \"capacity\")", path)};
  return map;
}

Result<UbFindings> decode_ub_findings(std::span<const std::uint8_t> bytes, const UbMap& map) {
  if (bytes.size() < transform::kUbHeaderBytes)
    return Error{fmt::format("the findings buffer has {} bytes; it needs at least {}", bytes.size(),
                             transform::kUbHeaderBytes)};
  auto word = [&](std::size_t at) {
    std::uint32_t w = 0;
    std::memcpy(&w, bytes.data() + at, sizeof w);
    return w;
  };
  UbFindings out;
  out.capacity = map.capacity;
  out.reports = word(0);
  const std::uint64_t room = (bytes.size() - transform::kUbHeaderBytes) / transform::kUbRecordBytes;
  out.recorded = std::min<std::uint64_t>({out.reports, map.capacity, room});
  // (check, location) -> its distinct invocations, as (y, x): "first" is
  // the first invocation in raster order, not the first record (the
  // atomic counter orders records as the device happened to run them).
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::set<std::pair<std::uint32_t, std::uint32_t>>> seen;
  for (std::uint64_t i = 0; i < out.recorded; ++i) {
    const std::size_t at = transform::kUbHeaderBytes + static_cast<std::size_t>(i) * transform::kUbRecordBytes;
    seen[{word(at), word(at + 4)}].insert({word(at + 12), word(at + 8)});
  }
  for (const auto& [key, invocations] : seen) {
    UbFinding f;
    f.check = key.first;
    if (const UbLocation* l = map.find(key.second)) {
      f.file = l->file;
      f.line = l->line;
      f.column = l->column;
    }
    f.invocations = invocations.size();
    f.y = invocations.begin()->first;
    f.x = invocations.begin()->second;
    out.findings.push_back(std::move(f));
  }
  std::stable_sort(out.findings.begin(), out.findings.end(), [](const UbFinding& a, const UbFinding& b) {
    return std::tie(a.file, a.line, a.column, a.check) < std::tie(b.file, b.line, b.column, b.check);
  });
  return out;
}

void UbFindings::append(const UbFindings& more) {
  findings.insert(findings.end(), more.findings.begin(), more.findings.end());
  reports += more.reports;
  recorded += more.recorded;
  capacity = std::max(capacity, more.capacity);
}

std::string describe_ub_finding(const UbFinding& f) {
  const std::string_view name = transform::ub_check_name(f.check);
  const std::string where = f.file.empty() ? std::string("<unknown location>")
                            : f.line == 0  ? f.file
                                           : fmt::format("{}:{}:{}", f.file, f.line, f.column);
  return fmt::format("{}: {} [{}] in {} invocation{}, first at ({}, {})", where, transform::ub_check_message(f.check),
                     name.empty() ? fmt::format("check {}", f.check) : std::string(name), f.invocations,
                     f.invocations == 1 ? "" : "s", f.x, f.y);
}

std::string describe_ub_findings(const UbFindings& f) {
  std::map<std::string, std::string> sources;
  std::string out;
  for (const UbFinding& finding : f.findings) {
    std::string line = describe_ub_finding(finding);
    // "file:line:col: runtime error: message".
    const std::size_t colon = line.find(": ");
    line.insert(colon + 2, "runtime error: ");
    out += line + "\n";
    if (finding.line == 0) continue;
    // The source line and caret as the front ends' diagnostics show them
    // (ir/diagnostic.h); its first line is replaced by the one above.
    if (const std::string* source = read_source(sources, finding.file)) {
      std::string shown = render(Diagnostic{Severity::Error, finding.file, finding.line, finding.column, ""}, *source);
      shown.erase(0, std::min(shown.size(), shown.find('\n') + 1));
      // Column 0 is an unknown column (glslang -g writes 0; SPIR-V without
      // OpLine): the line without a caret.
      if (finding.column == 0 && shown.ends_with("^\n"))
        shown.erase(shown.find_last_of('\n', shown.size() - 2) + 1);
      out += shown;
    }
  }
  if (f.reports > f.recorded)
    out += fmt::format("sluice: note: {} reports, {} kept: the findings buffer holds {} records (--ub-capacity)\n",
                       f.reports, f.recorded, f.capacity);
  return out;
}

std::string ub_findings_json(const UbFindings& f) {
  std::string out = "{\"findings\": [";
  for (std::size_t i = 0; i < f.findings.size(); ++i) {
    const UbFinding& x = f.findings[i];
    out += fmt::format("{}\n  {{\"check\": {}, \"file\": {}, \"line\": {}, \"column\": {}, \"invocations\": {}, "
                       "\"first\": [{}, {}]}}",
                       i ? "," : "", json_string(transform::ub_check_name(x.check)), json_string(x.file), x.line,
                       x.column, x.invocations, x.x, x.y);
  }
  return out + fmt::format("\n], \"reports\": {}, \"recorded\": {}}}\n", f.reports, f.recorded);
}

bool write_ub_report(const std::string& path, const UbFindings& f) {
  std::ofstream out(path, std::ios::trunc);
  out << ub_findings_json(f);
  return static_cast<bool>(out);
}

exec::BufferInit ub_findings_buffer(const UbMap& map) {
  return exec::BufferInit{map.set, map.binding,
                          std::vector<std::uint8_t>(transform::kUbHeaderBytes +
                                                    std::size_t{transform::kUbRecordBytes} * map.capacity)};
}

Result<UbFindings> take_ub_findings(std::vector<exec::BufferData>& storage_buffers, const UbMap& map) {
  if (map.sites == 0) return UbFindings{{}, 0, 0, map.capacity};
  for (auto it = storage_buffers.begin(); it != storage_buffers.end(); ++it)
    if (it->set == map.set && it->binding == map.binding) {
      auto decoded = decode_ub_findings(it->bytes, map);
      storage_buffers.erase(it);
      return decoded;
    }
  return Error{fmt::format("the run did not read back the findings buffer (set {}, binding {})", map.set, map.binding)};
}

// Fields are separated by \x1f and findings by \x1e (ASCII's unit and
// record separators), which no file name here holds.
std::string encode_ub_findings(const UbFindings& f) {
  std::string out = fmt::format("ub-findings\x1f{}\x1f{}\x1f{}", f.reports, f.recorded, f.capacity);
  for (const UbFinding& x : f.findings)
    out += fmt::format("\x1e{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}", x.check, x.line, x.column, x.invocations, x.x, x.y,
                       x.file);
  return out;
}

std::optional<UbFindings> decode_ub_findings_line(std::string_view text) {
  const auto split = [](std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    std::size_t at = 0;
    for (;;) {
      const std::size_t end = s.find(sep, at);
      parts.push_back(s.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
      if (end == std::string_view::npos) return parts;
      at = end + 1;
    }
  };
  const auto number = [](std::string_view s) {
    std::uint64_t n = 0;
    for (char c : s)
      if (c >= '0' && c <= '9' && n < (std::uint64_t{1} << 40)) n = n * 10 + static_cast<std::uint64_t>(c - '0');
    return n;
  };
  const auto records = split(text, '\x1e');
  const auto head = split(records[0], '\x1f');
  if (head.size() != 4 || head[0] != "ub-findings") return std::nullopt;
  UbFindings f;
  f.reports = number(head[1]);
  f.recorded = number(head[2]);
  f.capacity = static_cast<std::uint32_t>(number(head[3]));
  for (std::size_t i = 1; i < records.size(); ++i) {
    const auto p = split(records[i], '\x1f');
    if (p.size() != 7) return std::nullopt;
    f.findings.push_back(UbFinding{static_cast<std::uint32_t>(number(p[0])), std::string(p[6]),
                                   static_cast<std::uint32_t>(number(p[1])), static_cast<std::uint32_t>(number(p[2])),
                                   number(p[3]), static_cast<std::uint32_t>(number(p[4])),
                                   static_cast<std::uint32_t>(number(p[5]))});
  }
  return f;
}

}  // namespace sluice::tools
