package org.albumstore.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.albumstore.common.config.Env;
import org.junit.jupiter.api.Test;

class ConsumerSettingsTest {

  @Test
  void defaultsAreTheDocumentedConstants() {
    ConsumerSettings s = ConsumerSettings.defaults();
    assertThat(s.connections()).isEqualTo(ConsumerSettings.DEFAULT_CONNECTIONS);
    assertThat(s.channelsPerConnection()).isEqualTo(ConsumerSettings.DEFAULT_CHANNELS);
    assertThat(s.prefetch()).isEqualTo(ConsumerSettings.DEFAULT_PREFETCH);
    assertThat(s.batchSize()).isEqualTo(ConsumerSettings.DEFAULT_BATCH_SIZE);
    assertThat(s.batchWaitMillis()).isEqualTo(ConsumerSettings.DEFAULT_BATCH_WAIT_MS);
    assertThat(s.initSchema()).isFalse();
    assertThat(s.statsIntervalSeconds()).isEqualTo(ConsumerSettings.DEFAULT_STATS_INTERVAL);
    assertThat(s.dbPoolSize()).isEqualTo(s.connections() * s.channelsPerConnection());
  }

  @Test
  void environmentOverridesDefaultsAndPoolFollowsWorkers() {
    ConsumerSettings s =
        ConsumerSettings.from(
            Env.of(
                Map.of(
                    ConsumerSettings.CONNECTIONS, "4",
                    ConsumerSettings.CHANNELS, "3",
                    ConsumerSettings.PREFETCH, "250",
                    ConsumerSettings.BATCH_SIZE, "250",
                    ConsumerSettings.BATCH_WAIT_MS, "0",
                    ConsumerSettings.INIT_SCHEMA, "true")));
    assertThat(s.workers()).isEqualTo(12);
    assertThat(s.dbPoolSize()).isEqualTo(12);
    assertThat(s.prefetch()).isEqualTo(250);
    assertThat(s.batchSize()).isEqualTo(250);
    assertThat(s.batchWaitMillis()).isZero();
    assertThat(s.initSchema()).isTrue();
  }

  @Test
  void explicitPoolSizeWins() {
    ConsumerSettings s = ConsumerSettings.from(Env.of(Map.of(ConsumerSettings.DB_POOL_SIZE, "3")));
    assertThat(s.dbPoolSize()).isEqualTo(3);
  }

  @Test
  void batchLargerThanPrefetchIsRejectedNamingBothSettings() {
    Env env = Env.of(Map.of(ConsumerSettings.PREFETCH, "100", ConsumerSettings.BATCH_SIZE, "101"));
    assertThatThrownBy(() -> ConsumerSettings.from(env))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(ConsumerSettings.BATCH_SIZE)
        .hasMessageContaining(ConsumerSettings.PREFETCH);
  }

  @Test
  void defaultBatchSizeAboveASmallPrefetchIsRejectedToo() {
    Env env = Env.of(Map.of(ConsumerSettings.PREFETCH, "10"));
    assertThatThrownBy(() -> ConsumerSettings.from(env))
        .hasMessageContaining(ConsumerSettings.BATCH_SIZE);
  }

  @Test
  void outOfRangeValuesAreRejectedNamingTheVariable() {
    assertRejected(ConsumerSettings.CONNECTIONS, "0");
    assertRejected(ConsumerSettings.CHANNELS, "-1");
    assertRejected(ConsumerSettings.PREFETCH, "65536"); // AMQP prefetch-count is 16 bits
    assertRejected(ConsumerSettings.BATCH_SIZE, "0");
    assertRejected(ConsumerSettings.BATCH_WAIT_MS, "-5");
    assertRejected(ConsumerSettings.DB_POOL_SIZE, "0");
    assertRejected(ConsumerSettings.STATS_INTERVAL, "0");
    assertRejected(ConsumerSettings.CONNECTIONS, "two");
    assertRejected(ConsumerSettings.INIT_SCHEMA, "maybe");
  }

  @Test
  void constructorValidatesToo() {
    assertThatThrownBy(() -> new ConsumerSettings(1, 1, 10, 20, 10, 1, false, 10))
        .hasMessageContaining(ConsumerSettings.BATCH_SIZE);
    assertThatThrownBy(() -> new ConsumerSettings(0, 1, 10, 5, 10, 1, false, 10))
        .hasMessageContaining(ConsumerSettings.CONNECTIONS);
  }

  private static void assertRejected(String key, String value) {
    assertThatThrownBy(() -> ConsumerSettings.from(Env.of(Map.of(key, value))))
        .as("%s=%s", key, value)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key);
  }
}
