package org.albumstore.common.config;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where settings come from: explicit overrides first (command-line flags, servlet context init
 * parameters), then {@code ALBUMSTORE_*} environment variables, then the default the caller states.
 *
 * <p>Read once at start-up into the immutable settings records ({@link AmqpSettings}, {@link
 * DatabaseSettings}, ...) and passed in; nothing deeper in the code reads the environment. A value
 * that does not parse is an error naming the variable, never a silent fallback to the default.
 */
public final class Env {
  private final Map<String, String> values;

  private Env(Map<String, String> values) {
    this.values = Map.copyOf(values);
  }

  /** The process environment. */
  public static Env system() {
    return of(System.getenv());
  }

  public static Env of(Map<String, String> values) {
    Map<String, String> copy = new HashMap<>();
    values.forEach(
        (k, v) -> {
          if (k != null && v != null) {
            copy.put(k, v);
          }
        });
    return new Env(copy);
  }

  /**
   * Every variable whose name starts with {@code prefix} (e.g. {@code ALBUMSTORE_}), with its
   * value.
   */
  public Map<String, String> startingWith(String prefix) {
    Map<String, String> m = new HashMap<>();
    values.forEach(
        (k, v) -> {
          if (k.startsWith(prefix)) {
            m.put(k, v);
          }
        });
    return m;
  }

  /** A view in which {@code overrides} win over this environment; null values are ignored. */
  public Env withOverrides(Map<String, String> overrides) {
    Map<String, String> merged = new HashMap<>(values);
    overrides.forEach(
        (k, v) -> {
          if (k != null && v != null) {
            merged.put(k, v);
          }
        });
    return new Env(merged);
  }

  /** The value of {@code name}, or {@code defaultValue} when it is unset or blank. */
  public String get(String name, String defaultValue) {
    String v = values.get(Objects.requireNonNull(name));
    return v == null || v.isBlank() ? defaultValue : v.trim();
  }

  public int getInt(String name, int defaultValue, int min, int max) {
    String raw = get(name, null);
    if (raw == null) {
      return defaultValue;
    }
    final int v;
    try {
      v = Integer.parseInt(raw);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a whole number, was '" + raw + "'");
    }
    if (v < min || v > max) {
      throw new IllegalArgumentException(
          name + " must be between " + min + " and " + max + ", was " + v);
    }
    return v;
  }

  public long getLong(String name, long defaultValue, long min, long max) {
    String raw = get(name, null);
    if (raw == null) {
      return defaultValue;
    }
    final long v;
    try {
      v = Long.parseLong(raw);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a whole number, was '" + raw + "'");
    }
    if (v < min || v > max) {
      throw new IllegalArgumentException(
          name + " must be between " + min + " and " + max + ", was " + v);
    }
    return v;
  }

  public boolean getBoolean(String name, boolean defaultValue) {
    String raw = get(name, null);
    if (raw == null) {
      return defaultValue;
    }
    return switch (raw.toLowerCase(java.util.Locale.ROOT)) {
      case "true", "yes", "1", "on" -> true;
      case "false", "no", "0", "off" -> false;
      default ->
          throw new IllegalArgumentException(name + " must be true or false, was '" + raw + "'");
    };
  }
}
