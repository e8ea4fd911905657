package org.albumstore.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingTest {
  private static final Setting<Integer> N =
      Setting.integer("ALBUMSTORE_TEST_N", 5, 1, 10).withFlag("--n", "N").withHelp("A number");

  @Test
  void readsTheVariableElseTheDefault() {
    assertThat(N.read(Env.of(Map.of()))).isEqualTo(5);
    assertThat(N.read(Env.of(Map.of("ALBUMSTORE_TEST_N", " 7 ")))).isEqualTo(7);
    assertThat(N.read(Env.of(Map.of("ALBUMSTORE_TEST_N", "")))).isEqualTo(5);
    assertThat(N.isSet(Env.of(Map.of("ALBUMSTORE_TEST_N", " ")))).isFalse();
    assertThat(N.isSet(Env.of(Map.of("ALBUMSTORE_TEST_N", "7")))).isTrue();
  }

  @Test
  void aValueOutOfRangeIsAnErrorNamingTheVariable() {
    assertThatThrownBy(() -> N.read(Env.of(Map.of("ALBUMSTORE_TEST_N", "11"))))
        .hasMessageContaining("ALBUMSTORE_TEST_N")
        .hasMessageContaining("between 1 and 10");
    assertThatThrownBy(() -> N.read(Env.of(Map.of("ALBUMSTORE_TEST_N", "x"))))
        .hasMessageContaining("ALBUMSTORE_TEST_N");
  }

  @Test
  void aComputedDefaultReadsAsNullAndSaysWhatApplies() {
    Setting<Integer> pool = Setting.integer("ALBUMSTORE_TEST_POOL", "one per worker", 1, 9);
    assertThat(pool.read(Env.of(Map.of()))).isNull();
    assertThat(pool.defaultText()).isEqualTo("one per worker");
    assertThat(pool.read(Env.of(Map.of("ALBUMSTORE_TEST_POOL", "3")))).isEqualTo(3);
  }

  @Test
  void anotherDefaultKeepsNameFlagHelpAndRange() {
    Setting<Integer> other = N.withDefault(2);
    assertThat(other.read(Env.of(Map.of()))).isEqualTo(2);
    assertThat(other.defaultText()).isEqualTo("2");
    assertThat(other.variable()).isEqualTo(N.variable());
    assertThat(other.flag()).isEqualTo("--n");
    assertThat(other.help()).isEqualTo("A number");
    assertThatThrownBy(() -> other.read(Env.of(Map.of("ALBUMSTORE_TEST_N", "0"))))
        .hasMessageContaining("between 1 and 10");
  }

  @Test
  void onlyAlbumStoreVariablesAndLongFlags() {
    assertThatThrownBy(() -> Setting.text("HOME", "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Setting.text("ALBUMSTORE_X", "x").withFlag("-x", "X"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
