package org.albumstore.embedded.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway certificate authority for TLS tests, made at test time with the JDK's own {@code
 * keytool} (no openssl, no extra library): a CA key pair, server certificates it signs for the
 * names a test chooses, and the files each side needs: PEM certificate and PKCS#8 key for RabbitMQ
 * and PostgreSQL, a PEM CA for PostgreSQL's {@code sslrootcert}, and a PKCS12 trust store holding
 * only the CA for the JVMs ({@code -Djavax.net.ssl.trustStore}).
 *
 * <p>Keys are EC P-256 (fast to make; accepted by the JDK, Erlang's ssl and OpenSSL 3); every
 * certificate is valid for two days, so nothing made here is ever worth keeping.
 */
public final class TestCa {
  /** The password of every key store made here (keytool requires one; it protects nothing). */
  public static final String PASSWORD = "changeit";

  private static final long KEYTOOL_TIMEOUT_SECONDS = 60;

  private final Path dir;
  private final String name;
  private final Path keyStore;
  private final Path certificatePem;
  private final Path trustStore;

  /** A server certificate and its key, both PEM. */
  public record Issued(Path certificatePem, Path keyPem) {
    /**
     * Copies both over {@code certificate} and {@code key}: how a test rotates the certificate of a
     * running server whose configuration names those files.
     */
    public void copyTo(Path certificate, Path key) throws IOException {
      Files.copy(certificatePem, certificate, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      Files.copy(keyPem, key, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      ownerOnly(key);
    }
  }

  private TestCa(Path dir, String name) {
    this.dir = dir;
    this.name = name;
    this.keyStore = dir.resolve(name + "-ca.p12");
    this.certificatePem = dir.resolve(name + "-ca.pem");
    this.trustStore = dir.resolve(name + "-truststore.p12");
  }

  /** A new CA named {@code name}, its files in {@code dir}. */
  public static TestCa create(Path dir, String name) throws IOException {
    Files.createDirectories(dir);
    TestCa ca = new TestCa(dir, name);
    ca.keytool(
        "-genkeypair",
        "-alias",
        "ca",
        "-dname",
        "CN=" + name + " test CA",
        "-ext",
        "bc:c=ca:true",
        "-ext",
        "ku:c=keyCertSign,cRLSign",
        "-keystore",
        ca.keyStore.toString());
    ca.keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "ca",
        "-keystore",
        ca.keyStore.toString(),
        "-file",
        ca.certificatePem.toString());
    ca.keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "ca",
        "-file",
        ca.certificatePem.toString(),
        "-keystore",
        ca.trustStore.toString());
    return ca;
  }

  /** The CA certificate, PEM (PostgreSQL's {@code sslrootcert}, RabbitMQ's {@code cacertfile}). */
  public Path certificatePem() {
    return certificatePem;
  }

  /** A PKCS12 trust store that holds this CA's certificate only. */
  public Path trustStore() {
    return trustStore;
  }

  /** The JVM flags that make this CA the only one a JVM trusts (amqps://, https://). */
  public List<String> trustStoreJvmArgs() {
    return List.of(
        "-Djavax.net.ssl.trustStore=" + trustStore,
        "-Djavax.net.ssl.trustStorePassword=" + PASSWORD,
        "-Djavax.net.ssl.trustStoreType=PKCS12");
  }

  /**
   * A server certificate signed by this CA, its subject {@code CN=cn}, its subject alternative
   * names {@code sans} in keytool's syntax ({@code DNS:localhost}, {@code IP:127.0.0.1}).
   */
  public Issued issue(String cn, String... sans) throws IOException {
    String base = name + "-" + cn.replaceAll("[^A-Za-z0-9.-]", "_");
    Path serverStore = dir.resolve(base + ".p12");
    Path request = dir.resolve(base + ".csr");
    Path certificate = dir.resolve(base + ".pem");
    Path key = dir.resolve(base + ".key");
    Files.deleteIfExists(serverStore);
    keytool(
        "-genkeypair",
        "-alias",
        "server",
        "-dname",
        "CN=" + cn,
        "-keystore",
        serverStore.toString());
    keytool(
        "-certreq",
        "-alias",
        "server",
        "-keystore",
        serverStore.toString(),
        "-file",
        request.toString());
    List<String> sign =
        new ArrayList<>(
            List.of(
                "-gencert",
                "-rfc",
                "-alias",
                "ca",
                "-keystore",
                keyStore.toString(),
                "-infile",
                request.toString(),
                "-outfile",
                certificate.toString(),
                "-ext",
                "ku:c=digitalSignature,keyAgreement",
                "-ext",
                "eku=serverAuth"));
    if (sans.length > 0) {
      sign.add("-ext");
      sign.add("SAN=" + String.join(",", sans));
    }
    keytool(sign.toArray(String[]::new));
    writeKeyPem(serverStore, key);
    return new Issued(certificate, key);
  }

  /** keytool cannot export a private key; the key store API can (PKCS#8 is its encoding). */
  private static void writeKeyPem(Path serverStore, Path keyPem) throws IOException {
    try (InputStream in = Files.newInputStream(serverStore)) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, PASSWORD.toCharArray());
      Key key = ks.getKey("server", PASSWORD.toCharArray());
      String body =
          Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
              .encodeToString(key.getEncoded());
      Files.writeString(
          keyPem,
          "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n",
          StandardCharsets.US_ASCII);
      ownerOnly(keyPem);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot read the key of " + serverStore, e);
    }
  }

  /** PostgreSQL refuses a key file others can read. */
  private static void ownerOnly(Path file) throws IOException {
    if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }
  }

  /** Runs keytool on this CA's PKCS12 stores; {@code args} start with the command. */
  private void keytool(String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.addAll(List.of(args));
    cmd.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
    if (args[0].equals("-genkeypair")) {
      cmd.addAll(List.of("-keyalg", "EC", "-groupname", "secp256r1"));
    }
    if (args[0].equals("-genkeypair") || args[0].equals("-gencert")) {
      cmd.addAll(List.of("-validity", "2"));
    }
    Path log = dir.resolve(name + "-keytool.log");
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    try {
      if (!p.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("keytool " + args[0] + " did not finish; see " + log);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      throw new IOException("interrupted while keytool " + args[0] + " ran", e);
    }
    if (p.exitValue() != 0) {
      throw new IOException(
          "keytool " + args[0] + " failed (exit " + p.exitValue() + "): " + tail(log));
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
