package org.albumstore.client.internal.tiers;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.albumstore.common.metrics.ConsumerStage;
import org.albumstore.common.metrics.ServerStage;

/**
 * Builds the {@link TierTable} from the client's own figures and the metrics' differences.
 *
 * <p>The arithmetic, and why it is honest: every request-path row is measured, per write, by the
 * server: from the client's send ({@code X-Request-Start}, which the client stamps on every
 * attempt) to the servlet, then four stages that follow each other without gaps inside the
 * publisher, then Tomcat's completion of the response. Their means are summed and compared with the
 * client-observed mean; what is left, the response's way back to the client, is shown as the one
 * derived row. Its size is the test of the table: a large remainder means time the stages do not
 * explain.
 *
 * <p>After the response, the consumer's stages (queue, batch wait, apply, commit) are measured per
 * write and add up to its time to visibility, which is also measured on its own: their sum is
 * checked against it.
 */
public final class TierCalculator {
  private static final String[][] SERVER_ROWS = {
    {ServerStage.ARRIVAL.tag(), "network", "client send -> servlet in (client, network, Tomcat)"},
    {ServerStage.VALIDATE.tag(), "server", "read and validate the request"},
    {ServerStage.CHANNEL_WAIT.tag(), "server", "wait for a publisher channel"},
    {ServerStage.CONFIRM.tag(), "broker", "publish -> confirm"},
    {ServerStage.RESPOND.tag(), "server", "confirm -> response handed to Tomcat"},
    {ServerStage.COMPLETE.tag(), "server", "Tomcat completes the response (async dispatch, flush)"},
  };
  private static final String[][] CONSUMER_ROWS = {
    {ConsumerStage.QUEUE.tag(), "broker", "publish -> delivered to the consumer (in queue)"},
    {ConsumerStage.BATCH_WAIT.tag(), "consumer", "delivered -> transaction begins (batching)"},
    {ConsumerStage.APPLY.tag(), "database", "apply the batch (statements)"},
    {ConsumerStage.COMMIT.tag(), "database", "commit the batch's transaction"},
  };

  private TierCalculator() {}

  public static TierTable table(
      TierReadings r, double clientMeanMs, Double clientP99Ms, long clientCount) {
    List<String> notes = new ArrayList<>(r.notes());
    Double servlet = r.servlet() == null ? null : r.servlet().meanMs();
    Long servletCount = r.servlet() == null ? null : (long) r.servlet().count();

    List<TierTable.Row> path = new ArrayList<>();
    Double measuredSum = 0.0;
    for (String[] s : SERVER_ROWS) {
      TierTable.Row row = measured(s[1], s[2], r.serverStages().get(s[0]));
      path.add(row);
      measuredSum = add(measuredSum, row.meanMs());
    }
    TierTable.Row arrival = path.get(0);
    if (arrival.count() != null && arrival.count() == 0 && r.servlet() != null) {
      notes.add(
          "the server saw no X-Request-Start (a proxy removed it, or the server is older):"
              + " client send -> servlet in is unknown");
    }
    path.add(
        derived(
            "network",
            "response back to the client (the remainder)",
            measuredSum == null ? null : clientMeanMs - measuredSum));
    if (servlet != null && servlet > clientMeanMs) {
      notes.add(
          "the servlet mean exceeds the client mean: the server also counted requests this run"
              + " did not measure (another client, or answers to attempts the client gave up on)");
    }

    List<TierTable.Row> after = new ArrayList<>();
    Double afterSum = 0.0;
    for (String[] s : CONSUMER_ROWS) {
      TierTable.Row row = measured(s[1], s[2], r.consumerStages().get(s[0]));
      after.add(row);
      afterSum = add(afterSum, row.meanMs());
    }
    TierTable.Row visibility =
        measured("database", "publish -> visible (time to visibility)", r.visibility());

    return new TierTable(
        r.serverMetrics(),
        r.consumerMetrics(),
        clientMeanMs,
        clientP99Ms,
        clientCount,
        servlet,
        servletCount,
        path,
        measuredSum,
        after,
        afterSum,
        visibility,
        largestShare(path, clientMeanMs),
        notes);
  }

  /** The request-path row with the largest mean, and its share of the client mean. */
  static String largestShare(List<TierTable.Row> path, double clientMeanMs) {
    TierTable.Row largest = null;
    for (TierTable.Row row : path) {
      if (row.meanMs() != null && (largest == null || row.meanMs() > largest.meanMs())) {
        largest = row;
      }
    }
    if (largest == null || clientMeanMs <= 0 || path.stream().anyMatch(x -> x.meanMs() == null)) {
      return null;
    }
    return String.format(
        Locale.ROOT,
        "%s (%.1f%% of the client mean)",
        largest.label(),
        100.0 * largest.meanMs() / clientMeanMs);
  }

  private static TierTable.Row measured(String tier, String stage, Histogram h) {
    if (h == null || h.isEmpty()) {
      return new TierTable.Row(tier, stage, null, null, null, h == null ? null : 0L, false);
    }
    return new TierTable.Row(
        tier, stage, h.meanMs(), h.quantileMs(0.5), h.quantileMs(0.99), (long) h.count(), false);
  }

  private static TierTable.Row derived(String tier, String stage, Double meanMs) {
    return new TierTable.Row(tier, stage, meanMs, null, null, null, true);
  }

  /** Sum that turns null (unknown) as soon as one part is unknown. */
  private static Double add(Double sum, Double part) {
    return sum == null || part == null ? null : sum + part;
  }
}
