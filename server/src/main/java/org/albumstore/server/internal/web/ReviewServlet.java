package org.albumstore.server.internal.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import java.util.UUID;
import org.albumstore.common.event.Identifiers;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.server.internal.metrics.RequestClock;
import org.albumstore.server.internal.publish.ConfirmedPublisher;
import org.albumstore.server.internal.read.AlbumReads;
import org.albumstore.server.internal.read.ReviewCounts;

/**
 * {@code POST /review/{like|dislike}/{albumID}} (200 with no body once confirmed) and {@code GET
 * /review/{albumID}}.
 *
 * <p>Every review carries an event ID, derived from the Idempotency-Key when there is one: the
 * consumer records a keyed review's event ID in the transaction that moves the counter, so a
 * retried review counts once. A review without a key is marked unkeyed: a retry of it is a new
 * review anyway, so the consumer records its message's ID instead (one ledger row per message). The
 * album need not exist: clients that number albums themselves are valid.
 */
public final class ReviewServlet extends ApiServlet {
  private final ConfirmedPublisher publisher;
  private final AlbumReads reads;
  private final AsyncRead asyncRead;
  private final long asyncTimeoutMs;

  public ReviewServlet(
      ConfirmedPublisher publisher, AlbumReads reads, AsyncRead asyncRead, long asyncTimeoutMs) {
    this.publisher = publisher;
    this.reads = reads;
    this.asyncRead = asyncRead;
    this.asyncTimeoutMs = asyncTimeoutMs;
  }

  @Override
  protected void handle(Route route, HttpServletRequest req, HttpServletResponse resp)
      throws HttpProblem, IOException {
    switch (route.resource()) {
      case VOTE -> vote(route.params().get(0), route.params().get(1), req, resp);
      case REVIEW_COUNTS -> counts(route.params().get(0), req, resp);
      default -> throw new HttpProblem(404, ErrorMessages.UNKNOWN_PATH);
    }
  }

  private void vote(String rawVote, String rawId, HttpServletRequest req, HttpServletResponse resp)
      throws HttpProblem, IOException {
    Vote vote = RequestChecks.vote(rawVote);
    String albumId = RequestChecks.albumId(rawId);
    String key = RequestChecks.idempotencyKey(req);
    // An unkeyed review needs no event ID of its own: it is counted under its message's ID.
    UUID eventId = key != null ? Identifiers.reviewEventIdForKey(key) : null;
    RequestClock.markValidated(req);
    AsyncWrite.answerWhenDone(
        req,
        resp,
        publisher.submit(new Review(eventId, albumId, vote, key != null)),
        asyncTimeoutMs,
        Responses::emptyOk);
  }

  private void counts(String rawId, HttpServletRequest req, HttpServletResponse resp)
      throws HttpProblem, IOException {
    String albumId = RequestChecks.albumId(rawId);
    asyncRead.serveWhenDone(req, resp, reads.reviewsLater(albumId), ReviewServlet::countsReply);
  }

  private static AsyncWrite.Success countsReply(Optional<ReviewCounts> counts) {
    if (counts.isEmpty()) {
      HttpProblem unknown = new HttpProblem(404, "no album and no reviews with this albumID");
      return r -> Responses.problem(r, unknown);
    }
    String json =
        Json.object(
            "likes", Long.toString(counts.get().likes()),
            "dislikes", Long.toString(counts.get().dislikes()));
    return r -> Responses.json(r, 200, json);
  }
}
