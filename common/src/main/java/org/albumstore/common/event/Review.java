package org.albumstore.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.UUID;

/**
 * One like or dislike.
 *
 * <p>How the consumer applies it exactly once depends on {@code keyed}. A keyed review (its request
 * had an Idempotency-Key, so {@code eventId} is derived from the key) can arrive again in another
 * message when the client retries: the consumer records its {@code eventId} in the ledger. An
 * unkeyed review can only arrive again as a redelivery of the same message, so the ledger records
 * the message's {@link WriteBundle#id()} once for all its unkeyed reviews.
 *
 * <p>On the wire: in a version 2 message the server counts its unkeyed reviews per album ({@link
 * WriteBundle#votes()}), and only keyed reviews travel as {@code Review}s. In a version 1 message
 * every review travels as one, with an event ID, so that a consumer that predates message IDs
 * applies it exactly once too. Inside the server an unkeyed review has no event ID ({@code null})
 * until a version 1 message needs one.
 *
 * @param keyed true when {@code eventId} comes from an Idempotency-Key; left out of the JSON when
 *     false, and read as false when absent
 */
public record Review(
    UUID eventId,
    String albumId,
    Vote vote,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean keyed) {

  /**
   * A review applied by its own event ID (keyed), the behaviour of every review before message IDs.
   */
  public Review(UUID eventId, String albumId, Vote vote) {
    this(eventId, albumId, vote, true);
  }
}
