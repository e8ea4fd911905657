package org.albumstore.client.internal.http;

import org.albumstore.client.history.ApiRequest;
import org.albumstore.client.history.ApiResponse;

/**
 * The outcome of a logical request after all its attempts.
 *
 * @param request what was sent
 * @param response the last response, or null when the last attempt got no response
 * @param failure the exception's simple class name when the last attempt got no response, else null
 * @param attempts how many attempts were made (1 = no retry)
 * @param startNanos when the request was due ({@link System#nanoTime()}); in the open model this is
 *     the scheduled time, not the moment a thread got round to it
 * @param endNanos when the last attempt ended
 */
record CallResult(
    ApiRequest request,
    ApiResponse response,
    String failure,
    int attempts,
    long startNanos,
    long endNanos) {

  public boolean isSuccess() {
    return response != null && response.isSuccess();
  }

  /** The status code as text, or the exception name: the CSV's "response code" column. */
  public String code() {
    return response != null ? Integer.toString(response.status()) : failure;
  }
}
