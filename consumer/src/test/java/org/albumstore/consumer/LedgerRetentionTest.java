package org.albumstore.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.albumstore.common.config.Env;
import org.junit.jupiter.api.Test;

class LedgerRetentionTest {
  private static LedgerRetention from(String value) {
    return LedgerRetention.from(Env.of(Map.of(LedgerRetention.RETENTION.variable(), value)));
  }

  @Test
  void defaultIsSevenDays() {
    assertThat(LedgerRetention.from(Env.of(Map.of())).window()).isEqualTo(Duration.ofDays(7));
    assertThat(LedgerRetention.DEFAULT.window()).isEqualTo(Duration.ofDays(7));
  }

  @Test
  void readsANumberAndAUnit() {
    assertThat(from("60s").window()).isEqualTo(Duration.ofSeconds(60));
    assertThat(from("30m").window()).isEqualTo(Duration.ofMinutes(30));
    assertThat(from("12H").window()).isEqualTo(Duration.ofHours(12));
    assertThat(from(" 14d ").window()).isEqualTo(Duration.ofDays(14));
  }

  @Test
  void refusesWhatItCannotReadNamingTheSetting() {
    for (String bad : new String[] {"7", "d", "7w", "-1d", "1.5h", "0s", "3651d", "P7D"}) {
      assertThatThrownBy(() -> from(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(LedgerRetention.RETENTION.variable());
    }
  }

  @Test
  void prunesEveryTenthOfTheWindowBetweenOneSecondAndFiveMinutes() {
    assertThat(from("60s").period()).isEqualTo(Duration.ofSeconds(6));
    assertThat(from("5s").period()).isEqualTo(Duration.ofSeconds(1));
    assertThat(from("7d").period()).isEqualTo(Duration.ofMinutes(5));
  }
}
