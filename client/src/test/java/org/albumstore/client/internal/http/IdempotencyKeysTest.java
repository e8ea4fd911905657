package org.albumstore.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.albumstore.common.event.Identifiers;
import org.junit.jupiter.api.Test;

class IdempotencyKeysTest {
  @Test
  void keysAreValidTokensAndDistinctPerWrite() {
    IdempotencyKeys keys = new IdempotencyKeys("20251122-083201-1a2b3c4d");
    Set<String> seen = new HashSet<>();
    for (int t = 0; t < 600; t += 37) {
      for (int i = 0; i < 100_000; i += 9_999) {
        for (String step : new String[] {"a", "l1", "l2", "d"}) {
          String k = keys.key("t" + t, i, step);
          assertThat(Identifiers.isValidToken(k)).as(k).isTrue();
          assertThat(seen.add(k)).as("unique %s", k).isTrue();
        }
      }
    }
    assertThat(keys.key("t1", 2, "a")).isEqualTo(keys.key("t1", 2, "a"));
  }

  @Test
  void aRunIdThatCannotBeInAKeyIsRejected() {
    assertThatThrownBy(() -> new IdempotencyKeys("has space"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
