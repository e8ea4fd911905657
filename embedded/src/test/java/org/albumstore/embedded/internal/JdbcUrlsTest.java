package org.albumstore.embedded.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JdbcUrlsTest {
  @Test
  void readsAndReplacesTheDatabaseKeepingParameters() {
    String url = "jdbc:postgresql://127.0.0.1:5432/albumstore?sslmode=disable";
    assertThat(JdbcUrls.database(url)).isEqualTo("albumstore");
    assertThat(JdbcUrls.withDatabase(url, "postgres"))
        .isEqualTo("jdbc:postgresql://127.0.0.1:5432/postgres?sslmode=disable");
    assertThat(JdbcUrls.withDatabase("jdbc:postgresql://h/albumstore", "albumstore_it"))
        .isEqualTo("jdbc:postgresql://h/albumstore_it");
  }

  @Test
  void masksPasswordParameters() {
    assertThat(JdbcUrls.redact("jdbc:postgresql://h/db?user=a&password=s3cret&ssl=true"))
        .isEqualTo("jdbc:postgresql://h/db?user=a&password=***&ssl=true");
  }

  @Test
  void urlWithoutDatabaseIsRejected() {
    assertThatThrownBy(() -> JdbcUrls.database("jdbc:postgresql://h:5432/"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
