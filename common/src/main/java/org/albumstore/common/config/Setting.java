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
 * with the factories and {@code with...} methods below; instances are immutable.
 *
 * @param <T> the parsed type
 */
public final class Setting<T> {
  private final String variable;
  private T defaultValue;
  private String defaultText;
  private final BiFunction<Env, T, T> reader;
  private final Class<?> flagType;
  private String flag;
  private String paramLabel;
  private String help;
  private boolean secret;
  private String formerVariable;
  private String formerFlag;

  private Setting(
      String variable,
      T defaultValue,
      String defaultText,
      BiFunction<Env, T, T> reader,
      Class<?> flagType,
      String flag,
      String paramLabel,
      String help,
      boolean secret,
      String formerVariable,
      String formerFlag) {
    this.variable = Objects.requireNonNull(variable);
    if (!variable.startsWith("ALBUMSTORE_")) {
      throw new IllegalArgumentException("settings are ALBUMSTORE_* variables: " + variable);
    }
    this.defaultValue = defaultValue;
    this.defaultText = defaultText;
    this.reader = reader;
    this.flagType = flagType;
    this.flag = flag;
    this.paramLabel = paramLabel;
    this.help = help;
    this.secret = secret;
    this.formerVariable = formerVariable;
    this.formerFlag = formerFlag;
  }

  /**
   * A copy for one {@code with...} method to change before returning it: instances never change
   * once a declaration holds them, so the fields are final in effect, set only here.
   */
  private Setting<T> copy() {
    return new Setting<>(
        variable,
        defaultValue,
        defaultText,
        reader,
        flagType,
        flag,
        paramLabel,
        help,
        secret,
        formerVariable,
        formerFlag);
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
    return new Setting<>(
        variable,
        defaultValue,
        defaultText,
        (env, d) ->
            env.get(variable, null) == null
                ? d
                : Integer.valueOf(env.getInt(variable, 0, min, max)),
        Integer.class,
        null,
        "N",
        null,
        false,
        null,
        null);
  }

  /**
   * Text, trimmed; blank counts as not set. A null default: {@code defaultText} says what applies.
   */
  public static Setting<String> text(String variable, String defaultValue, String defaultText) {
    return new Setting<>(
        variable,
        defaultValue,
        defaultText,
        (env, d) -> env.get(variable, d),
        String.class,
        null,
        "VALUE",
        null,
        false,
        null,
        null);
  }

  /** Text, trimmed, its default shown as it is. */
  public static Setting<String> text(String variable, String defaultValue) {
    return text(variable, defaultValue, defaultValue);
  }

  /** true/yes/1/on or false/no/0/off; the flag alone means true. */
  public static Setting<Boolean> bool(String variable, boolean defaultValue) {
    return new Setting<>(
        variable,
        defaultValue,
        Boolean.toString(defaultValue),
        (env, d) -> env.getBoolean(variable, d),
        Boolean.class,
        null,
        "true|false",
        null,
        false,
        null,
        null);
  }

  /** The same setting with a command-line flag, e.g. {@code --queue NAME}. */
  public Setting<T> withFlag(String flagName, String label) {
    if (!flagName.startsWith("--")) {
      throw new IllegalArgumentException("flags are --long-names: " + flagName);
    }
    Setting<T> s = copy();
    s.flag = flagName;
    s.paramLabel = label;
    return s;
  }

  /** The same setting with its help: what it is, in a sentence without a final period. */
  public Setting<T> withHelp(String text) {
    Setting<T> s = copy();
    s.help = text;
    return s;
  }

  /**
   * The same setting with {@code use} added to its help, for a runnable that reads it for a purpose
   * of its own (the client reads the broker URI only to watch the queue).
   */
  public Setting<T> withUse(String use) {
    return withHelp(help + "; " + use);
  }

  /**
   * The same setting as a secret: its help recommends the variable (flags show in {@code ps}), and
   * {@code --help} never prints a value, since it states only the declared default.
   */
  public Setting<T> asSecret() {
    Setting<T> s = copy();
    s.secret = true;
    return s;
  }

  /**
   * The same setting with another default, for a runnable whose own use differs (the local launcher
   * takes any free HTTP port by default, the server jar 8080).
   */
  public Setting<T> withDefault(T value) {
    Setting<T> s = copy();
    s.defaultValue = value;
    s.defaultText = String.valueOf(value);
    return s;
  }

  /**
   * The same setting under the name it had before a rename: the former variable and flag are still
   * read (the current ones win when both are given), so an operator's existing configuration keeps
   * working, while the help and the READMEs show the current names only, plus a note.
   */
  public Setting<T> withFormerName(String variable, String flag) {
    Setting<T> s = copy();
    s.formerVariable = variable;
    s.formerFlag = flag;
    return s;
  }

  /** The variable before a rename, still read; null when there was none. */
  public String formerVariable() {
    return formerVariable;
  }

  /** The flag before a rename, still accepted; null when there was none. */
  public String formerFlag() {
    return formerFlag;
  }

  /** The variable, also the key under which a flag or a context init parameter overrides it. */
  public String variable() {
    return variable;
  }

  /** The flag, e.g. {@code --queue}; null when the setting has none. */
  public String flag() {
    return flag;
  }

  public String paramLabel() {
    return paramLabel;
  }

  /** What the setting is, without the variable and the default. */
  public String help() {
    return help;
  }

  /** The default; null when it depends on other settings ({@link #defaultText} says how). */
  public T defaultValue() {
    return defaultValue;
  }

  /** The default as {@code --help} and the READMEs state it. */
  public String defaultText() {
    return defaultText;
  }

  public boolean secret() {
    return secret;
  }

  /** The type picocli converts the flag's text to before it becomes an override. */
  Class<?> flagType() {
    return flagType;
  }

  /**
   * The value in {@code env} (flags and init parameters layered over the environment), else the
   * default.
   *
   * @throws IllegalArgumentException naming the variable when the value does not parse or is out of
   *     range
   */
  public T read(Env env) {
    return reader.apply(current(env), defaultValue);
  }

  /** {@code env} with the former variable's value under the current name, if only it is set. */
  private Env current(Env env) {
    if (formerVariable == null || env.get(variable, null) != null) {
      return env;
    }
    String former = env.get(formerVariable, null);
    return former == null ? env : env.withOverrides(Map.of(variable, former));
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
