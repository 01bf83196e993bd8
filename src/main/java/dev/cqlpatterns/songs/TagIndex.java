package dev.cqlpatterns.songs;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.functions.FunctionGroup;
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
    private static final Query TAG =
            Cql.idempotent("INSERT INTO songs_by_tag (tag, artist, album, song) VALUES (?, ?, ?, ?) USING TIMESTAMP ?");
    private static final Query UNTAG = Cql.idempotent(
            "DELETE FROM songs_by_tag USING TIMESTAMP ? WHERE tag = ? AND artist = ? AND album = ? AND song = ?");
    private static final Query FIRST =
            Cql.idempotent("SELECT artist, album, song FROM songs_by_tag WHERE tag = ? LIMIT ?");
    private static final Query AFTER = Cql.idempotent("SELECT artist, album, song FROM songs_by_tag "
            + "WHERE tag = ? AND (artist, album, song) > (?, ?, ?) LIMIT ?");
    private static final Query ALL = Cql.idempotent("SELECT artist, album, song FROM songs_by_tag WHERE tag = ?");
    private static final Query DROP = Cql.idempotent("DELETE FROM songs_by_tag WHERE tag = ?");

    private static final Query TAG_MOVED = Cql.idempotent("INSERT INTO songs_by_tag_generations "
            + "(tag, generation, artist, album, song) VALUES (?, ?, ?, ?, ?) USING TIMESTAMP ?");
    private static final Query UNTAG_MOVED = Cql.idempotent("DELETE FROM songs_by_tag_generations USING TIMESTAMP ? "
            + "WHERE tag = ? AND generation = ? AND artist = ? AND album = ? AND song = ?");
    private static final Query FIRST_MOVED = Cql.idempotent(
            "SELECT artist, album, song FROM songs_by_tag_generations WHERE tag = ? AND generation = ? LIMIT ?");
    private static final Query AFTER_MOVED = Cql.idempotent("SELECT artist, album, song FROM songs_by_tag_generations "
            + "WHERE tag = ? AND generation = ? AND (artist, album, song) > (?, ?, ?) LIMIT ?");
    private static final Query ALL_MOVED =
            Cql.idempotent("SELECT artist, album, song FROM songs_by_tag_generations WHERE tag = ? AND generation = ?");
    private static final Query DROP_MOVED =
            Cql.idempotent("DELETE FROM songs_by_tag_generations WHERE tag = ? AND generation = ?");

    @Inject
    Cql cql;

    @Inject
    PartitionGenerations generations;

    /** One song's key, as the index orders it. */
    record Entry(String artist, String album, String song) {}

    /** The song carries {@code tag} as of {@code version} (its write timestamp). */
    Uni<Void> tag(String tag, Entry entry, long version) {
        return generations.change(
                this,
                tag,
                false,
                g -> g == 0
                        ? cql.write(TAG, tag, entry.artist(), entry.album(), entry.song(), version)
                        : cql.write(TAG_MOVED, tag, g, entry.artist(), entry.album(), entry.song(), version));
    }

    /** The song no longer carries {@code tag} as of {@code version}. */
    Uni<Void> untag(String tag, Entry entry, long version) {
        return generations.change(
                this,
                tag,
                true,
                g -> g == 0
                        ? cql.write(UNTAG, version, tag, entry.artist(), entry.album(), entry.song())
                        : cql.write(UNTAG_MOVED, version, tag, g, entry.artist(), entry.album(), entry.song()));
    }

    /** Up to {@code limit} songs carrying {@code tag} after {@code after} (null: from the first). */
    Uni<AsyncResultSet> page(String tag, Entry after, int limit) {
        return generations.current(this, tag).chain(g -> {
            if (after == null) {
                return g == 0 ? cql.read(FIRST, tag, limit) : cql.read(FIRST_MOVED, tag, g, limit);
            }
            return g == 0
                    ? cql.read(AFTER, tag, after.artist(), after.album(), after.song(), limit)
                    : cql.read(AFTER_MOVED, tag, g, after.artist(), after.album(), after.song(), limit);
        });
    }

    @Override
    public String name() {
        return "songs_by_tag";
    }

    @Override
    public Uni<Long> copy(String tag, int from, int to) {
        return PartitionGenerations.forEachRow(
                paging -> from == 0 ? cql.read(ALL, paging, tag) : cql.read(ALL_MOVED, paging, tag, from),
                row -> cql.write(
                        TAG_MOVED,
                        tag,
                        to,
                        row.getString("artist"),
                        row.getString("album"),
                        row.getString("song"),
                        COPIED));
    }

    @Override
    public Uni<Void> drop(String tag, int generation) {
        return (generation == 0 ? cql.write(DROP, tag) : cql.write(DROP_MOVED, tag, generation)).replaceWithVoid();
    }
}
