// A memory-tracking global operator new and delete, as allocation trackers
// and profilers write them: each block from malloc with a 16-byte header
// {size, tag} in front. (For cxx-replaced-operator-new.cpp, compiled on
// its own.)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

std::size_t tracked_live_bytes;

void *operator new(std::size_t n) {
  auto *h = static_cast<std::uint64_t *>(std::malloc(n + 16));
  if (!h)
    throw std::bad_alloc();
  h[0] = n;
  h[1] = 0x4B415254;
  tracked_live_bytes += n;
  return h + 2;
}

void operator delete(void *p) noexcept {
  if (!p)
    return;
  auto *h = static_cast<std::uint64_t *>(p) - 2;
  tracked_live_bytes -= h[0];
  std::free(h);
}

void operator delete(void *p, std::size_t) noexcept { operator delete(p); }
