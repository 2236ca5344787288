// The mysql driver (libmariadb; MariaDB and MySQL servers): binary-protocol
// prepared statements (mysql_stmt_*), rows streamed and counted without
// copying, LOAD DATA LOCAL INFILE (or multi-row INSERT) for bulk loads.

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>
#include <string>

#include "db/drivers.h"
#include "db/dry_run_connection.h"
#include "db/mysql/mysql_settings.h"
#include "os/crypto.h"
#include "os/file_system.h"

namespace loadcell {
namespace {

using mysql_internal::MySettings;

class MysqlDriver final : public DbDriver {
 public:
  std::string Name() const override { return "mysql"; }
  DbCapabilities Capabilities() const override {
    DbCapabilities c;
    c.prepared_statements = server_prepared();
    c.bulk_insert = "LOAD DATA LOCAL INFILE";
    return c;
  }
  void RegisterOptions(OptionSet& opts) override {
    opts.List("mysql-host", &s_.hosts, "localhost",
              "MySQL server host; a list spreads connections round-robin");
    opts.List("mysql-port", &s_.port_texts, "3306",
              "MySQL server port; a list spreads connections round-robin");
    opts.List("mysql-socket", &s_.sockets, "",
              "MySQL unix socket file; a list is used round-robin");
    opts.String("mysql-user", &s_.user, "sbtest", "MySQL user");
    opts.String("mysql-password", &s_.password, "", "MySQL password (default: $MYSQL_PWD)")
        .Secret();
    opts.String("mysql-db", &s_.db, "sbtest", "MySQL database name");
    opts.Enum("mysql-ssl", &s_.ssl, "off",
              {"off", "on", "required", "verify_ca", "verify_identity"}, "use SSL connections");
    opts.String("mysql-ssl-cipher", &s_.ssl_cipher, "",
                "the cipher(s) for SSL connections, as the client library takes them");
    opts.Bool("mysql-compression", &s_.compression, false,
              "compress the protocol (statements then go through the client library)");
    opts.Bool("mysql-dry-run", &s_.dry_run, false,
              "connect to no server: every statement succeeds at once with no rows, so that "
              "the run measures the client's own cost (as sysbench's dry run)");
    opts.Bool("mysql-get-server-public-key", &s_.get_server_public_key, false,
              "native connector, caching_sha2_password without TLS: ask the server for its RSA "
              "key and encrypt the password to it (only for a server you trust)");
    opts.String("mysql-server-public-key", &s_.server_public_key_file, "",
                "native connector, caching_sha2_password without TLS: the server's RSA public "
                "key (a PEM file) to encrypt the password to");
    opts.List("mysql-ignore-errors", &s_.ignore_errors, "1213,1020,1205",
              "error numbers or SQLSTATEs that roll back and retry the transaction instead of "
              "failing the run, or 'all' or 'none'");
  }
  Status Validate() override {
    if (!s_.dry_run) LC_RETURN_IF_ERROR(ResolveConnector());
    auto ignore = DbIgnoreList::Parse(s_.ignore_errors);
    if (!ignore.ok()) {
      return Status::InvalidArgument("--mysql-ignore-errors: " + ignore.status().message());
    }
    s_.ignore = std::move(ignore).value();
    s_.timeouts = timeouts();
    s_.limits = reply_limits();
    LC_RETURN_IF_ERROR(ReadPublicKey());
    if (s_.hosts.empty()) s_.hosts.push_back("localhost");
    s_.ports.clear();
    for (const std::string& t : s_.port_texts) {
      int p = 0;
      auto r = std::from_chars(t.data(), t.data() + t.size(), p);
      if (r.ec != std::errc() || r.ptr != t.data() + t.size() || p < 1 || p > 65535) {
        return Status::InvalidArgument(
            fmt::format("--mysql-port={}: not a port number (1 to 65535)", t));
      }
      s_.ports.push_back(p);
    }
    if (s_.ports.empty()) s_.ports.push_back(3306);
    // The environment's password is used, never written into the option.
    s_.password_in_use = s_.password;
    if (s_.password_in_use.empty()) {
      if (const char* pw = std::getenv("MYSQL_PWD")) s_.password_in_use = pw;
    }
    return Status::Ok();
  }
  std::string Describe() const override {
    std::string where;
    if (!s_.sockets.empty()) {
      where = fmt::format("socket {}", fmt::join(s_.sockets, ","));
    } else {
      where = fmt::format("{} port {}", fmt::join(s_.hosts, ","), fmt::join(s_.port_texts, ","));
    }
    if (s_.dry_run) return "mysql dry run (--mysql-dry-run: no server)";
    return fmt::format("mysql {} user {} database {}", where, s_.user, s_.db);
  }

 protected:
  Result<std::unique_ptr<DbConnection>> Open(int index) override {
    if (s_.ports.empty() || s_.hosts.empty()) LC_RETURN_IF_ERROR(Validate());
    if (s_.dry_run) return MakeDryRunConnection();
    if (s_.native) return mysql_internal::OpenNativeConnection(&s_, index);
    return mysql_internal::OpenLibraryConnection(&s_, index);
  }

 private:
  // --db-connector: the library where the build has it (TLS, Unix sockets,
  // every auth plugin), else our own client, which refuses in one line what
  // it cannot do rather than connect otherwise than asked.
  // --mysql-server-public-key: the PEM file read once, so that every
  // connection encrypts to the key the user gave.
  Status ReadPublicKey() {
    s_.server_public_key_pem.clear();
    if (s_.server_public_key_file.empty()) return Status::Ok();
    Result<std::string> pem = ReadFileToString(DefaultFileSystem(), s_.server_public_key_file);
    if (!pem.ok()) {
      return Status::InvalidArgument(fmt::format("--mysql-server-public-key={}: {}",
                                                 EscapeControlBytes(s_.server_public_key_file),
                                                 ReadFailureText(pem.status())));
    }
    if (pem->find("-----BEGIN") == std::string::npos) {
      return Status::InvalidArgument(
          fmt::format("--mysql-server-public-key={}: not a PEM public key (valid: a file that "
                      "begins with -----BEGIN PUBLIC KEY-----)",
                      EscapeControlBytes(s_.server_public_key_file)));
    }
    // Tried once here, so that a file that is PEM but no RSA public key is
    // bad usage before any connection, not a failed login naming TLS.
    if (Result<std::string> sealed = crypto::RsaOaepEncrypt(*pem, "x"); !sealed.ok()) {
      return Status::InvalidArgument(fmt::format(
          "--mysql-server-public-key={}: not an RSA public key ({}); valid: the server's "
          "public_key.pem, which begins with -----BEGIN PUBLIC KEY-----",
          EscapeControlBytes(s_.server_public_key_file), sealed.status().message()));
    }
    s_.server_public_key_pem = std::move(pem).value();
    return Status::Ok();
  }
  Status ResolveConnector() {
    const bool built = mysql_internal::LibraryConnectorBuilt();
    if (connector() == DbConnector::kLibrary && !built) {
      return Status::InvalidArgument(
          "--db-connector=library: this build has no MySQL client library; it connects with "
          "loadcell's own client (--db-connector=native or auto)");
    }
    s_.native = connector() == DbConnector::kNative;
    if (!s_.native) return mysql_internal::LoadLibraryConnector();
    const char* instead = built ? "; --db-connector=library has it" : "";
    if (s_.ssl != "off") {
      return Status::InvalidArgument(
          fmt::format("--mysql-ssl={}: loadcell's own MySQL client has no TLS and never connects "
                      "unencrypted when encryption was asked for: use --mysql-ssl=off on a trusted "
                      "network{}",
                      s_.ssl, instead));
    }
    if (!s_.sockets.empty()) {
      return Status::InvalidArgument(
          fmt::format("--mysql-socket: loadcell's own MySQL client connects over TCP only: give "
                      "--mysql-host and --mysql-port{}",
                      built ? " (--db-connector=library reaches Unix sockets)" : ""));
    }
    if (s_.compression) {
      return Status::InvalidArgument(fmt::format(
          "--mysql-compression: loadcell's own MySQL client does not compress the protocol{}",
          instead));
    }
    return Status::Ok();
  }

  MySettings s_;
};

}  // namespace

std::unique_ptr<DbDriver> NewMysqlDriver() { return std::make_unique<MysqlDriver>(); }

}  // namespace loadcell
