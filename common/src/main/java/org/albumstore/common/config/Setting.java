package org.albumstore.common.config;

import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * One setting, declared once: its environment variable, its command-line flag (if any), its
 * default, its help and how its text is parsed and checked. Everything else is derived from it: the
 * flags of every runnable ({@link SettingOptions}), the reading of the environment and of the WAR's
 * context init parameters ({@link #read}), and the {@code --help} line that states the default.
 *
 * <p>Declared as {@code public static final} fields in the class that reads them ({@code
 * AmqpSettings}-like records, {@link CommonSettings} for the ones several runnables share), built
 * with the factories and {@code with...} methods below; instances are immutable, each {@code
 * with...} a new one. Inside, the parts travel as small records (parser, default, flag, help,
 * former name), so that no constructor takes a row of look-alike strings.
 *
 * @param <T> the parsed type
 */
public final class Setting<T> {
  /** How the text becomes a value, and the type picocli converts a flag's text to first. */
  private record Parser<T>(BiFunction<Env, T, T> reader, Class<?> flagType) {}

  /** The default (null when it depends on other settings), and the text that states it. */
  private record Default<T>(T value, String text) {}

  /** The flag, e.g. {@code --queue} (null when none), and its value's label in the help. */
  private record Flag(String name, String label) {}

  /** What the setting is, and whether its value is a secret. */
  private record Help(String text, boolean secret) {}

  /** The variable and flag before a rename, still read; both null when there was none. */
  private record FormerName(String variable, String flag) {
    static final FormerName NONE = new FormerName(null, null);
  }

  private final String variable;
  private final Parser<T> parser;
  private final Default<T> defaults;
  private final Flag flag;
  private final Help help;
  private final FormerName former;

  private Setting(
      String variable,
      Parser<T> parser,
      Default<T> defaults,
      Flag flag,
      Help help,
      FormerName former) {
    this.variable = Objects.requireNonNull(variable);
    if (!variable.startsWith("ALBUMSTORE_")) {
      throw new IllegalArgumentException("settings are ALBUMSTORE_* variables: " + variable);
    }
    this.parser = parser;
    this.defaults = defaults;
    this.flag = flag;
    this.help = help;
    this.former = former;
  }

  /** A new setting: no flag yet (only its value's label), no help, not secret, never renamed. */
  private static <T> Setting<T> of(
      String variable, Parser<T> parser, Default<T> defaults, String label) {
    return new Setting<>(
        variable, parser, defaults, new Flag(null, label), new Help(null, false), FormerName.NONE);
  }

  /** A whole number between {@code min} and {@code max}; the default needs not be in range. */
  public static Setting<Integer> integer(String variable, int defaultValue, int min, int max) {
    return integer(variable, (Integer) defaultValue, Integer.toString(defaultValue), min, max);
  }

  /**
   * A whole number between {@code min} and {@code max} whose default depends on other settings:
   * {@link #read} gives null when it is not set, and {@code defaultText} says what applies.
   */
  public static Setting<Integer> integer(String variable, String defaultText, int min, int max) {
    return integer(variable, null, defaultText, min, max);
  }

  private static Setting<Integer> integer(
      String variable, Integer defaultValue, String defaultText, int min, int max) {
    return of(
        variable,
        new Parser<>(
            (env, d) ->
                env.get(variable, null) == null
                    ? d
                    : Integer.valueOf(env.getInt(variable, 0, min, max)),
            Integer.class),
        new Default<>(defaultValue, defaultText),
        "N");
  }

  /**
   * Text, trimmed; blank counts as not set. A null default: {@code defaultText} says what applies.
   */
  public static Setting<String> text(String variable, String defaultValue, String defaultText) {
    return of(
        variable,
        new Parser<>((env, d) -> env.get(variable, d), String.class),
        new Default<>(defaultValue, defaultText),
        "VALUE");
  }

  /** Text, trimmed, its default shown as it is. */
  public static Setting<String> text(String variable, String defaultValue) {
    return text(variable, defaultValue, defaultValue);
  }

  /** true/yes/1/on or false/no/0/off; the flag alone means true. */
  public static Setting<Boolean> bool(String variable, boolean defaultValue) {
    return of(
        variable,
        new Parser<>((env, d) -> env.getBoolean(variable, d), Boolean.class),
        new Default<>(defaultValue, Boolean.toString(defaultValue)),
        "true|false");
  }

  /** The same setting with a command-line flag, e.g. {@code --queue NAME}. */
  public Setting<T> withFlag(String flagName, String label) {
    if (!flagName.startsWith("--")) {
      throw new IllegalArgumentException("flags are --long-names: " + flagName);
    }
    return new Setting<>(variable, parser, defaults, new Flag(flagName, label), help, former);
  }

  /** The same setting with its help: what it is, in a sentence without a final period. */
  public Setting<T> withHelp(String text) {
    return new Setting<>(variable, parser, defaults, flag, new Help(text, help.secret()), former);
  }

  /**
   * The same setting with {@code use} added to its help, for a runnable that reads it for a purpose
   * of its own (the client reads the broker URI only to watch the queue).
   */
  public Setting<T> withUse(String use) {
    return withHelp(help.text() + "; " + use);
  }

  /**
   * The same setting as a secret: its help recommends the variable (flags show in {@code ps}), and
   * {@code --help} never prints a value, since it states only the declared default.
   */
  public Setting<T> asSecret() {
    return new Setting<>(variable, parser, defaults, flag, new Help(help.text(), true), former);
  }

  /**
   * The same setting with another default, for a runnable whose own use differs (the local launcher
   * takes any free HTTP port by default, the server jar 8080).
   */
  public Setting<T> withDefault(T value) {
    return new Setting<>(
        variable, parser, new Default<>(value, String.valueOf(value)), flag, help, former);
  }

  /**
   * The same setting under the name it had before a rename: the former variable and flag are still
   * read (the current ones win when both are given), so an operator's existing configuration keeps
   * working, while the help and the READMEs show the current names only, plus a note.
   */
  public Setting<T> withFormerName(String formerVariable, String formerFlag) {
    return new Setting<>(
        variable, parser, defaults, flag, help, new FormerName(formerVariable, formerFlag));
  }

  /** The variable before a rename, still read; null when there was none. */
  public String formerVariable() {
    return former.variable();
  }

  /** The flag before a rename, still accepted; null when there was none. */
  public String formerFlag() {
    return former.flag();
  }

  /** The variable, also the key under which a flag or a context init parameter overrides it. */
  public String variable() {
    return variable;
  }

  /** The flag, e.g. {@code --queue}; null when the setting has none. */
  public String flag() {
    return flag.name();
  }

  public String paramLabel() {
    return flag.label();
  }

  /** What the setting is, without the variable and the default. */
  public String help() {
    return help.text();
  }

  /** The default; null when it depends on other settings ({@link #defaultText} says how). */
  public T defaultValue() {
    return defaults.value();
  }

  /** The default as {@code --help} and the READMEs state it. */
  public String defaultText() {
    return defaults.text();
  }

  public boolean secret() {
    return help.secret();
  }

  /** The type picocli converts the flag's text to before it becomes an override. */
  Class<?> flagType() {
    return parser.flagType();
  }

  /**
   * The value in {@code env} (flags and init parameters layered over the environment), else the
   * default.
   *
   * @throws IllegalArgumentException naming the variable when the value does not parse or is out of
   *     range
   */
  public T read(Env env) {
    return parser.reader().apply(current(env), defaults.value());
  }

  /** {@code env} with the former variable's value under the current name, if only it is set. */
  private Env current(Env env) {
    if (former.variable() == null || env.get(variable, null) != null) {
      return env;
    }
    String value = env.get(former.variable(), null);
    return value == null ? env : env.withOverrides(Map.of(variable, value));
  }

  /** Whether {@code env} sets it (not blank), as opposed to the default applying. */
  public boolean isSet(Env env) {
    return current(env).get(variable, null) != null;
  }

  /** The value in {@code env} as text, as a flag or an init parameter would carry it. */
  public String readText(Env env) {
    T v = read(env);
    return v == null ? null : v.toString();
  }

  @Override
  public String toString() {
    return variable;
  }
}
