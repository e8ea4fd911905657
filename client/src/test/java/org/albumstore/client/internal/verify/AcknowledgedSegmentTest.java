package org.albumstore.client.internal.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.albumstore.common.event.Vote;
import org.junit.jupiter.api.Test;

class AcknowledgedSegmentTest {
  @Test
  void keepsEveryAlbumIdExactlyWhateverItsForm() {
    AcknowledgedSegment s = new AcknowledgedSegment();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 300; i++) { // past the initial capacity
      ids.add(
          switch (i % 4) {
            case 0 -> UUID.randomUUID().toString();
            case 1 -> UUID.randomUUID().toString().toUpperCase(); // not canonical: kept as text
            case 2 -> Integer.toString(i); // clients that number albums
            default -> "album_" + i + "-x";
          });
    }
    ids.forEach(s::add);
    assertThat(s.size()).isEqualTo(300);
    for (int i = 0; i < 300; i++) {
      assertThat(s.albumId(i)).isEqualTo(ids.get(i));
    }
  }

  @Test
  void countsAcknowledgedAndFailedVotesSeparately() {
    AcknowledgedSegment s = new AcknowledgedSegment();
    int a = s.add("a");
    int b = s.add("b");
    s.vote(a, Vote.LIKE, true);
    s.vote(a, Vote.LIKE, false);
    s.vote(a, Vote.DISLIKE, true);
    s.vote(b, Vote.DISLIKE, false);
    s.vote(b, Vote.LIKE, true);
    s.vote(b, Vote.LIKE, true);
    assertThat(s.expected(a)).isEqualTo(new ExpectedCounts("a", 1, 1, 1, 0));
    assertThat(s.expected(b)).isEqualTo(new ExpectedCounts("b", 2, 0, 0, 1));
  }

  @Test
  void moreVotesThanACounterHoldsIsABug() {
    AcknowledgedSegment s = new AcknowledgedSegment();
    int a = s.add("a");
    for (int i = 0; i < 3; i++) {
      s.vote(a, Vote.DISLIKE, false);
    }
    assertThat(s.expected(a).failedDislikes()).isEqualTo(3);
    assertThatThrownBy(() -> s.vote(a, Vote.DISLIKE, false))
        .isInstanceOf(IllegalStateException.class);
  }
}
