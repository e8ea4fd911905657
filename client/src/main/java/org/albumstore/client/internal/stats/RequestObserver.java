package org.albumstore.client.internal.stats;

import java.util.List;
import org.albumstore.client.RequestType;

/**
 * Told about every finished request and every retried attempt. Called on the hot path from many
 * threads at once: implementations must be thread-safe and must not block.
 */
public interface RequestObserver {
  RequestObserver NONE = c -> {};

  void onCompleted(Completion completion);

  /** A logical request is about to send its first attempt (counts what is in flight). */
  default void onStarted(RequestType type) {}

  /** An attempt failed with {@code code} and will be retried. */
  default void onRetry(RequestType type, String code) {}

  static RequestObserver all(RequestObserver... observers) {
    List<RequestObserver> list = List.of(observers);
    return new RequestObserver() {
      @Override
      public void onCompleted(Completion completion) {
        for (RequestObserver o : list) {
          o.onCompleted(completion);
        }
      }

      @Override
      public void onStarted(RequestType type) {
        for (RequestObserver o : list) {
          o.onStarted(type);
        }
      }

      @Override
      public void onRetry(RequestType type, String code) {
        for (RequestObserver o : list) {
          o.onRetry(type, code);
        }
      }
    };
  }
}
