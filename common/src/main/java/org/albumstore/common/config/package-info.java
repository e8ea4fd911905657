/**
 * Settings: each declared once, as a {@link org.albumstore.common.config.Setting} (environment
 * variable, flag, default, help, parsing and range, secret or not), in the class that reads it;
 * {@link org.albumstore.common.config.CommonSettings} holds those several runnables share.
 *
 * <p>Derived from the declarations, never written again: the picocli options of every runnable
 * ({@link org.albumstore.common.config.SettingOptions}, added by each command's model transformer),
 * the reading of flags, {@code ALBUMSTORE_*} variables and the WAR's context init parameters (all
 * three layered in one {@link org.albumstore.common.config.Env} and parsed by the declaration), the
 * {@code --help} lines with their defaults, and the modules' README tables ({@link
 * org.albumstore.common.config.SettingsTable}, checked by a test).
 *
 * <p>Why a descriptor of our own and not picocli's {@code ${env:NAME:-default}} defaults: picocli
 * would print the environment's value as the default in {@code --help}, a password included; the
 * WAR has no picocli and would need a second way to read the same variables; and the range checks
 * would live apart from the name. Here a flag not given has no value, the variable or the declared
 * default applies, and {@code --help} can only state the declared default.
 */
package org.albumstore.common.config;
