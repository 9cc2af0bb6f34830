#include <mimalloc.h>

#include "server/net/heap_trim.h"

namespace malachite::server {

// glibc's malloc_trim would walk glibc's own arenas, which mimalloc leaves empty; in a static
// binary it would also pull glibc's malloc.o in beside mimalloc's and the link would fail.
void TrimHeap() { mi_collect(true); }

}  // namespace malachite::server
