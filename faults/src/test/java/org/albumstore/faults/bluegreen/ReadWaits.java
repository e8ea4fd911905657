package org.albumstore.faults.bluegreen;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.albumstore.embedded.testing.Scrapes;
import org.albumstore.faults.harness.ServerProcess;

/**
 * How one server's reads of new albums ended so far, from its own metrics ({@code
 * albumstore_read_wait_seconds_count} by outcome, and the announcements it heard): what shows
 * whether the read path held while the server published to green and blue's consumers applied what
 * blue still held. Such an album's announcement goes out on blue, which the server no longer hears;
 * its read is then answered by the waiters' poll of the database ({@code found}) instead of the
 * announcement ({@code announced}), or 503 after the bound ({@code pending}).
 *
 * @param label which server, and when
 */
public record ReadWaits(
    String label, long found, long announced, long pending, long failed, long heard) {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** A scrape of {@code server}'s {@code /metrics} (served with the API, the default). */
  public static ReadWaits of(String label, ServerProcess server) throws Exception {
    HttpRequest get =
        HttpRequest.newBuilder(URI.create(server.baseUrl() + "/metrics"))
            .timeout(Duration.ofSeconds(10))
            .build();
    String text = HTTP.send(get, HttpResponse.BodyHandlers.ofString()).body();
    return new ReadWaits(
        label,
        waits(text, "found"),
        waits(text, "announced"),
        waits(text, "pending"),
        waits(text, "failed"),
        (long)
            Scrapes.sum(
                text, "albumstore_read_announcements_total", Map.of("outcome", "received")));
  }

  private static long waits(String text, String outcome) {
    return (long)
        Scrapes.sum(text, "albumstore_read_wait_seconds_count", Map.of("outcome", outcome));
  }

  @Override
  public String toString() {
    return label
        + ": reads that waited for their album: "
        + found
        + " found by the poll, "
        + announced
        + " woken by an announcement, "
        + pending
        + " 503 after the bound, "
        + failed
        + " failed; "
        + heard
        + " announcements heard";
  }
}
