package org.albumstore.local;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Each module's API is the list in the {@code ## API} section of its README; the main code of every
 * other module may use those types (and their nested types) and nothing else of it. {@code common}
 * is the shared base and has no such list: all of its public types are its API.
 */
@AnalyzeClasses(
    packages = "org.albumstore",
    importOptions = {
      ImportOption.DoNotIncludeTests.class,
      ArchitectureTest.DoNotIncludeTestJars.class
    })
class ModuleApiTest {

  private static final Path ROOT = Path.of("..");
  private static final Pattern API_ENTRY = Pattern.compile("^- `(org\\.albumstore\\.[\\w.]+)`");

  @ArchTest
  static void embeddedApi(JavaClasses classes) {
    onlyTheApiOf("embedded").check(classes);
  }

  @ArchTest
  static void serverApi(JavaClasses classes) {
    onlyTheApiOf("server").check(classes);
  }

  @ArchTest
  static void consumerApi(JavaClasses classes) {
    onlyTheApiOf("consumer").check(classes);
  }

  @ArchTest
  static void clientApi(JavaClasses classes) {
    onlyTheApiOf("client").check(classes);
  }

  /** Every listed type exists, so a README cannot keep a type that was renamed or removed. */
  @Test
  void everyListedTypeExists() {
    for (String module : List.of("embedded", "server", "consumer", "client")) {
      assertThat(api(module)).as("%s/README.md's API", module).isNotEmpty();
      for (String type : api(module)) {
        assertThat(exists(type)).as("%s, listed in %s/README.md", type, module).isTrue();
      }
    }
  }

  /** The check can fail: a list without a type that another module uses is a violation. */
  @Test
  void aTypeLeftOutOfTheListIsAViolation() {
    Set<String> api = api("server");
    assertThat(api).contains("org.albumstore.server.AlbumStoreServer");
    Set<String> shorter =
        api.stream()
            .filter(t -> !t.equals("org.albumstore.server.AlbumStoreServer"))
            .collect(Collectors.toSet());
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(new ImportOption.DoNotIncludeTests())
            .importPackages("org.albumstore.local");
    assertThat(rule("server", shorter).evaluate(classes).hasViolation()).isTrue();
    assertThat(rule("server", api).evaluate(classes).hasViolation()).isFalse();
  }

  private static ArchRule onlyTheApiOf(String module) {
    return rule(module, api(module));
  }

  private static ArchRule rule(String module, Set<String> api) {
    String root = "org.albumstore." + module;
    DescribedPredicate<JavaClass> internal =
        DescribedPredicate.describe(
            "types of " + module + " outside its API (" + module + "/README.md)",
            c -> inModule(c, root) && !api.contains(outermost(c).getName()));
    return noClasses()
        .that()
        .resideOutsideOfPackage(root + "..")
        .should()
        .dependOnClassesThat(internal)
        .because(module + "/README.md lists what other modules may use");
  }

  private static boolean inModule(JavaClass c, String root) {
    String p = c.getPackageName();
    return p.equals(root) || p.startsWith(root + ".");
  }

  private static JavaClass outermost(JavaClass c) {
    JavaClass outer = c;
    while (outer.getEnclosingClass().isPresent()) {
      outer = outer.getEnclosingClass().get();
    }
    return outer;
  }

  /** The fully qualified names listed in {@code module/README.md}'s {@code ## API} section. */
  static Set<String> api(String module) {
    List<String> lines;
    try {
      lines = Files.readAllLines(ROOT.resolve(module).resolve("README.md"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int start = lines.indexOf("## API");
    assertThat(start).as("%s/README.md has a '## API' section", module).isNotNegative();
    Set<String> api = new TreeSet<>();
    for (String line : lines.subList(start + 1, lines.size())) {
      if (line.startsWith("## ")) {
        break;
      }
      Matcher m = API_ENTRY.matcher(line);
      if (m.find()) {
        api.add(m.group(1));
      }
    }
    return api;
  }

  private static boolean exists(String type) {
    try {
      Class.forName(type, false, ModuleApiTest.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
