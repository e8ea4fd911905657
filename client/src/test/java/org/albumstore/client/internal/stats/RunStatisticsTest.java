package org.albumstore.client.internal.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.albumstore.client.RequestType;
import org.albumstore.client.TypeStats;
import org.junit.jupiter.api.Test;

class RunStatisticsTest {
  private static Completion ok(RequestType t, long micros) {
    return new Completion(t, 0, micros * 1_000, "200", true, 1);
  }

  @Test
  void inFlightIsWhatStartedAndHasNotFinished() {
    RunStatistics stats = new RunStatistics();
    for (int i = 0; i < 3; i++) {
      stats.onStarted(RequestType.POST_ALBUMS);
    }
    stats.onStarted(RequestType.GET_REVIEW);
    assertThat(stats.inFlight()).isEqualTo(4);

    stats.onCompleted(ok(RequestType.POST_ALBUMS, 10));
    stats.onCompleted(new Completion(RequestType.GET_REVIEW, 0, 1, "503", false, 3));

    assertThat(stats.inFlight()).isEqualTo(2); // a failed request has finished too
  }

  @Test
  void percentilesOfKnownValuesAreExact() {
    RunStatistics stats = new RunStatistics();
    for (long us = 1; us <= 1000; us++) {
      stats.onCompleted(ok(RequestType.POST_ALBUMS, us));
    }
    stats.tick();
    TypeStats s = stats.stats(RequestType.POST_ALBUMS, 2.0);
    assertThat(s.count()).isEqualTo(1000);
    assertThat(s.ok()).isEqualTo(1000);
    assertThat(s.failed()).isZero();
    assertThat(s.throughput()).isEqualTo(500.0);
    // Values below 2,048 µs are stored exactly at 3 significant digits.
    assertThat(s.minMs()).isEqualTo(0.001);
    assertThat(s.p50Ms()).isEqualTo(0.500);
    assertThat(s.p95Ms()).isEqualTo(0.950);
    assertThat(s.p99Ms()).isEqualTo(0.990);
    assertThat(s.p999Ms()).isEqualTo(0.999);
    assertThat(s.maxMs()).isEqualTo(1.000);
    assertThat(s.meanMs()).isCloseTo(0.5005, within(1e-9));
  }

  @Test
  void valuesRecordedByManyThreadsOverManyIntervalsMergeToTheSameFigures() throws Exception {
    RunStatistics stats = new RunStatistics();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int offset = t;
      threads.add(
          new Thread(
              () -> {
                // Thread t records every 4th value of 1..1000, in ms-scale: 1..1000 ms.
                for (long v = 1 + offset; v <= 1000; v += 4) {
                  stats.onCompleted(ok(RequestType.POST_LIKE, v * 1000));
                }
              }));
    }
    threads.forEach(Thread::start);
    int ticks = 0;
    for (Thread t : threads) {
      while (t.isAlive()) {
        stats.tick(); // intervals are cut at arbitrary points while the writers run
        ticks++;
        t.join(1);
      }
    }
    stats.tick();
    TypeStats s = stats.stats(RequestType.POST_LIKE, 1.0);
    assertThat(ticks).isPositive();
    assertThat(s.ok()).isEqualTo(1000);
    // 1..1000 ms lands in buckets of 1 ms width below 2.048 s: each percentile within 0.1 %.
    assertThat(s.p50Ms()).isCloseTo(500, within(0.5));
    assertThat(s.p99Ms()).isCloseTo(990, within(1.0));
    assertThat(s.maxMs()).isCloseTo(1000, within(1.0));
  }

  @Test
  void failuresAreCountedByCauseAndKeptOutOfTheLatencies() {
    RunStatistics stats = new RunStatistics();
    stats.onCompleted(ok(RequestType.POST_DISLIKE, 100));
    stats.onCompleted(new Completion(RequestType.POST_DISLIKE, 0, 5_000_000_000L, "503", false, 6));
    stats.onCompleted(
        new Completion(
            RequestType.POST_DISLIKE, 0, 30_000_000_000L, "SocketTimeoutException", false, 6));
    stats.onRetry(RequestType.POST_DISLIKE, "503");
    stats.onRetry(RequestType.POST_DISLIKE, "503");
    RunStatistics.Tick tick = stats.tick();

    assertThat(tick.types().get(RequestType.POST_DISLIKE))
        .isEqualTo(new IntervalStats(1, 2, 0.1, 0.1));
    assertThat(tick.failedSoFar()).isEqualTo(2);
    assertThat(tick.completedSoFar()).isEqualTo(3);
    TypeStats s = stats.stats(RequestType.POST_DISLIKE, 1.0);
    assertThat(s.count()).isEqualTo(3);
    assertThat(s.failed()).isEqualTo(2);
    assertThat(s.retries()).isEqualTo(10);
    assertThat(s.maxMs()).isEqualTo(0.1);
    assertThat(stats.failures())
        .containsEntry("POST /review/dislike: 503", 1L)
        .containsEntry("POST /review/dislike: SocketTimeoutException", 1L);
    assertThat(stats.retryCauses())
        .containsExactlyEntriesOf(java.util.Map.of("POST /review/dislike: 503", 2L));
  }

  @Test
  void eachTickCoversOnlyItsOwnIntervalAndAllWritesMergeTheWriteTypes() {
    RunStatistics stats = new RunStatistics();
    stats.onCompleted(ok(RequestType.POST_ALBUMS, 1000));
    stats.onCompleted(ok(RequestType.POST_LIKE, 2000));
    stats.onCompleted(ok(RequestType.GET_REVIEW, 9000));
    RunStatistics.Tick first = stats.tick();
    assertThat(first.writes().ok()).isEqualTo(2);
    assertThat(first.writes().p99Ms()).isEqualTo(2.0);
    assertThat(first.types().get(RequestType.GET_REVIEW).ok()).isEqualTo(1);

    stats.onCompleted(ok(RequestType.POST_DISLIKE, 1500));
    RunStatistics.Tick second = stats.tick();
    assertThat(second.writes().ok()).isEqualTo(1);
    assertThat(second.types().get(RequestType.POST_ALBUMS).ok()).isZero();
    assertThat(second.completedSoFar()).isEqualTo(4);

    TypeStats all = stats.allWrites(1.0);
    assertThat(all.type()).isEqualTo("all writes");
    assertThat(all.ok()).isEqualTo(3);
    assertThat(all.minMs()).isEqualTo(1.0);
    assertThat(all.maxMs()).isEqualTo(2.0);
    // Above 2,048 µs values share buckets: reported to within 0.1 % (HdrHistogram's guarantee).
    assertThat(stats.stats(RequestType.GET_REVIEW, 1.0).maxMs()).isCloseTo(9.0, within(0.009));
  }

  @Test
  void anEmptyTypeReportsZerosNotNaN() {
    TypeStats s = new RunStatistics().stats(RequestType.GET_REVIEW, 0);
    assertThat(List.of(s.meanMs(), s.minMs(), s.p50Ms(), s.p99Ms(), s.maxMs(), s.throughput()))
        .containsOnly(0.0);
  }
}
