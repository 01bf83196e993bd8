package dev.cqlpatterns.platform.paging;

import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** One page of a list: {@code next} is the cursor for the following page, null on the last one. */
public record Page<T>(
        List<T> items,

        @Schema(
                description = "Opaque cursor for the next page; null on the last page",
                nullable = true,
                pattern = Cursors.PATTERN,
                maxLength = Cursors.MAX_LENGTH)
        String next) {

    public static <T> Page<T> of(List<T> items, String next) {
        return new Page<>(items, next);
    }
}
