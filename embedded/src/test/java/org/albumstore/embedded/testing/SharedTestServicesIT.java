package org.albumstore.embedded.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.UUID;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.junit.jupiter.api.Test;

/** The test services other modules' integration tests rely on, on whatever this machine has. */
class SharedTestServicesIT {
  @Test
  void everyTestGetsItsOwnQueueOnTheSameBroker() {
    AmqpSettings a = TestServices.amqp("some test");
    AmqpSettings b = TestServices.amqp("some test");

    assertThat(a.queue()).startsWith("it.some_test.").isNotEqualTo(b.queue());
    assertThat(a.uri()).isEqualTo(b.uri());
  }

  @Test
  void declaredTopologyCountsPublishedMessagesAndIsDeleted() throws Exception {
    AmqpSettings s = TestServices.declare(TestServices.amqp("topology"));
    try {
      try (Connection c = AmqpConnections.open(s, "it-publish");
          Channel ch = c.createChannel()) {
        ch.confirmSelect();
        WriteBundle batch =
            Bundles.reviews(List.of(new Review(UUID.randomUUID(), "ts-it-1", Vote.DISLIKE)));
        ch.basicPublish(
            s.exchange(),
            Topology.ROUTING_KEY,
            true,
            EventCodec.properties(batch),
            EventCodec.encode(batch));
        ch.waitForConfirmsOrDie(5_000);
      }
      assertThat(TestServices.messageCount(s, s.queue())).isEqualTo(1);
      assertThat(TestServices.messageCount(s, s.deadLetterQueue())).isZero();
    } finally {
      TestServices.deleteTopology(s);
    }
  }

  @Test
  void databaseHasTheSchemaAndIsTheSameForEveryCaller() throws Exception {
    DatabaseSettings db = TestServices.database();

    assertThat(TestServices.database()).isSameAs(db);
    if (Env.system().get(CommonSettings.JDBC_URL.variable(), null) == null) {
      assertThat(db.jdbcUrl())
          .isNotEqualTo(CommonSettings.JDBC_URL.defaultValue()); // never the user's own database
    }
    try (var c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT count(*) FROM information_schema.tables WHERE table_name IN"
                        + " ('albums', 'album_reviews', 'applied_reviews')")) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(3);
    }
  }

  @Test
  void overridesPointAComponentAtTheTestServices() {
    AmqpSettings s = TestServices.amqp("overrides");
    DatabaseSettings db = TestServices.database();

    Env env = Env.of(TestServices.overrides(s, db));

    assertThat(AmqpSettings.from(env)).isEqualTo(s);
    assertThat(DatabaseSettings.from(env)).isEqualTo(db);
  }
}
