package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.server.internal.read.ReadGroupSettings;
import org.albumstore.server.internal.read.ReadWaitSettings;
import org.junit.jupiter.api.Test;

class ServerSettingsTest {

  @Test
  void defaultsAreTheDocumentedOnes() {
    ServerSettings s = ServerSettings.defaults();
    assertThat(s)
        .isEqualTo(
            new ServerSettings(
                8080,
                32,
                4,
                256,
                1024 * 1024,
                3,
                5000,
                20_000,
                10 * 1024 * 1024,
                8,
                24,
                1000,
                new ReadWaitSettings(5000, 60_000, 2000, 1000, 5),
                new ReadCacheSettings(50_000, 0, 1000),
                new ReadGroupSettings(1, 256, 3)));
  }

  @Test
  void theVariablesBeforeTheBundleRenameAreStillReadAndTheCurrentOnesWin() {
    assertThat(
            ServerSettings.from(Env.of(Map.of("ALBUMSTORE_PUBLISH_BATCH_MAX", "3")))
                .publishBundleMax())
        .isEqualTo(3);
    assertThat(
            ServerSettings.from(Env.of(Map.of("ALBUMSTORE_PUBLISH_BATCH_BYTES", "2048")))
                .publishBundleBytes())
        .isEqualTo(2048);
    assertThat(
            ServerSettings.from(
                    Env.of(
                        Map.of(
                            "ALBUMSTORE_PUBLISH_BATCH_MAX", "3",
                            "ALBUMSTORE_PUBLISH_BUNDLE_MAX", "5")))
                .publishBundleMax())
        .isEqualTo(5);
    assertThatThrownBy(
            () -> ServerSettings.from(Env.of(Map.of("ALBUMSTORE_PUBLISH_BATCH_MAX", "0"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ALBUMSTORE_PUBLISH_BUNDLE_MAX");
  }

  @Test
  void theLoneQueriesFitTheReadPoolBesideTheReaders() {
    ReadGroupSettings three = new ReadGroupSettings(1, 256, 3);
    assertThat(three.onPool(8)).isEqualTo(three);
    assertThat(three.onPool(3)).isEqualTo(new ReadGroupSettings(1, 256, 2));
    assertThat(three.onPool(2)).isEqualTo(new ReadGroupSettings(1, 256, 1));
    assertThat(new ReadGroupSettings(2, 256, 3).onPool(2))
        .isEqualTo(new ReadGroupSettings(2, 256, 1));
  }

  @Test
  void everySettingIsReadFromItsVariableAndRoundTripsThroughTheMap() {
    Map<String, String> env =
        Map.ofEntries(
            Map.entry(CommonSettings.HTTP_PORT.variable(), "0"),
            Map.entry(ServerSettings.HTTP_THREADS.variable(), "16"),
            Map.entry(ServerSettings.PUBLISH_CHANNELS.variable(), "2"),
            Map.entry(ServerSettings.PUBLISH_BUNDLE_MAX.variable(), "1"),
            Map.entry(ServerSettings.PUBLISH_BUNDLE_BYTES.variable(), "65536"),
            Map.entry(ServerSettings.MESSAGE_VERSION.variable(), "1"),
            Map.entry(ServerSettings.CONFIRM_TIMEOUT_MS.variable(), "750"),
            Map.entry(ServerSettings.PUBLISH_QUEUE_MAX.variable(), "10"),
            Map.entry(ServerSettings.MAX_IMAGE_BYTES.variable(), "1000"),
            Map.entry(ServerSettings.DB_POOL_SIZE.variable(), "3"),
            Map.entry(ServerSettings.READ_INLINE_MAX.variable(), "5"),
            Map.entry(ServerSettings.READ_QUEUE_MAX.variable(), "40"),
            Map.entry(ReadWaitSettings.MAX_WAIT_MS.variable(), "300"),
            Map.entry(ReadWaitSettings.WINDOW_MS.variable(), "2000"),
            Map.entry(ReadWaitSettings.CLOCK_SKEW_MS.variable(), "0"),
            Map.entry(ReadWaitSettings.MAX_WAITERS.variable(), "7"),
            Map.entry(ReadWaitSettings.POLL_INTERVAL_MS.variable(), "20"),
            Map.entry(ReadCacheSettings.ALBUMS.variable(), "0"),
            Map.entry(ReadCacheSettings.COUNTS.variable(), "100"),
            Map.entry(ReadCacheSettings.COUNTS_MAX_AGE_MS.variable(), "250"),
            Map.entry(ReadGroupSettings.READERS.variable(), "3"),
            Map.entry(ReadGroupSettings.GROUP_MAX.variable(), "17"),
            Map.entry(ReadGroupSettings.LONE_MAX.variable(), "2"));
    ServerSettings s = ServerSettings.from(Env.of(env));
    assertThat(s)
        .isEqualTo(
            new ServerSettings(
                0,
                16,
                2,
                1,
                65536,
                1,
                750,
                10,
                1000,
                3,
                5,
                40,
                new ReadWaitSettings(300, 2000, 0, 7, 20),
                new ReadCacheSettings(0, 100, 250),
                new ReadGroupSettings(3, 17, 2)));
    Map<String, String> resolved = ServerSettings.resolve(Env.of(env));
    assertThat(resolved).containsAllEntriesOf(env);
    assertThat(ServerSettings.from(Env.of(resolved))).isEqualTo(s);
  }

  @Test
  void aBadValueIsAnErrorNamingTheVariable() {
    assertThatThrownBy(
            () ->
                ServerSettings.from(
                    Env.of(Map.of(ServerSettings.PUBLISH_CHANNELS.variable(), "0"))))
        .hasMessageContaining(ServerSettings.PUBLISH_CHANNELS.variable());
    assertThatThrownBy(
            () ->
                ServerSettings.from(
                    Env.of(Map.of(ServerSettings.CONFIRM_TIMEOUT_MS.variable(), "soon"))))
        .hasMessageContaining(ServerSettings.CONFIRM_TIMEOUT_MS.variable());
    assertThatThrownBy(
            () ->
                ServerSettings.from(
                    Env.of(Map.of(ServerSettings.MAX_IMAGE_BYTES.variable(), "999999999"))))
        .hasMessageContaining(ServerSettings.MAX_IMAGE_BYTES.variable());
    assertThatThrownBy(
            () ->
                ServerSettings.from(
                    Env.of(Map.of(ReadWaitSettings.POLL_INTERVAL_MS.variable(), "0"))))
        .hasMessageContaining(ReadWaitSettings.POLL_INTERVAL_MS.variable());
    // Only versions a consumer of this release can read: 3 is no version at all.
    assertThatThrownBy(
            () ->
                ServerSettings.from(Env.of(Map.of(ServerSettings.MESSAGE_VERSION.variable(), "4"))))
        .hasMessageContaining(ServerSettings.MESSAGE_VERSION.variable());
  }
}
