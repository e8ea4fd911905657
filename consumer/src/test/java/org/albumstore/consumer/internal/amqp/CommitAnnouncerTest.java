package org.albumstore.consumer.internal.amqp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.CommittedWrites;
import org.albumstore.common.event.CommittedWrites.Album;
import org.albumstore.common.event.CommittedWrites.Counts;
import org.junit.jupiter.api.Test;

class CommitAnnouncerTest {
  private static final AlbumProfile PROFILE = new AlbumProfile("a", "t", "1977");

  @Test
  void commitsQueuedTogetherGoOutAsOneWithEachAlbumsLargestCounters() {
    CommittedWrites merged =
        CommitAnnouncer.merge(
            List.of(
                new CommittedWrites(
                    List.of(new Album("x", PROFILE)), List.of(new Counts("y", 3, 1))),
                new CommittedWrites(
                    List.of(new Album("z", PROFILE)),
                    List.of(new Counts("y", 5, 2), new Counts("w", 1, 1))),
                // Queued after the one above but committed before it (the workers race to the
                // queue once committed): its counter is smaller.
                new CommittedWrites(List.of(), List.of(new Counts("y", 4, 1)))));

    assertThat(merged.albums()).extracting(Album::albumId).containsExactly("x", "z");
    assertThat(merged.counts()).containsExactly(new Counts("y", 5, 2), new Counts("w", 1, 1));
  }

  @Test
  void aLoneCommitGoesOutAsItIs() {
    CommittedWrites c = new CommittedWrites(List.of(), List.of(new Counts("y", 3, 1)));

    assertThat(CommitAnnouncer.merge(List.of(c))).isSameAs(c);
  }
}
