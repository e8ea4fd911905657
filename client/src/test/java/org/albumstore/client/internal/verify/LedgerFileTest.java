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

class LedgerFileTest {
  @TempDir Path dir;

  private static List<ExpectedCounts> all(AlbumLedger ledger) {
    List<ExpectedCounts> out = new ArrayList<>();
    for (LedgerSegment s : ledger.segments()) {
      for (int i = 0; i < s.size(); i++) {
        out.add(s.expected(i));
      }
    }
    return out;
  }

  @Test
  void twoRunsLedgersReadBackAsTheirUnionWithEveryCount() throws Exception {
    AlbumLedger a = new AlbumLedger();
    LedgerSegment s = a.newSegment();
    int x = s.add("0190a5c8-8f3e-7c4b-9a8e-1d2c3b4a5f60");
    s.vote(x, Vote.LIKE, true);
    s.vote(x, Vote.LIKE, false);
    s.vote(x, Vote.DISLIKE, true);
    AlbumLedger b = new AlbumLedger();
    b.newSegment().add("not-a-uuid-42");
    LedgerFile.write(a, dir.resolve("a.csv"));
    LedgerFile.write(b, dir.resolve("b.csv"));

    AlbumLedger union = new AlbumLedger();
    assertThat(LedgerFile.readInto(dir.resolve("a.csv"), union)).isEqualTo(1);
    assertThat(LedgerFile.readInto(dir.resolve("b.csv"), union)).isEqualTo(1);
    assertThat(all(union))
        .containsExactly(
            new ExpectedCounts("0190a5c8-8f3e-7c4b-9a8e-1d2c3b4a5f60", 1, 1, 1, 0),
            new ExpectedCounts("not-a-uuid-42", 0, 0, 0, 0));
  }

  @Test
  void aFileThatIsNotALedgerIsRefusedNamingIt() throws Exception {
    Path other = Files.writeString(dir.resolve("requests.csv"), "start_time,request_type\n");
    assertThatThrownBy(() -> LedgerFile.readInto(other, new AlbumLedger()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("requests.csv");
  }
}
