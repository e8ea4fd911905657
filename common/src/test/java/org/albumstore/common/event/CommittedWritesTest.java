package org.albumstore.common.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommittedWritesTest {
  @Test
  void anAnnouncementSurvivesItsWireForm() throws Exception {
    CommittedWrites c =
        new CommittedWrites(
            List.of(new CommittedWrites.Album("id-1", new AlbumProfile("a", "t", "1977"))),
            List.of(new CommittedWrites.Counts("id-2", 3, 1)));

    assertThat(CommittedWrites.decode(c.encode())).isEqualTo(c);
    assertThat(c.isEmpty()).isFalse();
    assertThat(new CommittedWrites(List.of(), List.of()).isEmpty()).isTrue();
  }

  @Test
  void whatIsNotAnAnnouncementIsRejected() {
    for (String body :
        List.of(
            "",
            "null",
            "{\"albums\":[null],\"counts\":[]}",
            "{\"albums\":[],\"counts\":[{\"albumId\":\"x\",\"likes\":-1,\"dislikes\":0}]}",
            "{\"albums\":[{\"albumId\":\"x\"}],\"counts\":[]}",
            "{\"counts\":[]}")) {
      assertThatThrownBy(() -> CommittedWrites.decode(body.getBytes(StandardCharsets.UTF_8)))
          .as(body)
          .isInstanceOf(InvalidMessageException.class);
    }
  }
}
