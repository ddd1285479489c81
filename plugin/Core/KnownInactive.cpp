//===- KnownInactive.cpp - Library functions never differentiated ---------===//
//
// Implements KnownInactive.h: isKnownInactiveFunction answers by name for the C
// library's output, clock, random-number and process functions, libstdc++'s
// text, stream, locale and clock functions, sanitizer checks, Tapestry's own
// bookkeeping calls, and the inactive OpenMP runtime and MPI calls (asked of
// Core/OpenMPRuntime and Core/MPIFunctions). Functions the user declares
// inactive are Core/CustomRules' business, not this list's.
//
//===----------------------------------------------------------------------===//
#include "Core/KnownInactive.h"

#include "Core/ConstantOutParams.h"
#include "Core/IgnoreDerivatives.h"
#include "Core/MPIFunctions.h"
#include "Core/OpenMPRuntime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace tapestry {

/// libstdc++ functions, as compiled from its headers (its extern templates
/// often leave them as declarations), that handle text, streams, locales,
/// clocks and random devices. Printing an active double with operator<< is
/// inactive, like printf.
static bool isInactiveLibstdcxxFunction(StringRef Name) {
  static const char *const Prefixes[] = {
      // std::string, std::allocator<char>, std::to_string
      "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE",
      "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE", "_ZNSaIcEC",
      "_ZNSaIcED", "_ZStplIcSt11char_traitsIcESaIcEE",
      "_ZNSt7__cxx119to_string",
      // output streams, string streams, stream state, locales
      "_ZNSo", "_ZNKSo", "_ZStlsI", "_ZSt16__ostream_insert",
      "_ZSt4endlIcSt11char_traitsIcEE", "_ZSt5flushIcSt11char_traitsIcEE",
      "_ZNSt7__cxx1119basic_ostringstream",
      "_ZNKSt7__cxx1119basic_ostringstream",
      "_ZNSt7__cxx1118basic_stringstream", "_ZNKSt7__cxx1118basic_stringstream",
      "_ZNSt8ios_base", "_ZNSt9basic_iosIcSt11char_traitsIcEE",
      "_ZNKSt9basic_iosIcSt11char_traitsIcEE", "_ZNKSt5ctypeIcE",
      "_ZNSt6locale", "_ZNKSt6locale",
      // input streams, file streams, string streams, wide streams and
      // strings: reading text is inactive; a number read into differentiated
      // memory gets a zero derivative (SynthesizerBase::constantOutParam)
      "_ZNSi", "_ZNKSi", "_ZStrsI", "_ZSt7getlineI", "_ZNSt13basic_istreamI",
      // std::from_chars and std::to_chars (the number parsed gets a zero
      // derivative, as above)
      "_ZSt10from_chars", "_ZSt8to_chars", "_ZNKSt13basic_istreamI",
      "_ZNSt13basic_ostreamI", "_ZNKSt13basic_ostreamI", "_ZStlsIw",
      "_ZSt16__ostream_insertIw", "_ZSt4endlIw", "_ZSt5flushIw",
      "_ZNSt9basic_iosIw", "_ZNKSt9basic_iosIw", "_ZNKSt5ctypeIwE",
      "_ZNSt15basic_streambufI", "_ZNKSt15basic_streambufI",
      "_ZNSt14basic_ifstreamI", "_ZNKSt14basic_ifstreamI",
      "_ZNSt14basic_ofstreamI", "_ZNKSt14basic_ofstreamI",
      "_ZNSt13basic_fstreamI", "_ZNKSt13basic_fstreamI",
      "_ZNSt13basic_filebufI", "_ZNKSt13basic_filebufI", "_ZNSt12__basic_fileI",
      "_ZNKSt12__basic_fileI", "_ZNSt7__cxx1119basic_istringstream",
      "_ZNKSt7__cxx1119basic_istringstream", "_ZNSt7__cxx1115basic_stringbuf",
      "_ZNKSt7__cxx1115basic_stringbuf", "_ZNSt7__cxx1112basic_stringIw",
      "_ZNKSt7__cxx1112basic_stringIw",
      // unordered containers' bucket arithmetic and key hashing
      "_ZNKSt8__detail20_Prime_rehash_policy", "_ZSt11_Hash_bytes",
      "_ZSt15_Fnv_hash_bytes",
      // clocks and random devices
      "_ZNSt6chrono3_V212steady_clock3now",
      "_ZNSt6chrono3_V212system_clock3now", "_ZNSt13random_device"};
  return any_of(Prefixes, [&](const char *P) { return Name.starts_with(P); });
}

bool isKnownInactiveFunction(StringRef Name) {
  return StringSwitch<bool>(Name)
      .Cases("printf", "fprintf", "puts", "putchar", "fputs", true)
      .Cases("fputc", "fflush", "fwrite", "sprintf", "snprintf", true)
      .Cases("vprintf", "vfprintf", "vsprintf", "vsnprintf", true)
      // the same under -D_FORTIFY_SOURCE (glibc's checked forms)
      .Cases("__printf_chk", "__fprintf_chk", "__sprintf_chk", true)
      .Cases("__snprintf_chk", "__vprintf_chk", "__vfprintf_chk", true)
      .Cases("__vsprintf_chk", "__vsnprintf_chk", "__dprintf_chk", true)
      .Cases("__strcpy_chk", "__strncpy_chk", "__strcat_chk", true)
      .Cases("__strncat_chk", "__stpcpy_chk", "__stpncpy_chk", true)
      .Cases("clock", "time", "gettimeofday", "clock_gettime", true)
      .Cases("rand", "srand", "random", "srandom", "drand48", true)
      .Cases("abort", "exit", "__assert_fail", "perror", "fopen", true)
      .Cases("fclose", "strlen", "strcmp", "strncmp", "getenv", true)
      .Case("malloc_usable_size", true)
      // compare or search bytes and text: integers, or a pointer into the
      // text searched; or copy text (characters carry no derivative).
      // memcmp and bcmp are what std::string's == and std::map's string
      // keys become once optimised.
      .Cases("memcmp", "bcmp", "strcasecmp", "strncasecmp", "strcoll", true)
      .Cases("strnlen", "strspn", "strcspn", "memchr", "memrchr", true)
      .Cases("strchr", "strrchr", "strstr", "strpbrk", "rawmemchr", true)
      .Cases("strcpy", "strncpy", "strcat", "strncat", "stpcpy", true)
      // split text into tokens: NULs written into the text, a pointer into
      // it returned and (strtok_r, strsep) stored where the caller says
      .Cases("strtok", "strtok_r", "strsep", true)
      // numbers parsed from text have derivative zero; their end pointer
      // (char **) points into the text
      .Cases("strtod", "strtof", "strtold", "strtol", "strtoll", true)
      .Cases("strtoul", "strtoull", "atof", "atoi", "atol", "atoll", true)
      // glibc 2.38's C23 names of the integer ones
      .Cases("__isoc23_strtol", "__isoc23_strtoll", "__isoc23_strtoul", true)
      .Case("__isoc23_strtoull", true)
      // math functions with integer results (a rounded value as a count,
      // a grid index, an exponent): piecewise constant, derivative zero
      .Cases("lround", "lroundf", "lroundl", "llround", "llroundf", true)
      .Cases("llroundl", "lrint", "lrintf", "lrintl", "llrint", true)
      .Cases("llrintf", "llrintl", "ilogb", "ilogbf", "ilogbl", true)
      .Cases("logb", "logbf", "logbl", true) // an exponent, as a double
      // only compares; its result's shadow is computed (ShadowMemory.cpp)
      .Case("bsearch", true)
      // the order qsort puts elements in (Synthesis/SortLowering.h)
      .Cases("tapestry.qsort.perm", "tapestry.qsort_r.perm", true)
      .Default(isInactiveLibstdcxxFunction(Name) ||
               // numbers read by the scanf family: their derivative is
               // zero where they are stored (Core/ConstantOutParams.h)
               scanfFormatArg(Name) >= 0 || isInactiveOpenMPFunction(Name) ||
               isInactiveMPIFunction(Name) || isSanitizerCheck(Name) ||
               // LLVM's forms of lround and friends (integer results)
               Name.starts_with("llvm.lround.") ||
               Name.starts_with("llvm.llround.") ||
               Name.starts_with("llvm.lrint.") ||
               Name.starts_with("llvm.llrint.") ||
               // derivative code's own bookkeeping, a list per depth of
               // nesting (Synthesis/FreedShadows.h)
               Name.starts_with("tapestry.freed.") ||
               // the rounding correction of emulated floating-point
               // formats (Synthesis/EmulatedRounding.h): a derivative of
               // plain + correction is the plain operation's
               Name.starts_with("__tapestry_fpround.") ||
               // Enzyme's stop-gradient (Core/IgnoreDerivatives.h)
               isIgnoreDerivativesName(Name));
}

bool isSanitizerCheck(StringRef Name) {
  return Name.starts_with("__ubsan_handle_") || Name.starts_with("__asan_");
}

} // namespace tapestry
