package org.albumstore.common.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class RequestStartTest {
  private static final Instant NOW = Instant.ofEpochSecond(1_700_000_000L, 500_000_000L);

  @Test
  void microsecondsMillisecondsNanosecondsAndSecondsAreToldApartByTheirForm() {
    assertThat(RequestStart.delayNanos("t=1700000000400000", NOW)).isEqualTo(100_000_000L);
    assertThat(RequestStart.delayNanos("1700000000400000", NOW)).isEqualTo(100_000_000L);
    assertThat(RequestStart.delayNanos("t=1700000000450", NOW)).isEqualTo(50_000_000L);
    assertThat(RequestStart.delayNanos("t=1700000000499999000", NOW)).isEqualTo(1_000L);
    assertThat(RequestStart.delayNanos("t=1700000000.250", NOW)).isEqualTo(250_000_000L);
    assertThat(RequestStart.delayNanos(" t=1700000000500000 ", NOW)).isZero();
  }

  @Test
  void absentMalformedFutureAndAncientSendTimesAreUnknown() {
    assertThat(RequestStart.delayNanos(null, NOW)).isEqualTo(-1);
    assertThat(RequestStart.delayNanos("", NOW)).isEqualTo(-1);
    assertThat(RequestStart.delayNanos("t=soon", NOW)).isEqualTo(-1);
    assertThat(RequestStart.delayNanos("t=1700000000600000", NOW)).isEqualTo(-1); // skew
    assertThat(RequestStart.delayNanos("t=1699999900000000", NOW)).isEqualTo(-1); // > 1 min
    assertThat(RequestStart.delayNanos("t=1700000000", NOW)).isEqualTo(-1); // whole seconds
  }

  @Test
  void theClientsValueIsReadBackAsTheTimeSinceItWasSent() {
    Instant sent = NOW.minusMillis(100);
    assertThat(RequestStart.value(sent)).isEqualTo("t=1700000000400000");
    assertThat(RequestStart.delayNanos(RequestStart.value(sent), NOW)).isEqualTo(100_000_000L);
  }
}
