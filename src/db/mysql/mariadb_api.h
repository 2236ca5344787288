// The client library of the mysql driver, loaded on first use (see
// os/dynamic_lib.h): one function pointer per client function the driver calls.

#ifndef LOADCELL_DB_MYSQL_MARIADB_API_H_
#define LOADCELL_DB_MYSQL_MARIADB_API_H_

#include <mysql.h>

#include "core/status.h"

namespace loadcell {

// clang-format off
// mysql_library_init is a macro for mysql_server_init.
#define LOADCELL_MARIADB_FUNCTIONS(X) \
  X(mysql_affected_rows)              \
  X(mysql_close)                      \
  X(mysql_errno)                      \
  X(mysql_error)                      \
  X(mysql_fetch_fields)               \
  X(mysql_fetch_lengths)              \
  X(mysql_fetch_row)                  \
  X(mysql_field_count)                \
  X(mysql_free_result)                \
  X(mysql_get_server_info)            \
  X(mysql_init)                       \
  X(mysql_server_init)                \
  X(mysql_num_fields)                 \
  X(mysql_options)                    \
  X(mysql_optionsv)                   \
  X(mysql_real_connect)               \
  X(mysql_real_escape_string)         \
  X(mysql_real_query)                 \
  X(mysql_sqlstate)                   \
  X(mysql_stmt_affected_rows)         \
  X(mysql_stmt_bind_param)            \
  X(mysql_stmt_bind_result)           \
  X(mysql_stmt_close)                 \
  X(mysql_stmt_errno)                 \
  X(mysql_stmt_error)                 \
  X(mysql_stmt_execute)               \
  X(mysql_stmt_fetch)                 \
  X(mysql_stmt_fetch_column)          \
  X(mysql_stmt_field_count)           \
  X(mysql_stmt_free_result)           \
  X(mysql_stmt_init)                  \
  X(mysql_stmt_param_count)           \
  X(mysql_stmt_prepare)               \
  X(mysql_stmt_result_metadata)       \
  X(mysql_stmt_sqlstate)              \
  X(mysql_use_result)                 \
  X(mysql_set_local_infile_handler)   \
  X(mysql_warning_count)              \
  X(mysql_character_set_name)         \
  X(mysql_get_socket)                 \
  X(mysql_get_ssl_cipher)
// clang-format on

// `name` is the identifier being declared: it cannot be parenthesised.
// NOLINTNEXTLINE(bugprone-macro-parentheses)
#define LOADCELL_DECLARE_FUNCTION_POINTER_(name) decltype(&::name) name = nullptr;

// The MariaDB connector (libmariadb.so.3).
struct MariadbApi {
  LOADCELL_MARIADB_FUNCTIONS(LOADCELL_DECLARE_FUNCTION_POINTER_)
};

#undef LOADCELL_DECLARE_FUNCTION_POINTER_

// Loads libmariadb as LoadPq() loads libpq (pgsql/pq_api.h); Mariadb() is
// its table.
Status LoadMariadb();
const MariadbApi& Mariadb();

}  // namespace loadcell

#endif  // LOADCELL_DB_MYSQL_MARIADB_API_H_
