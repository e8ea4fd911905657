package org.albumstore.server.read;

/**
 * Whether writes acknowledged to clients may still wait to be applied. A read whose album did not
 * appear within its bound cannot say the album does not exist while they may: its honest answer is
 * then 503 (retry), not 404.
 */
@FunctionalInterface
public interface Backlog extends AutoCloseable {
  /** Nothing waits: a read that did not find its album within the bound gets its 404. */
  Backlog NONE = () -> false;

  /** True when unapplied writes may be waiting, or when that cannot be known now. */
  boolean mayHoldUnappliedWrites();

  /** Releases what asking needs; {@link AlbumWaiters#close} calls it. */
  @Override
  default void close() {}
}
