#include "server/net/local_commit.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <memory>
#include <utility>
#include <vector>

namespace malachite::server {
namespace {

namespace asio = boost::asio;

// The writes one io_context gathered in one turn of its event loop.
struct LocalGroup {
  storage::Store* store = nullptr;
  asio::any_io_executor executor;
  std::vector<storage::WriteFn> writes;
  std::vector<WriteHandler> handlers;  // handlers[i] gets writes[i]'s result
};

// The calling thread's open group: the one new writes join until its commit runs. A thread runs
// exactly one io_context (listener.cc), so "per thread" is "per io_context". Not owning: the
// posted commit owns the group.
thread_local LocalGroup* open_group = nullptr;
// A committed group kept for the thread's next one, with its vectors' capacity: a lone
// connection's writes allocate no group.
thread_local std::unique_ptr<LocalGroup> spare_group;

// Hands writes[from...] to the writer thread; each handler is posted back to the group's
// executor, which is kept from running out of work meanwhile.
void SubmitRest(LocalGroup& group, std::size_t from) {
  for (std::size_t i = from; i < group.writes.size(); ++i) {
    // WriteDone is a std::function (copyable); the handler is move-only.
    auto handler = std::make_shared<WriteHandler>(std::move(group.handlers[i]));
    auto work = std::make_shared<asio::executor_work_guard<asio::any_io_executor>>(
        asio::make_work_guard(group.executor));
    group.store->Submit(std::move(group.writes[i]), [handler, work](Result<void> result) {
      asio::post(work->get_executor(), [handler, work, result = std::move(result)]() mutable {
        std::move (*handler)(std::move(result));
      });
    });
  }
}

// Commits the group inline when the store allows it (the rest, if it grew too big for one
// transaction, and all of it otherwise, goes to the writer thread), then answers each handler.
void CommitGroup(LocalGroup& group) {
  std::size_t answered = 0;
  if (auto results = group.store->TryWriteGroup(group.writes)) {
    answered = results->size();
    SubmitRest(group, answered);
    // On the group's own io_context thread already: each awaiting session resumes here.
    for (std::size_t i = 0; i < answered; ++i) {
      std::move(group.handlers[i])(std::move((*results)[i]));
    }
    return;
  }
  SubmitRest(group, answered);
}

// The posted commit of one group. Owns it: a commit destroyed unrun (its io_context stopped)
// destroys the handlers with it, as asio destroys any other pending handler.
class PostedCommit {
 public:
  explicit PostedCommit(std::unique_ptr<LocalGroup> group) : group_(std::move(group)) {}
  PostedCommit(PostedCommit&&) = default;
  ~PostedCommit() { Close(); }
  void operator()() {
    Close();  // writes joining from here on open the next group
    CommitGroup(*group_);
    group_->writes.clear();
    group_->handlers.clear();
    group_->executor = {};
    if (!spare_group) spare_group = std::move(group_);
  }

 private:
  void Close() {
    if (group_ && open_group == group_.get()) open_group = nullptr;
  }
  std::unique_ptr<LocalGroup> group_;
};

}  // namespace

void JoinLocalGroup(storage::Store& store, storage::WriteFn write, asio::any_io_executor executor,
                    WriteHandler handler) {
  if (open_group == nullptr || open_group->store != &store) {
    std::unique_ptr<LocalGroup> group =
        spare_group ? std::move(spare_group) : std::make_unique<LocalGroup>();
    group->store = &store;
    group->executor = executor;
    open_group = group.get();
    // Posted, it runs after the handlers already ready on this io_context: the other
    // connections whose requests arrived in the same turn join the group first.
    asio::post(executor, PostedCommit(std::move(group)));
  }
  open_group->writes.push_back(std::move(write));
  open_group->handlers.push_back(std::move(handler));
}

}  // namespace malachite::server
