// The JSON metadata levels of OData responses (spec §5.1) and their Content-Type values.
#pragma once

#include <string_view>

namespace malachite::server {

// Azure: spec §5.1 — the JSON metadata level negotiated from $format/Accept (spec §2.3).
enum class MetadataLevel { kNone, kMinimal, kFull };

// Azure: spec §2.2 — "application/json;odata=<level>;streaming=true;charset=utf-8". The view
// lives for the program.
std::string_view JsonContentType(MetadataLevel level);

}  // namespace malachite::server
