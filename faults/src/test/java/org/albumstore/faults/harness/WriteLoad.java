package org.albumstore.faults.harness;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.albumstore.common.event.Identifiers;
import org.albumstore.common.event.Vote;
import org.albumstore.faults.harness.ApiClient.Reply;

/**
 * The bounded load every scenario runs: {@code threads} threads, each {@code iterations} times
 * {@code POST /albums}, two likes and one dislike on the album, every write with an Idempotency-Key
 * of its own. A write is retried with the same key after a 503 (honouring {@code Retry-After}) or
 * an I/O error until it gets a 200 or its time is up; then the {@link AcknowledgedWrites} records
 * it as acknowledged, or as unknown.
 *
 * <p>Bounded in count (threads × iterations × 4 writes) and in time (each write gives up after
 * {@code writeDeadline}); a pause after each iteration spreads the load over a few seconds, so a
 * fault injected "mid-run" finds writes on their way.
 */
public final class WriteLoad {
  private final ApiClient api;
  private final String runId;
  private final int threads;
  private final int iterations;
  private final long pauseMillis;
  private final Duration writeDeadline;
  private final Consumer<Reply> observer;
  private final AcknowledgedWrites acknowledged = new AcknowledgedWrites();
  private final LoadStats stats = new LoadStats();
  private final List<Thread> workers = new ArrayList<>();
  private final CountDownLatch startGate = new CountDownLatch(1);
  private final CountDownLatch done;

  /** Set by {@link #endAfterCurrentIterations}: each thread stops after the iteration it is in. */
  private volatile boolean ending;

  /**
   * @param runId a short prefix unique to this run, part of every Idempotency-Key
   * @param observer sees every answer (e.g. to check what came back during an outage); may be null
   */
  public WriteLoad(
      ApiClient api,
      String runId,
      int threads,
      int iterations,
      long pauseMillis,
      Duration writeDeadline,
      Consumer<Reply> observer) {
    this.api = api;
    this.runId = runId;
    this.threads = threads;
    this.iterations = iterations;
    this.pauseMillis = pauseMillis;
    this.writeDeadline = writeDeadline;
    this.observer = observer == null ? r -> {} : observer;
    this.done = new CountDownLatch(threads);
  }

  /** Writes this load will make when every one succeeds. */
  public long plannedWrites() {
    return (long) threads * iterations * 4;
  }

  /** Starts all threads at once (they wait at one gate, so the first requests really overlap). */
  public WriteLoad start() {
    for (int t = 0; t < threads; t++) {
      int thread = t;
      Thread w =
          new Thread(
              () -> {
                try {
                  startGate.await();
                  for (int i = 0;
                      i < iterations && !ending && !Thread.currentThread().isInterrupted();
                      i++) {
                    iteration(thread, i);
                    if (pauseMillis > 0) {
                      Thread.sleep(pauseMillis);
                    }
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } finally {
                  done.countDown();
                }
              },
              "faults-load-" + runId + "-" + t);
      w.setDaemon(true);
      workers.add(w);
      w.start();
    }
    startGate.countDown();
    return this;
  }

  private void iteration(int thread, int i) throws InterruptedException {
    String prefix = runId + "-t" + thread + "-i" + i + "-";
    String albumKey = prefix + "a";
    String albumId = Identifiers.albumIdForKey(albumKey);
    AcknowledgedWrites.Album album = acknowledged.album(albumId);
    byte[] body =
        Multipart.album(
            Multipart.IMAGE,
            Multipart.jsonProfile("Faults " + runId, "t" + thread + " i" + i, "1977"));
    Outcome a = write(() -> api.postAlbum(albumKey, body), albumId);
    if (a == Outcome.ACKED) {
      album.albumAcked();
    } else {
      album.albumUnknown();
      return; // reviews of an album the client was not told exists: not part of this workload
    }
    review(album, Vote.LIKE, prefix + "l1");
    review(album, Vote.LIKE, prefix + "l2");
    review(album, Vote.DISLIKE, prefix + "d");
  }

  private void review(AcknowledgedWrites.Album album, Vote vote, String key)
      throws InterruptedException {
    String wire = vote == Vote.LIKE ? "like" : "dislike";
    Outcome o = write(() -> api.vote(wire, album.albumId, key), null);
    if (o == Outcome.ACKED) {
      album.reviewAcked(vote);
    } else {
      album.reviewUnknown(vote);
    }
  }

  private enum Outcome {
    ACKED,
    UNKNOWN
  }

  private interface Call {
    Reply send() throws IOException;
  }

  /** One write until a 200 or its deadline; {@code expectedAlbumId} checks the POST's answer. */
  private Outcome write(Call call, String expectedAlbumId) throws InterruptedException {
    long deadline = System.nanoTime() + writeDeadline.toNanos();
    long backoff = 50;
    while (true) {
      stats.attempt();
      Reply r;
      try {
        r = call.send();
      } catch (IOException e) {
        stats.ioError(e);
        r = null;
      }
      long sleep;
      if (r != null && (r.status() == 502 || r.status() == 504)) {
        // A load balancer's answer when the server it chose failed mid-request (killed): as an
        // I/O error, the outcome is unknown and the same Idempotency-Key is sent again.
        stats.balancerError();
        r = null;
      }
      if (r != null) {
        stats.answered(r);
        observer.accept(r);
        if (r.status() == 200) {
          if (expectedAlbumId != null) {
            JsonNode id = Bodies.field(r.body(), "albumID");
            String got = id == null ? null : id.asText();
            if (!expectedAlbumId.equals(got)) {
              stats.wrongAlbumId("200 with albumID " + got + ", expected " + expectedAlbumId);
            }
          }
          stats.acked();
          stats.okAt(System.nanoTime());
          return Outcome.ACKED;
        }
        if (r.status() != 503) {
          stats.unexpected(r.status() + " " + r.body());
          stats.gaveUp();
          return Outcome.UNKNOWN; // a non-retryable answer to a valid write: counted as a failure
        }
        sleep = retryAfterMillis(r.retryAfter());
      } else {
        sleep = backoff;
        backoff = Math.min(1000, backoff * 2);
      }
      if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(sleep) > deadline) {
        stats.gaveUp();
        return Outcome.UNKNOWN;
      }
      Thread.sleep(sleep);
    }
  }

  /** Retry-After in seconds, capped at 1 s and spread out (so retries do not arrive in step). */
  private static long retryAfterMillis(String retryAfter) {
    long ms = 1000;
    if (retryAfter != null) {
      try {
        ms = Math.min(1000, Long.parseLong(retryAfter.trim()) * 1000);
      } catch (NumberFormatException e) {
        ms = 1000;
      }
    }
    return ms / 2 + ThreadLocalRandom.current().nextLong(ms / 2 + 1);
  }

  /** Waits until at least {@code writes} got a 200 (or the load ended). */
  public void awaitAcked(long writes, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (stats.writesAcked() < writes && done.getCount() > 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "only "
                + stats.writesAcked()
                + " of "
                + writes
                + " writes acknowledged after "
                + timeout);
      }
      Thread.sleep(20);
    }
  }

  /** Waits for every thread to finish; interrupts them and fails after {@code timeout}. */
  public void awaitDone(Duration timeout) throws InterruptedException {
    if (!done.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      workers.forEach(Thread::interrupt);
      done.await(10, TimeUnit.SECONDS);
      throw new IllegalStateException("the load did not finish within " + timeout + ": " + stats);
    }
  }

  public boolean isDone() {
    return done.getCount() == 0;
  }

  /**
   * Ends the load early and cleanly: each thread finishes the iteration it is in (its album and
   * reviews) and starts no other. For a load that must last as long as a fault whose length depends
   * on the machine: give it a generous iteration count, then end it once the fault is over.
   */
  public void endAfterCurrentIterations() {
    ending = true;
  }

  /** Stops the threads (for clean-up after a failure). */
  public void interrupt() {
    workers.forEach(Thread::interrupt);
  }

  public AcknowledgedWrites acknowledged() {
    return acknowledged;
  }

  public LoadStats stats() {
    return stats;
  }
}
