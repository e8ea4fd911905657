package org.albumstore.client.internal.tiers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.albumstore.common.metrics.ServerStage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Real HTTP scrapes of a stand-in endpoint whose figures change between start and finish. */
class TierSamplerTest {
  private HttpServer http;
  private final AtomicReference<String> server = new AtomicReference<>();
  private final AtomicReference<String> consumer = new AtomicReference<>();

  @BeforeEach
  void start() throws Exception {
    http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext("/server/metrics", ex -> answer(ex, server.get()));
    http.createContext("/consumer/metrics", ex -> answer(ex, consumer.get()));
    http.start();
  }

  private static void answer(com.sun.net.httpserver.HttpExchange ex, String body)
      throws java.io.IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.sendResponseHeaders(200, b.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(b);
    }
  }

  @AfterEach
  void stop() {
    http.stop(0);
  }

  private String url(String side) {
    return "http://127.0.0.1:" + http.getAddress().getPort() + "/" + side + "/metrics";
  }

  private static String serverText(long n, double seconds) {
    StringBuilder b = new StringBuilder();
    for (ServerStage s : ServerStage.values()) {
      String stage = s.tag();
      b.append(timer("albumstore_write_stage_seconds", "stage=\"" + stage + "\",", n, seconds));
    }
    b.append(
        timer(
            "http_server_requests_seconds",
            "method=\"POST\",status=\"200\",uri=\"/albums\",",
            n,
            5 * seconds));
    b.append(
        timer(
            "http_server_requests_seconds",
            "method=\"GET\",status=\"200\",uri=\"/review/{albumID}\",",
            1000,
            1000));
    return b.toString();
  }

  private static String timer(String name, String labels, long n, double sumSeconds) {
    return name
        + "_bucket{"
        + labels
        + "le=\"0.01\"} "
        + n
        + "\n"
        + name
        + "_bucket{"
        + labels
        + "le=\"+Inf\"} "
        + n
        + "\n"
        + name
        + "_count{"
        + labels.replaceAll(",$", "")
        + "} "
        + n
        + "\n"
        + name
        + "_sum{"
        + labels.replaceAll(",$", "")
        + "} "
        + sumSeconds
        + "\n";
  }

  @Test
  void theReadingsAreTheDifferencesBetweenStartAndFinish() {
    server.set(serverText(100, 0.1)); // before the run: 100 writes of 1 ms per stage
    consumer.set(
        "albumstore_consumer_write_stage_seconds_count{stage=\"queue\"} 7\n"
            + "albumstore_consumer_visibility_seconds_count 7\n");
    TierSampler s = TierSampler.start(url("server"), url("consumer"));

    server.set(serverText(300, 0.5)); // the run: 200 writes of 2 ms per stage, 10 ms servlet
    consumer.set(
        "albumstore_consumer_write_stage_seconds_count{stage=\"queue\"} 207\n"
            + "albumstore_consumer_write_stage_seconds_sum{stage=\"queue\"} 1.0\n"
            + "albumstore_consumer_visibility_seconds_count 207\n"
            + "albumstore_consumer_visibility_seconds_sum 3.0\n");
    TierReadings r = s.finish();

    assertThat(r.notes()).isEmpty();
    assertThat(r.servlet().count()).isEqualTo(200); // the GETs are not writes
    assertThat(r.servlet().meanMs()).isCloseTo(10.0, within(1e-9));
    assertThat(r.serverStages())
        .containsOnlyKeys(Arrays.stream(ServerStage.values()).map(ServerStage::tag).toList());
    assertThat(r.serverStages().get("confirm").meanMs()).isCloseTo(2.0, within(1e-9));
    assertThat(r.consumerStages().get("queue").count()).isEqualTo(200);
    assertThat(r.consumerStages().get("queue").meanMs()).isCloseTo(5.0, within(1e-9));
    assertThat(r.visibility().meanMs()).isCloseTo(15.0, within(1e-9));
  }

  @Test
  void anEndpointThatIsNotThereOrNotOursLeavesANoteAndTheRestStands() {
    server.set("some_other_metric 1\n");
    TierSampler s = TierSampler.start(url("server"), "http://127.0.0.1:1/metrics");
    TierReadings r = s.finish();

    assertThat(r.servlet()).isNull();
    assertThat(r.serverStages()).isEmpty();
    assertThat(r.visibility()).isNull();
    assertThat(r.notes()).hasSize(2);
    assertThat(r.notes().get(0)).startsWith("server metrics n/a: no albumstore_write_stage");
    assertThat(r.notes().get(1)).startsWith("consumer metrics n/a: http://127.0.0.1:1/metrics");
  }

  @Test
  void noneLeavesASideOutWithoutANote() {
    TierReadings r = TierSampler.start(null, null).finish();
    assertThat(r.serverMetrics()).isEqualTo("none");
    assertThat(r.consumerMetrics()).isEqualTo("none");
    assertThat(r.notes()).isEmpty();
  }
}
