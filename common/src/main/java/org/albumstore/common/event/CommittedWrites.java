package org.albumstore.common.event;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * What one consumer transaction changed, announced after its commit on the commits exchange ({@code
 * AmqpSettings.commitsExchange}) so that every server learns it without asking the database: the
 * albums it inserted, with their profiles, and the counters it moved, with their values after the
 * commit.
 *
 * <p>An announcement is a hint, never the record: it is sent without persistence or confirm, after
 * the commit, and may be lost (a consumer that dies between its commit and its announcement, a
 * server that is reconnecting). A server uses it to answer sooner and keeps its own fallback (the
 * database) for whatever it did not hear. Counters travel as values, not deltas: a later
 * announcement of the same album supersedes an earlier one that was lost or arrives late, and a
 * server keeps the larger of each (counters only grow).
 *
 * @param albums albums the transaction inserted (not those that already existed)
 * @param counts every counter row the transaction changed, as committed
 */
public record CommittedWrites(List<Album> albums, List<Counts> counts) {
  /** The AMQP {@code type} property of announcements. */
  public static final String MESSAGE_TYPE = "albumstore.committed";

  private static final ObjectMapper MAPPER =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** An album as inserted. */
  public record Album(String albumId, AlbumProfile profile) {
    public Album {
      Objects.requireNonNull(albumId, "albumId");
      Objects.requireNonNull(profile, "profile");
    }
  }

  /** An album's counters as committed. */
  public record Counts(String albumId, long likes, long dislikes) {
    public Counts {
      Objects.requireNonNull(albumId, "albumId");
      if (likes < 0 || dislikes < 0) {
        throw new IllegalArgumentException("counters are never negative");
      }
    }
  }

  public CommittedWrites {
    albums = List.copyOf(albums);
    counts = List.copyOf(counts);
  }

  /** True when the transaction inserted no album and moved no counter: nothing to announce. */
  public boolean isEmpty() {
    return albums.isEmpty() && counts.isEmpty();
  }

  public byte[] encode() {
    try {
      return MAPPER.writeValueAsBytes(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode an announcement", e);
    }
  }

  /** The announcement in {@code body}; what is not one is an {@link InvalidMessageException}. */
  public static CommittedWrites decode(byte[] body) throws InvalidMessageException {
    try {
      // The constructors reject what is missing, null or negative.
      CommittedWrites c = MAPPER.readValue(body, CommittedWrites.class);
      if (c == null) {
        throw new InvalidMessageException("not an announcement of committed writes: null");
      }
      return c;
    } catch (IOException | RuntimeException e) {
      throw new InvalidMessageException("not an announcement of committed writes: " + e, e);
    }
  }
}
