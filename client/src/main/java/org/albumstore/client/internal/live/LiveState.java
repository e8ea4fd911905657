package org.albumstore.client.internal.live;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The live page's JSON: what {@link RunWatch} knows now, read once a second by the page. */
final class LiveState {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final RunWatch watch;
  private final long startNanos = System.nanoTime();

  LiveState(RunWatch watch) {
    this.watch = watch;
  }

  byte[] json() {
    try {
      ObjectNode n = JSON.createObjectNode();
      n.put("phase", watch.phase().word());
      n.put("seconds", (System.nanoTime() - startNanos) / 1e9);
      n.put("inFlight", watch.inFlight());
      n.put("queueDepth", watch.queueDepth());
      ObjectNode verify = n.putObject("verify");
      verify.put("done", watch.verifyDone());
      verify.put("total", watch.verifyTotal());
      n.set("types", JSON.valueToTree(watch.types()));
      n.set("points", JSON.valueToTree(watch.points()));
      String summary = watch.summaryJson();
      n.set("summary", summary == null ? null : JSON.readTree(summary));
      n.put("report", watch.reportWritten() ? WatchServer.REPORT.substring(1) : null);
      return JSON.writeValueAsBytes(n);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
