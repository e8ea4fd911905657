package org.albumstore.client.internal.report;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.albumstore.client.RequestType;
import org.albumstore.client.internal.stats.Completion;
import org.albumstore.client.internal.stats.RequestObserver;
import org.albumstore.client.internal.stats.RunClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code requests.csv}: one row per finished request, streamed to disk by a writer thread of its
 * own through a bounded queue.
 *
 * <p>Why bounded and dropping: a load thread must never wait for the disk (that wait would be
 * measured as server latency), and the client's memory must stay flat. If the disk cannot keep up,
 * rows are dropped and counted, and the count is reported; the statistics are unaffected (they do
 * not come from this file).
 *
 * <p>Why the writer wakes on a clock instead of waiting on the queue: a writer blocked in {@code
 * take()} is parked whenever it has caught up, so nearly every row offered had to unpark it, a
 * futex wake-up on the event loop per request and a context switch for the writer. That was 17% of
 * the client's CPU at 30k requests/s (bench/profile-client.sh); a writer that sleeps {@value
 * #WAKE_MILLIS} ms between drains is woken 50 times a second whatever the rate, and the offer finds
 * no one to signal.
 */
public final class CsvRequestLog implements RequestObserver, AutoCloseable {
  public static final String HEADER = "start_time,request_type,latency_ms,response_code,attempts";
  private static final Logger log = LoggerFactory.getLogger(CsvRequestLog.class);
  private static final Completion END = new Completion(RequestType.GET_REVIEW, 0, 0, "", true, 0);
  private static final int BATCH = 1024;

  /** The writer's sleep between drains; the queue must hold this long's rows (it holds seconds). */
  static final long WAKE_MILLIS = 20;

  private final BlockingQueue<Completion> queue;
  private final BufferedWriter out;
  private final RunClock clock;
  private final Thread writer;
  private final LongAdder dropped = new LongAdder();
  private volatile boolean broken;
  private boolean closed;

  /**
   * @param capacity rows buffered before rows are dropped
   */
  public CsvRequestLog(Path file, RunClock clock, int capacity) throws IOException {
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.clock = clock;
    this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    out.write(HEADER);
    out.write('\n');
    writer = new Thread(this::drain, "csv-writer");
    writer.setDaemon(true);
    writer.start();
  }

  @Override
  public void onCompleted(Completion c) {
    if (broken || !queue.offer(c)) {
      dropped.increment();
    }
  }

  public long dropped() {
    return dropped.sum();
  }

  private void drain() {
    List<Completion> batch = new ArrayList<>(BATCH);
    StringBuilder line = new StringBuilder(96);
    boolean unflushed = false;
    try {
      while (true) {
        if (queue.drainTo(batch, BATCH) == 0) {
          if (unflushed) {
            out.flush(); // caught up: the rows so far reach the file
            unflushed = false;
          }
          Thread.sleep(WAKE_MILLIS);
          continue;
        }
        unflushed = true;
        for (Completion c : batch) {
          if (c == END) {
            out.flush();
            return;
          }
          line.setLength(0);
          format(c, line);
          out.append(line);
        }
        batch.clear();
      }
    } catch (IOException e) {
      broken = true;
      log.error("writing the per-request CSV failed; further rows are dropped", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** {@code 1732264321123,POST /albums,2.345,200,1}: latency in ms to the microsecond. */
  void format(Completion c, StringBuilder line) {
    long micros = c.latencyNanos() / 1_000;
    line.append(clock.epochMillis(c.startNanos()))
        .append(',')
        .append(c.type().label())
        .append(',')
        .append(micros / 1_000)
        .append('.');
    long frac = micros % 1_000;
    if (frac < 100) {
      line.append('0');
    }
    if (frac < 10) {
      line.append('0');
    }
    line.append(frac).append(',').append(c.code()).append(',').append(c.attempts()).append('\n');
  }

  /** Writes the rows still queued, then closes the file (bounded wait). */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (!broken && !queue.offer(END, 10, TimeUnit.SECONDS)) {
        log.warn("per-request CSV writer is stuck; closing without the rows still queued");
      }
      writer.join(10_000);
      if (writer.isAlive()) {
        writer.interrupt();
        writer.join(1_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      out.close();
    }
  }
}
