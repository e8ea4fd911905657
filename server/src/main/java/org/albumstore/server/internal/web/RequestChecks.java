package org.albumstore.server.internal.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.List;
import org.albumstore.common.event.Identifiers;
import org.albumstore.common.event.Vote;

/**
 * Validation of the values a request carries, with messages a user can act on. Values are never
 * echoed back: they may be huge or contain anything.
 */
final class RequestChecks {
  public static final String IDEMPOTENCY_KEY = "Idempotency-Key";
  private static final String TOKEN_RULE =
      "1 to " + Identifiers.MAX_LENGTH + " characters of A-Z, a-z, 0-9, '_' and '-'";

  private RequestChecks() {}

  public static String albumId(String raw) throws HttpProblem {
    if (!Identifiers.isValidToken(raw)) {
      throw HttpProblem.badRequest(
          raw == null || raw.isEmpty()
              ? "albumID is missing from the path"
              : "albumID must be " + TOKEN_RULE);
    }
    return raw;
  }

  public static Vote vote(String raw) throws HttpProblem {
    Vote v = Vote.fromWire(raw);
    if (v == null) {
      throw HttpProblem.badRequest("likeornot must be 'like' or 'dislike'");
    }
    return v;
  }

  /** The request's idempotency key, or null when it carries none. */
  public static String idempotencyKey(HttpServletRequest req) throws HttpProblem {
    return idempotencyKey(Collections.list(req.getHeaders(IDEMPOTENCY_KEY)));
  }

  /** The key among a request's {@code Idempotency-Key} header values: at most one, valid. */
  static String idempotencyKey(List<String> values) throws HttpProblem {
    if (values.isEmpty()) {
      return null;
    }
    if (values.size() > 1) {
      throw HttpProblem.badRequest("send at most one Idempotency-Key header");
    }
    String key = values.get(0);
    if (!Identifiers.isValidToken(key)) {
      throw HttpProblem.badRequest("Idempotency-Key must be " + TOKEN_RULE);
    }
    return key;
  }
}
