package org.albumstore.client.internal.workload;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecentAlbumsTest {
  @Test
  void picksNothingBeforeTheFirstAlbum() {
    assertThat(new RecentAlbums(8).pick()).isNull();
  }

  @Test
  void keepsOnlyTheMostRecentAlbums() {
    RecentAlbums recent = new RecentAlbums(4);
    for (int i = 0; i < 10; i++) {
      recent.add("a" + i);
    }
    for (int i = 0; i < 200; i++) {
      assertThat(recent.pick()).isIn("a6", "a7", "a8", "a9");
    }
  }
}
