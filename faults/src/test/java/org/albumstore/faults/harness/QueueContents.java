package org.albumstore.faults.harness;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import java.util.Map;
import java.util.TreeMap;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.event.AlbumVotes;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.InvalidMessageException;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;

/**
 * Everything the server published to a queue (every partition of it) nobody consumes: read (and
 * removed) message by message, decoded, and counted per album ID and per "albumId|vote", to be
 * compared with the writes that were answered 2xx.
 */
public record QueueContents(
    long messages, long undecodable, Map<String, Long> albums, Map<String, Long> reviews) {

  public static QueueContents drain(AmqpSettings amqp, int maxMessages) throws Exception {
    Map<String, Long> albums = new TreeMap<>();
    Map<String, Long> reviews = new TreeMap<>();
    long messages = 0;
    long undecodable = 0;
    try (Connection c = AmqpConnections.open(amqp, "faults-queue-reader");
        Channel ch = c.createChannel()) {
      for (AmqpSettings.Partition p : amqp.partitionList()) {
        GetResponse r;
        while (messages < maxMessages && (r = ch.basicGet(p.queue(), true)) != null) {
          messages++;
          try {
            count(EventCodec.decode(r.getBody()), albums, reviews);
          } catch (InvalidMessageException e) {
            undecodable++;
          }
        }
      }
    }
    return new QueueContents(messages, undecodable, albums, reviews);
  }

  /** Adds a message's albums and its reviews (one by one or as per-album votes) to the counts. */
  private static void count(WriteBundle b, Map<String, Long> albums, Map<String, Long> reviews) {
    for (NewAlbum a : b.albums()) {
      albums.merge(a.albumId(), 1L, Long::sum);
    }
    for (Review v : b.reviews()) {
      reviews.merge(v.albumId() + "|" + v.vote().wire(), 1L, Long::sum);
    }
    for (AlbumVotes v : b.votes()) {
      if (v.likes() > 0) {
        reviews.merge(v.albumId() + "|" + Vote.LIKE.wire(), (long) v.likes(), Long::sum);
      }
      if (v.dislikes() > 0) {
        reviews.merge(v.albumId() + "|" + Vote.DISLIKE.wire(), (long) v.dislikes(), Long::sum);
      }
    }
  }

  public long albumWrites() {
    return albums.values().stream().mapToLong(Long::longValue).sum();
  }

  public long reviewWrites() {
    return reviews.values().stream().mapToLong(Long::longValue).sum();
  }
}
