package org.albumstore.client.internal.http;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import org.albumstore.client.history.ApiRequest;
import org.albumstore.client.history.ApiResponse;

/**
 * A transport that sends without blocking a thread: the seam for the event-loop workload. Tests
 * substitute a scripted one; the runnable uses {@link NettyTransport}.
 */
public interface AsyncTransport extends Transport {
  /**
   * Sends one attempt.
   *
   * @return completes with the response whatever its status, or exceptionally with an {@link
   *     java.io.IOException} when no response arrived; never with anything else
   */
  CompletableFuture<ApiResponse> sendAsync(ApiRequest request);

  /**
   * Where the workload schedules paced sends and retry backoffs: the transport's own event loops,
   * so that no thread sleeps. Tasks must be short and must never block.
   */
  ScheduledExecutorService scheduler();

  /**
   * This transport as one virtual user should use it: for a user that sends one request at a time,
   * a transport whose sends, callbacks and scheduled tasks stay on one thread and one connection
   * where the implementation can (see {@link NettyTransport#lane()}). By default this transport
   * itself.
   */
  default AsyncTransport lane() {
    return this;
  }
}
