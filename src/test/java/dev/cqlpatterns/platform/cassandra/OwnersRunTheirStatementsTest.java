package dev.cqlpatterns.platform.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Statement;
import dev.cqlpatterns.platform.generations.Generational;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each table's owner runs its own statements: a {@link Query} (or a {@link Generational} pair of them) is a
 * private field of the class that runs it, and no feature class offers others a method that takes or returns statements or
 * positional values (its private helpers may).
 */
class OwnersRunTheirStatementsTest {

    @Test
    void every_query_should_be_private_to_the_class_that_runs_it() throws Exception {
        List<String> visible = new ArrayList<>();
        for (Class<?> type : classes()) {
            for (Field field : type.getDeclaredFields()) {
                boolean statement = field.getType() == Query.class || field.getType() == Generational.class;
                if (statement && !Modifier.isPrivate(field.getModifiers())) {
                    visible.add(type.getName() + "." + field.getName());
                }
            }
        }
        assertThat(visible)
                .as("Query and Generational fields that are not private")
                .isEmpty();
    }

    @Test
    void no_feature_method_should_take_or_return_statements_or_positional_values() throws Exception {
        List<String> leaking = new ArrayList<>();
        for (Class<?> type : classes()) {
            if (type.getName().startsWith("dev.cqlpatterns.platform.")) {
                continue;
            }
            for (Method method : type.getDeclaredMethods()) {
                if (method.isSynthetic() || Modifier.isPrivate(method.getModifiers())) {
                    continue;
                }
                List<Type> types = new ArrayList<>(List.of(method.getGenericParameterTypes()));
                types.add(method.getGenericReturnType());
                boolean statements = types.stream().anyMatch(t -> {
                    String name = t.getTypeName();
                    return name.contains(Query.class.getName())
                            || name.contains(Generational.class.getName())
                            || mentionsStatement(name);
                });
                boolean positional = method.isVarArgs()
                        && method.getParameterTypes()[method.getParameterCount() - 1] == Object[].class;
                if (statements || positional) {
                    leaking.add(type.getName() + "." + method.getName());
                }
            }
        }
        assertThat(leaking)
                .as("non-private feature methods that take or return a Query, a driver Statement or Object... values")
                .isEmpty();
    }

    private static boolean mentionsStatement(String typeName) {
        for (String part : typeName.split("[<>, ]+")) {
            try {
                if (!part.isEmpty() && Statement.class.isAssignableFrom(Class.forName(part, false, loader()))) {
                    return true;
                }
            } catch (ClassNotFoundException | LinkageError notAClass) {
                // a type variable or wildcard
            }
        }
        return false;
    }

    /** Every class of the service, as compiled into target/classes. */
    private static List<Class<?>> classes() throws IOException, ClassNotFoundException {
        Path root = Path.of(System.getProperty("cqlpatterns.root", System.getProperty("user.dir")))
                .resolve("target/classes");
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root.resolve("dev/cqlpatterns"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = root.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                classes.add(Class.forName(name, false, loader()));
            }
        }
        assertThat(classes).hasSizeGreaterThan(100);
        return classes;
    }

    private static ClassLoader loader() {
        return OwnersRunTheirStatementsTest.class.getClassLoader();
    }
}
