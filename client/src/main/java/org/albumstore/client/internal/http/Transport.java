package org.albumstore.client.internal.http;

import java.io.IOException;
import org.albumstore.client.history.ApiRequest;
import org.albumstore.client.history.ApiResponse;

/**
 * Sends one attempt of a request. The seam between the retry logic and the wire: tests substitute a
 * scripted transport, the runnable uses {@link ApacheTransport}.
 */
public interface Transport extends AutoCloseable {
  /**
   * @return the response, whatever its status
   * @throws IOException when no response arrived (refused, reset, timed out)
   */
  ApiResponse send(ApiRequest request) throws IOException;

  @Override
  default void close() throws IOException {}
}
