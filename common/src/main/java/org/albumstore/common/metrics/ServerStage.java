package org.albumstore.common.metrics;

import java.util.Locale;

/**
 * The stages of a confirmed write inside the server, in order: the values of the {@code stage} tag
 * of {@link MetricNames#SERVER_STAGE}. Their means add up to the client's time of a write but for
 * the response's way back.
 */
public enum ServerStage {
  /** Client send → servlet in, from the request's {@link RequestStart} header. */
  ARRIVAL,
  /** Servlet in → handed to the publisher. */
  VALIDATE,
  /** Waiting for a publisher thread and its channel. */
  CHANNEL_WAIT,
  /** The envelope's publish starts → the broker's confirm. */
  CONFIRM,
  /** Confirm → this write's response handed to Tomcat. */
  RESPOND,
  /** Response handed to Tomcat → the request completed. */
  COMPLETE;

  /** The tag value, e.g. {@code channel_wait}. */
  public String tag() {
    return name().toLowerCase(Locale.ROOT);
  }
}
