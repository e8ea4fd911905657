package org.albumstore.common.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.sql.SQLException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/**
 * The chains below are shaped like the ones the JDK, amqp-client and pgjdbc raise (the integration
 * tests {@code BrokerTlsIT} and {@code DatabaseTlsIT} of faults/ see the real ones).
 */
class TlsFailuresTest {
  @Test
  void anUnknownCaIsNamedWithWhereEachSideTakesItsTrustedCasFrom() {
    SSLHandshakeException e =
        handshake(
            "PKIX path building failed: unable to find valid certification path",
            new CertPathBuilderException("unable to find valid certification path"));
    String line = TlsFailures.describe(new IOException(e));
    assertThat(line)
        .startsWith("TLS: the server's certificate is not signed by a trusted CA")
        .contains("javax.net.ssl.trustStore")
        .contains("sslrootcert")
        .doesNotContain("\n");
  }

  @Test
  void aCertificateForAnotherHostIsNamedWithTheJdksDetail() {
    SSLHandshakeException e =
        handshake(
            "No subject alternative DNS name matching localhost found.",
            new CertificateException("No subject alternative DNS name matching localhost found."));
    assertThat(TlsFailures.describe(e))
        .isEqualTo(
            "TLS: the server's certificate is not for the host name used (No subject alternative"
                + " DNS name matching localhost found.)");
  }

  @Test
  void pgjdbcsHostNameRefusalIsAWrongHost() {
    SQLException e =
        new SQLException(
            "The hostname localhost could not be verified by hostnameverifier"
                + " PgjdbcHostnameVerifier.");
    assertThat(TlsFailures.describe(new SQLException("pool timed out", e)))
        .startsWith(TlsFailures.WRONG_HOST + " (The hostname localhost could not be verified");
  }

  @Test
  void anExpiredCertificateIsNotReportedAsAnUnknownCa() {
    CertificateExpiredException expired = new CertificateExpiredException("NotAfter: yesterday");
    SSLHandshakeException e =
        handshake(
            "PKIX path validation failed",
            new java.security.cert.CertPathValidatorException("validity check failed", expired));
    assertThat(TlsFailures.describe(e)).startsWith(TlsFailures.EXPIRED);
  }

  @Test
  void aServerWithoutTlsIsNamed() {
    assertThat(TlsFailures.describe(new SQLException("The server does not support SSL.")))
        .isEqualTo(TlsFailures.NO_TLS);
  }

  @Test
  void anythingElseKeepsItsOwnFirstLine() {
    IOException e = new IOException("Connection refused\n\tat somewhere");
    assertThat(TlsFailures.explain(e)).isEmpty();
    assertThat(TlsFailures.describe(e)).isEqualTo("java.io.IOException: Connection refused");
  }

  private static SSLHandshakeException handshake(String message, Throwable cause) {
    SSLHandshakeException e = new SSLHandshakeException(message);
    e.initCause(cause);
    return e;
  }
}
