#include "cli/importer.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "cli/progress.h"

namespace malachite::cli {
namespace {

// Azure: spec §9.3 — a $batch body is at most 4 MiB; leave room for the multipart framing.
constexpr std::size_t kMaxGroupBytes = 3 * 1024 * 1024;
constexpr int kMaxAttempts = 12;
constexpr auto kFirstBackoff = std::chrono::milliseconds(100);
constexpr auto kMaxBackoff = std::chrono::seconds(5);

struct Group {
  std::uint64_t seq = 0;
  std::vector<Entity> entities;
  std::vector<std::size_t> lines;
  std::size_t bytes = 0;
  CheckpointEntry end;  // where the source stands after the group
};

// Rough size of an entity on the wire, to keep groups under the request size limit.
std::size_t ApproxBytes(const Entity& e) {
  std::size_t n = 64 + e.partition_key.size() * 2 + e.row_key.size() * 2;
  for (const Property& p : e.properties) n += 48 + p.name.size() + p.value.bytes.size() * 2;
  return n;
}

// Runs groups on worker threads and tracks the contiguous committed prefix.
class GroupPipeline {
 public:
  GroupPipeline(TableTarget& target, const std::string& table, const ImportOptions& options,
                CheckpointEntry start)
      : target_(target), table_(table), options_(options), committed_(start) {
    for (unsigned i = 0; i < std::max(1u, options.workers); ++i) {
      threads_.emplace_back([this] { Work(); });
    }
  }
  ~GroupPipeline() { Close(); }

  // Queues `group` (blocks while the queue is full). False once the import failed.
  bool Push(Group group) {
    std::unique_lock<std::mutex> lock(mu_);
    space_.wait(lock, [&] { return queue_.size() < 2 * threads_.size() || failure_; });
    if (failure_) return false;
    group.seq = next_seq_++;
    queue_.push_back(std::move(group));
    ready_.notify_one();
    return true;
  }

  // Waits for every queued group, then stops the workers. Idempotent.
  void Close() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      closing_ = true;
      ready_.notify_all();
    }
    for (std::thread& t : threads_) {
      if (t.joinable()) t.join();
    }
  }

  std::optional<ImportError> failure() const {
    std::lock_guard<std::mutex> lock(mu_);
    return failure_;
  }
  std::pair<CheckpointEntry, std::uint64_t> Committed() const {
    std::lock_guard<std::mutex> lock(mu_);
    return {committed_, written_};
  }

 private:
  void Work() {
    for (;;) {
      Group group;
      {
        std::unique_lock<std::mutex> lock(mu_);
        ready_.wait(lock, [&] { return !queue_.empty() || closing_ || failure_; });
        if (failure_ || queue_.empty()) return;
        group = std::move(queue_.front());
        queue_.pop_front();
        space_.notify_one();
      }
      auto written = Write(group);
      std::lock_guard<std::mutex> lock(mu_);
      if (!written) {
        if (!failure_) failure_ = std::move(written.error());
        space_.notify_all();
        ready_.notify_all();
        return;
      }
      done_[group.seq] = {group.end, group.entities.size()};
      // The checkpoint moves only over groups whose predecessors all committed.
      for (auto it = done_.find(next_commit_); it != done_.end(); it = done_.find(next_commit_)) {
        committed_ = it->second.first;
        written_ += it->second.second;
        done_.erase(it);
        ++next_commit_;
      }
    }
  }

  tl::expected<void, ImportError> Write(const Group& group) {
    auto backoff = std::chrono::duration_cast<std::chrono::milliseconds>(kFirstBackoff);
    for (int attempt = 1;; ++attempt) {
      auto ok = target_.WriteGroup(table_, group.entities, options_.mode, options_.keep_timestamps);
      if (ok) return {};
      if (ok.error().retryable && attempt < kMaxAttempts) {
        std::this_thread::sleep_for(backoff);
        backoff = std::min(backoff * 2,
                           std::chrono::duration_cast<std::chrono::milliseconds>(kMaxBackoff));
        continue;
      }
      const std::optional<std::size_t> index = ok.error().index;
      std::optional<std::size_t> line;
      if (index && *index < group.lines.size()) line = group.lines[*index];
      if (!line && group.entities.size() == 1) line = group.lines.front();
      return tl::unexpected(ImportError{line, std::move(ok.error().error)});
    }
  }

  TableTarget& target_;
  const std::string& table_;
  const ImportOptions& options_;
  mutable std::mutex mu_;
  std::condition_variable ready_, space_;
  std::deque<Group> queue_;
  std::vector<std::thread> threads_;
  std::uint64_t next_seq_ = 0, next_commit_ = 0;
  std::map<std::uint64_t, std::pair<CheckpointEntry, std::uint64_t>> done_;
  CheckpointEntry committed_;
  std::uint64_t written_ = 0;
  bool closing_ = false;
  std::optional<ImportError> failure_;
};

}  // namespace

tl::expected<std::uint64_t, ImportError> ImportRecords(
    TableTarget& target, const std::string& table, RecordSource& source,
    const ImportOptions& options, Checkpoint& checkpoint, const std::string& file_key,
    const std::string& label) {
  const CheckpointEntry start = checkpoint.Get(file_key);
  if (start.done) return 0;
  if (auto ok = target.EnsureTable(table); !ok) return tl::unexpected(ImportError{{}, ok.error()});
  if (start.offset > 0) source.Seek(start.offset, start.line);

  Progress progress(label, options.progress);
  GroupPipeline pipeline(target, table, options, start);
  std::optional<ImportError> refused;
  Group current;
  auto last_save = std::chrono::steady_clock::now();
  auto flush = [&] {
    if (current.entities.empty()) return true;
    const bool queued = pipeline.Push(std::move(current));
    current = Group{};
    return queued;
  };
  for (;;) {
    auto record = source.Next();
    if (!record) {
      refused = ImportError{record.error().line, std::move(record.error().error)};
      break;
    }
    if (!*record) {
      flush();
      break;
    }
    EntityRecord& r = **record;
    const std::size_t bytes = ApproxBytes(r.entity);
    const bool other_partition = target.groups_by_partition() && !current.entities.empty() &&
                                 current.entities.front().partition_key != r.entity.partition_key;
    if (current.entities.size() >= target.max_group() || other_partition ||
        current.bytes + bytes > kMaxGroupBytes) {
      if (!flush()) break;
    }
    current.entities.push_back(std::move(r.entity));
    current.lines.push_back(r.line);
    current.bytes += bytes;
    current.end = CheckpointEntry{r.end_offset, r.next_line, false};
    const auto [committed, written] = pipeline.Committed();
    progress.Update(written, source.position(), source.total());
    if (std::chrono::steady_clock::now() - last_save > std::chrono::seconds(1)) {
      checkpoint.Set(file_key, committed);
      (void)checkpoint.Save();
      last_save = std::chrono::steady_clock::now();
    }
  }
  pipeline.Close();
  auto [committed, written] = pipeline.Committed();
  std::optional<ImportError> failure = pipeline.failure();
  if (!failure) failure = std::move(refused);
  committed.done = !failure;
  checkpoint.Set(file_key, committed);
  (void)checkpoint.Save();
  progress.Finish(written);
  if (failure) return tl::unexpected(std::move(*failure));
  return written;
}

}  // namespace malachite::cli
