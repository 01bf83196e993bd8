package dev.cqlpatterns.courses;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.identity.Ownership;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The courses table and every statement on it; whether a course exists (its partition has the static name)
 * and who owns it (the static owner). Modules and page views are only written for existing courses; a course
 * and its modules are only changed by its owner.
 *
 * <p>There is no route that deletes a course, and an owner never changes once set, so once a course (or its
 * owner) is seen it stays so for good: each process remembers the courses and the owners it has seen, and a
 * popular course's page views, or an owner's next change, cost no extra read for it (a change still reads the
 * course's last change time, {@link #changeTime}). (Should a course delete or an owner transfer ever be
 * added, this memory must go with it.)
 */
@IfBuildProperty(name = FunctionGroup.Property.COURSES, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class KnownCourses {
    private static final int REMEMBERED_MAX = 100_000;
    // The static columns come with any row of the partition; one is enough.
    private static final Query NAME_AND_OWNER = Cql.idempotent("SELECT name, owner FROM courses WHERE id = ? LIMIT 1");
    /** Creates a course owned by its creator; of two creators one wins (a Paxos round on static columns). */
    private static final Query CREATE =
            Cql.query("UPDATE courses SET name = ?, owner = ? WHERE id = ? IF owner = null");
    /** The first change of a course from before owners claims it. */
    private static final Query CLAIM = Cql.query("UPDATE courses SET owner = ? WHERE id = ? IF owner = null");
    /** The write time of the course's newest change (changed_at), and of its name (the create's ballot). */
    private static final Query LAST_CHANGE =
            Cql.idempotent("SELECT changed_at, writetime(name) AS name_written FROM courses WHERE id = ? LIMIT 1");
    /** PutCourse: a course's name (the static column), at the change's time. */
    private static final Query WRITE_NAME =
            Cql.idempotent("INSERT INTO courses (id, name, changed_at) VALUES (?, ?, ?) USING TIMESTAMP ?");
    /** PutModule: one module, at the change's time. */
    private static final Query WRITE_MODULE = Cql.idempotent(
            "INSERT INTO courses (id, module_id, module_name, changed_at) VALUES (?, ?, ?, ?) USING TIMESTAMP ?");
    /** DeleteModule: one module, at the change's time, with {@link #MARK_CHANGED} in one batch. */
    private static final Query DELETE_MODULE =
            Cql.idempotent("DELETE FROM courses USING TIMESTAMP ? WHERE id = ? AND module_id = ?");
    /** DeleteModule: the change's mark, which a delete of a module row cannot write itself. */
    private static final Query MARK_CHANGED =
            Cql.idempotent("UPDATE courses USING TIMESTAMP ? SET changed_at = ? WHERE id = ?");
    /** GetCourse: the course and its modules, one partition. */
    private static final Query COURSE =
            Cql.idempotent("SELECT name, owner, module_id, module_name FROM courses WHERE id = ?");

    @Inject
    Cql cql;

    @Inject
    Clock clock;

    @Inject
    CourseSettings settings;

    private final Set<String> known = ConcurrentHashMap.newKeySet();
    private final Map<String, String> owners = new ConcurrentHashMap<>();

    /** Completes when the course exists; fails with a 404 problem when it does not. */
    public Uni<Void> require(String courseId) {
        if (known.contains(courseId)) {
            return Uni.createFrom().voidItem();
        }
        return cql.read(NAME_AND_OWNER, courseId).map(rs -> {
            Row row = rs.one();
            if (row == null || row.isNull("name")) {
                throw ProblemException.notFound("No course " + courseId);
            }
            remember(courseId, row.getString("owner"));
            return null;
        });
    }

    /**
     * Completes when the course exists and {@code caller} owns it, claiming a course from before owners; 404
     * when there is no such course, 403 when someone else owns it. Nothing is written in either case.
     */
    Uni<Void> requireOwner(String courseId, String caller) {
        return own(courseId, caller, null).replaceWithVoid();
    }

    /**
     * Like {@link #requireOwner}, except that a course that does not exist is created with {@code name},
     * owned by {@code caller}. Answers true when it wrote the name (the course is new), false when the caller
     * owned the course already or just claimed it.
     */
    Uni<Boolean> createOrRequireOwner(String courseId, String caller, String name) {
        return own(courseId, caller, name);
    }

    private Uni<Boolean> own(String courseId, String caller, String nameIfNew) {
        String what = "The course " + courseId;
        String seen = owners.get(courseId);
        if (seen != null) {
            Ownership.require(seen, caller, what);
            return Uni.createFrom().item(false);
        }
        return cql.read(NAME_AND_OWNER, courseId).chain(rs -> {
            Row row = rs.one();
            boolean exists = row != null && !row.isNull("name");
            if (!exists && nameIfNew == null) {
                throw ProblemException.notFound("No course " + courseId);
            }
            String owner = row == null ? null : row.getString("owner");
            if (owner != null) {
                remember(courseId, owner);
                Ownership.require(owner, caller, what);
                return Uni.createFrom().item(false);
            }
            Uni<AsyncResultSet> claim =
                    exists ? cql.write(CLAIM, caller, courseId) : cql.write(CREATE, nameIfNew, caller, courseId);
            return claim.map(result -> {
                if (result.wasApplied()) {
                    remember(courseId, caller);
                    return !exists;
                }
                // Someone claimed it between our read and our write: the answer names them.
                String winner = result.one().getString("owner");
                remember(courseId, winner);
                Ownership.require(winner, caller, what);
                return false;
            });
        });
    }

    /**
     * The write timestamp (microseconds) of a change to a course made now: after its newest change and its
     * name's write, whatever this replica's clock says (changed_at), so an owner's changes land in the order
     * made.
     */
    Uni<Long> changeTime(String courseId) {
        return cql.read(LAST_CHANGE, courseId).map(rs -> {
            Row row = rs.one();
            long now = ChronoUnit.MICROS.between(Instant.EPOCH, clock.instant());
            if (row == null) {
                return now;
            }
            long changed = row.isNull("changed_at") ? Long.MIN_VALUE : row.getLong("changed_at");
            long named = row.isNull("name_written") ? Long.MIN_VALUE : row.getLong("name_written");
            return Math.max(now, Math.max(changed, named) + 1);
        });
    }

    /** A course's name, at the change's time {@code t} (microseconds, {@link #changeTime}). */
    Uni<Void> writeName(String courseId, String name, long t) {
        return cql.write(WRITE_NAME, courseId, name, t, t).replaceWithVoid();
    }

    /** One module's name, at the change's time {@code t}. */
    Uni<Void> writeModule(String courseId, int module, String name, long t) {
        return cql.write(WRITE_MODULE, courseId, module, name, t, t).replaceWithVoid();
    }

    /** One module gone and the course's change marked, at the change's time {@code t}: one batch, one partition. */
    Uni<Void> deleteModule(String courseId, int module, long t) {
        return cql.onePartition(
                        List.of(cql.bind(DELETE_MODULE, t, courseId, module), cql.bind(MARK_CHANGED, t, t, courseId)))
                .replaceWithVoid();
    }

    /** The course and its modules in module id order (one partition read); null when there is no such course. */
    Uni<GetCourse.Course> course(String courseId) {
        // Module ids are bounded, so the whole partition fits one page.
        int pageSize = settings.maxModuleId() + 1;
        return cql.read(COURSE, b -> b.setPageSize(pageSize), courseId).map(rs -> {
            List<Row> rows = Cql.rows(rs);
            if (rows.isEmpty()) {
                return null;
            }
            String name = rows.get(0).getString("name");
            String owner = rows.get(0).getString("owner");
            List<PutModule.Module> modules = new ArrayList<>(rows.size());
            for (Row row : rows) {
                if (!row.isNull("module_id")) {
                    modules.add(new PutModule.Module(row.getInt("module_id"), row.getString("module_name")));
                }
            }
            if (name != null) {
                remember(courseId, owner);
            }
            return new GetCourse.Course(courseId, name, owner, modules);
        });
    }

    /** A course just written or read exists; its owner, when it has one, is its owner for good. */
    void remember(String courseId, String owner) {
        if (known.size() >= REMEMBERED_MAX) {
            known.clear();
            owners.clear();
        }
        known.add(courseId);
        if (owner != null) {
            owners.put(courseId, owner);
        }
    }
}
