package dev.cqlpatterns.courses;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.errors.ProblemException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a course exists: its partition has the static name. Modules and page views are only
 * written for existing courses.
 *
 * <p>There is no route that deletes a course, so once a course is seen it exists for good: each
 * process remembers the courses it has seen, and a popular course's page views cost no extra read.
 * (Should a course delete ever be added, this memory must go with it.)
 */
@IfBuildProperty(name = FunctionGroup.Property.COURSES, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class KnownCourses {
    private static final int REMEMBERED_MAX = 100_000;
    // The static column comes with any row of the partition; one is enough.
    private static final Query NAME = Cql.idempotent("SELECT name FROM courses WHERE id = ? LIMIT 1");

    @Inject
    Cql cql;

    private final Set<String> known = ConcurrentHashMap.newKeySet();

    /** Completes when the course exists; fails with a 404 problem when it does not. */
    public Uni<Void> require(String courseId) {
        if (known.contains(courseId)) {
            return Uni.createFrom().voidItem();
        }
        return cql.read(NAME, 1, courseId).map(rs -> {
            var row = rs.one();
            if (row == null || row.isNull("name")) {
                throw ProblemException.notFound("No course " + courseId);
            }
            remember(courseId);
            return null;
        });
    }

    /** A course just written or read exists. */
    void remember(String courseId) {
        if (known.size() >= REMEMBERED_MAX) {
            known.clear();
        }
        known.add(courseId);
    }
}
