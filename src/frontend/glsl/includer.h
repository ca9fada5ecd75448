// `#include` for the GLSL front end (GL_GOOGLE_include_directive, the
// extension glslangValidator's -I serves): glslang's preprocessor asks a
// TShader::Includer for each included file; this one reads them from disk.
//
//   #include "x.glsl"  the including file's directory first, then the -I
//                      directories left to right (glslangValidator -I's
//                      documented order);
//   #include <x.glsl>  the -I directories only.
//
// Files are named as found (directory of the including file or -I
// directory joined with the header name), which is the name glslang puts
// in diagnostics about them and the name the depfile lists. Nesting deeper
// than kMaxIncludeDepth is an error; when the chain of including files
// repeats a file the message names the cycle (an include cycle without
// include guards never ends, one with guards stops at the second visit).
// Every file served counts its size plus kIncludeCost bytes against
// kMaxIncludedBytes: a file that includes the next one twice, 30 levels
// deep, would otherwise make glslang read 2^30 copies (docs/limits.md).
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <glslang/Public/ShaderLang.h>

#include "frontend/glsl/glsl_frontend.h"

namespace sluice::glsl_in::detail {

inline constexpr std::size_t kMaxIncludeDepth = 64;
inline constexpr std::size_t kMaxIncludedBytes = std::size_t{4} << 20;  // 4 MiB, four times issue 16's 1 MB input
inline constexpr std::size_t kIncludeCost = 64;                         // so that empty files count too

class FileIncluder final : public glslang::TShader::Includer {
 public:
  FileIncluder(std::string main_file, std::vector<std::string> include_dirs);

  IncludeResult* includeLocal(const char* header, const char* includer, std::size_t depth) override;
  IncludeResult* includeSystem(const char* header, const char* includer, std::size_t depth) override;
  void releaseInclude(IncludeResult* result) override;

  // Every file read, once each, in the order first read.
  std::vector<SourceFile> files() const { return {files_.begin(), files_.end()}; }
  // The text of a file read, empty for one that was not.
  std::string_view text_of(std::string_view path) const;
  // Serve included files as block_names.h's space_before_line_continuations
  // gives them (for the guard's TShader::preprocess); text_of stays the file's.
  void space_line_continuations() { space_line_continuations_ = true; }

 private:
  IncludeResult* search(const std::string& header, const std::string& includer, std::size_t depth, bool local);
  IncludeResult* found(const std::string& path, std::size_t depth);
  IncludeResult* failure(std::string message);
  IncludeResult* over_budget();
  // The including files of the current nesting, [0] the main file.
  void note_includer(const std::string& includer, std::size_t depth);

  std::string main_file_;
  std::vector<std::string> include_dirs_;
  std::vector<std::string> chain_;
  std::deque<SourceFile> files_;  // a deque: glslang points into the texts
  std::map<std::string, std::size_t, std::less<>> index_;  // path -> files_ index
  bool space_line_continuations_ = false;
  std::deque<std::string> spaced_;                          // served texts when it is set
  std::deque<std::string> messages_;                        // failure texts glslang points into
  std::size_t served_bytes_ = 0;                            // kMaxIncludedBytes
  std::vector<std::unique_ptr<IncludeResult>> results_;     // glslang borrows them until release
};

}  // namespace sluice::glsl_in::detail
