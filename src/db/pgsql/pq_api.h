// The client library of the pgsql driver, loaded on first use (see
// os/dynamic_lib.h): one function pointer per client function the driver calls.

#ifndef LOADCELL_DB_PGSQL_PQ_API_H_
#define LOADCELL_DB_PGSQL_PQ_API_H_

#include <libpq-fe.h>

#include "core/status.h"

namespace loadcell {

// clang-format off
#define LOADCELL_PQ_FUNCTIONS(X) \
  X(PQclear)                     \
  X(PQconsumeInput)              \
  X(PQcmdTuples)                 \
  X(PQconnectdbParams)           \
  X(PQerrorMessage)              \
  X(PQfinish)                    \
  X(PQflush)                     \
  X(PQfname)                     \
  X(PQgetResult)                 \
  X(PQgetisnull)                 \
  X(PQgetlength)                 \
  X(PQgetvalue)                  \
  X(PQisBusy)                    \
  X(PQnfields)                   \
  X(PQntuples)                   \
  X(PQparameterStatus)           \
  X(PQputCopyData)               \
  X(PQputCopyEnd)                \
  X(PQresultErrorField)          \
  X(PQresultStatus)              \
  X(PQsendPrepare)               \
  X(PQsendQuery)                 \
  X(PQsendQueryPrepared)         \
  X(PQsetnonblocking)            \
  X(PQsetNoticeProcessor)        \
  X(PQstatus)                    \
  X(PQtransactionStatus)         \
  X(PQsocket)                    \
  X(PQsslInUse)                  \
  X(PQgssEncInUse)
// clang-format on

// `name` is the identifier being declared: it cannot be parenthesised.
// NOLINTNEXTLINE(bugprone-macro-parentheses)
#define LOADCELL_DECLARE_FUNCTION_POINTER_(name) decltype(&::name) name = nullptr;

// libpq (libpq.so.5).
struct PqApi {
  LOADCELL_PQ_FUNCTIONS(LOADCELL_DECLARE_FUNCTION_POINTER_)
};

#undef LOADCELL_DECLARE_FUNCTION_POINTER_

// Loads libpq once per process (later calls return the first outcome; safe
// from any thread). On failure: kUnavailable with a one-line message naming
// the library, the package that provides it and the loader's reason.
// Pq() is the table LoadPq() filled; valid for the process' lifetime. Call
// only after LoadPq() returned Ok.
Status LoadPq();
const PqApi& Pq();

}  // namespace loadcell

#endif  // LOADCELL_DB_PGSQL_PQ_API_H_
