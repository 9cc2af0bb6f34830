// The canonical printable form of an entity record (storage/FORMAT.md), for tests and logs.
#pragma once

#include <string>
#include <string_view>

namespace malachite::storage {

// `v1 ts=<ticks> props=[Name:String="x", Qty:Int32=3]`; Binary as base16, Guid as text form,
// Double with %.17g. For tests and logs; `<malformed ...>` when the bytes do not parse.
std::string DumpEntityRecord(std::string_view record);

}  // namespace malachite::storage
