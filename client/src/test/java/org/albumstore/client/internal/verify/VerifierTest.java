package org.albumstore.client.internal.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.albumstore.client.internal.http.AlbumStoreApi;
import org.albumstore.client.internal.http.ReviewCounts;
import org.albumstore.client.internal.http.Sleeper;
import org.albumstore.common.event.Vote;
import org.junit.jupiter.api.Test;

class VerifierTest {
  /** A read side whose counts can be changed between passes. */
  private static final class FakeReads implements AlbumStoreApi {
    @Override
    public boolean getAlbum(String albumId, long dueNanos) {
      throw new AssertionError("the verifier reads counts only");
    }

    final Map<String, ReviewCounts> counts = new ConcurrentHashMap<>();
    final AtomicInteger reads = new AtomicInteger();

    @Override
    public Optional<String> createAlbum(String key, long dueNanos) {
      throw new AssertionError();
    }

    @Override
    public boolean review(Vote vote, String albumId, String key, long dueNanos) {
      throw new AssertionError();
    }

    @Override
    public ReviewCounts getReview(String albumId, long dueNanos) {
      reads.incrementAndGet();
      return counts.getOrDefault(albumId, ReviewCounts.notFound());
    }
  }

  private static AcknowledgedWrites acknowledged(int segments, int albumsEach) {
    AcknowledgedWrites acknowledged = new AcknowledgedWrites();
    for (int s = 0; s < segments; s++) {
      AcknowledgedSegment seg = acknowledged.newSegment();
      for (int i = 0; i < albumsEach; i++) {
        int idx = seg.add("s" + s + "a" + i);
        seg.vote(idx, Vote.LIKE, true);
        seg.vote(idx, Vote.LIKE, true);
        seg.vote(idx, Vote.DISLIKE, true);
      }
    }
    return acknowledged;
  }

  @Test
  void everyAlbumIsReadOnceWhenAllAgree() throws Exception {
    AcknowledgedWrites acknowledged = acknowledged(3, 700);
    FakeReads reads = new FakeReads();
    acknowledged
        .segments()
        .forEach(
            seg -> {
              for (int i = 0; i < seg.size(); i++) {
                reads.counts.put(seg.albumId(i), ReviewCounts.found(2, 1));
              }
            });
    VerificationResult r =
        new Verifier(reads, 4, Sleeper.REAL).verify(acknowledged, Duration.ofSeconds(5));
    assertThat(r.albums()).isEqualTo(2100);
    assertThat(r.mismatches()).isZero();
    assertThat(r.ok()).isTrue();
    assertThat(r.rounds()).isEqualTo(1);
    assertThat(reads.reads.get()).isEqualTo(2100);
  }

  @Test
  void disagreeingAlbumsAreReadAgainUntilTheyAgree() throws Exception {
    AcknowledgedWrites acknowledged = acknowledged(1, 10);
    FakeReads reads = new FakeReads();
    for (int i = 0; i < 10; i++) {
      reads.counts.put("s0a" + i, i < 7 ? ReviewCounts.found(2, 1) : ReviewCounts.found(1, 0));
    }
    // The consumer "catches up" during the first pause.
    Sleeper catchUp = d -> reads.counts.replaceAll((k, v) -> ReviewCounts.found(2, 1));
    VerificationResult r =
        new Verifier(reads, 2, catchUp).verify(acknowledged, Duration.ofSeconds(30));
    assertThat(r.mismatches()).isZero();
    assertThat(r.rounds()).isEqualTo(2);
    assertThat(reads.reads.get()).isEqualTo(13); // 10, then only the 3 that disagreed
  }

  @Test
  void mismatchesThatPersistAreListedFirstTwentyOnly() throws Exception {
    AcknowledgedWrites acknowledged = acknowledged(2, 20);
    FakeReads reads = new FakeReads();
    acknowledged
        .segments()
        .forEach(
            seg -> {
              for (int i = 0; i < seg.size(); i++) {
                reads.counts.put(seg.albumId(i), ReviewCounts.found(2, 0)); // every dislike lost
              }
            });
    VerificationResult r = new Verifier(reads, 3, d -> {}).verify(acknowledged, Duration.ZERO);
    assertThat(r.mismatches()).isEqualTo(40);
    assertThat(r.firstMismatches()).hasSize(Verifier.SHOWN);
    assertThat(r.firstMismatches().get(0).problem()).isEqualTo("dislikes 0 (expected 1)");
    assertThat(r.ok()).isFalse();
  }
}
