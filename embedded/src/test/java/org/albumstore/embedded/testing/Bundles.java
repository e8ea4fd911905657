package org.albumstore.embedded.testing;

import java.util.List;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.WriteBundle;

/** Message bodies for tests that publish straight to the queue, as a server would. */
public final class Bundles {
  private Bundles() {}

  /**
   * A bundle of reviews only, with no message ID (each review keyed by its event ID), stamped now.
   */
  public static WriteBundle reviews(List<Review> reviews) {
    return new WriteBundle(EventCodec.VERSION, System.currentTimeMillis(), List.of(), reviews);
  }
}
