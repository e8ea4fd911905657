package org.albumstore.consumer.sql;

/**
 * A bug planted on purpose, for the tests that prove a checker catches it (the operation history's
 * checker must fail on a consumer that breaks exactly-once). Reachable only from Java ({@code
 * AlbumStoreConsumer.startWithPlantedDefect}): no flag, variable or context parameter leads here,
 * so no deployment can turn it on by a setting.
 */
public enum PlantedDefect {
  /** The consumer as it is. */
  NONE,
  /**
   * A review the ledger had already applied moves its counter again: a redelivered message, or a
   * client's retry of a write that was applied, is counted twice. The ledger row is still written.
   */
  COUNT_REDELIVERIES_AGAIN
}
