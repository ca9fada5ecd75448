// See alloy_import.h. expat reports elements as they start and end; the
// instance is flat (sig/field → atom/tuple → atom), so a small state of
// "the sig or field we are in" suffices.
#include "flesh/alloy_import.h"

#include <expat.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "flesh/check.h"

namespace sluice::flesh {

bool looks_like_xml(std::string_view text) {
  const auto at = text.find_first_not_of(" \t\r\n");
  // A UTF-8 byte-order mark may come first.
  if (at != std::string_view::npos && text.substr(at, 3) == "\xEF\xBB\xBF") return looks_like_xml(text.substr(at + 3));
  return at != std::string_view::npos && text[at] == '<';
}

namespace {

struct Position {
  std::uint32_t line = 0, column = 0;
};

struct Tuple {
  std::vector<std::string> atoms;
  Position where;
};

// What the instance says, before it is checked.
struct Instance {
  std::map<std::string, std::vector<std::string>> sig_atoms;  // sig label (without "this/") → atoms
  std::map<std::string, std::vector<Tuple>> fields;           // field label → tuples
  std::vector<std::string> atom_order;                        // every atom of a sig, first mention first
  std::map<std::string, Position> atom_where;                 // where a sig first lists it
  bool saw_instance = false;
};

struct ParseState {
  XML_Parser parser = nullptr;
  Instance instance;
  std::string sig;    // the sig being read ("" outside one)
  std::string field;  // the field being read
  bool in_tuple = false;
  Tuple tuple;
  std::string error;
  Position error_at;

  Position here() const {
    return {static_cast<std::uint32_t>(XML_GetCurrentLineNumber(parser)),
            static_cast<std::uint32_t>(XML_GetCurrentColumnNumber(parser)) + 1};
  }
  void fail(std::string message) {
    if (!error.empty()) return;
    error = std::move(message);
    error_at = here();
    XML_StopParser(parser, XML_FALSE);
  }
};

std::string attribute(const XML_Char** attrs, std::string_view name) {
  for (std::size_t i = 0; attrs[i] != nullptr; i += 2)
    if (name == attrs[i]) return attrs[i + 1];
  return "";
}

std::string unqualified(const std::string& label) {
  const auto slash = label.rfind('/');
  return label.rfind("this/", 0) == 0 && slash != std::string::npos ? label.substr(slash + 1) : label;
}

void on_start(void* data, const XML_Char* name_c, const XML_Char** attrs) {
  auto& s = *static_cast<ParseState*>(data);
  const std::string_view name = name_c;
  if (name == "instance") s.instance.saw_instance = true;
  if (name == "sig") {
    s.sig = unqualified(attribute(attrs, "label"));
    if (s.sig.empty()) s.fail("a <sig> without a label");
  } else if (name == "field") {
    s.field = attribute(attrs, "label");
    if (s.field.empty()) s.fail("a <field> without a label");
  } else if (name == "tuple" && !s.field.empty()) {
    s.in_tuple = true;
    s.tuple = {{}, s.here()};
  } else if (name == "atom") {
    const std::string label = attribute(attrs, "label");
    if (label.empty()) return s.fail("an <atom> without a label");
    if (s.in_tuple) {
      s.tuple.atoms.push_back(label);
    } else if (!s.sig.empty()) {
      s.instance.sig_atoms[s.sig].push_back(label);
      if (s.instance.atom_where.emplace(label, s.here()).second) s.instance.atom_order.push_back(label);
    }
  }
}

void on_end(void* data, const XML_Char* name_c) {
  auto& s = *static_cast<ParseState*>(data);
  const std::string_view name = name_c;
  if (name == "sig") s.sig.clear();
  else if (name == "field") s.field.clear();
  else if (name == "tuple" && s.in_tuple) {
    s.in_tuple = false;
    s.instance.fields[s.field].push_back(std::move(s.tuple));
  }
}

Error located(const std::string& file, Position at, std::string message) {
  return Error{std::move(message), ErrorCode::Rejected, ErrorLocation{file, at.line, at.column}};
}

bool is_block_sig(const std::string& sig) {
  static const char* const kBlockSigs[] = {"Block",          "HeaderBlock", "LoopHeader", "SelectionHeader",
                                           "SwitchBlock",    "EntryBlock",  "StructurallyReachableBlock"};
  return std::any_of(std::begin(kBlockSigs), std::end(kBlockSigs), [&](const char* k) { return sig == k; });
}

}  // namespace

Result<Cfg> import_alloy_instance(std::string_view xml, const std::string& file) {
  std::unique_ptr<std::remove_pointer_t<XML_Parser>, void (*)(XML_Parser)> parser(XML_ParserCreate("UTF-8"), XML_ParserFree);
  if (!parser) return Error{"cannot create an XML parser", ErrorCode::Environment};
  ParseState s;
  s.parser = parser.get();
  XML_SetUserData(parser.get(), &s);
  XML_SetElementHandler(parser.get(), on_start, on_end);
  if (xml.size() > 0x7fffffff) return Error{fmt::format("{}: the file is too large", file)};
  if (XML_Parse(parser.get(), xml.data(), static_cast<int>(xml.size()), XML_TRUE) == XML_STATUS_ERROR && s.error.empty())
    return located(file, s.here(), fmt::format("malformed XML: {}", XML_ErrorString(XML_GetErrorCode(parser.get()))));
  if (!s.error.empty()) return located(file, s.error_at, s.error);
  const Instance& in = s.instance;
  const Position top{1, 1};
  if (!in.saw_instance) return located(file, top, "not an Alloy instance: no <instance> element");

  // The blocks: atoms of the block sigs, the entry first.
  auto atoms_of = [&](const std::string& sig) {
    auto it = in.sig_atoms.find(sig);
    return it == in.sig_atoms.end() ? std::vector<std::string>{} : it->second;
  };
  const auto entry = atoms_of("EntryBlock");
  if (entry.size() != 1)
    return located(file, top, fmt::format("the instance has {} EntryBlock atoms; the model has exactly one", entry.size()));
  std::map<std::string, BlockIndex> index{{entry[0], 0}};
  std::vector<std::string> names{entry[0]};
  std::set<std::string> block_atoms;
  for (const auto& [sig, atoms] : in.sig_atoms)
    if (is_block_sig(sig)) block_atoms.insert(atoms.begin(), atoms.end());
  for (const std::string& atom : in.atom_order)
    if (block_atoms.count(atom) && index.emplace(atom, static_cast<BlockIndex>(names.size())).second) names.push_back(atom);
  if (names.size() > 100000) return located(file, top, "more than 100000 blocks");
  auto block_of = [&](const Tuple& t, std::size_t i) -> std::optional<BlockIndex> {
    auto it = index.find(t.atoms[i]);
    if (it == index.end()) return std::nullopt;
    return it->second;
  };
  auto set_of = [&](const char* sig) {
    const auto atoms = atoms_of(sig);
    return std::set<std::string>(atoms.begin(), atoms.end());
  };
  const auto loops = set_of("LoopHeader"), selections = set_of("SelectionHeader"), switches = set_of("SwitchBlock");
  auto in_sig = [](const std::set<std::string>& atoms, const std::string& a) { return atoms.count(a) > 0; };

  Cfg cfg;
  cfg.blocks.resize(names.size());
  // branch: (block, index, target).
  std::vector<std::map<std::uint32_t, BlockIndex>> branches(names.size());
  auto field = [&](const char* name) {
    auto it = in.fields.find(name);
    return it == in.fields.end() ? std::vector<Tuple>{} : it->second;
  };
  for (const Tuple& t : field("branch")) {
    if (t.atoms.size() != 3) return located(file, t.where, fmt::format("a branch tuple has {} atoms, not 3", t.atoms.size()));
    const auto from = block_of(t, 0), to = block_of(t, 2);
    if (!from || !to)
      return located(file, t.where, fmt::format("branch tuple: '{}' is no block", !from ? t.atoms[0] : t.atoms[2]));
    const std::string& i = t.atoms[1];
    if (i.empty() || i.size() > 6 || i.find_first_not_of("0123456789") != std::string::npos)
      return located(file, t.where, fmt::format("branch tuple: index '{}' is not a small non-negative integer", i));
    if (!branches[*from].emplace(static_cast<std::uint32_t>(std::stoul(i)), *to).second)
      return located(file, t.where, fmt::format("branch tuple: {} has two targets at index {}", t.atoms[0], i));
  }
  for (const char* name : {"merge", "continue"})
    for (const Tuple& t : field(name)) {
      if (t.atoms.size() != 2) return located(file, t.where, fmt::format("a {} tuple has {} atoms, not 2", name, t.atoms.size()));
      const auto from = block_of(t, 0), to = block_of(t, 1);
      if (!from || !to)
        return located(file, t.where, fmt::format("{} tuple: '{}' is no block", name, !from ? t.atoms[0] : t.atoms[1]));
      const bool loop = in_sig(loops, t.atoms[0]);
      if (std::string_view(name) == "continue" && !loop)
        return located(file, t.where, fmt::format("{} has a continue target but is no LoopHeader", t.atoms[0]));
      if (!loop && !in_sig(selections, t.atoms[0]))
        return located(file, t.where, fmt::format("{} has a merge block but is no header", t.atoms[0]));
      Block& b = cfg.blocks[*from];
      if (std::string_view(name) == "merge") {
        b.merge = *to;
        b.merge_kind = loop ? MergeKind::Loop : MergeKind::Selection;
      } else {
        b.continue_target = *to;
      }
    }
  for (BlockIndex b = 0; b < cfg.size(); ++b) {
    Block& k = cfg.blocks[b];
    const std::string& name = names[b];
    const Position at = in.atom_where.count(name) ? in.atom_where.at(name) : top;
    for (std::uint32_t i = 0; i < branches[b].size(); ++i) {
      auto it = branches[b].find(i);
      if (it == branches[b].end())
        return located(file, at, fmt::format("{}'s branch targets skip index {} (they must be 0, 1, ...)", name, i));
      k.targets.push_back(it->second);
    }
    const bool header = in_sig(loops, name) || in_sig(selections, name);
    if (header && k.merge == kNoBlock) return located(file, at, fmt::format("header {} has no merge block", name));
    if (in_sig(loops, name) && k.continue_target == kNoBlock)
      return located(file, at, fmt::format("loop header {} has no continue target", name));
    if (in_sig(switches, name)) {
      if (k.targets.empty()) return located(file, at, fmt::format("switch {} has no branch target", name));
      k.terminator = Terminator::Switch;
      for (std::uint32_t i = 1; i < k.targets.size(); ++i) k.case_literals.push_back(i);
      k.default_selector = 0;
    } else if (k.targets.empty()) {
      k.terminator = Terminator::Return;
    } else if (k.targets.size() == 1) {
      k.terminator = Terminator::Branch;
    } else if (k.targets.size() == 2) {
      k.terminator = Terminator::Conditional;
    } else {
      return located(file, at, fmt::format("{} has {} branch targets but is no SwitchBlock", name, k.targets.size()));
    }
  }
  compute_layout(cfg);
  if (const std::string problem = cfg_problem(cfg); !problem.empty())
    return Error{fmt::format("{}: the instance's CFG cannot be fleshed: {}", file, problem)};
  return cfg;
}

}  // namespace sluice::flesh
