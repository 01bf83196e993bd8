package dev.cqlpatterns.platform.generations;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;

/**
 * A table whose partitions the set-fills job walks in token order (cql/058_set_fill_scans.cql), a
 * batch at a time; the first column of its partition key is the set's key.
 *
 * @param table the table
 * @param partitionKey its partition key's columns, as CQL: {@code username} or {@code username, generation}
 * @param batch the partition keys at {@code token(partitionKey) >= ?}, at most {@code LIMIT ?} of them,
 *     each with its token as {@code position}
 */
public record KeyScan(String table, String partitionKey, Query batch) {

    public KeyScan(String table, String partitionKey) {
        this(
                table,
                partitionKey,
                Cql.idempotent("SELECT DISTINCT " + partitionKey + ", token(" + partitionKey + ") AS position FROM "
                        + table + " WHERE token(" + partitionKey + ") >= ? LIMIT ?"));
    }
}
