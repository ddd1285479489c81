//===- Markers.cpp - The markers a request may carry ----------------------===//
//
// Implements Markers.h by expanding Markers.def into one table: markerKind maps
// a marker's name to its kind for the request decoder
// (Passes/RequestDecoder.cpp), and knownMarkerList spells every name for the
// "unknown marker" error. tools/lint/check_markers.py checks the same table
// against the public headers.
//
//===----------------------------------------------------------------------===//
#include "Core/Markers.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace tapestry {

namespace {
struct MarkerEntry {
  StringRef Name;
  MarkerKind Kind;
};
} // namespace

static const MarkerEntry Markers[] = {
#define TAPESTRY_MARKER(Name, Kind) {#Name, MarkerKind::Kind},
#include "Core/Markers.def"
};

std::optional<MarkerKind> markerKind(StringRef Name) {
  for (const MarkerEntry &M : Markers)
    if (M.Name == Name)
      return M.Kind;
  return std::nullopt;
}

std::string knownMarkerList() {
  std::string List;
  ArrayRef<MarkerEntry> All(Markers);
  for (size_t I = 0; I < All.size(); ++I) {
    if (I)
      List += I + 1 == All.size() ? " and " : ", ";
    List += All[I].Name.str();
  }
  return List;
}

} // namespace tapestry
