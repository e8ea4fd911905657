package org.albumstore.server.internal.publish;

import java.util.List;

/**
 * Why a write was not confirmed, in words a client can act on, each with the short tag the metrics
 * count it under. Shared instances: the exceptions carry no stack trace and no per-request state,
 * and thousands may be handed out per second while the server sheds load.
 */
final class Rejections {
  static final WriteRejectedException OVERLOADED =
      new WriteRejectedException("overloaded", "the server is overloaded; retry in a second");
  static final WriteRejectedException BROKER_UNAVAILABLE =
      new WriteRejectedException(
          "broker_unavailable", "the message broker is unavailable; retry in a second");
  static final WriteRejectedException BROKER_BLOCKED =
      new WriteRejectedException(
          "broker_blocked",
          "the message broker is refusing writes for now (a resource alarm); retry in a second");
  static final WriteRejectedException NOT_CONFIRMED =
      new WriteRejectedException(
          "not_confirmed",
          "the message broker did not confirm the write; retry with the same Idempotency-Key");

  /** As {@link #NOT_CONFIRMED} for the client; apart in the metrics, which alert on it. */
  static final WriteRejectedException CONFIRM_TIMEOUT =
      new WriteRejectedException("confirm_timeout", NOT_CONFIRMED.getMessage());

  static final WriteRejectedException UNROUTABLE =
      new WriteRejectedException(
          "unroutable",
          "the message broker has no queue for the write; retry once the service is repaired");
  static final WriteRejectedException WAITED_TOO_LONG =
      new WriteRejectedException(
          "waited_too_long",
          "the write waited too long for the message broker; retry with the same Idempotency-Key");
  static final WriteRejectedException SHUTTING_DOWN =
      new WriteRejectedException("shutting_down", "the server is shutting down; retry in a second");

  /** Every one of them, so that the metrics can show each reason from the start (at 0). */
  static final List<WriteRejectedException> ALL =
      List.of(
          OVERLOADED,
          BROKER_UNAVAILABLE,
          BROKER_BLOCKED,
          NOT_CONFIRMED,
          CONFIRM_TIMEOUT,
          UNROUTABLE,
          WAITED_TOO_LONG,
          SHUTTING_DOWN);

  private Rejections() {}
}
