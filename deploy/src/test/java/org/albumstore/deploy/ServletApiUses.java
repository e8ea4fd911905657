package org.albumstore.deploy;

import java.io.IOException;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * What the classes of a WAR use of the Servlet API ({@code javax.servlet}), read from their class
 * files with ASM, and whether a given Servlet API jar has each of those types and members. The JVM
 * resolves a call only when it first runs, so a missing method shows up on a server only on the
 * code path that calls it; reading the class files finds it for every path.
 */
final class ServletApiUses {
  private static final String SERVLET_PACKAGE = "javax/servlet/";

  private ServletApiUses() {}

  /**
   * Every javax.servlet type the classes of the WAR name (as supertype, in a signature, a field or
   * method owner, a constant), and every javax.servlet method and field they call or read, each
   * with the classes that use it. Keys: {@code owner} for a type, {@code owner.name(descriptor)...}
   * for a method, {@code owner.name:descriptor} for a field.
   */
  static Map<String, Set<String>> of(Path war) throws IOException {
    Map<String, Set<String>> uses = new LinkedHashMap<>();
    WarFiles.eachFile(
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
    public FieldVisitor visitField(
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
   * Whether the type, method or field a {@link #of} key names is there in {@code api}: the type
   * loads; the method or field is declared by the owner or one of its supertypes (as the JVM
   * resolves it), whatever its access.
   */
  static boolean existsIn(ClassLoader api, String use) {
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
}
