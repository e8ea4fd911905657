package org.albumstore.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.net.ServerSocket;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.embedded.internal.Endpoint;
import org.albumstore.embedded.internal.PortProbe;
import org.albumstore.embedded.service.EmbeddedBroker;
import org.junit.jupiter.api.Test;

/** Resolution with the real TCP probe and real servers. */
class ServiceResolverIT {
  private static final PortProbe PROBE = PortProbe.tcp(Duration.ofSeconds(1));

  @Test
  void forceEmbeddedStartsBothWorkingAndStopsBothOnClose() throws Exception {
    ResolvedServices services;
    try (ResolvedServices s = new ServiceResolver(Env.of(Map.of()), true).resolve()) {
      services = s;
      assertThat(s.brokerSource()).isEqualTo(Source.EMBEDDED);
      assertThat(s.databaseSource()).isEqualTo(Source.EMBEDDED);
      assertThat(s.report().get(0)).matches("broker: embedded Qpid Broker-J 10\\..* on port \\d+");
      assertThat(s.report().get(1))
          .matches("database: embedded PostgreSQL 16\\..* on port \\d+, database albumstore");

      try (Connection c = AmqpConnections.open(s.amqp(), "it-resolver");
          Channel ch = c.createChannel()) {
        assertThat(ch.isOpen()).isTrue();
      }
      try (var c =
              DriverManager.getConnection(
                  s.database().jdbcUrl(), s.database().user(), s.database().password());
          ResultSet rs = c.createStatement().executeQuery("SELECT current_database()")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("albumstore");
      }
    }
    assertThat(PROBE.answers(Endpoint.ofAmqpUri(services.amqp().uri()))).isFalse();
    assertThat(PROBE.answers(Endpoint.ofJdbcUrl(services.database().jdbcUrl()))).isFalse();
  }

  @Test
  void queueNameAndTypeComeFromTheEnvironmentWhateverTheSource() {
    ServiceResolver r =
        new ServiceResolver(
            Env.of(
                Map.of(
                    CommonSettings.QUEUE.variable(),
                    "it.custom",
                    CommonSettings.QUEUE_TYPE.variable(),
                    "quorum")),
            false,
            e -> true);

    var broker = r.resolveBroker(); // LOCAL with an always-answering probe: nothing started

    assertThat(broker.source()).isEqualTo(Source.LOCAL);
    assertThat(broker.settings().queue()).isEqualTo("it.custom");
    assertThat(broker.settings().queueType().wireName()).isEqualTo("quorum");
    assertThat(broker.description()).isEqualTo("broker: local RabbitMQ at 127.0.0.1:5672");
  }

  @Test
  void withoutConfigurationTheLocalServersAreUsedExactlyWhenTheyAnswer() {
    ServiceResolver r = new ServiceResolver(Env.of(Map.of()), false);

    assertThat(r.brokerSource())
        .isEqualTo(PROBE.answers(ServiceResolver.LOCAL_BROKER) ? Source.LOCAL : Source.EMBEDDED);
    assertThat(r.databaseSource())
        .isEqualTo(PROBE.answers(ServiceResolver.LOCAL_DATABASE) ? Source.LOCAL : Source.EMBEDDED);
  }

  @Test
  void withoutConfigurationTheDatabaseResolvesToAnExistingAlbumstoreDatabase() throws Exception {
    // LOCAL here (the database is created if missing), EMBEDDED on a machine without PostgreSQL.
    try (Resolved<DatabaseSettings> db =
            new ServiceResolver(Env.of(Map.of()), false).resolveDatabase();
        var c =
            DriverManager.getConnection(
                db.settings().jdbcUrl(), db.settings().user(), db.settings().password());
        ResultSet rs = c.createStatement().executeQuery("SELECT current_database()")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("albumstore");
      if (db.source() == Source.LOCAL) {
        assertThat(db.settings().jdbcUrl()).isEqualTo(CommonSettings.JDBC_URL.defaultValue());
        assertThat(db.description())
            .isEqualTo("database: local PostgreSQL at 127.0.0.1:5432, database albumstore");
      }
    }
  }

  @Test
  void aConfiguredPortNobodyListensOnIsAnErrorNotAFallback() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    Env env =
        Env.of(
            Map.of(
                CommonSettings.AMQP_URI.variable(),
                    "amqp://guest:guest@127.0.0.1:" + closedPort + "/%2F",
                CommonSettings.JDBC_URL.variable(),
                    "jdbc:postgresql://127.0.0.1:" + closedPort + "/albumstore"));

    assertThatThrownBy(() -> new ServiceResolver(env, false).resolve())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(CommonSettings.AMQP_URI.variable())
        .hasMessageContaining("127.0.0.1:" + closedPort);
    assertThatThrownBy(() -> new ServiceResolver(env, true).resolveDatabase())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(CommonSettings.JDBC_URL.variable())
        .hasMessageContaining("127.0.0.1:" + closedPort);
  }

  @Test
  void aConfiguredServerThatAnswersIsUsedAsConfigured() throws Exception {
    try (EmbeddedBroker broker = EmbeddedBroker.start()) {
      Env env = Env.of(Map.of(CommonSettings.AMQP_URI.variable(), broker.uri()));

      Resolved<?> resolved = new ServiceResolver(env, true).resolveBroker();

      assertThat(resolved.source()).isEqualTo(Source.CONFIGURED);
      assertThat(resolved.description())
          .isEqualTo(
              "broker: configured ALBUMSTORE_AMQP_URI amqp://guest:***@127.0.0.1:"
                  + broker.port()
                  + "/%2F");
      resolved.close(); // not ours: the broker keeps running
      assertThat(PROBE.answers(new Endpoint("127.0.0.1", broker.port()))).isTrue();
    }
  }
}
