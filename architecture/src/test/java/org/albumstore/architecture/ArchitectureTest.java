package org.albumstore.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Set;

/**
 * Rules about where code lives, checked on the main classes of every module (this module's class
 * path holds them all). Which module may use which types is {@link ModuleApiTest}'s.
 */
@AnalyzeClasses(
    packages = "org.albumstore",
    importOptions = {
      ImportOption.DoNotIncludeTests.class,
      ArchitectureTest.DoNotIncludeTestJars.class
    })
class ArchitectureTest {

  /** What a run recorded, in the client's API: what its reports may read. */
  private static final DescribedPredicate<JavaClass> RECORDED_DATA =
      DescribedPredicate.describe(
          "a run's recorded data (RunSummary, MergedSummary, TypeStats, QueueSample, RequestType)",
          c ->
              Set.of("RunSummary", "MergedSummary", "TypeStats", "QueueSample", "RequestType")
                  .contains(outermost(c).getSimpleName()));

  private static JavaClass outermost(JavaClass c) {
    JavaClass outer = c;
    while (outer.getEnclosingClass().isPresent()) {
      outer = outer.getEnclosingClass().get();
    }
    return outer;
  }

  /**
   * Each internal package is a slice: no two may reach each other, directly or round a loop, so
   * each can be read and changed from the bottom up. A module's API packages and its internal ones
   * do reach each other, by design (as HikariCP's root and its {@code pool}): the API's entry
   * points wire the internals, and the internals use the API's value types. Maven forbids cycles
   * between modules.
   */
  @ArchTest
  static final ArchRule internalPackagesAreFreeOfCycles =
      slices().matching("org.albumstore.(*).internal.(**)").should().beFreeOfCycles();

  /**
   * The client's reports and checks render and judge what a run recorded (its summary, statistics,
   * tier table, verification result, and the files in its output folder); they never reach into
   * what generates the load, so they can be read, tested and changed without it. See
   * client/README.md.
   */
  @ArchTest
  static final ArchRule clientReportsDoNotDependOnLoadGeneration =
      noClasses()
          .that()
          .resideInAnyPackage(
              "org.albumstore.client.internal.report..", "org.albumstore.client.internal.check..")
          .should()
          .dependOnClassesThat(
              resideInAnyPackage(
                      "org.albumstore.client.internal.http..",
                      "org.albumstore.client.internal.workload..",
                      "org.albumstore.client.internal.broker..")
                  .or(resideInAPackage("org.albumstore.client").and(not(RECORDED_DATA))));

  /** The embedded module's test-jar (TestServices, ExternalTools) is test code too. */
  static final class DoNotIncludeTestJars implements ImportOption {
    @Override
    public boolean includes(Location location) {
      return !location.contains("-tests.jar");
    }
  }
}
