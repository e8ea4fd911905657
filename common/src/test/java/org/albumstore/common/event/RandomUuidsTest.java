package org.albumstore.common.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RandomUuidsTest {

  @Test
  void areVersion4WithTheIetfVariant() {
    for (int i = 0; i < 1000; i++) {
      UUID u = RandomUuids.next();
      assertThat(u.version()).isEqualTo(4);
      assertThat(u.variant()).isEqualTo(2);
      assertThat(UUID.fromString(u.toString())).isEqualTo(u);
    }
  }

  @Test
  void areUniqueAcrossThreads() throws Exception {
    Set<UUID> seen = ConcurrentHashMap.newKeySet();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    for (int t = 0; t < 8; t++) {
      pool.execute(
          () -> {
            for (int i = 0; i < 25_000; i++) {
              seen.add(RandomUuids.next());
            }
          });
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    assertThat(seen).hasSize(200_000);
  }

  @Test
  void timeOrderedAreVersion7WithTheTimeInTheFirst48Bits() {
    for (long t : new long[] {0L, 1L, 1_764_000_000_123L, RandomUuids.MAX_V7_MILLIS}) {
      UUID u = RandomUuids.timeOrdered(t);
      assertThat(u.version()).isEqualTo(7);
      assertThat(u.variant()).isEqualTo(2);
      assertThat(RandomUuids.timeOf(u)).isEqualTo(t);
      assertThat(u.toString()).startsWith(String.format("%08x-%04x", t >>> 16, t & 0xffff));
    }
  }

  @Test
  void aTimeOutsideTheFortyEightBitsIsRefused() {
    assertThatThrownBy(() -> RandomUuids.timeOrdered(-1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RandomUuids.timeOrdered(RandomUuids.MAX_V7_MILLIS + 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
