package org.albumstore.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link AlbumStoreConsumer#metricsUrl()}: the address a client on this machine reaches. */
class MetricsUrlTest {

  @Test
  void aBoundAddressIsUsedAsItIs() {
    assertThat(AlbumStoreConsumer.metricsUrl("127.0.0.1", 9091))
        .isEqualTo("http://127.0.0.1:9091/metrics");
    assertThat(AlbumStoreConsumer.metricsUrl("10.0.0.5", 1234))
        .isEqualTo("http://10.0.0.5:1234/metrics");
  }

  @Test
  void everyAddressIsReachedOnLoopback() {
    assertThat(AlbumStoreConsumer.metricsUrl("0.0.0.0", 9091))
        .isEqualTo("http://127.0.0.1:9091/metrics");
    assertThat(AlbumStoreConsumer.metricsUrl("::", 9091))
        .isEqualTo("http://127.0.0.1:9091/metrics");
  }

  @Test
  void anIpv6AddressIsBracketed() {
    assertThat(AlbumStoreConsumer.metricsUrl("::1", 9091)).isEqualTo("http://[::1]:9091/metrics");
  }
}
