package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.albumstore.common.config.SettingsTable;
import org.junit.jupiter.api.Test;

/** The README's settings table is the one the declarations make (it cannot drift from the code). */
class ReadmeSettingsTest {
  @Test
  void theReadmeListsEverySettingAsDeclared() throws IOException {
    String expected = SettingsTable.markdown(ServerSettings.DECLARED);
    // To update the README, paste this file's content between the two markers.
    Files.createDirectories(Path.of("target"));
    Files.writeString(Path.of("target", "README-settings-table.md"), expected);
    assertThat(SettingsTable.in(Files.readString(Path.of("README.md")))).isEqualTo(expected);
  }
}
