package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.embedded.Source;
import org.junit.jupiter.api.Test;

class ClientArgumentsTest {
  private static final String URL = "http://127.0.0.1:41234/albumstore";
  private static final String METRICS = "http://127.0.0.1:41235/metrics";

  /** Where the client looks by default: the server serves its metrics with the API. */
  private static final String SERVER_METRICS = URL + "/metrics";

  private static final AmqpSettings AMQP =
      new AmqpSettings(
          "amqp://guest:secret@127.0.0.1:5672/%2F",
          "albumstore.writes", AmqpSettings.QueueType.CLASSIC);

  @Test
  void theClientIsPointedAtTheStartedPartsWithSixtyFourThreadsByDefault() {
    List<String> args =
        ClientArguments.build(URL, AMQP, Source.LOCAL, false, SERVER_METRICS, METRICS, List.of());
    assertThat(args)
        .containsExactly(
            "--url", URL,
            "--queue", "albumstore.writes",
            "--amqp-uri", "amqp://guest:secret@127.0.0.1:5672/%2F",
            "--rmq-api", "http://127.0.0.1:15672",
            "--consumer-metrics", METRICS,
            "--threads", "64");
  }

  @Test
  void aServerWithAManagementPortHasTheClientScrapeItThere() {
    String managementPort = "http://127.0.0.1:41236/albumstore/metrics";
    assertThat(
            ClientArguments.build(
                URL, AMQP, Source.LOCAL, false, managementPort, METRICS, List.of()))
        .containsSequence("--server-metrics", managementPort);
  }

  @Test
  void onlyALocalRabbitMqIsAskedForItsManagementApi() {
    assertThat(
            ClientArguments.build(
                URL, AMQP, Source.EMBEDDED, false, SERVER_METRICS, METRICS, List.of()))
        .containsSequence("--rmq-api", "none");
    assertThat(
            ClientArguments.build(
                URL, AMQP, Source.CONFIGURED, false, SERVER_METRICS, METRICS, List.of()))
        .containsSequence("--rmq-api", "none");
  }

  @Test
  void aConfiguredManagementApiIsLeftToTheClientToRead() {
    assertThat(
            ClientArguments.build(
                URL, AMQP, Source.CONFIGURED, true, SERVER_METRICS, METRICS, List.of()))
        .doesNotContain("--rmq-api");
  }

  @Test
  void withoutAConsumerMetricsEndpointTheClientIsToldNotToLookForOne() {
    assertThat(
            ClientArguments.build(URL, AMQP, Source.LOCAL, false, SERVER_METRICS, null, List.of()))
        .containsSequence("--consumer-metrics", "none");
  }

  @Test
  void theUsersArgumentsComeLastSoThatTheyWin() {
    List<String> user = List.of("--iterations", "5", "--rmq-api", "none");
    List<String> args =
        ClientArguments.build(URL, AMQP, Source.LOCAL, false, SERVER_METRICS, METRICS, user);
    assertThat(args.subList(args.size() - 4, args.size())).isEqualTo(user);
  }

  @Test
  void anyThreadOptionOfTheUserReplacesTheDefault() {
    for (List<String> user :
        List.of(
            List.of("--threads", "8"),
            List.of("--threads=8"),
            List.of("--group-size", "10", "--groups", "3"),
            List.of("--groups=2"))) {
      assertThat(
              ClientArguments.build(URL, AMQP, Source.LOCAL, false, SERVER_METRICS, METRICS, user))
          .as(user.toString())
          .doesNotContainSequence("--threads", "64");
    }
    assertThat(ClientArguments.choosesThreads(List.of("--get-threads", "3"))).isFalse();
  }

  @Test
  void theShownCommandHidesPasswords() {
    String shown =
        ClientArguments.display(
            ClientArguments.build(
                URL,
                AMQP,
                Source.LOCAL,
                false,
                SERVER_METRICS,
                METRICS,
                List.of("--rmq-password", "pw1", "--rmq-password=pw2")));
    assertThat(shown)
        .contains("amqp://guest:***@127.0.0.1:5672/%2F", "--rmq-password *** --rmq-password=***")
        .doesNotContain("secret", "pw1", "pw2");
  }
}
