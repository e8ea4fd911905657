package org.albumstore.consumer;

import static org.assertj.core.api.Assertions.fail;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.db.Databases;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.embedded.testing.Bundles;
import org.albumstore.embedded.testing.TcpProxy;
import org.albumstore.embedded.testing.TestServices;
import picocli.CommandLine;

/**
 * One integration test's world: a queue of its own (declared, deleted on close), the shared test
 * database, album IDs with a prefix of its own (rows deleted on close), a confirming publisher that
 * writes straight to the test queue, the consumers it started (stopped first on close), and bounded
 * waits.
 */
final class Fixture implements AutoCloseable {
  final AmqpSettings amqp;
  final DatabaseSettings db;
  final String prefix = UUID.randomUUID().toString().substring(0, 8) + "-";
  private final Connection connection;
  private final Channel publisher;
  private final HikariDataSource reads;
  private TcpProxy proxy;
  private final List<AlbumStoreConsumer> consumers = new ArrayList<>();

  private Fixture(AmqpSettings amqp, DatabaseSettings db) throws Exception {
    this.amqp = amqp;
    this.db = db;
    this.connection = AmqpConnections.open(amqp, "it-publisher");
    this.publisher = connection.createChannel();
    publisher.confirmSelect();
    this.reads = Databases.pool(db, "it-consumer-reads", 2);
  }

  static Fixture create(String testName) throws Exception {
    return create(testName, TestServices.database());
  }

  static Fixture create(String testName, DatabaseSettings db) throws Exception {
    return new Fixture(TestServices.declare(TestServices.amqp(testName)), db);
  }

  static Fixture create(String testName, AmqpSettings.QueueType type) throws Exception {
    AmqpSettings s = TestServices.amqp(testName);
    s = new AmqpSettings(s.uri(), s.queue(), type);
    return new Fixture(TestServices.declare(s), TestServices.database());
  }

  /** A fixture on a broker of the test's own (e.g. a cluster): {@code stream} declared there. */
  static Fixture create(AmqpSettings stream) throws Exception {
    return new Fixture(TestServices.declare(stream), TestServices.database());
  }

  /** A fixture whose stream has {@code partitions} queues, all declared. */
  static Fixture create(String testName, int partitions) throws Exception {
    AmqpSettings s = TestServices.amqp(testName).withPartitions(partitions);
    return new Fixture(TestServices.declare(s), TestServices.database());
  }

  /** Settings for tests: no stats noise, a partial batch waits 10 ms, everything else explicit. */
  static ConsumerSettings settings(int connections, int channels, int prefetch, int batch) {
    return settings(connections, channels, prefetch, batch, 10);
  }

  static ConsumerSettings settings(
      int connections, int channels, int prefetch, int batch, int batchWaitMillis) {
    return new ConsumerSettings(
        connections,
        channels,
        prefetch,
        batch,
        batchWaitMillis,
        0,
        connections * channels,
        false,
        3600);
  }

  String album(int i) {
    return prefix + i;
  }

  static Review review(String albumId, Vote vote) {
    return new Review(UUID.randomUUID(), albumId, vote);
  }

  void publish(WriteBundle batch) throws Exception {
    publish(EventCodec.encode(batch), EventCodec.properties(batch));
  }

  void publish(byte[] body, AMQP.BasicProperties props) throws Exception {
    publish(amqp.partition(0), body, props);
  }

  /** Publishes to one partition's exchange and waits for the confirm. */
  void publish(AmqpSettings.Partition to, byte[] body, AMQP.BasicProperties props)
      throws Exception {
    publisher.basicPublish(to.exchange(), Topology.ROUTING_KEY, props, body);
    publisher.waitForConfirmsOrDie(10_000);
  }

  /** Publishes all, then waits for the broker to confirm them all. */
  void publishAll(List<WriteBundle> batches) throws Exception {
    for (WriteBundle b : batches) {
      publisher.basicPublish(
          amqp.exchange(), Topology.ROUTING_KEY, EventCodec.properties(b), EventCodec.encode(b));
    }
    publisher.waitForConfirmsOrDie(60_000);
  }

  /**
   * Publishes {@code count} single-review messages (likes over {@code albums} albums), encoding on
   * the fly and waiting for confirms every {@code window} messages: quick, and flat in memory.
   */
  void publishLikes(int count, int albums, int window) throws Exception {
    for (int n = 0; n < count; n++) {
      WriteBundle b = Bundles.reviews(List.of(review(album(n % albums), Vote.LIKE)));
      publisher.basicPublish(
          amqp.exchange(), Topology.ROUTING_KEY, EventCodec.properties(b), EventCodec.encode(b));
      if ((n + 1) % window == 0) {
        publisher.waitForConfirmsOrDie(60_000);
      }
    }
    publisher.waitForConfirmsOrDie(60_000);
  }

  /** {likes, dislikes} of an album, or null when it has no counter row. */
  long[] counts(String albumId) throws SQLException {
    try (var c = reads.getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT likes, dislikes FROM album_reviews WHERE album_id = ?")) {
      ps.setString(1, albumId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? new long[] {rs.getLong(1), rs.getLong(2)} : null;
      }
    }
  }

  /** Likes plus dislikes over this test's albums. */
  long totalReviews() throws SQLException {
    return sum(
        "SELECT coalesce(sum(likes + dislikes), 0) FROM album_reviews WHERE left(album_id, ?) = ?");
  }

  long albumRows() throws SQLException {
    return sum("SELECT count(*) FROM albums WHERE left(album_id, ?) = ?");
  }

  private long sum(String sql) throws SQLException {
    try (var c = reads.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setInt(1, prefix.length());
      ps.setString(2, prefix);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  HikariDataSource reads() {
    return reads;
  }

  long ready() throws Exception {
    return TestServices.messageCount(amqp, amqp.queue());
  }

  long deadLetters() throws Exception {
    return TestServices.messageCount(amqp, amqp.deadLetterQueue());
  }

  interface Check {
    boolean holds() throws Exception;
  }

  /**
   * The database's settings through a TCP proxy of this fixture's ({@link #proxy()}), to stage an
   * outage between the consumer and the real database; the proxy closes with the fixture.
   */
  DatabaseSettings databaseThroughProxy() throws IOException {
    URI pg = URI.create(db.jdbcUrl().substring("jdbc:".length()));
    proxy = TcpProxy.start(pg.getHost(), pg.getPort());
    return new DatabaseSettings(
        db.jdbcUrl().replace(":" + pg.getPort() + "/", ":" + proxy.port() + "/"),
        db.user(),
        db.password());
  }

  /** As {@link #databaseThroughProxy()}, for the broker: this fixture's queue through a proxy. */
  AmqpSettings brokerThroughProxy() throws IOException {
    URI broker = URI.create(amqp.uri());
    proxy = TcpProxy.start(broker.getHost(), broker.getPort());
    return new AmqpSettings(
        amqp.uri().replace(":" + broker.getPort() + "/", ":" + proxy.port() + "/"),
        amqp.queue(),
        amqp.queueType());
  }

  /** The proxy of {@link #databaseThroughProxy()} or {@link #brokerThroughProxy()}. */
  TcpProxy proxy() {
    return proxy;
  }

  /** What a run of the consumer jar's {@code redrive} said. */
  record Redrive(int code, String out, String err) {}

  /**
   * {@code albumstore-consumer redrive} on this fixture's stream, through the jar's command line,
   * with {@code more} options (e.g. {@code --queue-partitions 2}).
   */
  Redrive redrive(String... more) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> args = new ArrayList<>(List.of("redrive", "--amqp-uri", amqp.uri()));
    args.addAll(List.of("--queue", amqp.queue(), "--queue-type", amqp.queueType().wireName()));
    args.addAll(List.of(more));
    int code =
        new CommandLine(new ConsumerMain())
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(args.toArray(String[]::new));
    return new Redrive(code, out.toString(), err.toString());
  }

  /** Polls until {@code check} holds; fails the test after {@code timeout}. */
  static void await(String what, Duration timeout, Check check) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!check.holds()) {
      if (System.nanoTime() > deadline) {
        fail("timed out after " + timeout + " waiting for: " + what);
      }
      Thread.sleep(50);
    }
  }

  /**
   * Starts a consumer that {@link #close} stops first, before the queue it consumes goes (its
   * metrics endpoint as given).
   */
  AlbumStoreConsumer start(
      ConsumerSettings settings, AmqpSettings amqp, DatabaseSettings db, MetricsSettings metrics)
      throws Exception {
    AlbumStoreConsumer consumer =
        AlbumStoreConsumer.start(
            AlbumStoreConsumer.Options.of(settings, amqp, db).withMetrics(metrics));
    consumers.add(consumer);
    return consumer;
  }

  /** As above, without a metrics endpoint. */
  AlbumStoreConsumer start(ConsumerSettings settings, AmqpSettings amqp, DatabaseSettings db)
      throws Exception {
    return start(settings, amqp, db, MetricsSettings.OFF);
  }

  /** As above, on this fixture's queue and database. */
  AlbumStoreConsumer start(ConsumerSettings settings) throws Exception {
    return start(settings, amqp, db);
  }

  @Override
  public void close() throws Exception {
    try {
      consumers.forEach(AlbumStoreConsumer::close); // idempotent: a test may have closed one
      if (proxy != null) {
        proxy.close();
      }
      publisher.close();
      connection.close(5_000);
      TestServices.deleteTopology(amqp);
      try (var c = reads.getConnection();
          PreparedStatement a =
              c.prepareStatement("DELETE FROM albums WHERE left(album_id, ?) = ?");
          PreparedStatement r =
              c.prepareStatement("DELETE FROM album_reviews WHERE left(album_id, ?) = ?")) {
        for (PreparedStatement ps : List.of(a, r)) {
          ps.setInt(1, prefix.length());
          ps.setString(2, prefix);
          ps.executeUpdate();
        }
      }
    } finally {
      reads.close();
    }
  }
}
