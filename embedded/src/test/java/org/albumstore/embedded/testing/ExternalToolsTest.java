package org.albumstore.embedded.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

class ExternalToolsTest {
  @TempDir Path bin;

  private Path executable(String name) throws IOException {
    Path file = Files.writeString(bin.resolve(name), "#!/bin/sh\n");
    assertThat(file.toFile().setExecutable(true)).isTrue();
    return file;
  }

  private ExternalTools tools(boolean ci) {
    String path = bin + File.pathSeparator + bin.resolve("missing-dir");
    return ExternalTools.of(ci ? Map.of("PATH", path, "CI", "true") : Map.of("PATH", path));
  }

  @Test
  void aToolOnThePathIsFoundAndRequiringItReturnsIt() throws IOException {
    Path tool = executable("some-linter");

    assertThat(tools(false).find("some-linter")).contains(tool);
    assertThat(tools(true).require("some-linter", "lint")).isEqualTo(tool);
    assertThat(tools(true).available("some-linter", "lint")).isTrue();
  }

  @Test
  void offCiAMissingToolSkipsTheTestWithALineNamingToolAndPurpose() {
    assertThatThrownBy(() -> tools(false).require("no-such-linter", "the lint of the scripts"))
        .isInstanceOf(TestAbortedException.class)
        .hasMessageStartingWith("SKIPPED the lint of the scripts: no-such-linter is not installed")
        .hasMessageNotContaining("\n");
    assertThat(tools(false).available("no-such-linter", "the lint of the scripts")).isFalse();
  }

  @Test
  void onCiAMissingToolFailsTheTestNamingTheTool() {
    assertThatThrownBy(() -> tools(true).require("no-such-linter", "the lint of the scripts"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("no-such-linter is not installed")
        .hasMessageContaining("CI=true");
    assertThatThrownBy(() -> tools(true).available("no-such-linter", "the lint of the scripts"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("no-such-linter");
  }

  @Test
  void onlyCiTrueCountsAsCi() {
    assertThat(ExternalTools.of(Map.of("CI", "true")).onCi()).isTrue();
    assertThat(ExternalTools.of(Map.of("CI", "TRUE")).onCi()).isTrue();
    assertThat(ExternalTools.of(Map.of("CI", "false")).onCi()).isFalse();
    assertThat(ExternalTools.of(Map.of("CI", "")).onCi()).isFalse();
    assertThat(ExternalTools.of(Map.of()).onCi()).isFalse();
  }

  @Test
  void aMissingServiceFollowsTheSameRule() {
    assertThatThrownBy(() -> tools(false).requireThat(false, "the management API", "sampling"))
        .isInstanceOf(TestAbortedException.class)
        .hasMessageContaining("the management API");
    assertThatThrownBy(() -> tools(true).requireThat(false, "the management API", "sampling"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("the management API");
    tools(true).requireThat(true, "the management API", "sampling");
  }

  @Test
  void aPlainFileOrADirectoryIsNoTool() throws IOException {
    Files.writeString(bin.resolve("notes"), "not a program");
    Files.createDirectory(bin.resolve("tools.d"));
    // Windows treats every file as executable; elsewhere the permission bit decides.
    if (File.separatorChar == '/') {
      assertThat(tools(false).find("notes")).isEmpty();
    }
    assertThat(tools(false).find("tools.d")).isEmpty();
  }
}
