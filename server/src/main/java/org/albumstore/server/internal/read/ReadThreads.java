package org.albumstore.server.internal.read;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Where the GETs' queries run, so that a slow database never holds more than a set number of
 * request threads, and writes always find one.
 *
 * <p>Why: Tomcat's request threads serve reads and writes alike. A write holds one only while its
 * request is parsed (it waits for its confirm without a thread), so a few threads serve hundreds of
 * writes in flight; a read holds one for its query. If a read could always query on its request
 * thread, a slow database (a lock, a failover, a restart) under enough reads would soon hold every
 * request thread, each waiting for its query or for a pool connection, and writes, which never
 * touch the database, would stop with them.
 *
 * <p>How: a read holds a permit while it queries on its request thread (running, or waiting for a
 * pool connection); there are {@code inlineMax} permits, fewer than the request threads. A query
 * runs on its request thread when a permit is free at once, which costs nothing more than before.
 * Otherwise its request goes async and the query waits in a bounded queue for one of the read
 * threads (one per pool connection), each of which takes a permit before it queries; beyond the
 * queue's bound the caller answers 503 at once. The permits are fair and taken through {@code
 * tryAcquire(0, ...)}, which honours fairness: while queued queries wait for a permit, a new read
 * queues behind them instead of overtaking them.
 *
 * <p>Why not one permit per connection, which would hold fewer request threads still: reads beyond
 * the pool's connections then all went async (a second pass through Tomcat, two hand-offs between
 * threads), and GETs at 64 connections cost 1.23x the server's CPU per request at 0.79x the rate
 * ({@code results/server-cpu-ab/}, {@code reads-get.csv}). Waiting for a pool connection on the
 * request thread is the cheaper queue while the database is healthy; the permits only bound how
 * many threads that queue may take.
 */
public final class ReadThreads implements AutoCloseable {
  /** A query waiting for a read thread. */
  public interface Queued extends Runnable {
    /** Answers the request without running the query (503): the server is stopping. */
    void abandon();
  }

  private final Semaphore permits;
  private final ThreadPoolExecutor executor;

  /**
   * @param inlineMax most reads querying on their request threads at once, queued ones included
   *     once they run: the permits
   * @param connections the read pool's connections: the read threads
   * @param maxQueued most queries waiting for a read thread; beyond, {@link #queue} refuses
   * @param threads creates the read threads (daemon, named; joined after {@link #close})
   */
  public ReadThreads(int inlineMax, int connections, int maxQueued, ThreadFactory threads) {
    this.permits = new Semaphore(inlineMax, true);
    this.executor =
        new ThreadPoolExecutor(
            connections,
            connections,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(maxQueued),
            threads,
            new ThreadPoolExecutor.AbortPolicy());
  }

  /**
   * Takes a permit for a query on the calling thread, if one is free now and no queued query waits
   * for it; then the caller must {@link #release} it.
   */
  public boolean tryAcquire() {
    try {
      return permits.tryAcquire(0, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Gives back a permit of {@link #tryAcquire}. */
  public void release() {
    permits.release();
  }

  /**
   * Queues a query for a read thread, which runs it holding a permit.
   *
   * @return false when the most queries already wait or the server is stopping: the caller answers
   *     503 at once
   */
  public boolean queue(Queued query) {
    try {
      executor.execute(new WithPermit(query));
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  /** A queued query: on a read thread, it takes a permit first. */
  private final class WithPermit implements Runnable {
    private final Queued query;

    WithPermit(Queued query) {
      this.query = query;
    }

    @Override
    public void run() {
      try {
        permits.acquire();
      } catch (InterruptedException e) {
        // Only close() interrupts: the server is stopping.
        query.abandon();
        return;
      }
      try {
        query.run();
      } finally {
        permits.release();
      }
    }
  }

  /** Queries waiting for a read thread now (a gauge). */
  public int queued() {
    return executor.getQueue().size();
  }

  /**
   * Stops taking queries, answers the queued ones 503, interrupts those waiting for a permit (they
   * answer 503 too) and waits, up to a query's timeout, for the running ones. The server drained
   * its requests in flight before, so normally nothing is left here.
   */
  @Override
  public void close() {
    for (Runnable r : executor.shutdownNow()) {
      if (r instanceof WithPermit w) {
        w.query.abandon();
      }
    }
    try {
      executor.awaitTermination(
          Duration.ofSeconds(AlbumReads.QUERY_TIMEOUT_SECONDS + 1L).toMillis(),
          TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
