package org.albumstore.client.internal.verify;

import java.util.ArrayList;
import java.util.List;

/**
 * The acknowledged writes: every album the run created, with what the client was told about its
 * reviews (acknowledged, or failed after its retries), the expectation the verifier checks the
 * server against. The client's own record, not the consumer's ledger of applied IDs. One {@link
 * AcknowledgedSegment} per load thread so that recording needs no lock; read only after the load
 * threads have finished.
 */
public final class AcknowledgedWrites {
  private final List<AcknowledgedSegment> segments = new ArrayList<>();

  /** A segment for one load thread. */
  public synchronized AcknowledgedSegment newSegment() {
    AcknowledgedSegment s = new AcknowledgedSegment();
    segments.add(s);
    return s;
  }

  public synchronized List<AcknowledgedSegment> segments() {
    return List.copyOf(segments);
  }

  public synchronized long albums() {
    long n = 0;
    for (AcknowledgedSegment s : segments) {
      n += s.size();
    }
    return n;
  }
}
