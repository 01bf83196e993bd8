package dev.cqlpatterns.platform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.PackagedService;
import dev.cqlpatterns.testsupport.TestOverrides;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The tests run what ships: every setting of a {@code %test} or {@code %dev} line of
 * application.properties and of every test profile is one TestOverrides lists with its reason (the
 * packaged service's environment is checked as each IT starts it).
 */
class TestOverridesTest {

    @Test
    void should_list_every_test_and_dev_setting_of_application_properties() throws IOException {
        List<String> keys = new ArrayList<>();
        for (String line :
                Files.readAllLines(PackagedService.ROOT.resolve("src/main/resources/application.properties"))) {
            if (line.startsWith("%test.") || line.startsWith("%dev.")) {
                keys.add(line.substring(0, line.indexOf('=')));
            }
        }
        assertThat(TestOverrides.unlisted(keys))
                .as("%%test and %%dev settings without a reason in TestOverrides")
                .isEmpty();
    }

    @Test
    void should_list_every_setting_a_test_profile_changes() throws Exception {
        Path classes = PackagedService.ROOT.resolve("target/test-classes");
        Map<String, List<String>> unlisted = new TreeMap<>();
        int profiles = 0;
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name =
                        classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type = Class.forName(name, false, getClass().getClassLoader());
                if (!QuarkusTestProfile.class.isAssignableFrom(type)
                        || type.isInterface()
                        || Modifier.isAbstract(type.getModifiers())) {
                    continue;
                }
                profiles++;
                QuarkusTestProfile profile =
                        (QuarkusTestProfile) type.getDeclaredConstructor().newInstance();
                List<String> keys = List.copyOf(
                        TestOverrides.unlisted(profile.getConfigOverrides().keySet()));
                if (!keys.isEmpty()) {
                    unlisted.put(name, keys);
                }
            }
        }
        assertThat(profiles).as("test profiles found").isGreaterThan(5);
        assertThat(unlisted)
                .as("test profiles' settings without a reason in TestOverrides")
                .isEmpty();
    }

    @Test
    void should_refuse_a_packaged_service_setting_without_a_reason() {
        assertThat(TestOverrides.unlisted(List.of("CQL_PATTERNS_MESSENGER_UNREAD_COUNT_CAP", "CQL_KEYSPACE")))
                .containsExactly("CQL_PATTERNS_MESSENGER_UNREAD_COUNT_CAP");
    }
}
