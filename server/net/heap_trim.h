#pragma once

namespace malachite::server {

// Gives the heap's freed memory back to the operating system, whichever allocator the build links
// (CMakeLists.txt's MALACHITE_MIMALLOC): mimalloc's mi_collect(true), glibc's malloc_trim(0), or on
// Windows the C runtime's _heapmin().
// Costs a walk of the allocator's free pages: call it from a timer, never on a request's path.
void TrimHeap();

}  // namespace malachite::server
