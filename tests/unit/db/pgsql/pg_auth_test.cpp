// The client's side of PostgreSQL's md5 and SCRAM-SHA-256 authentication
// against known answers: RFC 7677's example exchange (user "user",
// password "pencil", its fixed nonces) and an md5 response computed apart
// (Python's hashlib).

#include "db/pgsql/pg_auth.h"

#include <gtest/gtest.h>

#include <string>

#include "testing/status.h"

namespace loadcell {
namespace {

constexpr const char* kRfcServerFirst =
    "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";

TEST(PgMd5Response, MatchesAnIndependentComputation) {
  const std::string salt("\x01\x02\x03\x04", 4);
  auto r = PgMd5Response("bench", "secret", salt);
  ASSERT_OK(r.status());
  EXPECT_EQ(*r, "md58d824187b66621214caa97994f319ba8");
  auto other = PgMd5Response("bench", "secreT", salt);
  ASSERT_OK(other.status());
  EXPECT_NE(*other, *r);
}

TEST(PgScramClient, Rfc7677Exchange) {
  PgScramClient scram("user", "rOprNGfwEbeRWgbNEkqO");
  EXPECT_EQ(scram.ClientFirst(), "n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
  auto final_message = scram.ClientFinal(kRfcServerFirst, "pencil");
  ASSERT_OK(final_message.status());
  EXPECT_EQ(*final_message,
            "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
            "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
  EXPECT_OK(scram.CheckServerFinal("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="));
}

TEST(PgScramClient, AWrongPasswordGivesAnotherProofAndRefusesTheServer) {
  PgScramClient scram("user", "rOprNGfwEbeRWgbNEkqO");
  auto final_message = scram.ClientFinal(kRfcServerFirst, "pencil2");
  ASSERT_OK(final_message.status());
  EXPECT_EQ(final_message->find("p=dHzbZapWIk4jUhN"), std::string::npos);
  // The server's signature for "pencil" is not the one this password expects.
  Status s = scram.CheckServerFinal("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_NE(s.message().find("signature"), std::string::npos) << s.ToString();
  EXPECT_EQ(s.message().find("pencil"), std::string::npos) << s.ToString();
}

TEST(PgScramClient, RefusesAServerThatDoesNotExtendTheNonce) {
  PgScramClient scram("", "abcdef");
  auto r = scram.ClientFinal("r=xyzabcdef123,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096", "pw");
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
  auto same = scram.ClientFinal("r=abcdef,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096", "pw");
  EXPECT_FALSE(same.ok());
}

TEST(PgScramClient, RefusesMalformedServerMessages) {
  PgScramClient scram("", "abc");
  EXPECT_FALSE(scram.ClientFinal("r=abcd,i=4096", "pw").ok());         // no salt
  EXPECT_FALSE(scram.ClientFinal("r=abcd,s=!!!!,i=4096", "pw").ok());  // bad salt
  EXPECT_FALSE(scram.ClientFinal("r=abcd,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=x", "pw").ok());
  EXPECT_FALSE(scram.ClientFinal("r=abcd,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=0", "pw").ok());
  // No server-final check passes before a client-final was made.
  EXPECT_FALSE(scram.CheckServerFinal("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=").ok());
  Status refused = scram.CheckServerFinal("e=invalid-proof");
  EXPECT_NE(refused.message().find("invalid-proof"), std::string::npos) << refused.ToString();
}

}  // namespace
}  // namespace loadcell
