package org.albumstore.client.internal.history;

import java.util.ArrayList;
import java.util.List;
import org.albumstore.client.RequestType;
import org.albumstore.client.history.Operation;
import org.albumstore.client.history.Property;
import org.albumstore.client.history.PropertyResult;
import org.albumstore.client.history.Validity;
import org.albumstore.client.history.Violation;

/**
 * Read-your-writes: every {@code GET /albums/{id}} sent after that album's POST got its 200 answers
 * the album. A 404 or another album's body is a violation, and so is any other error of the service
 * (a 500); a 503 is honest unavailability, counted. A timeout, and a balancer's 502 or 504 (the
 * server it chose died or went silent mid-request, so no server answered), are unanswered reads:
 * counted, not violations, since no value was read. "After" means sent after the POST's answer
 * arrived (µs, one monotonic clock: the client is one JVM).
 */
final class ReadYourWritesChecker implements PropertyChecker {
  @Override
  public Property property() {
    return Property.READ_YOUR_WRITES;
  }

  @Override
  public PropertyResult check(HistoryModel model, DatabaseState db) {
    List<Violation> found = new ArrayList<>();
    long judged = 0;
    long unavailable = 0;
    long unanswered = 0;
    for (Operation g : model.operations()) {
      if (g.type() != RequestType.GET_ALBUM) {
        continue;
      }
      HistoryModel.Write create = model.album(g.albumId()).acknowledgedCreate();
      if (create == null || g.sentMicros() <= create.acknowledgedAt) {
        continue; // not acknowledged before the GET was sent: nothing promised
      }
      judged++;
      List<Operation> ops = new ArrayList<>(create.attempts);
      ops.add(g);
      if (g.isSuccess() && g.badBody()) {
        found.add(Violation.of(property(), "GET answered another album's profile", ops));
      } else if (g.status() == 404) {
        found.add(
            Violation.of(property(), "GET answered 404 for an album acknowledged before it", ops));
      } else if (g.status() == 503) {
        unavailable++;
      } else if (g.status() < 0 || g.status() == 502 || g.status() == 504) {
        unanswered++;
      } else if (!g.isSuccess()) {
        found.add(Violation.of(property(), "GET answered " + g.outcome(), ops));
      }
    }
    if (judged == 0) {
      return PropertyResult.unknown(
          property(), "no GET /albums was sent after its album's POST got its 200");
    }
    return new PropertyResult(
        property(),
        found.isEmpty() ? Validity.VALID : Validity.INVALID,
        null,
        found,
        judged,
        unavailable,
        unanswered);
  }
}
