package org.albumstore.faults.harness;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.db.Databases;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.WriteBundle;

/**
 * What a stopped consumer left in the queue, and whether any of it was already applied: after a
 * clean stop nothing may be (the consumer acknowledges every message whose transaction committed
 * before it closes its channels), so a leftover message whose reviews are already in the
 * exactly-once ledger proves an applied-but-unacknowledged message, i.e. an unclean stop.
 *
 * <p>Reads with {@code basicGet} without acknowledging and then closes its channel, so every
 * message goes back to the queue for the next consumer.
 */
public final class Leftovers {
  private static final String APPLIED =
      "SELECT count(*) FROM applied_reviews WHERE event_id = ANY(?)";
  private static final String ALBUMS = "SELECT count(*) FROM albums WHERE album_id = ANY(?)";

  /** Messages inspected, and how many of them held a review or album already stored. */
  public record Result(long messages, long alreadyApplied) {}

  private Leftovers() {}

  public static Result inspect(AmqpSettings amqp, DatabaseSettings db, int max) throws Exception {
    List<UUID> events = new ArrayList<>();
    List<String> albums = new ArrayList<>();
    List<int[]> ranges =
        new ArrayList<>(); // per message: [first event, end event, first album, end album]
    try (Connection c = AmqpConnections.open(amqp, "faults-leftovers");
        Channel ch = c.createChannel()) {
      for (AmqpSettings.Partition p : amqp.partitionList()) {
        GetResponse r;
        while (ranges.size() < max && (r = ch.basicGet(p.queue(), false)) != null) {
          WriteBundle b = EventCodec.decode(r.getBody());
          int e0 = events.size();
          int a0 = albums.size();
          b.reviews().stream().map(Review::eventId).forEach(events::add);
          if (b.id() != null) {
            events.add(b.id()); // the ledger key of the message's unkeyed reviews
          }
          b.albums().stream().map(NewAlbum::albumId).forEach(albums::add);
          ranges.add(new int[] {e0, events.size(), a0, albums.size()});
        }
      }
      // Closing the channel without acks returns every message to the queue.
    }
    long applied = 0;
    try (HikariDataSource ds = Databases.pool(db, "faults-leftovers", 1);
        var conn = ds.getConnection()) {
      for (int[] m : ranges) {
        long found =
            count(conn, APPLIED, "uuid", events.subList(m[0], m[1]).toArray())
                + count(conn, ALBUMS, "text", albums.subList(m[2], m[3]).toArray());
        if (found > 0) {
          applied++;
        }
      }
    }
    return new Result(ranges.size(), applied);
  }

  private static long count(java.sql.Connection c, String sql, String type, Object[] values)
      throws Exception {
    if (values.length == 0) {
      return 0;
    }
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setArray(1, c.createArrayOf(type, values));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
