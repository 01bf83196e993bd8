package dev.cqlpatterns.platform.scheduling;

import io.smallrye.mutiny.Uni;
import java.util.function.Supplier;

/**
 * The data migration a release brings, as a bean its feature produces: the {@code job <name>}
 * command (a Kubernetes Job) runs it to its end once that release serves alone, and RELEASES.md
 * says which release needs it finished. Nothing ticks it in process. It keeps its own progress in
 * Cassandra, so a run stopped anywhere resumes there, and two runs at once repeat some work but
 * never undo any.
 *
 * @param name the command's name
 * @param step one bounded piece of the work; answers how many items it visited, or null when nothing
 *     was left to do
 */
public record DataMigration(String name, Supplier<Uni<Integer>> step) {}
