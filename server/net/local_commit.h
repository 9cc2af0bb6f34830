// The I/O thread's own group commit (internal to server/net). Every connection of an io_context
// is served by that context's one thread; the writes its requests bring in one turn of the event
// loop (the sockets one epoll_wait found readable) are gathered and committed together, inline,
// in one LMDB transaction, before any of those connections is answered. A lone connection's
// write is a group of one: no hand-off, no wake-up. When the store cannot commit inline (the
// other I/O thread or the writer thread is committing, or every commit waits for an fsync),
// the group goes to the store's writer thread (Store::Submit) instead.
#pragma once

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>

#include "common/error.h"
#include "storage/store.h"

namespace malachite::server {

using WriteHandler = boost::asio::any_completion_handler<void(Result<void>)>;

// Adds `write` to the open group of the calling thread's io_context (opening one, whose commit is
// posted to `executor` behind the handlers that are already ready); `handler` gets the write's
// result on `executor` once the group is committed or failed. REQUIRES: called on the one thread
// that runs `executor`'s io_context; `store` outlives the group.
void JoinLocalGroup(storage::Store& store, storage::WriteFn write,
                    boost::asio::any_io_executor executor, WriteHandler handler);

// Awaitable form: `co_await AsyncCommit(store, std::move(write), asio::use_awaitable)`.
template <typename Token>
auto AsyncCommit(storage::Store& store, storage::WriteFn write, Token&& token) {
  return boost::asio::async_initiate<Token, void(Result<void>)>(
      [&store](auto handler, storage::WriteFn fn) {
        boost::asio::any_io_executor executor = boost::asio::get_associated_executor(handler);
        JoinLocalGroup(store, std::move(fn), std::move(executor), WriteHandler(std::move(handler)));
      },
      token, std::move(write));
}

}  // namespace malachite::server
