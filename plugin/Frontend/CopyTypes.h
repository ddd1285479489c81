//===- CopyTypes.h - What each struct copy moves, from the AST --*- C++ -*-===//
//
// Clang lowers a copy of a trivially copyable struct (a trivial copy
// constructor or assignment, a C struct assignment, memcpy of a struct) to
// llvm.memcpy, and outside -O1's !tbaa.struct (never for a trivial copy
// constructor, never at -O0) the IR no longer says what the bytes are: a
// double, a pointer or an int. libstdc++ copies a std::map<int, double>
// node's pair this way, in a function that never reads the pair.
//
// At the end of the translation unit, every such copy of a type holding a
// floating-point value or a pointer is described in one internal global the
// pass reads (Passes/SourceCopyTypes.h):
//
//   static const char __tapestry_copy_types[] = "<entry>\n<entry>\n...";
//
// an entry being tab-separated: the enclosing function's symbol names
// (';'-separated), the file, the copy expression's first and last
// line:column, the stride (0 for one object, else the element size of a
// memcpy of an array), the object's size, and its scalars as
// offset:kind pairs (f float, d double, x x87 long double, q binary128,
// h half, b bfloat16, p pointer, iN an N-bit integer).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_FRONTEND_COPYTYPES_H
#define TAPESTRY_FRONTEND_COPYTYPES_H

namespace clang {
class ASTContext;
class Sema;
} // namespace clang

namespace tapestry {

/// Emits __tapestry_copy_types for the translation unit \p Ctx through
/// \p S's AST consumer (empty if the unit copies no such type).
void emitCopyTypes(clang::Sema &S, clang::ASTContext &Ctx);

} // namespace tapestry

#endif // TAPESTRY_FRONTEND_COPYTYPES_H
