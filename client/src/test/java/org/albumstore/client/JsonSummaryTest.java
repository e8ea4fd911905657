package org.albumstore.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.albumstore.client.internal.report.SampleRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonSummaryTest {
  @Test
  void theSummaryRoundTripsThroughItsFile(@TempDir Path dir) throws Exception {
    RunSummary s = SampleRuns.summary(2);
    Path file = dir.resolve("summary.json");
    JsonSummary.write(s, file);
    assertThat(JsonSummary.read(file)).isEqualTo(s);
  }

  @Test
  void theFieldNamesAreTheDocumentedVocabulary(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("summary.json");
    JsonSummary.write(SampleRuns.summary(0), file);
    JsonNode json = new ObjectMapper().readTree(file.toFile());
    assertThat(json.path("throughput").asDouble()).isEqualTo(3000.0);
    assertThat(json.path("requests").get(0).path("type").asText()).isEqualTo("POST /albums");
    assertThat(json.path("requests").get(0).path("p99Ms").asDouble()).isEqualTo(6.0);
    assertThat(json.path("allWrites").path("p999Ms").asDouble()).isEqualTo(9.5);
    assertThat(json.path("broker").path("maxDepth").asLong()).isEqualTo(120);
    assertThat(json.path("verification").path("status").asText()).isEqualTo("ok");
    assertThat(json.path("failures").path("POST /review/dislike: 503").asLong()).isEqualTo(1);
    assertThat(json.path("exitCode").asInt()).isZero();
    JsonNode tiers = json.path("tiers");
    assertThat(tiers.path("clientMeanMs").asDouble()).isEqualTo(2.5);
    assertThat(tiers.path("servletMeanMs").asDouble()).isEqualTo(2.0, within(1e-9));
    assertThat(tiers.path("requestPath").get(3).path("stage").asText())
        .isEqualTo("publish -> confirm");
    assertThat(tiers.path("requestPath").get(3).path("meanMs").asDouble())
        .isEqualTo(1.0, within(1e-9));
    assertThat(tiers.path("afterResponse").get(0).path("tier").asText()).isEqualTo("broker");
    assertThat(tiers.path("visibility").path("meanMs").asDouble()).isEqualTo(10.0, within(1e-9));
    assertThat(json.toString()).doesNotContain("NaN");
  }
}
