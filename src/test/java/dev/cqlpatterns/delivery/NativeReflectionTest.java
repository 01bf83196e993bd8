package dev.cqlpatterns.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.platform.nativeimage.NativeReflection;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * What Jackson or the object mapper reflects on without Quarkus knowing must be registered for a
 * native image, or the native service fails at run time where the JVM one works. Read from the
 * compiled classes, so a new feature is checked without being listed here.
 */
class NativeReflectionTest {
    private static final String CURSORS = "dev/cqlpatterns/platform/paging/Cursors";
    private static final String NAME_CONVERTER = "com/datastax/oss/driver/api/mapper/entity/naming/NameConverter";

    @Test
    void should_register_every_cursor_position_type() {
        for (String type : cursorPositions(classesUnder("target/classes"))) {
            assertThat(registered(type))
                    .as(type + " is read from cursors by Jackson: annotate it with "
                            + "@RegisterForReflection or list it in NativeReflection")
                    .isTrue();
        }
    }

    @Test
    void should_find_the_cursor_position_types_a_class_decodes() {
        // The test-only probe route decodes its own position record: the scan must see it.
        assertThat(cursorPositions(classesUnder("target/test-classes")))
                .contains("dev.cqlpatterns.testsupport.ProbeResource$Position");
    }

    @Test
    void should_register_every_custom_name_converter_of_the_object_mapper() throws IOException {
        for (Path file : classesUnder("target/classes")) {
            try (InputStream in = Files.newInputStream(file)) {
                ClassReader reader = new ClassReader(in);
                if (Arrays.asList(reader.getInterfaces()).contains(NAME_CONVERTER)) {
                    String type = reader.getClassName().replace('/', '.');
                    assertThat(registered(type))
                            .as(type + " is instantiated reflectively by the mapper")
                            .isTrue();
                }
            }
        }
    }

    /** Types passed as a class literal to Cursors.decode(scope, cursor, Type.class). */
    private static Set<String> cursorPositions(List<Path> classFiles) {
        Set<String> types = new HashSet<>();
        for (Path file : classFiles) {
            try (InputStream in = Files.newInputStream(file)) {
                new ClassReader(in)
                        .accept(
                                new ClassVisitor(Opcodes.ASM9) {
                                    @Override
                                    public MethodVisitor visitMethod(
                                            int access,
                                            String name,
                                            String descriptor,
                                            String signature,
                                            String[] exceptions) {
                                        return new MethodVisitor(Opcodes.ASM9) {
                                            private Type lastClassLiteral;

                                            @Override
                                            public void visitLdcInsn(Object value) {
                                                lastClassLiteral = value instanceof Type t && t.getSort() == Type.OBJECT
                                                        ? t
                                                        : null;
                                            }

                                            @Override
                                            public void visitMethodInsn(
                                                    int opcode, String owner, String method, String desc, boolean itf) {
                                                if (CURSORS.equals(owner)
                                                        && "decode".equals(method)
                                                        && lastClassLiteral != null) {
                                                    types.add(lastClassLiteral.getClassName());
                                                }
                                                lastClassLiteral = null;
                                            }
                                        };
                                    }
                                },
                                ClassReader.SKIP_DEBUG);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return types;
    }

    private static boolean registered(String type) {
        try {
            Class<?> cls = Class.forName(type, false, NativeReflectionTest.class.getClassLoader());
            return cls.isAnnotationPresent(RegisterForReflection.class)
                    || Arrays.asList(NativeReflection.class
                                    .getAnnotation(RegisterForReflection.class)
                                    .targets())
                            .contains(cls);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(type + " is not on the test class path", e);
        }
    }

    private static List<Path> classesUnder(String dir) {
        Path root = RenderedOverlay.ROOT.resolve(dir);
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".class")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
