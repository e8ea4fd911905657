package org.albumstore.consumer.sql;

import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Applies one {@link Aggregate} in one transaction and commits, or throws with nothing of it kept.
 * The consumer runs {@link BatchWriter}; this interface is the seam through which a test gives it
 * another (a bug planted on purpose around the real writer, to prove that a checker catches it),
 * with {@code AlbumStoreConsumer.start(..., Factory)}. The consumer's command line has no way to
 * choose one: no setting reaches this seam.
 */
@FunctionalInterface
public interface AggregateWriter {
  WriteResult write(Aggregate batch) throws SQLException;

  /**
   * Makes the consumer's writer on its database pool; the consumer's own is {@code
   * BatchWriter::new}.
   */
  @FunctionalInterface
  interface Factory {
    AggregateWriter create(DataSource pool);
  }
}
