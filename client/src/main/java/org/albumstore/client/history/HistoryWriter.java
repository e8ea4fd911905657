package org.albumstore.client.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.GZIPOutputStream;
import org.albumstore.client.RequestType;
import org.albumstore.client.internal.http.AlbumStoreClient;
import org.albumstore.client.internal.http.ReviewCounts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the run's operation history, {@value HistoryFile#NAME}: one JSON line per attempt of every
 * request, between a header and a trailer that counts the lines ({@link HistoryFile} has the
 * format).
 *
 * <p>Why a queue and a writer thread, as {@code requests.csv} has: the hot path (often a Netty
 * event loop) only allocates one small object and offers it; parsing the answer's body, formatting
 * and compressing happen on the writer thread, which wakes every {@value #WAKE_MILLIS} ms rather
 * than being signalled per attempt (see {@code CsvRequestLog} for what signalling cost).
 *
 * <p>Why it waits when the queue is full instead of dropping as the CSV does: a history with a hole
 * would make the checker wrong (a write that is not in it looks like a phantom), so a full queue
 * slows the load down instead, and the waits are counted. Only an attempt that could not be queued
 * even after {@value #OFFER_WAIT_SECONDS} s, or any after a write error, is lost; the trailer
 * counts them, and the checker refuses to judge a history with losses.
 */
public final class HistoryWriter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HistoryWriter.class);
  private static final int BATCH = 1024;
  static final long WAKE_MILLIS = 20;
  private static final long OFFER_WAIT_SECONDS = 10;
  private static final Attempt END = new Attempt(null, null, 0, 0, null, null);

  private record Attempt(
      String process,
      ApiRequest request,
      long sentNanos,
      long endNanos,
      ApiResponse response,
      String failure) {}

  private final BlockingQueue<Attempt> queue;
  private final JsonGenerator json;
  private final long originNanos;
  private final Thread writer;
  private final LongAdder waited = new LongAdder();
  private final LongAdder lost = new LongAdder();
  private long written; // the writer thread's
  private volatile boolean broken;
  private boolean closed;

  /**
   * @param originNanos the {@link System#nanoTime()} that the file's times count from
   * @param originEpochMillis the wall-clock time of {@code originNanos}, for people
   * @param capacity attempts queued before a sender waits
   */
  public HistoryWriter(
      Path file, String runId, long originNanos, long originEpochMillis, int capacity)
      throws IOException {
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.originNanos = originNanos;
    OutputStream out =
        new GZIPOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 65_536), 65_536);
    this.json = new JsonFactory().createGenerator(out);
    json.setRootValueSeparator(null);
    HistoryFile.writeHeader(json, runId, originEpochMillis);
    writer = new Thread(this::drain, "history-writer");
    writer.setDaemon(true);
    writer.start();
  }

  /** What one writer or reader tells about its attempts; {@code process} names it in the file. */
  public AttemptLog process(String process) {
    return (request, sentNanos, endNanos, response, failure) ->
        offer(new Attempt(process, request, sentNanos, endNanos, response, failure));
  }

  private void offer(Attempt a) {
    if (broken) {
      lost.increment();
      return;
    }
    if (queue.offer(a)) {
      return;
    }
    waited.increment();
    try {
      if (!queue.offer(a, OFFER_WAIT_SECONDS, TimeUnit.SECONDS)) {
        lost.increment();
      }
    } catch (InterruptedException e) {
      lost.increment();
      Thread.currentThread().interrupt();
    }
  }

  /** Attempts that had to wait for room in the queue. */
  public long waited() {
    return waited.sum();
  }

  /** Attempts not in the file (the queue stayed full, or writing failed). */
  public long lost() {
    return lost.sum();
  }

  private void drain() {
    List<Attempt> batch = new ArrayList<>(BATCH);
    try {
      while (true) {
        if (queue.drainTo(batch, BATCH) == 0) {
          Thread.sleep(WAKE_MILLIS);
          continue;
        }
        for (Attempt a : batch) {
          if (a == END) {
            return;
          }
          write(a);
          written++;
        }
        batch.clear();
      }
    } catch (IOException e) {
      broken = true;
      log.error("writing the operation history failed; further attempts are lost", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void write(Attempt a) throws IOException {
    ApiRequest r = a.request();
    RequestType type = r.type();
    ApiResponse response = a.response();
    boolean ok = response != null && response.isSuccess();
    String albumId = type == RequestType.POST_ALBUMS ? null : lastSegment(r.path());
    ReviewCounts counts = null;
    boolean bad = false;
    if (ok && type == RequestType.POST_ALBUMS) {
      albumId = AlbumStoreClient.createdIdOf(response.body());
      bad = albumId == null;
    } else if (ok && type == RequestType.GET_REVIEW) {
      counts = AlbumStoreClient.countsOf(response.body());
      bad = counts.status() != ReviewCounts.Status.FOUND;
    } else if (ok && type == RequestType.GET_ALBUM) {
      bad = !AlbumStoreClient.isProfile(response.body());
    }
    String outcome = response != null ? Integer.toString(response.status()) : a.failure();
    HistoryFile.writeOperation(
        json,
        new Operation(
            0,
            a.process(),
            type,
            r.idempotencyKey(),
            albumId,
            micros(a.sentNanos()),
            micros(a.endNanos()),
            outcome,
            counts == null || bad ? -1 : counts.likes(),
            counts == null || bad ? -1 : counts.dislikes(),
            bad));
  }

  private long micros(long nanos) {
    return (nanos - originNanos) / 1_000;
  }

  private static String lastSegment(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** Writes what is still queued and the trailer, then closes the file (bounded wait). */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (!broken && !queue.offer(END, OFFER_WAIT_SECONDS, TimeUnit.SECONDS)) {
        log.warn("history writer is stuck; closing without the attempts still queued");
      }
      writer.join(OFFER_WAIT_SECONDS * 1_000);
      if (writer.isAlive()) {
        writer.interrupt();
        writer.join(1_000);
      }
      if (writer.isAlive()) {
        broken = true; // still inside a write: no trailer, so the file reads as incomplete
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    lost.add(queue.size());
    try {
      if (!broken) {
        HistoryFile.writeTrailer(json, written, lost.sum());
      }
    } finally {
      json.close();
    }
  }
}
