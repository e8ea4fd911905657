package org.albumstore.common.config;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The picocli side of {@link Setting}: one option per declared setting that has a flag, built with
 * picocli's programmatic API, and the flags given as overrides keyed by variable.
 *
 * <p>Why not picocli's own {@code ${env:NAME:-default}} defaults: picocli would then show the
 * environment's value as the default in {@code --help} (a password included), and a WAR has no
 * picocli, so the environment would still have to be read a second way. Here a flag not given has
 * no value at all; {@link Env} layers the given flags over the environment, and one parser (the
 * setting's) checks flag, variable and init parameter alike. {@code --help} states the declared
 * default, never a value from the environment.
 *
 * <p>picocli is an optional dependency of common: only the command-line launchers load this class.
 */
public final class SettingOptions {
  private SettingOptions() {}

  /** Adds an option to {@code spec} for each setting with a flag, in the order given. */
  public static void addTo(CommandSpec spec, List<Setting<?>> settings) {
    for (Setting<?> s : settings) {
      if (s.flag() != null) {
        spec.addOption(option(s));
      }
    }
  }

  /** The option of {@code s}: its help, then its variable, then its default. */
  static OptionSpec option(Setting<?> s) {
    OptionSpec.Builder b =
        (s.formerFlag() == null
                ? OptionSpec.builder(s.flag())
                : OptionSpec.builder(s.flag(), s.formerFlag()))
            .paramLabel(s.paramLabel())
            .type(s.flagType())
            .description(description(s));
    if (s.flagType() == Boolean.class) {
      // "--init-schema" alone means true; "--init-schema false" is accepted as well.
      b.type(String.class).arity("0..1").fallbackValue("true");
    }
    return b.build();
  }

  /**
   * The help of {@code s}, the variable it overrides and its declared default; '%' doubled, since
   * picocli formats descriptions.
   */
  static String[] description(Setting<?> s) {
    String where =
        s.secret()
            ? "; prefer the env variable " + s.variable() + " (flags show in ps)."
            : " (env " + s.variable() + ").";
    if (s.formerVariable() != null) {
      where += " Formerly " + s.formerFlag() + " (env " + s.formerVariable() + "), still read.";
    }
    return new String[] {
      (s.help() + where).replace("%", "%%"),
      ("Default: " + s.defaultText() + ".").replace("%", "%%")
    };
  }

  /** The flags given on the command line, as text keyed by the variable each overrides. */
  public static Map<String, String> given(CommandSpec spec, List<Setting<?>> settings) {
    Map<String, String> m = new LinkedHashMap<>();
    for (Setting<?> s : settings) {
      if (s.flag() != null) {
        Object v = spec.findOption(s.flag()).getValue();
        if (v != null) {
          m.put(s.variable(), v.toString());
        }
      }
    }
    return m;
  }

  /**
   * Says on the command's error stream that a setting (flag, variable or default) cannot be read,
   * naming it as the setting's parser did, and returns the usage exit code.
   */
  public static int refuse(CommandSpec spec, IllegalArgumentException e) {
    PrintWriter err = spec.commandLine().getErr();
    err.println("Invalid setting: " + e.getMessage() + " (see --help)");
    err.flush();
    return CommandLine.ExitCode.USAGE;
  }
}
