package dev.cqlpatterns.songs;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.CompareAndSet;
import dev.cqlpatterns.platform.cassandra.CompareAndSet.Step;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.CqlTypes;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * The one way a song's tags change, keeping songs_by_tag in step with songs.tags (see
 * the songs table), by the song's owner only (its owner column):
 * <ol>
 * <li>serial read of the song (tags, last_removed, version, owner); a song owned by someone else
 * is refused here (403), before anything is written;</li>
 * <li>conditional write of the new set with a new version (IF version = ? AND owner = ?, or IF NOT
 * EXISTS for a new song, which the caller then owns; an unowned song from before owners is claimed
 * by the same write); a lost race reads again and retries, so concurrent changes are applied one
 * after the other, each to the set the previous one left, and a claim lost to another caller ends
 * in 403 (the loop is {@link CompareAndSet}: at most cql-patterns.cassandra.cas-attempts, and a write
 * whose outcome is unknown is learnt by a serial read: the song holds the version it proposed);</li>
 * <li>the songs_by_tag writes, USING TIMESTAMP the new version: a row for every tag of the new set,
 * a deletion for every tag removed now or by the previous change. Versions grow with each change, so
 * a late write of an older change cannot undo a newer one.</li>
 * </ol>
 *
 * <p>Ordered idempotent writes, no logged batch (a logged batch's log goes to two other
 * nodes, so while a killed node is not yet marked down every batch whose log picks it fails, and no
 * retry helps). The song row goes first: it is the authoritative one, it fixes the version the tag
 * rows are written at, and it is what a retry reads to finish the change. The tag rows (each in its
 * own tag's partition) then go in parallel: each carries the version as its timestamp, so the order
 * they land in changes nothing, and a reader of songs?tag= between two of them sees the index a
 * moment behind the song, as an index built beside its table may be, never a state the song did not
 * have at some version.
 *
 * <p>After a 503 between the conditional write and the tag rows, or half way through them, the same
 * request again finds the tags already set and re-asserts every tag row, and the deletions of
 * last_removed, at the current version (the "nothing changes" path): it finishes the change. Each
 * tag write is idempotent, so the driver may retry it too.
 */
@IfBuildProperty(name = FunctionGroup.Property.SONGS, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class SongStore {
    private static final Query READ = Cql.idempotent(
            "SELECT tags, last_removed, version, owner FROM songs WHERE artist = ? AND album = ? AND song = ?");
    private static final Query CREATE =
            Cql.conditional("INSERT INTO songs (artist, album, song, tags, last_removed, version, owner) "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?) IF NOT EXISTS");
    // owner = ? is the owner the serial read saw: the caller, or null for a song claimed now.
    private static final Query UPDATE =
            Cql.conditional("UPDATE songs SET tags = ?, last_removed = ?, version = ?, owner = ? "
                    + "WHERE artist = ? AND album = ? AND song = ? IF version = ? AND owner = ?");

    @Inject
    Cql cql;

    @Inject
    SongsSettings settings;

    @Inject
    CompareAndSet cas;

    @Inject
    TagIndex index;

    @Inject
    Clock clock;

    record Key(String artist, String album, String song) {}

    record Changed(Song song, boolean created) {}

    private record Current(Set<String> tags, Set<String> lastRemoved, long version, String owner) {}

    /**
     * Replaces the song's tags by {@code change.apply(current)}, as {@code caller}; current is null
     * when there is no such song, which is then created (owned by the caller) if {@code create},
     * else 404. A song owned by someone else is 403, and nothing is written.
     */
    Uni<Changed> change(Key key, String caller, boolean create, UnaryOperator<Set<String>> change) {
        return cas.<Optional<Current>, Changed>run(
                attempt -> latest(key),
                read -> {
                    Current current = read.orElse(null);
                    if (current == null && !create) {
                        return Step.done(Uni.createFrom()
                                .failure(ProblemException.notFound(
                                        "No song " + key.song() + " by " + key.artist() + " on " + key.album())));
                    }
                    if (current != null) {
                        Ownership.require(current.owner(), caller, "The song " + key.song() + " by " + key.artist());
                    }
                    Set<String> tags =
                            new TreeSet<>(change.apply(current == null ? null : new TreeSet<>(current.tags())));
                    if (tags.size() > settings.maxTags()) {
                        return Step.done(Uni.createFrom()
                                .failure(ProblemException.conflict(
                                        "A song carries at most " + settings.maxTags() + " tags")));
                    }
                    Set<String> removed = new TreeSet<>(current == null ? Set.of() : current.tags());
                    removed.removeAll(tags);
                    if (current != null
                            && current.owner() != null
                            && removed.isEmpty()
                            && tags.equals(current.tags())) {
                        // Nothing changes: re-assert the tag rows at the current version (heals, never undoes).
                        // An unowned song goes on to the write, which claims it.
                        return Step.done(syncTags(key, tags, current.lastRemoved(), current.version())
                                .replaceWith(new Changed(song(key, tags, caller), false)));
                    }
                    long version = nextVersion(current);
                    Uni<AsyncResultSet> write = current == null
                            ? cql.write(CREATE, key.artist(), key.album(), key.song(), tags, removed, version, caller)
                            : cql.write(
                                    UPDATE,
                                    tags,
                                    removed,
                                    version,
                                    caller,
                                    key.artist(),
                                    key.album(),
                                    key.song(),
                                    current.version(),
                                    current.owner());
                    Current proposed = new Current(tags, removed, version, caller);
                    return Step.write(
                            "songs",
                            write,
                            () -> latest(key)
                                    .map(held -> held.filter(proposed::equals).isPresent()),
                            () -> {
                                Set<String> untag = new TreeSet<>(removed);
                                if (current != null) {
                                    untag.addAll(current.lastRemoved());
                                }
                                untag.removeAll(tags);
                                return syncTags(key, tags, untag, version)
                                        .replaceWith(new Changed(song(key, tags, caller), current == null));
                            });
                },
                () -> ProblemException.conflict("The song is being changed concurrently; retry"));
    }

    /** The song as of every acknowledged conditional write (a serial read); one partition. */
    private Uni<Optional<Current>> latest(Key key) {
        return cql.read(READ, cql.serially(), key.artist(), key.album(), key.song())
                .map(rs -> Optional.ofNullable(rs.one())
                        .map(row -> new Current(
                                new TreeSet<>(row.get("tags", CqlTypes.SET_OF_TEXT)),
                                new TreeSet<>(row.get("last_removed", CqlTypes.SET_OF_TEXT)),
                                row.getLong("version"),
                                row.getString("owner"))));
    }

    /** The song with its tags and owner, or null when there is no such song. One partition read. */
    Uni<Song> find(Key key) {
        return cql.read(READ, key.artist(), key.album(), key.song()).map(rs -> {
            Row row = rs.one();
            return row == null ? null : song(key, row.get("tags", CqlTypes.SET_OF_TEXT), row.getString("owner"));
        });
    }

    private static Song song(Key key, Set<String> tags, String owner) {
        return new Song(key.artist(), key.album(), key.song(), List.copyOf(new TreeSet<>(tags)), owner);
    }

    private Uni<Void> syncTags(Key key, Set<String> tags, Set<String> untag, long version) {
        TagIndex.Entry entry = new TagIndex.Entry(key.artist(), key.album(), key.song());
        List<Uni<Void>> writes = new ArrayList<>();
        tags.forEach(tag -> writes.add(index.tag(tag, entry, version)));
        untag.forEach(tag -> writes.add(index.untag(tag, entry, version)));
        if (writes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Uni.join().all(writes).andFailFast().replaceWithVoid();
    }

    /** Microseconds now, and always above the previous version (clocks of replicas differ). */
    private long nextVersion(Current current) {
        Instant now = clock.instant();
        long micros = Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1_000);
        return current == null ? micros : Math.max(micros, current.version() + 1);
    }
}
