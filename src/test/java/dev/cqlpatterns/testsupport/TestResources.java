package dev.cqlpatterns.testsupport;

import io.quarkus.test.common.QuarkusTestResource;

/** Every Quarkus test runs with the Cassandra and JWT key chosen by {@link CassandraTestResource}. */
@QuarkusTestResource(CassandraTestResource.class)
public final class TestResources {
    private TestResources() {}
}
