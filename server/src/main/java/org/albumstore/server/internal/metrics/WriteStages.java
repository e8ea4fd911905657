package org.albumstore.server.internal.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.albumstore.common.metrics.MetricNames;
import org.albumstore.common.metrics.ServerStage;
import org.albumstore.common.metrics.ServiceMeters;
import org.albumstore.server.internal.publish.ConfirmedPublisher;
import org.albumstore.server.internal.publish.PendingWrite;
import org.albumstore.server.internal.publish.PublishObserver;
import org.albumstore.server.internal.publish.WriteRejectedException;

/**
 * Where a confirmed write spends its time inside the server, as {@code
 * albumstore_write_stage_seconds{stage}}, one sample per write and stage, so that the stages' means
 * add up to the client's time of a successful write:
 *
 * <ol>
 *   <li>{@code arrival}: client send → servlet in (the client library, the network, Tomcat's
 *       accept, queueing for a worker thread and parsing), from the request's {@code
 *       X-Request-Start}; only requests that carry one;
 *   <li>{@code validate}: servlet in → handed to the publisher (reading the body, parsing,
 *       validating);
 *   <li>{@code channel_wait}: waiting in the publish queue for a publisher thread and its channel
 *       (the channel pool's "borrow" time), including the wait for the bundle before it to be
 *       confirmed (one in flight unless a full bundle waits: {@code publish/Bundler});
 *   <li>{@code confirm}: the bundle starts → the broker's confirm (encode, publish, wait);
 *   <li>{@code respond}: confirm → this write's response handed to Tomcat (the writes of one
 *       message are answered in turn, so this grows with the bundle);
 *   <li>{@code complete}: response handed to Tomcat → the request completed (Tomcat dispatches the
 *       completion to one of its threads, which flushes the response).
 * </ol>
 *
 * <p>What no stage covers is the response's way back to the client; the client shows it as the
 * remainder.
 *
 * <p>Per broker message: {@code albumstore_publish_confirm_seconds} (bundle start → confirm) and
 * {@code albumstore_publish_bundle_writes} (writes per message, i.e. the group-commit factor).
 *
 * <p>Per refused write: {@code albumstore_write_rejected_total{reason}}, the 503s of the write path
 * by why ({@code overloaded}, {@code broker_blocked}, {@code confirm_timeout}, ...: {@link
 * ConfirmedPublisher#rejectionReasons()}), every reason registered from the start so that an alert
 * or a panel sees 0 rather than no series.
 */
final class WriteStages implements PublishObserver {
  static final String CONFIRM = "albumstore.publish.confirm";
  static final String BUNDLE_WRITES = "albumstore.publish.bundle.writes";
  static final String REJECTED = "albumstore.write.rejected";

  private final Timer arrival;
  private final Timer validate;
  private final Timer channelWait;
  private final Timer confirm;
  private final Timer respond;
  private final Timer complete;
  private final Timer messageConfirm;
  private final DistributionSummary bundleWrites;
  private final Map<String, Counter> rejected;

  WriteStages(MeterRegistry registry) {
    arrival = stage(registry, ServerStage.ARRIVAL, "client send -> servlet in (X-Request-Start)");
    validate = stage(registry, ServerStage.VALIDATE, "servlet in -> handed to the publisher");
    channelWait = stage(registry, ServerStage.CHANNEL_WAIT, "waiting for a publisher channel");
    confirm = stage(registry, ServerStage.CONFIRM, "bundle start -> broker confirm");
    respond = stage(registry, ServerStage.RESPOND, "confirm -> response handed to Tomcat");
    complete =
        stage(registry, ServerStage.COMPLETE, "response handed to Tomcat -> request completed");
    messageConfirm =
        ServiceMeters.stageTimer(CONFIRM)
            .description("Per broker message: bundle start -> publisher confirm")
            .register(registry);
    bundleWrites =
        DistributionSummary.builder(BUNDLE_WRITES)
            .description("Writes per broker message (group commit)")
            .publishPercentileHistogram()
            .minimumExpectedValue(1.0)
            .maximumExpectedValue(10_000.0)
            .register(registry);
    rejected =
        ConfirmedPublisher.rejectionReasons().stream()
            .collect(
                Collectors.toUnmodifiableMap(
                    reason -> reason,
                    reason ->
                        Counter.builder(REJECTED)
                            .description("Writes answered 503 without a confirm, by reason")
                            .tag("reason", reason)
                            .register(registry)));
  }

  private static Timer stage(MeterRegistry registry, ServerStage stage, String what) {
    return ServiceMeters.stageTimer(MetricNames.SERVER_STAGE)
        .description("Per confirmed write, time in one stage of the server: " + what)
        .tag(MetricNames.STAGE_TAG, stage.tag())
        .register(registry);
  }

  void arrived(long nanos) {
    arrival.record(nanos, TimeUnit.NANOSECONDS);
  }

  void validated(long nanos) {
    validate.record(nanos, TimeUnit.NANOSECONDS);
  }

  void completed(long nanos) {
    complete.record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void messageConfirmed(int writes, long startNanos, long confirmedNanos) {
    messageConfirm.record(confirmedNanos - startNanos, TimeUnit.NANOSECONDS);
    bundleWrites.record(writes);
  }

  @Override
  public void writesRejected(WriteRejectedException why, int writes) {
    Counter c = rejected.get(why.reason());
    if (c != null) {
      c.increment(writes);
    }
  }

  @Override
  public void writeAnswered(
      PendingWrite write, long startNanos, long confirmedNanos, long answeredNanos) {
    channelWait.record(startNanos - write.enqueuedNanos(), TimeUnit.NANOSECONDS);
    confirm.record(confirmedNanos - startNanos, TimeUnit.NANOSECONDS);
    respond.record(answeredNanos - confirmedNanos, TimeUnit.NANOSECONDS);
  }
}
