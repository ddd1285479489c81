//===- Markers.cpp - The markers a request may carry ----------------------===//
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
