package org.albumstore.server.internal.read;

/** What {@link AlbumWaiters} reports to the metrics: each wait's outcome and length, rejections. */
public interface ReadWaitObserver {
  /** How a waiting read ended. */
  enum Outcome {
    /** The album appeared, found by the poller's query: 200. */
    FOUND,
    /** The album appeared, announced by the consumer that committed it: 200 without a query. */
    ANNOUNCED,
    /** The wait reached its bound without the album: 503, since it may still be on its way. */
    PENDING,
    /** The database failed while polling, or the server stopped: 503. */
    FAILED
  }

  ReadWaitObserver NONE =
      new ReadWaitObserver() {
        @Override
        public void waited(Outcome outcome, long nanos) {}

        @Override
        public void rejected() {}
      };

  void waited(Outcome outcome, long nanos);

  /** A read that would have waited got 503 because the most waiting reads were already waiting. */
  void rejected();
}
