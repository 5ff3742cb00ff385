#include "db/clients.hpp"

namespace iso::db::detail {

std::unique_ptr<Connection> open_postgres(const std::string& url, const std::string&, double) {
  fail(url, "connect", "the PostgreSQL client is not built yet");
}

}  // namespace iso::db::detail
