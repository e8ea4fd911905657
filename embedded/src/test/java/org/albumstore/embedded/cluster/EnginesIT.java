package org.albumstore.embedded.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.io.IOException;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Map;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The releases {@link Engines} chooses are the ones the tests meet: the tests' broker and database
 * report them, and a RabbitMQ 4 node refuses transient non-exclusive queues, as 4.3 does ({@link
 * RabbitCluster#RABBITMQ_4_REFUSALS}), so that every test on it shows nothing of ours declares one.
 * With the installed releases chosen there is nothing to check, and each test says so.
 */
class EnginesIT {
  private static final Engines ENGINES = Engines.system();

  @Test
  void theTestsBrokerIsTheChosenRabbitMqAndRefusesTransientSharedQueues() throws Exception {
    Assumptions.assumeTrue(ENGINES.rabbitmqFromRoot(), "the installed RabbitMQ is chosen");
    AmqpSettings amqp = TestServices.amqp("engines");
    try (Connection c = AmqpConnections.open(amqp, "it-engines")) {
      String version = String.valueOf(c.getServerProperties().get("version"));
      assertThat(version).startsWith(ENGINES.rabbitmq() + ".");
      try (Channel allowed = c.createChannel()) {
        allowed.basicQos(10); // per consumer, as the consumer asks
        String exclusive = allowed.queueDeclare("", false, true, true, Map.of()).getQueue();
        assertThat(exclusive).isNotEmpty(); // as a server's commit feed declares its queue
      }
    }
    // The broker closes the whole connection (541) on a deprecated feature it does not permit.
    Connection refused = AmqpConnections.open(amqp, "it-engines-refused");
    try {
      Channel ch = refused.createChannel();
      assertThatThrownBy(() -> ch.queueDeclare(amqp.queue(), false, false, true, Map.of()))
          .isInstanceOf(IOException.class)
          .hasStackTraceContaining("transient_nonexcl_queues");
    } finally {
      refused.abort();
    }
  }

  @Test
  void theTestsDatabaseIsTheChosenPostgreSql() throws Exception {
    Assumptions.assumeTrue(ENGINES.postgresqlFromRoot(), "the installed PostgreSQL is chosen");
    DatabaseSettings db = TestServices.database();
    try (var c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        ResultSet rs = c.createStatement().executeQuery("SHOW server_version_num")) {
      rs.next();
      assertThat(rs.getInt(1) / 10_000).isEqualTo(Integer.parseInt(ENGINES.postgresql()));
    }
  }
}
