// Makes thread_local destructors run while their objects still exist, in every Windows program
// that links malachite_platform (platform/CMakeLists.txt links this object into each of them).
//
// MinGW-w64 GCC 12 keeps thread_local objects in emulated TLS (libgcc's emutls): a block per
// thread, freed at thread exit by a pthread key destructor. libstdc++ registers thread_local
// destructors (__cxa_thread_atexit) under a second pthread key, and winpthreads runs key
// destructors in key order. Whichever key is made first runs first, and emutls' key is made at
// the first thread_local access, normally before the first thread_local with a destructor: so a
// thread's TLS block was freed before its objects' destructors ran on it. Seen as a crash at
// thread exit in HmacSha256Key::Sign's cache (EVP_MAC_CTX_free on a pointer the heap had
// overwritten: `malachite import` under Wine died after 178 of 250 entities), and in a plain
// test program as 38 of 800 destructors reading freed memory.
//
// The constructor below runs before any other static initializer (priority 101, the first a
// program may use) and registers a no-op thread_local destructor, which makes libstdc++'s key
// first: every destructor then runs before emutls frees the block. tests/unit/platform's
// thread_local case checks it under Wine.
namespace {

extern "C" int __cxa_thread_atexit(void (*destructor)(void*), void* object, void* dso);
extern "C" char __dso_handle;

void Nothing(void*) {}

__attribute__((constructor(101))) void MakeDestructorKeyFirst() {
  __cxa_thread_atexit(Nothing, nullptr, &__dso_handle);
}

}  // namespace
