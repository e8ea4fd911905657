package org.albumstore.client.internal.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Optional;
import org.albumstore.client.history.ApiRequest;
import org.albumstore.client.history.AttemptLog;
import org.albumstore.client.internal.stats.Completion;
import org.albumstore.client.internal.stats.RequestObserver;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.Identifiers;
import org.albumstore.common.event.Vote;

/**
 * The Album Store API over a {@link RetryingCaller}: builds the requests, reads the JSON answers
 * and reports each logical request once to the observer.
 *
 * <p>A 200 whose body cannot be used (no valid {@code albumID}, unreadable counts) counts as a
 * failure named {@code bad-body}: it is a server defect, and retrying the same key would return the
 * same body.
 */
public final class AlbumStoreClient implements AlbumStoreApi {
  /** The profile every album gets: the example of the API description. */
  public static final AlbumProfile PROFILE =
      new AlbumProfile("Sex Pistols", "Never Mind The Bollocks!", "1977");

  static final String BAD_BODY = "bad-body";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final RetryingCaller caller;
  private final RequestObserver observer;
  private final ApiRequest.AlbumUpload upload;

  public AlbumStoreClient(RetryingCaller caller, RequestObserver observer, AlbumImage image) {
    this(caller, observer, uploadOf(image));
  }

  private AlbumStoreClient(
      RetryingCaller caller, RequestObserver observer, ApiRequest.AlbumUpload upload) {
    this.caller = caller;
    this.observer = observer;
    this.upload = upload;
  }

  /**
   * The same client (one upload object, so the transport still encodes it once) whose attempts are
   * also told to {@code log}: one per writer or reader, which the history names as its process.
   */
  public AlbumStoreClient withAttemptLog(AttemptLog log) {
    return new AlbumStoreClient(caller.withAttemptLog(log), observer, upload);
  }

  /**
   * A client over {@code transport} whose requests, and retries, are reported to {@code observer}.
   */
  public static AlbumStoreClient create(
      Transport transport, RetryPolicy policy, RequestObserver observer, AlbumImage image) {
    return new AlbumStoreClient(
        new RetryingCaller(transport, policy, Sleeper.REAL, observer), observer, image);
  }

  static String profileJson(AlbumProfile p) {
    return JSON.createObjectNode()
        .put("artist", p.artist())
        .put("title", p.title())
        .put("year", p.year())
        .toString();
  }

  @Override
  public Optional<String> createAlbum(String idempotencyKey, long dueNanos)
      throws InterruptedException {
    return created(observer, caller.call(ApiRequest.createAlbum(idempotencyKey, upload), dueNanos));
  }

  @Override
  public boolean review(Vote vote, String albumId, String idempotencyKey, long dueNanos)
      throws InterruptedException {
    return reviewed(
        observer, caller.call(ApiRequest.review(vote, albumId, idempotencyKey), dueNanos));
  }

  @Override
  public ReviewCounts getReview(String albumId, long dueNanos) throws InterruptedException {
    return counted(observer, caller.call(ApiRequest.getReview(albumId), dueNanos));
  }

  /** Reports a {@code GET /review/{id}}; the counts it read. */
  static ReviewCounts counted(RequestObserver observer, CallResult r) {
    ReviewCounts counts;
    if (r.isSuccess()) {
      counts = countsOf(r.response().body());
    } else if (r.response() != null && r.response().status() == 404) {
      counts = ReviewCounts.notFound();
    } else {
      counts = ReviewCounts.failed(r.code());
    }
    report(observer, r, counts.status() == ReviewCounts.Status.FOUND);
    return counts;
  }

  /** A 200 whose body is not the profile every album of the run is created with is bad-body. */
  @Override
  public boolean getAlbum(String albumId, long dueNanos) throws InterruptedException {
    return gotAlbum(observer, caller.call(ApiRequest.getAlbum(albumId), dueNanos));
  }

  /**
   * The upload every {@code POST /albums} of a client sends: one object, so that the transport
   * encodes it once.
   */
  static ApiRequest.AlbumUpload uploadOf(AlbumImage image) {
    return new ApiRequest.AlbumUpload(image, profileJson(PROFILE));
  }

  /**
   * The counts of a {@code GET /review/{id}}'s 200 body: found, or failed with {@code bad-body}.
   */
  public static ReviewCounts countsOf(byte[] body) {
    JsonNode json = parse(body);
    Long likes = json == null ? null : count(json.get("likes"));
    Long dislikes = json == null ? null : count(json.get("dislikes"));
    return likes != null && dislikes != null
        ? ReviewCounts.found(likes, dislikes)
        : ReviewCounts.failed(BAD_BODY);
  }

  /** The valid album ID of a {@code POST /albums}'s 200 body, or null. */
  public static String createdIdOf(byte[] body) {
    String id = albumIdOf(body);
    return Identifiers.isValidToken(id) ? id : null;
  }

  /** Whether a {@code GET /albums/{id}}'s 200 body is the profile every album is made with. */
  public static boolean isProfile(byte[] body) {
    JsonNode json = parse(body);
    return json != null
        && PROFILE.artist().equals(json.path("artist").asText(null))
        && PROFILE.title().equals(json.path("title").asText(null))
        && PROFILE.year().equals(json.path("year").asText(null));
  }

  /** Reports a {@code POST /albums}; its album's ID, or empty when it failed or had none. */
  static Optional<String> created(RequestObserver observer, CallResult r) {
    String albumId = r.isSuccess() ? createdIdOf(r.response().body()) : null;
    report(observer, r, r.isSuccess() && albumId != null);
    return Optional.ofNullable(albumId);
  }

  /** Reports a review; whether the server acknowledged it. */
  static boolean reviewed(RequestObserver observer, CallResult r) {
    report(observer, r, r.isSuccess());
    return r.isSuccess();
  }

  /**
   * Reports a {@code GET /albums/{id}}; whether it answered the profile the album was made with.
   */
  static boolean gotAlbum(RequestObserver observer, CallResult r) {
    boolean ok = r.isSuccess() && isProfile(r.response().body());
    report(observer, r, ok);
    return ok;
  }

  /** The API declares the counts as strings; accept numbers too. */
  private static Long count(JsonNode n) {
    if (n == null || !(n.isTextual() || n.isIntegralNumber())) {
      return null;
    }
    try {
      long v = n.isTextual() ? Long.parseLong(n.asText()) : n.asLong();
      return v < 0 ? null : v;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static void report(RequestObserver observer, CallResult r, boolean ok) {
    String code = r.isSuccess() && !ok ? BAD_BODY : r.code();
    observer.onCompleted(
        new Completion(r.request().type(), r.startNanos(), r.endNanos(), code, ok, r.attempts()));
  }

  /**
   * The {@code albumID} field of a {@code POST /albums} answer, read as it streams by: a quarter of
   * the workload's requests are album creations, and building a tree for each was 2.8% of the
   * client's CPU under load. The whole body is still read, so that a truncated answer is refused as
   * {@link #parse} would refuse it.
   *
   * @return the field's value as text (a scalar's text, as {@code JsonNode.asText} gives it), or
   *     null when the body is not one JSON object or has no such scalar field
   */
  static String albumIdOf(byte[] body) {
    if (body == null || body.length == 0) {
      return null;
    }
    try (JsonParser p = JSON.getFactory().createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      String id = null;
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        boolean wanted = "albumID".equals(p.currentName());
        JsonToken value = p.nextToken();
        if (value.isScalarValue()) {
          if (wanted) {
            id = value == JsonToken.VALUE_NULL ? null : p.getText();
          }
        } else {
          if (wanted) {
            id = null;
          }
          p.skipChildren();
        }
      }
      return t == JsonToken.END_OBJECT ? id : null;
    } catch (IOException notJson) {
      return null;
    }
  }

  /**
   * @return the body as JSON, or null when there is none or it is not JSON; the caller then counts
   *     the request as failed with {@code bad-body}, which is how the defect gets reported
   */
  private static JsonNode parse(byte[] body) {
    try {
      return body == null || body.length == 0 ? null : JSON.readTree(body);
    } catch (IOException notJson) {
      return null;
    }
  }
}
