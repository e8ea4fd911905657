package org.albumstore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.albumstore.embedded.testing.ExternalTools;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How {@code aws/bootstrap.sh} reads the broker's address from the Amazon MQ attribute {@code
 * AmqpEndpoints}, whose entries AWS documents as {@code amqps://host:5671} and shows elsewhere as
 * {@code amqp+ssl://host:5671}: both must give the same host and port, and anything that is not
 * AMQP over TLS must stop the instance's bootstrap (which then reports the failure to
 * CloudFormation) rather than produce a broken URI. The function is run from the script itself,
 * sourced.
 */
class BrokerEndpointIT {
  private static final Path BOOTSTRAP =
      Path.of(System.getProperty("albumstore.it.deployDir", "."), "aws", "bootstrap.sh");
  private static final Path LOG =
      Path.of(System.getProperty("albumstore.it.workDir", "target"), "it-logs", "endpoint.log");
  private static final String HOST =
      "b-1234a5b6-78cd-901e-2fgh-3i45j6k178l9.mq.us-east-1.amazonaws.com";

  private static Map<String, String> env;

  @BeforeAll
  static void bash() {
    env = Scripts.cleanEnvironment();
    ExternalTools.of(env).require("bash", "running bootstrap.sh's endpoint parsing");
  }

  private static Scripts.Result amqpsAddress(String endpoint) throws Exception {
    return Scripts.run(
        List.of(
            "bash",
            "-c",
            "source \"$1\" && amqps_address \"$2\"",
            "endpoint-test",
            BOOTSTRAP.toString(),
            endpoint),
        env,
        LOG,
        Duration.ofSeconds(30));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "amqps://" + HOST + ":5671, " + HOST + ":5671",
    "amqp+ssl://" + HOST + ":5671, " + HOST + ":5671",
    "amqps://" + HOST + ", " + HOST + ":5671",
    "amqps://" + HOST + ":5671/, " + HOST + ":5671",
    "amqp+ssl://" + HOST + ":15671, " + HOST + ":15671"
  })
  void bothDocumentedSchemesGiveTheBrokersHostAndPort(String endpoint, String address)
      throws Exception {
    Scripts.Result r = amqpsAddress(endpoint);

    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output().strip()).isEqualTo(address);
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(
      strings = {"amqp://" + HOST + ":5672", "https://" + HOST, HOST + ":5671", "amqps://", ""})
  void anythingButAmqpOverTlsIsRefused(String endpoint) throws Exception {
    Scripts.Result r = amqpsAddress(endpoint);

    assertThat(r.exitCode()).as(r.output()).isNotZero();
    assertThat(r.output()).contains("not an amqps:// or amqp+ssl:// endpoint");
  }
}
