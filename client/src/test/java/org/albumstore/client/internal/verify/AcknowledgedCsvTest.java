package org.albumstore.client.internal.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.albumstore.common.event.Vote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AcknowledgedCsvTest {
  @TempDir Path dir;

  private static List<ExpectedCounts> all(AcknowledgedWrites acknowledged) {
    List<ExpectedCounts> out = new ArrayList<>();
    for (AcknowledgedSegment s : acknowledged.segments()) {
      for (int i = 0; i < s.size(); i++) {
        out.add(s.expected(i));
      }
    }
    return out;
  }

  @Test
  void twoRunsAcknowledgedWritesReadBackAsTheirUnionWithEveryCount() throws Exception {
    AcknowledgedWrites a = new AcknowledgedWrites();
    AcknowledgedSegment s = a.newSegment();
    int x = s.add("0190a5c8-8f3e-7c4b-9a8e-1d2c3b4a5f60");
    s.vote(x, Vote.LIKE, true);
    s.vote(x, Vote.LIKE, false);
    s.vote(x, Vote.DISLIKE, true);
    AcknowledgedWrites b = new AcknowledgedWrites();
    b.newSegment().add("not-a-uuid-42");
    AcknowledgedCsv.write(a, dir.resolve("a.csv"));
    AcknowledgedCsv.write(b, dir.resolve("b.csv"));

    AcknowledgedWrites union = new AcknowledgedWrites();
    assertThat(AcknowledgedCsv.readInto(dir.resolve("a.csv"), union)).isEqualTo(1);
    assertThat(AcknowledgedCsv.readInto(dir.resolve("b.csv"), union)).isEqualTo(1);
    assertThat(all(union))
        .containsExactly(
            new ExpectedCounts("0190a5c8-8f3e-7c4b-9a8e-1d2c3b4a5f60", 1, 1, 1, 0),
            new ExpectedCounts("not-a-uuid-42", 0, 0, 0, 0));
  }

  @Test
  void aFileThatIsNotAnAcknowledgedCsvIsRefusedNamingIt() throws Exception {
    Path other = Files.writeString(dir.resolve("requests.csv"), "start_time,request_type\n");
    assertThatThrownBy(() -> AcknowledgedCsv.readInto(other, new AcknowledgedWrites()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("requests.csv");
  }
}
