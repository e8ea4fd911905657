package org.albumstore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
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
  private static final String SERVLET_PACKAGE = "javax/servlet/";

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
    String javax = text(Distributions.JAVAX_WAR, "WEB-INF/web.xml");
    String jakarta = text(Distributions.WAR, "WEB-INF/web.xml");

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
    Map<String, byte[]> javax = entries(Distributions.JAVAX_WAR);
    Map<String, byte[]> jakarta = entries(Distributions.WAR);
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
    Map<String, Set<String>> uses = servletApiUses(Distributions.JAVAX_WAR);
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
            if (!exists(use, tomcat9)) {
              missing.put(use, users);
            }
          });
      assertThat(missing).as("used by the WAR, absent from Tomcat %s", version).isEmpty();
      // And the check can fail: a method that Servlet 6.0 added is not found in Tomcat 9.
      assertThat(exists("javax/servlet/ServletRequest.getRequestId()Ljava/lang/String;", tomcat9))
          .isFalse();
    }
  }

  // ---- the WAR's files ----------------------------------------------------------------------

  /** Every file of the WAR by name, the jars in WEB-INF/lib as whole files. */
  private static Map<String, byte[]> entries(Path war) throws IOException {
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

  private static String text(Path war, String name) throws IOException {
    byte[] b = entries(war).get(name);
    assertThat(b).as("%s in %s", name, war).isNotNull();
    return new String(b, StandardCharsets.UTF_8);
  }

  /**
   * Calls {@code visitor} with every file of the WAR and, for each jar in WEB-INF/lib, every file
   * in it, named {@code WEB-INF/lib/x.jar!path}.
   */
  private static void eachFile(Path war, BiConsumer<String, byte[]> visitor) throws IOException {
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

  /**
   * Files (outside the jars themselves) whose name or bytes name jakarta.servlet: class files keep
   * the names they use as plain text, as do descriptors and META-INF/services files.
   */
  private static Set<String> jakartaServletReferences(Path war) throws IOException {
    Set<String> found = new TreeSet<>();
    eachFile(
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

  // ---- the Servlet API the WAR's classes use --------------------------------------------------

  /**
   * Every javax.servlet type the classes of the WAR name (as supertype, in a signature, a field or
   * method owner, a constant), and every javax.servlet method and field they call or read, each
   * with the classes that use it. Keys: {@code owner} for a type, {@code owner.name(descriptor)...}
   * for a method, {@code owner.name:descriptor} for a field.
   */
  private static Map<String, Set<String>> servletApiUses(Path war) throws IOException {
    Map<String, Set<String>> uses = new LinkedHashMap<>();
    eachFile(
        war,
        (name, bytes) -> {
          if (name.endsWith(".class") && !name.endsWith("module-info.class")) {
            new ClassReader(bytes)
                .accept(
                    new UseCollector(name, uses), ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
          }
        });
    return uses;
  }

  /** Records what one class uses of javax.servlet. */
  private static final class UseCollector extends ClassVisitor {
    private final String user;
    private final Map<String, Set<String>> uses;

    UseCollector(String user, Map<String, Set<String>> uses) {
      super(Opcodes.ASM9);
      this.user = user;
      this.uses = uses;
    }

    private void type(Type t) {
      switch (t.getSort()) {
        case Type.ARRAY -> type(t.getElementType());
        case Type.OBJECT -> {
          if (t.getInternalName().startsWith(SERVLET_PACKAGE)) {
            use(t.getInternalName());
          }
        }
        case Type.METHOD -> {
          type(t.getReturnType());
          for (Type a : t.getArgumentTypes()) {
            type(a);
          }
        }
        default -> {}
      }
    }

    private void member(String owner, String name, String descriptor, boolean method) {
      type(Type.getObjectType(owner));
      type(Type.getType(descriptor));
      if (owner.startsWith(SERVLET_PACKAGE)) {
        use(owner + "." + name + (method ? "" : ":") + descriptor);
      }
    }

    private void constant(Object value) {
      if (value instanceof Type t) {
        type(t);
      } else if (value instanceof Handle h) {
        member(h.getOwner(), h.getName(), h.getDesc(), h.getTag() >= Opcodes.H_INVOKEVIRTUAL);
      }
    }

    private void use(String what) {
      uses.computeIfAbsent(what, k -> new TreeSet<>()).add(user);
    }

    @Override
    public void visit(
        int version, int access, String name, String sig, String superName, String[] ifaces) {
      if (superName != null) {
        type(Type.getObjectType(superName));
      }
      for (String i : ifaces) {
        type(Type.getObjectType(i));
      }
    }

    @Override
    public org.objectweb.asm.FieldVisitor visitField(
        int access, String name, String descriptor, String signature, Object value) {
      type(Type.getType(descriptor));
      return null;
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      type(Type.getMethodType(descriptor));
      return new MethodVisitor(Opcodes.ASM9) {
        @Override
        public void visitMethodInsn(
            int opcode, String owner, String mname, String mdesc, boolean isInterface) {
          if (owner.startsWith("[")) {
            type(Type.getType(owner)); // clone() of an array
          } else {
            member(owner, mname, mdesc, true);
          }
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String fname, String fdesc) {
          member(owner, fname, fdesc, false);
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
          type(type.startsWith("[") ? Type.getType(type) : Type.getObjectType(type));
        }

        @Override
        public void visitLdcInsn(Object value) {
          constant(value);
        }

        @Override
        public void visitInvokeDynamicInsn(String n, String d, Handle bsm, Object... args) {
          type(Type.getMethodType(d));
          for (Object a : args) {
            constant(a);
          }
        }

        @Override
        public void visitTryCatchBlock(
            org.objectweb.asm.Label s,
            org.objectweb.asm.Label e,
            org.objectweb.asm.Label h,
            String t) {
          if (t != null) {
            type(Type.getObjectType(t));
          }
        }
      };
    }
  }

  /**
   * Whether the type, method or field a {@link #servletApiUses} key names is there in {@code api}:
   * the type loads; the method or field is declared by the owner or one of its supertypes (as the
   * JVM resolves it), whatever its access.
   */
  private static boolean exists(String use, ClassLoader api) {
    int dot = use.indexOf('.');
    String owner = (dot < 0 ? use : use.substring(0, dot)).replace('/', '.');
    Class<?> c;
    try {
      c = Class.forName(owner, false, api);
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
    if (dot < 0) {
      return true;
    }
    String rest = use.substring(dot + 1);
    int colon = rest.indexOf(':');
    if (colon >= 0) {
      String name = rest.substring(0, colon);
      String descriptor = rest.substring(colon + 1);
      return supertypes(c).stream()
          .flatMap(t -> List.of(t.getDeclaredFields()).stream())
          .anyMatch(f -> f.getName().equals(name) && descriptor(f).equals(descriptor));
    }
    int paren = rest.indexOf('(');
    String name = rest.substring(0, paren);
    String descriptor = rest.substring(paren);
    if (name.equals("<init>")) {
      return List.of(c.getDeclaredConstructors()).stream()
          .anyMatch(k -> descriptor(k).equals(descriptor));
    }
    return supertypes(c).stream()
        .flatMap(t -> List.of(t.getDeclaredMethods()).stream())
        .anyMatch(m -> m.getName().equals(name) && descriptor(m).equals(descriptor));
  }

  /** The class, its superclasses and all the interfaces any of them implements. */
  private static List<Class<?>> supertypes(Class<?> c) {
    List<Class<?>> all = new ArrayList<>();
    Set<Class<?>> seen = new HashSet<>();
    Deque<Class<?>> todo = new ArrayDeque<>(List.of(c));
    while (!todo.isEmpty()) {
      Class<?> t = todo.pop();
      if (seen.add(t)) {
        all.add(t);
        if (t.getSuperclass() != null) {
          todo.add(t.getSuperclass());
        }
        todo.addAll(List.of(t.getInterfaces()));
      }
    }
    return all;
  }

  private static String descriptor(Method m) {
    return MethodType.methodType(m.getReturnType(), m.getParameterTypes())
        .toMethodDescriptorString();
  }

  private static String descriptor(Constructor<?> k) {
    return MethodType.methodType(void.class, k.getParameterTypes()).toMethodDescriptorString();
  }

  private static String descriptor(Field f) {
    return f.getType().descriptorString();
  }

  /** lib/servlet-api.jar of the Tomcat 9 tarball, taken out with tar (once per build). */
  private static Path tomcatServletApiJar(String version) throws Exception {
    Path jar =
        WORK.resolve("it-servlet-api/tomcat-" + version + "-servlet-api.jar").toAbsolutePath();
    if (!Files.isRegularFile(jar)) {
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
