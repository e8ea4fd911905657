package org.albumstore.embedded;

import java.util.Objects;

/**
 * One resolved service: the settings to reach it, where it came from, a line for the report, and
 * (for an embedded one) the server to stop when done.
 *
 * @param <S> {@code AmqpSettings} or {@code DatabaseSettings}
 */
public final class Resolved<S> implements AutoCloseable {
  private final S settings;
  private final Source source;
  private final String description;
  private final AutoCloseable owned;

  Resolved(S settings, Source source, String description, AutoCloseable owned) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.source = Objects.requireNonNull(source, "source");
    this.description = Objects.requireNonNull(description, "description");
    if ((source == Source.EMBEDDED) != (owned != null)) {
      throw new IllegalArgumentException("exactly the embedded services own a server");
    }
    this.owned = owned;
  }

  public S settings() {
    return settings;
  }

  public Source source() {
    return source;
  }

  /** E.g. {@code broker: local RabbitMQ at 127.0.0.1:5672}; never contains a password. */
  public String description() {
    return description;
  }

  /** Stops the embedded server, if this is one; configured and local services are left alone. */
  @Override
  public void close() throws Exception {
    if (owned != null) {
      owned.close();
    }
  }

  @Override
  public String toString() {
    return description;
  }
}
