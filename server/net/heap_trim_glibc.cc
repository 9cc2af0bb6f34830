#include <malloc.h>

#include "server/net/heap_trim.h"

namespace malachite::server {

void TrimHeap() { ::malloc_trim(0); }

}  // namespace malachite::server
