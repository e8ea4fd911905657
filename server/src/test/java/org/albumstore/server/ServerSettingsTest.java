package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Keys;
import org.junit.jupiter.api.Test;

class ServerSettingsTest {

  @Test
  void defaultsAreTheDocumentedOnes() {
    ServerSettings s = ServerSettings.defaults();
    assertThat(s)
        .isEqualTo(
            new ServerSettings(8080, 200, 4, 256, 1024 * 1024, 5000, 20_000, 10 * 1024 * 1024, 8));
  }

  @Test
  void everySettingIsReadFromItsVariableAndRoundTripsThroughTheMap() {
    Map<String, String> env =
        Map.of(
            Keys.HTTP_PORT, "0",
            ServerSettings.HTTP_THREADS, "16",
            ServerSettings.PUBLISH_CHANNELS, "2",
            ServerSettings.PUBLISH_BATCH_MAX, "1",
            ServerSettings.PUBLISH_BATCH_BYTES, "65536",
            ServerSettings.CONFIRM_TIMEOUT_MS, "750",
            ServerSettings.PUBLISH_QUEUE_MAX, "10",
            ServerSettings.MAX_IMAGE_BYTES, "1000",
            ServerSettings.DB_POOL_SIZE, "3");
    ServerSettings s = ServerSettings.from(Env.of(env));
    assertThat(s).isEqualTo(new ServerSettings(0, 16, 2, 1, 65536, 750, 10, 1000, 3));
    assertThat(s.asEnvMap()).isEqualTo(env);
    assertThat(ServerSettings.from(Env.of(s.asEnvMap()))).isEqualTo(s);
  }

  @Test
  void aBadValueIsAnErrorNamingTheVariable() {
    assertThatThrownBy(
            () -> ServerSettings.from(Env.of(Map.of(ServerSettings.PUBLISH_CHANNELS, "0"))))
        .hasMessageContaining(ServerSettings.PUBLISH_CHANNELS);
    assertThatThrownBy(
            () -> ServerSettings.from(Env.of(Map.of(ServerSettings.CONFIRM_TIMEOUT_MS, "soon"))))
        .hasMessageContaining(ServerSettings.CONFIRM_TIMEOUT_MS);
    assertThatThrownBy(
            () -> ServerSettings.from(Env.of(Map.of(ServerSettings.MAX_IMAGE_BYTES, "999999999"))))
        .hasMessageContaining(ServerSettings.MAX_IMAGE_BYTES);
  }
}
