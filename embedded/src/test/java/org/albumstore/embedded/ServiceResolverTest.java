package org.albumstore.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.embedded.internal.Endpoint;
import org.albumstore.embedded.internal.PortProbe;
import org.junit.jupiter.api.Test;

/** The order configured, local, embedded, decided with a fake "does it answer" probe. */
class ServiceResolverTest {
  private final List<Endpoint> asked = new ArrayList<>();

  private PortProbe answering(Endpoint... up) {
    Set<Endpoint> live = Set.of(up);
    return e -> {
      asked.add(e);
      return live.contains(e);
    };
  }

  private static Env env(String... keyValues) {
    Map<String, String> m = new java.util.HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      m.put(keyValues[i], keyValues[i + 1]);
    }
    return Env.of(m);
  }

  @Test
  void configuredBrokerThatAnswersIsUsedWithoutLookingAtLocalPorts() {
    Endpoint remote = new Endpoint("mq.example.org", 5671);
    ServiceResolver r =
        new ServiceResolver(
            env(CommonSettings.AMQP_URI.variable(), "amqps://u:secret@mq.example.org/%2F"),
            false,
            answering(remote));

    assertThat(r.brokerSource()).isEqualTo(Source.CONFIGURED);
    assertThat(asked).containsExactly(remote);
  }

  @Test
  void configuredBrokerThatDoesNotAnswerIsAnErrorNamingTheVariableAndAddress() {
    ServiceResolver r =
        new ServiceResolver(
            env(CommonSettings.AMQP_URI.variable(), "amqp://u:secret@10.1.2.3:5673/%2F"),
            false,
            answering(ServiceResolver.LOCAL_BROKER));

    assertThatThrownBy(r::brokerSource)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(CommonSettings.AMQP_URI.variable())
        .hasMessageContaining("10.1.2.3:5673")
        .hasMessageNotContaining("secret");
    assertThat(asked).doesNotContain(ServiceResolver.LOCAL_BROKER); // no silent fallback
  }

  @Test
  void configuredDatabaseThatDoesNotAnswerIsAnErrorEvenWhenForcedEmbedded() {
    ServiceResolver r =
        new ServiceResolver(
            env(
                CommonSettings.JDBC_URL.variable(),
                "jdbc:postgresql://db.internal:6543/albums?password=pw"),
            true,
            answering());

    assertThatThrownBy(r::databaseSource)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(CommonSettings.JDBC_URL.variable())
        .hasMessageContaining("db.internal:6543")
        .hasMessageNotContaining("=pw");
  }

  @Test
  void configuredServiceWinsOverForceEmbedded() {
    Endpoint db = new Endpoint("db.internal", 5432);
    ServiceResolver r =
        new ServiceResolver(
            env(CommonSettings.JDBC_URL.variable(), "jdbc:postgresql://db.internal/albums"),
            true,
            answering(db));

    assertThat(r.databaseSource()).isEqualTo(Source.CONFIGURED);
  }

  @Test
  void unconfiguredServicesUseTheLocalServersThatAnswer() {
    ServiceResolver r =
        new ServiceResolver(
            env(), false, answering(ServiceResolver.LOCAL_BROKER, ServiceResolver.LOCAL_DATABASE));

    assertThat(r.brokerSource()).isEqualTo(Source.LOCAL);
    assertThat(r.databaseSource()).isEqualTo(Source.LOCAL);
    assertThat(asked)
        .containsExactly(new Endpoint("127.0.0.1", 5672), new Endpoint("127.0.0.1", 5432));
  }

  @Test
  void eachPartFallsBackToEmbeddedOnItsOwn() {
    ServiceResolver r =
        new ServiceResolver(env(), false, answering(ServiceResolver.LOCAL_DATABASE));

    assertThat(r.brokerSource()).isEqualTo(Source.EMBEDDED);
    assertThat(r.databaseSource()).isEqualTo(Source.LOCAL);
  }

  @Test
  void forceEmbeddedIgnoresAnsweringLocalServersWithoutProbingThem() {
    ServiceResolver r =
        new ServiceResolver(
            env(), true, answering(ServiceResolver.LOCAL_BROKER, ServiceResolver.LOCAL_DATABASE));

    assertThat(r.brokerSource()).isEqualTo(Source.EMBEDDED);
    assertThat(r.databaseSource()).isEqualTo(Source.EMBEDDED);
    assertThat(asked).isEmpty();
  }

  @Test
  void blankVariablesCountAsUnset() {
    ServiceResolver r =
        new ServiceResolver(
            env(CommonSettings.AMQP_URI.variable(), "  ", CommonSettings.JDBC_URL.variable(), ""),
            false,
            answering(ServiceResolver.LOCAL_BROKER));

    assertThat(r.brokerSource()).isEqualTo(Source.LOCAL);
    assertThat(r.databaseSource()).isEqualTo(Source.EMBEDDED);
  }

  @Test
  void unparsableConfiguredAddressIsAnErrorNamingTheVariable() {
    ServiceResolver r =
        new ServiceResolver(
            env(CommonSettings.JDBC_URL.variable(), "jdbc:postgresql://db:notaport/x"),
            false,
            e -> true);

    assertThatThrownBy(r::databaseSource)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(CommonSettings.JDBC_URL.variable());
  }

  @Test
  void redactsTheAmqpPassword() {
    assertThat(ServiceResolver.redactAmqpUri("amqp://guest:pw@h:1/%2F"))
        .isEqualTo("amqp://guest:***@h:1/%2F");
  }
}
