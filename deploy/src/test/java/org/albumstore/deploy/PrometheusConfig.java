package org.albumstore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The project's {@code observability/prometheus.yml} and rules, copied for a test's own Prometheus:
 * the scrape and evaluation intervals shortened to 1 s, every job's targets file naming the test's
 * ports. Nothing else changes, so what is proven is the file an operator deploys.
 */
final class PrometheusConfig {
  private static final String DEPLOYED_INTERVAL = "15s";

  private PrometheusConfig() {}

  /**
   * Writes the configuration under {@code dir} and returns the path of its {@code prometheus.yml}.
   *
   * @param targets per job name, its one {@code host:port}
   */
  static Path write(Path dir, Map<String, String> targets) throws IOException {
    Path source = PrometheusRulesIT.OBSERVABILITY.resolve("prometheus.yml");
    String yml = Files.readString(source);
    for (String key : new String[] {"scrape_interval", "evaluation_interval"}) {
      String line = "  " + key + ": " + DEPLOYED_INTERVAL;
      assertThat(yml).as(source.toString()).contains(line);
      yml = yml.replace(line, "  " + key + ": 1s");
    }
    Files.createDirectories(dir.resolve("rules"));
    Files.createDirectories(dir.resolve("targets"));
    Path config = Files.writeString(dir.resolve("prometheus.yml"), yml);
    Files.copy(PrometheusRulesIT.RULES, dir.resolve("rules").resolve("albumstore.rules.yml"));
    for (Map.Entry<String, String> job : targets.entrySet()) {
      String file = "targets/" + job.getKey() + ".json";
      assertThat(yml).as("the job %s reads %s", job.getKey(), file).contains(file);
      Files.writeString(
          dir.resolve(file), "[{\"targets\": [\"" + job.getValue() + "\"], \"labels\": {}}]\n");
    }
    return config;
  }
}
