#include "storage/space_reserve.h"

#include <algorithm>
#include <filesystem>

#include "common/utf8_path.h"

namespace malachite::storage {
namespace {

constexpr std::uint64_t kSmallestTake = 64u << 10;
constexpr std::uint64_t kPage = 4096;

}  // namespace

namespace {

std::string ReservePath(const std::string& dir) { return dir + "/space.reserve"; }

}  // namespace

void SpaceReserve::RemoveLeftover(const std::string& dir) {
  std::error_code ignored;
  std::filesystem::remove(Utf8Path(ReservePath(dir)), ignored);
}

Result<std::unique_ptr<SpaceReserve>> SpaceReserve::Open(const std::string& dir,
                                                         std::uint64_t bytes) {
  const std::string path = ReservePath(dir);
  std::error_code ec;
  const bool existed = std::filesystem::exists(Utf8Path(path), ec);
  platform::File file = platform::File::OpenOrCreate(path, ec);
  if (!file.is_open()) {
    return Fail(ErrorCode::kInternalError,
                "data directory " + dir + ": cannot create space.reserve: " + ec.message());
  }
  // Whatever an earlier run held is the reserve's until shown otherwise: Allocate keeps it.
  const std::uint64_t earlier = file.Size().value_or(0);
  std::unique_ptr<SpaceReserve> reserve(new SpaceReserve(std::move(file), bytes));
  reserve->held_ = earlier;
  if (reserve->held_ > bytes) {
    if (reserve->file_.Truncate(bytes)) reserve->held_ = bytes;
  }
  // Emulator: an empty reserve file is what a run killed during a space alarm leaves. Taking the
  // reserve back from the room the alarm gave away would leave deletes without it again.
  if (existed && reserve->held_ == 0 && reserve->DiskRoom() < 2 * bytes) return reserve;
  reserve->TakeWhatFits();
  return reserve;
}

bool SpaceReserve::Allocate(std::uint64_t bytes) {
  if (bytes <= held_) return true;
  // Real blocks, not a sparse file (which would hold nothing); a failed take gives back what it
  // found (platform::File::Allocate).
  if (!file_.Allocate(bytes)) return false;
  held_ = bytes;
  return true;
}

bool SpaceReserve::TakeAll() { return Allocate(wanted_); }

std::uint64_t SpaceReserve::TakeWhatFits() {
  // Aim at the room the file system reports (whole pages), so a reserve given back and taken
  // again loses only what the deletes used; halve when the file system's own bookkeeping needs
  // more than that.
  const std::uint64_t room = (held_ + DiskRoom()) / kPage * kPage;
  for (std::uint64_t bytes = std::min(wanted_, room); bytes > held_ && bytes >= kSmallestTake;
       bytes /= 2) {
    if (Allocate(bytes)) break;
  }
  return held_;
}

std::uint64_t SpaceReserve::DiskRoom() const { return file_.DiskRoom(); }

std::uint64_t SpaceReserve::Release() {
  const std::uint64_t released = held_;
  // Truncating to 0 frees the blocks at once, also when the directory was unlinked (--in-memory).
  if (file_.Truncate(0)) held_ = 0;
  return released;
}

}  // namespace malachite::storage
