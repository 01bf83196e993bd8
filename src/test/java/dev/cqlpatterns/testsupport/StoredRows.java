package dev.cqlpatterns.testsupport;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.cassandra.CassandraSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;

/**
 * What is stored, read or written by a test straight in the service's keyspace, beside the HTTP
 * routes: to write rows as an older version of the service left them, or to look at a table's
 * columns. Test code only; the service itself uses prepared statements through Cql.
 */
@ApplicationScoped
public class StoredRows {

    @Inject
    QuarkusCqlSession session;

    @Inject
    CassandraSettings settings;

    /** Runs one statement on the service's keyspace (table names unqualified). */
    public List<Row> execute(String cql, Object... values) {
        // Protocol V4 has no keyspace per statement: the session's is the service's once migrated.
        if (!session.getKeyspace().equals(Optional.of(CqlIdentifier.fromInternal(settings.keyspace())))) {
            session.execute("USE " + settings.keyspace());
        }
        return session.execute(SimpleStatement.newInstance(cql, values)).all();
    }

    /** The column names of one of the service's tables. */
    public List<String> columns(String table) {
        return session
                .execute(SimpleStatement.newInstance(
                        "SELECT column_name FROM system_schema.columns " + "WHERE keyspace_name = ? AND table_name = ?",
                        settings.keyspace(),
                        table))
                .all()
                .stream()
                .map(row -> row.getString("column_name"))
                .toList();
    }
}
