package dev.cqlpatterns.songs;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.generations.Generational;
import dev.cqlpatterns.platform.generations.GenerationalSet;
import dev.cqlpatterns.platform.generations.PartitionGenerations;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The songs carrying each tag: songs_by_tag, in generations (generation 0 is songs_by_tag itself,
 * the others songs_by_tag_generations; docs/tables.md).
 * The one owner of both tables: SongStore changes them, SongsByTag reads them.
 */
@IfBuildProperty(name = FunctionGroup.Property.SONGS, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class TagIndex implements GenerationalSet<String> {
    private static final Generational TAG = Generational.idempotent(
            "INSERT INTO songs_by_tag (tag, artist, album, song) VALUES (?, ?, ?, ?) USING TIMESTAMP ?",
            "INSERT INTO songs_by_tag_generations (tag, generation, artist, album, song) VALUES (?, ?, ?, ?, ?) "
                    + "USING TIMESTAMP ?");
    private static final Generational UNTAG = Generational.idempotent(
            "DELETE FROM songs_by_tag USING TIMESTAMP ? WHERE tag = ? AND artist = ? AND album = ? AND song = ?",
            "DELETE FROM songs_by_tag_generations USING TIMESTAMP ? "
                    + "WHERE tag = ? AND generation = ? AND artist = ? AND album = ? AND song = ?");
    private static final Generational FIRST = Generational.idempotent(
            "SELECT artist, album, song FROM songs_by_tag WHERE tag = ? LIMIT ?",
            "SELECT artist, album, song FROM songs_by_tag_generations WHERE tag = ? AND generation = ? LIMIT ?");
    private static final Generational AFTER = Generational.idempotent(
            "SELECT artist, album, song FROM songs_by_tag WHERE tag = ? AND (artist, album, song) > (?, ?, ?) LIMIT ?",
            "SELECT artist, album, song FROM songs_by_tag_generations "
                    + "WHERE tag = ? AND generation = ? AND (artist, album, song) > (?, ?, ?) LIMIT ?");
    private static final Generational ALL = Generational.idempotent(
            "SELECT artist, album, song FROM songs_by_tag WHERE tag = ?",
            "SELECT artist, album, song FROM songs_by_tag_generations WHERE tag = ? AND generation = ?");
    private static final Generational DROP = Generational.idempotent(
            "DELETE FROM songs_by_tag WHERE tag = ?",
            "DELETE FROM songs_by_tag_generations WHERE tag = ? AND generation = ?");

    @Inject
    Cql cql;

    @Inject
    PartitionGenerations generations;

    /** One song's key, as the index orders it. */
    record Entry(String artist, String album, String song) {}

    /** The song carries {@code tag} as of {@code version} (its write timestamp). */
    Uni<Void> tag(String tag, Entry entry, long version) {
        return generations.change(
                this, tag, false, g -> TAG.write(cql, g, tag, entry.artist(), entry.album(), entry.song(), version));
    }

    /** The song no longer carries {@code tag} as of {@code version}. */
    Uni<Void> untag(String tag, Entry entry, long version) {
        return generations.change(
                this, tag, true, g -> UNTAG.write(cql, g, version, tag, entry.artist(), entry.album(), entry.song()));
    }

    /** Up to {@code limit} songs carrying {@code tag} after {@code after} (null: from the first). */
    Uni<AsyncResultSet> page(String tag, Entry after, int limit) {
        return generations.current(this, tag).chain(g -> {
            if (after == null) {
                return FIRST.read(cql, g, tag, limit);
            }
            return AFTER.read(cql, g, tag, after.artist(), after.album(), after.song(), limit);
        });
    }

    @Override
    public String name() {
        return "songs_by_tag";
    }

    @Override
    public Uni<Long> copy(String tag, int from, int to) {
        return PartitionGenerations.forEachRow(
                paging -> ALL.read(cql, from, paging, tag),
                row -> TAG.write(
                        cql, to, tag, row.getString("artist"), row.getString("album"), row.getString("song"), COPIED));
    }

    @Override
    public Uni<Void> drop(String tag, int generation) {
        return DROP.write(cql, generation, tag).replaceWithVoid();
    }
}
