//===- Markers.h - The markers a request may carry --------------*- C++ -*-===//
//
// Markers.def read once: what kind a marker name is, and the list the
// decoder quotes when it meets a marker it does not know.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_MARKERS_H
#define TAPESTRY_CORE_MARKERS_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace tapestry {

enum class MarkerKind { Activity, Width, BatchArgument, Request, Split };

/// The kind of marker \p Name, or nullopt for a name no request knows.
std::optional<MarkerKind> markerKind(llvm::StringRef Name);

/// "enzyme_const, enzyme_dup, ... and tapestry_reusable_tape".
std::string knownMarkerList();

/// For a marker of Enzyme's that Tapestry does not support: the message
/// naming the feature and saying so (and what to do instead); "" for any
/// other name.
std::string unsupportedEnzymeMarker(llvm::StringRef Name);

} // namespace tapestry

#endif // TAPESTRY_CORE_MARKERS_H
