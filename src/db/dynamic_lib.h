// The client libraries of the pgsql and mysql drivers, loaded on first use
// with dlopen instead of being linked, so that runs that use neither (cpu,
// memory, fileio, sqlite...) do not map them and their dependencies (TLS,
// Kerberos, LDAP...), which would add megabytes of resident memory to every
// run. The real headers still provide the types; each table holds one
// function pointer per client function the drivers call.

#ifndef LOADCELL_DB_DYNAMIC_LIB_H_
#define LOADCELL_DB_DYNAMIC_LIB_H_

#include <libpq-fe.h>
#include <mysql.h>

#include "core/status.h"

namespace loadcell {

// clang-format off
#define LOADCELL_PQ_FUNCTIONS(X) \
  X(PQclear)                     \
  X(PQcmdTuples)                 \
  X(PQconnectdbParams)           \
  X(PQerrorMessage)              \
  X(PQexec)                      \
  X(PQexecPrepared)              \
  X(PQfinish)                    \
  X(PQfname)                     \
  X(PQgetResult)                 \
  X(PQgetisnull)                 \
  X(PQgetlength)                 \
  X(PQgetvalue)                  \
  X(PQnfields)                   \
  X(PQntuples)                   \
  X(PQparameterStatus)           \
  X(PQprepare)                   \
  X(PQputCopyData)               \
  X(PQputCopyEnd)                \
  X(PQresultErrorField)          \
  X(PQresultStatus)              \
  X(PQsetNoticeProcessor)        \
  X(PQstatus)                    \
  X(PQtransactionStatus)         \
  X(PQsocket)                    \
  X(PQsslInUse)                  \
  X(PQgssEncInUse)

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

#define LOADCELL_DECLARE_FUNCTION_POINTER_(name) decltype(&::name) name = nullptr;

// libpq (libpq.so.5).
struct PqApi {
  LOADCELL_PQ_FUNCTIONS(LOADCELL_DECLARE_FUNCTION_POINTER_)
};

// The MariaDB connector (libmariadb.so.3).
struct MariadbApi {
  LOADCELL_MARIADB_FUNCTIONS(LOADCELL_DECLARE_FUNCTION_POINTER_)
};

#undef LOADCELL_DECLARE_FUNCTION_POINTER_

// Loads libpq once per process (later calls return the first outcome; safe
// from any thread). On failure: kUnavailable with a one-line message naming
// the library, the package that provides it and the loader's reason.
Status LoadPq();
// The table filled by LoadPq(); valid for the process' lifetime. Call only
// after LoadPq() returned Ok.
const PqApi& Pq();

// The same for libmariadb.
Status LoadMariadb();
const MariadbApi& Mariadb();

}  // namespace loadcell

#endif  // LOADCELL_DB_DYNAMIC_LIB_H_
