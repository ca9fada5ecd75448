// Driving glslang for one shader: the process-wide initialisation (once,
// behind std::call_once), parsing, linking and I/O mapping as
// glslangValidator -V does them, glslang's info log turned into
// diagnostics, and the translation to IR.
//
// glslang walks its own AST recursively (a long `a + a + ... + a` chain is
// as deep as it is long), so the whole compilation runs on a thread of its
// own with a large stack (reserved address space; only the pages used are
// ever touched). If that thread cannot be made, it runs on the caller's.
#include <pthread.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <glslang/MachineIndependent/localintermediate.h>
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>

#include "frontend/glsl/ast_depth.h"
#include "frontend/glsl/block_names.h"
#include "frontend/glsl/glsl_frontend.h"
#include "frontend/glsl/includer.h"
#include "frontend/glsl/info_log.h"
#include "frontend/glsl/macro_expansion.h"
#include "frontend/glsl/macro_recursion.h"
#include "frontend/glsl/preamble.h"
#include "frontend/glsl/translator.h"
#include "ir/stage_interface.h"

namespace sluice::glsl_in {
namespace {

constexpr std::size_t kCompileStackBytes = std::size_t{256} << 20;

void initialize_glslang() {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

EShLanguage glslang_stage(ir::ShaderStage s) {
  switch (s) {
    case ir::ShaderStage::Vertex: return EShLangVertex;
    case ir::ShaderStage::Fragment: return EShLangFragment;
    case ir::ShaderStage::Compute: return EShLangCompute;
    case ir::ShaderStage::Geometry: return EShLangGeometry;
    case ir::ShaderStage::TessControl: return EShLangTessControl;
    case ir::ShaderStage::TessEvaluation: return EShLangTessEvaluation;
  }
  return EShLangFragment;
}

// Runs `f` on a thread with a kCompileStackBytes stack and waits for it.
template <class F>
void run_with_large_stack(F& f) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) {
    f();
    return;
  }
  pthread_t thread;
  const bool started = pthread_attr_setstacksize(&attr, kCompileStackBytes) == 0 &&
                       pthread_create(
                           &thread, &attr,
                           [](void* p) -> void* {
                             (*static_cast<F*>(p))();
                             return nullptr;
                           },
                           &f) == 0;
  pthread_attr_destroy(&attr);
  if (started)
    pthread_join(thread, nullptr);
  else
    f();
}

// The client, target and I/O mapping settings, as glslangValidator sets
// them from its command line.
void set_environment(glslang::TShader& shader, EShLanguage lang, const Options& options) {
  shader.setEnvInput(glslang::EShSourceGlsl, lang, options.vulkan ? glslang::EShClientVulkan : glslang::EShClientOpenGL,
                     100);
  // The Vulkan version that goes with the SPIR-V version, as
  // glslangValidator's --target-env pairs them (1.3: Vulkan 1.1, 1.5: 1.2,
  // 1.6: 1.3).
  const std::uint32_t spv = std::clamp<std::uint32_t>(options.spirv_version, 0x00010000, 0x00010600);
  const auto client = spv >= 0x00010600   ? glslang::EShTargetVulkan_1_3
                      : spv >= 0x00010500 ? glslang::EShTargetVulkan_1_2
                      : spv >= 0x00010300 ? glslang::EShTargetVulkan_1_1
                                          : glslang::EShTargetVulkan_1_0;
  if (options.vulkan)
    shader.setEnvClient(glslang::EShClientVulkan, client);
  else
    shader.setEnvClient(glslang::EShClientOpenGL, glslang::EShTargetOpenGL_450);
  shader.setEnvTarget(glslang::EShTargetSpv, static_cast<glslang::EShTargetLanguageVersion>(spv & 0x00ffff00));
  shader.setAutoMapLocations(options.auto_map_locations);
  shader.setAutoMapBindings(options.auto_map_bindings);
}

EShMessages glslang_messages(const Options& options) {
  return static_cast<EShMessages>(EShMsgSpvRules | (options.vulkan ? EShMsgVulkanRules : EShMsgDefault));
}

// Whether a probe shader declaring an int for each of `names` compiles, and
// which name glslang reports as a "redefinition": ES forbids redeclaring
// built-ins, and glslang stops at the first such error.
struct Probe {
  bool compiled = false;
  std::optional<std::size_t> redefined;  // index into names
};
Probe probe_declarations(const std::vector<std::string_view>& names, int version, EShLanguage lang,
                         const Options& options) {
  std::string declarations;
  for (std::string_view name : names) declarations += fmt::format("int {};\n", name);
  const std::string probe_text =
      fmt::format("#version {}{}\n{}void main() {{}}\n", version, version == 100 ? "" : " es", declarations);
  glslang::TShader probe(lang);
  const char* strings[] = {probe_text.c_str()};
  probe.setStrings(strings, 1);
  set_environment(probe, lang, options);
  Probe result;
  result.compiled = probe.parse(GetDefaultResources(), 100, false, glslang_messages(options));
  const std::string_view log = probe.getInfoLog();
  for (std::size_t i = 0; i < names.size() && !result.compiled; ++i)
    if (log.find(fmt::format("'{}' : redefinition", names[i])) != std::string_view::npos) return {false, i};
  return result;
}

// The first of `names` that is a built-in function of the ES version. One
// probe declares them all, so a shader costs one extra parse; a probe that
// fails for another reason is repeated per name.
std::optional<std::size_t> first_es_builtin_function(const std::vector<std::string_view>& names, int version,
                                                     EShLanguage lang, const Options& options) {
  std::vector<std::string_view> candidates;
  std::vector<std::size_t> index;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (!names[i].starts_with("gl_") && names[i].find("__") == std::string_view::npos &&  // reserved: glslang says so
        std::find(candidates.begin(), candidates.end(), names[i]) == candidates.end()) {  // a name once (the raw and the preprocessed scan)
      candidates.push_back(names[i]);
      index.push_back(i);
    }
  if (candidates.empty()) return std::nullopt;
  const Probe all = probe_declarations(candidates, version, lang, options);
  if (all.compiled) return std::nullopt;
  if (all.redefined) return index[*all.redefined];
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (probe_declarations({candidates[i]}, version, lang, options).redefined) return index[i];
  return std::nullopt;
}

// block_names.h: glslang crashes on a block named like a function in scope;
// this finds such a block in the preprocessed shader first and gives the
// error glslang meant to give.
// The column of `name` as a whole word in line `line` of `text` (1-based),
// or 0. glslang's preprocessed text respaces tokens, so its columns are not
// the source's.
std::uint32_t column_of(std::string_view text, std::uint32_t line, std::string_view name) {
  std::size_t begin = 0;
  for (std::uint32_t l = 1; l < line && begin != std::string_view::npos; ++l) {
    begin = text.find('\n', begin);
    if (begin != std::string_view::npos) ++begin;
  }
  if (begin == std::string_view::npos) return 0;
  const std::string_view row = text.substr(begin, text.find('\n', begin) - begin);
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = row.find(name); at != std::string_view::npos; at = row.find(name, at + 1)) {
    const bool starts = at == 0 || !word_char(row[at - 1]);
    const bool ends = at + name.size() == row.size() || !word_char(row[at + name.size()]);
    if (starts && ends) return static_cast<std::uint32_t>(at + 1);
  }
  return 0;
}

struct BlockClash {
  const detail::BlockName* block;
  std::string why;
};

// The first block of `scan` named like a function in scope.
std::optional<BlockClash> first_block_clash(const detail::BlockNameScan& scan, EShLanguage lang,
                                            const Options& options) {
  for (const detail::BlockName& b : scan.blocks)
    if (b.clashes_with_function)
      return BlockClash{&b, fmt::format("it is already the name of a function (line {})", b.function_at.line)};
  if (!scan.es || scan.blocks.empty()) return std::nullopt;
  std::vector<std::string_view> names;
  for (const detail::BlockName& b : scan.blocks) names.push_back(b.name);
  if (const auto first = first_es_builtin_function(names, scan.version, lang, options))
    return BlockClash{&scan.blocks[*first], "it is already the name of a built-in function"};
  return std::nullopt;
}

//
// A shader the preprocessor rejects stops here too, with the preprocessor's
// messages: parse() would report the same errors and then parse on, into the
// crash this guards against (an unterminated string before such a block).
std::optional<Diagnostics> block_named_like_a_function(glslang::TShader& preprocessor, const std::string& file,
                                                       EShLanguage lang, const Options& options,
                                                       std::string_view source) {
  detail::FileIncluder includer(file, options.include_dirs);
  includer.space_line_continuations();
  std::string preprocessed;
  if (!preprocessor.preprocess(GetDefaultResources(), 100, ENoProfile, false, false, glslang_messages(options),
                               &preprocessed, includer)) {
    Diagnostics errors;
    const detail::SourceOf source_of = [&](std::string_view name) {
      return name == file ? source : includer.text_of(name);
    };
    detail::append_info_log(preprocessor.getInfoLog(), file, source_of, errors);
    if (!has_errors(errors)) errors.push_back({Severity::Error, file, 0, 0, "glslang could not preprocess the shader"});
    return errors;
  }
  // The preprocessed text names blocks whose name a macro makes; the raw
  // text is scanned too, because glslang's preprocessed output can stop
  // short of what its parser then reads (a broken string literal, a NUL).
  detail::BlockNameScan scan = detail::scan_block_names(preprocessed);
  const detail::BlockNameScan raw = detail::scan_block_names(source);
  scan.blocks.insert(scan.blocks.end(), raw.blocks.begin(), raw.blocks.end());
  const std::optional<BlockClash> clash = first_block_clash(scan, lang, options);
  if (!clash) return std::nullopt;
  const detail::BlockName& b = *clash->block;
  const std::string where = b.at.file.empty() ? file : b.at.file;
  const std::string_view text = where == file ? source : includer.text_of(where);
  return Diagnostics{{Severity::Error, where, b.at.line, column_of(text, b.at.line, b.name),
                      fmt::format("'{}' : block name cannot be redefined: {}", b.name, clash->why)}};
}

// Whether the guard must see glslang's preprocessed text. It need not when
// preprocessing can only remove tokens: no macro is defined (no `define` in
// the text, no -D preamble), no file is included, no backslash can join
// lines into a directive. glslang's predefined macros (__LINE__, GL_ES,
// extension names) expand to numbers, so the preprocessed tokens are then a
// subset of the raw ones, and a raw scan that finds no clash proves there is
// none. This saves one of the two glslang compilations (each sets up the
// resource-dependent built-ins) for almost every shader.
bool needs_preprocessed_scan(std::string_view source, const std::string& macros, EShLanguage lang,
                             const Options& options) {
  if (!macros.empty() || source.find("define") != std::string_view::npos ||
      source.find("include") != std::string_view::npos || source.find('\\') != std::string_view::npos)
    return true;
  return first_block_clash(detail::scan_block_names(source), lang, options).has_value();
}

// The text the macro checks read: the -D preamble's lines, then the
// source; and a position in it as a diagnostic gives it (line 0 for the
// preamble, whose macros have no line of the file).
struct MacroCheckText {
  std::string_view text;
  std::string joined;  // preamble + "\n" + source, when there is a preamble
  std::uint32_t preamble_lines = 0;

  MacroCheckText(std::string_view source, const std::string& macros) : text(source) {
    if (macros.empty()) return;
    joined = macros + "\n" + std::string(source);
    text = joined;
    preamble_lines = static_cast<std::uint32_t>(std::count(macros.begin(), macros.end(), '\n') + 1);
  }
  MacroCheckText(const MacroCheckText&) = delete;
  MacroCheckText& operator=(const MacroCheckText&) = delete;
  bool in_preamble(std::uint32_t line) const { return line <= preamble_lines; }
  Diagnostic error(const std::string& file, std::uint32_t line, std::uint32_t column, std::string message) const {
    return in_preamble(line) ? Diagnostic{Severity::Error, file, 0, 0, std::move(message)}
                             : Diagnostic{Severity::Error, file, line - preamble_lines, column, std::move(message)};
  }
};

// macro_recursion.h: a macro that glslang's preprocessor would expand in a
// recursion without bound (in the guard's preprocessing below and in the
// parse) is refused before glslang reads the shader.
std::optional<Diagnostic> runaway_macro(const MacroCheckText& in, const std::string& file) {
  const auto found = detail::find_runaway_macro(in.text);
  if (!found) return std::nullopt;
  return in.error(
      file, found->line, found->column,
      fmt::format("'{}' : macro expansion recurses without bound: its body leaves a '(' open and {}{}", found->name,
                  found->cycle.empty() ? std::string("a macro pastes names with '##', which may name it again")
                  : found->cycle == found->name
                      ? std::string("it expands to itself")
                      : fmt::format("it is on the expansion path of '{}', which expands to itself", found->cycle),
                  in.in_preamble(found->line) ? " (a -D macro)" : ""));
}

// macro_expansion.h: macros that would make the shader too large when
// glslang expands them are refused before glslang reads the shader.
std::optional<Diagnostic> oversized_expansion(const MacroCheckText& in, const std::string& file) {
  const auto estimate = detail::estimate_macro_expansion(in.text);
  if (!estimate.over_limit_at_macro) return std::nullopt;
  return in.error(file, estimate.line, estimate.column,
                  fmt::format("'{}' : macro expansion too large: the shader's macros would add more than {} tokens "
                              "to it or take more than {} to expand (Sluice's limits; see docs/limits.md)",
                              *estimate.over_limit_at_macro, detail::kMaxMacroExpansionTokens,
                              detail::kMaxMacroExpansionWork));
}

void compile_here(std::string_view source, const std::string& file, ir::ShaderStage stage, const Options& options,
                  Result& result) {
  initialize_glslang();
  const EShLanguage lang = glslang_stage(stage);
  const char* strings[] = {source.data()};
  const int lengths[] = {static_cast<int>(source.size())};
  const char* names[] = {file.c_str()};
  // -D/-U as glslangValidator passes them: a preamble glslang reads first.
  const std::string macros = detail::preamble(options);
  auto set_source = [&](glslang::TShader& shader) {
    shader.setStringsWithLengthsAndNames(strings, lengths, names, 1);
    if (!macros.empty()) shader.setPreamble(macros.c_str());
    set_environment(shader, lang, options);
  };
  // The macro checks, where there are macros (the -D preamble's lines
  // come first).
  if (!macros.empty() || source.find("define") != std::string_view::npos) {
    const MacroCheckText text(source, macros);
    std::optional<Diagnostic> stop = runaway_macro(text, file);
    if (!stop) stop = oversized_expansion(text, file);
    if (stop) {
      result.diagnostics.push_back(std::move(*stop));
      return;
    }
  }
  if (needs_preprocessed_scan(source, macros, lang, options)) {
    // The guard preprocesses a copy that avoids a crash of glslang's
    // preprocessed-output writer (block_names.h); the parse reads the source.
    const std::string spaced = detail::space_before_line_continuations(source);
    const char* spaced_strings[] = {spaced.c_str()};
    const int spaced_lengths[] = {static_cast<int>(spaced.size())};
    glslang::TShader preprocessor(lang);
    set_source(preprocessor);
    preprocessor.setStringsWithLengthsAndNames(spaced_strings, spaced_lengths, names, 1);
    if (auto stop = block_named_like_a_function(preprocessor, file, lang, options, source)) {
      for (Diagnostic& d : *stop) result.diagnostics.push_back(std::move(d));
      return;
    }
  }
  glslang::TShader shader(lang);
  set_source(shader);
  // glslang renames the source entry point to the entry point's name; the
  // IR's entry point is `main` (the SPIR-V name is the output's business),
  // and glslang 12 reports any source name but "main" as an error.
  if (!options.source_entry_point.empty()) {
    shader.setEntryPoint("main");
    shader.setSourceEntryPoint(options.source_entry_point.c_str());
  }
  detail::FileIncluder includer(file, options.include_dirs);
  const detail::SourceOf source_of = [&](std::string_view name) {
    return name == file ? source : includer.text_of(name);
  };
  const auto messages = glslang_messages(options);

  // glslangValidator's defaults: a shader without #version is ES 100.
  const bool parsed = shader.parse(GetDefaultResources(), 100, false, messages, includer);
  result.includes = includer.files();
  detail::append_info_log(shader.getInfoLog(), file, source_of, result.diagnostics);
  if (!parsed) {
    if (!has_errors(result.diagnostics)) result.diagnostics.push_back({Severity::Error, file, 0, 0, "glslang could not parse the shader"});
    return;
  }
  glslang::TProgram program;
  program.addShader(&shader);
  const bool linked = program.link(messages);
  detail::append_info_log(program.getInfoLog(), file, source_of, result.diagnostics);
  if (!linked || has_errors(result.diagnostics)) {
    if (!has_errors(result.diagnostics)) result.diagnostics.push_back({Severity::Error, file, 0, 0, "glslang could not link the shader"});
    return;
  }
  if (!program.mapIO()) {
    detail::append_info_log(program.getInfoLog(), file, source_of, result.diagnostics);
    if (!has_errors(result.diagnostics))
      result.diagnostics.push_back(
          {Severity::Error, file, 0, 0, "glslang could not assign locations and bindings to the shader's interface"});
    return;
  }
  const glslang::TIntermediate* ast = program.getIntermediate(lang);
  if (!ast || !ast->getTreeRoot()) {
    result.diagnostics.push_back({Severity::Error, file, 0, 0, "glslang produced no syntax tree"});
    return;
  }
  const detail::DepthReport depth = detail::measure_depth(ast->getTreeRoot(), kMaxAstDepth);
  if (depth.depth > kMaxAstDepth) {
    const glslang::TSourceLoc& loc = depth.deepest->getLoc();
    result.diagnostics.push_back(
        {Severity::Error, file, static_cast<std::uint32_t>(std::max(loc.line, 0)),
         static_cast<std::uint32_t>(std::max(loc.column, 1)),
         fmt::format("nesting deeper than {} syntax tree levels is not supported", kMaxAstDepth)});
    return;
  }
  ir::Module module(stage);
  detail::Translator translator(*ast, source, module, result.diagnostics, file, options);
  if (!translator.run()) return;
  // glslang's automatic mapping (--aml) can give an input or output a
  // location that an explicit one (or gl_FragColor's) already has; SPIR-V
  // forbids two variables at one location and component (spec 2.16.2).
  if (const auto overlap = ir::find_location_overlap(module)) {
    const ir::Variable& second = module.variable(overlap->second);
    Diagnostic d{Severity::Error, file, 0, 0,
                 fmt::format("'{}' : overlapping use of location {} (also used by '{}')", second.name.text,
                             overlap->location, module.variable(overlap->first).name.text)};
    if (second.location.valid()) {
      const ir::SourceLocation& at = module.location(second.location);
      if (at.file < module.source_files().size()) d.file = module.source_files()[at.file];
      d.line = at.line;
      d.column = at.column;
    }
    result.diagnostics.push_back(std::move(d));
    return;
  }
  result.module = std::move(module);
}

}  // namespace

std::optional<ir::ShaderStage> stage_from_path(std::string_view path) {
  const std::size_t dot = path.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const std::string_view ext = path.substr(dot + 1);
  if (ext == "vert") return ir::ShaderStage::Vertex;
  if (ext == "frag") return ir::ShaderStage::Fragment;
  if (ext == "comp") return ir::ShaderStage::Compute;
  if (ext == "geom") return ir::ShaderStage::Geometry;
  if (ext == "tesc") return ir::ShaderStage::TessControl;
  if (ext == "tese") return ir::ShaderStage::TessEvaluation;
  return std::nullopt;
}

namespace {

std::optional<std::string_view> refused_stage(std::string_view name) {
  // glslangValidator's extensions for the stages lavapipe cannot run.
  static constexpr std::pair<std::string_view, std::string_view> kRefused[] = {
      {"mesh", "mesh"},           {"task", "task"},
      {"rgen", "ray generation"}, {"rint", "ray intersection"},
      {"rahit", "ray any-hit"},   {"rchit", "ray closest-hit"},
      {"rmiss", "ray miss"},      {"rcall", "ray callable"},
  };
  const std::size_t dot = name.rfind('.');
  const std::string_view ext = dot == std::string_view::npos ? name : name.substr(dot + 1);
  for (const auto& [e, stage] : kRefused)
    if (ext == e) return stage;
  return std::nullopt;
}

}  // namespace

Result compile(std::string_view source, std::string_view file_name, const Options& options) {
  Result result;
  const std::string file(file_name);
  const std::optional<ir::ShaderStage> stage = options.stage ? options.stage : stage_from_path(file_name);
  if (!stage) {
    if (const auto refused = refused_stage(file_name)) {
      result.diagnostics.push_back(
          {Severity::Error, file, 0, 0,
           fmt::format("the {} shader stage is not supported (Sluice translates vertex, fragment, compute, geometry "
                       "and tessellation shaders)",
                       *refused)});
      return result;
    }
    result.diagnostics.push_back({Severity::Error, file, 0, 0,
                                  "cannot tell the shader stage from the file name: name it .vert, .frag, .comp, "
                                  ".geom, .tesc or .tese, or give the stage"});
    return result;
  }
  // GLSL source has no NUL character (GLSL 4.60 §3.1, the character set).
  // glslang's preprocessor stops at one while its parser reads on (and
  // glslangValidator, reading C strings, stops there), so the text is
  // refused with the NUL's position instead.
  if (const std::size_t nul = source.find('\0'); nul != std::string_view::npos) {
    const std::string_view before = source.substr(0, nul);
    const auto line = static_cast<std::uint32_t>(std::count(before.begin(), before.end(), '\n') + 1);
    const std::size_t line_start = before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1;
    result.diagnostics.push_back({Severity::Error, file, line, static_cast<std::uint32_t>(nul - line_start + 1),
                                  "a NUL byte, which GLSL source cannot contain"});
    return result;
  }
  if (source.size() > static_cast<std::size_t>(INT_MAX)) {
    result.diagnostics.push_back({Severity::Error, file, 0, 0, "a shader larger than 2 GiB is not supported"});
    return result;
  }
  auto work = [&] {
    try {
      compile_here(source, file, *stage, options, result);
    } catch (const std::bad_alloc&) {
      result.module.reset();
      result.diagnostics.push_back({Severity::Error, file, 0, 0, "out of memory while compiling the shader"});
    } catch (...) {
      // Nothing may escape the thread; glslang throws nothing else
      // documented, but a stray exception is still an error, not a crash.
      result.module.reset();
      result.diagnostics.push_back({Severity::Error, file, 0, 0, "internal error: exception while compiling"});
    }
  };
  run_with_large_stack(work);
  return result;
}

}  // namespace sluice::glsl_in
