package org.albumstore.client.internal.verify;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.albumstore.common.event.Vote;

/**
 * The albums one load thread created and the outcome of each review it sent: appended by that
 * thread only (no locking), read after the thread has finished.
 *
 * <p>Compact, because it is the one structure that grows with the run: an album ID in the server's
 * UUID form is kept as two longs, and its four vote counters are packed into one byte (2 bits each;
 * the workload sends at most 2 likes and 1 dislike per album). About 17 bytes per album, where a
 * String and an object would take about 100.
 */
public final class AcknowledgedSegment {
  private static final int MAX_PER_COUNTER = 3;
  private static final int ACKED_LIKES = 0;
  private static final int FAILED_LIKES = 2;
  private static final int ACKED_DISLIKES = 4;
  private static final int FAILED_DISLIKES = 6;

  private long[] high = new long[64];
  private long[] low = new long[64];
  private byte[] votes = new byte[64];
  private final Map<Integer, String> otherIds = new HashMap<>();
  private int size;

  /**
   * @return the album's index in this segment, for {@link #vote}
   */
  public int add(String albumId) {
    if (size == votes.length) {
      int n = size * 2;
      high = Arrays.copyOf(high, n);
      low = Arrays.copyOf(low, n);
      votes = Arrays.copyOf(votes, n);
    }
    UUID uuid = canonicalUuid(albumId);
    if (uuid != null) {
      high[size] = uuid.getMostSignificantBits();
      low[size] = uuid.getLeastSignificantBits();
    } else {
      otherIds.put(size, albumId);
    }
    return size++;
  }

  private static UUID canonicalUuid(String s) {
    if (s.length() != 36) {
      return null;
    }
    try {
      UUID u = UUID.fromString(s);
      return u.toString().equals(s) ? u : null; // only if it prints back identically
    } catch (IllegalArgumentException notUuid) {
      return null;
    }
  }

  /** Records the outcome of one review of album {@code index}. */
  public void vote(int index, Vote vote, boolean acknowledged) {
    int shift =
        vote == Vote.LIKE
            ? (acknowledged ? ACKED_LIKES : FAILED_LIKES)
            : (acknowledged ? ACKED_DISLIKES : FAILED_DISLIKES);
    int current = (votes[index] >> shift) & MAX_PER_COUNTER;
    if (current == MAX_PER_COUNTER) {
      throw new IllegalStateException("more than 3 reviews of one kind for one album");
    }
    votes[index] = (byte) (votes[index] + (1 << shift));
  }

  public int size() {
    return size;
  }

  public String albumId(int index) {
    String other = otherIds.get(index);
    return other != null ? other : new UUID(high[index], low[index]).toString();
  }

  public ExpectedCounts expected(int index) {
    int v = votes[index] & 0xff;
    return new ExpectedCounts(
        albumId(index),
        (v >> ACKED_LIKES) & MAX_PER_COUNTER,
        (v >> FAILED_LIKES) & MAX_PER_COUNTER,
        (v >> ACKED_DISLIKES) & MAX_PER_COUNTER,
        (v >> FAILED_DISLIKES) & MAX_PER_COUNTER);
  }
}
