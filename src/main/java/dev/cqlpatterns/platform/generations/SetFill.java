package dev.cqlpatterns.platform.generations;

import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.function.Function;

/**
 * A filled set as the set-fills job walks it (cql/058_set_fill_scans.cql), a bean the set's feature
 * produces through {@link SetFills#walked}.
 *
 * @param set the set's table
 * @param fill fills one key's set from its source, unless set_fills says it was
 * @param scans the tables whose partitions name every key that may need a fill, walked in this order
 */
public record SetFill(String set, Function<String, Uni<Void>> fill, List<KeyScan> scans) {}
