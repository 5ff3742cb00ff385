#include "db/clients.hpp"

namespace iso::db::detail {

std::unique_ptr<Connection> open_mariadb(const std::string& url, const MysqlTarget&, double) {
  fail(url, "connect", "the MariaDB client is not built yet");
}

}  // namespace iso::db::detail
