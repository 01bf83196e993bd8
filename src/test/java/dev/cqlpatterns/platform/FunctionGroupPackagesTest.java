package dev.cqlpatterns.platform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every feature package says which function group deploys it, as FunctionGroup has it. */
class FunctionGroupPackagesTest {
    @Test
    void should_name_its_function_group_in_every_feature_package() throws IOException {
        for (FunctionGroup group : FunctionGroup.values()) {
            for (String pkg : group.packages()) {
                Path info = Path.of("src/main/java/dev/cqlpatterns", pkg.replace('.', '/'), "package-info.java");
                assertThat(info).as("%s of group %s", pkg, group.id()).exists();
                assertThat(Files.readString(info).replaceAll("\\s+\\*\\s+", " "))
                        .as(info.toString())
                        .contains("Function group {@code " + group.id() + "}");
            }
        }
    }
}
