package org.albumstore.embedded.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EndpointTest {
  @Test
  void amqpUriWithExplicitPort() {
    assertThat(Endpoint.ofAmqpUri("amqp://guest:guest@127.0.0.1:5672/%2F"))
        .isEqualTo(new Endpoint("127.0.0.1", 5672));
  }

  @Test
  void amqpUriDefaultPortsDependOnTls() {
    assertThat(Endpoint.ofAmqpUri("amqp://u:p@broker/%2F")).isEqualTo(new Endpoint("broker", 5672));
    assertThat(Endpoint.ofAmqpUri("amqps://u:p@b-1.mq.amazonaws.com/%2F"))
        .isEqualTo(new Endpoint("b-1.mq.amazonaws.com", 5671));
  }

  @Test
  void jdbcUrlForms() {
    assertThat(Endpoint.ofJdbcUrl("jdbc:postgresql://127.0.0.1:5432/albumstore"))
        .isEqualTo(new Endpoint("127.0.0.1", 5432));
    assertThat(Endpoint.ofJdbcUrl("jdbc:postgresql://db.example.org/albumstore?sslmode=require"))
        .isEqualTo(new Endpoint("db.example.org", 5432));
    assertThat(Endpoint.ofJdbcUrl("jdbc:postgresql://h1:6000,h2:6001/db"))
        .isEqualTo(new Endpoint("h1", 6000));
    assertThat(Endpoint.ofJdbcUrl("jdbc:postgresql://[::1]:5433/db"))
        .isEqualTo(new Endpoint("::1", 5433));
    assertThat(Endpoint.ofJdbcUrl("jdbc:postgresql:albumstore"))
        .isEqualTo(new Endpoint("localhost", 5432));
  }

  @Test
  void ipv6HostsPrintBracketed() {
    assertThat(new Endpoint("::1", 5432)).hasToString("[::1]:5432");
  }

  @Test
  void rejectsWhatIsNotAnAddress() {
    assertThatThrownBy(() -> Endpoint.ofJdbcUrl("jdbc:mysql://h/db"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Endpoint.ofJdbcUrl("jdbc:postgresql://h:x/db"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Endpoint("h", 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
