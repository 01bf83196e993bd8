package dev.cqlpatterns.platform.nativeimage;

import dev.cqlpatterns.platform.errors.Problem;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Classes Jackson must reflect on in a native image that Quarkus cannot find by itself: it
 * registers the declared return types of REST methods, but a problem travels inside a
 * {@code Response}. Cursor positions (the records given to {@code Cursors}) need the same: annotate
 * each with {@code @RegisterForReflection} or list it here ({@code NativeReflectionTest} checks).
 *
 * <p>The object mapper needs nothing here: its generated classes ({@code *__MapperGenerated}) are
 * called directly, and it reflects only on custom {@code NameConverter}s, which would be listed here.
 */
@RegisterForReflection(targets = {Problem.class, Problem.FieldError.class})
public final class NativeReflection {
    private NativeReflection() {}
}
