package org.albumstore.common.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The {@code likeornot} of {@code POST /review/{likeornot}/{albumID}}. */
public enum Vote {
  LIKE("like"),
  DISLIKE("dislike");

  private final String wire;

  Vote(String wire) {
    this.wire = wire;
  }

  @JsonValue
  public String wire() {
    return wire;
  }

  /** The vote spelled exactly {@code like} or {@code dislike}, else null. */
  @JsonCreator
  public static Vote fromWire(String s) {
    if (LIKE.wire.equals(s)) {
      return LIKE;
    }
    if (DISLIKE.wire.equals(s)) {
      return DISLIKE;
    }
    return null;
  }
}
