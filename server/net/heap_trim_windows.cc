#include <malloc.h>

#include "server/net/heap_trim.h"

namespace malachite::server {

// The C runtime's heap (no mimalloc on Windows: CMakeLists.txt): _heapmin gives its unused
// pages back to the system.
void TrimHeap() { ::_heapmin(); }

}  // namespace malachite::server
