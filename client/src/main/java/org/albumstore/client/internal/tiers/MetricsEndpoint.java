package org.albumstore.client.internal.tiers;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A {@code GET /metrics} endpoint of the server or the consumer, read with the JDK's HTTP client
 * (not the load's connection pool: a scrape must not queue behind the load, nor count in it).
 */
final class MetricsEndpoint {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final URI uri;
  private final HttpClient http;

  MetricsEndpoint(String url) {
    this.uri = URI.create(url);
    this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  }

  public String url() {
    return uri.toString();
  }

  /**
   * @throws IOException when the endpoint does not answer, or answers anything but 200
   */
  public Scrape scrape() throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .timeout(TIMEOUT)
            .header("Accept", "text/plain; version=0.0.4")
            .GET()
            .build();
    HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException("GET " + uri + " answered HTTP " + r.statusCode());
    }
    return Scrape.parse(r.body());
  }
}
