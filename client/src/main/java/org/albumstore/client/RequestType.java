package org.albumstore.client;

import java.util.Locale;

/**
 * The requests of the workloads (GET /albums only in {@code --workload post-get}). The labels are
 * the report's vocabulary (console tables, CSV, JSON), so they never change once published.
 */
public enum RequestType {
  POST_ALBUMS("POST /albums", true),
  POST_LIKE("POST /review/like", true),
  POST_DISLIKE("POST /review/dislike", true),
  GET_REVIEW("GET /review", false),
  // Last: the timeline CSV's columns follow this order, and earlier columns keep their places.
  GET_ALBUM("GET /albums", false);

  private final String label;
  private final boolean write;

  RequestType(String label, boolean write) {
    this.label = label;
    this.write = write;
  }

  public String label() {
    return label;
  }

  /** The label as a column prefix of the run's CSV files, e.g. {@code post_review_like}. */
  public String slug() {
    return label.toLowerCase(Locale.ROOT).replaceAll("[^a-z]+", "_").replaceAll("_$", "");
  }

  /** Writes are the measured workload; reads run beside it and are reported separately. */
  public boolean isWrite() {
    return write;
  }

  public static RequestType fromLabel(String label) {
    for (RequestType t : values()) {
      if (t.label.equals(label)) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown request type '" + label + "'");
  }
}
