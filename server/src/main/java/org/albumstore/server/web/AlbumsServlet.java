package org.albumstore.server.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.Identifiers;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.server.metrics.RequestClock;
import org.albumstore.server.publish.ConfirmedPublisher;
import org.albumstore.server.read.AlbumReads;
import org.albumstore.server.read.ReadFailedException;

/**
 * {@code POST /albums} (multipart image + profile, answered after the broker's confirm) and {@code
 * GET /albums/{albumID}}.
 *
 * <p>The album ID is assigned here, before publishing, so the 200 can carry it: derived from the
 * Idempotency-Key when there is one (a retry gets the same ID and the consumer's insert is a no-op)
 * and random otherwise.
 */
public final class AlbumsServlet extends ApiServlet {
  private final ConfirmedPublisher publisher;
  private final AlbumReads reads;
  private final int maxImageBytes;
  private final long asyncTimeoutMs;

  public AlbumsServlet(
      ConfirmedPublisher publisher, AlbumReads reads, int maxImageBytes, long asyncTimeoutMs) {
    this.publisher = publisher;
    this.reads = reads;
    this.maxImageBytes = maxImageBytes;
    this.asyncTimeoutMs = asyncTimeoutMs;
  }

  @Override
  protected void handle(Route route, HttpServletRequest req, HttpServletResponse resp)
      throws HttpProblem, ReadFailedException, IOException {
    switch (route.resource()) {
      case ALBUMS -> create(req, resp);
      case ALBUM -> read(route.params().get(0), resp);
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

  private void read(String rawId, HttpServletResponse resp)
      throws HttpProblem, ReadFailedException, IOException {
    String albumId = RequestChecks.albumId(rawId);
    Optional<AlbumProfile> album = reads.album(albumId);
    if (album.isEmpty()) {
      throw new HttpProblem(
          404,
          "no album with this albumID (a new album appears shortly after" + " its POST returned)");
    }
    AlbumProfile p = album.get();
    Responses.json(
        resp, 200, Json.object("artist", p.artist(), "title", p.title(), "year", p.year()));
  }
}
