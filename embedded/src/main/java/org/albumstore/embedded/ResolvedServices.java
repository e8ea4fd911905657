package org.albumstore.embedded;

import java.util.List;
import java.util.Objects;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;

/**
 * The broker and the database a runnable (or a test run) uses, each with where it came from.
 * Closing stops whatever was started for it, the database before the broker (the reverse of the
 * order they were started in), and leaves configured and local servers running.
 */
public final class ResolvedServices implements AutoCloseable {
  private final Resolved<AmqpSettings> broker;
  private final Resolved<DatabaseSettings> database;

  public ResolvedServices(Resolved<AmqpSettings> broker, Resolved<DatabaseSettings> database) {
    this.broker = Objects.requireNonNull(broker, "broker");
    this.database = Objects.requireNonNull(database, "database");
  }

  public AmqpSettings amqp() {
    return broker.settings();
  }

  public DatabaseSettings database() {
    return database.settings();
  }

  public Resolved<AmqpSettings> broker() {
    return broker;
  }

  public Source brokerSource() {
    return broker.source();
  }

  public Source databaseSource() {
    return database.source();
  }

  /** One line per part, for the start-up log and the run report. */
  public List<String> report() {
    return List.of(broker.description(), database.description());
  }

  /**
   * Stops the embedded parts, database first. Both are always attempted; the first failure is
   * thrown with the second attached.
   */
  @Override
  public void close() throws Exception {
    Closing.inOrder(database, broker);
  }

  @Override
  public String toString() {
    return String.join("; ", report());
  }
}
