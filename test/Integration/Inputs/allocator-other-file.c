// An allocator defined in another file than the program differentiated
// (test/Integration/malloc-through-global-struct.c): Tapestry has no body
// for it (nor its address), so a derivative that calls it through a function
// pointer stops.
#include <stdlib.h>

static void *other_file_allocator(size_t n) { return malloc(n); }

typedef void *(*allocator)(size_t);
allocator other_file_allocator_address(void) { return other_file_allocator; }
