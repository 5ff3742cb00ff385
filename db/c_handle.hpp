// A C client library's handle (a connection, a result, a statement) owned by
// a unique_ptr and released by the library's own function, `Release`: the
// one deleter the database clients share.
#pragma once

#include <memory>

namespace iso::db::detail {

template <auto Release>
struct ReleaseWith {
  template <class T>
  void operator()(T* handle) const {
    Release(handle);
  }
};

template <class T, auto Release>
using CHandle = std::unique_ptr<T, ReleaseWith<Release>>;

}  // namespace iso::db::detail
