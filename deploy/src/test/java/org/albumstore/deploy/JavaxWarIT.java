package org.albumstore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.albumstore.embedded.testing.ExternalTools;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * albumstore-javax.war as the Eclipse Transformer made it from albumstore.war (server/pom.xml,
 * rules in server/src/javax-war/), checked against Tomcat 9's own Servlet API jar.
 * TomcatDeploymentIT proves that the WAR runs on Tomcat 9; these checks also cover what none of its
 * requests reaches: every class, the application's and its libraries', and every call into the
 * Servlet API. A call to a method that only Servlet 5 or 6 has would compile against
 * jakarta.servlet 6.0, survive the rename, and fail on Tomcat 9 only when that line runs.
 */
class JavaxWarIT {
  /**
   * micrometer-core serves both APIs from one jar (its HTTP tag helpers have a javax and a jakarta
   * variant, overloads side by side); the transformer leaves it as published, so its jakarta
   * variants are the only jakarta.servlet references allowed. The application uses neither.
   */
  private static final String MICROMETER_CORE = "WEB-INF/lib/micrometer-core-";

  private static final String MICROMETER_DUAL_API_HELPERS =
      "io/micrometer/core/instrument/binder/http/";

  private static final Path WORK = Path.of(System.getProperty("albumstore.it.workDir", "target"));

  @BeforeAll
  static void theWarsAreBuilt() {
    Distributions.requireTheWars();
  }

  @Test
  void webXmlIsAServlet40DescriptorThatDiffersOnlyInItsSchema() throws Exception {
    String javax = WarFiles.text(Distributions.JAVAX_WAR, "WEB-INF/web.xml");
    String jakarta = WarFiles.text(Distributions.WAR, "WEB-INF/web.xml");

    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    Element root =
        f.newDocumentBuilder()
            .parse(new ByteArrayInputStream(javax.getBytes(StandardCharsets.UTF_8)))
            .getDocumentElement();
    assertThat(root.getNamespaceURI()).isEqualTo("http://xmlns.jcp.org/xml/ns/javaee");
    assertThat(root.getAttribute("version")).isEqualTo("4.0");
    assertThat(root.getAttribute("xsi:schemaLocation"))
        .isEqualTo(
            "http://xmlns.jcp.org/xml/ns/javaee"
                + " http://xmlns.jcp.org/xml/ns/javaee/web-app_4_0.xsd");
    // The listener, the error page and the encodings are the same elements in both.
    assertThat(javax)
        .isEqualTo(
            jakarta
                .replace(
                    "https://jakarta.ee/xml/ns/jakartaee", "http://xmlns.jcp.org/xml/ns/javaee")
                .replace("web-app_6_0.xsd", "web-app_4_0.xsd")
                .replace("version=\"6.0\"", "version=\"4.0\""));
  }

  @Test
  void bothWarsHoldTheSameFilesAndMicrometerCoreIsCopiedAsPublished() throws IOException {
    Map<String, byte[]> javax = WarFiles.entries(Distributions.JAVAX_WAR);
    Map<String, byte[]> jakarta = WarFiles.entries(Distributions.WAR);
    assertThat(javax.keySet()).containsExactlyInAnyOrderElementsOf(jakarta.keySet());
    String micrometer =
        javax.keySet().stream()
            .filter(n -> n.startsWith(MICROMETER_CORE))
            .findFirst()
            .orElseThrow();
    assertThat(javax.get(micrometer)).isEqualTo(jakarta.get(micrometer));
  }

  @Test
  void noFileNamesJakartaServletExceptMicrometersDualApiHelpers() throws IOException {
    assertThat(jakartaServletReferences(Distributions.JAVAX_WAR))
        .allMatch(
            ref ->
                ref.startsWith(MICROMETER_CORE)
                    && (ref.contains("!" + MICROMETER_DUAL_API_HELPERS)
                        // its OSGi headers import both packages, optionally
                        || ref.endsWith("!META-INF/MANIFEST.MF")));
    // The same scan finds the application's own references in the Jakarta build: it can fail.
    assertThat(jakartaServletReferences(Distributions.WAR))
        .contains("WEB-INF/classes/org/albumstore/server/AlbumStoreListener.class");
  }

  @Test
  void everyServletApiTypeAndMemberTheWarUsesExistsInTomcat9() throws Exception {
    String version = Distributions.tomcat9Version();
    Path servletApi = tomcatServletApiJar(version);
    Map<String, Set<String>> uses = ServletApiUses.of(Distributions.JAVAX_WAR);
    // Not vacuous: the application's own calls are among those checked.
    assertThat(uses)
        .containsKeys(
            "javax/servlet/http/HttpServletRequest.startAsync()Ljavax/servlet/AsyncContext;",
            "javax/servlet/ServletContext.addServlet(Ljava/lang/String;Ljavax/servlet/Servlet;)"
                + "Ljavax/servlet/ServletRegistration$Dynamic;",
            "javax/servlet/http/HttpServletRequest.getPart(Ljava/lang/String;)"
                + "Ljavax/servlet/http/Part;");

    try (URLClassLoader tomcat9 =
        new URLClassLoader(
            new URL[] {servletApi.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      Map<String, Set<String>> missing = new LinkedHashMap<>();
      uses.forEach(
          (use, users) -> {
            if (!ServletApiUses.existsIn(tomcat9, use)) {
              missing.put(use, users);
            }
          });
      assertThat(missing).as("used by the WAR, absent from Tomcat %s", version).isEmpty();
      // And the check can fail: a method that Servlet 6.0 added is not found in Tomcat 9.
      assertThat(
              ServletApiUses.existsIn(
                  tomcat9, "javax/servlet/ServletRequest.getRequestId()Ljava/lang/String;"))
          .isFalse();
    }
  }

  /**
   * Files (outside the jars themselves) whose name or bytes name jakarta.servlet: class files keep
   * the names they use as plain text, as do descriptors and META-INF/services files.
   */
  private static Set<String> jakartaServletReferences(Path war) throws IOException {
    Set<String> found = new TreeSet<>();
    WarFiles.eachFile(
        war,
        (name, bytes) -> {
          if (name.endsWith(".jar") || name.startsWith("META-INF/maven/")) {
            // A jar's files are visited one by one; the Maven metadata (the server module's pom,
            // which names its compile-time jakarta.servlet-api) is read by nothing at run time.
            return;
          }
          String latin1 = name + "\n" + new String(bytes, StandardCharsets.ISO_8859_1);
          if (latin1.contains("jakarta/servlet") || latin1.contains("jakarta.servlet")) {
            found.add(name);
          }
        });
    return found;
  }

  /** lib/servlet-api.jar of the Tomcat 9 tarball, taken out with tar (once per build). */
  private static Path tomcatServletApiJar(String version) throws Exception {
    Path jar =
        WORK.resolve("it-servlet-api/tomcat-" + version + "-servlet-api.jar").toAbsolutePath();
    if (!Files.isRegularFile(jar)) {
      ExternalTools tools = ExternalTools.system();
      for (String tool : List.of("bash", "tar")) {
        tools.require(tool, "taking servlet-api.jar out of the Tomcat 9 tarball");
      }
      Files.createDirectories(jar.getParent());
      Scripts.Result r =
          Scripts.run(
              List.of(
                  "bash",
                  "-c",
                  "tar -xzOf \"$1\" --wildcards '*/lib/servlet-api.jar' > \"$2.part\" && mv \"$2.part\" \"$2\"",
                  "extract",
                  Distributions.tarball(version).toAbsolutePath().toString(),
                  jar.toString()),
              Scripts.cleanEnvironment(),
              WORK.resolve("it-logs/servlet-api.log"),
              Duration.ofSeconds(60));
      assertThat(r.exitCode()).as(r.output()).isZero();
    }
    return jar;
  }
}
