package org.albumstore.faults.harness;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.albumstore.common.event.Vote;

/**
 * The acknowledged writes, what the clients were told (the harness's own record, not the consumer's
 * ledger of applied IDs): per album, whether its {@code POST /albums} got a 200, and how many likes
 * and dislikes got a 200. A write that never got a 200 (the loop gave up, or an unexpected status)
 * may or may not have been stored, so it widens the expected range instead: the audit expects
 * {@code acked} to {@code acked + unknown}.
 */
public final class AcknowledgedWrites {
  private final ConcurrentHashMap<String, Album> albums = new ConcurrentHashMap<>();

  /** One album's expectations; each album is written by one load thread at a time. */
  public static final class Album {
    public final String albumId;
    private boolean albumAcked;
    private boolean albumUnknown;
    private long likesAcked;
    private long dislikesAcked;
    private long likesUnknown;
    private long dislikesUnknown;

    Album(String albumId) {
      this.albumId = albumId;
    }

    public synchronized void albumAcked() {
      albumAcked = true;
    }

    public synchronized void albumUnknown() {
      albumUnknown = true;
    }

    public synchronized void reviewAcked(Vote v) {
      if (v == Vote.LIKE) {
        likesAcked++;
      } else {
        dislikesAcked++;
      }
    }

    public synchronized void reviewUnknown(Vote v) {
      if (v == Vote.LIKE) {
        likesUnknown++;
      } else {
        dislikesUnknown++;
      }
    }

    public synchronized boolean isAlbumAcked() {
      return albumAcked;
    }

    public synchronized boolean isAlbumUnknown() {
      return albumUnknown;
    }

    public synchronized long likesAcked() {
      return likesAcked;
    }

    public synchronized long dislikesAcked() {
      return dislikesAcked;
    }

    public synchronized long likesUnknown() {
      return likesUnknown;
    }

    public synchronized long dislikesUnknown() {
      return dislikesUnknown;
    }
  }

  public Album album(String albumId) {
    return albums.computeIfAbsent(albumId, Album::new);
  }

  public Collection<Album> albums() {
    return albums.values();
  }

  public List<String> albumIds() {
    return new ArrayList<>(albums.keySet());
  }

  public long albumsAcked() {
    return albums.values().stream().filter(Album::isAlbumAcked).count();
  }

  public long reviewsAcked() {
    return albums.values().stream().mapToLong(a -> a.likesAcked() + a.dislikesAcked()).sum();
  }

  /** Writes (albums and reviews) whose outcome the client does not know. */
  public long unknownWrites() {
    return albums.values().stream()
        .mapToLong(a -> (a.isAlbumUnknown() ? 1 : 0) + a.likesUnknown() + a.dislikesUnknown())
        .sum();
  }
}
