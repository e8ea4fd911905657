package org.albumstore.server.internal.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AlbumUploadTest {

  @Test
  void theProfileCharsetDefaultsToUtf8AndFollowsTheContentType() throws HttpProblem {
    assertThat(AlbumUpload.charsetOf(null)).isEqualTo(StandardCharsets.UTF_8);
    assertThat(AlbumUpload.charsetOf("text/plain")).isEqualTo(StandardCharsets.UTF_8);
    assertThat(AlbumUpload.charsetOf("text/plain; charset=ISO-8859-1"))
        .isEqualTo(StandardCharsets.ISO_8859_1);
    assertThat(AlbumUpload.charsetOf("application/json;CHARSET=\"utf-16\""))
        .isEqualTo(StandardCharsets.UTF_16);
  }

  @Test
  void anUnknownCharsetIsABadRequest() {
    assertThatThrownBy(() -> AlbumUpload.charsetOf("text/plain; charset=klingon-8"))
        .isInstanceOfSatisfying(HttpProblem.class, p -> assertThat(p.status()).isEqualTo(400));
  }
}
