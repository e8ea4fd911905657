package org.albumstore.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.albumstore.server.internal.web.Json;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A module's API is its public types outside its {@code internal} packages (and, for a test-jar,
 * its {@code testing} package); the rest is the module's own. One rule, over the compiled main
 * <em>and</em> test code of every module the root pom lists: no class uses another module's
 * internal types or another module's test code outside {@code testing}. Each module README's {@code
 * ## API} list is exactly that API, so a list cannot drift from the code.
 *
 * <p>The classes are read from {@code ../MODULE/target/classes} and {@code test-classes}; this
 * module depends on every other one so that the reactor builds them first.
 */
class ModuleApiTest {

  private static final Path ROOT = Path.of("..");
  private static final Pattern MODULE_ENTRY = Pattern.compile("<module>([\\w-]+)</module>");
  private static final Pattern API_ENTRY = Pattern.compile("^- `(org\\.albumstore\\.[\\w.]+)`");
  private static final Pattern INTERNAL =
      Pattern.compile("org\\.albumstore\\.\\w+\\.internal(\\..*)?");
  private static final Pattern COMPILED =
      Pattern.compile("/([\\w-]+)/target/(classes|test-classes)/");

  /** The shared base: every public type of it is API, and it has no list. */
  private static final String COMMON = "common";

  private static JavaClasses everyModule;

  @BeforeAll
  static void importEveryModule() {
    List<Path> dirs = new ArrayList<>();
    for (String module : modules()) {
      for (String set : List.of("main", "test")) {
        if (Files.isDirectory(ROOT.resolve(module).resolve("src").resolve(set).resolve("java"))) {
          Path compiled = compiled(module, set);
          assertThat(compiled)
              .as("%s's %s code is compiled (build the whole reactor: mvn verify)", module, set)
              .isDirectory();
          dirs.add(compiled);
        }
      }
    }
    everyModule = new ClassFileImporter().importPaths(dirs);
  }

  /** The rule itself, over every module's main and test code (but the use planted below). */
  @Test
  void noModuleUsesAnotherModulesInternalTypes() {
    onlyOtherModulesApi()
        .check(
            everyModule.that(
                DescribedPredicate.not(JavaClass.Predicates.equivalentTo(PlantedUse.class))));
  }

  /** The rule reads what it says it reads: classes of every module, main and test. */
  @Test
  void theRuleReadsEveryModulesMainAndTestCode() {
    Set<String> read =
        everyModule.stream()
            .map(ModuleApiTest::compiledIn)
            .flatMap(Optional::stream)
            .collect(Collectors.toCollection(TreeSet::new));
    Set<String> expected = new TreeSet<>();
    for (String module : modules()) {
      for (String set : List.of("main", "test")) {
        if (Files.isDirectory(ROOT.resolve(module).resolve("src").resolve(set).resolve("java"))) {
          expected.add(module + "/" + set);
        }
      }
    }
    assertThat(read).isEqualTo(expected).contains("faults/test", "deploy/test", "client/test");
  }

  /** Proof that the rule can fail: a use planted in this module's tests is a violation. */
  @Test
  void aPlantedUseOfAnInternalTypeIsAViolation() {
    JavaClasses planted = new ClassFileImporter().importClasses(PlantedUse.class);
    assertThat(onlyOtherModulesApi().evaluate(planted).getFailureReport().getDetails())
        .singleElement(InstanceOfAssertFactories.STRING)
        .contains(PlantedUse.class.getName(), "org.albumstore.server.internal.web.Json");
    // The same type used inside its own module is not.
    JavaClasses own =
        everyModule.that(
            DescribedPredicate.describe(
                "the server's classes", c -> compiledIn(c).orElse("").startsWith("server/")));
    assertThat(own).isNotEmpty();
    assertThat(onlyOtherModulesApi().evaluate(own).hasViolation()).isFalse();
  }

  /** Each README's {@code ## API} list is exactly the module's API as the code has it. */
  @Test
  void eachReadmeListsExactlyItsModulesApi() {
    for (String module : modules()) {
      if (module.equals(COMMON)
          || !Files.isDirectory(ROOT.resolve(module).resolve("src/main/java"))) {
        continue;
      }
      assertThat(api(module)).as("%s/README.md's ## API list", module).isEqualTo(apiInCode(module));
    }
  }

  static ArchRule onlyOtherModulesApi() {
    return classes()
        .should(
            new ArchCondition<JavaClass>(
                "use only another module's API (no internal type, test code only from testing)") {
              @Override
              public void check(JavaClass origin, ConditionEvents events) {
                String from = moduleOf(origin);
                for (Dependency d : origin.getDirectDependenciesFromSelf()) {
                  JavaClass target = d.getTargetClass().getBaseComponentType();
                  if (!moduleOf(target).equals(from) && !isApi(target)) {
                    events.add(SimpleConditionEvent.violated(d, d.getDescription()));
                  }
                }
              }
            })
        .because("a module's internal packages are its own (README.md of each module)");
  }

  private static boolean isApi(JavaClass c) {
    if (INTERNAL.matcher(c.getPackageName()).matches()) {
      return false;
    }
    Optional<String> where = compiledIn(c);
    return where.isEmpty()
        || where.get().endsWith("/main")
        || c.getPackageName().endsWith(".testing");
  }

  /** The module a class belongs to: where it was compiled, else its package's second name. */
  private static String moduleOf(JavaClass c) {
    return compiledIn(c)
        .map(w -> w.substring(0, w.indexOf('/')))
        .orElseGet(
            () -> {
              String[] parts = c.getPackageName().split("\\.");
              return parts.length > 2 ? parts[2] : "";
            });
  }

  /** "module/main" or "module/test" for a class read from a module's target, else empty. */
  private static Optional<String> compiledIn(JavaClass c) {
    return c.getSource()
        .map(s -> s.getUri().toString())
        .map(COMPILED::matcher)
        .filter(Matcher::find)
        .map(m -> m.group(1) + (m.group(2).equals("classes") ? "/main" : "/test"));
  }

  /** Public top-level types outside internal, plus a shipped test-jar's testing package. */
  private static Set<String> apiInCode(String module) {
    Set<String> api = new TreeSet<>();
    for (JavaClass c : everyModule) {
      Optional<String> where = compiledIn(c);
      boolean mine = where.isPresent() && where.get().startsWith(module + "/");
      boolean shipped = mine && (where.get().endsWith("/main") || shipsTestJar(module));
      if (shipped
          && c.getModifiers().contains(JavaModifier.PUBLIC)
          && c.isTopLevelClass()
          && isApi(c)) {
        api.add(c.getName());
      }
    }
    return api;
  }

  /** Whether the module's pom packs its test code as a test-jar, for other modules' tests. */
  private static boolean shipsTestJar(String module) {
    return read(ROOT.resolve(module).resolve("pom.xml")).contains("<goal>test-jar</goal>");
  }

  private static Path compiled(String module, String set) {
    return ROOT.resolve(module)
        .resolve("target")
        .resolve(set.equals("main") ? "classes" : "test-classes");
  }

  /** The modules the root pom lists, in its order. */
  static List<String> modules() {
    List<String> modules = new ArrayList<>();
    Matcher m = MODULE_ENTRY.matcher(read(ROOT.resolve("pom.xml")));
    while (m.find()) {
      modules.add(m.group(1));
    }
    assertThat(modules).contains("client", "faults", "architecture");
    return modules;
  }

  /** The fully qualified names listed in {@code module/README.md}'s {@code ## API} section. */
  static Set<String> api(String module) {
    List<String> lines = List.of(read(ROOT.resolve(module).resolve("README.md")).split("\n"));
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

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A use of the server's internal JSON helper from outside the server: what the rule forbids. */
  static final class PlantedUse {
    Json planted;
  }
}
