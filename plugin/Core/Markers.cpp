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

std::string unsupportedEnzymeMarker(StringRef Name) {
  static const struct {
    StringRef Name, Feature, Advice;
  } Unsupported[] = {
      {"enzyme_byref",
       "an argument given by address (enzyme_byref, N, &value: the value "
       "is loaded from there)",
       "pass the value itself (Tapestry takes enzyme_byref only before the "
       "seed of __enzyme_reverse)"},
      {"enzyme_interface", "Julia's dynamic interface",
       "Tapestry differentiates C and C++"},
      {"enzyme_trace", "probabilistic programming (traces)", ""},
      {"enzyme_duptrace", "probabilistic programming (traces)", ""},
      {"enzyme_likelihood", "probabilistic programming (traces)", ""},
      {"enzyme_duplikelihood", "probabilistic programming (traces)", ""},
      {"enzyme_observations", "probabilistic programming (traces)", ""},
      {"enzyme_active_rand_var", "probabilistic programming (traces)", ""},
      {"enzyme_buffer",
       "an __enzyme_batch argument whose lanes lie at a byte stride",
       "give __enzyme_batch one value per lane (enzyme_vector)"},
  };
  for (const auto &U : Unsupported)
    if (U.Name == Name) {
      std::string Msg = Name.str() + " is Enzyme's marker for " +
                        U.Feature.str() + "; Tapestry does not support it";
      if (!U.Advice.empty())
        Msg += ": " + U.Advice.str();
      return Msg;
    }
  return "";
}

} // namespace tapestry
