package org.albumstore.client.internal.verify;

import java.util.ArrayList;
import java.util.List;

/**
 * Every album the run created, with what the client was told about its reviews: the expectation the
 * verifier checks the server against. One {@link LedgerSegment} per load thread so that recording
 * needs no lock; read only after the load threads have finished.
 */
public final class AlbumLedger {
  private final List<LedgerSegment> segments = new ArrayList<>();

  /** A segment for one load thread. */
  public synchronized LedgerSegment newSegment() {
    LedgerSegment s = new LedgerSegment();
    segments.add(s);
    return s;
  }

  public synchronized List<LedgerSegment> segments() {
    return List.copyOf(segments);
  }

  public synchronized long albums() {
    long n = 0;
    for (LedgerSegment s : segments) {
      n += s.size();
    }
    return n;
  }
}
