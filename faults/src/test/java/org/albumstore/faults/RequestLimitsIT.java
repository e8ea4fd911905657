package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.albumstore.faults.battery.RawHttp;
import org.albumstore.faults.battery.RawRequest;
import org.albumstore.faults.harness.ApiClient;
import org.albumstore.faults.harness.ApiClient.Reply;
import org.albumstore.faults.harness.Bodies;
import org.albumstore.faults.harness.Multipart;
import org.albumstore.faults.harness.Stack;
import org.albumstore.faults.harness.Summary;
import org.albumstore.server.ServerSettings;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;

/**
 * Security basics: request size limits. An image above the limit, a body declared far above it
 * (refused from the header alone, before any of it is read), an overlong request line and too many
 * headers are all refused with a 4xx and a JSON {@code msg}, and the server keeps serving.
 */
class RequestLimitsIT {
  private static final int MAX_IMAGE = 64 * 1024;

  @Test
  void oversizedRequestsAreRefusedQuicklyAndTheServerKeepsServing() throws Exception {
    try (Stack stack = Stack.create("sec-size")) {
      stack.startServer(
          Map.of(ServerSettings.MAX_IMAGE_BYTES.variable(), Integer.toString(MAX_IMAGE)));
      int port = stack.server().port();
      List<String> results = new ArrayList<>();
      try (ApiClient api = new ApiClient(stack.server().baseUrl(), 4, Timeout.ofSeconds(15));
          RawHttp http = new RawHttp(port)) {
        Reply image =
            api.postAlbum(
                null,
                Multipart.album(
                    Multipart.image(MAX_IMAGE + 1), Multipart.jsonProfile("a", "t", "1")));
        assertError(image.status(), image.body(), 413);
        results.add("image of limit+1 bytes: " + image.status());

        // Declared far beyond the limit, body never sent: refused from the header alone.
        for (long declared : List.of(5L << 20, 10L << 30)) {
          long t0 = System.nanoTime();
          RawHttp.Response r =
              http.truncated(
                  new RawRequest("POST", "/albumstore/albums")
                      .noContentLength()
                      .header("Content-Type", Multipart.CONTENT_TYPE)
                      .header("Content-Length", Long.toString(declared)),
                  Integer.MAX_VALUE);
          long ms = (System.nanoTime() - t0) / 1_000_000;
          assertError(r.status(), r.text(), 413);
          assertThat(ms).as("ms to refuse a declared " + declared + "-byte body").isLessThan(5_000);
          results.add("declared " + declared + " bytes: " + r.status() + " in " + ms + " ms");
        }
        RawHttp.Response longLine =
            http.exchange(new RawRequest("GET", "/albumstore/albums/" + "a".repeat(10_000)));
        assertThat(longLine.status()).isBetween(400, 431);
        assertThat(Bodies.hasJsonMsg(longLine.text())).as(longLine.text()).isTrue();
        RawRequest manyHeaders = new RawRequest("GET", "/albumstore/health");
        for (int i = 0; i < 150; i++) {
          manyHeaders.header("X-H" + i, "v");
        }
        RawHttp.Response tooMany = http.exchange(manyHeaders);
        assertThat(tooMany.status()).isBetween(400, 431);
        results.add(
            "10 KB request line: " + longLine.status() + ", 150 headers: " + tooMany.status());

        assertThat(api.get("/health").status())
            .as("health after the oversized requests")
            .isEqualTo(200);
      }
      Summary.record(
          "security (size limits): " + String.join("; ", results) + "; server still healthy");
    }
  }

  private static void assertError(int status, String body, int expected) {
    assertThat(status).as(body).isEqualTo(expected);
    assertThat(Bodies.hasJsonMsg(body)).as(body).isTrue();
    assertThat(Bodies.internalDetail(body)).as(body).isNull();
  }
}
