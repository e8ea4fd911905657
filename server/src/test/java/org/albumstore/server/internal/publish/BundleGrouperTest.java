package org.albumstore.server.internal.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.junit.jupiter.api.Test;

class BundleGrouperTest {

  @Test
  void aLoneWriteIsAGroupOfOne() {
    BundleGrouper g = new BundleGrouper(256, 1 << 20);
    Deque<PendingWrite> queue = new ArrayDeque<>();
    PendingWrite w = review();
    assertThat(g.group(w, queue::poll)).containsExactly(w);
    assertThat(g.takeCarried()).isNull();
  }

  @Test
  void takesEverythingWaitingUpToTheCountLimitInArrivalOrder() {
    BundleGrouper g = new BundleGrouper(4, 1 << 20);
    Deque<PendingWrite> queue = queueOf(10);
    List<List<PendingWrite>> groups = drain(g, queue);
    assertThat(groups).extracting(List::size).containsExactly(4, 4, 2);
    assertThat(groups.stream().flatMap(List::stream).toList()).isEqualTo(allOf(groups));
  }

  @Test
  void bundleMaxOneMeansOneMessagePerWrite() {
    BundleGrouper g = new BundleGrouper(1, 1 << 20);
    List<List<PendingWrite>> groups = drain(g, queueOf(3));
    assertThat(groups).extracting(List::size).containsExactly(1, 1, 1);
  }

  @Test
  void theByteLimitEndsAGroupAndTheWriteThatDidNotFitStartsTheNext() {
    PendingWrite small = review();
    long limit = 3L * small.estimatedBytes(); // room for exactly three reviews
    BundleGrouper g = new BundleGrouper(256, limit);
    Deque<PendingWrite> queue = queueOf(7);
    List<PendingWrite> expectedOrder = new ArrayList<>(queue);

    List<List<PendingWrite>> groups = drain(g, queue);

    assertThat(groups).extracting(List::size).containsExactly(3, 3, 1);
    assertThat(groups.stream().flatMap(List::stream).toList()).isEqualTo(expectedOrder);
    for (List<PendingWrite> group : groups) {
      assertThat(group.stream().mapToLong(PendingWrite::estimatedBytes).sum())
          .isLessThanOrEqualTo(limit);
    }
  }

  @Test
  void aWriteLargerThanTheByteLimitTravelsAlone() {
    PendingWrite big = album("big", 10_000);
    BundleGrouper g = new BundleGrouper(256, 2_000);
    Deque<PendingWrite> queue = new ArrayDeque<>(List.of(review(), big, review(), review()));
    List<List<PendingWrite>> groups = drain(g, queue);
    assertThat(groups).extracting(List::size).containsExactly(1, 1, 2);
    assertThat(groups.get(1)).containsExactly(big);
  }

  @Test
  void albumsAndReviewsShareAGroupWithinTheByteLimit() {
    BundleGrouper g = new BundleGrouper(256, 1 << 20);
    Deque<PendingWrite> queue =
        new ArrayDeque<>(List.of(album("a1", 3475), review(), album("a2", 3475), review()));
    PendingWrite first = queue.poll();
    assertThat(g.group(first, queue::poll)).hasSize(4);
  }

  @Test
  void aRepeatedAlbumIdOrEventIdStartsANewGroup() {
    BundleGrouper g = new BundleGrouper(256, 1 << 20);
    PendingWrite a = album("same", 10);
    PendingWrite b = review();
    PendingWrite aAgain = album("same", 10);
    UUID event = UUID.randomUUID();
    PendingWrite r1 = PendingWrite.of(new Review(event, "1", Vote.LIKE), 0);
    PendingWrite r2 = PendingWrite.of(new Review(event, "1", Vote.LIKE), 0);
    Deque<PendingWrite> queue = new ArrayDeque<>(List.of(a, b, aAgain, r1, r2));

    List<List<PendingWrite>> groups = drain(g, queue);

    assertThat(groups).containsExactly(List.of(a, b), List.of(aAgain, r1), List.of(r2));
  }

  @Test
  void unkeyedReviewsHaveNoEventIdAndAnyNumberOfThemShareAGroup() {
    BundleGrouper g = new BundleGrouper(256, 1 << 20);
    Deque<PendingWrite> queue = new ArrayDeque<>();
    for (int i = 0; i < 5; i++) {
      queue.add(PendingWrite.of(new Review(null, "1", Vote.LIKE, false), 0));
    }
    PendingWrite keyed = review();
    queue.add(keyed);

    List<List<PendingWrite>> groups = drain(g, queue);

    assertThat(groups).hasSize(1);
    assertThat(groups.get(0)).hasSize(6).endsWith(keyed);
  }

  @Test
  void theCarriedWriteMustStartTheNextGroup() {
    PendingWrite first = review();
    BundleGrouper g = new BundleGrouper(256, first.estimatedBytes()); // room for one review only
    Deque<PendingWrite> queue = queueOf(2);
    assertThat(g.group(first, queue::poll)).containsExactly(first);
    assertThatThrownBy(() -> g.group(review(), queue::poll))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void refusesNonPositiveLimits() {
    assertThatThrownBy(() -> new BundleGrouper(0, 10)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new BundleGrouper(10, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  /** Groups the whole queue the way a publisher thread does, carrying over between groups. */
  private static List<List<PendingWrite>> drain(BundleGrouper g, Deque<PendingWrite> queue) {
    List<List<PendingWrite>> groups = new ArrayList<>();
    while (true) {
      PendingWrite first = g.takeCarried();
      if (first == null) {
        first = queue.poll();
      }
      if (first == null) {
        return groups;
      }
      groups.add(g.group(first, queue::poll));
    }
  }

  private static List<PendingWrite> allOf(List<List<PendingWrite>> groups) {
    return groups.stream().flatMap(List::stream).toList();
  }

  private static Deque<PendingWrite> queueOf(int n) {
    Deque<PendingWrite> q = new ArrayDeque<>();
    for (int i = 0; i < n; i++) {
      q.add(review());
    }
    return q;
  }

  static PendingWrite review() {
    return PendingWrite.of(new Review(UUID.randomUUID(), "42", Vote.LIKE), 0);
  }

  static PendingWrite album(String id, int imageBytes) {
    return PendingWrite.of(
        new NewAlbum(id, new AlbumProfile("artist", "title", "1977"), new byte[imageBytes]), 0);
  }
}
