#include "server/net/heap_trim.h"

#include <malloc.h>

namespace malachite::server {

void TrimHeap() { ::malloc_trim(0); }

}  // namespace malachite::server
