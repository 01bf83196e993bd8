package dev.cqlpatterns.platform.limits;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A route whose request body is stored as sent (a paste): besides the writes budget, its bytes
 * are charged to the caller's body-bytes budget, so large bodies cannot be stored at the rate of
 * small ones.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ChargesBodyBytes {}
