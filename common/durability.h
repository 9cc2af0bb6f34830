// How durable an acknowledged write is: the one name the configuration, the store and the startup
// banner share (--durability, StoreOptions::durability).
#pragma once

#include <optional>
#include <string_view>

namespace malachite {

enum class Durability {
  // Acknowledged writes survive the process's death (kill -9, OOM kill, a crash): each commit is
  // in the kernel's page cache before the acknowledgement; the files are fsync'ed in the
  // background at a bounded interval and at a clean shutdown. A host crash loses at most the
  // writes of the last interval. The default.
  kProcess,
  // Acknowledged writes survive a host crash too: the acknowledgement waits for the commit's
  // fsync (one per group commit), except that a host crash may undo the last group committed
  // before it (its meta page is synced by the next commit or the background flush).
  kFull,
  // Nothing is synced (--in-memory: the data does not outlive the process anyway).
  kNone,
};

// "process", "full", "none".
std::string_view DurabilityName(Durability durability);
// The inverse of DurabilityName; nullopt for anything else.
std::optional<Durability> ParseDurability(std::string_view name);

}  // namespace malachite
