package org.albumstore.client.history;

import java.time.Duration;

/**
 * What came back for one attempt.
 *
 * @param status the HTTP status code
 * @param body the response body (bounded in size by the transport)
 * @param retryAfter the server's {@code Retry-After}, or null when absent or unreadable
 */
public record ApiResponse(int status, byte[] body, Duration retryAfter) {
  public boolean isSuccess() {
    return status >= 200 && status < 300;
  }
}
