package org.albumstore.server.internal.web;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.server.internal.read.AlbumWaiters;
import org.albumstore.server.internal.read.AlbumWaiters.Waiter;
import org.albumstore.server.internal.read.ReadFailedException;
import org.albumstore.server.internal.read.ReadRefusedException;
import org.albumstore.server.internal.read.ReadThreads;
import org.albumstore.server.internal.read.ReviewCounts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the GETs without letting the database hold Tomcat's threads. A {@code GET
 * /albums/{albumID}} queries on its request thread only while fewer than {@code --read-inline-max}
 * reads do; otherwise the request goes async and its query waits for a read thread ({@link
 * ReadThreads}). A {@code GET /albums/{albumID}} for an album acknowledged but not yet applied then
 * waits in {@link AlbumWaiters}, async too, until the waiters' poller answers it (200 with the
 * album, 404 after the bound, 503 on a database failure), like {@link AsyncWrite} does for writes.
 *
 * <p>A {@code GET /review/{albumID}} never holds a request thread while its group read is asked
 * ({@link #serveWhenDone}): its request goes async and the group's reader writes the response.
 *
 * <p>Exactly one answer per async read: the read thread, the group's reader or the poller, this
 * request's async timeout (a safety net above the wait's bound plus one query's timeout) and a
 * broken connection race for one flag ({@link Exchange}), and only the winner writes.
 */
public final class AsyncRead {
  private static final Logger log = LoggerFactory.getLogger(AsyncRead.class);
  private static final ThrottledLog failures = new ThrottledLog(log, 10_000);

  static final String TOO_MANY_WAITING =
      "too many reads are waiting for new albums right now; retry in a second";
  static final String TOO_MANY_QUEUED =
      "too many reads are waiting for the database right now; retry in a second";
  static final String STOPPING = "the server is stopping; retry in a second";

  /** A GET's query and what it answers; on the request thread or on a read thread. */
  @FunctionalInterface
  interface Query {
    Reply run() throws HttpProblem, ReadFailedException;
  }

  /**
   * What a GET answers once its query ran: a response, or a wait for a new album. A class, not a
   * record: the Eclipse Transformer that makes albumstore-javax.war does not rewrite a record's
   * component descriptors, so a record holding Servlet API types would keep {@code jakarta.servlet}
   * names in the Tomcat 9 WAR (JavaxWarIT checks that none is left).
   */
  static final class Reply {
    private final AsyncWrite.Success response;
    private final String awaitedAlbumId;
    private final AlbumWriter found;

    private Reply(AsyncWrite.Success response, String awaitedAlbumId, AlbumWriter found) {
      this.response = response;
      this.awaitedAlbumId = awaitedAlbumId;
      this.found = found;
    }

    static Reply of(AsyncWrite.Success response) {
      return new Reply(response, null, null);
    }

    /**
     * Wait for this album in {@link AlbumWaiters}; once it is found, {@code found} answers it, and
     * when the wait ends without it, 503 with Retry-After ({@link AlbumWaiters.Answer}).
     */
    static Reply awaitAlbum(String albumId, AlbumWriter found) {
      return new Reply(null, albumId, found);
    }
  }

  /** Writes the answer to a GET whose album was found while it waited. */
  @FunctionalInterface
  interface AlbumWriter {
    void write(HttpServletResponse resp, AlbumProfile album) throws IOException;
  }

  private final ReadThreads threads;
  private final AlbumWaiters waiters;
  private final long timeoutMs;

  /**
   * @param timeoutMs safety net of a read's async wait (above the waiters' bound plus one query's
   *     timeout)
   */
  public AsyncRead(ReadThreads threads, AlbumWaiters waiters, long timeoutMs) {
    this.threads = threads;
    this.waiters = waiters;
    this.timeoutMs = timeoutMs;
  }

  /**
   * Runs {@code query} and answers its reply. On the request thread, its failures pass to the
   * servlet like any other; on a read thread they are answered there the same way.
   */
  void serve(HttpServletRequest req, HttpServletResponse resp, Query query)
      throws HttpProblem, ReadFailedException, IOException {
    if (threads.tryAcquire()) {
      Reply reply;
      try {
        reply = query.run();
      } finally {
        threads.release();
      }
      if (reply.awaitedAlbumId == null) {
        reply.response.write(resp);
      } else {
        park(start(req, resp), reply);
      }
      return;
    }
    Exchange ex = start(req, resp);
    if (!threads.queue(new Queued(ex, query))) {
      ex.respond(r -> Responses.unavailable(r, TOO_MANY_QUEUED));
    }
  }

  /**
   * Answers a GET whose answer another thread completes ({@code GroupReader#countsLater}): on this
   * thread when {@code answer} is complete already (a lone GET asked its own query here, or it was
   * refused), else from the thread that completes it, with no request thread held meanwhile. A
   * failed read is 503, a refused one 503 at once; both with Retry-After. Not a generic method: the
   * Eclipse Transformer that makes albumstore-javax.war leaves {@code jakarta.servlet} names in a
   * generic method's signature (JavaxWarIT).
   */
  void serveWhenDone(
      HttpServletRequest req,
      HttpServletResponse resp,
      CompletableFuture<Optional<ReviewCounts>> answer,
      Function<Optional<ReviewCounts>, AsyncWrite.Success> reply)
      throws IOException {
    if (answer.isDone()) {
      AsyncWrite.Success now;
      try {
        now = reply.apply(answer.join());
      } catch (CompletionException e) {
        now = failure(e.getCause());
      }
      now.write(resp);
      return;
    }
    Exchange ex = start(req, resp);
    ex.asked = answer; // given up on a timeout or a broken connection: the reader skips it
    answer.whenComplete(
        (value, error) -> {
          if (error instanceof CancellationException) {
            return; // given up (giveUp): answered already, and nothing failed to log
          }
          ex.respond(error == null ? reply.apply(value) : failure(error));
        });
  }

  /** The answer to a read that did not complete normally. */
  private static AsyncWrite.Success failure(Throwable error) {
    Throwable cause = error instanceof CompletionException ? error.getCause() : error;
    if (cause instanceof ReadRefusedException) {
      return r -> Responses.unavailable(r, TOO_MANY_QUEUED);
    }
    if (cause instanceof ReadFailedException failed) {
      return r -> Responses.databaseUnavailable(r, failed);
    }
    failures.warn("A group read failed unexpectedly", cause);
    return r -> Responses.error(r, 500, ErrorMessages.forStatus(500));
  }

  private Exchange start(HttpServletRequest req, HttpServletResponse resp) {
    AsyncContext ac = req.startAsync();
    ac.setTimeout(timeoutMs);
    Exchange ex = new Exchange(resp, ac);
    // Added before anything can answer; the container fires its events only after this dispatch
    // returned.
    ac.addListener(ex);
    return ex;
  }

  private void park(Exchange ex, Reply reply) {
    ex.awaited = reply; // before the poller can answer it
    Waiter w = waiters.park(reply.awaitedAlbumId, ex);
    if (w == null) {
      ex.respond(r -> Responses.unavailable(r, waiters.stopping() ? STOPPING : TOO_MANY_WAITING));
      return;
    }
    ex.waiter = w;
    if (ex.answered.get()) {
      w.claim(); // timed out meanwhile: the poller just forgets it
    }
  }

  /** A query that waited for a read thread, and runs on it. */
  private final class Queued implements ReadThreads.Queued {
    private final Exchange ex;
    private final Query query;

    Queued(Exchange ex, Query query) {
      this.ex = ex;
      this.query = query;
    }

    @Override
    public void run() {
      if (ex.answered.get()) {
        return; // timed out or disconnected while queued: nobody waits for this query
      }
      Reply reply;
      try {
        reply = query.run();
      } catch (HttpProblem p) {
        ex.respond(r -> Responses.problem(r, p));
        return;
      } catch (ReadFailedException e) {
        ex.respond(r -> Responses.databaseUnavailable(r, e));
        return;
      } catch (RuntimeException e) {
        failures.warn("A queued read failed", e);
        ex.respond(r -> Responses.error(r, 500, ErrorMessages.forStatus(500)));
        return;
      }
      if (reply.awaitedAlbumId == null) {
        ex.respond(reply.response);
      } else {
        park(ex, reply);
      }
    }

    @Override
    public void abandon() {
      ex.respond(r -> Responses.unavailable(r, STOPPING));
    }
  }

  /**
   * One async read: its response, and the flag that lets exactly one of the read thread, the
   * poller, the timeout and a broken connection answer it. A class, not a record (see {@link
   * Reply}).
   */
  private static final class Exchange implements AlbumWaiters.Answer, AsyncListener {
    private final HttpServletResponse resp;
    private final AsyncContext ac;
    private final AtomicBoolean answered = new AtomicBoolean();
    private volatile Reply awaited;
    private volatile Waiter waiter;
    private volatile CompletableFuture<?> asked;

    Exchange(HttpServletResponse resp, AsyncContext ac) {
      this.resp = resp;
      this.ac = ac;
    }

    /** Writes {@code write} and completes, unless another already answered. */
    void respond(AsyncWrite.Success write) {
      if (!answered.compareAndSet(false, true)) {
        return;
      }
      try {
        write.write(resp);
      } catch (IOException | RuntimeException e) {
        failures.warn("Writing a read's response failed", e);
      } finally {
        ac.complete();
      }
    }

    @Override
    public void found(AlbumProfile album) {
      AlbumWriter found = awaited.found;
      respond(r -> found.write(r, album));
    }

    @Override
    public void unavailable(String msg) {
      respond(r -> Responses.unavailable(r, msg));
    }

    @Override
    public void onTimeout(AsyncEvent event) {
      respond(
          r -> Responses.unavailable(r, "the database did not answer in time; retry in a second"));
      giveUp();
    }

    @Override
    public void onError(AsyncEvent event) {
      answered.set(true); // the connection is gone: nobody to answer
      giveUp();
    }

    /** Nobody waits for this read any more: the poller forgets it, a reader does not ask it. */
    private void giveUp() {
      Waiter w = waiter;
      if (w != null) {
        w.claim();
      }
      CompletableFuture<?> a = asked;
      if (a != null) {
        a.cancel(false);
      }
    }

    @Override
    public void onComplete(AsyncEvent event) {}

    @Override
    public void onStartAsync(AsyncEvent event) {}
  }
}
