package org.albumstore.faults.harness;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.db.Databases;

/**
 * The check every scenario ends with: after the queue drained, PostgreSQL holds exactly what the
 * clients were told. For every album of the {@link AcknowledgedWrites}: it exists if its POST got a
 * 200, and its likes and dislikes equal the reviews that got a 200 (no fewer: nothing lost; no
 * more: nothing counted twice), widened only by writes whose outcome the client never learned.
 *
 * <p>Two phases, because "drained" needs the consumer's help: {@link #awaitDrained} waits until the
 * queue is empty and the counters have reached the acknowledged figures and stopped moving; the
 * scenario then stops the consumer cleanly (SIGTERM: it finishes and acknowledges its batch in
 * hand, and closing its channels returns anything unacknowledged to the queue); {@link #check} then
 * finds an empty queue (nothing was left unacknowledged) and compares the final rows.
 */
public final class Audit implements AutoCloseable {
  private static final String COUNTS =
      "SELECT album_id, likes, dislikes FROM album_reviews WHERE album_id = ANY(?)";
  private static final String ALBUMS = "SELECT album_id FROM albums WHERE album_id = ANY(?)";
  private static final String DELETE_COUNTS = "DELETE FROM album_reviews WHERE album_id = ANY(?)";
  private static final String DELETE_ALBUMS = "DELETE FROM albums WHERE album_id = ANY(?)";

  private final AcknowledgedWrites acknowledged;
  private final AmqpSettings amqp;
  private final HikariDataSource db;
  private final Connection broker;
  private final Channel channel;

  /** The outcome, with the figures the summary line reports. */
  public record Result(
      boolean passed,
      long albums,
      long albumsAcked,
      long reviewsAcked,
      long unknownWrites,
      long albumsFound,
      long reviewsFound,
      long mismatches,
      long leftInQueue,
      long deadLetters,
      long expectedDeadLetters,
      List<String> samples) {

    public String verdict() {
      String range = unknownWrites == 0 ? "exact" : "within " + unknownWrites + " unknown writes";
      return (passed ? "PASSED" : "FAILED")
          + " ("
          + albumsAcked
          + " albums and "
          + reviewsAcked
          + " reviews acknowledged; found "
          + albumsFound
          + " albums and "
          + reviewsFound
          + " reviews, "
          + range
          + "; "
          + mismatches
          + " mismatches; "
          + leftInQueue
          + " left in the queue; "
          + deadLetters
          + " dead letters"
          + (samples.isEmpty() ? "" : "; e.g. " + samples)
          + ")";
    }
  }

  public Audit(AcknowledgedWrites acknowledged, AmqpSettings amqp, DatabaseSettings db)
      throws Exception {
    this.acknowledged = acknowledged;
    this.amqp = amqp;
    this.db = Databases.pool(db, "faults-audit", 2);
    this.broker = AmqpConnections.open(amqp, "faults-audit");
    this.channel = broker.createChannel();
  }

  /**
   * Messages in the write queue, over all its partitions (on Qpid also those delivered but
   * unacknowledged).
   */
  public long queued() throws Exception {
    long n = 0;
    for (AmqpSettings.Partition p : amqp.partitionList()) {
      n += channel.queueDeclarePassive(p.queue()).getMessageCount();
    }
    return n;
  }

  /** Messages in the partitions' dead-letter queues. */
  public long deadLetters() throws Exception {
    long n = 0;
    for (AmqpSettings.Partition p : amqp.partitionList()) {
      n += channel.queueDeclarePassive(p.deadLetterQueue()).getMessageCount();
    }
    return n;
  }

  /** Likes plus dislikes over the albums of the acknowledged writes. */
  public long reviewsStored() throws SQLException {
    return read().values().stream().mapToLong(c -> c[0] + c[1]).sum();
  }

  /**
   * Waits until the queue is empty, the stored reviews and albums reach the acknowledged figures,
   * and all of that holds unchanged for a second; fails after {@code timeout}.
   */
  public void awaitDrained(Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    long wantReviews = acknowledged.reviewsAcked();
    long wantAlbums = acknowledged.albumsAcked();
    String last = null;
    long stableSince = 0;
    while (true) {
      long q = queued();
      Map<String, long[]> counts = read();
      long reviews = counts.values().stream().mapToLong(c -> c[0] + c[1]).sum();
      long albums = albumsFound().size();
      String now = q + "/" + reviews + "/" + albums;
      boolean reached = q == 0 && reviews >= wantReviews && albums >= wantAlbums;
      if (reached && now.equals(last)) {
        if (System.nanoTime() - stableSince > 1_000_000_000L) {
          return;
        }
      } else {
        last = now;
        stableSince = System.nanoTime();
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "not drained after "
                + timeout
                + ": queue "
                + q
                + ", reviews "
                + reviews
                + " of "
                + wantReviews
                + ", albums "
                + albums
                + " of "
                + wantAlbums);
      }
      Thread.sleep(200);
    }
  }

  /** Compares the final rows with the acknowledged writes; call after the consumer stopped. */
  public Result check(long expectedDeadLetters) throws Exception {
    Map<String, long[]> counts = read();
    Set<String> found = albumsFound();
    long mismatches = 0;
    List<String> samples = new ArrayList<>();
    for (AcknowledgedWrites.Album a : acknowledged.albums()) {
      long[] c = counts.getOrDefault(a.albumId, new long[2]);
      List<String> wrong = new ArrayList<>();
      if (a.isAlbumAcked() && !found.contains(a.albumId)) {
        wrong.add("album acknowledged but missing");
      }
      if (!a.isAlbumAcked() && !a.isAlbumUnknown() && found.contains(a.albumId)) {
        wrong.add("album never written but present");
      }
      if (c[0] < a.likesAcked() || c[0] > a.likesAcked() + a.likesUnknown()) {
        wrong.add("likes " + c[0] + ", acknowledged " + a.likesAcked() + range(a.likesUnknown()));
      }
      if (c[1] < a.dislikesAcked() || c[1] > a.dislikesAcked() + a.dislikesUnknown()) {
        wrong.add(
            "dislikes "
                + c[1]
                + ", acknowledged "
                + a.dislikesAcked()
                + range(a.dislikesUnknown()));
      }
      if (!wrong.isEmpty()) {
        mismatches++;
        if (samples.size() < 5) {
          samples.add(a.albumId + ": " + String.join(", ", wrong));
        }
      }
    }
    long left = queued();
    long dead = deadLetters();
    boolean passed = mismatches == 0 && left == 0 && dead == expectedDeadLetters;
    return new Result(
        passed,
        acknowledged.albums().size(),
        acknowledged.albumsAcked(),
        acknowledged.reviewsAcked(),
        acknowledged.unknownWrites(),
        found.size(),
        counts.values().stream().mapToLong(c -> c[0] + c[1]).sum(),
        mismatches,
        left,
        dead,
        expectedDeadLetters,
        samples);
  }

  private static String range(long unknown) {
    return unknown == 0 ? "" : " (+" + unknown + " unknown)";
  }

  private Map<String, long[]> read() throws SQLException {
    Map<String, long[]> m = new HashMap<>();
    try (var c = db.getConnection();
        PreparedStatement ps = c.prepareStatement(COUNTS)) {
      ps.setArray(1, ids(c));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          m.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3)});
        }
      }
    }
    return m;
  }

  private Set<String> albumsFound() throws SQLException {
    Set<String> s = new HashSet<>();
    try (var c = db.getConnection();
        PreparedStatement ps = c.prepareStatement(ALBUMS)) {
      ps.setArray(1, ids(c));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          s.add(rs.getString(1));
        }
      }
    }
    return s;
  }

  private Array ids(java.sql.Connection c) throws SQLException {
    return c.createArrayOf("text", acknowledged.albumIds().toArray());
  }

  /** Deletes this run's rows from the shared test database. */
  public void deleteRows() throws SQLException {
    try (var c = db.getConnection()) {
      for (String sql : List.of(DELETE_COUNTS, DELETE_ALBUMS)) {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
          ps.setArray(1, ids(c));
          ps.executeUpdate();
        }
      }
    }
  }

  @Override
  public void close() throws Exception {
    try {
      channel.close();
      broker.close(5_000);
    } finally {
      db.close();
    }
  }
}
