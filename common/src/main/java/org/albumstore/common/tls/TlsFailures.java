package org.albumstore.common.tls;

import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Says in one line why a TLS connection was refused, for the start-up messages of the server, the
 * consumer and the client.
 *
 * <p>Why: the JDK and the drivers report a refused certificate deep in a cause chain, in words like
 * {@code PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException}
 * that name neither the problem nor the fix. A user connecting to Amazon MQ or RDS needs to know
 * which of the two checks failed (the CA, or the host name) and which setting decides it. The
 * recognised cases are the ones that full verification can raise; anything else is left as it was
 * (its first line), never guessed at.
 */
public final class TlsFailures {
  /** What an unknown CA means, and where each side of the system takes its trusted CAs from. */
  static final String UNTRUSTED =
      "TLS: the server's certificate is not signed by a trusted CA; amqps:// and https:// trust"
          + " the JVM's trust store (-Djavax.net.ssl.trustStore), PostgreSQL the sslrootcert file";

  static final String WRONG_HOST = "TLS: the server's certificate is not for the host name used";
  static final String EXPIRED = "TLS: the server's certificate has expired or is not yet valid";
  static final String NO_TLS = "TLS: required, but the server does not offer it";

  private TlsFailures() {}

  /** The refusal in words, or empty when {@code failure} is no TLS refusal that is recognised. */
  public static Optional<String> explain(Throwable failure) {
    List<Throwable> chain = chain(failure);
    for (Throwable t : chain) {
      String m = String.valueOf(t.getMessage());
      // JDK (HostnameChecker): "No subject alternative DNS name matching x found.", "No subject
      // alternative names matching IP address x found", "No subject alternative names present",
      // "No name matching x found"; pgjdbc (verify-full): "The hostname x could not be verified".
      if (m.startsWith("No subject alternative")
          || m.startsWith("No name matching")
          || m.contains("could not be verified by hostnameverifier")) {
        return Optional.of(WRONG_HOST + " (" + firstLine(m) + ")");
      }
    }
    for (Throwable t : chain) {
      if (t instanceof CertificateExpiredException
          || t instanceof java.security.cert.CertificateNotYetValidException) {
        return Optional.of(EXPIRED + " (" + firstLine(String.valueOf(t.getMessage())) + ")");
      }
    }
    for (Throwable t : chain) {
      if (t instanceof CertPathBuilderException
          || t instanceof CertPathValidatorException
          || String.valueOf(t.getMessage()).contains("PKIX path")) {
        return Optional.of(UNTRUSTED);
      }
    }
    for (Throwable t : chain) {
      // pgjdbc with sslmode=require or stronger against a server without ssl=on.
      if (String.valueOf(t.getMessage()).contains("The server does not support SSL")) {
        return Optional.of(NO_TLS);
      }
    }
    return Optional.empty();
  }

  /** {@link #explain} if it recognises the failure, else the failure's own first line. */
  public static String describe(Throwable failure) {
    return explain(failure).orElseGet(() -> firstLine(failure.toString()));
  }

  private static List<Throwable> chain(Throwable failure) {
    List<Throwable> all = new ArrayList<>();
    for (Throwable t = failure; t != null && !all.contains(t); t = t.getCause()) {
      all.add(t);
    }
    return all;
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return (nl < 0 ? s : s.substring(0, nl)).strip();
  }
}
