// An IR dump in a form that two modules share when they differ only in
// names and in the numbering of their types, constants and variables (what
// "the same IR up to names" allows): quoted names are blanked, and every
// tN, cN and vN is renumbered in the order of a depth-first walk that starts
// from its uses in the functions, then the globals, then the remaining
// definitions, and enters each id's own definition line when it is first
// met (so a type's element types are numbered right after it). The
// Types, Constants and Variables sections are sorted by the new numbers,
// the globals list too, and runs of spaces (the dump's column padding) are
// made one. Instructions, registers, blocks and functions are untouched, so
// any difference in them remains a difference.
//
// Types and constants nothing reaches are left out: the type and constant
// tables are interned storage (every module holds the basic types and
// constants whether it uses them or not, and a front end may intern a type
// or fold a constant that no statement keeps, as glslang's own SPIR-V keeps
// an unused OpSpecConstantComposite), so an entry that no function,
// variable, global, specialization constant (spec_id: the pipeline can set
// it) or reached type or constant refers to is no part of the program. What
// is reached is compared in full.
#pragma once

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace sluice::testing {

inline std::string canonical_dump(const std::string& dump) {
  static const std::regex quoted("'[^'\\n]*'");
  static const std::regex id("\\b([tcv])([0-9]+)\\b");
  static const std::regex definition("^  ([tcv][0-9]+)\\b(.*)$");
  std::vector<std::string> lines;
  {
    std::istringstream in(std::regex_replace(dump, quoted, "''"));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  enum Section { kHeader, kTypes, kConstants, kVariables, kGlobals, kFunctions };
  std::vector<Section> section(lines.size(), kHeader);
  std::map<std::string, std::string> defined;  // id -> the rest of its definition line
  Section s = kHeader;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l == "Types:") s = kTypes;
    else if (l == "Constants:") s = kConstants;
    else if (l == "Variables:") s = kVariables;
    else if (l.starts_with("Globals:")) s = kGlobals;
    else if (l == "Functions:") s = kFunctions;
    section[i] = s;
    std::smatch m;
    if ((s == kTypes || s == kConstants || s == kVariables) && std::regex_match(l, m, definition))
      defined[m[1].str()] = m[2].str();
  }
  // What the program reaches: everything the functions, globals and
  // variables name, and the specialization constants, with what their
  // definitions name in turn.
  std::set<std::string> reached;
  {
    std::vector<std::string> pending;
    auto name_ids = [&](const std::string& t) {
      for (auto it = std::sregex_iterator(t.begin(), t.end(), id); it != std::sregex_iterator(); ++it)
        pending.push_back(it->str());
    };
    for (std::size_t i = 0; i < lines.size(); ++i)
      if ((section[i] != kTypes && section[i] != kConstants) ||
          (section[i] == kConstants && lines[i].find("[spec_id=") != std::string::npos))
        name_ids(lines[i]);
    while (!pending.empty()) {
      const std::string x = pending.back();
      pending.pop_back();
      if (!reached.insert(x).second) continue;
      if (auto d = defined.find(x); d != defined.end()) name_ids(d->second);
    }
  }
  auto unreached_definition = [&](std::size_t i) {
    std::smatch m;
    return (section[i] == kTypes || section[i] == kConstants) && std::regex_match(lines[i], m, definition) &&
           !reached.contains(m[1].str());
  };
  // The depth-first numbering.
  std::map<std::string, std::string> renamed;
  std::map<char, std::size_t> next;
  auto visit_text = [&](const std::string& text) {
    std::vector<std::string> stack;
    auto push_ids = [&](const std::string& t) {
      std::vector<std::string> found;
      for (auto it = std::sregex_iterator(t.begin(), t.end(), id); it != std::sregex_iterator(); ++it)
        found.push_back(it->str());
      stack.insert(stack.end(), found.rbegin(), found.rend());
    };
    push_ids(text);
    while (!stack.empty()) {
      const std::string x = stack.back();
      stack.pop_back();
      if (renamed.contains(x)) continue;
      renamed[x] = x[0] + std::to_string(next[x[0]]++);
      if (auto d = defined.find(x); d != defined.end()) push_ids(d->second);
    }
  };
  for (Section order : {kFunctions, kGlobals, kVariables, kConstants, kTypes})
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (section[i] == order && !unreached_definition(i)) visit_text(lines[i]);
  auto rename = [&](const std::string& text) {
    std::string out;
    auto last = text.cbegin();
    for (auto it = std::sregex_iterator(text.begin(), text.end(), id); it != std::sregex_iterator(); ++it) {
      out.append(last, text.cbegin() + it->position());
      const auto r = renamed.find(it->str());
      out += r != renamed.end() ? r->second : it->str();
      last = text.cbegin() + it->position() + it->length();
    }
    out.append(last, text.cend());
    static const std::regex spaces("  +");
    return std::regex_replace(out, spaces, " ");
  };
  auto number = [](const std::string& line) {
    std::size_t k = line.find_first_of("0123456789");
    return k == std::string::npos ? 0 : std::stoul(line.substr(k));
  };
  std::string out;
  for (std::size_t i = 0; i < lines.size();) {
    std::smatch m;
    if (section[i] == kGlobals && lines[i].starts_with("Globals:")) {
      std::vector<std::string> globals;
      const std::string list = rename(lines[i]);
      for (auto it = std::sregex_iterator(list.begin(), list.end(), id); it != std::sregex_iterator(); ++it)
        globals.push_back(it->str());
      std::sort(globals.begin(), globals.end(), [&](const auto& a, const auto& b) { return number(a) < number(b); });
      out += "Globals:";
      for (const auto& g : globals) out += " " + g;
      out += "\n";
      ++i;
      continue;
    }
    if (section[i] != kTypes && section[i] != kConstants && section[i] != kVariables) {
      out += rename(lines[i]) + "\n";
      ++i;
      continue;
    }
    // A run of definition lines: renamed and sorted by their new number.
    std::vector<std::string> run;
    for (; i < lines.size() && std::regex_match(lines[i], m, definition); ++i)
      if (!unreached_definition(i)) run.push_back(rename(lines[i]));
    std::stable_sort(run.begin(), run.end(), [&](const auto& a, const auto& b) { return number(a) < number(b); });
    for (const auto& l : run) out += l + "\n";
    if (run.empty() && i < lines.size()) out += rename(lines[i++]) + "\n";
  }
  return out;
}

}  // namespace sluice::testing
