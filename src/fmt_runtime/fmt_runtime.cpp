// fmt's compiled part, built into Sluice instead of loaded from libfmt.so.9.
//
// Debian 12 ships fmt 9.1 as headers and a shared library only (no
// libfmt.a). Loading libfmt.so.9 makes the process load libstdc++.so.6 as
// well, whose own relocations were about a third of the instructions a λV
// compile executes at start-up (docs/performance.md, "λV process start").
// This file compiles the implementation that the shared library holds, from
// Debian's own header fmt/format-inl.h, with the explicit instantiations
// that fmt's src/format.cc makes (the templates format.h declares `extern
// template` and the ones its non-template functions call), so that `sluice`
// can link the C++ runtime statically and load neither library. Everything
// else of fmt stays header code, as it always was.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template FMT_API auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template FMT_API auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;

template FMT_API locale_ref::locale_ref(const std::locale& loc);
template FMT_API auto locale_ref::get<std::locale>() const -> std::locale;

template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API void buffer<char>::append(const char*, const char*);
template FMT_API void vformat_to(buffer<char>&, string_view, basic_format_args<FMT_BUFFER_CONTEXT(char)>, locale_ref);

template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<wchar_t>;
template FMT_API auto decimal_point_impl(locale_ref) -> wchar_t;
template FMT_API void buffer<wchar_t>::append(const wchar_t*, const wchar_t*);

}  // namespace detail
FMT_END_NAMESPACE
