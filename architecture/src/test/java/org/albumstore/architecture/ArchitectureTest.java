package org.albumstore.local;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * Rules about where code lives, checked on the main classes of every module. They live here because
 * this is the one module that depends on all the others.
 */
@AnalyzeClasses(
    packages = "org.albumstore",
    importOptions = {
      ImportOption.DoNotIncludeTests.class,
      ArchitectureTest.DoNotIncludeTestJars.class
    })
class ArchitectureTest {

  /**
   * Every package is a slice: no two packages may reach each other, directly or round a loop, so
   * each can be read and changed from the bottom up. Maven already forbids cycles between modules.
   */
  @ArchTest
  static final ArchRule packagesAreFreeOfCycles =
      slices().matching("org.albumstore.(**)").should().beFreeOfCycles();

  /**
   * The client's reports and checks render and judge what a run recorded (its statistics, tier
   * table, verification result, and the files in its output folder); they never reach into what
   * generates the load, so they can be read, tested and changed without it. See client/README.md.
   */
  @ArchTest
  static final ArchRule clientReportsDoNotDependOnLoadGeneration =
      noClasses()
          .that()
          .resideInAnyPackage("org.albumstore.client.report..", "org.albumstore.client.check..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "org.albumstore.client",
              "org.albumstore.client.http..",
              "org.albumstore.client.workload..",
              "org.albumstore.client.broker..");

  /** The embedded module's test-jar (TestServices, ExternalTools) is test code too. */
  static final class DoNotIncludeTestJars implements ImportOption {
    @Override
    public boolean includes(Location location) {
      return !location.contains("-tests.jar");
    }
  }
}
