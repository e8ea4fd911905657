package org.albumstore.server.internal.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.Identifiers;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.server.internal.metrics.RequestClock;
import org.albumstore.server.internal.publish.ConfirmedPublisher;
import org.albumstore.server.internal.read.AlbumReads;
import org.albumstore.server.internal.read.AlbumWaiters;
import org.albumstore.server.internal.read.ReadFailedException;

/**
 * {@code POST /albums} (multipart image + profile, answered after the broker's confirm) and {@code
 * GET /albums/{albumID}}.
 *
 * <p>The album ID is assigned here, before publishing, so the 200 can carry it: derived from the
 * Idempotency-Key when there is one (a retry gets the same ID and the consumer's insert is a no-op)
 * and a v7 UUID, which carries its issue time, otherwise.
 *
 * <p>Read-your-writes: a GET that does not find the album answers 404 at once unless the ID could
 * be an album acknowledged moments ago ({@link AlbumWaiters#worthWaitingFor}); then the request
 * goes async and waits, bounded and without a thread, for the consumer to apply it ({@link
 * AsyncRead}), and past the bound gets 503 with Retry-After, never 404.
 */
public final class AlbumsServlet extends ApiServlet {
  static final String NOT_FOUND =
      "no album with this albumID (an album is readable once its POST /albums returned 200)";

  private final ConfirmedPublisher publisher;
  private final AlbumReads reads;
  private final AlbumWaiters waiters;
  private final AsyncRead asyncRead;
  private final int maxImageBytes;
  private final long asyncTimeoutMs;

  /**
   * @param asyncTimeoutMs safety net of a write's async wait
   */
  public AlbumsServlet(
      ConfirmedPublisher publisher,
      AlbumReads reads,
      AlbumWaiters waiters,
      AsyncRead asyncRead,
      int maxImageBytes,
      long asyncTimeoutMs) {
    this.publisher = publisher;
    this.reads = reads;
    this.waiters = waiters;
    this.asyncRead = asyncRead;
    this.maxImageBytes = maxImageBytes;
    this.asyncTimeoutMs = asyncTimeoutMs;
  }

  @Override
  protected void handle(Route route, HttpServletRequest req, HttpServletResponse resp)
      throws HttpProblem, ReadFailedException, IOException {
    switch (route.resource()) {
      case ALBUMS -> create(req, resp);
      case ALBUM -> read(route.params().get(0), req, resp);
      default -> throw new HttpProblem(404, ErrorMessages.UNKNOWN_PATH);
    }
  }

  private void create(HttpServletRequest req, HttpServletResponse resp)
      throws HttpProblem, IOException {
    String key = RequestChecks.idempotencyKey(req);
    AlbumUpload upload = AlbumUpload.read(req, maxImageBytes);
    String albumId = key != null ? Identifiers.albumIdForKey(key) : Identifiers.newAlbumId();
    String imageSize = Integer.toString(upload.image().length);
    RequestClock.markValidated(req);
    AsyncWrite.answerWhenDone(
        req,
        resp,
        publisher.submit(new NewAlbum(albumId, upload.profile(), upload.image())),
        asyncTimeoutMs,
        r -> Responses.json(r, 200, Json.object("albumID", albumId, "imageSize", imageSize)));
  }

  private void read(String rawId, HttpServletRequest req, HttpServletResponse resp)
      throws HttpProblem, ReadFailedException, IOException {
    String albumId = RequestChecks.albumId(rawId);
    asyncRead.serve(
        req,
        resp,
        () -> {
          Optional<AlbumProfile> album = reads.album(albumId);
          if (album.isPresent()) {
            return AsyncRead.Reply.of(r -> writeAlbum(r, album.get()));
          }
          if (waiters.worthWaitingFor(albumId)) {
            return AsyncRead.Reply.awaitAlbum(albumId, AlbumsServlet::writeAlbum);
          }
          throw new HttpProblem(404, NOT_FOUND);
        });
  }

  private static void writeAlbum(HttpServletResponse resp, AlbumProfile p) throws IOException {
    Responses.json(
        resp, 200, Json.object("artist", p.artist(), "title", p.title(), "year", p.year()));
  }
}
