package org.albumstore.server.internal.read;

import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Collections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the PostgreSQL driver in this application's class loader known to {@link DriverManager},
 * and forgets it again when the application stops.
 *
 * <p>Why: in a WAR the driver sits in WEB-INF/lib, but {@code DriverManager} discovers drivers only
 * through the system class loader, once per JVM; HikariCP then finds "no suitable driver". Loading
 * the driver class here runs its static registration with the web application's loader. On shutdown
 * a driver this application registered is deregistered, so a redeploy does not pin the old class
 * loader. In the embedded server the application loader is the system loader and nothing is
 * deregistered: the driver belongs to the whole JVM there.
 */
public final class PostgresDriver {
  private static final Logger log = LoggerFactory.getLogger(PostgresDriver.class);
  private static final String DRIVER_CLASS = "org.postgresql.Driver";

  private PostgresDriver() {}

  public static void register() {
    try {
      Class.forName(DRIVER_CLASS, true, PostgresDriver.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(DRIVER_CLASS + " is missing from the class path", e);
    }
  }

  public static void deregisterIfOwnedByThisApplication() {
    ClassLoader ours = PostgresDriver.class.getClassLoader();
    if (ours == ClassLoader.getSystemClassLoader()) {
      return;
    }
    for (Driver d : Collections.list(DriverManager.getDrivers())) {
      if (d.getClass().getClassLoader() == ours) {
        try {
          DriverManager.deregisterDriver(d);
        } catch (SQLException e) {
          log.warn("Could not deregister JDBC driver {}", d.getClass().getName(), e);
        }
      }
    }
  }
}
