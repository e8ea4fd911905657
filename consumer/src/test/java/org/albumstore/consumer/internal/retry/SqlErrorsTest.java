package org.albumstore.consumer.internal.retry;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SqlErrorsTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "08000", "08001", "08003", "08006", // connection exceptions
        "57P01", "57P02", "57P03", // admin/crash shutdown, cannot connect now
        "53300", // too many connections
        "40001", "40P01", // serialization failure, deadlock
        "53100", "57014", "55P03", // disk full, query cancelled, lock not available
      })
  void connectionAndConcurrencyStatesAreTransient(String state) {
    assertThat(SqlErrors.isPoison(new SQLException("x", state))).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "23505", "23514", "23502", // unique, check, not-null violations
        "22001", "22021", "22P02", // value too long, bad encoding, invalid text representation
        "54000", // program limit exceeded (e.g. index row too large)
      })
  void valueCausedStatesArePoison(String state) {
    assertThat(SqlErrors.isPoison(new SQLException("x", state))).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"42P01", "42501", "28P01", "3D000", "XX000"})
  void errorsNoMessageCanCauseAreRetriedNotDeadLettered(String state) {
    // A missing table or a bad password must stall the consumer, not empty the queue into the DLQ.
    assertThat(SqlErrors.isPoison(new SQLException("x", state))).isFalse();
  }

  @Test
  void hikariPoolTimeoutIsTransientWhateverItsState() {
    assertThat(
            SqlErrors.isPoison(
                new SQLTransientConnectionException("pool - Connection is not available")))
        .isFalse();
    assertThat(SqlErrors.isPoison(new SQLTransientConnectionException("x", "23505"))).isFalse();
  }

  @Test
  void stateIsTakenFromTheCauseWhenTheWrapperHasNone() {
    SQLException wrapper = new SQLException("wrapped", null, new SQLException("inner", "23514"));
    assertThat(SqlErrors.isPoison(wrapper)).isTrue();
    assertThat(SqlErrors.describe(wrapper)).startsWith("SQLState 23514");
  }

  @Test
  void withoutAnyStateItIsTransient() {
    assertThat(SqlErrors.isPoison(new SQLException("io", null, new IOException("reset"))))
        .isFalse();
  }

  @Test
  void runtimeFailuresWhileBindingValuesArePoisonCheckedNonSqlAreNot() {
    assertThat(SqlErrors.isPoison(new IllegalArgumentException("bad value"))).isTrue();
    assertThat(SqlErrors.isPoison(new IOException("not sql"))).isFalse();
  }

  @Test
  void describeKeepsTheFirstLineOnly() {
    assertThat(SqlErrors.describe(new SQLException("boom\n  Detail: long", "23505")))
        .isEqualTo("SQLState 23505: boom");
  }
}
