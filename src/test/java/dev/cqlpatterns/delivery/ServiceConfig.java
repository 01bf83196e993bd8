package dev.cqlpatterns.delivery;

import dev.cqlpatterns.platform.cassandra.CassandraSettings;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The service's configuration as a pod resolves it: src/main/resources/application.properties
 * under the prod profile, overridden by the container's environment, read by the same SmallRye
 * Config rules (environment names, expressions, profiles) and the same {@link CassandraSettings}
 * mapping as the running service.
 */
final class ServiceConfig {
    static final Path PROPERTIES = RenderedOverlay.ROOT.resolve("src/main/resources/application.properties");

    private ServiceConfig() {}

    static SmallRyeConfig resolve(Map<String, String> environment) {
        try {
            return new SmallRyeConfigBuilder()
                    .withProfile("prod")
                    .addDefaultInterceptors()
                    .withSources(new PropertiesConfigSource(PROPERTIES.toUri().toURL(), 250))
                    .withSources(new EnvConfigSource(environment, 300))
                    .withMapping(CassandraSettings.class)
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String properties() {
        try {
            return Files.readString(PROPERTIES);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A Quarkus duration: ISO-8601 ({@code PT20S}) or the short form ({@code 20s}, {@code 5m}). */
    static Duration duration(String value) {
        String v = value.trim();
        if (v.matches("\\d+")) {
            return Duration.ofSeconds(Long.parseLong(v));
        }
        if (v.matches("\\d+ms")) {
            return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
        }
        return Duration.parse(v.startsWith("P") || v.startsWith("p") ? v : "PT" + v);
    }
}
