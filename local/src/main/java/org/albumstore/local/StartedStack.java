package org.albumstore.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.consumer.AlbumStoreConsumer;
import org.albumstore.consumer.ConsumerCounters;
import org.albumstore.consumer.ConsumerSettings;
import org.albumstore.embedded.Resolved;
import org.albumstore.embedded.Source;
import org.albumstore.server.AlbumStoreServer;

/**
 * The four running parts, and the words for them: one line each as they start, and the report after
 * the load that says where each part came from (configured, local or embedded) and what the
 * consumer applied.
 */
record StartedStack(
    Resolved<DatabaseSettings> database,
    Resolved<AmqpSettings> broker,
    AlbumStoreServer server,
    AlbumStoreConsumer consumer,
    ConsumerSettings consumerSettings,
    String consumerMetricsUrl) {

  /** The file, in the client's output directory, that records where each part came from. */
  static final String REPORT_FILE = "stack.txt";

  static String databaseLine(Resolved<DatabaseSettings> database) {
    return database.description(); // e.g. "database: local PostgreSQL at 127.0.0.1:5432, ..."
  }

  static String brokerLine(Resolved<AmqpSettings> broker) {
    return broker.description() + ", queue " + broker.settings().queue();
  }

  static String serverLine(AlbumStoreServer server) {
    return "server: embedded Tomcat at " + server.baseUrl() + ", its broker and database UP";
  }

  String consumerLine() {
    return String.format(
        Locale.ROOT,
        "consumer: %d connections x %d channels on queue %s, prefetch %d, batches of up to %d%s",
        consumerSettings.connections(),
        consumerSettings.channelsPerConnection(),
        broker.settings().queue(),
        consumerSettings.prefetch(),
        consumerSettings.batchSize(),
        consumerMetricsUrl == null ? "" : ", metrics at " + consumerMetricsUrl);
  }

  /** After the load: each part and its source, and the consumer's totals. */
  List<String> reportLines() {
    List<String> lines = new ArrayList<>();
    lines.add(databaseLine(database));
    lines.add(brokerLine(broker));
    lines.add(serverLine(server));
    lines.add(consumerLine());
    ConsumerCounters c = consumer.counters();
    lines.add(
        String.format(
            Locale.ROOT,
            "consumer: applied %d messages (%d reviews, %d new albums) in %d transactions;"
                + " %d dead-lettered, %d redelivered",
            c.messagesApplied(),
            c.reviewsApplied(),
            c.albumsInserted(),
            c.transactions(),
            c.deadLettered(),
            c.redelivered()));
    return lines;
  }

  /** Whether a part is someone else's server, which the launcher does not stop. */
  boolean leavesServersRunning() {
    return database.source() != Source.EMBEDDED || broker.source() != Source.EMBEDDED;
  }

  /** Writes the report beside the client's summary.json: where its figures came from. */
  static void writeReport(Path dir, List<String> lines) throws IOException {
    Files.write(dir.resolve(REPORT_FILE), lines);
  }
}
