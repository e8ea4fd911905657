package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.rabbitmq.client.ConnectionFactory;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.faults.harness.Paths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code amqps://} is real TLS: the broker's certificate must chain to a trusted root and name the
 * host connected to. Proven against a TLS endpoint in this test (certificates made with the JDK's
 * keytool), which records whether the AMQP protocol header ever arrived through the tunnel: only
 * with a trusted certificate for the right host does it.
 */
class TlsOptionsTest {
  private static final char[] PASSWORD = "changeit".toCharArray();

  @TempDir Path dir;

  @Test
  void amqpsMeansTlsOnTheTlsPortAndAmqpMeansPlainTcp() {
    ConnectionFactory tls = AmqpConnections.factory(settings("amqps://user:pw@broker.example/%2F"));
    ConnectionFactory plain =
        AmqpConnections.factory(settings("amqp://user:pw@broker.example/%2F"));
    assertThat(tls.isSSL()).isTrue();
    assertThat(tls.getPort()).isEqualTo(5671);
    assertThat(plain.isSSL()).isFalse();
    assertThat(plain.getPort()).isEqualTo(5672);
  }

  @Test
  void aCertificateNoTrustedRootVouchesForIsRefused() throws Exception {
    KeyStore cert = keystore("self-signed", "IP:127.0.0.1");
    try (TlsEndpoint endpoint = new TlsEndpoint(cert)) {
      Throwable e = catchThrowable(() -> connect(endpoint.port()));
      assertThat(causes(e)).anyMatch(c -> c instanceof SSLHandshakeException);
      assertThat(e).hasRootCauseInstanceOf(java.security.cert.CertPathBuilderException.class);
      assertThat(endpoint.amqpHeaderReceived()).isFalse();
    }
  }

  @Test
  void aTrustedCertificateForAnotherHostIsRefusedAndForThisHostAccepted() throws Exception {
    KeyStore otherHost = keystore("other-host", "DNS:broker.example");
    KeyStore thisHost = keystore("this-host", "IP:127.0.0.1");
    SSLContext original = SSLContext.getDefault();
    try {
      try (TlsEndpoint endpoint = new TlsEndpoint(otherHost)) {
        SSLContext.setDefault(trusting(otherHost));
        Throwable e = catchThrowable(() -> connect(endpoint.port()));
        assertThat(e).isNotNull();
        assertThat(causes(e)).anyMatch(c -> c instanceof SSLHandshakeException);
        assertThat(causes(e)).anyMatch(c -> String.valueOf(c.getMessage()).contains("127.0.0.1"));
        assertThat(endpoint.amqpHeaderReceived()).isFalse();
      }
      try (TlsEndpoint endpoint = new TlsEndpoint(thisHost)) {
        SSLContext.setDefault(trusting(thisHost));
        catchThrowable(() -> connect(endpoint.port())); // the endpoint is no broker: it hangs up
        assertThat(endpoint.amqpHeaderReceived()).isTrue();
      }
    } finally {
      SSLContext.setDefault(original);
    }
  }

  private static AmqpSettings settings(String uri) {
    return new AmqpSettings(uri, "q", AmqpSettings.QueueType.CLASSIC);
  }

  private static void connect(int port) throws Exception {
    ConnectionFactory f =
        AmqpConnections.factory(settings("amqps://u:p@127.0.0.1:" + port + "/%2F"));
    f.setAutomaticRecoveryEnabled(false);
    f.setConnectionTimeout(5_000);
    f.setHandshakeTimeout(5_000);
    f.newConnection("faults-tls-test").close();
  }

  private static java.util.List<Throwable> causes(Throwable e) {
    java.util.List<Throwable> all = new java.util.ArrayList<>();
    for (Throwable t = e; t != null && !all.contains(t); t = t.getCause()) {
      all.add(t);
    }
    return all;
  }

  /** A key pair and self-signed certificate with the given subject alternative name. */
  private KeyStore keystore(String name, String san) throws Exception {
    Path file = dir.resolve(name + ".p12");
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                name,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=" + name,
                "-ext",
                "SAN=" + san,
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                file.toString(),
                "-storepass",
                "changeit",
                "-keypass",
                "changeit")
            .redirectErrorStream(true)
            .redirectOutput(Paths.outputDir().resolve("keytool-" + name + ".log").toFile())
            .start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("keytool finished").isTrue();
    assertThat(p.exitValue()).as("keytool exit").isZero();
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      ks.load(in, PASSWORD);
    }
    return ks;
  }

  private static SSLContext trusting(KeyStore ks) throws Exception {
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(ks);
    SSLContext c = SSLContext.getInstance("TLS");
    c.init(null, tmf.getTrustManagers(), null);
    return c;
  }

  /** Accepts one TLS connection and records whether the AMQP 0-9-1 header came through it. */
  private static final class TlsEndpoint implements AutoCloseable {
    private final SSLServerSocket server;
    private final CompletableFuture<Boolean> header = new CompletableFuture<>();

    TlsEndpoint(KeyStore ks) throws Exception {
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, PASSWORD);
      SSLContext c = SSLContext.getInstance("TLS");
      c.init(kmf.getKeyManagers(), null, null);
      server =
          (SSLServerSocket)
              c.getServerSocketFactory().createServerSocket(0, 5, InetAddress.getLoopbackAddress());
      Thread t = new Thread(this::acceptOne, "faults-tls-endpoint");
      t.setDaemon(true);
      t.start();
    }

    int port() {
      return server.getLocalPort();
    }

    private void acceptOne() {
      try (SSLSocket s = (SSLSocket) server.accept()) {
        s.setSoTimeout(5_000);
        s.startHandshake();
        byte[] h = s.getInputStream().readNBytes(4);
        header.complete(new String(h, java.nio.charset.StandardCharsets.US_ASCII).equals("AMQP"));
      } catch (Exception e) {
        header.complete(false); // the client refused the handshake, or nothing arrived
      }
    }

    boolean amqpHeaderReceived() throws Exception {
      return header.get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
      server.close();
    }
  }
}
