package org.albumstore.server.web;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.server.read.AlbumWaiters;
import org.albumstore.server.read.AlbumWaiters.Waiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Parks a {@code GET /albums/{albumID}} in {@link AlbumWaiters} without holding a Tomcat thread:
 * the request goes async, the thread returns to the pool at once, and the waiters' poller answers
 * it (200 with the album, 404 after the bound, 503 on a database failure), like {@link AsyncWrite}
 * does for writes.
 *
 * <p>Exactly one answer: the poller and this request's async timeout (a safety net above the bound
 * plus one query's timeout) claim the waiter, and only the winner writes; a broken connection
 * claims it too, so the poller just forgets it.
 */
final class AsyncRead {
  private static final Logger log = LoggerFactory.getLogger(AsyncRead.class);
  private static final ThrottledLog failures = new ThrottledLog(log, 10_000);

  static final String TOO_MANY_WAITING =
      "too many reads are waiting for new albums right now; retry in a second";

  private AsyncRead() {}

  static void awaitAlbum(
      HttpServletRequest req,
      HttpServletResponse resp,
      AlbumWaiters waiters,
      String albumId,
      long timeoutMs)
      throws IOException {
    AsyncContext ac = req.startAsync();
    ac.setTimeout(timeoutMs);
    AtomicReference<Waiter> parked = new AtomicReference<>();
    // Added before parking; the container fires its events only after this dispatch returned.
    ac.addListener(
        new AsyncListener() {
          @Override
          public void onTimeout(AsyncEvent event) throws IOException {
            Waiter w = parked.get();
            if (w != null && w.claim()) {
              Responses.unavailable(resp, "the database did not answer in time; retry in a second");
              ac.complete();
            }
          }

          @Override
          public void onError(AsyncEvent event) {
            Waiter w = parked.get();
            if (w != null) {
              w.claim(); // the connection is gone: nobody to answer
            }
          }

          @Override
          public void onComplete(AsyncEvent event) {}

          @Override
          public void onStartAsync(AsyncEvent event) {}
        });
    Waiter w = waiters.park(albumId, new Answer(resp, ac));
    if (w == null) {
      Responses.unavailable(
          resp,
          waiters.stopping() ? "the server is stopping; retry in a second" : TOO_MANY_WAITING);
      ac.complete();
      return;
    }
    parked.set(w);
  }

  /**
   * Writes the poller's answer and completes the request. A class, not a record: the Eclipse
   * Transformer that makes albumstore-javax.war does not rewrite a record's component descriptors,
   * so a record holding Servlet API types would keep {@code jakarta.servlet} names in the Tomcat 9
   * WAR (JavaxWarIT checks that none is left).
   */
  private static final class Answer implements AlbumWaiters.Answer {
    private final HttpServletResponse resp;
    private final AsyncContext ac;

    Answer(HttpServletResponse resp, AsyncContext ac) {
      this.resp = resp;
      this.ac = ac;
    }

    @Override
    public void found(AlbumProfile album) {
      respond(r -> AlbumsServlet.writeAlbum(r, album));
    }

    @Override
    public void notFound() {
      respond(r -> Responses.error(r, 404, AlbumsServlet.NOT_FOUND_AFTER_WAIT));
    }

    @Override
    public void unavailable(String msg) {
      respond(r -> Responses.unavailable(r, msg));
    }

    private void respond(AsyncWrite.Success write) {
      try {
        write.write(resp);
      } catch (IOException | RuntimeException e) {
        failures.warn("Writing a waiting read's response failed", e);
      } finally {
        ac.complete();
      }
    }
  }
}
