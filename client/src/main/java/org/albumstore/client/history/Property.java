package org.albumstore.client.history;

/** The promises a history is judged against (client/README.md's table says when each is broken). */
public enum Property {
  /** Every acknowledged write is in PostgreSQL. */
  NO_LOST_WRITE("no lost write"),
  /** No write is applied more than once: a counter never exceeds the ledger's applied reviews. */
  NO_DUPLICATE("no duplicate"),
  /** Nothing is in PostgreSQL that no request asked for; a write that may have applied may be. */
  NO_PHANTOM("no phantom"),
  /** A GET /albums/{id} sent after its POST's 200 answers the album. */
  READ_YOUR_WRITES("read-your-writes"),
  /** One process's reads of one album's counts never go backwards. */
  MONOTONIC_COUNTS("monotonic counts"),
  /** A count never exceeds the writes that may have been applied when the GET was answered. */
  BOUNDED_COUNTS("bounded counts");

  private final String label;

  Property(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
