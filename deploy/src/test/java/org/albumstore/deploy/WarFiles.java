package org.albumstore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/** The files of a WAR, and of the jars in its WEB-INF/lib, for tests that look inside one. */
final class WarFiles {
  private WarFiles() {}

  /** Every file of the WAR by name, the jars in WEB-INF/lib as whole files. */
  static Map<String, byte[]> entries(Path war) throws IOException {
    Map<String, byte[]> m = new LinkedHashMap<>();
    try (ZipFile zip = new ZipFile(war.toFile())) {
      for (ZipEntry e : zip.stream().filter(e -> !e.isDirectory()).toList()) {
        try (InputStream in = zip.getInputStream(e)) {
          m.put(e.getName(), in.readAllBytes());
        }
      }
    }
    return m;
  }

  static String text(Path war, String name) throws IOException {
    byte[] b = entries(war).get(name);
    assertThat(b).as("%s in %s", name, war).isNotNull();
    return new String(b, StandardCharsets.UTF_8);
  }

  /**
   * Calls {@code visitor} with every file of the WAR and, for each jar in WEB-INF/lib, every file
   * in it, named {@code WEB-INF/lib/x.jar!path}.
   */
  static void eachFile(Path war, BiConsumer<String, byte[]> visitor) throws IOException {
    for (Map.Entry<String, byte[]> e : entries(war).entrySet()) {
      visitor.accept(e.getKey(), e.getValue());
      if (e.getKey().startsWith("WEB-INF/lib/") && e.getKey().endsWith(".jar")) {
        try (ZipInputStream jar = new ZipInputStream(new ByteArrayInputStream(e.getValue()))) {
          for (ZipEntry inner; (inner = jar.getNextEntry()) != null; ) {
            if (!inner.isDirectory()) {
              visitor.accept(e.getKey() + "!" + inner.getName(), jar.readAllBytes());
            }
          }
        }
      }
    }
  }
}
