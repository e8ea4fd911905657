package org.albumstore.client.history;

import java.util.Objects;
import org.albumstore.client.RequestType;
import org.albumstore.client.internal.http.AlbumImage;
import org.albumstore.common.event.Vote;

/**
 * One logical request of the workload, before any attempt. A retry sends the same object again, so
 * its {@link #idempotencyKey()} is by construction the same on every attempt.
 *
 * @param type what the request is, for statistics
 * @param method {@code GET} or {@code POST}
 * @param path relative to the base URL, e.g. {@code /review/like/42}
 * @param idempotencyKey sent as {@code Idempotency-Key} (writes), or null (reads)
 * @param upload the multipart body of {@code POST /albums}, or null
 */
public record ApiRequest(
    RequestType type, String method, String path, String idempotencyKey, AlbumUpload upload) {

  /** The two parts of a {@code POST /albums}: the image and the profile as JSON text. */
  public record AlbumUpload(AlbumImage image, String profileJson) {}

  public ApiRequest {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
  }

  public static ApiRequest createAlbum(String idempotencyKey, AlbumUpload upload) {
    return new ApiRequest(
        RequestType.POST_ALBUMS,
        "POST",
        "/albums",
        Objects.requireNonNull(idempotencyKey),
        Objects.requireNonNull(upload));
  }

  /** {@code albumId} must be a valid token: it goes into the path unencoded. */
  public static ApiRequest review(Vote vote, String albumId, String idempotencyKey) {
    RequestType type = vote == Vote.LIKE ? RequestType.POST_LIKE : RequestType.POST_DISLIKE;
    String word = vote == Vote.LIKE ? "like" : "dislike";
    return new ApiRequest(
        type,
        "POST",
        "/review/" + word + "/" + albumId,
        Objects.requireNonNull(idempotencyKey),
        null);
  }

  /** {@code albumId} must be a valid token: it goes into the path unencoded. */
  public static ApiRequest getAlbum(String albumId) {
    return new ApiRequest(RequestType.GET_ALBUM, "GET", "/albums/" + albumId, null, null);
  }

  public static ApiRequest getReview(String albumId) {
    return new ApiRequest(RequestType.GET_REVIEW, "GET", "/review/" + albumId, null, null);
  }
}
