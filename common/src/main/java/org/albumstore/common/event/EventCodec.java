package org.albumstore.common.event;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import java.io.IOException;
import java.util.Date;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The wire form of {@link WriteBundle}: a versioned JSON body in a persistent message with a unique
 * {@code messageId}. Both sides of the queue use this one class, so they cannot drift apart.
 *
 * <p>Versions: 3 (written by default) adds when each reviewed album's latest review was accepted
 * ({@link WriteBundle#reviewedAt()}), 2 counts unkeyed reviews per album, 1 sends every review with
 * its own event ID. Decoding reads all three, so a consumer upgraded first applies what older
 * servers publish; a server writes an older version on request ({@code --message-version}) while
 * consumers that read only that one remain, which dead-letter a newer message rather than lose what
 * they cannot read.
 *
 * <p>Decoding validates everything the consumer relies on (IDs, votes, profiles, image presence);
 * what fails is an {@link InvalidMessageException}, never a half-applied bundle.
 */
public final class EventCodec {
  /**
   * The largest body a broker takes by default: RabbitMQ 4's {@code max_message_size} (16 MiB; 3.x
   * allowed 128 MiB), as Amazon MQ runs it. Whatever the server lets into one message (the largest
   * image, a bundle) must fit in it, body and all.
   */
  public static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

  /**
   * The body version this code writes by default: 3, which carries the review times of its albums
   * ({@link WriteBundle#reviewedAt()}) beside version 2's counted reviews ({@link
   * WriteBundle#votes()}).
   */
  public static final int VERSION = 3;

  /**
   * The oldest body version this code reads, and writes on request: 1, in which every review
   * travels with its own event ID. A consumer reads every version from it up, so messages published
   * before an upgrade still apply after it; a server writes 1 while consumers older than version 2
   * still read its queue.
   */
  public static final int OLDEST_VERSION = 1;

  /** The AMQP {@code type} property of write messages. */
  public static final String MESSAGE_TYPE = "albumstore.writes";

  public static final String CONTENT_TYPE = "application/json";

  /** Header carrying the body version, so a consumer can reject a version before parsing. */
  public static final String VERSION_HEADER = "albumstore-version";

  private static final ObjectMapper MAPPER =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private EventCodec() {}

  public static byte[] encode(WriteBundle bundle) {
    try {
      return MAPPER.writeValueAsBytes(bundle);
    } catch (JsonProcessingException e) {
      // Records of strings, UUIDs and byte arrays always serialise; this is a programming error.
      throw new IllegalStateException("cannot encode a write bundle", e);
    }
  }

  /**
   * Persistent-message properties for a bundle; the message ID is the bundle's {@link
   * WriteBundle#id()} (one identity for the message, in its properties and its body), or a fresh
   * unique one for a bundle without an ID.
   */
  public static AMQP.BasicProperties properties(WriteBundle bundle) {
    UUID id = bundle.id() != null ? bundle.id() : UUID.randomUUID();
    return new AMQP.BasicProperties.Builder()
        .contentType(CONTENT_TYPE)
        .deliveryMode(2)
        .messageId(id.toString())
        .type(MESSAGE_TYPE)
        .timestamp(new Date(bundle.publishedAtMillis()))
        .headers(Map.of(VERSION_HEADER, bundle.version()))
        .build();
  }

  public static WriteBundle decode(byte[] body) throws InvalidMessageException {
    if (body == null || body.length == 0) {
      throw new InvalidMessageException("empty body");
    }
    final WriteBundle bundle;
    try {
      bundle = MAPPER.readValue(body, WriteBundle.class);
    } catch (IOException e) {
      throw new InvalidMessageException("undecodable body: " + firstLine(e.getMessage()), e);
    }
    validate(bundle);
    return bundle;
  }

  static void validate(WriteBundle bundle) throws InvalidMessageException {
    if (bundle == null) {
      throw new InvalidMessageException("body is JSON null");
    }
    if (bundle.version() < OLDEST_VERSION || bundle.version() > VERSION) {
      throw new InvalidMessageException(
          "unknown version "
              + bundle.version()
              + " (this consumer reads versions "
              + OLDEST_VERSION
              + " to "
              + VERSION
              + ")");
    }
    if (bundle.albums().isEmpty() && bundle.reviews().isEmpty() && bundle.votes().isEmpty()) {
      throw new InvalidMessageException("bundle holds no albums and no reviews");
    }
    Set<String> albumIds = new HashSet<>();
    for (NewAlbum a : bundle.albums()) {
      if (a == null || !Identifiers.isValidToken(a.albumId())) {
        throw new InvalidMessageException("album with an invalid albumId");
      }
      if (!albumIds.add(a.albumId())) {
        // One statement cannot insert the same key twice; the server never bundles one album twice.
        throw new InvalidMessageException("album " + a.albumId() + " appears twice in one bundle");
      }
      if (a.profile() == null) {
        throw new InvalidMessageException("album " + a.albumId() + " has no profile");
      }
      String problem = a.profile().problem();
      if (problem != null) {
        throw new InvalidMessageException("album " + a.albumId() + ": " + problem);
      }
      if (a.image() == null || a.image().length == 0) {
        throw new InvalidMessageException("album " + a.albumId() + " has no image");
      }
    }
    for (Review r : bundle.reviews()) {
      if (r == null || r.eventId() == null) {
        throw new InvalidMessageException("review without an eventId");
      }
      if (!Identifiers.isValidToken(r.albumId())) {
        throw new InvalidMessageException("review " + r.eventId() + " has an invalid albumId");
      }
      if (r.vote() == null) {
        throw new InvalidMessageException("review " + r.eventId() + " is neither like nor dislike");
      }
    }
    validateVotes(bundle);
    validateReviewTimes(bundle);
  }

  /**
   * A version 3 body's review times name only albums this bundle reviews, each with a time after
   * the epoch. An album reviewed without a time is allowed (its time is left as it was); the server
   * sends one for each.
   */
  private static void validateReviewTimes(WriteBundle bundle) throws InvalidMessageException {
    if (bundle.reviewedAt().isEmpty()) {
      return;
    }
    if (bundle.version() < 3) {
      // A version 2 consumer ignores the field: a sender that set it meant version 3.
      throw new InvalidMessageException("reviewedAt in a version " + bundle.version() + " body");
    }
    Set<String> reviewed = new HashSet<>();
    bundle.reviews().forEach(r -> reviewed.add(r.albumId()));
    bundle.votes().forEach(v -> reviewed.add(v.albumId()));
    for (Map.Entry<String, Long> e : bundle.reviewedAt().entrySet()) {
      if (!reviewed.contains(e.getKey())) {
        throw new InvalidMessageException(
            "reviewedAt names album " + e.getKey() + " without a review");
      }
      if (e.getValue() == null || e.getValue() <= 0) {
        throw new InvalidMessageException("reviewedAt of album " + e.getKey() + " is not a time");
      }
    }
  }

  private static void validateVotes(WriteBundle bundle) throws InvalidMessageException {
    if (bundle.votes().isEmpty()) {
      return;
    }
    if (bundle.version() < 2) {
      // A version 1 consumer ignores the field: a sender that set it meant version 2.
      throw new InvalidMessageException("votes in a version " + bundle.version() + " body");
    }
    if (bundle.id() == null) {
      throw new InvalidMessageException("votes without a message id to record them under");
    }
    Set<String> albumIds = new HashSet<>();
    for (AlbumVotes v : bundle.votes()) {
      if (!Identifiers.isValidToken(v.albumId())) {
        throw new InvalidMessageException("votes with an invalid albumId");
      }
      if (v.likes() < 0 || v.dislikes() < 0 || v.reviews() == 0) {
        throw new InvalidMessageException(
            "votes for album "
                + v.albumId()
                + " must count at least one like or dislike, none below 0");
      }
      if (!albumIds.add(v.albumId())) {
        throw new InvalidMessageException("votes for album " + v.albumId() + " appear twice");
      }
    }
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
