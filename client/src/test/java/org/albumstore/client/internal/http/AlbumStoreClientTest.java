package org.albumstore.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AlbumStoreClientTest {
  /** The streaming read gives what a tree's {@code path("albumID").asText(null)} gave. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "NULL",
      value = {
        "{\"albumID\":\"abc-1\",\"imageSize\":\"3471\"} | abc-1",
        "{\"imageSize\":\"3471\",\"albumID\":\"abc-1\"} | abc-1",
        "{\"x\":[1,{\"albumID\":\"inner\"}],\"albumID\":\"outer\"} | outer",
        "{\"albumID\":{\"nested\":\"no\"}} | NULL",
        "{\"albumID\":[\"no\"]} | NULL",
        "{\"albumID\":null} | NULL",
        "{\"albumID\":42} | 42",
        "{\"albumID\":\"a\",\"albumID\":\"b\"} | b",
        "{\"imageSize\":\"3471\"} | NULL",
        "{\"albumID\":\"abc-1\", | NULL",
        "[\"albumID\"] | NULL",
        "\"albumID\" | NULL",
        "not json | NULL",
      })
  void readsTheAlbumIdOfAWholeJsonObjectOnly(String body, String expected) {
    assertThat(AlbumStoreClient.albumIdOf(body.getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(
      nullValues = "NULL",
      value = {"NULL", "''"})
  void noBodyHasNoAlbumId(String body) {
    byte[] bytes = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
    assertThat(AlbumStoreClient.albumIdOf(bytes)).isNull();
  }
}
