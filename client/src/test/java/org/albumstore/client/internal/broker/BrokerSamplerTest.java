package org.albumstore.client.internal.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.albumstore.client.QueueSample;
import org.junit.jupiter.api.Test;

class BrokerSamplerTest {
  /** Answers with the given depths in turn (the last one forever), or always fails. */
  private static final class FakeProbe implements QueueProbe {
    final String source;
    final List<QueueSample> answers;
    boolean closed;
    int i;

    FakeProbe(String source, QueueSample... answers) {
      this.source = source;
      this.answers = List.of(answers);
    }

    @Override
    public String source() {
      return source;
    }

    @Override
    public synchronized QueueSample sample() throws IOException {
      if (answers.isEmpty()) {
        throw new IOException("connection refused");
      }
      QueueSample s = answers.get(Math.min(i++, answers.size() - 1));
      return new QueueSample(
          System.currentTimeMillis(),
          source,
          s.depth(),
          s.unacked(),
          s.publishRate(),
          s.deliverRate());
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  private static QueueSample depth(long d, long unacked) {
    return new QueueSample(0, "", d, unacked, 100, 90);
  }

  @Test
  void fallsBackToTheFirstSourceThatAnswers() {
    FakeProbe api = new FakeProbe("management-api");
    FakeProbe amqp = new FakeProbe("amqp", depth(5, -1));
    try (BrokerSampler s = BrokerSampler.start(List.of(api, amqp), Duration.ofSeconds(60))) {
      assertThat(s.available()).isTrue();
      assertThat(s.source()).isEqualTo("amqp");
      assertThat(s.latest().depth()).isEqualTo(5);
      assertThat(api.closed).isTrue();
    }
    assertThat(amqp.closed).isTrue();
  }

  @Test
  void aReadingWithoutCountsDoesNotHideTheDepthJustBeforeIt() throws Exception {
    // The management plugin between two collections: counts absent from the newest reading.
    FakeProbe api = new FakeProbe("management-api", depth(7, 0), depth(-1, -1));
    try (BrokerSampler s = BrokerSampler.start(List.of(api), Duration.ofMillis(5))) {
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (s.latest().depthKnown()) {
        assertThat(System.nanoTime()).as("a reading without counts came").isLessThan(deadline);
        Thread.sleep(5);
      }
      assertThat(s.latestDepth().depth()).isEqualTo(7);
    }
  }

  @Test
  void theDepthAtTheEndIsReadAgainWhenTheLastReadingsHadNone() throws Exception {
    // No reading with counts yet (timeouts on a loaded machine, counts not collected): the depth at
    // the end is read anew until one has them, not reported unknown.
    FakeProbe api =
        new FakeProbe("management-api", depth(-1, -1), depth(-1, -1), depth(-1, -1), depth(3, 0));
    try (BrokerSampler s = BrokerSampler.start(List.of(api), Duration.ofSeconds(60))) {
      assertThat(s.latestDepth().depthKnown()).isFalse();
      assertThat(s.depthAtEnd(Duration.ofSeconds(10)).depth()).isEqualTo(3);
    }
  }

  @Test
  void theDepthAtTheEndIsUnknownWhenNoReadingWithinTheLimitHasIt() throws Exception {
    FakeProbe api = new FakeProbe("management-api", depth(-1, -1));
    try (BrokerSampler s = BrokerSampler.start(List.of(api), Duration.ofSeconds(60))) {
      assertThat(s.depthAtEnd(Duration.ofMillis(500)).depthKnown()).isFalse();
    }
  }

  @Test
  void noSourceMeansNotAvailableAndUnknownReadings() {
    try (BrokerSampler s =
        BrokerSampler.start(List.of(new FakeProbe("management-api")), Duration.ofSeconds(60))) {
      assertThat(s.available()).isFalse();
      assertThat(s.source()).isEqualTo("n/a");
      assertThat(s.latest().depthKnown()).isFalse();
      assertThat(s.aggregate().maxDepth()).isNull();
    }
  }

  @Test
  void waitsForTheQueueToDrainAfterTheLoad() throws Exception {
    FakeProbe api =
        new FakeProbe("management-api", depth(0, 0), depth(50, 3), depth(7, 1), depth(0, 0));
    try (BrokerSampler s = BrokerSampler.start(List.of(api), Duration.ofMillis(10))) {
      // The empty reading taken at start is from before the load's end and must not count.
      long loadEnd = System.currentTimeMillis() + 1;
      DrainWaiter.Result r =
          DrainWaiter.await(s, loadEnd, Duration.ofSeconds(30), d -> Thread.sleep(5));
      assertThat(r.status()).isEqualTo(DrainWaiter.Status.DRAINED);
      assertThat(r.seconds()).isNotNull();
      assertThat(s.aggregate().maxDepth()).isEqualTo(50);
      assertThat(s.aggregate().meanPublishRate()).isEqualTo(100.0);
    }
  }

  @Test
  void theAmqpFallbackCanOnlySayReadyEmpty() throws Exception {
    FakeProbe amqp = new FakeProbe("amqp", depth(0, -1));
    try (BrokerSampler s = BrokerSampler.start(List.of(amqp), Duration.ofMillis(10))) {
      DrainWaiter.Result r =
          DrainWaiter.await(
              s, System.currentTimeMillis() - 1000, Duration.ofSeconds(30), d -> Thread.sleep(5));
      assertThat(r.status()).isEqualTo(DrainWaiter.Status.READY_EMPTY);
    }
  }

  @Test
  void aQueueThatNeverDrainsTimesOut() throws Exception {
    try (BrokerSampler s =
        BrokerSampler.start(
            List.of(new FakeProbe("management-api", depth(9, 0))), Duration.ofMillis(10))) {
      DrainWaiter.Result r = DrainWaiter.await(s, 0, Duration.ofMillis(50), d -> Thread.sleep(5));
      assertThat(r.status()).isEqualTo(DrainWaiter.Status.TIMED_OUT);
      assertThat(r.emptied()).isFalse();
    }
  }

  @Test
  void withoutASourceTheDrainIsUnknown() throws Exception {
    try (BrokerSampler s = BrokerSampler.start(List.of(), Duration.ofSeconds(1))) {
      assertThat(DrainWaiter.await(s, 0, Duration.ofSeconds(1), d -> {}).status())
          .isEqualTo(DrainWaiter.Status.UNKNOWN);
    }
  }
}
