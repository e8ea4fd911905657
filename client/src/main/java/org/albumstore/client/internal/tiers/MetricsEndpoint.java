package org.albumstore.client.internal.tiers;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.albumstore.common.http.ProbeGet;

/** A {@code GET /metrics} endpoint of the server or the consumer, read with {@link ProbeGet}. */
final class MetricsEndpoint {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private static final Map<String, String> ACCEPT = Map.of("Accept", "text/plain; version=0.0.4");

  private final URI uri;

  MetricsEndpoint(String url) {
    this.uri = URI.create(url);
  }

  public String url() {
    return uri.toString();
  }

  /**
   * @throws IOException when the endpoint does not answer, or answers anything but 200
   */
  public Scrape scrape() throws IOException {
    ProbeGet.Response r = ProbeGet.get(uri, TIMEOUT, ACCEPT);
    if (r.status() != 200) {
      throw new IOException("GET " + uri + " answered HTTP " + r.status());
    }
    return Scrape.parse(new String(r.body(), StandardCharsets.UTF_8));
  }
}
