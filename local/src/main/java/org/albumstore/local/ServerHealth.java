package org.albumstore.local;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Waits until the started server reports both its broker and its database UP ({@code GET /health});
 * a consumer's {@code /health} on its metrics port answers the same way (and adds "consuming"). The
 * server starts even when they are down (it answers 503 until they are up), which is right for a
 * server but would turn a load run into thousands of 503s; the launcher would rather say once what
 * is wrong.
 */
final class ServerHealth {
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

  private ServerHealth() {}

  /**
   * @return the last health body, e.g. {@code {"status":"UP","broker":"UP","database":"UP"}}
   * @throws IllegalStateException if it is not UP within {@code limit}, with the last answer
   */
  static String awaitUp(String baseUrl, Duration limit) throws InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(baseUrl + "/health")).timeout(REQUEST_TIMEOUT).build();
    long deadline = System.nanoTime() + limit.toNanos();
    String last;
    while (true) {
      try {
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return r.body();
        }
        last = r.statusCode() + " " + r.body();
      } catch (IOException e) {
        last = e.toString();
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "the instance at "
                + baseUrl
                + " did not report its broker and database UP within "
                + limit.toSeconds()
                + " s; last answer of GET /health: "
                + last);
      }
      Thread.sleep(POLL.toMillis());
    }
  }
}
