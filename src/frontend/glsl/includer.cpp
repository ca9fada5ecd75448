#include "frontend/glsl/includer.h"
#include "frontend/glsl/block_names.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include <fmt/format.h>

namespace sluice::glsl_in::detail {
namespace {

namespace fs = std::filesystem;

std::string join(const std::string& dir, const std::string& header) {
  if (dir.empty()) return fs::path(header).lexically_normal().generic_string();
  return (fs::path(dir) / header).lexically_normal().generic_string();
}

std::string directory_of(const std::string& file) { return fs::path(file).parent_path().generic_string(); }

}  // namespace

FileIncluder::FileIncluder(std::string main_file, std::vector<std::string> include_dirs)
    : main_file_(std::move(main_file)), include_dirs_(std::move(include_dirs)) {}

glslang::TShader::Includer::IncludeResult* FileIncluder::includeLocal(const char* header, const char* includer,
                                                                      std::size_t depth) {
  return search(header, includer ? includer : main_file_, depth, true);
}

glslang::TShader::Includer::IncludeResult* FileIncluder::includeSystem(const char* header, const char* includer,
                                                                       std::size_t depth) {
  return search(header, includer ? includer : main_file_, depth, false);
}

std::string_view FileIncluder::text_of(std::string_view path) const {
  const auto at = index_.find(path);
  return at == index_.end() ? std::string_view() : std::string_view(files_[at->second].text);
}

void FileIncluder::releaseInclude(IncludeResult* result) {
  std::erase_if(results_, [&](const std::unique_ptr<IncludeResult>& r) { return r.get() == result; });
}

void FileIncluder::note_includer(const std::string& includer, std::size_t depth) {
  chain_.resize(std::max<std::size_t>(depth, 1));
  chain_[chain_.size() - 1] = includer;
}

// glslang calls includeLocal for "x" and, when that fails, includeSystem;
// for <x> only includeSystem. So the local search looks beside the
// including file and the system search in the -I directories, and the
// system search's failure is the message the user sees.
glslang::TShader::Includer::IncludeResult* FileIncluder::search(const std::string& header, const std::string& includer,
                                                                std::size_t depth, bool local) {
  note_includer(includer, depth);
  // Once over, every later #include fails with the same message (for "x",
  // glslang asks includeSystem after includeLocal fails: its message shows).
  if (served_bytes_ > kMaxIncludedBytes) return over_budget();
  if (depth > kMaxIncludeDepth) {
    // A file that includes itself, directly or not, without a guard.
    std::vector<std::string> cycle;
    for (std::size_t i = 0; i < chain_.size() && cycle.empty(); ++i)
      for (std::size_t j = i + 1; j < chain_.size(); ++j)
        if (chain_[j] == chain_[i]) {
          cycle.assign(chain_.begin() + static_cast<std::ptrdiff_t>(i), chain_.begin() + static_cast<std::ptrdiff_t>(j) + 1);
          break;
        }
    if (!cycle.empty())
      return failure(fmt::format("include cycle: {} (stopped at {} levels of #include)", fmt::join(cycle, " -> "),
                                 kMaxIncludeDepth));
    return failure(fmt::format("#include nested more than {} levels deep", kMaxIncludeDepth));
  }
  if (local) {
    const std::string path = join(directory_of(includer), header);
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) return found(path, depth);
    return nullptr;  // glslang goes on with includeSystem
  }
  for (const std::string& dir : include_dirs_) {
    const std::string path = join(dir, header);
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) return found(path, depth);
  }
  if (include_dirs_.empty()) return failure("file not found");
  return failure(fmt::format("file not found (searched beside the including file for \"\" includes, then -I {})",
                             fmt::join(include_dirs_, ", ")));
}

glslang::TShader::Includer::IncludeResult* FileIncluder::found(const std::string& path, std::size_t depth) {
  auto at = index_.find(path);
  if (at == index_.end()) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return failure(fmt::format("cannot read '{}'", path));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // As for the shader itself (session.cpp): glslang's preprocessor and
    // parser disagree on a NUL byte, so none may reach them.
    if (text.find('\0') != std::string::npos) return failure(fmt::format("'{}' contains a NUL byte", path));
    at = index_.emplace(path, files_.size()).first;
    files_.push_back({path, std::move(text)});
  }
  served_bytes_ += files_[at->second].text.size() + kIncludeCost;
  if (served_bytes_ > kMaxIncludedBytes) return over_budget();
  chain_.resize(depth + 1);
  chain_[depth] = path;
  const std::string* served = &files_[at->second].text;
  if (space_line_continuations_) served = &spaced_.emplace_back(space_before_line_continuations(*served));
  const std::string& text = *served;
  results_.push_back(std::make_unique<IncludeResult>(path, text.data(), text.size(), nullptr));
  return results_.back().get();
}

glslang::TShader::Includer::IncludeResult* FileIncluder::over_budget() {
  return failure(fmt::format("the #include lines bring in more than {} bytes of text, counting each file as often as it "
                             "is included (Sluice's limit; see docs/limits.md)",
                             kMaxIncludedBytes));
}

glslang::TShader::Includer::IncludeResult* FileIncluder::failure(std::string message) {
  messages_.push_back(std::move(message));
  const std::string& text = messages_.back();
  results_.push_back(std::make_unique<IncludeResult>(std::string(), text.data(), text.size(), nullptr));
  return results_.back().get();
}

}  // namespace sluice::glsl_in::detail
