package org.albumstore.client;

import java.time.Duration;
import org.albumstore.client.internal.broker.BrokerSampler;
import org.albumstore.client.internal.broker.DrainWaiter;
import org.albumstore.client.internal.http.AlbumImage;
import org.albumstore.client.internal.http.AlbumStoreClient;
import org.albumstore.client.internal.http.RetryPolicy;
import org.albumstore.client.internal.http.Sleeper;
import org.albumstore.client.internal.http.Transport;
import org.albumstore.client.internal.live.RunWatch;
import org.albumstore.client.internal.verify.AcknowledgedWrites;
import org.albumstore.client.internal.verify.VerificationResult;
import org.albumstore.client.internal.verify.Verifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After the load: wait (bounded) for the queue to drain, then check every album's counts.
 *
 * <p>How long disagreeing albums are re-read depends on what the queue figures can promise. After
 * the management API said "drained" only a short settle time (its figures lag by up to its 5 s
 * refresh). If the queue never drained, once. With no figures, or only the AMQP fallback (which
 * does not see messages in flight at a consumer), until the drain timeout: the counts themselves
 * are then the only evidence that everything was applied.
 */
final class PostLoadCheck {
  static final Duration SETTLE = Duration.ofSeconds(10);
  private static final Logger log = LoggerFactory.getLogger(PostLoadCheck.class);

  private final ClientConfig.Verification verification;
  private final Sleeper sleeper;
  private final RunWatch watch;

  /**
   * @param sleeper used for every wait; it throws InterruptedException when the run is stopped
   * @param watch told when the verification starts and of each album it reads
   */
  PostLoadCheck(ClientConfig.Verification verification, Sleeper sleeper, RunWatch watch) {
    this.verification = verification;
    this.sleeper = sleeper;
    this.watch = watch;
  }

  record Outcome(DrainWaiter.Result drain, RunSummary.Verification verification) {}

  Outcome run(
      BrokerSampler sampler,
      long loadEndEpochMillis,
      Transport transport,
      AlbumImage image,
      AcknowledgedWrites acknowledged)
      throws InterruptedException {
    DrainWaiter.Result drain =
        DrainWaiter.await(sampler, loadEndEpochMillis, verification.drainTimeout(), sleeper);
    Duration recheck;
    String note;
    switch (drain.status()) {
      case DRAINED -> {
        recheck = SETTLE;
        note = "queue drained; disagreeing counts re-read for up to " + SETTLE.toSeconds() + " s";
      }
      case TIMED_OUT -> {
        recheck = Duration.ZERO;
        note = "queue did not drain within " + verification.drainTimeout().toSeconds() + " s";
      }
      default -> {
        recheck = verification.drainTimeout();
        note = "no complete queue figures; counts polled until they agreed or the drain timeout";
      }
    }
    log.info("verifying {} albums ({})", acknowledged.albums(), note);
    // Its own client: these reads are not part of the load's statistics, and an album that
    // disagrees is re-read by the verifier's loop rather than by quick retries.
    watch.verifying(acknowledged.albums());
    AlbumStoreClient reader =
        AlbumStoreClient.create(transport, RetryPolicy.of(0), watch.verifyObserver(), image);
    VerificationResult r =
        new Verifier(reader, verification.threads(), sleeper).verify(acknowledged, recheck);
    return new Outcome(
        drain,
        new RunSummary.Verification(
            r.ok() ? "ok" : "mismatches",
            r.albums(),
            r.mismatches(),
            r.firstMismatches(),
            r.rounds(),
            r.seconds(),
            note));
  }
}
