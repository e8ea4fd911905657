package org.albumstore.server.publish;

/**
 * Why a write was not confirmed, in words a client can act on. Shared instances: the exceptions
 * carry no stack trace and no per-request state, and thousands may be handed out per second while
 * the server sheds load.
 */
final class Rejections {
  static final WriteRejectedException OVERLOADED =
      new WriteRejectedException("the server is overloaded; retry in a second");
  static final WriteRejectedException BROKER_UNAVAILABLE =
      new WriteRejectedException("the message broker is unavailable; retry in a second");
  static final WriteRejectedException BROKER_BLOCKED =
      new WriteRejectedException(
          "the message broker is refusing writes for now (a resource alarm); retry in a second");
  static final WriteRejectedException NOT_CONFIRMED =
      new WriteRejectedException(
          "the message broker did not confirm the write; retry with the same Idempotency-Key");
  static final WriteRejectedException UNROUTABLE =
      new WriteRejectedException(
          "the message broker has no queue for the write; retry once the service is repaired");
  static final WriteRejectedException WAITED_TOO_LONG =
      new WriteRejectedException(
          "the write waited too long for the message broker; retry with the same Idempotency-Key");
  static final WriteRejectedException SHUTTING_DOWN =
      new WriteRejectedException("the server is shutting down; retry in a second");

  private Rejections() {}
}
