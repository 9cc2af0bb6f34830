// FunctionRef: a non-owning reference to a callable, for callbacks invoked once per row on hot
// paths (scans), where std::function's type erasure and possible allocation are not wanted.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace malachite {

template <typename Signature>
class FunctionRef;

// Refers to `callable` without copying it: the callable must outlive the FunctionRef (pass one
// as a parameter, bound to a lambda at the call site; never store one beyond the call).
template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef> &&
                                                    std::is_invocable_r_v<R, F&, Args...>>>
  FunctionRef(F&& callable)  // NOLINT(google-explicit-constructor): binds lambdas implicitly
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(callable)))),
        call_([](void* object, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(object))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace malachite
