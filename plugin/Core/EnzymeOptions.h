//===- EnzymeOptions.h - Enzyme's command-line options ----------*- C++ -*-===//
//
// Enzyme users pass Enzyme's own options on their build lines
// (`clang -mllvm -enzyme-print ...`, `opt -enzyme-loose-types ...`); an
// option LLVM's parser does not know stops the build. Every option users pass
// is registered here, with the meaning it has in Enzyme where Tapestry has
// one (printing, inlining, the pass itself) and otherwise accepted with no
// effect, for the reason the option table in EnzymeOptions.cpp gives. An
// option whose being ignored would change the numbers is an error instead
// (unsupportedEnzymeOption).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_ENZYMEOPTIONS_H
#define TAPESTRY_CORE_ENZYMEOPTIONS_H

#include <string>
#include <vector>

namespace tapestry {

/// -enzyme-enable (default true): false leaves every request unresolved.
bool enzymeEnabled();
/// -enzyme-print: each synthesised derivative function, to stderr.
bool enzymePrintDerivatives();
/// -enzyme-print-activity: the activity of every value of each function
/// differentiated, to stderr.
bool enzymePrintActivity();
/// -enzyme-print-type: the type analysis of each function differentiated,
/// to stderr.
bool enzymePrintTypes();
/// -enzyme-print-perf: what each derivative stores on its tape, to stderr.
bool enzymePrintPerf();
/// -enzyme-inline: inline callees into the function differentiated whatever
/// their size (and at -O0 too), up to enzymeInlineCount() calls.
bool enzymeForceInline();
/// -enzyme-inline-count (default 10000).
unsigned enzymeInlineCount();
/// -enzyme-globals-default-inactive: every global is inactive, as if each
/// were marked __attribute__((enzyme_inactive)).
bool enzymeGlobalsInactive();
/// -enzyme-load-inactive-file=PATH (repeatable): files naming functions,
/// one a line, that are inactive as if marked enzyme_inactive.
std::vector<std::string> enzymeInactiveFiles();
/// -enzyme-truncate-all: "" or the formats to truncate every function
/// between, e.g. "64to32" (Passes/TruncateRequest.h).
std::string enzymeTruncateAll();
/// The first option given that Tapestry cannot honour, with the reason and
/// what to do instead ("-enzyme-separate-compilation is not supported:
/// ..."), or "".
std::string unsupportedEnzymeOption();

} // namespace tapestry

#endif // TAPESTRY_CORE_ENZYMEOPTIONS_H
