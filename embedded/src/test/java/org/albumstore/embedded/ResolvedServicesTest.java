package org.albumstore.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.junit.jupiter.api.Test;

class ResolvedServicesTest {
  private final List<String> closed = new ArrayList<>();
  private final AmqpSettings amqp = AmqpSettings.from(Env.of(java.util.Map.of()));
  private final DatabaseSettings db =
      new DatabaseSettings(CommonSettings.JDBC_URL.defaultValue(), "postgres", "");

  private AutoCloseable server(String name, boolean fails) {
    return () -> {
      closed.add(name);
      if (fails) {
        throw new IllegalStateException(name + " would not stop");
      }
    };
  }

  @Test
  void closingStopsTheDatabaseBeforeTheBroker() throws Exception {
    var services =
        new ResolvedServices(
            new Resolved<>(amqp, Source.EMBEDDED, "broker: b", server("broker", false)),
            new Resolved<>(db, Source.EMBEDDED, "database: d", server("database", false)));

    services.close();

    assertThat(closed).containsExactly("database", "broker");
  }

  @Test
  void aFailingStopDoesNotKeepTheOtherRunning() {
    var services =
        new ResolvedServices(
            new Resolved<>(amqp, Source.EMBEDDED, "broker: b", server("broker", true)),
            new Resolved<>(db, Source.EMBEDDED, "database: d", server("database", true)));

    assertThatThrownBy(services::close)
        .hasMessageContaining("database would not stop")
        .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1));
    assertThat(closed).containsExactly("database", "broker");
  }

  @Test
  void localAndConfiguredServicesAreNotOwnedAndReportTheirSource() throws Exception {
    var services =
        new ResolvedServices(
            new Resolved<>(amqp, Source.LOCAL, "broker: local RabbitMQ at 127.0.0.1:5672", null),
            new Resolved<>(db, Source.CONFIGURED, "database: configured", null));

    services.close();

    assertThat(services.brokerSource()).isEqualTo(Source.LOCAL);
    assertThat(services.databaseSource()).isEqualTo(Source.CONFIGURED);
    assertThat(services.report())
        .containsExactly("broker: local RabbitMQ at 127.0.0.1:5672", "database: configured");
  }

  @Test
  void onlyEmbeddedPartsOwnAServer() {
    assertThatThrownBy(() -> new Resolved<>(amqp, Source.LOCAL, "x", server("x", false)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Resolved<>(amqp, Source.EMBEDDED, "x", null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
