package org.albumstore.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.albumstore.common.config.Env;
import org.junit.jupiter.api.Test;

class ConsumerSettingsTest {

  @Test
  void defaultsAreTheDocumentedConstants() {
    ConsumerSettings s = ConsumerSettings.defaults();
    assertThat(s.connections()).isEqualTo(ConsumerSettings.CONNECTIONS.defaultValue());
    assertThat(s.channelsPerConnection()).isEqualTo(ConsumerSettings.CHANNELS.defaultValue());
    assertThat(s.prefetch()).isEqualTo(ConsumerSettings.PREFETCH.defaultValue());
    assertThat(s.batchSize()).isEqualTo(ConsumerSettings.BATCH_SIZE.defaultValue());
    assertThat(s.batchWaitMillis()).isEqualTo(ConsumerSettings.BATCH_WAIT_MS.defaultValue());
    assertThat(s.batchWaitMillis()).as("no partial-batch wait by default").isZero();
    assertThat(s.initSchema()).isFalse();
    assertThat(s.statsIntervalSeconds()).isEqualTo(ConsumerSettings.STATS_INTERVAL.defaultValue());
    assertThat(s.dbPoolSize()).isEqualTo(s.connections() * s.channelsPerConnection());
  }

  @Test
  void workersRankFirstChannelsOfEveryConnectionFirstAndNoTwoAlike() {
    ConsumerSettings s = new ConsumerSettings(3, 2, 1000, 500, 10, 0, 6, false, 10);
    List<Integer> ranked = new ArrayList<>();
    for (int k = 1; k <= 2; k++) {
      for (int c = 1; c <= 3; c++) {
        ranked.add(AlbumStoreConsumer.priority(s, c, k));
      }
    }
    // c1k1, c2k1, c3k1, then c1k2, c2k2, c3k2: from the highest (M×K) down to 1.
    assertThat(ranked).containsExactly(6, 5, 4, 3, 2, 1);
  }

  @Test
  void environmentOverridesDefaultsAndPoolFollowsWorkers() {
    ConsumerSettings s =
        ConsumerSettings.from(
            Env.of(
                Map.of(
                    ConsumerSettings.CONNECTIONS.variable(), "4",
                    ConsumerSettings.CHANNELS.variable(), "3",
                    ConsumerSettings.PREFETCH.variable(), "250",
                    ConsumerSettings.BATCH_SIZE.variable(), "250",
                    ConsumerSettings.BATCH_WAIT_MS.variable(), "25",
                    ConsumerSettings.INIT_SCHEMA.variable(), "true")));
    assertThat(s.workers()).isEqualTo(12);
    assertThat(s.dbPoolSize()).isEqualTo(12);
    assertThat(s.prefetch()).isEqualTo(250);
    assertThat(s.batchSize()).isEqualTo(250);
    assertThat(s.batchWaitMillis()).isEqualTo(25);
    assertThat(s.initSchema()).isTrue();
  }

  @Test
  void explicitPoolSizeWins() {
    ConsumerSettings s =
        ConsumerSettings.from(Env.of(Map.of(ConsumerSettings.DB_POOL_SIZE.variable(), "3")));
    assertThat(s.dbPoolSize()).isEqualTo(3);
  }

  @Test
  void batchLargerThanPrefetchIsRejectedNamingBothSettings() {
    Env env =
        Env.of(
            Map.of(
                ConsumerSettings.PREFETCH.variable(),
                "100",
                ConsumerSettings.BATCH_SIZE.variable(),
                "101"));
    assertThatThrownBy(() -> ConsumerSettings.from(env))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(ConsumerSettings.BATCH_SIZE.variable())
        .hasMessageContaining(ConsumerSettings.PREFETCH.variable());
  }

  @Test
  void defaultBatchSizeAboveASmallPrefetchIsRejectedToo() {
    Env env = Env.of(Map.of(ConsumerSettings.PREFETCH.variable(), "10"));
    assertThatThrownBy(() -> ConsumerSettings.from(env))
        .hasMessageContaining(ConsumerSettings.BATCH_SIZE.variable());
  }

  @Test
  void outOfRangeValuesAreRejectedNamingTheVariable() {
    assertRejected(ConsumerSettings.CONNECTIONS.variable(), "0");
    assertRejected(ConsumerSettings.CHANNELS.variable(), "-1");
    assertRejected(ConsumerSettings.PREFETCH.variable(), "65536"); // AMQP prefetch-count is 16 bits
    assertRejected(ConsumerSettings.BATCH_SIZE.variable(), "0");
    assertRejected(ConsumerSettings.BATCH_WAIT_MS.variable(), "-5");
    assertRejected(ConsumerSettings.DB_POOL_SIZE.variable(), "0");
    assertRejected(ConsumerSettings.STATS_INTERVAL.variable(), "0");
    assertRejected(ConsumerSettings.CONNECTIONS.variable(), "two");
    assertRejected(ConsumerSettings.INIT_SCHEMA.variable(), "maybe");
  }

  @Test
  void constructorValidatesToo() {
    assertThatThrownBy(() -> new ConsumerSettings(1, 1, 10, 20, 10, 0, 1, false, 10))
        .hasMessageContaining(ConsumerSettings.BATCH_SIZE.variable());
    assertThatThrownBy(() -> new ConsumerSettings(0, 1, 10, 5, 10, 0, 1, false, 10))
        .hasMessageContaining(ConsumerSettings.CONNECTIONS.variable());
  }

  private static void assertRejected(String key, String value) {
    assertThatThrownBy(() -> ConsumerSettings.from(Env.of(Map.of(key, value))))
        .as("%s=%s", key, value)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key);
  }
}
