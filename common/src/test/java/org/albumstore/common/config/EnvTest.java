package org.albumstore.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvTest {

  @Test
  void overridesWinOverEnvironmentWhichWinsOverDefault() {
    Env env = Env.of(Map.of("A", "env", "B", "env")).withOverrides(Map.of("A", "flag"));
    assertThat(env.get("A", "d")).isEqualTo("flag");
    assertThat(env.get("B", "d")).isEqualTo("env");
    assertThat(env.get("C", "d")).isEqualTo("d");
  }

  @Test
  void blankValueMeansUnset() {
    assertThat(Env.of(Map.of("A", "  ")).get("A", "d")).isEqualTo("d");
  }

  @Test
  void badNumberNamesTheVariable() {
    Env env = Env.of(Map.of("ALBUMSTORE_X", "ten"));
    assertThatThrownBy(() -> env.getInt("ALBUMSTORE_X", 1, 1, 100))
        .hasMessageContaining("ALBUMSTORE_X")
        .hasMessageContaining("ten");
  }

  @Test
  void numberOutOfRangeIsRejected() {
    Env env = Env.of(Map.of("N", "0"));
    assertThatThrownBy(() -> env.getInt("N", 1, 1, 100)).hasMessageContaining("between 1 and 100");
    assertThat(Env.of(Map.of("N", "42")).getInt("N", 1, 1, 100)).isEqualTo(42);
  }

  @Test
  void booleansAcceptTheUsualSpellingsOnly() {
    assertThat(Env.of(Map.of("B", "yes")).getBoolean("B", false)).isTrue();
    assertThat(Env.of(Map.of("B", "off")).getBoolean("B", true)).isFalse();
    assertThatThrownBy(() -> Env.of(Map.of("B", "maybe")).getBoolean("B", true))
        .hasMessageContaining("true or false");
  }

  @Test
  void amqpSettingsDeriveTopologyNamesAndHidePassword() {
    AmqpSettings s =
        AmqpSettings.from(
            Env.of(
                Map.of(
                    CommonSettings.AMQP_URI.variable(),
                        "amqps://user:s3cret@b-1.mq.example:5671/%2F",
                    CommonSettings.QUEUE.variable(), "q1",
                    CommonSettings.QUEUE_TYPE.variable(), "quorum")));
    assertThat(s.tls()).isTrue();
    assertThat(s.queueType()).isEqualTo(AmqpSettings.QueueType.QUORUM);
    assertThat(s.deadLetterQueue()).isEqualTo("q1.dlq");
    assertThat(s.toString()).doesNotContain("s3cret").contains("user:***@");
  }

  @Test
  void amqpDefaultsPointAtLocalBroker() {
    AmqpSettings s = AmqpSettings.from(Env.of(Map.of()));
    assertThat(s.uri()).isEqualTo(CommonSettings.AMQP_URI.defaultValue());
    assertThat(s.queueType()).isEqualTo(AmqpSettings.QueueType.CLASSIC);
  }

  @Test
  void wrongSchemeAndQueueTypeAreRejected() {
    assertThatThrownBy(
            () ->
                AmqpSettings.from(
                    Env.of(Map.of(CommonSettings.AMQP_URI.variable(), "http://x:y@host/"))))
        .hasMessageContaining("amqp://")
        .hasMessageNotContaining(":y@");
    assertThatThrownBy(
            () -> AmqpSettings.from(Env.of(Map.of(CommonSettings.QUEUE_TYPE.variable(), "stream"))))
        .hasMessageContaining("classic or quorum");
  }

  @Test
  void databaseSettingsNeverPrintPassword() {
    DatabaseSettings s =
        DatabaseSettings.from(Env.of(Map.of(CommonSettings.DB_PASSWORD.variable(), "hunter2")));
    assertThat(s.password()).isEqualTo("hunter2");
    assertThat(s.jdbcUrl()).isEqualTo(CommonSettings.JDBC_URL.defaultValue());
    assertThat(s.toString()).doesNotContain("hunter2");
  }
}
